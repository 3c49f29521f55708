//! `smsstat check` over TLS and through a proxy: the certificate's subject and expiry
//! in the tls step, and the proxy's name and connection checked instead of the
//! target's when a proxy applies (the proxy resolves the target, as for lookups).

use std::net::SocketAddr;

use crate::common::proxy::Proxy;
use crate::common::{check_json, check_step, refused_base, smsstat};
use crate::tls_support::{http_json, Pki, TlsServer};
use serde_json::Value;
use smsstat::testkit::{start_sim, SimOptions};

const NOT_FOUND: &str = r#"{"error":20,"errorDescription":"SMS not found"}"#;

fn detail(report: &Value, name: &str) -> String {
    let step = check_step(report, name);
    format!(
        "{}: {}",
        step["status"].as_str().unwrap(),
        step["detail"].as_str().unwrap()
    )
}

fn ca_file(pki: &Pki) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ca.pem");
    std::fs::write(&path, &pki.ca_pem).unwrap();
    let path = path.to_str().unwrap().to_string();
    (dir, path)
}

fn address(base: &str) -> SocketAddr {
    let authority = base.split("://").nth(1).unwrap();
    authority.trim_end_matches('/').parse().unwrap()
}

#[test]
fn the_tls_step_shows_the_certificate_subject_and_expiry() {
    let pki = Pki::for_names(&["127.0.0.1"], "gateway.example");
    let server = TlsServer::start(&pki, http_json(NOT_FOUND));
    let (_dir, ca) = ca_file(&pki);
    let mut cmd = smsstat();
    cmd.args(["--base-url", &server.base, "--ca-cert", &ca]);
    let (report, code) = check_json(cmd);
    assert_eq!(code, 0, "{report}");
    let tls = detail(&report, "tls");
    // rcgen's default validity ends in 4096: a GeneralizedTime.
    assert!(
        tls.starts_with("ok: certificate for CN=gateway.example, expires 4096-01-01 (in "),
        "{tls}"
    );
    assert!(
        tls.ends_with("days), verified against the --ca-cert certificates"),
        "{tls}"
    );
}

#[test]
fn through_a_proxy_the_proxy_is_resolved_and_reached_not_the_target() {
    let sim = start_sim(SimOptions::default()).unwrap();
    let proxy = Proxy::start(address(&sim.base_url()), false);
    let mut cmd = smsstat();
    cmd.args(["--base-url", "http://gateway.invalid:8080"])
        .env("http_proxy", proxy.url());
    let (report, code) = check_json(cmd);
    assert_eq!(code, 0, "{report}");
    let via = format!("via proxy {}", proxy.url());
    for name in ["name", "connect"] {
        let step = detail(&report, name);
        assert!(step.starts_with(&format!("ok: {via}")), "{step}");
    }
    assert!(detail(&report, "name").contains("proxy 127.0.0.1 -> 127.0.0.1"));
    assert_eq!(
        detail(&report, "proxy"),
        format!("ok: {} (from http_proxy)", proxy.url())
    );
    assert!(
        detail(&report, "key").starts_with("ok: accepted"),
        "{report}"
    );
    assert!(
        !proxy.asked().is_empty(),
        "the probes went through the proxy"
    );
}

#[test]
fn a_proxy_that_refuses_connections_fails_the_connect_step_and_is_still_named() {
    let mut cmd = smsstat();
    let dead = refused_base();
    cmd.args(["--base-url", "http://gateway.invalid:8080"])
        .env("http_proxy", &dead);
    let (report, code) = check_json(cmd);
    assert_eq!(code, 69, "{report}");
    assert!(
        detail(&report, "connect").starts_with("failed: via proxy"),
        "{report}"
    );
    assert_eq!(
        detail(&report, "proxy"),
        format!("ok: {dead} (from http_proxy)")
    );
}

