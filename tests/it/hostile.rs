//! Hostile servers and bad input, through the built binary: the key never leaks,
//! redirects are never followed, every answer is bounded in size and time, nothing a
//! server sends reaches the terminal raw, and the process ends cleanly.

use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::os::unix::ffi::OsStrExt;
use std::time::Duration;

use crate::common::answers::record_for;
use crate::common::process::{command, finish, in_shell, run_cmd, spawn_fed, Run};
use crate::common::{json_lines, smsstat_at, Canned, Gate, TestServer, SMS};
use predicates::prelude::*;

const KEY: &str = "acc-hostile-secret-9z7";

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
    let body = format!(
        r#"{{"status":"delivered","currency":"sent with {KEY}","note":"{KEY}","{KEY}":"x"}}"#
    );
    let server = TestServer::fixed(Canned::json(200, &body).header("Set-Cookie", KEY));
    assert_key_never_printed(&server.base, &["sms", "1"], 0);
    let run = with_key(&server.base, &["--field", "currency", "sms", "1"]);
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

// ---------------------------------------------------------------- input

#[test]
fn over_long_and_non_utf8_values_are_64_and_nothing_is_sent() {
    // No `reference` in the record: any reference looked up may answer it.
    let server = TestServer::fixed(Canned::json(200, r#"{"status":"delivered"}"#));
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
    let server = TestServer::start(record_for);
    let out = smsstat_at(&server.base)
        .args(["--json", "sms", "-"])
        .write_stdin(&b"1\nbad-\xff\xfe\n2\n"[..])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
    let lines = json_lines(&out.stdout);
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

    // A batch whose workers panic ends too, at once, rather than hanging: one line
    // per lookup, each a failure with 70, and one line on stderr for the whole run.
    let out = smsstat_at(&server.base)
        .env("SMSSTAT_DEBUG_PANIC", "1")
        .args(["--json", "-j", "4", "sms", "1", "2", "3", "4", "5", "6"])
        .timeout(Duration::from_secs(20))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(70));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.lines().count(), 6, "{stdout}");
    assert!(
        stdout.lines().all(|l| l.contains(r#""error":70"#)),
        "{stdout}"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn a_panic_in_one_lookup_fails_only_that_one() {
    let server = TestServer::start(record_for);
    let out = smsstat_at(&server.base)
        .env("SMSSTAT_DEBUG_PANIC", "2")
        .args(["--json", "-j", "2", "sms", "1", "2", "3"])
        .timeout(Duration::from_secs(20))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(70));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(lines[0].contains(r#""id":"1""#), "{stdout}");
    assert!(lines[1].contains(r#""error":70"#), "{stdout}");
    assert!(lines[2].contains(r#""id":"3""#), "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("smsstat: internal error"), "{stderr}");
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
    // One worker, so lookups go one at a time: the first is answered at once, the
    // second is held until the reader has gone, every later one is answered at once.
    // A binary that kept looking up would ask for all 20,000; one that stops at the
    // first line it cannot print asks for exactly two.
    let second = Gate::new();
    let held = second.clone();
    let server = TestServer::start(move |url| {
        if url == "/sms/2" {
            held.wait();
        }
        Canned::json(200, SMS)
    });
    // The reader is `head -n 1` in a shell pipeline, not this process: a pipe end
    // held here would also be held, for a moment, by every process another test
    // starts meanwhile, and writing to it would still succeed. The reader's shell
    // says when no process holds the pipe's reading end any more.
    let args = ["-j", "1", "--json", "sms", "-"];
    let script = "{ \"$0\" \"$@\"; echo \"smsstat exited $?\" >&2; } \
                  | (head -n 1; exec 0<&-; echo reader-gone)";
    let shell = in_shell(&command(&server.base, &args), script);
    let (mut child, feeder) = spawn_fed(shell, 1..=20_000);
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert!(first.contains("delivered"), "{first}");
    server.wait_for_urls(1, |url| url == "/sms/2");
    let mut gone = String::new();
    stdout.read_line(&mut gone).unwrap();
    assert_eq!(gone, "reader-gone\n");
    second.open();
    let ended = finish(child);
    feeder.join().unwrap();
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    assert_eq!(
        ended.stderr, "smsstat exited 0\n",
        "the exit code stays 0, and nothing about broken pipes"
    );
    assert_eq!(server.urls(), ["/sms/1", "/sms/2"], "it stopped looking up");
}
