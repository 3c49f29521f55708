//! One connection's keep-alive loop: reading request heads, framing bodies, and
//! deciding whether the connection stays open.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::*;

/// Why a connection ends after the current answer.
enum After {
    KeepAlive,
    Close,
    /// Close, but drain what the client may still be sending first.
    Linger,
}

pub(super) fn serve_connection(mut stream: TcpStream, inner: &Inner) {
    let _ = stream.set_nodelay(true);
    // A zero timeout means none (the socket API refuses zero).
    let timeout = Some(inner.limits.idle_timeout).filter(|t| !t.is_zero());
    let _ = stream.set_read_timeout(timeout);
    let _ = stream.set_write_timeout(timeout);
    let mut buf = vec![0u8; inner.limits.max_head];
    let mut filled = 0;
    loop {
        if filled > 0 {
            match next_request(&mut stream, &mut buf, &mut filled, inner) {
                Some(After::KeepAlive) => continue,
                Some(After::Close) => return,
                Some(After::Linger) => return linger(stream),
                None => {} // incomplete: read more
            }
        }
        if filled == buf.len() {
            refuse(&mut stream, 431);
            return linger(stream);
        }
        match stream.read(&mut buf[filled..]) {
            Ok(0) | Err(_) => return,
            Ok(n) => filled += n,
        }
    }
}

/// Parses and serves the request at the start of `buf[..filled]` if its head is
/// complete, leaving the bytes after it (pipelined requests) at the start of `buf`.
/// `None`: the head is incomplete.
fn next_request(
    stream: &mut TcpStream,
    buf: &mut [u8],
    filled: &mut usize,
    inner: &Inner,
) -> Option<After> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut parsed = httparse::Request::new(&mut headers);
    let head = match parsed.parse(&buf[..*filled]) {
        Ok(httparse::Status::Partial) => return None,
        Ok(httparse::Status::Complete(len)) => {
            framing(&parsed, inner.limits.max_body).map(|framed| (len, framed))
        }
        Err(httparse::Error::TooManyHeaders) => Err(431),
        Err(_) => Err(400),
    };
    let (head_len, (request, body_len, keep_alive)) = match head {
        Ok(head) => head,
        Err(status) => {
            refuse(stream, status);
            return Some(After::Linger);
        }
    };
    if !discard_body(stream, buf, filled, head_len, body_len, &request) {
        return Some(After::Close);
    }
    Some(respond(stream, &request, keep_alive, *filled, inner))
}

/// Answers an error status; the connection then closes.
pub(super) fn refuse(stream: &mut TcpStream, status: u16) {
    let answer = write_response(&HttpResponse::plain(status), false, 1, false);
    let _ = stream.write_all(&answer);
}

/// Discards the body: first what is buffered, then the rest from the socket. False
/// when the client went away first.
fn discard_body(
    stream: &mut TcpStream,
    buf: &mut [u8],
    filled: &mut usize,
    head_len: usize,
    body_len: u64,
    request: &HttpRequest,
) -> bool {
    let buffered = (*filled - head_len) as u64;
    let consumed = head_len + body_len.min(buffered) as usize;
    buf.copy_within(consumed..*filled, 0);
    *filled -= consumed;
    if body_len <= buffered {
        return true;
    }
    let asks = request.header("Expect").filter(|_| request.version >= 1);
    if asks.is_some_and(|v| v.eq_ignore_ascii_case("100-continue")) {
        let _ = stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
    }
    let mut rest = body_len - buffered;
    while rest > 0 {
        let want = rest.min(buf.len() as u64) as usize;
        match stream.read(&mut buf[..want]) {
            Ok(0) | Err(_) => return false,
            Ok(n) => rest -= n as u64,
        }
    }
    true
}

/// Runs the handler (a panic in it is a 500 and the end of the connection) and
/// writes the answer; `pipelined` bytes are already waiting behind this request.
fn respond(
    stream: &mut TcpStream,
    request: &HttpRequest,
    keep_alive: bool,
    pipelined: usize,
    inner: &Inner,
) -> After {
    let answer = panic::catch_unwind(AssertUnwindSafe(|| (inner.handler)(request)));
    // A shut-down server finishes the request it has, then lets the client go.
    let keep_alive = keep_alive && answer.is_ok() && !inner.stopping.load(Ordering::Relaxed);
    let response = answer.unwrap_or_else(|_| HttpResponse::plain(500));
    let is_head = request.method == "HEAD";
    let out = write_response(&response, keep_alive, request.version, is_head);
    if stream.write_all(&out).is_err() {
        return After::Close;
    }
    match (keep_alive, pipelined) {
        (true, _) => After::KeepAlive,
        (false, 0) => After::Close,
        (false, _) => After::Linger,
    }
}

/// The owned request, its body length (at most `max_body`) and whether the
/// connection may be kept open; or the error status to answer.
fn framing(parsed: &httparse::Request, max_body: u64) -> Result<(HttpRequest, u64, bool), u16> {
    let (Some(method), Some(target), Some(version)) = (parsed.method, parsed.path, parsed.version)
    else {
        return Err(400);
    };
    let mut body_len: Option<u64> = None;
    let (mut close, mut keep_alive) = (false, false);
    let mut headers = Vec::with_capacity(parsed.headers.len());
    for header in parsed.headers.iter() {
        let value = String::from_utf8_lossy(header.value).into_owned();
        if header.name.eq_ignore_ascii_case("Content-Length") {
            let digits = value.trim();
            let all_digits = digits.bytes().all(|b| b.is_ascii_digit());
            let len = digits.parse().ok().filter(|_| all_digits);
            if len.is_none() || body_len.is_some_and(|seen| Some(seen) != len) {
                return Err(400);
            }
            body_len = len;
        } else if header.name.eq_ignore_ascii_case("Transfer-Encoding") {
            return Err(501);
        } else if header.name.eq_ignore_ascii_case("Connection") {
            for token in value.split(',').map(str::trim) {
                close |= token.eq_ignore_ascii_case("close");
                keep_alive |= token.eq_ignore_ascii_case("keep-alive");
            }
        }
        headers.push((header.name.to_string(), value));
    }
    let body_len = body_len.unwrap_or(0);
    if body_len > max_body {
        return Err(413);
    }
    let keep_alive = !close && (version >= 1 || keep_alive);
    let request = HttpRequest {
        method: method.to_string(),
        target: target.to_string(),
        version,
        headers,
    };
    Ok((request, body_len, keep_alive))
}

/// Lingering close: stop sending, then read (and drop) what the client still sends
/// for a moment, so that closing with unread data does not reset the connection
/// before the client has read the answer.
fn linger(mut stream: TcpStream) {
    let _ = stream.shutdown(Shutdown::Write);
    let deadline = Instant::now() + Duration::from_secs(2);
    let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
    let mut scratch = [0u8; 8192];
    let mut drained = 0usize;
    while Instant::now() < deadline && drained < 1024 * 1024 {
        match stream.read(&mut scratch) {
            Ok(0) | Err(_) => return,
            Ok(n) => drained += n,
        }
    }
}
