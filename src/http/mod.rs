//! The HTTP layer: the one client (ureq), answer reading, retries, resolver, TLS, traces and the one secret scrubber.

pub(crate) mod agents;
pub(crate) mod answer;
pub(crate) mod client;
pub(crate) mod pace;
pub(crate) mod redact;
pub(crate) mod resolve;
pub(crate) mod retry;
pub(crate) mod tls;
pub(crate) mod transport;
