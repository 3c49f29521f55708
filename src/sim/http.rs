//! A small blocking HTTP/1.1 server core: `std::net` sockets, `httparse` for the
//! request head, one thread per connection.
//!
//! Made for loopback use (the simulator and the integration tests), where a thread
//! per connection is both the simplest and the fastest design: no queue sits between
//! accepting a connection and serving it, so a burst of keep-alive connections can
//! never leave one waiting for another to close.
//!
//! What it speaks: keep-alive (HTTP/1.1 by default, HTTP/1.0 with
//! `Connection: keep-alive`), `Connection: close`, pipelined requests, request bodies
//! framed by `Content-Length` (read and discarded, after a `100 Continue` when asked),
//! `HEAD` (the body is left out, its `Content-Length` kept). What it refuses, always
//! closing the connection after the answer: an unparsable head (400), a head over
//! [`Limits::max_head`] or with too many headers (431), a body over
//! [`Limits::max_body`] (413), any `Transfer-Encoding` (501), and connections beyond
//! [`Limits::max_connections`] (503). A connection idle for [`Limits::idle_timeout`]
//! is closed.
//!
//! Shutting down (or dropping) stops accepting, closes the listening socket and shuts
//! down every open connection, without waiting for the connection threads to end.

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::net::{Ipv4Addr, Ipv6Addr, Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// Turns one request into its answer; called on the connection's own thread.
pub type Handler = Arc<dyn Fn(&HttpRequest) -> HttpResponse + Send + Sync>;

/// Most headers a request may carry (beyond that: 431).
const MAX_HEADERS: usize = 64;

/// Resource limits of an [`HttpServer`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Open connections served at once; more are answered 503 and closed.
    pub max_connections: usize,
    /// Bytes of a request head (request line and headers); longer ones get 431.
    pub max_head: usize,
    /// Bytes of a request body (read and discarded); longer ones get 413.
    pub max_body: u64,
    /// How long a connection may wait for its client to send (or take) data; zero
    /// for no limit.
    pub idle_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_connections: 1024,
            max_head: 16 * 1024,
            max_body: 1024 * 1024,
            idle_timeout: Duration::from_secs(30),
        }
    }
}

/// One request as received: the body, if any, has been discarded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpRequest {
    /// As sent (`GET`, `HEAD`, ...); methods are case-sensitive.
    pub method: String,
    /// The request target exactly as sent, still percent-encoded (`/sms/42?x=1`).
    pub target: String,
    /// The minor HTTP version: 0 for HTTP/1.0, 1 for HTTP/1.1.
    pub version: u8,
    /// Name and value pairs in the order sent (values decoded lossily as UTF-8).
    pub headers: Vec<(String, String)>,
}

impl HttpRequest {
    /// The first header of that name, compared case-insensitively.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// One answer. `Content-Length` and `Connection` are written by the server; extra
/// headers of those names (or `Transfer-Encoding`), or with a line break or an
/// invalid name, are left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpResponse {
    pub status: u16,
    pub content_type: Cow<'static, str>,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl HttpResponse {
    pub fn new(
        status: u16,
        content_type: impl Into<Cow<'static, str>>,
        body: impl Into<Vec<u8>>,
    ) -> Self {
        HttpResponse {
            status,
            content_type: content_type.into(),
            headers: Vec::new(),
            body: body.into(),
        }
    }

    pub fn with_header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    fn plain(status: u16) -> Self {
        HttpResponse::new(status, "text/plain; charset=utf-8", reason(status))
    }
}

/// A running server; serves until [`HttpServer::shutdown`] or dropped.
pub struct HttpServer {
    addr: SocketAddr,
    inner: Arc<Inner>,
    accept: Option<JoinHandle<()>>,
}

/// What the accept thread and the connection threads share.
struct Inner {
    handler: Handler,
    limits: Limits,
    stopping: AtomicBool,
    next_id: AtomicU64,
    /// A second handle on every open connection, to shut them down when stopping;
    /// its size is the number of live connections.
    connections: Mutex<HashMap<u64, TcpStream>>,
}