#[test]
fn the_certificate_is_read_through_the_proxy_tunnel() {
    let pki = Pki::for_names(&["gateway.invalid"], "gateway.invalid");
    let server = TlsServer::start(&pki, http_json(NOT_FOUND));
    let proxy = Proxy::start(address(&server.base), false);
    let (_dir, ca) = ca_file(&pki);
    let mut cmd = smsstat();
    cmd.args(["--base-url", "https://gateway.invalid", "--ca-cert", &ca])
        .env("HTTPS_PROXY", proxy.url());
    let (report, code) = check_json(cmd);
    assert_eq!(code, 0, "{report}");
    let tls = detail(&report, "tls");
    assert!(
        tls.starts_with("ok: certificate for CN=gateway.invalid"),
        "{tls}"
    );
    // The connect step only opens a connection to the proxy: it asks nothing.
    let asked: Vec<String> = proxy
        .asked()
        .into_iter()
        .map(|a| a.connect)
        .filter(|line| !line.is_empty())
        .collect();
    assert!(!asked.is_empty());
    assert!(
        asked
            .iter()
            .all(|line| line.starts_with("CONNECT gateway.invalid:443 ")),
        "{asked:?}"
    );
}

#[test]
fn the_certificate_is_read_through_an_https_proxy() {
    let pki = Pki::for_names(&["gateway.invalid", "127.0.0.1"], "gateway.invalid");
    let server = TlsServer::start(&pki, http_json(NOT_FOUND));
    let proxy = Proxy::start(address(&server.base), false);
    let https_proxy = TlsServer::front(&pki, address(&proxy.url()));
    let (_dir, ca) = ca_file(&pki);
    let mut cmd = smsstat();
    cmd.args(["--base-url", "https://gateway.invalid", "--ca-cert", &ca])
        .env("HTTPS_PROXY", &https_proxy.base);
    let (report, code) = check_json(cmd);
    assert_eq!(code, 0, "{report}");
    let tls = detail(&report, "tls");
    assert!(
        tls.starts_with("ok: certificate for CN=gateway.invalid, expires "),
        "{tls}"
    );
    assert!(proxy
        .asked()
        .iter()
        .any(|a| a.connect.starts_with("CONNECT gateway.invalid:443 ")));
}

#[test]
fn the_tls_step_says_when_the_key_travels_in_clear() {
    let sim = start_sim(SimOptions::default()).unwrap();
    let proxy = Proxy::start(address(&sim.base_url()), false);
    let key = ["--api-key", "k-0123456789abcdef"];
    let mut far = smsstat();
    far.args(["--base-url", "http://gateway.invalid:8080"])
        .args(key)
        .env("http_proxy", proxy.url());
    let (report, _) = check_json(far);
    assert!(
        detail(&report, "tls").contains("travels in clear"),
        "{report}"
    );
    // On loopback the key never leaves the machine.
    let mut local = smsstat();
    local.args(["--base-url", &sim.base_url()]).args(key);
    let (report, code) = check_json(local);
    assert_eq!(code, 0, "{report}");
    assert!(!detail(&report, "tls").contains("in clear"), "{report}");
}

/// A server that takes the TLS handshake and answers it one byte every 50 ms, for
/// as long as anyone listens: no read ever waits a whole `--timeout`.
fn dripping_handshake() -> String {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("https://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            std::thread::spawn(move || {
                let mut hello = [0u8; 512];
                let _ = stream.read(&mut hello);
                // A handshake record announced at 16 KiB, then its bytes one by one.
                if stream.write_all(&[0x16, 0x03, 0x03, 0x40, 0x00]).is_err() {
                    return;
                }
                for _ in 0..2000 {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                    if stream.write_all(&[0x02]).is_err() {
                        return;
                    }
                }
            });
        }
    });
    base
}

#[test]
fn a_dripping_tls_handshake_ends_the_check_within_its_timeouts() {
    let base = dripping_handshake();
    let mut cmd = smsstat();
    cmd.args(["--base-url", &base, "--api-key", "k", "--timeout", "1s"])
        .timeout(std::time::Duration::from_secs(60));
    let (report, code) = check_json(cmd);
    assert_eq!(code, 75, "{report}");
    assert_eq!(
        detail(&report, "tls"),
        "failed: no TLS handshake within 1s",
        "{report}"
    );
}
