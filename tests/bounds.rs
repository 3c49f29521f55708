//! Every answer is bounded in size and time: endless bodies, huge headers and
//! dripping servers end quickly, with flat memory.

mod common;

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use common::process::{run_cmd, spawn, watch};
use common::{smsstat_at, RawServer};
use predicates::prelude::*;

// ---------------------------------------------------------------- size and time

/// A server that announces `head` and then streams filler for as long as the client
/// reads (at most 2 GiB or 20 s), counting what it managed to send.
fn endless(head: &'static str, chunked: bool) -> (RawServer, Arc<AtomicU64>) {
    let sent = Arc::new(AtomicU64::new(0));
    let counter = Arc::clone(&sent);
    let server = RawServer::start(move |mut stream| {
        let _ = stream.write_all(head.as_bytes());
        let filler = vec![b' '; 64 * 1024];
        let chunk_head = format!("{:x}\r\n", filler.len());
        let started = Instant::now();
        while counter.load(Ordering::SeqCst) < 2 << 30 && started.elapsed().as_secs() < 20 {
            let written = if chunked {
                stream
                    .write_all(chunk_head.as_bytes())
                    .and_then(|_| stream.write_all(&filler))
                    .and_then(|_| stream.write_all(b"\r\n"))
            } else {
                stream.write_all(&filler)
            };
            if written.is_err() {
                return;
            }
            counter.fetch_add(filler.len() as u64, Ordering::SeqCst);
        }
    });
    (server, sent)
}

#[test]
fn an_endless_body_is_cut_at_the_cap_with_flat_memory() {
    for (head, chunked) in [
        (
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 999999999999\r\n\r\n{\"pad\":\"",
            false,
        ),
        (
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
            true,
        ),
    ] {
        let (server, sent) = endless(head, chunked);
        let child = spawn(&server.base, &["--max-body", "16777216", "sms", "1"]);
        let (code, stderr, peak_kib, took) = watch(child);
        assert_eq!(code, 65, "{stderr}");
        assert!(stderr.contains("larger than 16777216 bytes"), "{stderr}");
        assert!(took < Duration::from_secs(10), "took {took:?}");
        // It stopped reading: what the server got out is the cap plus socket buffers,
        // not the 2 GiB it would send to a client that kept reading.
        let sent = sent.load(Ordering::SeqCst);
        assert!(sent < 96 << 20, "the client read {sent} bytes");
        // The cap plus the program itself: the body is never held twice or whole.
        assert!(peak_kib < 64 * 1024, "peak memory {peak_kib} KiB");
    }
}

#[test]
fn huge_response_headers_are_refused_with_a_clear_message() {
    let many_lines: &'static str = Box::leak(
        format!(
            "HTTP/1.1 200 OK\r\n{}Content-Length: 2\r\n\r\n{{}}",
            (0..2000)
                .map(|i| format!("X-Pad-{i:04}: {}\r\n", "x".repeat(40)))
                .collect::<String>()
        )
        .into_boxed_str(),
    );
    let one_line: &'static str = Box::leak(
        format!(
            "HTTP/1.1 200 OK\r\nX-Big: {}\r\nContent-Length: 2\r\n\r\n{{}}",
            "y".repeat(100 * 1024)
        )
        .into_boxed_str(),
    );
    for head in [many_lines, one_line] {
        assert!(head.len() > 100 * 1024);
        let server = RawServer::bytes(head.as_bytes());
        let run = run_cmd({
            let mut cmd = smsstat_at(&server.base);
            cmd.args(["sms", "1"]);
            cmd
        });
        // Not a readable record: 65.
        assert_eq!(run.code, 65, "{}", run.stderr);
        assert!(run.stderr.contains("headers too large"), "{}", run.stderr);
    }
}

/// Sends `head` at once, then one byte of `drip` a second (at most 30).
fn dripping(head: &'static [u8], drip: &'static [u8]) -> RawServer {
    RawServer::start(move |mut stream| {
        let _ = stream.write_all(head);
        for byte in drip.iter().take(30) {
            thread::sleep(Duration::from_secs(1));
            if stream.write_all(&[*byte]).is_err() {
                return;
            }
        }
    })
}

#[test]
fn the_timeout_ends_a_server_dripping_one_byte_a_second() {
    let body_drip = dripping(
        b"HTTP/1.1 200 OK\r\nContent-Length: 40\r\n\r\n",
        b"{\"status\":\"delivered\",\"pad\":\"xxxxxxxx\"}",
    );
    // Slow headers too (slowloris the other way round).
    let header_drip = dripping(
        b"HTTP/1.1 200 OK\r\n",
        b"X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaa",
    );
    for server in [body_drip, header_drip] {
        let started = Instant::now();
        smsstat_at(&server.base)
            .args(["--timeout", "2s", "sms", "1"])
            .assert()
            .code(75)
            .stderr(predicate::str::contains("timed out after 2s"));
        let took = started.elapsed();
        // A bound, not a benchmark: the drip alone would take 40 s.
        assert!(took < Duration::from_secs(20), "took {took:?}");
    }
}
