//! Every answer is bounded in size and time: endless bodies, huge headers and
//! dripping servers end quickly, with flat memory.

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use crate::common::process::{run_cmd, spawn, watch};
use crate::common::{smsstat_at, RawServer};
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

// ---------------------------------------------------------------- read exactly

#[test]
fn max_body_accepts_exactly_n_bytes() {
    let body = r#"{"status":"delivered"}"#;
    let server = crate::common::TestServer::fixed(crate::common::Canned::json(200, body));
    let exact = body.len().to_string();
    let one_less = (body.len() - 1).to_string();
    let run = run_cmd({
        let mut cmd = smsstat_at(&server.base);
        cmd.args(["--max-body", &exact, "sms", "1"]);
        cmd
    });
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = run_cmd({
        let mut cmd = smsstat_at(&server.base);
        cmd.args(["--max-body", &one_less, "sms", "1"]);
        cmd
    });
    assert_eq!(run.code, 65, "{}", run.stderr);
    assert!(
        run.stderr
            .contains(&format!("body larger than {one_less} bytes")),
        "{}",
        run.stderr
    );
}

#[test]
fn an_error_code_that_rounds_to_zero_is_not_success() {
    for code in ["1e-400", "0.5", "1.0000000000000000001"] {
        let body = format!(r#"{{"error":{code},"status":"delivered"}}"#);
        let server = crate::common::TestServer::fixed(crate::common::Canned::json(200, &body));
        let run = run_cmd({
            let mut cmd = smsstat_at(&server.base);
            cmd.args(["sms", "1"]);
            cmd
        });
        assert_eq!(run.code, 79, "{code}: {}", run.stderr);
        assert!(run.stderr.contains(code), "{code}: {}", run.stderr);
    }
}

#[test]
fn normalize_keeps_the_digits_of_an_out_of_range_counter() {
    let body = r#"{"sent":12345678901234567890123,"delivered":"99999999999999999999","undeliverable":"3","totalprice":"0.10"}"#;
    let server = crate::common::TestServer::fixed(crate::common::Canned::json(200, body));
    let run = run_cmd({
        let mut cmd = smsstat_at(&server.base);
        cmd.args(["--json", "--normalize", "task", "1"]);
        cmd
    });
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains(r#""sent":12345678901234567890123"#)
            && run.stdout.contains(r#""delivered":99999999999999999999"#)
            && run.stdout.contains(r#""undeliverable":3"#)
            && run.stdout.contains(r#""totalprice":0.10"#),
        "{}",
        run.stdout
    );
    assert!(
        !run.stdout.contains("9223372036854775807"),
        "{}",
        run.stdout
    );
}

#[test]
fn an_unknown_host_is_not_retried() {
    // A name the resolver refuses without asking DNS: no query leaves the machine.
    let base = format!("http://{}", crate::common::UNRESOLVABLE_HOST);
    let run = run_cmd({
        let mut cmd = crate::common::smsstat();
        cmd.args(["--base-url", &base, "--retries", "3", "-v", "sms", "1"]);
        cmd
    });
    assert_eq!(run.code, 69, "{}", run.stderr);
    assert!(!run.stderr.contains("retry"), "{}", run.stderr);
    assert_eq!(run.stderr.matches("GET ").count(), 1, "{}", run.stderr);
}

// ---------------------------------------------------------------- local files

/// A FIFO nobody writes to: opening it for reading would block forever.
fn fifo(dir: &std::path::Path) -> String {
    let path = dir.join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&path)
        .status()
        .unwrap();
    assert!(made.success());
    path.to_str().unwrap().to_string()
}

#[test]
fn local_files_are_regular_and_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = fifo(dir.path());
    let big = dir.path().join("big.toml");
    std::fs::write(&big, format!("# {}\n", "x".repeat(2 << 20))).unwrap();
    let big = big.to_str().unwrap().to_string();
    for path in ["/dev/zero", fifo.as_str(), big.as_str()] {
        let key_file = dir.path().join("with-key-file.toml");
        std::fs::write(&key_file, format!("api_key_file = \"{path}\"\n")).unwrap();
        let key_file = key_file.to_str().unwrap().to_string();
        for args in [
            vec!["--config", path, "sms", "1"],
            vec!["--ca-cert", path, "sms", "1"],
            vec!["--config", key_file.as_str(), "sms", "1"],
        ] {
            let (code, stderr, _, _) = watch(spawn("https://gw.example", &args));
            assert_eq!(code, 78, "{args:?}: {stderr}");
            let why = if path == big {
                "larger than 1 MiB"
            } else {
                "not a regular file"
            };
            assert!(stderr.contains(why), "{args:?}: {stderr}");
        }
    }
}

#[test]
fn watched_values_keep_one_slim_copy_of_their_last_record() {
    // Sixty values, each pending with a 4 MiB record (a vendor's extra field): the
    // run keeps what `--field status` prints of each, not sixty records three times.
    let blob = "x".repeat(4 * 1024 * 1024 - 100);
    let server = crate::common::TestServer::start(move |url| {
        let id = crate::common::answers::value_of(url);
        crate::common::Canned::json(
            200,
            &format!(r#"{{"error":0,"sms_id":{id},"status":"queued","blob":"{blob}"}}"#),
        )
    });
    let ids: Vec<String> = (1..=60).map(|i| i.to_string()).collect();
    let mut args = vec![
        "--max-body",
        "8388608",
        "-j",
        "4",
        "--wait",
        "--wait-timeout",
        "10s",
        "--interval",
        "500ms",
        "--field",
        "status",
        "sms",
    ];
    args.extend(ids.iter().map(String::as_str));
    let (code, stderr, peak_kib, _) = watch(spawn(&server.base, &args));
    assert_eq!(code, 81, "{stderr}");
    // Every value asked (a debug build reads 4 MiB slowly: no count of polls).
    let asked: std::collections::HashSet<String> = server
        .urls()
        .iter()
        .map(|url| crate::common::answers::value_of(url))
        .collect();
    assert_eq!(asked.len(), 60, "{stderr}");
    assert!(peak_kib < 256 * 1024, "peak {} MiB", peak_kib / 1024);
    eprintln!(
        "peak {} MiB, {} requests",
        peak_kib / 1024,
        server.urls().len()
    );
}
