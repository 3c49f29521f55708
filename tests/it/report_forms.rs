//! The report's forms and what they count beyond the aggregates: the verdicts that
//! make the exit code, failure kinds, cut service text, the terminal and Markdown
//! drawing, no records, and options that do not combine with a report.

use std::time::Duration;

use crate::common::mixed::{answer, is_pending, server, Answer};
use crate::common::{run_batch, smsstat_at, Canned, TestServer};
use serde_json::{Map, Value};
use smsstat::testkit::Kind;

/// `--expect delivered` without `--wait`: a pending record is exit 81, a final one
/// not delivered exit 80; the report counts both, as JUnit does, in every form.
#[test]
fn a_report_counts_the_verdicts_that_make_the_exit_code() {
    let server = server(Kind::Sms);
    let ids: Vec<u64> = (1..=120).collect();
    let args = ["-o", "report-json", "--expect", "delivered", "sms", "-"];
    let (out, _) = run_batch(&server.base, &args, &ids, Duration::from_secs(60));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let found: Vec<Map<String, Value>> = ids
        .iter()
        .filter_map(|id| match answer(Kind::Sms, *id) {
            Answer::Record(map) => Some(map),
            _ => None,
        })
        .collect();
    let pending = found.iter().filter(|m| is_pending(m)).count() as u64;
    let unmet = found
        .iter()
        .filter(|m| !is_pending(m) && m["status"] != "delivered")
        .count() as u64;
    assert!(pending > 0 && unmet > 0, "{pending} {unmet}");
    assert_eq!(report["still_pending"], pending, "{report}");
    assert_eq!(report["expectations_not_met"], unmet, "{report}");
    assert_eq!(report["interrupted"], 0, "{report}");
    assert_eq!(report["failed"], ids.len() as u64 - found.len() as u64);

    // All pending: exit 81, and the text forms say so instead of "0 failed" alone.
    let pending_ids = ["4", "8", "12"];
    for id in pending_ids {
        assert!(
            matches!(answer(Kind::Sms, id.parse().unwrap()), Answer::Record(m) if is_pending(&m))
        );
    }
    for (format, line) in [
        ("report", "still pending      3  100.0%"),
        ("report-md", "| still pending | 3 | 100.0% |"),
    ] {
        let out = smsstat_at(&server.base)
            .args(["-o", format, "--expect", "delivered", "sms"])
            .args(pending_ids)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(81));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.contains("3 lookups, 3 records, 0 failed, 3 still pending\n"),
            "{text}"
        );
        assert!(text.contains(line), "{text}");
    }
}

