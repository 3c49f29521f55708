//! A private CA made at test time (rcgen) and a TLS server on loopback (rustls) that
//! answers every request with the same raw HTTP bytes: enough to test `--ca-cert`,
//! verification and https → http redirects without any certificate in the repository.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;

use rcgen::{BasicConstraints, CertificateParams, IsCa, Issuer, KeyPair, KeyUsagePurpose};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};

/// A CA and a server certificate it signed for 127.0.0.1 and localhost.
pub struct Pki {
    pub ca_pem: String,
    server_cert: CertificateDer<'static>,
    server_key: Vec<u8>,
}

impl Pki {
    pub fn new() -> Pki {
        Pki::for_names(&["127.0.0.1", "localhost"], "smsstat test server")
    }

    /// A CA and a server certificate for `names`, with `common_name` as its subject.
    pub fn for_names(names: &[&str], common_name: &str) -> Pki {
        let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
        ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca_params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        ca_params
            .distinguished_name
            .push(rcgen::DnType::CommonName, "smsstat test CA");
        let ca_key = KeyPair::generate().unwrap();
        let ca_cert = ca_params.self_signed(&ca_key).unwrap();
        let issuer = Issuer::new(ca_params, ca_key);

        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        let mut server_params = CertificateParams::new(names).unwrap();
        server_params.distinguished_name = rcgen::DistinguishedName::new();
        server_params
            .distinguished_name
            .push(rcgen::DnType::CommonName, common_name);
        let server_key = KeyPair::generate().unwrap();
        let server_cert = server_params.signed_by(&server_key, &issuer).unwrap();
        Pki {
            ca_pem: ca_cert.pem(),
            server_cert: server_cert.der().clone(),
            server_key: server_key.serialize_der(),
        }
    }

    fn server_config(&self) -> Arc<rustls::ServerConfig> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(self.server_key.clone()));
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(vec![self.server_cert.clone()], key)
            .unwrap();
        Arc::new(config)
    }
}

/// An https server on 127.0.0.1:0 answering every request with `answer`.
pub struct TlsServer {
    pub base: String,
    requests: Arc<AtomicUsize>,
}

impl TlsServer {
    pub fn start(pki: &Pki, answer: String) -> TlsServer {
        let answer: Arc<str> = answer.into();
        TlsServer::serving(pki, move |mut tls, requests| {
            // A failed handshake (the client refused our certificate) ends here.
            if read_head(&mut tls) {
                requests.fetch_add(1, Ordering::SeqCst);
                let _ = tls.write_all(answer.as_bytes());
                let _ = tls.flush();
                tls.conn.send_close_notify();
                let _ = tls.flush();
            }
        })
    }

    /// A keep-alive server: `answer(path)` is the whole HTTP answer to each
    /// request, and the connection then waits for the next one. Counts connections
    /// in `connections`.
    #[allow(dead_code)]
    pub fn keep_alive(
        pki: &Pki,
        answer: fn(&str) -> String,
        connections: Arc<AtomicUsize>,
    ) -> TlsServer {
        TlsServer::serving(pki, move |mut tls, requests| {
            connections.fetch_add(1, Ordering::SeqCst);
            while let Some(path) = read_path(&mut tls) {
                requests.fetch_add(1, Ordering::SeqCst);
                if tls.write_all(answer(&path).as_bytes()).is_err() || tls.flush().is_err() {
                    return;
                }
            }
        })
    }

    /// TLS in front of a plain server at `target` (an https:// proxy made of a plain
    /// one): each connection's bytes go there and its answers back.
    pub fn front(pki: &Pki, target: std::net::SocketAddr) -> TlsServer {
        TlsServer::serving(pki, move |mut tls, _| {
            let Ok(mut plain) = TcpStream::connect(target) else {
                return;
            };
            // Both ways on one thread: short waits on each side in turn.
            let wait = Some(std::time::Duration::from_millis(10));
            if tls.sock.set_read_timeout(wait).is_err() || plain.set_read_timeout(wait).is_err() {
                return;
            }
            let idle = |e: &std::io::Error| {
                matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                )
            };
            let mut buf = [0u8; 16 * 1024];
            loop {
                let up = match tls.read(&mut buf) {
                    Ok(0) => return,
                    Ok(n) => plain.write_all(&buf[..n]),
                    Err(e) if idle(&e) => Ok(()),
                    Err(_) => return,
                };
                let down = match plain.read(&mut buf) {
                    Ok(0) => return,
                    Ok(n) => tls.write_all(&buf[..n]).and_then(|()| tls.flush()),
                    Err(e) if idle(&e) => Ok(()),
                    Err(_) => return,
                };
                if up.is_err() || down.is_err() {
                    return;
                }
            }
        })
    }

    /// Accepts connections on 127.0.0.1:0, each served by `serve` on its own thread
    /// once its TLS session is set up.
    fn serving(
        pki: &Pki,
        serve: impl Fn(rustls::StreamOwned<rustls::ServerConnection, TcpStream>, &AtomicUsize)
            + Send
            + Sync
            + 'static,
    ) -> TlsServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().unwrap().port();
        let config = pki.server_config();
        let requests = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&requests);
        let serve = Arc::new(serve);
        thread::spawn(move || {
            for tcp in listener.incoming().flatten() {
                let (config, counter, serve) = (
                    Arc::clone(&config),
                    Arc::clone(&counter),
                    Arc::clone(&serve),
                );
                thread::spawn(move || {
                    if let Ok(conn) = rustls::ServerConnection::new(config) {
                        serve(rustls::StreamOwned::new(conn, tcp), &counter);
                    }
                });
            }
        });
        TlsServer {
            base: format!("https://127.0.0.1:{port}"),
            requests,
        }
    }

    /// Requests that got through the handshake and were answered.
    pub fn requests(&self) -> usize {
        self.requests.load(Ordering::SeqCst)
    }
}

/// The path of the next request on a connection, its head read; None at its end.
fn read_path(stream: &mut impl Read) -> Option<String> {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => return None,
        }
    }
    let head = String::from_utf8_lossy(&head);
    head.split(' ').nth(1).map(str::to_string)
}

/// Whether a request head came (a failed handshake ends the stream before).
fn read_head(stream: &mut impl Read) -> bool {
    read_path(stream).is_some()
}

/// A complete HTTP/1.1 answer with a JSON body.
pub fn http_json(body: &str) -> String {
    format!(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}
