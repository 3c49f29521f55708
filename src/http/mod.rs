//! The HTTP layer: the blocking client, the multiplexer of batches,
//! answer reading, retries, resolver, TLS, traces and the one secret scrubber.

pub(crate) mod agents;
pub(crate) mod answer;
pub(crate) mod budget;
pub(crate) mod client;
#[cfg(unix)]
pub(crate) mod mux;
pub(crate) mod pace;
pub(crate) mod panic_trigger;
pub(crate) mod redact;
pub(crate) mod resolve;
pub(crate) mod retry;
pub(crate) mod routes;
#[cfg(unix)]
pub(crate) mod socket;
pub(crate) mod tls;
pub(crate) mod trace;
pub(crate) mod transport;
