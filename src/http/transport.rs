//! What a failed exchange means for a lookup: ureq's transport errors as typed
//! lookup errors, and which of them a re-send on a new connection can cure.

use std::time::Duration;

use crate::domain::error::LookupError;

/// The typed failure for a ureq error; `timeout` is the bound the request had.
pub fn transport_error(error: ureq::Error, timeout: Duration) -> LookupError {
    match error {
        ureq::Error::Timeout(_) => LookupError::Timeout(timeout),
        ureq::Error::Io(e) if e.kind() == std::io::ErrorKind::TimedOut => {
            LookupError::Timeout(timeout)
        }
        ureq::Error::Io(e) => match tls_error(&e) {
            Some(tls) => LookupError::Unreachable(format!("TLS: {tls}")),
            None => LookupError::Unavailable(e.to_string()),
        },
        ureq::Error::HostNotFound => LookupError::Unreachable("host not found".into()),
        ureq::Error::ConnectionFailed => LookupError::Unavailable("connection failed".into()),
        ureq::Error::Tls(reason) => LookupError::Unreachable(format!("TLS: {reason}")),
        ureq::Error::BodyExceedsLimit(limit) => LookupError::Unreadable(format!(
            "body larger than {limit} bytes (raise --max-body if this is expected)"
        )),
        ureq::Error::Protocol(ureq_proto::Error::HttpParseTooManyHeaders) => {
            LookupError::Unreadable("response headers too large (too many header lines)".into())
        }
        ureq::Error::Protocol(e) => LookupError::Unreadable(format!("malformed HTTP: {e}")),
        ureq::Error::LargeResponseHeader(_, _) => {
            LookupError::Unreadable("response headers too large".into())
        }
        // A proxy's own refusal is told apart from the service's: 407 is a setup
        // problem (credentials in the proxy URL), not worth a retry.
        ureq::Error::ConnectProxyFailed(reason) if reason.contains(" 407/") => {
            LookupError::NotAuthorised {
                status: 407,
                message: None,
            }
        }
        ureq::Error::ConnectProxyFailed(reason) => {
            LookupError::Unavailable(format!("proxy: {reason}"))
        }
        other => LookupError::Unavailable(other.to_string()),
    }
}

/// A connection that ended before the answer's head: what a pooled connection closed
/// by the server while idle (load balancers do this) looks like when reused.
pub fn closed_early(error: &ureq::Error) -> bool {
    use std::io::ErrorKind::{BrokenPipe, ConnectionAborted, ConnectionReset, UnexpectedEof};
    matches!(error, ureq::Error::Io(e) if matches!(e.kind(), ConnectionReset | ConnectionAborted | UnexpectedEof | BrokenPipe))
}

/// rustls reports through io errors; a certificate or protocol problem is told from
/// a network one, because retrying it is pointless.
fn tls_error(error: &std::io::Error) -> Option<&rustls::Error> {
    error
        .get_ref()
        .and_then(|e| e.downcast_ref::<rustls::Error>())
}

/// An answer over `--max-body`.
pub(super) fn too_large(max_body: u64) -> LookupError {
    LookupError::Unreadable(format!(
        "body larger than {max_body} bytes (raise --max-body if this is expected)"
    ))
}
