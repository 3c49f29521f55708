//! The five lookups end to end, what comes back: tables, JSON kept as sent, service
//! errors and answers of another kind. The built binary against real HTTP servers
//! on loopback (tests/it/lookup_requests.rs has what is asked).

use crate::common::answers::record_for;
use crate::common::{
    answering, json_lines, smsstat_at, success_stdout, Canned, TestServer, HLR, SMS, TASK,
};
use predicates::prelude::*;
use serde_json::Value;

#[test]
fn sms_table_shows_labelled_fields_in_spec_order() {
    let server = answering(SMS);
    let text = success_stdout(&server.base, &["sms", "42"]);
    let order = [
        "Phone number",
        "Reference",
        "Received",
        "Sent",
        "Delivery report",
        "Status",
        "Price",
        "Currency",
    ];
    let positions: Vec<usize> = order
        .iter()
        .map(|label| text.find(label).expect(label))
        .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{text}");
    assert!(text.contains("delivered") && text.contains("380501234567") && text.contains("0.23"));
}

#[test]
fn numbers_as_strings_and_absent_error_are_success() {
    let server = answering(r#"{"status":"delivered","price":"0.002","msisdn":"447700900123"}"#);
    smsstat_at(&server.base)
        .args(["sms", "1"])
        .assert()
        .success()
        .stdout(predicate::str::contains("0.002").and(predicate::str::contains("447700900123")));
}

#[test]
fn task_counters_as_strings_are_shown() {
    let server = answering(TASK);
    smsstat_at(&server.base)
        .args(["task", "7"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("Delivered")
                .and(predicate::str::contains("Total price"))
                .and(predicate::str::contains("2.30")),
        );
}

#[test]
fn hlr_details_flattened_and_extras_after_known_fields() {
    let server = answering(HLR);
    let text = success_stdout(&server.base, &["hlr", "174568"]);
    assert!(
        text.contains("Ported") && text.contains("Roaming"),
        "{text}"
    );
    assert!(
        text.contains("Kyivstar") && text.contains("Ukraine"),
        "{text}"
    );
    let roaming_line = text.lines().find(|l| l.contains("Roaming")).unwrap();
    assert!(roaming_line.contains("yes"), "{roaming_line}");
}

#[test]
fn null_details_do_not_fail() {
    let server = answering(
        r#"{"id":"9","msisdn":"380501234567","network":"","status":"failed","details":null}"#,
    );
    smsstat_at(&server.base)
        .args(["hlr", "9"])
        .assert()
        .success()
        .stdout(predicate::str::contains("failed").and(predicate::str::contains("none")));
}

#[test]
fn json_keeps_every_field_and_its_type() {
    let body = r#"{"status":"delivered","price":"0.23","id":"211","error":"0","weird":{"a":[1,true,null]},"n":7}"#;
    let server = answering(body);
    let text = success_stdout(&server.base, &["--json", "sms", "211"]);
    assert_eq!(text, format!("{body}\n"));
}

#[test]
fn pretty_printed_answers_become_one_compact_line() {
    let server = answering("{\n  \"status\": \"delivered\",\n  \"price\": 0.5\n}\n");
    smsstat_at(&server.base)
        .args(["sms", "1", "--json"])
        .assert()
        .success()
        .stdout("{\"status\":\"delivered\",\"price\":0.5}\n");
}

#[test]
fn service_error_message_on_stderr_and_body_on_stdout_with_json() {
    let body = r#"{"error":20,"errorDescription":"SMS not found"}"#;
    let server = TestServer::fixed(Canned::json(404, body));
    smsstat_at(&server.base)
        .args(["sms", "999"])
        .assert()
        .code(20)
        .stdout("")
        .stderr("smsstat: error: sms 999: SMS not found (service error 20)\n");
    smsstat_at(&server.base)
        .args(["--json", "sms", "999"])
        .assert()
        .code(20)
        .stdout(format!("{body}\n"));
}

#[test]
fn many_values_make_one_json_line_each_in_order() {
    let server = TestServer::start(record_for);
    let out = smsstat_at(&server.base)
        .args(["--json", "sms", "3", "1", "2"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let ids: Vec<Value> = json_lines(&out).iter().map(|l| l["id"].clone()).collect();
    assert_eq!(ids, ["3", "1", "2"]);
}

#[test]
fn json_keeps_numbers_exactly_as_sent() {
    let body =
        r#"{"status":"delivered","price":0.10,"big":123456789012345678901234567890,"neg":-0}"#;
    let server = answering(body);
    smsstat_at(&server.base)
        .args(["--json", "sms", "1"])
        .assert()
        .success()
        .stdout(format!("{body}\n"));
}

#[test]
fn an_answer_of_another_kind_is_65_and_says_what_came_back() {
    // A deployment that reads /sms/{x} as an SMS ID even when a task was meant.
    let server = TestServer::start(|url| {
        if url.contains("/task/") {
            Canned::text(404, "Not Found")
        } else {
            Canned::json(200, SMS)
        }
    });
    smsstat_at(&server.base)
        .args(["task", "6"])
        .assert()
        .code(65)
        .stderr(predicate::str::contains(
            "asked for a task record, the answer is an SMS record",
        ));
    // Nothing hidden: --json shows the record that came back.
    smsstat_at(&server.base)
        .args(["--json", "task", "6"])
        .assert()
        .code(65)
        .stdout(predicate::str::contains(r#""record":{"error":0,"msisdn""#));
}

/// `--normalize` carries what smsstat works out from the record, typed: a task's
/// delivery rate and pending count, an SMS's latencies in seconds.
#[test]
fn normalized_records_carry_their_derived_values() {
    let task = crate::common::stdout_of(crate::common::smsstat().args([
        "--demo",
        "--json",
        "--normalize",
        "task",
        "6",
    ]));
    let task: serde_json::Value = serde_json::from_str(&task).unwrap();
    assert!(task["delivery_rate"].is_number(), "{task}");
    assert!(task["pending"].is_u64(), "{task}");
    let sms = crate::common::stdout_of(crate::common::smsstat().args([
        "--demo",
        "--json",
        "--normalize",
        "sms",
        "42",
    ]));
    let sms: serde_json::Value = serde_json::from_str(&sms).unwrap();
    assert!(sms["send_latency"].is_u64(), "{sms}");
    assert!(sms["delivery_latency"].is_u64(), "{sms}");
}
