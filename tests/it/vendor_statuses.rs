//! Every status the vendor documents (docs/variants.md) gets its verdict on loopback:
//! v1 SMS `new` and `waiting` are pending (before `sent`), `deleted` and `failed`
//! final; v1 HLR `delivered` and `undeliverable` are known final statuses. Exit codes
//! with and without `--wait`, and `--expect`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use crate::common::{answering, smsstat_at, Canned, TestServer};
use predicates::prelude::*;

/// A v1 SMS record (the OpenAPI document's `SmsStatusResponse`) with this status;
/// times not yet known are null, as the document allows.
fn v1_sms(status: &str) -> String {
    let (sent, dr) = match status {
        "new" | "waiting" => ("null", "null"),
        "sent" => (r#""2025-11-13 08:34:39""#, "null"),
        _ => (r#""2025-11-13 08:34:39""#, r#""2025-11-13 08:34:45""#),
    };
    format!(
        r#"{{"error":0,"errorDescription":"No errors","id":"12345","msisdn":"380953227271","reference":"unique_ref_123","time_in":"2025-11-13 08:34:38","time_sent":{sent},"time_dr":{dr},"status":"{status}","price":0.05,"currency":"USD"}}"#
    )
}

/// A v1 HLR record (the document's `HlrStatusResponse` example) with this status.
fn v1_hlr(status: &str) -> String {
    format!(
        r#"{{"error":0,"errorDescription":"No errors","id":"123456","msisdn":"380953227271","reference":"unique_ref_123","country_name":"Ukraine","brand":"Kyivstar","brand_name":"Kyivstar GSM","network":"Kyivstar","status":"{status}","details":{{"ported":0,"roaming":0,"imsi":"255039XXXXXXXX"}},"createdDatetime":"2025-11-13T08:34:38+00:00","statusDatetime":"2025-11-13T08:34:40+00:00","roaming":false,"ported":true}}"#
    )
}

/// Answers the statuses in turn, one a request, then the last one for ever.
fn progressing(statuses: &'static [&'static str]) -> (TestServer, Arc<AtomicUsize>) {
    let polls = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&polls);
    let server = TestServer::start(move |_| {
        let n = counted.fetch_add(1, Ordering::SeqCst);
        Canned::json(200, &v1_sms(statuses[n.min(statuses.len() - 1)]))
    });
    (server, polls)
}

const UNKNOWN_STATUS_WARNING: &str = "not a status smsstat knows";

#[test]
fn new_and_waiting_are_pending_without_wait() {
    for status in ["new", "waiting"] {
        let server = answering(&v1_sms(status));
        smsstat_at(&server.base)
            .args(["--expect", "delivered", "sms", "12345"])
            .assert()
            .code(81)
            .stderr(predicate::str::contains(format!(
                "still pending (status {status})"
            )))
            .stderr(predicate::str::contains("--wait"));
    }
}

#[test]
fn wait_goes_through_new_waiting_and_sent_to_delivered() {
    let (server, polls) = progressing(&["new", "waiting", "sent", "delivered"]);
    smsstat_at(&server.base)
        .args(["--wait", "--interval", "100ms", "--expect", "delivered"])
        .args(["--json", "sms", "12345"])
        .assert()
        .success()
        .stdout(predicate::str::contains(r#""status":"delivered""#));
    assert_eq!(polls.load(Ordering::SeqCst), 4, "one poll per status");
}

#[test]
fn wait_on_a_message_never_sent_times_out_with_81() {
    let server = answering(&v1_sms("new"));
    smsstat_at(&server.base)
        .args(["--wait", "--interval", "100ms", "--wait-timeout", "500ms"])
        .args(["sms", "12345"])
        .assert()
        .code(81)
        .stderr(predicate::str::contains("status new"));
}

#[test]
fn deleted_and_failed_are_final() {
    for status in ["deleted", "failed"] {
        let server = answering(&v1_sms(status));
        // `--wait` stops at the first answer: the status is final.
        smsstat_at(&server.base)
            .args(["--wait", "--interval", "100ms", "sms", "12345"])
            .assert()
            .success();
        assert_eq!(server.urls().len(), 1, "{status}: no second poll");
        smsstat_at(&server.base)
            .args(["--expect", "delivered", "sms", "12345"])
            .assert()
            .code(80)
            .stderr(predicate::str::contains(format!(
                "final status is \"{status}\""
            )));
        smsstat_at(&server.base)
            .args(["--expect", status, "sms", "12345"])
            .assert()
            .success()
            .stderr(predicate::str::contains(UNKNOWN_STATUS_WARNING).not());
    }
}

#[test]
fn v1_hlr_delivered_is_known_and_final() {
    let server = answering(&v1_hlr("delivered"));
    smsstat_at(&server.base)
        .args(["--wait", "--expect", "delivered", "hlr", "123456"])
        .assert()
        .success()
        .stderr(predicate::str::is_empty());
    assert_eq!(server.urls().len(), 1);
}

#[test]
fn v1_hlr_undeliverable_is_final_and_not_delivered() {
    let server = answering(&v1_hlr("undeliverable"));
    smsstat_at(&server.base)
        .args(["--expect", "delivered", "hlr", "123456"])
        .assert()
        .code(80)
        .stderr(predicate::str::contains(
            r#"final status is "undeliverable""#,
        ))
        .stderr(predicate::str::contains(UNKNOWN_STATUS_WARNING).not());
    smsstat_at(&server.base)
        .args([
            "--wait",
            "--expect",
            "undeliverable,absent",
            "hlr-ref",
            "unique_ref_123",
        ])
        .assert()
        .success()
        .stderr(predicate::str::contains(UNKNOWN_STATUS_WARNING).not());
}

#[test]
fn classic_statuses_keep_their_verdicts() {
    for (status, code) in [("scheduled", 81), ("sent", 81), ("delivered", 0)] {
        let server = answering(&v1_sms(status));
        smsstat_at(&server.base)
            .args(["--expect", "delivered", "sms", "1"])
            .assert()
            .code(code);
    }
    let server = answering(&crate::common::HLR.replace("active", "sent"));
    smsstat_at(&server.base)
        .args(["--expect", "active", "hlr", "1"])
        .assert()
        .code(81);
}

#[test]
fn an_undocumented_status_is_still_final_and_warned_about_in_expect() {
    let server = answering(&v1_sms("frobnicated"));
    smsstat_at(&server.base)
        .args(["--wait", "sms", "1"])
        .assert()
        .success();
    smsstat_at(&server.base)
        .args(["--expect", "frobnicated", "sms", "1"])
        .assert()
        .success()
        .stderr(predicate::str::contains(UNKNOWN_STATUS_WARNING));
}
