//! The one-thread engine (`src/http/mux/`): every framing a server may use, answers
//! split across packets, informational answers before the real one, bytes beyond an
//! answer, a lookup that never answers, connections that hang, https on kept
//! connections, and the same output as the thread engine (which `-v` selects) on a
//! mix of answers, over http and https.

mod common;
mod tls_support;

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use common::process::run_at;
use common::{json_lines, smsstat_at, Canned, TestServer};
use serde_json::Value;
use tls_support::{Pki, TlsServer};

fn record(id: &str) -> String {
    format!(r#"{{"error":0,"id":"{id}","msisdn":"380501234567","status":"delivered"}}"#)
}

/// What the raw server does with one request.
enum Reply {
    /// Bytes written in these pieces, one write each, connection kept.
    Pieces(Vec<Vec<u8>>),
    /// Bytes written, then the connection closed.
    ThenClose(Vec<u8>),
    /// No answer: the connection is held open until the client gives up.
    Never,
}

/// A keep-alive server speaking raw bytes (the framings are what is tested):
/// `reply(path)` says what to send for each request read. Counts connections.
fn raw_server(reply: fn(&str) -> Reply) -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let connections = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&connections);
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            counted.fetch_add(1, Ordering::SeqCst);
            thread::spawn(move || serve(stream, reply));
        }
    });
    (base, connections)
}

fn serve(stream: TcpStream, reply: fn(&str) -> Reply) {
    stream.set_nodelay(true).unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut out = stream;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let path = line.split(' ').nth(1).unwrap_or("").to_string();
        while line != "\r\n" {
            line.clear();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
        }
        match reply(&path) {
            Reply::Pieces(pieces) => {
                for piece in pieces {
                    if out.write_all(&piece).and_then(|()| out.flush()).is_err() {
                        return;
                    }
                }
            }
            Reply::ThenClose(bytes) => {
                let _ = out.write_all(&bytes);
                return;
            }
            Reply::Never => {
                // Read until the client closes: no answer ever comes.
                let _ = reader.read_line(&mut line);
                return;
            }
        }
    }
}

fn id_of(path: &str) -> &str {
    path.rsplit('/').next().unwrap()
}

fn framed(path: &str) -> Reply {
    let id = id_of(path);
    let body = record(id);
    let length = |extra: &str| {
        format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n{extra}Content-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .into_bytes()
    };
    match id.parse::<u32>().unwrap() % 6 {
        // Content-Length, the head and body split mid-line and mid-body.
        0 => {
            let bytes = length("");
            let pieces = [&bytes[..10], &bytes[10..60], &bytes[60..bytes.len() - 5]];
            let mut pieces: Vec<Vec<u8>> = pieces.iter().map(|p| p.to_vec()).collect();
            pieces.push(bytes[bytes.len() - 5..].to_vec());
            Reply::Pieces(pieces)
        }
        // Chunked, in three chunks (one with an extension), each written alone.
        1 => {
            let (a, rest) = body.split_at(7);
            let (b, c) = rest.split_at(20);
            Reply::Pieces(vec![
                b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec(),
                format!("{:x}\r\n{a}\r\n", a.len()).into_bytes(),
                format!("{:x};note=1\r\n{b}\r\n", b.len()).into_bytes(),
                format!("{:x}\r\n{c}\r\n0\r\n\r\n", c.len()).into_bytes(),
            ])
        }
        // A 100 Continue nobody asked for, in the same write as the answer.
        2 => {
            let mut bytes = b"HTTP/1.1 100 Continue\r\n\r\n".to_vec();
            bytes.extend(length(""));
            Reply::Pieces(vec![bytes])
        }
        // HTTP/1.0 without a length: the body ends when the connection does.
        3 => Reply::ThenClose(format!("HTTP/1.0 200 OK\r\n\r\n{body}").into_bytes()),
        // Bytes after the answer: the connection must not serve another exchange.
        4 => {
            let mut bytes = length("");
            bytes.extend(b"HTTP/1.1 500 Stray\r\n\r\n");
            Reply::Pieces(vec![bytes])
        }
        // Connection: close, honoured.
        _ => Reply::ThenClose(length("Connection: close\r\n")),
    }
}

