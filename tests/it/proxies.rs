//! Proxies from the environment, through the built binary: the variable of the
//! base URL's scheme, NO_PROXY, loopback and --demo never proxied, a malformed proxy
//! is 78, a 407 is 77 and not retried, -v names the proxy with its credentials masked.
//!
//! The proxy is a small CONNECT proxy on loopback that tunnels every target to the
//! simulator, so a base URL on a name that never resolves (`UNRESOLVABLE_HOST`,
//! refused by the resolver itself: no DNS query leaves the machine) works only when
//! the request really goes through the proxy.

use crate::common::proxy::Proxy;
use crate::common::{smsstat, UNRESOLVABLE_HOST};
use httpcore::HttpServer;
use smsstat::testkit::{start_sim, SimOptions};

fn sim() -> (HttpServer, std::net::SocketAddr) {
    let sim = start_sim(SimOptions::default()).unwrap();
    let addr = sim.addr();
    (sim, addr)
}

/// The base URL beyond loopback: reachable only through the proxy.
fn far() -> String {
    format!("http://{UNRESOLVABLE_HOST}:8080")
}

#[test]
fn the_scheme_variable_is_used_and_the_other_is_not() {
    let (_sim, addr) = sim();
    let proxy = Proxy::start(addr, false);
    smsstat()
        .args(["--base-url", &far(), "--retries", "0", "--json", "sms", "1"])
        .env("http_proxy", proxy.url())
        .assert()
        .success();
    let asked = proxy.asked();
    assert_eq!(asked.len(), 1, "{asked:?}");
    let connect = format!("CONNECT {UNRESOLVABLE_HOST}:8080 ");
    assert!(asked[0].connect.starts_with(&connect), "{asked:?}");

    // HTTPS_PROXY is for https URLs: an http URL goes direct (and the name does not resolve).
    smsstat()
        .args(["--base-url", &far(), "--retries", "0", "sms", "1"])
        .env("HTTPS_PROXY", proxy.url())
        .assert()
        .code(69)
        .stderr(predicates::str::contains("host not found"));
    assert_eq!(proxy.asked().len(), 1);
}

#[test]
fn no_proxy_loopback_and_demo_go_direct() {
    let (sim, addr) = sim();
    let proxy = Proxy::start(addr, false);
    smsstat()
        .args(["--base-url", &far(), "--retries", "0", "sms", "1"])
        .env("http_proxy", proxy.url())
        .env("NO_PROXY", "localhost, .invalid")
        .assert()
        .code(69)
        .stderr(predicates::str::contains("host not found"));
    smsstat()
        .args(["--base-url", &sim.base_url(), "--json", "sms", "1"])
        .env("http_proxy", proxy.url())
        .env("ALL_PROXY", proxy.url())
        .assert()
        .success();
    smsstat()
        .args(["--demo", "--json", "sms", "1"])
        .env("http_proxy", proxy.url())
        .env("ALL_PROXY", proxy.url())
        .env("SMSSTAT_API_KEY", "a-real-key-0123456789")
        .assert()
        .success();
    assert!(proxy.asked().is_empty(), "{:?}", proxy.asked());
}

#[test]
fn a_malformed_proxy_is_a_configuration_error_without_its_password() {
    for value in [
        "socks5://user:s3cr3t@127.0.0.1:1080",
        "http://user:s3cr3t@:3128",
    ] {
        let out = smsstat()
            .args([
                "--base-url",
                &format!("https://{UNRESOLVABLE_HOST}"),
                "sms",
                "1",
            ])
            .env("HTTPS_PROXY", value)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(78));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("HTTPS_PROXY: invalid proxy"), "{stderr}");
        assert!(!stderr.contains("s3cr3t"), "{stderr}");
    }
}

#[test]
fn a_407_is_not_authorised_and_not_retried() {
    let (_sim, addr) = sim();
    let proxy = Proxy::start(addr, true);
    let out = smsstat()
        .args(["--base-url", &far(), "--retries", "3", "sms", "1"])
        .env("http_proxy", proxy.url())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(77));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("HTTP 407"), "{stderr}");
    assert!(stderr.contains("proxy authentication required"), "{stderr}");
    assert_eq!(proxy.asked().len(), 1, "retried: {:?}", proxy.asked());
}

#[test]
fn a_proxys_own_refusal_is_unavailable_and_named() {
    let (_sim, addr) = sim();
    let proxy = Proxy::answering(addr, Some(crate::common::proxy::FORBIDDEN));
    let out = smsstat()
        .args(["--base-url", &far(), "--retries", "0", "sms", "1"])
        .env("http_proxy", proxy.url())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(69));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("service unavailable: proxy: "), "{stderr}");
    assert!(stderr.contains("403"), "{stderr}");
}

#[test]
fn verbose_names_the_proxy_without_its_credentials() {
    let (_sim, addr) = sim();
    let proxy = Proxy::start(addr, false);
    let with_user = format!("http://user:s3cr3t@127.0.0.1:{}", proxy.port);
    let out = smsstat()
        .args(["--base-url", &far(), "-vv", "--json", "sms", "1"])
        .env("http_proxy", &with_user)
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    let named = format!(
        "proxy http://****@127.0.0.1:{} (from http_proxy)",
        proxy.port
    );
    assert!(stderr.contains(&named), "{stderr}");
    assert!(!stderr.contains("s3cr3t"), "{stderr}");
    // The credentials do reach the proxy, as Basic auth.
    let asked = proxy.asked();
    assert_eq!(
        asked[0].authorization.as_deref(),
        Some("Basic dXNlcjpzM2NyM3Q=")
    );
}

#[test]
fn a_key_over_plain_http_beyond_loopback_is_warned_about_once() {
    let (sim, addr) = sim();
    let proxy = Proxy::start(addr, false);
    let out = smsstat()
        .args([
            "--base-url",
            &far(),
            "--api-key",
            "k-0123456789abcdef",
            "sms",
            "1",
            "2",
        ])
        .env("http_proxy", proxy.url())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let warning =
        format!("warning: the API key is sent in clear over http:// to {UNRESOLVABLE_HOST}");
    assert_eq!(stderr.matches(&warning).count(), 1, "{stderr}");
    let local = smsstat()
        .args([
            "--base-url",
            &sim.base_url(),
            "--api-key",
            "k-0123456789abcdef",
        ])
        .args(["sms", "1"])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&local.stderr).contains("in clear"));
}

#[test]
fn a_proxy_dripping_its_connect_answer_is_bounded_by_the_timeout() {
    // A byte of "200 Connection established" every 300 ms: twelve seconds in all,
    // each byte well within --timeout. The request as a whole is bounded by it, for
    // a lookup as for `check`'s probe.
    let proxy = crate::common::RawServer::start(|mut stream| {
        use std::io::Write;
        for byte in b"HTTP/1.1 200 Connection established\r\n\r\n" {
            if stream.write_all(&[*byte]).is_err() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(300));
        }
    });
    for args in [&["--json", "sms", "1"][..], &["check"][..]] {
        let started = std::time::Instant::now();
        let out = smsstat()
            .args(["--base-url", &far(), "--timeout", "1s", "--retries", "0"])
            .args(args)
            .env("http_proxy", &proxy.base)
            .output()
            .unwrap();
        let took = started.elapsed();
        assert!(
            took < std::time::Duration::from_secs(8),
            "{args:?} took {took:?}"
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            format!("{stdout}{stderr}").contains("timed out"),
            "{args:?}: {stdout}{stderr}"
        );
    }
}
