//! Tables that fit the terminal, at a fixed width through COLUMNS: tokens are never
//! broken, empty columns are left out, long free text is cut with `…` and said so.

use crate::common::{smsstat_at, Canned, TestServer};

fn long_error_server() -> TestServer {
    TestServer::start(|url| {
        if url.ends_with("/2") {
            let text = "x ".repeat(120);
            Canned::json(
                404,
                &format!(r#"{{"error":20,"errorDescription":"{text}"}}"#),
            )
        } else {
            Canned::json(200, crate::common::SMS)
        }
    })
}

fn table_at(width: &str, server: &TestServer, args: &[&str]) -> String {
    let mut cmd = smsstat_at(&server.base);
    cmd.env("COLUMNS", width).args(args);
    let out = cmd.output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn tokens_are_never_broken_and_long_text_is_cut_and_said_so() {
    let server = long_error_server();
    let text = table_at("100", &server, &["sms", "1", "2"]);
    for token in ["delivered", "380501234567", "2026-11-01 10:00:05"] {
        assert!(text.contains(token), "{token} broken or missing:\n{text}");
    }
    assert!(text.contains('…'), "{text}");
    assert!(text.contains("cut to fit the terminal: Error"), "{text}");
    let widest = text.lines().map(|l| l.chars().count()).max().unwrap();
    assert!(widest <= 100, "{widest} columns:\n{text}");
}

#[test]
fn columns_empty_in_the_whole_page_are_left_out() {
    let server = TestServer::fixed(Canned::json(200, crate::common::SMS));
    let text = table_at("200", &server, &["sms", "1", "2"]);
    assert!(!text.contains("Error"), "an empty Error column:\n{text}");
    let failing = long_error_server();
    let text = table_at("200", &failing, &["sms", "1", "2"]);
    assert!(text.contains("Error"), "{text}");
}

#[test]
fn without_a_terminal_nothing_is_cut() {
    let server = long_error_server();
    let out = smsstat_at(&server.base)
        .env_remove("COLUMNS")
        .args(["sms", "1", "2"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains('…'), "{text}");
    assert!(text.contains(&"x ".repeat(100)), "the error whole");
}

#[test]
fn the_record_view_wraps_values_at_word_boundaries() {
    let body = r#"{"status":"delivered","note":"alpha beta gamma delta epsilon zeta eta theta iota kappa"}"#;
    let server = TestServer::fixed(Canned::json(200, body));
    let text = table_at("40", &server, &["sms", "1"]);
    for word in ["alpha", "epsilon", "kappa", "delivered"] {
        assert!(text.contains(word), "{word} broken:\n{text}");
    }
    let widest = text.lines().map(|l| l.chars().count()).max().unwrap();
    assert!(widest <= 40, "{widest} columns:\n{text}");
}

const V1_TASK: &str = r#"{"originator":"BSG","totalprice":2.3,"currency":"EUR","sent":6,"total":10,"queued":2,"accepted":1,"enroute":1,"delivered":4,"expired":0,"undeliverable":1,"unknown":1}"#;

#[test]
fn v1_task_rows_show_total_in_flight_counters_pending_and_rate() {
    let server = TestServer::fixed(Canned::json(200, V1_TASK));
    let wide = table_at("250", &server, &["task", "6", "7"]);
    for label in ["Total", "Queued", "Accepted", "En route", "Pending"] {
        assert!(wide.contains(label), "{label} missing:\n{wide}");
    }
    assert!(wide.contains("40.0% (4 of 10)"), "{wide}");
    let csv = smsstat_at(&server.base)
        .args(["-o", "csv", "task", "6"])
        .output()
        .unwrap();
    let csv = String::from_utf8(csv.stdout).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    let cell = |name: &str| row[header.iter().position(|h| *h == name).unwrap()];
    assert_eq!(
        [
            cell("total"),
            cell("queued"),
            cell("pending"),
            cell("delivery_rate")
        ],
        ["10", "2", "4", "0.400"]
    );
}

#[test]
fn a_narrow_terminal_leaves_columns_out_but_keeps_status_and_rate() {
    let server = TestServer::fixed(Canned::json(200, V1_TASK));
    let text = table_at("80", &server, &["task", "6", "7"]);
    let widest = text.lines().map(|l| l.chars().count()).max().unwrap();
    assert!(widest <= 80, "{widest} columns:\n{text}");
    assert!(
        text.contains("Pending") && text.contains("40.0% (4 of 10)"),
        "{text}"
    );
    assert!(text.contains("(left out to fit the terminal: "), "{text}");
    assert!(
        text.contains("Currency; --json or --fields shows them)"),
        "{text}"
    );

    let sms = TestServer::fixed(Canned::json(200, crate::common::SMS));
    let text = table_at("44", &sms, &["sms", "1", "2"]);
    let widest = text.lines().map(|l| l.chars().count()).max().unwrap();
    assert!(widest <= 44, "{widest} columns:\n{text}");
    assert!(text.contains("delivered"), "the status kept:\n{text}");
    assert!(
        text.contains("(left out to fit the terminal: Reference,"),
        "{text}"
    );
}

/// At 80 columns a failed lookup among records keeps the records' columns (it left
/// out the delivery report, price and currency for a wide error): its error is cut
/// first, since stderr tells it whole.
#[test]
fn the_record_columns_win_over_a_second_copy_of_the_error() {
    let server = TestServer::start(|url| match url.rsplit('/').next() {
        Some("9") => Canned::json(200, r#"{"error":20,"errorDescription":"SMS not found"}"#),
        Some(id) => Canned::json(
            200,
            &format!(
                r#"{{"error":0,"msisdn":"48691065019","reference":"ref-{id}","status":"delivered","time_dr":"2024-01-01 00:07:10","price":"0.073","currency":"EUR","id":"{id}"}}"#
            ),
        ),
        None => Canned::json(404, "{}"),
    });
    let out = smsstat_at(&server.base)
        .env("COLUMNS", "80")
        .args(["sms", "1", "9", "2"])
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&out.stdout);
    let header = table.lines().nth(1).unwrap();
    for column in ["Status", "Delivery report", "Error"] {
        assert!(header.contains(column), "{column} in {table}");
    }
    assert!(table.lines().all(|l| l.chars().count() <= 80), "{table}");
    assert!(table.contains("SMS not…"), "the error cut: {table}");
}
