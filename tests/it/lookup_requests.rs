//! What a lookup asks for, end to end: the explicit path of each command and the
//! short form when that route is missing (learnt per run, or pinned with --paths),
//! base URLs, encoded references, the API key header, and the -v trace.

use crate::common::{
    answering, smsstat, smsstat_at, success_stdout, Canned, TestServer, HLR, SMS, TASK,
};
use predicates::prelude::*;

#[test]
fn each_command_asks_its_explicit_path() {
    let cases = [
        ("sms", "42", "/sms/42", SMS),
        ("sms-ref", "ref-42", "/sms/reference/ref-42", SMS),
        ("task", "7", "/sms/task/7", TASK),
        ("hlr", "174568", "/hlr/174568", HLR),
        ("hlr-ref", "chk-1", "/hlr/reference/chk-1", HLR),
    ];
    for (command, value, path, body) in cases {
        let server = answering(body);
        smsstat_at(&server.base)
            .args([command, value])
            .assert()
            .success();
        assert_eq!(server.urls(), [path], "{command}");
    }
}

#[test]
fn base_url_path_prefix_with_or_without_slash() {
    for suffix in ["/rest", "/rest/"] {
        let server = answering(SMS);
        smsstat_at(&format!("{}{suffix}", server.base))
            .args(["sms", "42"])
            .assert()
            .success();
        assert_eq!(server.urls(), ["/rest/sms/42"]);
    }
}

#[test]
fn base_url_from_the_environment() {
    let server = answering(SMS);
    smsstat()
        .env("SMSSTAT_BASE_URL", &server.base)
        .args(["sms", "42"])
        .assert()
        .success();
    assert_eq!(server.urls(), ["/sms/42"]);
}

#[test]
fn awkward_references_are_one_encoded_segment() {
    // No `reference` in the record: it stands for any reference looked up.
    let server = answering(r#"{"status":"delivered"}"#);
    for (reference, path) in [
        ("a/b c?d#e%f", "/sms/reference/a%2Fb%20c%3Fd%23e%25f"),
        ("..", "/sms/reference/%2E%2E"),
        ("ключ", "/sms/reference/%D0%BA%D0%BB%D1%8E%D1%87"),
    ] {
        smsstat_at(&server.base)
            .args(["sms-ref", reference])
            .assert()
            .success();
        assert_eq!(server.urls().last().unwrap(), path);
    }
}

#[test]
fn api_key_is_sent_in_the_header_and_never_printed() {
    let key = "acc-secret-7f3";
    let server = TestServer::fixed(Canned::json(
        404,
        r#"{"error":20,"errorDescription":"SMS not found"}"#,
    ));
    for args in [
        &["-v", "sms", "1"][..],
        &["-vv", "--json", "sms", "2"],
        &["-o", "csv", "sms", "3", "4"],
    ] {
        let assert = smsstat_at(&server.base)
            .env("SMSSTAT_API_KEY", key)
            .args(args)
            .assert()
            .code(20);
        let out = assert.get_output();
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!all.contains(key), "key printed for {args:?}: {all}");
    }
    assert!(server
        .seen()
        .iter()
        .all(|s| s.header("X-API-KEY") == Some(key)));
}

#[test]
fn a_key_as_large_as_a_key_file_goes_out_whole() {
    let dir = tempfile::tempdir().unwrap();
    let key = crate::common::largest_key();
    let path = crate::common::key_file(dir.path(), &key);
    let limits = httpcore::Limits {
        max_head: 2 * 1024 * 1024,
        ..httpcore::Limits::default()
    };
    let server = TestServer::start_with(limits, |_| Canned::json(200, SMS));
    // Several values on a few connections: every request carries the whole key.
    let assert = smsstat_at(&server.base)
        .args(["-j", "2", "--api-key-file"])
        .arg(&path)
        .args(["--json", "sms", "1", "2", "3"])
        .assert()
        .success();
    let out = assert.get_output();
    assert_eq!(crate::common::json_lines(&out.stdout).len(), 3);
    let seen = server.seen();
    assert_eq!(seen.len(), 3);
    assert!(seen
        .iter()
        .all(|s| s.header("X-API-KEY") == Some(key.as_str())));
}

#[test]
fn a_server_that_refuses_a_large_key_is_its_answer_not_an_unreadable_one() {
    let dir = tempfile::tempdir().unwrap();
    let key = crate::common::largest_key();
    let path = crate::common::key_file(dir.path(), &key);
    // A real server's head limit (nginx: 8 KiB a line; the test server: 16 KiB).
    let server = answering(SMS);
    let assert = smsstat_at(&server.base)
        .arg("--api-key-file")
        .arg(&path)
        .args(["sms", "1"])
        .assert()
        .code(76)
        .stderr(predicate::str::contains("431"));
    let out = assert.get_output();
    let all = [&out.stdout[..], &out.stderr[..]].concat();
    assert!(!String::from_utf8_lossy(&all).contains(&key[..64]));
}

