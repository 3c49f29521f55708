//! A small blocking HTTP/1.1 server core for loopback use: `std::net` sockets,
//! `httparse` for the request head, one thread per connection (why: README.md).
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
//! Dropping the server stops accepting, closes the listening socket and shuts
//! down every open connection, without waiting for the connection threads to end.

mod connection;
#[cfg(test)]
mod tests;
mod wire;

use std::borrow::Cow;
use std::collections::HashMap;
use std::io::{self, Read};
use std::net::{
    IpAddr, Ipv4Addr, Ipv6Addr, Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs,
};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use connection::serve_connection;
pub use wire::reason;
use wire::write_response;

/// Turns one request into its answer; called on the connection's own thread.
pub type Handler = Arc<dyn Fn(&HttpRequest) -> HttpResponse + Send + Sync>;

/// Most headers a request may carry (beyond that: 431).
const MAX_HEADERS: usize = 64;

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

/// A running server; serves until dropped.
pub struct HttpServer {
    addr: SocketAddr,
    inner: Arc<Inner>,
    accept: Option<JoinHandle<()>>,
}

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
        self.connections.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl HttpServer {
    /// Binds `addr` (so the address is known and connectable on return) and starts
    /// accepting.
    pub fn bind(addr: impl ToSocketAddrs, handler: Handler, limits: Limits) -> io::Result<Self> {
        let listener = TcpListener::bind(addr)?;
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

    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Blocks, serving, until the process ends (nothing else can stop it).
    pub fn wait(mut self) {
        if let Some(accept) = self.accept.take() {
            let _ = accept.join();
        }
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
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

/// Where to connect to reach a listener bound to `addr` (a wildcard address is
/// reached through loopback).
fn wake_addr(addr: SocketAddr) -> SocketAddr {
    match addr.ip() {
        ip if !ip.is_unspecified() => addr,
        IpAddr::V4(_) => (Ipv4Addr::LOCALHOST, addr.port()).into(),
        IpAddr::V6(_) => (Ipv6Addr::LOCALHOST, addr.port()).into(),
    }
}

fn accept_loop(listener: &TcpListener, inner: &Arc<Inner>) {
    loop {
        let accepted = listener.accept();
        if inner.stopping.load(Ordering::SeqCst) {
            return;
        }
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of file descriptors (or similar): let some connections end
                // instead of spinning. Anything else concerns one connection only.
                if matches!(e.raw_os_error(), Some(23 | 24)) {
                    thread::sleep(Duration::from_millis(20));
                }
                continue;
            }
        };
        let Some(registered) = register(inner, &stream) else {
            refuse_busy(stream);
            continue;
        };
        // A thread that cannot start drops its closure: unregistered and closed.
        let _ = thread::Builder::new()
            .name("smsstat-http-conn".into())
            .spawn(move || serve_connection(stream, &registered.inner));
    }
}

/// Records a live connection, unless over the limit or stopping.
fn register(inner: &Arc<Inner>, stream: &TcpStream) -> Option<Registered> {
    let handle = stream.try_clone().ok()?;
    let mut connections = inner.connections();
    if inner.stopping.load(Ordering::SeqCst) || connections.len() >= inner.limits.max_connections {
        return None;
    }
    let id = inner.next_id.fetch_add(1, Ordering::Relaxed);
    connections.insert(id, handle);
    let inner = Arc::clone(inner);
    Some(Registered { inner, id })
}

/// Removes its connection from the registry when dropped (its thread ends).
struct Registered {
    inner: Arc<Inner>,
    id: u64,
}

impl Drop for Registered {
    fn drop(&mut self) {
        self.inner.connections().remove(&self.id);
    }
}

/// Answers 503 on the accept thread without waiting for anything: whatever the
/// client already sent is read first, so closing does not reset the connection
/// before the answer is read.
fn refuse_busy(mut stream: TcpStream) {
    let _ = stream.set_nonblocking(true);
    let mut scratch = [0u8; 4096];
    for _ in 0..16 {
        if !matches!(stream.read(&mut scratch), Ok(n) if n > 0) {
            break;
        }
    }
    connection::refuse(&mut stream, 503);
    let _ = stream.shutdown(Shutdown::Write);
}
