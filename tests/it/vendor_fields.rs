//! The vendor's fields read alike wherever they sit (docs/variants.md): v1 HLR
//! `ported`/`roaming` at the top as booleans or 0/1, one label per meaning in the
//! record view, networks named rather than coded in the report, the v1 task
//! counters' legend, and the task view's ID row. Over loopback.

use crate::common::{answering, json_line, smsstat_at, Canned, TestServer};
use serde_json::{json, Value};

/// The v1 OpenAPI document's HLR example, with `ported`/`roaming` at the top as the
/// example has them, or as given.
fn v1_hlr(ported: &str, roaming: &str) -> String {
    format!(
        r#"{{"error":0,"errorDescription":"No errors","id":"123456","msisdn":"380953227271","reference":"unique_ref_123","country_name":"Ukraine","brand":"Kyivstar","brand_name":"Kyivstar GSM","network":"Kyivstar","status":"delivered","details":{{"ported":0,"roaming":1,"imsi":"255039XXXXXXXX"}},"createdDatetime":"2025-11-13T08:34:38+00:00","statusDatetime":"2025-11-13T08:34:40+00:00","roaming":{roaming},"ported":{ported}}}"#
    )
}

/// A classic HLR record as the vendor's PHP README and the Python SDK's tests show
/// it: `name_ru`, `name`, `details.location_msc`.
const CLASSIC_HLR: &str = r#"{"error":0,"errorDescription":"No errors","name_ru":"Украина","name_en":"Ukraine","brand":"Kyivstar","name":"Kyivstar GSM JSC","msisdn":"380972920001","id":"380972920001","reference":"ext_id_14","network":"25503","status":"active","details":{"imsi":"255030000000000","location_msc":"380670000001","ported":"0","roaming":"1"},"createdDatetime":"2017-01-17T08:53:08+00:00","statusDatetime":"2017-01-17T08:53:09+00:00"}"#;

/// The v1 document's task example.
const V1_TASK: &str = r#"{"error":0,"errorDescription":"No errors","originator":"BSG","body":"Bulk SMS message text","validity":72,"totalprice":5.25,"currency":"USD","sent":100,"total":100,"queued":0,"accepted":95,"enroute":3,"delivered":92,"expired":2,"undeliverable":3,"unknown":0}"#;

fn stdout(base: &str, args: &[&str]) -> String {
    let out = smsstat_at(base).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The label and value cells of each line of a record view.
fn cells(view: &str) -> impl Iterator<Item = (&str, &str)> {
    view.lines().filter_map(|line| {
        let inner = line.trim().strip_prefix('│')?.strip_suffix('│')?;
        let (label, value) = inner.split_once('┆')?;
        Some((label.trim(), value.trim()))
    })
}

/// The labels of a record view, in order.
fn labels(view: &str) -> Vec<String> {
    cells(view).map(|(label, _)| label.to_string()).collect()
}

fn row<'a>(view: &'a str, label: &str) -> Option<&'a str> {
    cells(view)
        .find(|(l, _)| *l == label)
        .map(|(_, value)| value)
}

