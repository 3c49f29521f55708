//! ureq's transport errors as typed lookup errors, and reading a body within
//! `--max-body` and the run's memory budget.

use std::io::{ErrorKind, Read};
use std::time::Duration;

use crate::domain::budget::{Budget, Permit};
use crate::domain::error::LookupError;

/// The typed failure for a ureq error; `timeout` is the bound the request had.
pub fn transport_error(error: ureq::Error, timeout: Duration) -> LookupError {
    match error {
        ureq::Error::Timeout(_) => LookupError::Timeout(timeout),
        ureq::Error::Io(e) if e.kind() == ErrorKind::TimedOut => LookupError::Timeout(timeout),
        ureq::Error::Io(e) if e.kind() == ErrorKind::ConnectionRefused => {
            LookupError::Refused(e.to_string())
        }
        // rustls reports through io errors; a certificate or protocol problem is told
        // from a network one, because retrying it is pointless.
        ureq::Error::Io(e) => match e.get_ref().and_then(|e| e.downcast_ref::<rustls::Error>()) {
            Some(tls) => LookupError::Tls(tls.to_string()),
            None => LookupError::Unavailable(e.to_string()),
        },
        ureq::Error::HostNotFound => LookupError::Unreachable("host not found".into()),
        ureq::Error::ConnectionFailed => LookupError::Refused("connection failed".into()),
        ureq::Error::Tls(reason) => LookupError::Tls(reason.into()),
        ureq::Error::Protocol(ureq_proto::Error::HttpParseTooManyHeaders) => {
            LookupError::Unreadable("response headers too large (too many header lines)".into())
        }
        ureq::Error::Protocol(e) => LookupError::Unreadable(format!("malformed HTTP: {e}")),
        ureq::Error::LargeResponseHeader(_, _) => {
            LookupError::Unreadable("response headers too large".into())
        }
        // A proxy's own refusal is told apart from the service's; a 407 (credentials
        // in the proxy URL) is not worth a retry. ureq gives the status only as text.
        ureq::Error::ConnectProxyFailed(reason) if reason.contains(" 407/") => {
            LookupError::NotAuthorised {
                status: 407,
                message: None,
            }
        }
        ureq::Error::ConnectProxyFailed(reason) => LookupError::ProxyRefused(reason),
        other => LookupError::Unavailable(other.to_string()),
    }
}

/// A connection that ended before the answer's head: what a pooled connection closed
/// by the server while idle (load balancers do this) looks like when reused.
pub fn closed_early(error: &ureq::Error) -> bool {
    use std::io::ErrorKind::{BrokenPipe, ConnectionAborted, ConnectionReset, UnexpectedEof};
    matches!(error, ureq::Error::Io(e) if matches!(e.kind(), ConnectionReset | ConnectionAborted | UnexpectedEof | BrokenPipe))
}

/// The body, within `--max-body`, in a buffer of the announced size: growing one
/// by doubling would hold up to twice a large answer per lookup under way.
pub fn read_body<'b>(
    response: &mut ureq::http::Response<ureq::Body>,
    timeout: Duration,
    max_body: u64,
    bodies: &'b Budget,
) -> Result<(Vec<u8>, Permit<'b>), LookupError> {
    // One byte over the cap: ureq refuses a body that reaches its limit, so the cap
    // itself fits.
    let limit = max_body.saturating_add(1);
    let capacity = response.body().content_length().unwrap_or(0).min(limit);
    let permit = bodies.take(capacity);
    let mut body = Vec::with_capacity(usize::try_from(capacity).unwrap_or(0));
    let mut reader = response.body_mut().with_config().limit(limit).reader();
    let read = reader.read_to_end(&mut body);
    read.map_err(|e| match ureq::Error::from(e) {
        ureq::Error::BodyExceedsLimit(_) => LookupError::Unreadable(format!(
            "body larger than {max_body} bytes (raise --max-body if this is expected)"
        )),
        other => transport_error(other, timeout),
    })?;
    Ok((body, permit))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::exit_codes;

    #[test]
    fn a_tls_failure_and_a_proxy_refusal_are_typed() {
        let limit = Duration::from_secs(1);
        let tls = transport_error(ureq::Error::Tls("bad certificate"), limit);
        assert!(matches!(tls, LookupError::Tls(_)), "{tls:?}");
        assert!(!tls.is_transient());
        assert_eq!(tls.exit_code(), exit_codes::UNAVAILABLE);
        assert_eq!(tls.to_string(), "service unreachable: TLS: bad certificate");

        let io = std::io::Error::from(ErrorKind::ConnectionRefused);
        let refused = transport_error(ureq::Error::Io(io), limit);
        assert!(matches!(refused, LookupError::Refused(_)), "{refused:?}");
        assert!(refused.is_transient());
        assert_eq!(refused.exit_code(), exit_codes::UNAVAILABLE);

        let refused = "proxy server responded 403/Forbidden".to_string();
        let proxy = transport_error(ureq::Error::ConnectProxyFailed(refused), limit);
        assert!(matches!(proxy, LookupError::ProxyRefused(_)), "{proxy:?}");
        assert_eq!(proxy.exit_code(), exit_codes::UNAVAILABLE);
        assert_eq!(
            proxy.to_string(),
            "service unavailable: proxy: proxy server responded 403/Forbidden"
        );
    }
}