impl Inner {
    fn connections(&self) -> MutexGuard<'_, HashMap<u64, TcpStream>> {
        // A panic while holding the lock leaves a map that is still consistent.
        self.connections
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl HttpServer {
    /// Binds `addr` (so the address is known and connectable on return) and starts
    /// accepting, with the default [`Limits`].
    pub fn bind(addr: impl ToSocketAddrs, handler: Handler) -> io::Result<HttpServer> {
        HttpServer::bind_with(addr, handler, Limits::default())
    }

    pub fn bind_with(
        addr: impl ToSocketAddrs,
        handler: Handler,
        limits: Limits,
    ) -> io::Result<HttpServer> {
        HttpServer::from_listener(TcpListener::bind(addr)?, handler, limits)
    }

    /// Serves on an already bound listener.
    pub fn from_listener(
        listener: TcpListener,
        handler: Handler,
        limits: Limits,
    ) -> io::Result<HttpServer> {
        let addr = listener.local_addr()?;
        let inner = Arc::new(Inner {
            handler,
            limits,
            stopping: AtomicBool::new(false),
            next_id: AtomicU64::new(0),
            connections: Mutex::new(HashMap::new()),
        });
        let accept = {
            let inner = Arc::clone(&inner);
            thread::Builder::new()
                .name("smsstat-http-accept".into())
                .spawn(move || accept_loop(&listener, &inner))?
        };
        Ok(HttpServer {
            addr,
            inner,
            accept: Some(accept),
        })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Open connections right now.
    pub fn connections(&self) -> usize {
        self.inner.connections().len()
    }

    /// Blocks, serving, until the process ends (nothing else can stop it).
    pub fn wait(mut self) {
        if let Some(accept) = self.accept.take() {
            let _ = accept.join();
        }
    }

    /// Stops accepting, closes the listening socket and every open connection
    /// (dropping does the same).
    pub fn shutdown(self) {}

    fn stop(&mut self) {
        let Some(accept) = self.accept.take() else {
            return;
        };
        self.inner.stopping.store(true, Ordering::SeqCst);
        // Wake the blocking accept() with a connection of our own; it sees the flag
        // and returns, which closes the listener. Should that connection fail, the
        // thread is left behind rather than waited on forever.
        if TcpStream::connect_timeout(&wake_addr(self.addr), Duration::from_secs(1)).is_ok() {
            let _ = accept.join();
        }
        // Registration checks the flag under this lock: none can follow this loop.
        for stream in self.inner.connections().values() {
            let _ = stream.shutdown(Shutdown::Both);
        }
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Where to connect to reach a listener bound to `addr` (a wildcard address is
/// reached through loopback).
fn wake_addr(addr: SocketAddr) -> SocketAddr {
    let mut wake = addr;
    if addr.ip().is_unspecified() {
        wake.set_ip(match addr {
            SocketAddr::V4(_) => Ipv4Addr::LOCALHOST.into(),
            SocketAddr::V6(_) => Ipv6Addr::LOCALHOST.into(),
        });
    }
    wake
}

fn accept_loop(listener: &TcpListener, inner: &Arc<Inner>) {
    loop {
        let stream = match listener.accept() {
            Ok((stream, _)) => stream,
            Err(_) if inner.stopping.load(Ordering::SeqCst) => return,
            Err(e) => {
                // Out of file descriptors (or similar): let some connections end
                // instead of spinning. Anything else concerns one connection only.
                if e.raw_os_error()
                    .is_some_and(|code| code == 23 || code == 24)
                {
                    thread::sleep(Duration::from_millis(20));
                }
                continue;
            }
        };
        if inner.stopping.load(Ordering::SeqCst) {
            return;
        }
        let Some(id) = register(inner, &stream) else {
            refuse(stream);
            continue;
        };
        let conn = Arc::clone(inner);
        let spawned = thread::Builder::new()
            .name("smsstat-http-conn".into())
            .spawn(move || {
                let _registered = Registered { inner: &conn, id };
                serve_connection(stream, &conn);
            });
        if let Err(failed) = spawned {
            // The closure (with the stream) is gone with the error; unregistering
            // drops the last handle, which closes the connection.
            drop(failed);
            inner.connections().remove(&id);
        }
    }
}

/// Records a live connection, unless over the limit or stopping.
fn register(inner: &Inner, stream: &TcpStream) -> Option<u64> {
    let handle = stream.try_clone().ok()?;
    let mut connections = inner.connections();
    if inner.stopping.load(Ordering::SeqCst) || connections.len() >= inner.limits.max_connections {
        return None;
    }
    let id = inner.next_id.fetch_add(1, Ordering::Relaxed);
    connections.insert(id, handle);
    Some(id)
}

/// Removes its connection from the registry when the connection thread ends.
struct Registered<'a> {
    inner: &'a Inner,
    id: u64,
}

impl Drop for Registered<'_> {
    fn drop(&mut self) {
        self.inner.connections().remove(&self.id);
    }
}

/// Answers 503 on the accept thread without waiting for anything: whatever the
/// client already sent is read first, so closing does not reset the connection
/// before the answer is read.
fn refuse(mut stream: TcpStream) {
    let _ = stream.set_nonblocking(true);
    let mut scratch = [0u8; 4096];
    for _ in 0..16 {
        if !matches!(stream.read(&mut scratch), Ok(n) if n > 0) {
            break;
        }
    }
    let mut out = Vec::new();
    write_response(&mut out, &HttpResponse::plain(503), true, false, false);
    let _ = stream.write_all(&out);
    let _ = stream.shutdown(Shutdown::Write);
}

/// Why a connection ends after the current answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum After {
    KeepAlive,
    Close,
    /// Close, but drain what the client may still be sending first.
    Linger,
}

/// The keep-alive loop of one connection.
fn serve_connection(mut stream: TcpStream, inner: &Inner) {
    let limits = inner.limits;
    let _ = stream.set_nodelay(true);
    // A zero timeout means none (the socket API refuses zero).
    let timeout = Some(limits.idle_timeout).filter(|t| !t.is_zero());
    let _ = stream.set_read_timeout(timeout);
    let _ = stream.set_write_timeout(timeout);
    let mut buf = vec![0u8; limits.max_head];
    let mut filled = 0;
    let mut out = Vec::with_capacity(1024);
    loop {
        if filled > 0 {
            match next_request(&mut stream, &mut buf, &mut filled, inner, &mut out) {
                Some(After::KeepAlive) => continue,
                Some(After::Close) => return,
                Some(After::Linger) => return linger(stream),
                None => {} // incomplete: read more
            }
        }
        if filled == buf.len() {
            out.clear();
            write_response(&mut out, &HttpResponse::plain(431), true, false, false);
            let _ = stream.write_all(&out);
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
    out: &mut Vec<u8>,
) -> Option<After> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut parsed = httparse::Request::new(&mut headers);
    let (status, head_len) = match parsed.parse(&buf[..*filled]) {
        Ok(httparse::Status::Partial) => return None,
        Ok(httparse::Status::Complete(len)) => (0, len),
        Err(httparse::Error::TooManyHeaders) => (431, 0),
        Err(_) => (400, 0),
    };
    let head = if status == 0 {
        framing(&parsed)
    } else {
        Err(status)
    };
    let (request, body_len, keep_alive) = match head {
        Ok(head) => head,
        Err(status) => {
            out.clear();
            write_response(out, &HttpResponse::plain(status), true, false, false);
            let _ = stream.write_all(out);
            return Some(After::Linger);
        }
    };
    if body_len > inner.limits.max_body {
        out.clear();
        write_response(out, &HttpResponse::plain(413), true, false, false);
        let _ = stream.write_all(out);
        return Some(After::Linger);
    }

    // Discard the body: first what is buffered, then the rest from the socket.
    let buffered = (*filled - head_len) as u64;
    let consumed = head_len + body_len.min(buffered) as usize;
    buf.copy_within(consumed..*filled, 0);
    *filled -= consumed;
    if body_len > buffered {
        let expects_continue = request
            .header("Expect")
            .is_some_and(|v| v.eq_ignore_ascii_case("100-continue"));
        if expects_continue && request.version >= 1 {
            let _ = stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
        }
        let mut rest = body_len - buffered;
        while rest > 0 {
            let want = rest.min(buf.len() as u64) as usize;
            match stream.read(&mut buf[..want]) {
                Ok(0) | Err(_) => return Some(After::Close),
                Ok(n) => rest -= n as u64,
            }
        }
    }

    let handler = &inner.handler;
    let (response, keep_alive) = match panic::catch_unwind(AssertUnwindSafe(|| handler(&request))) {
        Ok(response) => (response, keep_alive),
        Err(_) => (HttpResponse::plain(500), false),
    };
    // A shut-down server finishes the request it has, then lets the client go.
    let keep_alive = keep_alive && !inner.stopping.load(Ordering::Relaxed);
    let is_head = request.method == "HEAD";
    out.clear();
    write_response(
        out,
        &response,
        !keep_alive,
        keep_alive && request.version == 0,
        is_head,
    );
    if stream.write_all(out).is_err() {
        return Some(After::Close);
    }
    Some(match (keep_alive, *filled) {
        (true, _) => After::KeepAlive,
        (false, 0) => After::Close,
        (false, _) => After::Linger,
    })
}

/// The owned request, its body length and whether the connection may be kept open;
/// or the error status to answer.
fn framing(parsed: &httparse::Request) -> Result<(HttpRequest, u64, bool), u16> {
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
            let len = value
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|_| value.trim().bytes().all(|b| b.is_ascii_digit()))
                .ok_or(400u16)?;
            if body_len.is_some_and(|seen| seen != len) {
                return Err(400);
            }
            body_len = Some(len);
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
    let keep_alive = !close && (version >= 1 || keep_alive);
    let request = HttpRequest {
        method: method.to_string(),
        target: target.to_string(),
        version,
        headers,
    };
    Ok((request, body_len.unwrap_or(0), keep_alive))
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

/// The whole answer, head and body, into `out` for a single write.
fn write_response(
    out: &mut Vec<u8>,
    response: &HttpResponse,
    close: bool,
    announce_keep_alive: bool,
    omit_body: bool,
) {
    let status = response.status;
    // Writing into a Vec cannot fail.
    let _ = write!(out, "HTTP/1.1 {status:03} {}\r\n", reason(status));
    if !response.content_type.is_empty() && is_header_value(&response.content_type) {
        header_line(out, "Content-Type", &response.content_type);
    }
    let _ = write!(out, "Content-Length: {}\r\n", response.body.len());
    if close {
        header_line(out, "Connection", "close");
    } else if announce_keep_alive {
        header_line(out, "Connection", "keep-alive");
    }
    for (name, value) in &response.headers {
        let reserved = ["Content-Length", "Connection", "Transfer-Encoding"]
            .iter()
            .any(|r| name.eq_ignore_ascii_case(r));
        if !reserved && is_token(name) && is_header_value(value) {
            header_line(out, name, value);
        }
    }
    out.extend_from_slice(b"\r\n");
    if !omit_body {
        out.extend_from_slice(&response.body);
    }
}

fn header_line(out: &mut Vec<u8>, name: &str, value: &str) {
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(b": ");
    out.extend_from_slice(value.as_bytes());
    out.extend_from_slice(b"\r\n");
}

/// An HTTP token (header names): visible ASCII except delimiters.
fn is_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

fn is_header_value(value: &str) -> bool {
    !value.bytes().any(|b| matches!(b, b'\r' | b'\n' | 0))
}

/// The reason phrase of common status codes; empty (which HTTP allows) for others.
pub fn reason(status: u16) -> &'static str {
    match status {
        100 => "Continue",
        200 => "OK",
        201 => "Created",
        202 => "Accepted",
        204 => "No Content",
        301 => "Moved Permanently",
        302 => "Found",
        303 => "See Other",
        304 => "Not Modified",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        410 => "Gone",
        411 => "Length Required",
        413 => "Content Too Large",
        414 => "URI Too Long",
        415 => "Unsupported Media Type",
        418 => "I'm a teapot",
        422 => "Unprocessable Content",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufRead, BufReader};

    /// A server answering `200 <method> <target>` (and `X-Seen` with the header
    /// count), or panicking for `/panic`.
    fn echo_server(limits: Limits) -> HttpServer {
        let handler: Handler = Arc::new(|request: &HttpRequest| {
            assert_ne!(request.target, "/panic", "asked to");
            let body = format!("{} {}", request.method, request.target);
            HttpResponse::new(200, "text/plain", body)
                .with_header("X-Seen", request.headers.len().to_string())
        });
        HttpServer::bind_with("127.0.0.1:0", handler, limits).expect("bind")
    }

    fn connect(server: &HttpServer) -> BufReader<TcpStream> {
        let stream = TcpStream::connect(server.addr()).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        BufReader::new(stream)
    }

    fn send(conn: &mut BufReader<TcpStream>, bytes: &[u8]) {
        conn.get_mut().write_all(bytes).expect("send");
    }

    #[derive(Debug)]
    struct Reply {
        status: u16,
        headers: Vec<(String, String)>,
        body: String,
    }

    impl Reply {
        fn header(&self, name: &str) -> Option<&str> {
            self.headers
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.as_str())
        }
    }

    /// Reads one answer; `with_body: false` for HEAD (Content-Length is not followed).
    fn read_reply(conn: &mut BufReader<TcpStream>, with_body: bool) -> Reply {
        let mut line = String::new();
        conn.read_line(&mut line).expect("status line");
        let mut parts = line.trim_end().splitn(3, ' ');
        assert_eq!(parts.next(), Some("HTTP/1.1"), "{line:?}");
        let status = parts.next().unwrap().parse().unwrap();
        let mut headers = Vec::new();
        loop {
            let mut line = String::new();
            conn.read_line(&mut line).expect("header line");
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            let (name, value) = line.split_once(": ").expect("a header");
            headers.push((name.to_string(), value.to_string()));
        }
        let mut reply = Reply {
            status,
            headers,
            body: String::new(),
        };
        if with_body {
            let len: usize = reply.header("Content-Length").unwrap().parse().unwrap();
            let mut body = vec![0; len];
            conn.read_exact(&mut body).expect("body");
            reply.body = String::from_utf8(body).unwrap();
        }
        reply
    }

    /// True once the server has closed the connection (EOF, or a reset).
    fn closed(conn: &mut BufReader<TcpStream>) -> bool {
        let mut rest = Vec::new();
        match conn.read_to_end(&mut rest) {
            Ok(_) => rest.is_empty(),
            Err(e) => e.kind() == io::ErrorKind::ConnectionReset,
        }
    }

    #[test]
    fn keep_alive_serves_many_requests_on_one_connection() {
        let server = echo_server(Limits::default());
        let mut conn = connect(&server);
        for n in 0..5 {
            send(
                &mut conn,
                format!("GET /sms/{n} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes(),
            );
            let reply = read_reply(&mut conn, true);
            assert_eq!(reply.status, 200);
            assert_eq!(reply.body, format!("GET /sms/{n}"));
            assert_eq!(reply.header("Connection"), None);
            assert_eq!(reply.header("Content-Type"), Some("text/plain"));
            assert_eq!(reply.header("X-Seen"), Some("1"));
        }
        // A body framed by Content-Length is skipped, not taken for the next request.
        send(
            &mut conn,
            b"POST /a HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello",
        );
        assert_eq!(read_reply(&mut conn, true).body, "POST /a");
        send(&mut conn, b"GET /b HTTP/1.1\r\nConnection: close\r\n\r\n");
        let reply = read_reply(&mut conn, true);
        assert_eq!(reply.body, "GET /b");
        assert_eq!(reply.header("Connection"), Some("close"));
        assert!(closed(&mut conn));
    }

    #[test]
    fn pipelined_requests_are_answered_in_order() {
        let server = echo_server(Limits::default());
        let mut conn = connect(&server);
        send(
            &mut conn,
            b"GET /one HTTP/1.1\r\n\r\nPUT /two HTTP/1.1\r\nContent-Length: 3\r\n\r\nabcHEAD /three HTTP/1.1\r\n\r\nGET /fo",
        );
        assert_eq!(read_reply(&mut conn, true).body, "GET /one");
        assert_eq!(read_reply(&mut conn, true).body, "PUT /two");
        let head = read_reply(&mut conn, false);
        assert_eq!(head.header("Content-Length"), Some("11"));
        send(&mut conn, b"ur HTTP/1.1\r\n\r\n");
        assert_eq!(read_reply(&mut conn, true).body, "GET /four");
    }

    #[test]
    fn http_1_0_closes_unless_asked_to_keep_alive() {
        let server = echo_server(Limits::default());
        let mut conn = connect(&server);
        send(
            &mut conn,
            b"GET /x HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n",
        );
        let reply = read_reply(&mut conn, true);
        assert_eq!(reply.body, "GET /x");
        assert_eq!(reply.header("Connection"), Some("keep-alive"));
        send(&mut conn, b"GET /y HTTP/1.0\r\n\r\n");
        let reply = read_reply(&mut conn, true);
        assert_eq!(reply.body, "GET /y");
        assert_eq!(reply.header("Connection"), Some("close"));
        assert!(closed(&mut conn));
    }

    #[test]
    fn head_answers_carry_no_body() {
        let server = echo_server(Limits::default());
        let mut conn = connect(&server);
        send(&mut conn, b"HEAD /sms/42 HTTP/1.1\r\n\r\n");
        let reply = read_reply(&mut conn, false);
        assert_eq!(reply.status, 200);
        assert_eq!(reply.header("Content-Length"), Some("12"));
        // Were a body sent, this would read its bytes instead of the next answer.
        send(
            &mut conn,
            b"GET /next HTTP/1.1\r\nConnection: close\r\n\r\n",
        );
        assert_eq!(read_reply(&mut conn, true).body, "GET /next");
        assert!(closed(&mut conn));
    }

    #[test]
    fn oversized_heads_get_431_and_a_closed_connection() {
        let server = echo_server(Limits::default());
        let mut conn = connect(&server);
        let filler = "a".repeat(20 * 1024);
        send(
            &mut conn,
            format!("GET / HTTP/1.1\r\nX-Filler: {filler}\r\n\r\n").as_bytes(),
        );
        let reply = read_reply(&mut conn, true);
        assert_eq!(reply.status, 431);
        assert_eq!(reply.header("Connection"), Some("close"));
        assert!(closed(&mut conn));

        let mut conn = connect(&server);
        let many: String = (0..MAX_HEADERS + 1)
            .map(|n| format!("X-{n}: v\r\n"))
            .collect();
        send(
            &mut conn,
            format!("GET / HTTP/1.1\r\n{many}\r\n").as_bytes(),
        );
        assert_eq!(read_reply(&mut conn, true).status, 431);
        assert!(closed(&mut conn));
    }

    #[test]
    fn malformed_and_unsupported_requests_are_refused() {
        let server = echo_server(Limits::default());
        for (request, status) in [
            (&b"NOT HTTP AT ALL\r\n\r\n"[..], 400),
            (b"GET / HTTP/1.1\r\nContent-Length: x\r\n\r\n", 400),
            (
                b"GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
                400,
            ),
            (b"POST / HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n", 413),
            (
                b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
                501,
            ),
        ] {
            let mut conn = connect(&server);
            send(&mut conn, request);
            let reply = read_reply(&mut conn, true);
            assert_eq!(reply.status, status, "{}", String::from_utf8_lossy(request));
            assert!(closed(&mut conn));
        }
    }

    #[test]
    fn a_panicking_handler_answers_500_and_the_server_goes_on() {
        let server = echo_server(Limits::default());
        let mut conn = connect(&server);
        send(&mut conn, b"GET /panic HTTP/1.1\r\n\r\n");
        assert_eq!(read_reply(&mut conn, true).status, 500);
        assert!(closed(&mut conn));
        let mut conn = connect(&server);
        send(&mut conn, b"GET /ok HTTP/1.1\r\n\r\n");
        assert_eq!(read_reply(&mut conn, true).body, "GET /ok");
    }

    #[test]
    fn connections_beyond_the_limit_get_503() {
        let limits = Limits {
            max_connections: 1,
            ..Limits::default()
        };
        let server = echo_server(limits);
        let mut first = connect(&server);
        send(&mut first, b"GET /1 HTTP/1.1\r\n\r\n");
        assert_eq!(read_reply(&mut first, true).status, 200);
        let mut second = connect(&server);
        send(&mut second, b"GET /2 HTTP/1.1\r\n\r\n");
        assert_eq!(read_reply(&mut second, true).status, 503);
        assert!(closed(&mut second));
        drop(first);
        // The slot comes back once the first connection's thread has ended.
        let deadline = Instant::now() + Duration::from_secs(5);
        while server.connections() > 0 {
            assert!(
                Instant::now() < deadline,
                "the first connection never ended"
            );
            thread::yield_now();
        }
        let mut third = connect(&server);
        send(&mut third, b"GET /3 HTTP/1.1\r\n\r\n");
        assert_eq!(read_reply(&mut third, true).body, "GET /3");
    }

    #[test]
    fn idle_connections_are_closed() {
        let limits = Limits {
            idle_timeout: Duration::from_millis(100),
            ..Limits::default()
        };
        let server = echo_server(limits);
        let mut conn = connect(&server);
        assert!(closed(&mut conn));
    }

    #[test]
    fn shutdown_is_prompt_and_closes_open_connections() {
        let server = echo_server(Limits::default());
        let addr = server.addr();
        let mut idle = connect(&server);
        send(&mut idle, b"GET / HTTP/1.1\r\n\r\n");
        assert_eq!(read_reply(&mut idle, true).status, 200);
        let started = Instant::now();
        server.shutdown();
        assert!(started.elapsed() < Duration::from_secs(2));
        assert!(closed(&mut idle));
        assert!(TcpStream::connect(addr).is_err());
    }

    #[test]
    fn extra_headers_are_written_unless_reserved_or_malformed() {
        let handler: Handler = Arc::new(|_: &HttpRequest| {
            HttpResponse::new(418, "", "")
                .with_header("Retry-After", "0")
                .with_header("Content-Length", "99")
                .with_header("X-Bad", "a\r\nInjected: yes")
                .with_header("Bad Name", "v")
        });
        let server = HttpServer::bind("127.0.0.1:0", handler).unwrap();
        let mut conn = connect(&server);
        send(&mut conn, b"GET / HTTP/1.1\r\n\r\n");
        let reply = read_reply(&mut conn, true);
        assert_eq!(reply.status, 418);
        let names: Vec<_> = reply.headers.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["Content-Length", "Retry-After"]);
        assert_eq!(reply.header("Content-Length"), Some("0"));
    }
}
