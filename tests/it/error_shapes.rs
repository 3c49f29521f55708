//! Errors in shapes other than the spec's (issue 11, part 3), served over loopback
//! and read in table, JSON and CSV: v1 bodies (`{"code":..,"message":..}`, 422 field
//! errors) with their HTTP status or with 200, a final 429, error 4 as a missing route.

use crate::common::json_line;
use crate::common::process::run_at as run;

use crate::common::{Canned, TestServer};

const NO_ROUTE: &str =
    r#"{"error":4,"errorDescription":"Invalid request or API method does not exists"}"#;

// ------------------------------------------------------------- 3. other error shapes

fn assert_service_words(canned: Canned, command: &[&str], code: i32, words: &str) {
    let server = TestServer::fixed(canned);
    let table = run(&server.base, command);
    assert_eq!(table.code, code, "{}", table.stderr);
    assert!(table.stderr.contains(words), "{}", table.stderr);
    let mut args = vec!["--json"];
    args.extend_from_slice(command);
    let failure = json_line(&run(&server.base, &args).stdout);
    assert_eq!(failure["error"], code);
    assert_eq!(failure["source"], "smsstat");
    let text = failure["errorDescription"].as_str().unwrap();
    assert!(text.contains(words), "{text}");
    let mut args = vec!["-o", "csv"];
    args.extend_from_slice(command);
    let csv = run(&server.base, &args);
    let line = csv.stdout.lines().nth(1).unwrap();
    assert!(
        // CSV doubles the quotes inside a quoted field.
        line.contains(&format!(",{code},")) && line.contains(&words.replace('"', "\"\"")),
        "{line}"
    );
}

#[test]
fn v1_error_bodies_carry_the_service_message() {
    assert_service_words(
        Canned::json(401, r#"{"code":401,"message":"Unauthorized"}"#),
        &["sms", "1"],
        77,
        "the service said \"Unauthorized\"",
    );
    assert_service_words(
        Canned::json(404, r#"{"code":404,"message":"Not found"}"#),
        &["sms", "1"],
        76,
        "the service said \"Not found\"",
    );
    assert_service_words(
        Canned::json(
            422,
            r#"{"message":"The given data was invalid.","errors":{"phone":["required"]}}"#,
        ),
        &["hlr", "1"],
        76,
        "The given data was invalid. (phone: required)",
    );
}

#[test]
fn service_messages_are_escaped_and_cut() {
    let body = format!(r#"{{"message":"\u001b[2J{}"}}"#, "x".repeat(5000));
    let server = TestServer::fixed(Canned::json(400, &body));
    let out = run(&server.base, &["sms", "1"]);
    assert_eq!(out.code, 76);
    assert!(!out.stderr.contains('\u{1b}'), "{}", out.stderr);
    assert!(out.stderr.contains("\\x1b[2J"), "{}", out.stderr);
    assert!(out.stderr.len() < 600, "{}", out.stderr.len());
}

#[test]
fn a_final_429_after_the_retries_is_a_temporary_failure() {
    let server = TestServer::fixed(
        Canned::json(429, r#"{"message":"Too Many Attempts."}"#).header("Retry-After", "0"),
    );
    let table = run(&server.base, &["--retries", "1", "sms", "1"]);
    assert_eq!(table.code, 75, "{}", table.stderr);
    assert!(table.stderr.contains("rate limited"), "{}", table.stderr);
    assert!(
        table.stderr.contains("Too Many Attempts."),
        "{}",
        table.stderr
    );
    assert_eq!(server.urls().len(), 2, "retried once");
    let failure = json_line(&run(&server.base, &["--json", "sms", "1"]).stdout);
    assert_eq!(failure["error"], 75);
    let csv = run(&server.base, &["-o", "csv", "sms", "1"]);
    assert!(csv.stdout.lines().nth(1).unwrap().contains(",75,"));
}

#[test]
fn error_4_on_an_explicit_path_is_a_missing_route() {
    for status in [200, 404] {
        let server = TestServer::start(move |url| {
            if url.starts_with("/sms/reference/") {
                Canned::json(status, NO_ROUTE)
            } else {
                Canned::json(200, r#"{"reference":"order-17","status":"delivered"}"#)
            }
        });
        let out = run(&server.base, &["--json", "sms-ref", "order-17"]);
        assert_eq!(out.code, 0, "HTTP {status}: {}", out.stderr);
        assert_eq!(json_line(&out.stdout)["status"], "delivered");
        assert_eq!(server.urls(), ["/sms/reference/order-17", "/sms/order-17"]);
    }
    // Pinned to the explicit form, error 4 is the service's answer, passed through.
    let server = TestServer::fixed(Canned::json(200, NO_ROUTE));
    assert_eq!(
        run(&server.base, &["--paths", "explicit", "sms-ref", "x"]).code,
        4
    );
}

#[test]
fn v1_error_bodies_sent_with_200_are_errors_not_records() {
    // The code stands for the HTTP status it names.
    assert_service_words(
        Canned::json(200, r#"{"code":401,"message":"Unauthorized"}"#),
        &["sms", "1"],
        77,
        "the service said \"Unauthorized\"",
    );
    assert_service_words(
        Canned::json(200, r#"{"code":"404","message":"Not found"}"#),
        &["task", "3"],
        76,
        "the service said \"Not found\"",
    );
    // No code: not a record of the kind asked, and the service's words are shown.
    assert_service_words(
        Canned::json(200, r#"{"message":"Unauthenticated."}"#),
        &["sms", "2"],
        65,
        "the service said \"Unauthenticated.\"",
    );
    // Not waited on as if it were a pending record.
    let server = TestServer::fixed(Canned::json(200, r#"{"message":"Unauthenticated."}"#));
    let waited = run(
        &server.base,
        &["--wait", "--wait-timeout", "5s", "sms", "2"],
    );
    assert_eq!(waited.code, 65, "{}", waited.stderr);
    assert_eq!(server.urls().len(), 1);
}

#[test]
fn an_hlr_record_with_a_price_is_an_hlr_record() {
    let hlr = r#"{"msisdn":"380501234567","status":"sent","price":0.01,"currency":"EUR"}"#;
    let server = TestServer::fixed(Canned::json(200, hlr));
    let out = run(&server.base, &["--json", "hlr", "14"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(json_line(&out.stdout)["price"], 0.01);
    // Asked as a task, the same record is no task.
    assert_eq!(run(&server.base, &["task", "14"]).code, 65);
}
