//! Batches in the machine formats: CSV/TSV quoting, rows for failures too,
//! --fields/--field/--normalize, derived values, and task counters told in every format.

use crate::common::answers::{faulty, record_for};
use crate::common::{json_line, smsstat_at, stdout_of, Canned, TestServer};
use predicates::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

fn awkward_record(_: &str) -> Canned {
    Canned::json(
        200,
        r#"{"status":"delivered","reference":"a,b \"c\"","msisdn":"4470\t1","currency":" x"}"#,
    )
}

#[test]
fn csv_quotes_and_tsv_escapes() {
    let server = TestServer::start(awkward_record);
    smsstat_at(&server.base)
        .args(["-o", "csv", "--fields", "reference,status,currency", "sms", "1"])
        .assert()
        .success()
        .stdout("query,reference,status,currency,error,errorDescription\n1,\"a,b \"\"c\"\"\",delivered,\" x\",0,\n");
    smsstat_at(&server.base)
        .args(["-o", "tsv", "--fields", "msisdn,status", "sms", "1"])
        .assert()
        .success()
        .stdout("query\tmsisdn\tstatus\terror\terrorDescription\n1\t4470\\t1\tdelivered\t0\t\n");
}

#[test]
fn csv_rows_for_failures_too() {
    let server = TestServer::start(faulty);
    // Exit 20: the first failure in input order, SMS 5's "not found".
    let out = smsstat_at(&server.base)
        .args(["-o", "csv", "--fields", "status", "sms", "3", "5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(20));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text,
        "query,status,error,errorDescription\n3,delivered,0,\n5,,20,SMS not found\n"
    );
}

#[test]
fn fields_pick_table_columns() {
    let server = TestServer::start(record_for);
    let text =
        stdout_of(smsstat_at(&server.base).args(["--fields", "id,currency", "sms", "1", "2"]));
    assert!(text.contains("Currency") && text.contains("EUR"), "{text}");
    assert!(
        !text.contains("delivered"),
        "status was not asked for: {text}"
    );
}

#[test]
fn field_prints_bare_values_one_per_line() {
    let server = TestServer::start(faulty);
    smsstat_at(&server.base)
        .args(["--field", "status", "sms", "3"])
        .assert()
        .success()
        .stdout("delivered\n");
    // A failed lookup keeps its line (empty), so lines match inputs.
    smsstat_at(&server.base)
        .args(["--field", "status", "sms", "3", "5", "4"])
        .assert()
        .code(20)
        .stdout("delivered\n\ndelivered\n");
}

#[test]
fn normalize_makes_typed_uniform_records() {
    let server = TestServer::fixed(Canned::json(
        200,
        r#"{"id":"9","msisdn":"380501234567","network":"25503","status":"active","details":{"ported":"1","roaming":"0"}}"#,
    ));
    let line = json_line(stdout_of(smsstat_at(&server.base).args([
        "--json",
        "--normalize",
        "hlr",
        "9",
    ])));
    assert_eq!(line["kind"], "hlr");
    assert_eq!(line["query"], "9");
    assert_eq!(line["error"], 0);
    assert_eq!(line["details"]["ported"], true);
    assert_eq!(line["details"]["roaming"], false);
    let server = TestServer::fixed(Canned::json(
        200,
        r#"{"error":"0","sent":"10","delivered":"9","totalprice":"1.5"}"#,
    ));
    let line = json_line(stdout_of(smsstat_at(&server.base).args([
        "--json",
        "--normalize",
        "task",
        "4",
    ])));
    assert_eq!(
        (
            line["sent"].as_i64(),
            line["delivered"].as_i64(),
            line["totalprice"].as_f64()
        ),
        (Some(10), Some(9), Some(1.5))
    );
    assert_eq!(line["kind"], "task");
}

#[test]
fn field_names_no_record_knows_are_usage_errors() {
    let server = TestServer::start(record_for);
    smsstat_at(&server.base)
        .args(["--field", "stauts", "sms", "1", "2"])
        .assert()
        .code(64)
        .stdout("")
        .stderr(predicate::str::contains("did you mean `status`?"));
    // A name far from every known one is no field of the service's own that
    // smsstat could promise: refused too, with the valid names.
    for args in [
        &["--field", "zebra", "sms", "1"][..],
        &["--fields", "note", "sms", "1"],
        &["-o", "csv", "--fields", "status,phone", "sms", "1"],
        &["--json", "--fields", "note", "sms", "1"],
    ] {
        smsstat_at(&server.base)
            .args(args)
            .assert()
            .code(64)
            .stdout("")
            .stderr(predicate::str::contains("valid names: id, msisdn"));
    }
    assert!(server.urls().is_empty(), "nothing is looked up");
    // A known field that this record lacks is not a typo: an empty value, no warning.
    smsstat_at(&server.base)
        .args(["--field", "time_dr", "sms", "1"])
        .assert()
        .success()
        .stdout("\n")
        .stderr("");
}

#[test]
fn derived_values_reach_csv_and_field() {
    let server = TestServer::fixed(Canned::json(
        200,
        r#"{"sent":"10","delivered":"7","undeliverable":1,"expired":0,"unknown":0,"totalprice":"1.0","currency":"EUR"}"#,
    ));
    smsstat_at(&server.base)
        .args(["--field", "pending", "task", "5"])
        .assert()
        .success()
        .stdout("2\n");
    smsstat_at(&server.base)
        .args([
            "-o",
            "csv",
            "--fields",
            "delivered,delivery_rate",
            "task",
            "5",
        ])
        .assert()
        .success()
        // Machine formats carry numbers a spreadsheet can use: the rate as a ratio.
        .stdout(predicate::str::contains("5,7,0.700"));
}

#[test]
fn json_with_fields_keeps_only_those_keys() {
    let server = TestServer::start(faulty);
    let out = smsstat_at(&server.base)
        .args(["--json", "--fields", "status,id", "sms", "3", "5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(20), "SMS 5 is not found");
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text, "{\"status\":\"delivered\",\"id\":\"3\"}\n{\"error\":20,\"errorDescription\":\"SMS not found\"}\n");
}

#[test]
fn task_counters_that_do_not_add_up_are_told_in_every_format() {
    let server = TestServer::fixed(Canned::json(
        200,
        r#"{"sent":3,"delivered":5,"undeliverable":0,"expired":0,"unknown":0}"#,
    ));
    for format in ["json", "csv", "table"] {
        smsstat_at(&server.base)
            .args(["-o", format, "task", "6"])
            .assert()
            .success()
            .stderr(predicate::str::contains("counters do not add up"));
    }
}

#[test]
fn unreadable_task_counters_are_told() {
    let server = TestServer::fixed(Canned::json(
        200,
        r#"{"sent":"x","delivered":0,"totalprice":1}"#,
    ));
    smsstat_at(&server.base)
        .args(["--json", "task", "4"])
        .assert()
        .success()
        .stderr(predicate::str::contains("`sent` counter is not a number"));
}

/// The head (`/sms/1`) answers once every other lookup was served, or after a minute
/// if that never happens (the binary holding them back: the failure this guards
/// against, which would otherwise hang); every other record carries a 1 MiB field of
/// the service's own. Returns the server and whether the head could wait for the
/// others.
fn head_after_the_rest(others: usize) -> (TestServer, Arc<AtomicBool>) {
    let served = Arc::new((Mutex::new(0usize), Condvar::new()));
    let waited_for_all = Arc::new(AtomicBool::new(false));
    let told = Arc::clone(&waited_for_all);
    let big = format!(
        r#"{{"error":0,"status":"delivered","note":"{}"}}"#,
        "n".repeat(1 << 20)
    );
    let server = TestServer::start(move |url| {
        let (count, changed) = &*served;
        if url.ends_with("/1") {
            let guard = count.lock().unwrap();
            let (guard, _) = changed
                .wait_timeout_while(guard, Duration::from_secs(60), |n| *n < others)
                .unwrap();
            told.store(*guard == others, Ordering::SeqCst);
            return Canned::json(200, r#"{"error":0,"status":"delivered"}"#);
        }
        *count.lock().unwrap() += 1;
        changed.notify_all();
        Canned::json(200, &big)
    });
    (server, waited_for_all)
}

#[test]
fn rows_and_csv_keep_only_their_fields_while_waiting_for_an_earlier_lookup() {
    // 100 MiB of extra fields behind the head: kept whole, they would fill the
    // 32 MiB budget and the lookups would wait for the head, which waits for them.
    let others = 100;
    for format in ["csv", "table"] {
        let (server, waited_for_all) = head_after_the_rest(others);
        let ids: Vec<String> = (1..=others + 1).map(|i| i.to_string()).collect();
        // The head's answer comes only after the others' 100 MiB: on a loaded machine,
        // later than the default 10 s timeout, which is not what is tested here.
        let mut args = vec!["--timeout", "120s", "-o", format, "-j", "8", "sms"];
        args.extend(ids.iter().map(String::as_str));
        let out = smsstat_at(&server.base).args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "-o {format}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(!text.contains("nnnn"), "-o {format} shows no extra field");
        assert!(
            waited_for_all.load(Ordering::SeqCst),
            "-o {format}: the others were held back by the budget"
        );
    }
}
