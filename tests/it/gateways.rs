//! The answers real gateways give (issue 11), each served over loopback by a canned
//! test server and read in every output format it affects: table, JSON, CSV.

use crate::common::process::{run_at as run, Run};
use crate::common::{json_line, json_lines};

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::common::{Canned, TestServer};

const UNKNOWN_SMS: &str = r#"{"error":0,"errorDescription":"No errors","id":"380501111111","msisdn":"380501111111","reference":"successSend1488548141","time_in":"2017-03-03 13:35:42","time_sent":"2017-03-03 13:35:42","time_dr":"2017-03-03 13:35:42","status":"unknown","price":0,"currency":"EUR"}"#;
const V1_TASK: &str = r#"{"error":0,"originator":"BSG","body":"Hello","validity":72,"totalprice":2.3,"currency":"EUR","sent":6,"total":10,"queued":2,"accepted":1,"enroute":1,"delivered":4,"expired":0,"undeliverable":1,"unknown":1}"#;
const V1_TASK_SETTLED: &str = r#"{"error":0,"originator":"BSG","body":"Hello","validity":72,"totalprice":2.3,"currency":"EUR","sent":10,"total":10,"queued":0,"accepted":0,"enroute":0,"delivered":4,"expired":0,"undeliverable":5,"unknown":1}"#;
const V1_HLR: &str = r#"{"id":"380501234567","reference":"chk-1","msisdn":"380501234567","network":"25503","status":"active","ported":1,"country_name":"Ukraina","brand_name":"KS-brand","details":{"roaming":0}}"#;
const ISO_SMS: &str = r#"{"msisdn":"380501234567","reference":"iso-1","time_in":"2017-03-03T13:35:42+02:00","time_sent":"2017-03-03T11:35:45Z","time_dr":"2017-03-03T13:36:50+02:00","status":"delivered"}"#;

/// The CSV data row of a one-lookup run, split on commas (the values tested have none).
fn csv_row(run: &Run) -> Vec<String> {
    let line = run.stdout.lines().nth(1).expect("a data row");
    line.split(',').map(str::to_owned).collect()
}

// ------------------------------------------------------------- 1. unknown is final

#[test]
fn unknown_sms_is_final_for_expect_and_wait() {
    let server = TestServer::fixed(Canned::json(200, UNKNOWN_SMS));
    let expect = run(&server.base, &["--expect", "delivered", "sms", "1"]);
    assert_eq!(expect.code, 80, "{}", expect.stderr);
    assert!(expect.stderr.contains("\"unknown\""), "{}", expect.stderr);
    assert_eq!(
        run(&server.base, &["--expect", "delivered,unknown", "sms", "1"]).code,
        0
    );
    let before = server.urls().len();
    let waited = run(&server.base, &["--wait", "--json", "sms", "1"]);
    assert_eq!(waited.code, 0, "{}", waited.stderr);
    assert_eq!(json_line(&waited.stdout)["status"], "unknown");
    assert_eq!(server.urls().len() - before, 1, "--wait returns at once");
    let table = run(&server.base, &["--wait", "sms", "1"]).assert_code(0);
    assert!(table.stdout.contains("unknown"), "{}", table.stdout);
    let csv = run(
        &server.base,
        &["-o", "csv", "--fields", "status", "sms", "1"],
    )
    .assert_code(0);
    assert_eq!(csv_row(&csv), ["1", "unknown", "0", ""]);
}

// ------------------------------------------------------------- 2. v1 task counters

#[test]
fn v1_task_counts_pending_and_rate_from_total_in_every_format() {
    let server = TestServer::fixed(Canned::json(200, V1_TASK));
    let table = run(&server.base, &["task", "6"]);
    assert_eq!(table.code, 0, "{}", table.stderr);
    for shown in [
        "40.0% (4 of 10)",
        "Queued",
        "En route",
        "Total",
        "· pending 4 (queued 2, accepted 1, enroute 1)",
    ] {
        assert!(table.stdout.contains(shown), "{shown}:\n{}", table.stdout);
    }
    let pending_row = table
        .stdout
        .lines()
        .find(|l| l.contains("Pending"))
        .unwrap();
    assert!(pending_row.contains(" 4 "), "{pending_row}");
    assert!(!table.stderr.contains("do not add up"), "{}", table.stderr);
    let raw = json_line(
        &run(&server.base, &["--json", "task", "6"])
            .assert_code(0)
            .stdout,
    );
    assert_eq!(raw["total"], 10);
    assert_eq!(raw["queued"], 2);
    let picked = json_line(
        &run(
            &server.base,
            &["--json", "--fields", "pending,delivery_rate", "task", "6"],
        )
        .assert_code(0)
        .stdout,
    );
    assert_eq!(picked["pending"], 4);
    assert_eq!(picked["delivery_rate"], 0.4);
    let csv = run(
        &server.base,
        &[
            "-o",
            "csv",
            "--fields",
            "total,queued,pending,delivery_rate",
            "task",
            "6",
        ],
    )
    .assert_code(0);
    assert_eq!(csv_row(&csv), ["6", "10", "2", "4", "0.400", "0", ""]);
}

