//! Records at a glance through the binary: latencies, HLR networks by name, a task's
//! rate, pending count and bar, counters that do not add up, --mask-msisdn and
//! --no-headers.

use crate::common::{answering, json_line, smsstat_at, stdout_of, HLR, SMS, TASK};

#[test]
fn sms_latencies_in_tables_but_not_in_json() {
    let server = answering(SMS);
    let table = stdout_of(smsstat_at(&server.base).args(["sms", "1"]));
    assert!(table.contains("Send latency     ┆ 1s"), "{table}");
    assert!(table.contains("Delivery latency ┆ 5s"), "{table}");
    let json = stdout_of(smsstat_at(&server.base).args(["--json", "sms", "1"]));
    assert_eq!(json.trim(), SMS);
}

#[test]
fn hlr_network_from_the_service_fields() {
    let body = HLR.replace("\"Kyivstar\"", "\"KS from service\"");
    let server = answering(&body);
    let table = stdout_of(smsstat_at(&server.base).args(["hlr", "174568"]));
    assert!(
        table.contains("25503 · Ukraine · KS from service"),
        "{table}"
    );
}

#[test]
fn hlr_network_from_the_embedded_table() {
    let body =
        r#"{"id":"1","msisdn":"4915112345678","network":"26201","status":"active","details":null}"#;
    let server = answering(body);
    let table = stdout_of(smsstat_at(&server.base).args(["hlr", "1"]));
    assert!(table.contains("26201 · Germany · Telekom"), "{table}");
    let rows = stdout_of(smsstat_at(&server.base).args(["hlr", "1", "2"]));
    assert!(rows.contains("26201 · Germany · Telekom"), "{rows}");
    let ascii = stdout_of(smsstat_at(&server.base).env("LANG", "C").args(["hlr", "1"]));
    assert!(ascii.contains("26201 / Germany / Telekom"), "{ascii}");
    let csv = stdout_of(smsstat_at(&server.base).args(["-o", "csv", "hlr", "1"]));
    assert!(csv.contains(",26201,"), "CSV stays raw: {csv}");
}

#[test]
fn task_rate_pending_and_bar() {
    let server = answering(TASK);
    let table = stdout_of(smsstat_at(&server.base).args(["task", "6"]));
    assert!(table.contains("Pending       ┆ 0"), "{table}");
    assert!(table.contains("Delivery rate ┆ 70.0% (7 of 10)"), "{table}");
    let bar = format!(
        "{}{}{}{}",
        "█".repeat(28),
        "▓".repeat(4),
        "▒".repeat(4),
        "░".repeat(4)
    );
    assert!(table.contains(&bar), "{table}");
    assert!(
        table.contains("█ delivered 7  ▓ undeliverable 1  ▒ expired 1  ░ unknown 1  · pending 0")
    );
    let ascii = stdout_of(
        smsstat_at(&server.base)
            .env("LANG", "C")
            .args(["task", "6"]),
    );
    assert!(ascii.is_ascii(), "{ascii}");
    assert!(
        ascii.contains(&format!("{}{}", "#".repeat(28), "x".repeat(4))),
        "{ascii}"
    );
    let picked =
        stdout_of(smsstat_at(&server.base).args(["--fields", "sent,delivery_rate", "task", "6"]));
    assert!(
        picked.contains("70.0%") && !picked.contains('█'),
        "{picked}"
    );
}

#[test]
fn task_counters_that_do_not_add_up_are_flagged() {
    let body = r#"{"sent":"5","delivered":4,"undeliverable":2,"expired":0,"unknown":0}"#;
    let server = answering(body);
    let table = stdout_of(smsstat_at(&server.base).args(["task", "6"]));
    assert!(table.contains("counters do not add up"), "{table}");
    assert!(!table.contains("Pending"), "{table}");
}

#[test]
fn mask_msisdn_in_table_json_csv_and_field() {
    let server = answering(SMS);
    let masked = "380*******67";
    let outputs = [
        stdout_of(smsstat_at(&server.base).args(["--mask-msisdn", "sms", "1"])),
        stdout_of(smsstat_at(&server.base).args(["--mask-msisdn", "sms", "1", "2"])),
        stdout_of(smsstat_at(&server.base).args(["--mask-msisdn", "--json", "sms", "1"])),
        stdout_of(smsstat_at(&server.base).args(["--mask-msisdn", "-o", "csv", "sms", "1"])),
        stdout_of(smsstat_at(&server.base).args(["--mask-msisdn", "-o", "tsv", "sms", "1"])),
        stdout_of(smsstat_at(&server.base).args([
            "--mask-msisdn",
            "--field",
            "msisdn",
            "sms",
            "1",
        ])),
    ];
    for out in &outputs {
        assert!(
            out.contains(masked) && !out.contains("380501234567"),
            "{out}"
        );
    }
    let json = json_line(&outputs[2]);
    assert_eq!(json["msisdn"], masked);
    assert_eq!(json["price"], 0.23, "the rest stays raw");
    let hlr = answering(HLR);
    let out = stdout_of(smsstat_at(&hlr.base).args(["--mask-msisdn", "--json", "hlr", "1"]));
    assert!(out.contains(r#""msisdn":"380*******67""#), "{out}");
}

#[test]
fn without_mask_msisdn_the_number_is_shown() {
    let server = answering(SMS);
    let out = stdout_of(smsstat_at(&server.base).args(["--field", "msisdn", "sms", "1"]));
    assert_eq!(out.trim(), "380501234567");
}

#[test]
fn no_headers_leaves_out_the_header_line_of_tables_csv_and_tsv() {
    let server = answering(SMS);
    let csv = smsstat_at(&server.base)
        .args(["--no-headers", "-o", "csv", "sms", "1", "2"])
        .assert()
        .success();
    let csv = String::from_utf8_lossy(&csv.get_output().stdout).into_owned();
    assert_eq!(csv.lines().count(), 2, "{csv}");
    assert!(csv.starts_with("1,380501234567,"), "{csv}");
    let table = smsstat_at(&server.base)
        .args(["--no-headers", "sms", "1", "2"])
        .assert()
        .success();
    let table = String::from_utf8_lossy(&table.get_output().stdout).into_owned();
    assert!(
        !table.contains("Status") && table.contains("delivered"),
        "{table}"
    );
    smsstat_at(&server.base)
        .args(["--no-headers", "--json", "sms", "1"])
        .assert()
        .code(64);
}