/// With one worker, every value of a `--wait` is still watched: polls wait in the
/// engine's queue, not in the worker, so none is left "not looked up".
#[test]
fn one_worker_watches_every_value_until_the_deadline() {
    let server = TestServer::fixed(Canned::json(200, r#"{"status":"enroute"}"#));
    let args = [
        "--wait",
        "--wait-timeout",
        "1s",
        "--interval",
        "100ms",
        "-j",
        "1",
    ];
    let args = [&args[..], &["-o", "report-json", "sms", "-"]].concat();
    let (out, _) = run_batch(&server.base, &args, &[1, 2, 3], Duration::from_secs(30));
    assert_eq!(out.status.code(), Some(81));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["failures"].as_array().unwrap().len(), 0, "{report}");
    assert_eq!(report["still_pending"], 3, "{report}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("not looked up"), "{stderr}");
}

#[test]
fn terminal_and_markdown_reports_are_printed_even_when_lookups_fail() {
    let server = server(Kind::Sms);
    let out = smsstat_at(&server.base)
        .args(["-o", "report", "sms", "1", "2", "10"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(20));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("SMS report: 3 lookups, 2 records, 1 failed\n"),
        "{text}"
    );
    assert!(text.contains("sms not found (20)"), "{text}");
    assert!(!text.contains('\u{1b}'), "no colour in a pipe: {text}");
    let out = smsstat_at(&server.base)
        .args(["-o", "report-md", "sms", "1", "2", "10"])
        .output()
        .unwrap();
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(md.starts_with("### smsstat SMS report"), "{md}");
    assert!(
        md.contains("| Status | Count | Share |  |\n|---|---:|---:|---|\n"),
        "{md}"
    );
}

/// A 1 MB error description is cut in every form: the failure kind is a table
/// cell's 300 characters and a note of the rest, not a 1 MB line.
#[test]
fn a_huge_error_description_is_cut_in_every_report_form() {
    let body = format!(
        r#"{{"error":99,"errorDescription":"{}"}}"#,
        "A".repeat(1_000_000)
    );
    let server = TestServer::fixed(Canned::json(200, &body));
    for format in ["report", "report-md", "report-json"] {
        let out = smsstat_at(&server.base)
            .args(["-o", format, "sms", "1", "2"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(79), "{format}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.len() < 8_000, "{format}: {} bytes", text.len());
        let cut = format!("{}… (999700 more characters) (99)", "a".repeat(300));
        assert!(text.contains(&cut), "{format}: {text}");
        assert!(
            out.stderr.len() < 8_000,
            "{format}: {} bytes",
            out.stderr.len()
        );
    }
}

#[test]
fn report_bars_follow_the_locale_and_colour_rules() {
    let server = server(Kind::Sms);
    let run = |lang: &str, colour: &str| {
        let out = smsstat_at(&server.base)
            .env("LANG", lang)
            .args(["--color", colour, "-o", "report", "sms", "1", "2", "3"])
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let ascii = run("C", "never");
    assert!(ascii.contains('#') && !ascii.contains('█'), "{ascii}");
    assert!(!ascii.contains('\u{1b}'), "{ascii}");
    let coloured = run("C.UTF-8", "always");
    assert!(coloured.contains('█'), "{coloured}");
    assert!(
        coloured.contains("\u{1b}[32m"),
        "delivered in green: {coloured}"
    );
}

#[test]
fn options_that_shape_records_do_not_combine_with_a_report() {
    let server = server(Kind::Sms);
    for extra in [["--fields", "status"], ["--no-headers", "--raw-cells"]] {
        let out = smsstat_at(&server.base)
            .args(["-o", "report"])
            .args(extra)
            .args(["sms", "1"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(64));
        assert!(String::from_utf8_lossy(&out.stderr).contains("print one report"));
    }
    let out = smsstat_at(&server.base)
        .args(["--normalize", "-o", "report-json", "sms", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("report, report-json, report-md"),
        "{stderr}"
    );
    assert!(server.urls().is_empty(), "nothing looked up");
}

/// Every lookup failed: "No records to count." instead of an empty status table.
#[test]
fn a_report_without_records_says_so() {
    let server = server(Kind::Sms);
    for (format, kind) in [("report", "sms"), ("report-md", "hlr"), ("report", "task")] {
        let out = smsstat_at(&server.base)
            .args(["-o", format, kind, "10", "20"])
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("\nNo records to count.\n"), "{text}");
        assert!(
            !text.contains("Status") && !text.contains("Messages"),
            "{text}"
        );
        assert!(text.contains("not found"), "{text}");
    }
}

/// The batch summary names each kind of failure on one line: a long service text is
/// cut to its first words (the report above keeps more of it).
#[test]
fn the_summary_line_cuts_long_service_texts() {
    let text = "The message you asked for could not be found ".repeat(10);
    let body = serde_json::json!({"error": 20, "errorDescription": text});
    let server = TestServer::fixed(Canned::json(404, &body.to_string()));
    let out = smsstat_at(&server.base)
        .args(["-v", "sms", "1", "2"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let summary = stderr.lines().last().unwrap();
    assert!(
        summary.starts_with("smsstat: 0 ok, 2 the message"),
        "{stderr}"
    );
    assert!(summary.ends_with("… (20)"), "{summary}");
    assert!(summary.chars().count() <= 100, "{summary}");
}

/// A price too large to sum exactly is never shown as an invented number: the text
/// report says so, report-json has null.
#[test]
fn a_total_too_large_to_sum_exactly_is_not_invented() {
    let server = TestServer::start(|url| {
        let id = url.rsplit('/').next().unwrap_or("");
        let price = if id == "1" { "1e40" } else { "1" };
        Canned::json(
            200,
            &format!(
                r#"{{"error":0,"status":"delivered","id":"{id}","price":"{price}","currency":"EUR"}}"#
            ),
        )
    });
    let text = smsstat_at(&server.base)
        .args(["-o", "report", "sms", "1", "2"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("EUR: too large to sum exactly"), "{text}");
    assert!(!text.contains("170141183460469231731687303715"), "{text}");
    let json = smsstat_at(&server.base)
        .args(["-o", "report-json", "sms", "1", "2"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(report["prices"][0]["total"], Value::Null, "{report}");
}

/// `-o report` at 80 columns (COLUMNS, as a terminal's width): the oldest pending
/// records are listed whole, the list broken between them, every line within 80.
#[test]
fn the_oldest_pending_list_fits_80_columns_between_its_entries() {
    let server = TestServer::start(|url| {
        let id = crate::common::answers::value_of(url);
        let second = id.chars().last().unwrap();
        Canned::json(
            200,
            &format!(
                r#"{{"id":"{id}","status":"enroute","time_in":"2026-11-01 10:00:0{second}"}}"#
            ),
        )
    });
    let ids = ["1000001", "1000002", "1000003", "1000004", "1000005"];
    let out = smsstat_at(&server.base)
        .env("COLUMNS", "80")
        .args(["-o", "report", "sms"])
        .args(ids)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let notes = text
        .split_once("\nOldest still pending")
        .map(|(_, rest)| format!("Oldest still pending{rest}"))
        .unwrap_or_else(|| panic!("{text}"));
    for line in text.lines() {
        assert!(line.chars().count() <= 80, "{line:?} in:\n{text}");
    }
    for id in ids {
        let second = id.chars().last().unwrap();
        let entry = format!("{id} (enroute since 2026-11-01 10:00:0{second})");
        assert!(
            notes.lines().any(|line| line.contains(&entry)),
            "{entry}:\n{text}"
        );
    }
}
