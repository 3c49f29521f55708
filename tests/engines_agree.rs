//! The two engines agree: the same batches, over http and https, on a mix of the
//! answers gateways give and on broken ones, print the same bytes and exit codes
//! on the multiplexer and on the thread engine (which `-v` selects), and their
//! requests carry the same headers.

mod common;
mod tls_support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use common::process::run_at;
use common::{json_lines, smsstat_at, Canned, RawServer, TestServer};
use tls_support::{Pki, TlsServer};

fn record(id: &str) -> String {
    format!(r#"{{"error":0,"id":"{id}","msisdn":"380501234567","status":"delivered"}}"#)
}

fn id_of(path: &str) -> &str {
    path.rsplit('/').next().unwrap()
}

/// A mix of what gateways answer: records, service errors, an unknown route, a
/// server error, a redirect, a body that is not JSON, another kind of record.
fn mixed(url: &str) -> Canned {
    match id_of(url).parse::<u32>().unwrap_or(0) % 8 {
        0 => Canned::json(200, &record(id_of(url))),
        1 => Canned::json(200, r#"{"error":20,"errorDescription":"SMS not found"}"#),
        2 => Canned::text(404, "no such route"),
        3 => Canned::json(500, r#"{"error":"boom"}"#),
        4 => Canned::text(302, "").header("Location", "/elsewhere"),
        5 => Canned::text(200, "<html>maintenance</html>"),
        6 => Canned::json(200, r#"{"error":0,"sent":"3","delivered":"2"}"#),
        _ => Canned::json(401, r#"{"error":401,"errorDescription":"no"}"#),
    }
}

#[test]
fn the_multiplexer_and_the_thread_engine_print_the_same() {
    let server = TestServer::start(mixed);
    let ids: Vec<String> = (1..=40).map(|i| i.to_string()).collect();
    for format in ["json", "csv"] {
        let mut args = vec!["-o", format, "--keep-going", "-j", "4", "sms"];
        args.extend(ids.iter().map(String::as_str));
        let multiplexed = run_at(&server.base, &args);
        // -v sends every request through the blocking client, on worker threads.
        let mut threaded_args = vec!["-v"];
        threaded_args.extend(&args);
        let threaded = run_at(&server.base, &threaded_args);
        assert_eq!(multiplexed.stdout, threaded.stdout, "-o {format}");
        assert_eq!(multiplexed.code, threaded.code, "-o {format}");
        assert!(threaded.stderr.contains("GET "), "{}", threaded.stderr);
        assert!(
            !multiplexed.stderr.contains("GET "),
            "{}",
            multiplexed.stderr
        );
    }
}

#[test]
fn requests_carry_the_same_headers_on_both_engines() {
    let server = TestServer::fixed(Canned::json(200, &record("1")));
    for verbose in [&[][..], &["-v"][..]] {
        smsstat_at(&server.base)
            .args(verbose)
            .args(["--json", "-j", "2", "sms", "1", "2", "3"])
            .env("SMSSTAT_API_KEY", "k-123")
            .assert()
            .success();
    }
    let seen = server.seen();
    assert_eq!(seen.len(), 6);
    let headers = |i: usize| {
        let mut headers: Vec<(String, String)> = seen[i]
            .headers
            .iter()
            .map(|(n, v)| (n.to_ascii_lowercase(), v.clone()))
            .collect();
        headers.sort();
        headers
    };
    for request in &seen {
        assert!(request
            .header("user-agent")
            .unwrap()
            .starts_with("smsstat/"));
        assert_eq!(request.header("accept"), Some("application/json"));
        assert!(request.header("host").unwrap().starts_with("127.0.0.1:"));
        assert_eq!(request.header("x-api-key"), Some("k-123"), "{request:?}");
    }
    // The first three went through the multiplexer, the last three (-v) not.
    for i in 0..3 {
        assert_eq!(headers(i), headers(i + 3));
    }
}

/// Over https: records, a chunked record, a service error, a server error.
fn tls_mixed(path: &str) -> String {
    let id = id_of(path);
    let (status, body) = match id.parse::<u32>().unwrap_or(0) % 4 {
        0 | 1 => ("200 OK", record(id)),
        2 => (
            "200 OK",
            r#"{"error":20,"errorDescription":"SMS not found"}"#.to_string(),
        ),
        _ => ("503 Service Unavailable", "busy".to_string()),
    };
    if id.ends_with('1') {
        return format!(
            "HTTP/1.1 {status}\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{body}\r\n0\r\n\r\n",
            body.len()
        );
    }
    format!(
        "HTTP/1.1 {status}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

#[test]
fn https_lookups_keep_their_connections_and_print_as_the_thread_engine_does() {
    let pki = Pki::new();
    let connections = Arc::new(AtomicUsize::new(0));
    let server = TlsServer::keep_alive(&pki, tls_mixed, Arc::clone(&connections));
    let dir = tempfile::tempdir().unwrap();
    let ca = dir.path().join("ca.pem");
    std::fs::write(&ca, &pki.ca_pem).unwrap();
    let ca = ca.to_str().unwrap();
    let ids: Vec<String> = (1..=60).map(|i| i.to_string()).collect();
    let mut args = vec!["--ca-cert", ca, "--json", "--keep-going", "-j", "4", "sms"];
    args.extend(ids.iter().map(String::as_str));
    let multiplexed = run_at(&server.base, &args);
    let lines = json_lines(&multiplexed.stdout);
    assert_eq!(lines.len(), 60);
    for (line, id) in lines.iter().zip(&ids) {
        match id.parse::<u32>().unwrap() % 4 {
            0 | 1 => assert_eq!(&line["id"], id.as_str(), "{line}"),
            2 => assert_eq!(line["error"], 20, "{line}"),
            _ => assert!(
                line["error"].as_u64().is_some_and(|code| code > 63),
                "{line}"
            ),
        }
    }
    let opened = connections.load(Ordering::SeqCst);
    assert!(
        opened <= 4,
        "{opened} TLS connections for 60 lookups at -j 4"
    );

    let mut threaded_args = vec!["-v"];
    threaded_args.extend(&args);
    let threaded = run_at(&server.base, &threaded_args);
    assert_eq!(multiplexed.stdout, threaded.stdout);
    assert_eq!(multiplexed.code, threaded.code);
}

/// Broken answers, each as raw bytes followed by the connection closing.
const BROKEN: [&[u8]; 10] = [
    b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"error\":0,\"status\":\"del",
    b"NOT HTTP AT ALL\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n",
    b"",
    b"HTTP/1.1 204 No Content\r\n\r\n",
    b"HTTP/1.1 200 OK\r\n\r\n{\"error\":0,\"id\":\"1\",\"status\":\"delivered\"}",
    b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"err",
    b"HTTP/1.1 200 OK\r\nContent-Length: 9999999999\r\n\r\n{}",
    b"HTTP/1.1 999 Odd\r\nContent-Length: 2\r\n\r\n{}",
];

#[test]
fn broken_answers_fail_as_they_do_on_the_thread_engine() {
    for (i, bytes) in BROKEN.iter().enumerate() {
        let server = RawServer::bytes(bytes);
        let args = ["--json", "--max-body", "1000", "sms", "1", "2"];
        let multiplexed = run_at(&server.base, &args);
        let mut threaded_args = vec!["-v"];
        threaded_args.extend(args);
        let threaded = run_at(&server.base, &threaded_args);
        assert_eq!(
            (multiplexed.code, &multiplexed.stdout),
            (threaded.code, &threaded.stdout),
            "answer {i}: {:?}",
            String::from_utf8_lossy(bytes)
        );
    }
}
