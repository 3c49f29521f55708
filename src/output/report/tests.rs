use std::time::Duration;

use serde_json::{json, Value};

use super::*;
use crate::domain::error::LookupError;
use crate::domain::lookup::LookupKind;

fn found(kind: LookupKind, query: &str, value: Value, ms: u64) -> Outcome {
    let record = Record::of_kind(kind.record_kind(), value);
    Outcome {
        elapsed: Duration::from_millis(ms),
        ..Outcome::new(kind, query.into(), Ok(record))
    }
}

fn report_json(report: &Report) -> Value {
    json::report(report)
}

fn markdown(report: &Report) -> String {
    draw::markdown(&section::shape(report))
}

fn terminal(report: &Report, utf8: bool, color: bool) -> String {
    let width = None;
    draw::terminal(&section::shape(report), TableStyle { color, utf8, width })
}

/// Three SMS (two delivered, one sent) and a lookup that timed out.
fn sms_report() -> Report {
    let mut report = Report::new(RecordKind::Sms, false);
    let sms = |status: &str, sent: &str, dr: Option<&str>, price: &str| {
        let mut value = json!({"status": status, "time_in": "2024-01-01 00:00:00",
            "time_sent": sent, "price": price, "currency": "EUR"});
        if let Some(dr) = dr {
            value["time_dr"] = dr.into();
        }
        value
    };
    let outcomes = [
        found(
            LookupKind::Sms,
            "1",
            sms(
                "delivered",
                "2024-01-01 00:00:02",
                Some("2024-01-01 00:00:10"),
                "0.1",
            ),
            5,
        ),
        found(
            LookupKind::Sms,
            "2",
            sms(
                "delivered",
                "2024-01-01 00:00:01",
                Some("2024-01-01 00:01:00"),
                "0.2",
            ),
            9,
        ),
        found(
            LookupKind::Sms,
            "3",
            sms("sent", "2024-01-01 00:00:03", None, "0.05"),
            7,
        ),
        Outcome::new(
            LookupKind::Sms,
            "4".into(),
            Err(LookupError::Timeout(Duration::from_secs(1))),
        ),
    ];
    for outcome in &outcomes {
        report.add(outcome);
    }
    report
}

#[test]
fn sms_statuses_latencies_prices_and_pending() {
    let value = report_json(&sms_report());
    assert_eq!(value["lookups"], 4);
    assert_eq!(value["records"], 3);
    assert_eq!(value["failed"], 1);
    assert_eq!(
        value["statuses"][0],
        json!({"status": "delivered", "count": 2, "share": 0.667})
    );
    assert_eq!(
        value["statuses"][1],
        json!({"status": "sent", "count": 1, "share": 0.333})
    );
    assert_eq!(value["failures"][0]["count"], 1);
    assert_eq!(value["send_latency_s"]["p50"], 2);
    assert_eq!(value["send_latency_s"]["max"], 3);
    assert_eq!(value["delivery_latency_s"]["count"], 2);
    assert_eq!(value["delivery_latency_s"]["p99"], 60);
    assert_eq!(value["prices"], json!([{"currency": "EUR", "total": 0.35}]));
    assert_eq!(value["oldest_pending"][0]["query"], "3");
    assert_eq!(value["slowest"][0], json!({"query": "2", "ms": 9}));
}

#[test]
fn both_latencies_are_drawn_as_histograms() {
    let md = markdown(&sms_report());
    assert!(md.contains("| Send latency | Count | Share |  |"), "{md}");
    // Each row counts one bucket: the first is everything up to its bound, the
    // others are ranges (a row labelled `<= 5s` after `<= 2s` read as cumulative).
    assert!(md.contains("| &lt;= 1s | 1 | 33.3% |"), "{md}");
    assert!(md.contains("| 1s-2s | 1 | 33.3% |"), "{md}");
    assert!(md.contains("| 2s-5s | 1 | 33.3% |"), "{md}");
    assert!(
        md.contains("| Delivery latency | Count | Share |  |"),
        "{md}"
    );
}