#[test]
fn v1_task_expectation_is_pending_then_unmet() {
    let pending = TestServer::fixed(Canned::json(200, V1_TASK));
    let early = run(&pending.base, &["--expect-delivered", "0.5", "task", "6"]);
    assert_eq!(early.code, 81, "{}", early.stderr);
    assert!(early.stderr.contains("4 pending"), "{}", early.stderr);
    let settled = TestServer::fixed(Canned::json(200, V1_TASK_SETTLED));
    let late = run(&settled.base, &["--expect-delivered", "0.5", "task", "6"]);
    assert_eq!(late.code, 80, "{}", late.stderr);
    assert!(late.stderr.contains("40.0% of total"), "{}", late.stderr);
}

#[test]
fn wait_keeps_waiting_while_v1_counters_are_in_flight() {
    let polls = AtomicUsize::new(0);
    let server = TestServer::start(move |_| {
        if polls.fetch_add(1, Ordering::SeqCst) < 2 {
            Canned::json(200, V1_TASK)
        } else {
            Canned::json(200, V1_TASK_SETTLED)
        }
    });
    let waited = run(
        &server.base,
        &["--wait", "--interval", "100ms", "--json", "task", "6"],
    );
    assert_eq!(waited.code, 0, "{}", waited.stderr);
    assert_eq!(json_line(&waited.stdout)["queued"], 0);
    assert_eq!(server.urls().len(), 3);
}

// ------------------------------------------------------------- 4. short forms

const OTHER_REFERENCE: &str = r#"{"msisdn":"380501234567","reference":"someone-elses-order","time_in":"2017-03-03 13:35:42","status":"delivered"}"#;

#[test]
fn a_short_form_answering_another_reference_is_65_and_still_shown() {
    let server = TestServer::start(|url| {
        if url.starts_with("/sms/reference/") {
            Canned::text(404, "Not Found")
        } else {
            Canned::json(200, OTHER_REFERENCE)
        }
    });
    let table = run(&server.base, &["sms-ref", "12345"]);
    assert_eq!(table.code, 65, "{}", table.stderr);
    assert!(table.stdout.is_empty(), "{}", table.stdout);
    for said in ["`12345`", "`someone-elses-order`"] {
        assert!(table.stderr.contains(said), "{}", table.stderr);
    }
    let shown = json_line(
        &run(&server.base, &["--json", "sms-ref", "12345"])
            .assert_code(65)
            .stdout,
    );
    assert_eq!(shown["error"], 65);
    assert_eq!(shown["record"]["reference"], "someone-elses-order");
    let csv = run(
        &server.base,
        &["-o", "csv", "--fields", "reference", "sms-ref", "12345"],
    )
    .assert_code(65);
    let line = csv.stdout.lines().nth(1).unwrap();
    assert!(line.starts_with("12345,,65,"), "{line}");
    // The same check under --paths short.
    assert_eq!(
        run(&server.base, &["--paths", "short", "sms-ref", "12345"]).code,
        65
    );
}

#[test]
fn a_task_lookup_answered_with_an_sms_record_is_65() {
    let server = TestServer::fixed(Canned::json(200, OTHER_REFERENCE));
    let out = run(&server.base, &["--paths", "short", "task", "6"]);
    assert_eq!(out.code, 65, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("asked for a task record, the answer is an SMS record"),
        "{}",
        out.stderr
    );
    let hlr = run(&server.base, &["hlr", "6"]);
    assert_eq!(hlr.code, 65, "{}", hlr.stderr);
}

