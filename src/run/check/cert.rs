//! The server's certificate for the tls step: a TLS handshake of our own, verified
//! against the same roots as the lookups (ureq does not expose the peer's
//! certificate), then its subject and expiry read from the DER. Through an http://
//! proxy the handshake goes through a `CONNECT` tunnel, as the lookups' do.

use std::fmt;
use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant, SystemTime};

use base64::Engine;
use rustls::pki_types::ServerName;
use rustls::ClientConnection;
use ureq::ProxyProtocol;

use super::der::{cert_facts, DerError};
use super::network::target;
use crate::domain::duration::format_duration;
use crate::http::agents::resolve;
use crate::http::resolve::{connect_within, Unconnected};
use crate::settings::config::HttpSettings;

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
    #[error("no TLS handshake within {}", format_duration(*.0))]
    Timeout(Duration),
    #[error("no certificate from the server")]
    NoCertificate,
    #[error("{0}")]
    Der(#[from] DerError),
}

/// The certificate the server presents, or None through an https:// proxy (a TLS
/// connection inside another is not worth its code for one line of detail). The
/// whole of it (name, connection, tunnel, handshake) within `--timeout`, as a
/// lookup's request is: a server that drips its handshake cannot hold it longer.
pub(super) fn inspect(http: &HttpSettings) -> Result<Option<Seen>, CertError> {
    let deadline = Deadline::new(http.timeout);
    let (host, port) = target(&http.base_url).ok_or(CertError::BaseUrl)?;
    let name = ServerName::try_from(host.clone()).map_err(|_| CertError::BaseUrl)?;
    let mut tcp = match &http.proxy {
        Some(choice) if choice.proxy.protocol() != ProxyProtocol::Http => return Ok(None),
        Some(choice) => tunnel(&choice.proxy, &host, port, &deadline)?,
        None => connect(&host, port, &deadline)?,
    };
    let mut tls = ClientConnection::new(
        crate::http::tls::rustls_config(http.ca_certs.as_ref()),
        name,
    )?;
    // One read or write at a time, each bounded by what is left: rustls's own
    // `complete_io` reads on while bytes trickle in, past any deadline.
    while tls.is_handshaking() {
        deadline.bound(&tcp)?;
        if tls.wants_write() {
            tls.write_tls(&mut tcp).map_err(|e| deadline.error(e))?;
        } else if tls.read_tls(&mut tcp).map_err(|e| deadline.error(e))? == 0 {
            return Err(std::io::Error::from(ErrorKind::UnexpectedEof).into());
        } else {
            tls.process_new_packets()?;
        }
    }
    let der = tls
        .peer_certificates()
        .and_then(|certs| certs.first())
        .ok_or(CertError::NoCertificate)?;
    let facts = cert_facts(der)?;
    tls.send_close_notify();
    if deadline.bound(&tcp).is_ok() {
        let _ = tls.complete_io(&mut tcp);
    }
    let days_left = humantime::parse_rfc3339(&facts.not_after)
        .ok()
        .map(days_from_now);
    Ok(Some(Seen {
        subject: facts.subject,
        date: facts.not_after[..10].to_string(),
        days_left,
    }))
}

/// The end of the step's time, and each read and write bounded by what is left.
struct Deadline {
    at: Instant,
    limit: Duration,
}

impl Deadline {
    fn new(limit: Duration) -> Deadline {
        Deadline {
            at: Instant::now() + limit,
            limit,
        }
    }

    fn left(&self) -> Result<Duration, CertError> {
        match self.at.saturating_duration_since(Instant::now()) {
            left if left.is_zero() => Err(CertError::Timeout(self.limit)),
            left => Ok(left),
        }
    }

    /// The next read or write on `tcp` ends by the deadline.
    fn bound(&self, tcp: &TcpStream) -> Result<(), CertError> {
        let left = self.left()?;
        tcp.set_read_timeout(Some(left))?;
        tcp.set_write_timeout(Some(left))?;
        Ok(())
    }

    /// An I/O error, told as the timeout when the bound is what ended it.
    fn error(&self, error: std::io::Error) -> CertError {
        match error.kind() {
            ErrorKind::WouldBlock | ErrorKind::TimedOut => CertError::Timeout(self.limit),
            _ => match error
                .get_ref()
                .and_then(|e| e.downcast_ref::<rustls::Error>())
            {
                Some(tls) => CertError::Tls(tls.clone()),
                None => CertError::Io(error),
            },
        }
    }
}

fn days_from_now(when: SystemTime) -> i64 {
    let days = |d: Duration| i64::try_from(d.as_secs() / DAY).unwrap_or(i64::MAX);
    match when.duration_since(SystemTime::now()) {
        Ok(left) => days(left),
        Err(past) => -days(past.duration()).max(1),
    }
}

fn connect(host: &str, port: u16, deadline: &Deadline) -> Result<TcpStream, CertError> {
    let addrs = resolve(host, port, deadline.left()?).map_err(|e| match e {
        ureq::Error::Timeout(_) => CertError::Timeout(deadline.limit),
        other => CertError::Io(std::io::Error::other(format!("{host}: {other}"))),
    })?;
    match connect_within(&addrs, Some(deadline.left()?)) {
        Ok((tcp, _)) => Ok(tcp),
        Err(Unconnected { error, .. }) => Err(deadline.error(error)),
    }
}

/// A `CONNECT` tunnel to `host:port` through an http:// proxy.
fn tunnel(
    proxy: &ureq::Proxy,
    host: &str,
    port: u16,
    deadline: &Deadline,
) -> Result<TcpStream, CertError> {
    let mut tcp = connect(
        proxy.host().trim_matches(['[', ']']),
        proxy.port(),
        deadline,
    )?;
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
    deadline.bound(&tcp)?;
    tcp.write_all(head.as_bytes())
        .map_err(|e| deadline.error(e))?;
    // Byte by byte: what follows the head is the server's TLS, not ours to read.
    let mut answer = Vec::new();
    let mut byte = [0u8; 1];
    while !answer.ends_with(b"\r\n\r\n") {
        deadline.bound(&tcp)?;
        let read = tcp.read(&mut byte).map_err(|e| deadline.error(e))?;
        if answer.len() >= MAX_CONNECT_HEAD || read == 0 {
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
