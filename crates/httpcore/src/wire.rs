//! Writing answers: the status line, headers (checked), body, in one buffer.

use std::io::Write;

use super::*;

/// The whole answer, head and body, for a single write; an HTTP/1.0 client is told
/// that the connection stays open.
pub(super) fn write_response(
    response: &HttpResponse,
    keep_alive: bool,
    version: u8,
    omit_body: bool,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(256 + response.body.len());
    let status = response.status;
    // Writing into a Vec cannot fail.
    let _ = write!(out, "HTTP/1.1 {status:03} {}\r\n", reason(status));
    let content_type = &response.content_type;
    if !content_type.is_empty() && is_header_value(content_type) {
        let _ = write!(out, "Content-Type: {content_type}\r\n");
    }
    let _ = write!(out, "Content-Length: {}\r\n", response.body.len());
    if !keep_alive {
        out.extend_from_slice(b"Connection: close\r\n");
    } else if version == 0 {
        out.extend_from_slice(b"Connection: keep-alive\r\n");
    }
    const RESERVED: [&str; 3] = ["Content-Length", "Connection", "Transfer-Encoding"];
    for (name, value) in &response.headers {
        let reserved = RESERVED.iter().any(|r| name.eq_ignore_ascii_case(r));
        let valid = http::HeaderName::from_bytes(name.as_bytes()).is_ok() && is_header_value(value);
        if !reserved && valid {
            let _ = write!(out, "{name}: {value}\r\n");
        }
    }
    out.extend_from_slice(b"\r\n");
    if !omit_body {
        out.extend_from_slice(&response.body);
    }
    out
}

fn is_header_value(value: &str) -> bool {
    !value.bytes().any(|b| matches!(b, b'\r' | b'\n' | 0))
}

/// The reason phrase of a status code; empty (which HTTP allows) for unknown ones.
pub fn reason(status: u16) -> &'static str {
    http::StatusCode::from_u16(status)
        .ok()
        .and_then(|status| status.canonical_reason())
        .unwrap_or("")
}