#[test]
fn top_level_ported_and_roaming_are_typed_alike_as_booleans_or_0_1() {
    for (ported, roaming) in [("true", "false"), ("1", "0"), (r#""1""#, r#""0""#)] {
        let server = answering(&v1_hlr(ported, roaming));
        let line = json_line(stdout(
            &server.base,
            &["--json", "--normalize", "hlr", "123456"],
        ));
        assert_eq!(line["ported"], json!(true), "{ported}: {line}");
        assert_eq!(line["roaming"], json!(false), "{roaming}: {line}");
        assert_eq!(line["details"]["ported"], json!(false));
        assert_eq!(line["details"]["roaming"], json!(true));

        let view = stdout(&server.base, &["hlr", "123456"]);
        assert_eq!(row(&view, "Ported"), Some("yes"), "{view}");
        assert_eq!(row(&view, "Roaming"), Some("no"), "{view}");
    }
}

#[test]
fn field_roaming_names_the_top_level_flag() {
    let server = answering(&v1_hlr("1", "0"));
    assert_eq!(
        stdout(&server.base, &["--field", "roaming", "hlr", "1"]).trim(),
        "0"
    );
    assert_eq!(
        stdout(&server.base, &["--field", "details.roaming", "hlr", "1"]).trim(),
        "1"
    );
    let csv = stdout(
        &server.base,
        &["-o", "csv", "--fields", "ported,roaming", "hlr", "1"],
    );
    assert!(csv.lines().nth(1).unwrap().contains(",1,0"), "{csv}");
}

#[test]
fn one_label_per_meaning_in_the_v1_record_view() {
    let server = answering(&v1_hlr("true", "false"));
    let view = stdout(&server.base, &["hlr", "123456"]);
    let labels = labels(&view);
    for label in &labels {
        let twice = labels.iter().filter(|l| *l == label).count() > 1;
        // `Ported` and `Roaming` are both in `details` and at the top in this record.
        assert!(
            !twice || ["Ported", "Roaming"].contains(&label.as_str()),
            "{label} twice: {view}"
        );
    }
    assert_eq!(row(&view, "Operator"), Some("Kyivstar"));
    assert_eq!(row(&view, "Operator name"), Some("Kyivstar GSM"));
    assert_eq!(row(&view, "Country"), Some("Ukraine"));
    // A name, not MCC+MNC: shown as sent.
    assert_eq!(row(&view, "Network"), Some("Kyivstar"));
}

#[test]
fn the_classic_record_view_has_no_raw_keys() {
    let server = answering(CLASSIC_HLR);
    let view = stdout(&server.base, &["hlr", "1"]);
    assert_eq!(row(&view, "Country (Russian)"), Some("Украина"), "{view}");
    assert_eq!(row(&view, "Serving MSC"), Some("380670000001"), "{view}");
    assert_eq!(row(&view, "Operator name"), Some("Kyivstar GSM JSC"));
    assert_eq!(
        row(&view, "Network"),
        Some("25503 · Ukraine · Kyivstar"),
        "{view}"
    );
    for label in labels(&view) {
        assert!(
            !label.contains('_') && !label.starts_with("details."),
            "raw key {label}: {view}"
        );
    }
}

#[test]
fn a_name_of_one_variant_answers_the_other() {
    let server = answering(&v1_hlr("true", "false"));
    assert_eq!(
        stdout(&server.base, &["--field", "name", "hlr", "1"]).trim(),
        "Kyivstar GSM"
    );
    let view = stdout(
        &server.base,
        &["--fields", "Country,Operator name", "hlr", "1"],
    );
    assert_eq!(labels(&view), ["Country", "Operator name"], "{view}");
}

/// Three v1 HLR records on two named networks and a classic one with a code.
fn mixed_networks(url: &str) -> Canned {
    let body = if url.ends_with("/1") || url.ends_with("/2") {
        v1_hlr("true", "false")
    } else if url.ends_with("/3") {
        v1_hlr("false", "false")
            .replace(r#""network":"Kyivstar""#, r#""network":"lifecell""#)
            .replace("Kyivstar GSM", "lifecell LLC")
    } else {
        CLASSIC_HLR.to_string()
    };
    Canned::json(200, &body)
}

#[test]
fn the_report_groups_networks_by_name_when_they_are_named() {
    let server = TestServer::start(mixed_networks);
    let report: Value = serde_json::from_str(&stdout(
        &server.base,
        &["-o", "report-json", "hlr", "1", "2", "3", "4"],
    ))
    .unwrap();
    let networks = report["networks"].as_array().expect("networks");
    let find = |name: &str, code: Value| {
        networks
            .iter()
            .find(|n| n["network"] == name && n["code"] == code)
            .unwrap_or_else(|| panic!("{name} {code} in {networks:?}"))["count"]
            .clone()
    };
    assert_eq!(networks.len(), 3, "{networks:?}");
    assert_eq!(find("Ukraine / Kyivstar", Value::Null), 2);
    assert_eq!(find("Ukraine / lifecell", Value::Null), 1);
    assert_eq!(find("Ukraine / Kyivstar", json!("25503")), 1);

    let text = stdout(&server.base, &["-o", "report", "hlr", "1", "2", "3", "4"]);
    assert!(text.contains("Ukraine / lifecell"), "{text}");
    assert!(text.contains("(25503)"), "{text}");
}

#[test]
fn the_v1_task_legend_counts_accepted_as_it_is_meant() {
    let server = answering(V1_TASK);
    let view = stdout(&server.base, &["task", "6"]);
    assert!(view.contains("· pending 3 (queued 0, enroute 3)"), "{view}");
    assert!(!view.contains("accepted 95)"), "{view}");
    assert_eq!(row(&view, "Pending"), Some("3"));
    assert_eq!(row(&view, "Delivery rate"), Some("92.0% (92 of 100)"));
    assert_eq!(row(&view, "Accepted"), Some("95"));
    assert_eq!(labels(&view).first().map(String::as_str), Some("ID"));
    assert_eq!(row(&view, "ID"), Some("6"));
    // The gate reads the same rule: nothing pending is 3 pending, so 81.
    smsstat_at(&server.base)
        .args(["--expect-delivered", "0.9", "task", "6"])
        .assert()
        .code(81);
}
