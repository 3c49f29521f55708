//! Nothing a server sends reaches the terminal raw: control and bidi characters are
//! escaped in tables, CSV/TSV, --field and stderr; --json keeps exact values.

use crate::common::answers::value_of;
use crate::common::process::run_cmd;
use crate::common::{json_line, smsstat_at, Canned, RawServer, TestServer};
use serde_json::{json, Value};
use smsstat::testkit::is_unsafe;

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
        "currency": NASTY,
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
        &["--fields", "reference,status,currency", "sms", "1", "2"],
        &["-vv", "--color", "never", "sms", "1"],
        &[
            "-o",
            "csv",
            "--fields",
            "reference,status,time_in",
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
        let back = json_line(&run.stdout);
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
    let back = json_line(run_cmd(cmd).stdout);
    assert_eq!(back, body);
}

#[test]
fn an_echoed_reference_never_reaches_the_terminal_raw() {
    // The server quotes the reference it was asked for, decoded.
    let server = TestServer::start(|url| {
        let reference = value_of(url);
        let decoded = percent_encoding::percent_decode_str(&reference).decode_utf8_lossy();
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
