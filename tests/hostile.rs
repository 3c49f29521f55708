//! Hostile servers and bad input, through the built binary: the key never leaks,
//! redirects are never followed, every answer is bounded in size and time, nothing a
//! server sends reaches the terminal raw, and the process ends cleanly.

mod common;

use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use common::{empty_config_home, smsstat_at, Canned, RawServer, TestServer, SMS};
use predicates::prelude::*;
use serde_json::{json, Value};
use smsstat::printer::is_unsafe;

const KEY: &str = "acc-hostile-secret-9z7";

/// Stdout and stderr of a finished run, as text.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run_cmd(mut cmd: assert_cmd::Command) -> Run {
    let out = cmd.output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn with_key(base: &str, args: &[&str]) -> Run {
    let mut cmd = smsstat_at(base);
    cmd.env("SMSSTAT_API_KEY", KEY).args(args);
    run_cmd(cmd)
}

fn assert_no_key(run: &Run, what: &str) {
    assert!(
        !run.stdout.contains(KEY) && !run.stderr.contains(KEY),
        "key printed ({what}):\nstdout: {}\nstderr: {}",
        run.stdout,
        run.stderr
    );
}

/// Every output mode, verbose traces included.
const MODES: [&[&str]; 8] = [
    &[],
    &["-v"],
    &["-vv"],
    &["--json"],
    &["--json", "--normalize"],
    &["-o", "csv"],
    &["-o", "tsv"],
    &["-vv", "--field", "status"],
];

fn assert_key_never_printed(server_base: &str, command: &[&str], expected_code: i32) {
    for mode in MODES {
        let args: Vec<&str> = mode.iter().chain(command).copied().collect();
        let run = with_key(server_base, &args);
        assert_eq!(run.code, expected_code, "{args:?}: {}", run.stderr);
        assert_no_key(&run, &format!("{args:?}"));
    }
}

// ---------------------------------------------------------------- secrets

#[test]
fn a_key_echoed_in_an_error_body_is_never_printed() {
    let body = format!(
        r#"{{"error":1,"errorDescription":"Invalid API key {KEY}","yourKey":"{KEY}","{KEY}":1}}"#
    );
    let server = TestServer::fixed(Canned::json(401, &body).header("X-Echo", KEY));
    assert_key_never_printed(&server.base, &["sms", "1"], 1);
    assert_key_never_printed(&server.base, &["sms", "1", "2"], 1);
    assert!(server
        .seen()
        .iter()
        .all(|s| s.header("X-API-KEY") == Some(KEY)));
}

#[test]
fn no_part_of_the_key_shows_in_a_quoted_body_start() {
    // An unreadable body is quoted by its first bytes; the key starts inside them.
    let body = format!("{}{KEY} and more", "x".repeat(30));
    let server = TestServer::fixed(Canned::text(200, &body));
    let run = with_key(&server.base, &["sms", "1"]);
    assert_eq!(run.code, 65);
    assert!(!run.stderr.contains(&KEY[..6]), "{}", run.stderr);
}