#[test]
fn hlr_networks_and_shares() {
    let mut report = Report::new(RecordKind::Hlr, false);
    let hlr = |network: &str, ported: &str| json!({"status": "active", "network": network, "details": {"ported": ported, "roaming": "0"}});
    report.add(&found(LookupKind::Hlr, "1", hlr("25503", "1"), 1));
    report.add(&found(LookupKind::Hlr, "2", hlr("25503", "0"), 1));
    report.add(&found(LookupKind::Hlr, "3", json!({"status": "sent"}), 1));
    // The same code with the server's name and without: one network, first name.
    let mut named = hlr("25503", "0");
    named["name_en"] = "Ukraine (server)".into();
    named["brand"] = "KS".into();
    report.add(&found(LookupKind::Hlr, "4", named, 1));
    report.add(&found(LookupKind::Hlr, "5", hlr("25099", "0"), 1));
    let value = report_json(&report);
    assert_eq!(
        value["networks"][0],
        json!({"network": "Ukraine / Kyivstar", "code": "25503", "count": 3, "share": 0.75})
    );
    assert_eq!(value["networks"][1]["code"], "25099");
    let text = markdown(&report);
    assert!(
        text.contains("| Ukraine / Kyivstar (25503) | 3 | 75.0% |"),
        "{text}"
    );
    assert_eq!(value["ported"], json!({"yes": 1, "of": 4, "share": 0.25}));
    assert_eq!(value["roaming"], json!({"yes": 0, "of": 4, "share": 0.0}));
}

#[test]
fn task_counters_are_summed() {
    let mut report = Report::new(RecordKind::Task, true);
    let task = |sent: i64, delivered: i64| json!({"sent": sent, "delivered": delivered, "undeliverable": 1, "expired": 0, "unknown": 0, "totalprice": "1.5", "currency": "USD"});
    report.add(&found(LookupKind::Task, "7", task(10, 9), 1000));
    report.add(&found(LookupKind::Task, "8", task(10, 4), 2000));
    let value = report_json(&report);
    assert_eq!(value["tasks"]["messages"], 20);
    assert_eq!(value["tasks"]["delivered"], 13);
    assert_eq!(value["tasks"]["pending"], 5);
    assert_eq!(value["tasks"]["delivery_rate"], 0.65);
    assert_eq!(value["lowest_delivery_rate"][0]["query"], "8");
    assert_eq!(value["prices"], json!([{"currency": "USD", "total": 3}]));
    assert_eq!(value["wait"]["until_final_ms"]["count"], 2);
}

#[test]
fn markdown_escapes_service_text() {
    let mut report = Report::new(RecordKind::Sms, false);
    report.add(&found(
        LookupKind::Sms,
        "1",
        json!({"status": "<img src=x>|*"}),
        1,
    ));
    let text = markdown(&report);
    assert!(text.contains("&lt;img src=x&gt;\\|\\*"), "{text}");
    assert!(!text.contains("<img"), "{text}");
}

#[test]
fn terminal_form_draws_bars_without_colour_when_off() {
    let mut report = Report::new(RecordKind::Sms, false);
    report.add(&found(
        LookupKind::Sms,
        "1",
        json!({"status": "delivered"}),
        1,
    ));
    let plain = terminal(&report, false, false);
    assert!(plain.contains(&"#".repeat(30)), "{plain}");
    assert!(!plain.contains('\u{1b}'), "{plain}");
    let colour = terminal(&report, true, true);
    assert!(colour.contains("\u{1b}[32m"), "{colour}");
}

/// Verdicts count as the exit code does: 81 still pending, 80 unmet, a signal's
/// code interrupted; under `--wait` only final records have a time until final.
#[test]
fn verdicts_are_counted_and_interrupted_records_are_not_final() {
    use crate::domain::verdict::Verdict;
    let mut report = Report::new(RecordKind::Sms, true);
    for (query, code) in [
        ("1", None),
        ("2", Some(80)),
        ("3", Some(81)),
        ("4", Some(130)),
        ("5", Some(143)),
    ] {
        let mut outcome = found(LookupKind::Sms, query, json!({"status": "enroute"}), 10);
        outcome.verdict = code.map(|code| Verdict {
            code,
            message: String::new(),
        });
        report.add(&outcome);
    }
    let value = report_json(&report);
    assert_eq!(value["still_pending"], 1);
    assert_eq!(value["expectations_not_met"], 1);
    assert_eq!(value["interrupted"], 2);
    assert_eq!(value["wait"]["until_final_ms"]["count"], 2);
    assert_eq!(value["wait"]["pending_at_deadline"], 1);
    let text = terminal(&report, false, false);
    assert!(
        text.starts_with("SMS report: 5 lookups, 5 records, 0 failed, 1 still pending, 1 expectation not met, 2 interrupted\n"),
        "{text}"
    );
}

#[test]
fn no_records_is_a_line_not_an_empty_table() {
    let mut report = Report::new(RecordKind::Hlr, false);
    report.add(&Outcome::new(
        LookupKind::Hlr,
        "1".into(),
        Err(LookupError::Timeout(Duration::from_secs(1))),
    ));
    let text = terminal(&report, true, false);
    assert!(
        text.contains("\n\nNo records to count.\n\nFailure "),
        "{text}"
    );
    assert!(!text.contains("Status"), "{text}");
    let md = markdown(&report);
    assert!(
        md.contains("\n\nNo records to count.\n\n| Failure |"),
        "{md}"
    );
}