#[test]
fn api_key_header_name_can_be_changed() {
    let server = answering(SMS);
    smsstat_at(&server.base)
        .env("SMSSTAT_API_KEY", "k1")
        .args(["--api-key-header", "Authorization-Key", "sms", "1"])
        .assert()
        .success();
    let seen = &server.seen()[0];
    assert_eq!(seen.header("Authorization-Key"), Some("k1"));
    assert_eq!(seen.header("X-API-KEY"), None);
}

#[test]
fn no_key_sends_no_header() {
    let server = answering(SMS);
    smsstat_at(&server.base)
        .args(["sms", "1"])
        .assert()
        .success();
    assert_eq!(server.seen()[0].header("X-API-KEY"), None);
}

#[test]
fn api_key_on_the_command_line_warns_without_showing_it() {
    let server = answering(SMS);
    smsstat_at(&server.base)
        .args(["--api-key", "cli-secret-1", "sms", "1"])
        .assert()
        .success()
        .stderr(
            predicate::str::contains("process list")
                .and(predicate::str::contains("cli-secret-1").not()),
        );
    assert_eq!(server.seen()[0].header("X-API-KEY"), Some("cli-secret-1"));
}

#[test]
fn verbose_traces_request_status_and_latency() {
    let server = answering(SMS);
    smsstat_at(&server.base)
        .args(["-v", "sms", "42"])
        .assert()
        .success()
        .stderr(
            predicate::str::contains("GET http://127.0.0.1")
                .and(predicate::str::contains("/sms/42"))
                .and(predicate::str::contains("200 OK")),
        );
}

#[test]
fn short_form_is_tried_when_the_explicit_route_is_missing() {
    let server = TestServer::start(|url| {
        if url.contains("/reference/") || url.contains("/task/") {
            Canned::text(404, "Not Found")
        } else if url.starts_with("/sms/t") {
            Canned::json(200, TASK)
        } else {
            Canned::json(200, SMS)
        }
    });
    smsstat_at(&server.base)
        .args(["sms-ref", "ref-42"])
        .assert()
        .success()
        .stdout(predicate::str::contains("delivered"));
    assert_eq!(server.urls(), ["/sms/reference/ref-42", "/sms/ref-42"]);
    // A task record from the short form is shown as a task, by its fields.
    smsstat_at(&server.base)
        .args(["task", "t9"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Undeliverable"));
}

#[test]
fn a_json_not_found_on_the_explicit_route_is_final() {
    let server = TestServer::fixed(Canned::json(
        404,
        r#"{"error":20,"errorDescription":"SMS not found"}"#,
    ));
    smsstat_at(&server.base)
        .args(["sms-ref", "nope"])
        .assert()
        .code(20);
    assert_eq!(server.urls(), ["/sms/reference/nope"]);
}

#[test]
fn paths_can_be_pinned() {
    let server = TestServer::fixed(Canned::text(404, "Not Found"));
    smsstat_at(&server.base)
        .args(["--paths", "explicit", "task", "6"])
        .assert()
        .code(76);
    assert_eq!(server.urls(), ["/sms/task/6"]);
    let server = answering(TASK);
    smsstat_at(&server.base)
        .args(["--paths", "short", "task", "6"])
        .assert()
        .success();
    assert_eq!(server.urls(), ["/sms/6"]);
}

#[test]
fn a_missing_explicit_route_is_learnt_from_two_answers_per_run() {
    let server = TestServer::start(|url| {
        if url.contains("/reference/") {
            Canned::text(404, "Not Found")
        } else {
            Canned::json(200, r#"{"status":"delivered"}"#)
        }
    });
    smsstat_at(&server.base)
        .args(["-j", "1", "sms-ref", "a", "b", "c", "d"])
        .assert()
        .success();
    assert_eq!(
        server.urls(),
        [
            "/sms/reference/a",
            "/sms/a",
            "/sms/reference/b",
            "/sms/b",
            "/sms/c",
            "/sms/d"
        ]
    );
}

#[test]
fn ipv6_loopback_base_urls_work() {
    use smsstat::testkit::{start_sim, SimOptions};
    let server = start_sim(SimOptions {
        listen: Some("[::1]:0".parse().unwrap()),
        ..SimOptions::default()
    })
    .expect("IPv6 loopback");
    let base = server.base_url();
    assert!(base.starts_with("http://[::1]:"), "{base}");
    let text = success_stdout(
        &format!("{base}/rest/"),
        &["--field", "reference", "sms", "42"],
    );
    assert_eq!(text, "ref-42\n");
}
