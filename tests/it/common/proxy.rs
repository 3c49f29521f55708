//! A small CONNECT proxy on loopback that tunnels every target to one address, so a
//! base URL on a name that never resolves (`gateway.invalid`) works only when the
//! request really goes through the proxy.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;

/// What the proxy was asked: the CONNECT line and the Proxy-Authorization header.
#[derive(Debug, Clone)]
pub struct Asked {
    pub connect: String,
    pub authorization: Option<String>,
}

pub struct Proxy {
    pub port: u16,
    asked: Arc<Mutex<Vec<Asked>>>,
}

impl Proxy {
    /// Tunnels every CONNECT to `target`; with `refuse`, answers 407 instead.
    pub fn start(target: std::net::SocketAddr, refuse: bool) -> Proxy {
        Proxy::answering(target, refuse.then_some(PROXY_AUTH))
    }

    /// Answers every CONNECT with `refusal` (a whole HTTP head), or tunnels it to
    /// `target` when None.
    pub fn answering(target: std::net::SocketAddr, refusal: Option<&'static [u8]>) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let asked = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&asked);
        thread::spawn(move || {
            for client in listener.incoming().flatten() {
                let log = Arc::clone(&log);
                thread::spawn(move || tunnel(client, target, refusal, &log));
            }
        });
        Proxy { port, asked }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn asked(&self) -> Vec<Asked> {
        self.asked.lock().unwrap().clone()
    }
}

const PROXY_AUTH: &[u8] = b"HTTP/1.1 407 Proxy Authentication Required\r\n\
    Proxy-Authenticate: Basic realm=\"p\"\r\nContent-Length: 0\r\n\r\n";

/// A proxy's own refusal of the tunnel, with no credentials asked for.
pub const FORBIDDEN: &[u8] = b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n";

fn tunnel(
    client: TcpStream,
    target: std::net::SocketAddr,
    refusal: Option<&[u8]>,
    log: &Mutex<Vec<Asked>>,
) {
    let mut reader = BufReader::new(client.try_clone().unwrap());
    let mut connect = String::new();
    if reader.read_line(&mut connect).is_err() {
        return;
    }
    let mut authorization = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("proxy-authorization") {
                authorization = Some(value.trim().to_string());
            }
        }
    }
    log.lock().unwrap().push(Asked {
        connect: connect.trim().to_string(),
        authorization,
    });
    let mut client = client;
    if let Some(refusal) = refusal {
        let _ = client.write_all(refusal);
        return;
    }
    let Ok(upstream) = TcpStream::connect(target) else {
        return;
    };
    let _ = client.write_all(b"HTTP/1.1 200 Connection established\r\n\r\n");
    let mut up_read = upstream.try_clone().unwrap();
    let mut down_write = client.try_clone().unwrap();
    let down = thread::spawn(move || {
        let _ = std::io::copy(&mut up_read, &mut down_write);
        let _ = down_write.shutdown(std::net::Shutdown::Both);
    });
    // Whatever the reader buffered past the head belongs to the tunnel.
    let mut upstream = upstream;
    let _ = upstream.write_all(reader.buffer());
    let mut rest = reader.into_inner();
    let _ = std::io::copy(&mut rest, &mut upstream);
    let _ = upstream.shutdown(std::net::Shutdown::Both);
    let _ = down.join();
}
