//! Every row of the exit-code table that a server (or its absence) can produce.

use std::io::Write;
use std::time::{Duration, Instant};

use crate::common::{refused_base, smsstat, smsstat_at, Canned, RawServer, TestServer, SMS};
use predicates::prelude::*;

fn code_for(canned: Canned, command: &[&str]) -> i32 {
    let server = TestServer::fixed(canned);
    smsstat_at(&server.base)
        .args(command)
        .output()
        .unwrap()
        .status
        .code()
        .unwrap()
}

#[test]
fn service_codes_pass_through_whatever_the_http_status() {
    assert_eq!(
        code_for(
            Canned::json(404, r#"{"error":20,"errorDescription":"SMS not found"}"#),
            &["sms", "9"]
        ),
        20
    );
    assert_eq!(
        code_for(
            Canned::json(200, r#"{"error":"30","errorDescription":"Task not found"}"#),
            &["task", "9"]
        ),
        30
    );
    assert_eq!(
        code_for(
            Canned::json(404, r#"{"error":10,"errorDescription":"HLR not found"}"#),
            &["hlr", "9"]
        ),
        10
    );
    assert_eq!(
        code_for(
            Canned::json(401, r#"{"error":1,"errorDescription":"Invalid API key"}"#),
            &["sms", "9"]
        ),
        1
    );
    assert_eq!(
        code_for(
            Canned::json(
                500,
                r#"{"error":"8","errorDescription":"Not enough money"}"#
            ),
            &["sms", "9"]
        ),
        8
    );
}

#[test]
fn service_codes_outside_1_to_63_are_79_and_shown() {
    let server = TestServer::fixed(Canned::json(
        200,
        r#"{"error":404,"errorDescription":"odd"}"#,
    ));
    smsstat_at(&server.base)
        .args(["sms", "9"])
        .assert()
        .code(79)
        .stderr(predicate::str::contains("service error 404"));
    assert_eq!(
        code_for(Canned::json(200, r#"{"error":"E7"}"#), &["sms", "9"]),
        79
    );
}

#[test]
fn unreadable_answers_are_65() {
    assert_eq!(code_for(Canned::json(200, "{not json"), &["sms", "1"]), 65);
    assert_eq!(code_for(Canned::json(200, ""), &["sms", "1"]), 65);
    assert_eq!(code_for(Canned::json(200, "[1,2,3]"), &["sms", "1"]), 65);
    assert_eq!(
        code_for(
            Canned::text(200, "<html><body>proxy login</body></html>"),
            &["sms", "1"]
        ),
        65
    );
}

#[test]
fn bodies_over_the_cap_are_65() {
    let big = format!(r#"{{"status":"delivered","pad":"{}"}}"#, "x".repeat(10_000));
    let server = TestServer::fixed(Canned::json(200, &big));
    smsstat_at(&server.base)
        .args(["--max-body", "1000", "sms", "1"])
        .assert()
        .code(65)
        .stderr(predicate::str::contains("larger than 1000 bytes"));
    smsstat_at(&server.base)
        .args(["sms", "1"])
        .assert()
        .success();
}

#[test]
fn html_502_is_69_after_retries() {
    let server = TestServer::fixed(Canned::text(502, "<html><h1>502 Bad Gateway</h1></html>"));
    smsstat_at(&server.base)
        .args(["--retries", "1", "sms", "1"])
        .assert()
        .code(69)
        .stderr(predicate::str::contains("502"));
    assert_eq!(server.urls().len(), 2, "one try and one retry");
}

#[test]
fn refused_connection_is_69() {
    smsstat_at(&refused_base())
        .args(["sms", "1"])
        .assert()
        .code(69)
        .stderr(predicate::str::contains("unavailable"));
}

#[test]
fn a_hanging_server_is_75_within_the_timeout() {
    let server = RawServer::start(|stream| {
        // Holds the connection open without answering until the client gives up.
        let mut buf = [0u8; 1];
        let _ = std::io::Read::read(&mut &stream, &mut buf);
    });
    let started = Instant::now();
    smsstat_at(&server.base)
        .args(["--timeout", "300ms", "sms", "1"])
        .assert()
        .code(75)
        .stderr(predicate::str::contains("timed out"));
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn a_dripping_server_is_ended_by_the_timeout() {
    let server = RawServer::start(|mut stream| {
        let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n{");
        for _ in 0..100 {
            std::thread::sleep(Duration::from_millis(100));
            if stream.write_all(b" ").is_err() {
                return;
            }
        }
    });
    smsstat_at(&server.base)
        .args(["--timeout", "500ms", "sms", "1"])
        .assert()
        .code(75);
}

#[test]
fn not_authorised_without_json_is_77() {
    assert_eq!(
        code_for(Canned::text(401, "Unauthorized"), &["sms", "1"]),
        77
    );
    assert_eq!(code_for(Canned::text(403, ""), &["sms", "1"]), 77);
}

#[test]
fn redirects_are_refused_with_76_showing_the_location() {
    let server = TestServer::fixed(
        Canned::text(302, "").header("Location", "http://elsewhere.example/sms/1"),
    );
    smsstat_at(&server.base)
        .env("SMSSTAT_API_KEY", "k")
        .args(["sms", "1"])
        .assert()
        .code(76)
        .stderr(predicate::str::contains("http://elsewhere.example/sms/1"));
    assert_eq!(server.urls().len(), 1);
}

#[test]
fn other_4xx_without_json_is_76() {
    assert_eq!(code_for(Canned::text(418, "teapot"), &["sms", "1"]), 76);
    assert_eq!(code_for(Canned::text(404, "Not Found"), &["sms", "1"]), 76);
}

#[test]
fn usage_errors_are_64() {
    let server = TestServer::fixed(Canned::json(200, SMS));
    smsstat_at(&server.base)
        .args(["sms", "abc"])
        .assert()
        .code(64)
        .stderr(predicate::str::contains("sms-ref"));
    smsstat_at(&server.base)
        .args(["sms-ref", ""])
        .assert()
        .code(64);
    smsstat_at(&server.base)
        .args(["--no-such-flag", "sms", "1"])
        .assert()
        .code(64);
    smsstat_at(&server.base).args(["sms"]).assert().code(64);
    smsstat_at(&server.base)
        .args(["--retries", "21", "sms", "1"])
        .assert()
        .code(64);
    smsstat().assert().code(64);
    assert!(server.urls().is_empty(), "nothing is sent for bad input");
}

#[test]
fn help_and_version_are_0_and_help_shows_exit_codes() {
    smsstat()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("Exit codes").and(predicate::str::contains("79")));
    smsstat().arg("--version").assert().success();
}

#[test]
fn missing_or_invalid_base_url_is_78_with_a_hint() {
    smsstat()
        .args(["sms", "1"])
        .assert()
        .code(78)
        .stderr(predicate::str::contains("SMSSTAT_BASE_URL"));
    smsstat()
        .args(["--base-url", "ftp://x/y", "sms", "1"])
        .assert()
        .code(78)
        .stderr(predicate::str::contains("http"));
}

#[test]
fn transient_failures_are_retried_then_succeed() {
    let count = std::sync::atomic::AtomicUsize::new(0);
    let server = TestServer::start(move |_| {
        if count.fetch_add(1, std::sync::atomic::Ordering::SeqCst) < 2 {
            Canned::text(503, "<html>busy</html>").header("Retry-After", "0")
        } else {
            Canned::json(200, SMS)
        }
    });
    smsstat_at(&server.base)
        .args(["--retries", "2", "-v", "sms", "1"])
        .assert()
        .success()
        .stderr(predicate::str::contains("retry 2/2"));
    assert_eq!(server.urls().len(), 3);
}

#[test]
fn non_transient_failures_are_not_retried() {
    let server = TestServer::fixed(Canned::text(500, "oops"));
    smsstat_at(&server.base)
        .args(["--retries", "3", "sms", "1"])
        .assert()
        .code(69);
    assert_eq!(server.urls().len(), 1);
}

#[test]
fn tls_failures_are_69_and_not_retried() {
    // A plain-HTTP peer: it answers the TLS ClientHello with an HTTP response.
    let server = RawServer::on_connect(|mut stream| {
        let _ = stream.write_all(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n");
    });
    let https = server.base.replacen("http://", "https://", 1);
    smsstat_at(&https)
        .args(["--retries", "2", "sms", "1"])
        .assert()
        .code(69)
        .stderr(predicate::str::contains("TLS"));
    assert_eq!(server.received().len(), 1, "one connection, no retry");
}

#[test]
fn retry_after_sets_the_pause_before_the_retry() {
    let count = std::sync::atomic::AtomicUsize::new(0);
    let server = TestServer::start(move |_| {
        if count.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 0 {
            Canned::text(429, "slow down").header("Retry-After", "1")
        } else {
            Canned::json(200, SMS)
        }
    });
    let started = Instant::now();
    smsstat_at(&server.base)
        .args(["--retries", "1", "sms", "1"])
        .assert()
        .success();
    // Without Retry-After the first backoff is at most 300 ms.
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
}

/// Stdout on a full disk: every format and every document ends with 74 and one
/// line saying so, not 0 with every line lost. (Linux's /dev/full.)
#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_exit_74_not_a_silent_success() {
    let runs: [&[&str]; 7] = [
        &["--json", "sms", "1", "2", "3"],
        &["--wait", "--follow", "sms", "1", "2"],
        &["sms", "1"],
        &["-o", "csv", "sms", "1", "2"],
        &["-o", "report", "sms", "1", "2"],
        &["check"],
        &["config", "show"],
    ];
    for args in runs {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = crate::common::clean_command()
            .arg("--demo")
            .args(args)
            .stdout(full)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(74), "{args:?}: {stderr}");
        assert_eq!(
            stderr.matches("cannot write the output").count(),
            1,
            "{args:?}: {stderr}"
        );
    }
}

/// A reader that goes away is not a write failure: the exit code stays the lookups'.
#[test]
fn a_reader_that_goes_away_leaves_the_exit_code_be() {
    let mut child = crate::common::clean_command()
        .args(["--demo", "--json", "sms"])
        .args((1..=2000).map(|i| i.to_string()))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 1];
    std::io::Read::read_exact(&mut stdout, &mut first).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("cannot write"));
}
