//! The server's certificate for the tls step: a connection of the step's own through
//! the lookups' transport chain (`http::agents::connector`: the proxy's tunnel, TCP,
//! TLS with the same roots), stopped after the handshake; then its subject and
//! expiry read from the DER.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use rustls::pki_types::CertificateDer;
use ureq::http::Uri;
use ureq::unversioned::resolver::{DefaultResolver, Resolver};
use ureq::unversioned::transport::time::Instant;
use ureq::unversioned::transport::{ConnectionDetails, Connector, Either, NextTimeout, Transport};
use ureq::Timeout;

use super::der::{cert_facts, DerError};
use crate::domain::error::LookupError;
use crate::http::agents::{agent_config, connector};
use crate::http::transport::transport_error;
use crate::settings::config::HttpSettings;

const DAY: u64 = 24 * 60 * 60;

#[derive(Debug, thiserror::Error)]
pub(super) enum CertError {
    /// As a lookup's connection would have failed (`LookupError::Timeout` included).
    #[error("{0}")]
    Connection(LookupError),
    #[error("no certificate from the server")]
    NoCertificate,
    #[error("{0}")]
    Der(#[from] DerError),
}

/// What the certificate the server presents says: `certificate for CN=..., expires
/// 2027-03-01 (in 96 days)`. Within `--timeout`, as a lookup's request is.
pub(super) fn inspect(http: &HttpSettings) -> Result<String, CertError> {
    let der = handshake(http)
        .map_err(|e| CertError::Connection(transport_error(e, http.timeout)))?
        .ok_or(CertError::NoCertificate)?;
    let (subject, not_after) = cert_facts(&der)?;
    let subject = match subject.as_str() {
        "" => "an empty subject",
        subject => subject,
    };
    let days = |d: Duration| d.as_secs() / DAY;
    let days_left = match humantime::parse_rfc3339(&not_after) {
        Ok(end) => match end.duration_since(SystemTime::now()) {
            Ok(left) => format!(" (in {} days)", days(left)),
            Err(past) => format!(" (expired {} days ago)", days(past.duration()).max(1)),
        },
        Err(_) => String::new(),
    };
    let date = &not_after[..10];
    Ok(format!(
        "certificate for {subject}, expires {date}{days_left}"
    ))
}

/// Connects as an agent does (the target resolved here unless a proxy does it).
fn handshake(http: &HttpSettings) -> Result<Option<CertificateDer<'static>>, ureq::Error> {
    let uri: Uri = http.base_url.parse().map_err(ureq::http::Error::from)?;
    let config = agent_config(http, 0);
    let resolver = DefaultResolver::default();
    let started = std::time::Instant::now();
    let within = |after: Duration, reason| NextTimeout {
        after: after.into(),
        reason,
        ..NextTimeout::default()
    };
    let addrs = match http.proxy {
        Some(_) => resolver.empty(),
        None => resolver.resolve(&uri, &config, within(http.timeout, Timeout::Resolve))?,
    };
    // What is left of `--timeout` for the connection, tunnel and handshake.
    let left = http.timeout.saturating_sub(started.elapsed());
    let details = ConnectionDetails {
        uri: &uri,
        addrs,
        config: &config,
        request_level: false,
        resolver: &resolver,
        now: Instant::now(),
        timeout: within(left, Timeout::Connect),
        current_time: Arc::new(Instant::now),
        // The proxy's own connection, made by the chain again (ureq's agent does so).
        run_connector: Arc::new(|details| {
            let transport = connector(true).connect(details, None)?;
            transport
                .map(Transport::boxed)
                .ok_or(ureq::Error::ConnectionFailed)
        }),
        register_shutdown: Arc::new(|_| Ok(())),
    };
    Ok(match connector(true).connect(&details, None)? {
        Some(Either::B(tls)) => tls.peer_certificate().cloned(),
        _ => None,
    })
}
