//! Every framing a server may use, read by the one HTTP client: answers split across
//! packets or written a byte at a time, informational answers before the real one,
//! bytes beyond an answer, kept connections, a lookup that never answers,
//! connections that hang.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

use crate::common::answers::value_of;
use crate::common::process::run_at;
use crate::common::{json_lines, smsstat_at, RawServer};
use serde_json::Value;

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
/// `reply(path)` says what to send for each request read. `received()` has an
/// entry for each connection accepted.
fn raw_server(reply: impl Fn(&str) -> Reply + Send + Sync + 'static) -> RawServer {
    RawServer::on_connect(move |stream| serve(stream, &reply))
}

fn serve(stream: TcpStream, reply: &impl Fn(&str) -> Reply) {
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

/// The answer of a plain keep-alive server: the record of the value asked for.
fn plain(path: &str) -> Vec<u8> {
    let body = record(&value_of(path));
    let head = format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n", body.len());
    (head + &body).into_bytes()
}

fn framed(path: &str) -> Reply {
    let id = value_of(path);
    let body = record(&id);
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
    let server = raw_server(framed);
    let ids: Vec<String> = (1..=60).map(|i| i.to_string()).collect();
    for jobs in ["1", "4"] {
        let mut args = vec!["--json", "-j", jobs, "sms"];
        args.extend(ids.iter().map(String::as_str));
        let run = run_at(&server.base, &args);
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
    let server = raw_server(|path| Reply::Pieces(vec![plain(path)]));
    let base = &server.base;
    let ids: Vec<String> = (1..=200).map(|i| i.to_string()).collect();
    let mut args = vec!["--json", "-j", "4", "sms"];
    args.extend(ids.iter().map(String::as_str));
    let run = run_at(base, &args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(json_lines(&run.stdout).len(), 200);
    // Each connection was recorded when accepted, before it served a request.
    let opened = server.received().len();
    assert!(opened <= 4, "{opened} connections for 200 lookups at -j 4");
}

#[test]
fn a_lookup_that_never_answers_times_out_alone() {
    let server = raw_server(|path| match value_of(path).as_str() {
        "3" => Reply::Never,
        _ => Reply::Pieces(vec![plain(path)]),
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
    let run = run_at(&server.base, &args);
    assert_eq!(run.code, 75, "{}", run.stderr);
    let lines = json_lines(&run.stdout);
    let ids: Vec<&Value> = lines.iter().map(|l| &l["id"]).collect();
    assert_eq!(ids[..2], ["1", "2"]);
    assert_eq!(ids[3..], ["4", "5"]);
    assert_eq!(lines[2]["error"], 75, "{lines:?}");
    assert_eq!(lines[2]["query"], "3");
    assert!(run.stderr.contains("timed out"), "{}", run.stderr);
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
    // As many lookups as jobs, each connect bounded by the 1 s --timeout: made
    // together, they take about a second; one after the other, 32 seconds. The
    // bound is ten times the one second, a third of the 32.
    let ids: Vec<String> = (1..=32).map(|i| i.to_string()).collect();
    let mut args = vec!["--json", "--timeout", "1s", "-j", "32", "sms"];
    args.extend(ids.iter().map(String::as_str));
    let started = Instant::now();
    let out = smsstat_at(&format!("http://{addr}"))
        .args(&args)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let took = started.elapsed();
    assert_eq!(out.status.code(), Some(75), "{out:?}");
    let lines = json_lines(&out.stdout);
    assert_eq!(lines.len(), 32);
    assert!(lines.iter().all(|l| l["error"] == 75), "{lines:?}");
    assert!(took < Duration::from_secs(10), "took {took:?}");
}

#[test]
fn answers_written_a_byte_at_a_time_are_read_whole() {
    let server = raw_server(|path| {
        let body = record(&value_of(path));
        let answer = format!(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{body}\r\n0\r\n\r\n",
            body.len()
        );
        Reply::Pieces(answer.bytes().map(|b| vec![b]).collect())
    });
    let run = run_at(
        &server.base,
        &["--json", "-j", "3", "sms", "1", "2", "3", "4", "5"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let ids: Vec<Value> = json_lines(&run.stdout)
        .iter()
        .map(|l| l["id"].clone())
        .collect();
    assert_eq!(ids, ["1", "2", "3", "4", "5"]);
}

/// Answers each request with its record and, in the same write, more bytes that
/// nobody asked for; the connection stays open (or is closed when `close`).
fn with_extra_bytes(extra: &'static [u8], close: bool) -> String {
    raw_server(move |path| {
        let body = record(&value_of(path));
        let mut bytes = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .into_bytes();
        bytes.extend_from_slice(extra);
        match close {
            true => Reply::ThenClose(bytes),
            false => Reply::Pieces(vec![bytes]),
        }
    })
    .base
}

/// Each line is the record of its own value, and the run succeeds.
fn each_value_gets_its_own_record(base: &str) {
    let out = run_at(base, &["--json", "-j", "1", "sms", "1", "2", "3", "4"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let ids: Vec<Value> = json_lines(&out.stdout)
        .iter()
        .map(|l| l["id"].clone())
        .collect();
    assert_eq!(ids, ["1", "2", "3", "4"]);
}

#[test]
fn an_unsolicited_answer_on_an_idle_connection_never_lands_on_a_lookup() {
    let stray = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 67\r\n\r\n\
        {\"error\":0,\"id\":\"999\",\"msisdn\":\"380501234567\",\"status\":\"delivered\"}";
    each_value_gets_its_own_record(&with_extra_bytes(stray, false));
}

#[test]
fn an_idle_connection_answered_408_and_closed_is_dropped_not_a_failure() {
    let timeout = b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";
    each_value_gets_its_own_record(&with_extra_bytes(timeout, true));
}