#[test]
fn one_stray_404_does_not_switch_the_run_to_short_forms() {
    let stray = AtomicUsize::new(0);
    let server = TestServer::start(move |url| {
        if url.starts_with("/sms/task/") {
            if stray.fetch_add(1, Ordering::SeqCst) == 0 {
                Canned::text(404, "<html>proxy: not found</html>")
            } else {
                Canned::json(200, V1_TASK)
            }
        } else {
            Canned::json(200, OTHER_REFERENCE)
        }
    });
    let out = run(&server.base, &["-j", "1", "--json", "task", "6", "7", "8"]);
    assert_eq!(out.code, 65, "{}", out.stderr);
    let lines = json_lines(&out.stdout);
    assert_eq!(lines[0]["error"], 65);
    assert_eq!(lines[1]["total"], 10);
    assert_eq!(lines[2]["total"], 10);
    assert_eq!(
        server.urls(),
        ["/sms/task/6", "/sms/6", "/sms/task/7", "/sms/task/8"]
    );
}

#[test]
fn two_missing_routes_and_none_served_switch_to_short_forms() {
    let server = TestServer::start(|url| {
        if url.starts_with("/sms/task/") {
            Canned::text(404, "Not Found")
        } else {
            Canned::json(200, V1_TASK)
        }
    });
    let out = run(&server.base, &["-j", "1", "task", "6", "7", "8"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        server.urls(),
        ["/sms/task/6", "/sms/6", "/sms/task/7", "/sms/7", "/sms/8"]
    );
}

// ------------------------------------------------------------- 5. smaller facts

#[test]
fn v1_hlr_names_and_integer_ported_are_decoded() {
    let server = TestServer::fixed(Canned::json(200, V1_HLR));
    let table = run(&server.base, &["hlr", "1"]);
    assert_eq!(table.code, 0, "{}", table.stderr);
    assert!(
        table.stdout.contains("25503 · Ukraina · KS-brand"),
        "{}",
        table.stdout
    );
    let ported = table.stdout.lines().find(|l| l.contains("Ported")).unwrap();
    assert!(ported.contains("yes"), "{ported}");
    let rows = run(&server.base, &["hlr", "1", "1"]).assert_code(0);
    assert!(
        rows.stdout.contains("25503 · Ukraina · KS-brand"),
        "{}",
        rows.stdout
    );
    let normalized = json_line(
        &run(&server.base, &["--json", "--normalize", "hlr", "1"])
            .assert_code(0)
            .stdout,
    );
    assert_eq!(normalized["ported"], true);
    assert_eq!(normalized["details"]["roaming"], false);
    let raw = json_line(
        &run(&server.base, &["--json", "hlr", "1"])
            .assert_code(0)
            .stdout,
    );
    assert_eq!(raw["ported"], 1);
    let csv = run(
        &server.base,
        &["-o", "csv", "--fields", "network,ported", "hlr", "1"],
    )
    .assert_code(0);
    assert_eq!(csv_row(&csv), ["1", "25503", "1", "0", ""]);
}

#[test]
fn iso_times_with_offsets_still_give_latencies() {
    let server = TestServer::fixed(Canned::json(200, ISO_SMS));
    let table = run(&server.base, &["sms", "1"]).assert_code(0);
    let delivery = table
        .stdout
        .lines()
        .find(|l| l.contains("Delivery latency"))
        .unwrap_or_else(|| panic!("{}", table.stdout));
    assert!(delivery.contains("1m 08s"), "{delivery}");
    let csv = run(
        &server.base,
        &[
            "-o",
            "csv",
            "--fields",
            "send_latency,delivery_latency",
            "sms",
            "1",
        ],
    )
    .assert_code(0);
    // Seconds in machine formats; the table keeps "1m 08s" for people.
    assert_eq!(csv_row(&csv), ["1", "3", "68", "0", ""]);
    let picked = json_line(
        &run(
            &server.base,
            &["--json", "--fields", "delivery_latency", "sms", "1"],
        )
        .assert_code(0)
        .stdout,
    );
    assert_eq!(picked["delivery_latency"], 68);
}

#[test]
fn deployment_error_codes_pass_through_unchanged() {
    let server = TestServer::fixed(Canned::json(
        200,
        r#"{"error":60,"errorDescription":"HLR not found"}"#,
    ));
    let table = run(&server.base, &["hlr", "1"]).assert_code(60);
    assert!(table.stderr.contains("HLR not found"), "{}", table.stderr);
    assert_eq!(
        json_line(
            &run(&server.base, &["--json", "hlr", "1"])
                .assert_code(60)
                .stdout
        )["error"],
        60
    );
    let csv = run(
        &server.base,
        &["-o", "csv", "--fields", "status", "hlr", "1"],
    )
    .assert_code(60);
    assert_eq!(csv_row(&csv), ["1", "", "60", "HLR not found"]);
}