#[test]
fn a_key_echoed_in_a_record_is_never_printed() {
    let body = format!(r#"{{"status":"delivered","note":"sent with {KEY}","{KEY}":"x"}}"#);
    let server = TestServer::fixed(Canned::json(200, &body).header("Set-Cookie", KEY));
    assert_key_never_printed(&server.base, &["sms", "1"], 0);
    let run = with_key(&server.base, &["--field", "note", "sms", "1"]);
    assert_eq!(run.stdout, "sent with ****\n");
}

#[test]
fn a_key_in_a_location_header_is_never_printed() {
    let location = format!("http://elsewhere.example/login?api_key={KEY}");
    let server = TestServer::fixed(Canned::text(302, "").header("Location", &location));
    assert_key_never_printed(&server.base, &["sms", "1"], 76);
    let run = with_key(&server.base, &["sms", "1"]);
    assert!(
        run.stderr
            .contains("http://elsewhere.example/login?api_key=****"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_key_in_an_html_502_or_an_unreadable_body_is_never_printed() {
    let html = format!("<html><h1>502</h1><pre>upstream got X-API-KEY: {KEY}</pre></html>");
    let server = TestServer::fixed(Canned::text(502, &html).header("X-Upstream-Key", KEY));
    assert_key_never_printed(&server.base, &["sms", "1"], 69);
    // The start of an unreadable body is quoted in the message.
    let server = TestServer::fixed(Canned::text(200, &format!("{KEY} <html>")));
    assert_key_never_printed(&server.base, &["sms", "1"], 65);
}

#[test]
fn a_key_given_as_a_flag_warns_and_is_never_printed() {
    let body = format!(r#"{{"error":1,"errorDescription":"bad key {KEY}"}}"#);
    let server = TestServer::fixed(Canned::json(401, &body).header("X-Echo", KEY));
    let mut cmd = smsstat_at(&server.base);
    cmd.args(["--api-key", KEY, "-vv", "sms", "1"]);
    let run = run_cmd(cmd);
    assert_eq!(run.code, 1);
    assert_no_key(&run, "--api-key");
    assert!(
        run.stderr.contains("process list")
            && run.stderr.contains("SMSSTAT_API_KEY")
            && run.stderr.contains("api_key_file"),
        "{}",
        run.stderr
    );
}

// ---------------------------------------------------------------- redirects

#[test]
fn cross_origin_redirects_are_refused_and_the_target_gets_nothing() {
    let target = TestServer::fixed(Canned::json(200, SMS));
    for status in [301, 302, 303, 307, 308] {
        let location = format!("{}/sms/1", target.base);
        let server = TestServer::fixed(Canned::text(status, "").header("Location", &location));
        let run = with_key(&server.base, &["sms", "1"]);
        assert_eq!(run.code, 76, "{status}: {}", run.stderr);
        assert!(run.stderr.contains(&location), "{}", run.stderr);
        assert!(run.stderr.contains("not followed"), "{}", run.stderr);
        assert_eq!(server.urls().len(), 1);
    }
    assert!(target.seen().is_empty(), "the key went to another origin");
}

#[test]
fn same_origin_redirects_are_refused_too() {
    let server = TestServer::start(|url| {
        if url == "/sms/1" {
            Canned::text(302, "").header("Location", "/sms/2")
        } else {
            Canned::json(200, SMS)
        }
    });
    let run = with_key(&server.base, &["sms", "1"]);
    assert_eq!(run.code, 76);
    assert_eq!(server.urls(), ["/sms/1"]);
}

// ---------------------------------------------------------------- size and time

/// The binary with the same clean environment as `common::smsstat`, as a std
/// `Command`, so a test can spawn it and watch it while it runs.
fn command(base: &str, args: &[&str]) -> Command {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("smsstat"));
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy().into_owned();
        if name.starts_with("SMSSTAT_") || name == "RUST_BACKTRACE" {
            cmd.env_remove(name);
        }
    }
    cmd.env("XDG_CONFIG_HOME", empty_config_home())
        .env("LANG", "C.UTF-8")
        .args(["--base-url", base, "--retries", "0"])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

fn spawn(base: &str, args: &[&str]) -> Child {
    command(base, args).spawn().unwrap()
}

/// The peak resident memory of a running process, in KiB (Linux), 0 once it is gone.
fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// Waits for the child, sampling its memory; returns (exit code, stderr, peak KiB, time).
fn watch(mut child: Child) -> (i32, String, u64, Duration) {
    let started = Instant::now();
    let mut peak = 0;
    let code = loop {
        peak = peak.max(peak_rss_kib(child.id()));
        if let Some(status) = child.try_wait().unwrap() {
            break status.code().unwrap_or(-1);
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "still running after 30 s"
        );
        thread::sleep(Duration::from_millis(1));
    };
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    (code, stderr, peak, started.elapsed())
}

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
        assert!(
            run.code == 65 || run.code == 76,
            "{}: {}",
            run.code,
            run.stderr
        );
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
        assert!(took < Duration::from_secs(5), "took {took:?}");
    }
}

// ---------------------------------------------------------------- terminal safety

/// Everything a hostile server could use on a terminal: an OSC title change ended by
/// BEL, a clear-screen CSI, the 8-bit CSI (C1), DEL and a right-to-left override.
const NASTY: &str = "\u{1b}]0;pwned\u{7}\u{1b}[2J\u{9b}31m\u{7f}\u{202e}gnp.exe";

fn assert_terminal_safe(what: &str, text: &str, allow_tab: bool) {
    let bad: Vec<char> = text
        .chars()
        .filter(|&c| c != '\n' && !(allow_tab && c == '\t') && is_unsafe(c))
        .collect();
    assert!(bad.is_empty(), "{what}: raw {bad:?} in\n{text}");
}

fn hostile_record() -> Value {
    json!({
        "msisdn": "380501234567",
        "reference": NASTY,
        "status": format!("delivered{NASTY}"),
        "time_in": "2026-11-01 10:00:00",
        "price": 0.23,
        (format!("extra{NASTY}")): NASTY,
        "nested": {"k": NASTY},
    })
}

#[test]
fn control_and_bidi_characters_in_records_never_reach_the_terminal_raw() {
    let record = hostile_record();
    let server = TestServer::fixed(Canned::json(200, &record.to_string()));
    let views: [&[&str]; 8] = [
        &["sms", "1"],
        &["sms", "1", "2"],
        &["-o", "csv", "sms", "1"],
        &["-o", "tsv", "sms", "1", "2"],
        &["--field", "status", "sms", "1"],
        &["--fields", "reference,status,nested.k", "sms", "1", "2"],
        &["-vv", "--color", "never", "sms", "1"],
        &[
            "-o",
            "csv",
            "--fields",
            "reference,status,nested",
            "sms",
            "1",
        ],
    ];
    for args in views {
        let mut cmd = smsstat_at(&server.base);
        cmd.args(args);
        let run = run_cmd(cmd);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        let tsv = args.contains(&"tsv");
        assert_terminal_safe(&format!("stdout of {args:?}"), &run.stdout, tsv);
        assert_terminal_safe(&format!("stderr of {args:?}"), &run.stderr, false);
        assert!(
            run.stdout.contains("\\x1b]0;pwned"),
            "{args:?}: {}",
            run.stdout
        );
    }
    // The single-record table shows the extra field's label escaped too.
    let mut cmd = smsstat_at(&server.base);
    cmd.args(["sms", "1"]);
    assert!(run_cmd(cmd).stdout.contains("extra\\x1b]0;pwned"));
}

#[test]
fn json_keeps_the_exact_values_escaped_as_json() {
    let record = hostile_record();
    // Raw C1 and bidi bytes in the body, as a server may send them (serde_json writes
    // them unescaped; only C0 must be escaped in JSON).
    let server = TestServer::fixed(Canned::json(200, &record.to_string()));
    for normalize in [false, true] {
        let mut cmd = smsstat_at(&server.base);
        cmd.args(["--json", "sms", "1"]);
        if normalize {
            cmd.arg("--normalize");
        }
        let run = run_cmd(cmd);
        assert_eq!(run.code, 0);
        assert_terminal_safe("json line", &run.stdout, false);
        let back: Value = serde_json::from_str(run.stdout.trim_end()).unwrap();
        for (key, value) in record.as_object().unwrap() {
            assert_eq!(&back[key], value, "{key:?} changed");
        }
    }
}

#[test]
fn control_characters_in_error_descriptions_never_reach_the_terminal_raw() {
    let body = json!({"error": 20, "errorDescription": format!("SMS {NASTY} not found")});
    let server = TestServer::fixed(Canned::json(404, &body.to_string()));
    for args in [
        &["sms", "1"][..],
        &["-v", "sms", "1", "2"],
        &["-o", "csv", "sms", "1"],
        &["-o", "tsv", "sms", "1"],
        &["--json", "sms", "1"],
    ] {
        let mut cmd = smsstat_at(&server.base);
        cmd.args(args);
        let run = run_cmd(cmd);
        assert_eq!(run.code, 20, "{args:?}");
        assert_terminal_safe(
            &format!("stdout {args:?}"),
            &run.stdout,
            args.contains(&"tsv"),
        );
        assert_terminal_safe(&format!("stderr {args:?}"), &run.stderr, false);
        assert!(run.stderr.contains("\\x1b]0;pwned"), "{}", run.stderr);
    }
    let mut cmd = smsstat_at(&server.base);
    cmd.args(["--json", "sms", "1"]);
    let back: Value = serde_json::from_str(run_cmd(cmd).stdout.trim_end()).unwrap();
    assert_eq!(back, body);
}

#[test]
fn an_echoed_reference_never_reaches_the_terminal_raw() {
    // The server quotes the reference it was asked for, decoded.
    let server = TestServer::start(|url| {
        let reference = url.rsplit('/').next().unwrap();
        let decoded = percent_encoding::percent_decode_str(reference).decode_utf8_lossy();
        let body =
            json!({"error": 20, "errorDescription": format!("no SMS with reference {decoded}")});
        Canned::json(404, &body.to_string())
    });
    for args in [
        &["-v", "sms-ref", NASTY][..],
        &["-o", "csv", "sms-ref", NASTY, "x"],
        &["sms-ref", NASTY, "x"],
    ] {
        let mut cmd = smsstat_at(&server.base);
        cmd.args(["--paths", "explicit"]).args(args);
        let run = run_cmd(cmd);
        assert_eq!(run.code, 20, "{args:?}: {}", run.stderr);
        assert_terminal_safe(&format!("stdout {args:?}"), &run.stdout, false);
        assert_terminal_safe(&format!("stderr {args:?}"), &run.stderr, false);
        assert!(
            run.stderr.contains("reference \\x1b]0;pwned"),
            "{}",
            run.stderr
        );
    }
}

#[test]
fn control_and_bidi_characters_in_headers_never_reach_the_terminal_raw() {
    // Header values may carry obs-text (bytes ≥ 0x80): C1 and bidi in UTF-8.
    let server = RawServer::bytes(
        "HTTP/1.1 302 Found\r\nLocation: http://x.example/\u{9b}2J\u{202e}gnp\r\nX-Note: \u{202e}\u{9b}\r\nContent-Length: 0\r\n\r\n"
            .as_bytes(),
    );
    let mut cmd = smsstat_at(&server.base);
    cmd.args(["-vv", "sms", "1"]);
    let run = run_cmd(cmd);
    assert_eq!(run.code, 76, "{}", run.stderr);
    assert_terminal_safe("stderr", &run.stderr, false);
    assert!(
        run.stderr.contains("http://x.example/\\x9b2J\\u{202e}gnp"),
        "{}",
        run.stderr
    );
    // A raw ESC in a header is malformed HTTP; whatever the verdict, never raw.
    let server = RawServer::bytes(
        b"HTTP/1.1 302 Found\r\nLocation: http://x.example/\x1b]0;t\x07\r\nContent-Length: 0\r\n\r\n",
    );
    let mut cmd = smsstat_at(&server.base);
    cmd.args(["-vv", "sms", "1"]);
    let run = run_cmd(cmd);
    assert!(run.code == 65 || run.code == 76, "{}", run.stderr);
    assert_terminal_safe("stderr", &run.stderr, false);
}

// ---------------------------------------------------------------- input

#[test]
fn over_long_and_non_utf8_values_are_64_and_nothing_is_sent() {
    let server = TestServer::fixed(Canned::json(200, SMS));
    let long = "r".repeat(1025);
    smsstat_at(&server.base)
        .args(["sms-ref", &long])
        .assert()
        .code(64)
        .stderr(predicate::str::contains("at most 1024"));
    smsstat_at(&server.base)
        .args(["sms-ref", &"r".repeat(1024)])
        .assert()
        .success();
    assert_eq!(server.urls().len(), 1);
    for bad in [&b"ref-\xff\xfe"[..], b"\x80", b"ok-then-\xc3"] {
        smsstat_at(&server.base)
            .arg("sms-ref")
            .arg(OsStr::from_bytes(bad))
            .assert()
            .code(64)
            .stderr(predicate::str::contains("UTF-8"));
    }
    assert_eq!(server.urls().len(), 1, "nothing sent for non-UTF-8 values");
}

#[test]
fn a_non_utf8_stdin_line_fails_alone() {
    let server = TestServer::start(|url| {
        let id = url.rsplit('/').next().unwrap().to_string();
        Canned::json(200, &format!(r#"{{"id":"{id}","status":"delivered"}}"#))
    });
    let out = smsstat_at(&server.base)
        .args(["--json", "sms", "-"])
        .write_stdin(&b"1\nbad-\xff\xfe\n2\n"[..])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["id"], "1");
    assert_eq!(lines[1]["error"], 64);
    assert_eq!(lines[1]["source"], "smsstat");
    assert_eq!(lines[2]["id"], "2");
    let mut urls = server.urls();
    urls.sort();
    assert_eq!(urls, ["/sms/1", "/sms/2"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("not UTF-8"), "{stderr}");
}

// ---------------------------------------------------------------- process hygiene

#[test]
fn a_panic_is_one_line_and_70_without_its_payload() {
    let server = TestServer::fixed(Canned::json(200, SMS));
    let marker = "payload-marker-77";
    let out = smsstat_at(&server.base)
        .env("SMSSTAT_DEBUG_PANIC", "1")
        .env("SMSSTAT_API_KEY", KEY)
        .args(["sms-ref", marker])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(70));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("smsstat: internal error"), "{stderr}");
    assert!(stderr.contains("RUST_BACKTRACE"), "{stderr}");
    assert!(
        !stderr.contains(marker) && !stderr.contains(KEY),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
    assert!(server.urls().is_empty());

    // RUST_BACKTRACE=0 means no details, as for Rust itself.
    let out = smsstat_at(&server.base)
        .env("SMSSTAT_DEBUG_PANIC", "1")
        .env("RUST_BACKTRACE", "0")
        .args(["sms-ref", marker])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(70));
    assert!(!String::from_utf8_lossy(&out.stderr).contains(marker));

    // A batch whose workers panic ends too, at once, rather than hanging.
    smsstat_at(&server.base)
        .env("SMSSTAT_DEBUG_PANIC", "1")
        .args(["--json", "-j", "4", "sms", "1", "2", "3", "4", "5", "6"])
        .timeout(Duration::from_secs(20))
        .assert()
        .code(70);
}

#[test]
fn rust_backtrace_shows_the_details_and_still_exits_70() {
    let server = TestServer::fixed(Canned::json(200, SMS));
    let out = smsstat_at(&server.base)
        .env("SMSSTAT_DEBUG_PANIC", "1")
        .env("SMSSTAT_API_KEY", KEY)
        .env("RUST_BACKTRACE", "1")
        .args(["sms-ref", "payload-marker-77"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(70));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("payload-marker-77"), "{stderr}");
    assert!(stderr.contains("panicked"), "{stderr}");
    assert!(!stderr.contains(KEY), "{stderr}");
}

#[test]
fn a_reader_that_goes_away_ends_the_batch_quietly() {
    let server = TestServer::fixed(Canned::json(200, SMS));
    let mut child = command(&server.base, &["--json", "sms", "-"])
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = thread::spawn(move || {
        // Fails with a broken pipe once smsstat has stopped reading: that is fine.
        for i in 1..=20_000 {
            if writeln!(stdin, "{i}").is_err() {
                return;
            }
        }
    });
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert!(first.contains("delivered"), "{first}");
    drop(stdout); // `| head -1`
    let (code, stderr, _, took) = watch(child);
    feeder.join().unwrap();
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stderr, "", "nothing about broken pipes");
    assert!(took < Duration::from_secs(20));
    assert!(server.urls().len() < 20_000, "it stopped looking up");
}