#[test]
fn every_framing_is_read_whole_and_in_order() {
    let (base, _) = raw_server(framed);
    let ids: Vec<String> = (1..=60).map(|i| i.to_string()).collect();
    for jobs in ["1", "4"] {
        let mut args = vec!["--json", "-j", jobs, "sms"];
        args.extend(ids.iter().map(String::as_str));
        let run = run_at(&base, &args);
        assert_eq!(run.code, 0, "-j {jobs}: {}", run.stderr);
        let seen: Vec<Value> = json_lines(&run.stdout)
            .iter()
            .map(|l| l["id"].clone())
            .collect();
        assert_eq!(seen, ids, "-j {jobs}");
    }
}

#[test]
fn kept_connections_are_reused() {
    let (base, connections) = raw_server(|path| {
        let body = record(id_of(path));
        let head = format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n", body.len());
        Reply::Pieces(vec![(head + &body).into_bytes()])
    });
    let ids: Vec<String> = (1..=200).map(|i| i.to_string()).collect();
    let mut args = vec!["--json", "-j", "4", "sms"];
    args.extend(ids.iter().map(String::as_str));
    let run = run_at(&base, &args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(json_lines(&run.stdout).len(), 200);
    let opened = connections.load(Ordering::SeqCst);
    assert!(opened <= 4, "{opened} connections for 200 lookups at -j 4");
}

#[test]
fn a_lookup_that_never_answers_times_out_alone() {
    let (base, _) = raw_server(|path| match id_of(path) {
        "3" => Reply::Never,
        id => {
            let body = record(id);
            let head = format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n", body.len());
            Reply::Pieces(vec![(head + &body).into_bytes()])
        }
    });
    let args = [
        "--json",
        "--timeout",
        "1s",
        "-j",
        "3",
        "sms",
        "1",
        "2",
        "3",
        "4",
        "5",
    ];
    let run = run_at(&base, &args);
    assert_eq!(run.code, 75, "{}", run.stderr);
    let lines = json_lines(&run.stdout);
    let ids: Vec<&Value> = lines.iter().map(|l| &l["id"]).collect();
    assert_eq!(ids[..2], ["1", "2"]);
    assert_eq!(ids[3..], ["4", "5"]);
    assert_eq!(lines[2]["error"], 75, "{lines:?}");
    assert_eq!(lines[2]["query"], "3");
    assert!(run.stderr.contains("timed out"), "{}", run.stderr);
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

#[test]
fn connections_being_made_are_waited_for_together() {
    // A listener whose accept queue is full drops new connection requests: a
    // connect to it hangs, as to a host that does not answer.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let mut held = Vec::new();
    while let Ok(stream) = TcpStream::connect_timeout(&addr, Duration::from_millis(200)) {
        held.push(stream);
        if held.len() > 5_000 {
            // A kernel that never drops connection requests (not Linux): nothing
            // here can make a connect hang.
            eprintln!("skipped: the accept queue never filled");
            return;
        }
    }
    let ids: Vec<String> = (1..=8).map(|i| i.to_string()).collect();
    let mut args = vec!["--json", "--timeout", "1s", "-j", "8", "sms"];
    args.extend(ids.iter().map(String::as_str));
    // Made one after the other, eight connections would take eight seconds.
    let out = smsstat_at(&format!("http://{addr}"))
        .args(&args)
        .timeout(Duration::from_secs(6))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(75), "{out:?}");
    let lines = json_lines(&out.stdout);
    assert_eq!(lines.len(), 8);
    assert!(lines.iter().all(|l| l["error"] == 75), "{lines:?}");
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
        let server = common::RawServer::bytes(bytes);
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

#[test]
fn answers_written_a_byte_at_a_time_are_read_whole() {
    let (base, _) = raw_server(|path| {
        let body = record(id_of(path));
        let answer = format!(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{body}\r\n0\r\n\r\n",
            body.len()
        );
        Reply::Pieces(answer.bytes().map(|b| vec![b]).collect())
    });
    let run = run_at(
        &base,
        &["--json", "-j", "3", "sms", "1", "2", "3", "4", "5"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let ids: Vec<Value> = json_lines(&run.stdout)
        .iter()
        .map(|l| l["id"].clone())
        .collect();
    assert_eq!(ids, ["1", "2", "3", "4", "5"]);
}
