//! The server's certificate for the tls step: a TLS handshake of our own, verified
//! against the same roots as the lookups (ureq does not expose the peer's
//! certificate), then its subject and expiry read from the DER. Through an http://
//! proxy the handshake goes through a `CONNECT` tunnel, as the lookups' do.

use std::fmt;
use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};

use std::time::{Duration, SystemTime};

use base64::Engine;
use rustls::pki_types::ServerName;
use rustls::ClientConnection;
use ureq::ProxyProtocol;

use super::der::{cert_facts, DerError};
use super::network::target;
use crate::settings::config::Config;

/// A proxy's answer to `CONNECT` is a few short header lines.
const MAX_CONNECT_HEAD: usize = 8 * 1024;
const DAY: u64 = 24 * 60 * 60;

/// What the server's certificate says, as the tls step shows it.
pub(super) struct Seen {
    subject: String,
    /// `2027-03-01`.
    date: String,
    /// Whole days left (negative: expired that many days ago).
    days_left: Option<i64>,
}

impl fmt::Display for Seen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let subject = match self.subject.as_str() {
            "" => "an empty subject",
            subject => subject,
        };
        write!(f, "certificate for {subject}, expires {}", self.date)?;
        match self.days_left {
            Some(days @ 0..) => write!(f, " (in {days} days)"),
            Some(days) => write!(f, " (expired {} days ago)", -days),
            None => Ok(()),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub(super) enum CertError {
    #[error("unreadable base URL")]
    BaseUrl,
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("TLS: {0}")]
    Tls(#[from] rustls::Error),
    #[error("the proxy refused the tunnel: {0}")]
    Proxy(String),
    #[error("no certificate from the server")]
    NoCertificate,
    #[error("{0}")]
    Der(#[from] DerError),
}

/// The certificate the server presents, or None through an https:// proxy (a TLS
/// connection inside another is not worth its code for one line of detail).
pub(super) fn inspect(config: &Config) -> Result<Option<Seen>, CertError> {
    let (host, port) = target(&config.base_url).ok_or(CertError::BaseUrl)?;
    let name = ServerName::try_from(host.clone()).map_err(|_| CertError::BaseUrl)?;
    let mut tcp = match &config.proxy {
        Some(choice) if choice.proxy.protocol() != ProxyProtocol::Http => return Ok(None),
        Some(choice) => tunnel(&choice.proxy, &host, port, config.timeout)?,
        None => connect(&host, port, config.timeout)?,
    };
    let mut tls = ClientConnection::new(
        crate::http::tls::rustls_config(config.ca_certs.as_ref()),
        name,
    )?;
    while tls.is_handshaking() {
        tls.complete_io(&mut tcp)?;
    }
    let der = tls
        .peer_certificates()
        .and_then(|certs| certs.first())
        .ok_or(CertError::NoCertificate)?;
    let facts = cert_facts(der)?;
    tls.send_close_notify();
    let _ = tls.complete_io(&mut tcp);
    let days_left = humantime::parse_rfc3339(&facts.not_after)
        .ok()
        .map(days_from_now);
    Ok(Some(Seen {
        subject: facts.subject,
        date: facts.not_after[..10].to_string(),
        days_left,
    }))
}

fn days_from_now(when: SystemTime) -> i64 {
    let days = |d: Duration| i64::try_from(d.as_secs() / DAY).unwrap_or(i64::MAX);
    match when.duration_since(SystemTime::now()) {
        Ok(left) => days(left),
        Err(past) => -days(past.duration()).max(1),
    }
}

fn connect(host: &str, port: u16, timeout: Duration) -> Result<TcpStream, CertError> {
    let mut last = None;
    for addr in (host, port).to_socket_addrs()? {
        match TcpStream::connect_timeout(&addr, timeout) {
            Ok(tcp) => {
                tcp.set_read_timeout(Some(timeout))?;
                tcp.set_write_timeout(Some(timeout))?;
                return Ok(tcp);
            }
            Err(err) => last = Some(err),
        }
    }
    Err(last
        .unwrap_or_else(|| std::io::Error::other("no address to connect to"))
        .into())
}

/// A `CONNECT` tunnel to `host:port` through an http:// proxy.
fn tunnel(
    proxy: &ureq::Proxy,
    host: &str,
    port: u16,
    timeout: Duration,
) -> Result<TcpStream, CertError> {
    let mut tcp = connect(proxy.host().trim_matches(['[', ']']), proxy.port(), timeout)?;
    let authority = match host.contains(':') {
        true => format!("[{host}]:{port}"),
        false => format!("{host}:{port}"),
    };
    let mut head = format!("CONNECT {authority} HTTP/1.1\r\nHost: {authority}\r\n");
    if let Some(user) = proxy.username() {
        let pair = format!("{user}:{}", proxy.password().unwrap_or(""));
        let basic = base64::engine::general_purpose::STANDARD.encode(pair);
        head.push_str(&format!("Proxy-Authorization: Basic {basic}\r\n"));
    }
    head.push_str("\r\n");
    tcp.write_all(head.as_bytes())?;
    // Byte by byte: what follows the head is the server's TLS, not ours to read.
    let mut answer = Vec::new();
    let mut byte = [0u8; 1];
    while !answer.ends_with(b"\r\n\r\n") {
        if answer.len() >= MAX_CONNECT_HEAD || tcp.read(&mut byte)? == 0 {
            return Err(CertError::Proxy("no complete answer".into()));
        }
        answer.push(byte[0]);
    }
    let status_line = String::from_utf8_lossy(&answer);
    let status_line = status_line.lines().next().unwrap_or("").trim().to_string();
    match status_line.split_whitespace().nth(1) {
        Some(code) if code.starts_with('2') => Ok(tcp),
        _ => Err(CertError::Proxy(status_line)),
    }
}
