//! `-o report*` and `--junit`: aggregates over a batch of the simulator's records,
//! checked against figures computed here, independently, from the same records
//! (the simulator's data is a pure function of the kind and the ID).

mod common;

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader, Read};
use std::thread;
use std::time::{Duration, SystemTime};

use common::process::{command, peak_rss_kib, spawn_fed};
use common::{run_batch, smsstat_at, Canned, TestServer};
use serde_json::{Map, Value};
use smsstat::testkit::{
    sim_record, Kind, Oddity, Quirks, SimOptions, SimServer, PENDING_SMS_STATUSES,
};

const IDS: u64 = 1200;

fn quirks() -> Quirks {
    Quirks {
        string_numbers: Oddity::Mixed,
        omit_error: Oddity::Mixed,
        extra_fields: Oddity::Mixed,
        no_errors_text: Oddity::Mixed,
        task_v1: false,
    }
}

/// What the test server answers for an ID: not found (every 10th), unavailable
/// (every 37th), else the simulator's record, pending for every 4th ID.
enum Answer {
    NotFound,
    Unavailable,
    Record(Map<String, Value>),
}

fn answer(kind: Kind, id: u64) -> Answer {
    if id.is_multiple_of(10) {
        Answer::NotFound
    } else if id.is_multiple_of(37) {
        Answer::Unavailable
    } else {
        let progress = if id.is_multiple_of(4) { 0.0 } else { 1.0 };
        Answer::Record(sim_record(kind, id, progress, quirks()))
    }
}

fn server(kind: Kind) -> TestServer {
    TestServer::start(move |url| {
        let id: u64 = url.rsplit('/').next().unwrap().parse().unwrap();
        match answer(kind, id) {
            Answer::NotFound => {
                let (code, text) = kind.not_found();
                Canned::json(
                    404,
                    &format!(r#"{{"error":{code},"errorDescription":"{text}"}}"#),
                )
            }
            Answer::Unavailable => Canned::text(503, "<html>busy</html>"),
            Answer::Record(map) => Canned::json(200, &Value::Object(map).to_string()),
        }
    })
}

fn report_of(base: &str, kind: &str, extra: &[&str]) -> (Value, i32) {
    let ids: Vec<u64> = (1..=IDS).collect();
    let mut args = vec!["-o", "report-json", "-j", "8"];
    args.extend(extra);
    args.extend([kind, "-"]);
    let (out, _) = run_batch(base, &args, &ids, Duration::from_secs(120));
    let report = serde_json::from_slice(&out.stdout).expect("one JSON report");
    (report, out.status.code().unwrap_or(-1))
}

fn records(kind: Kind) -> Vec<(u64, Map<String, Value>)> {
    (1..=IDS)
        .filter_map(|id| match answer(kind, id) {
            Answer::Record(map) => Some((id, map)),
            _ => None,
        })
        .collect()
}

fn text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn number(value: &Value) -> f64 {
    text(value).parse().unwrap()
}

fn seconds(value: Option<&Value>) -> Option<i64> {
    let time = humantime::parse_rfc3339_weak(&text(value?)).ok()?;
    let since = time.duration_since(SystemTime::UNIX_EPOCH).ok()?;
    Some(since.as_secs() as i64)
}

/// The nearest-rank percentile of sorted values.
fn percentile(sorted: &[u64], per_mille: usize) -> u64 {
    let rank = (per_mille * sorted.len()).div_ceil(1000).max(1);
    sorted[rank - 1]
}

fn assert_durations(report: &Value, mut values: Vec<u64>) {
    values.sort_unstable();
    assert_eq!(report["count"], values.len() as u64, "{report}");
    // The histogram keeps 3 significant digits: exact below 2048, within 0.1 % above.
    let close = |got: &Value, want: u64| {
        let got = got.as_u64().unwrap();
        assert!(
            got.abs_diff(want) <= want / 1000,
            "{got} vs {want}: {report}"
        );
    };
    for (key, per_mille) in [("p50", 500), ("p90", 900), ("p99", 990)] {
        close(&report[key], percentile(&values, per_mille));
    }
    // The max is kept exactly, beside the histogram.
    assert_eq!(report["max"], *values.last().unwrap(), "{report}");
    let bucketed: u64 = report["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["count"].as_u64().unwrap())
        .sum();
    assert_eq!(bucketed, values.len() as u64);
}

fn assert_share(entry: &Value, count: u64, of: u64) {
    assert_eq!(entry["count"], count, "{entry}");
    let share = entry["share"].as_f64().unwrap();
    assert!((share - count as f64 / of as f64).abs() < 0.0005, "{entry}");
}

#[test]
fn sms_report_matches_the_records() {
    let server = server(Kind::Sms);
    let (report, code) = report_of(&server.base, "sms", &[]);
    let records = records(Kind::Sms);
    let found = records.len() as u64;
    let not_found = IDS / 10;
    let unavailable = (1..=IDS)
        .filter(|id| !id.is_multiple_of(10) && id.is_multiple_of(37))
        .count() as u64;
    assert_eq!(report["lookups"], IDS);
    assert_eq!(report["records"], found);
    assert_eq!(report["failed"], not_found + unavailable);
    // The first failure in input order is ID 10, not found: the batch rule.
    assert_eq!(code, 20);

    let mut statuses: HashMap<String, u64> = HashMap::new();
    for (_, map) in &records {
        *statuses.entry(text(&map["status"])).or_default() += 1;
    }
    let listed = report["statuses"].as_array().unwrap();
    assert_eq!(listed.len(), statuses.len());
    for entry in listed {
        assert_share(entry, statuses[entry["status"].as_str().unwrap()], found);
    }
    let failures = report["failures"].as_array().unwrap();
    assert_eq!(failures.len(), 2, "{failures:?}");
    assert_share(&failures[0], not_found, IDS);
    assert_eq!(failures[0]["failure"], "sms not found (20)");
    assert_share(&failures[1], unavailable, IDS);

    let latency = |to: &str| -> Vec<u64> {
        records
            .iter()
            .filter_map(|(_, map)| {
                let (start, end) = (seconds(map.get("time_in"))?, seconds(map.get(to))?);
                (end >= start).then(|| (end - start) as u64)
            })
            .collect()
    };
    assert_durations(&report["send_latency_s"], latency("time_sent"));
    assert_durations(&report["delivery_latency_s"], latency("time_dr"));

    let mut prices: BTreeMap<String, f64> = BTreeMap::new();
    for (_, map) in &records {
        *prices.entry(text(&map["currency"])).or_default() += number(&map["price"]);
    }
    let totals = report["prices"].as_array().unwrap();
    assert_eq!(totals.len(), prices.len());
    for (entry, (currency, total)) in totals.iter().zip(&prices) {
        assert_eq!(entry["currency"], *currency);
        assert!(
            (number(&entry["total"]) - total).abs() < 1e-6,
            "{entry} vs {total}"
        );
    }

    let oldest = records
        .iter()
        .filter(|(_, map)| is_pending(map))
        .min_by_key(|(id, map)| (seconds(map.get("time_in")), *id))
        .unwrap();
    assert_eq!(report["oldest_pending"][0]["query"], oldest.0.to_string());
    assert_eq!(report["slowest"].as_array().unwrap().len(), 5);
    assert_eq!(report["lookup_ms"]["count"], IDS);
}

/// An SMS record not final yet (the built-in list; no status is pending too).
fn is_pending(map: &Map<String, Value>) -> bool {
    let status = text(&map["status"]);
    status.is_empty() || PENDING_SMS_STATUSES.contains(&status.as_str())
}

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

/// With one worker and a `--wait` time that the first lookup uses up, the others
/// are never sent: the report names them "not looked up", not "timed out".
#[test]
fn lookups_never_sent_after_the_wait_deadline_are_not_looked_up() {
    let server = TestServer::fixed(Canned::json(200, r#"{"status":"enroute"}"#));
    // From stdin: values on the command line would each get a worker of their own.
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
    let failures = report["failures"].as_array().unwrap();
    assert_eq!(failures.len(), 1, "{report}");
    assert_eq!(failures[0]["failure"], "not looked up", "{report}");
    let not_sent = failures[0]["count"].as_u64().unwrap();
    assert!(not_sent >= 2, "{report}");
    assert_eq!(report["still_pending"].as_u64().unwrap() + not_sent, 3);
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("not looked up: the --wait timeout had passed"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn hlr_report_counts_statuses_networks_and_flags() {
    let server = server(Kind::Hlr);
    let (report, _) = report_of(&server.base, "hlr", &[]);
    let records = records(Kind::Hlr);
    let found = records.len() as u64;
    assert_eq!(report["records"], found);
    let mut statuses: HashMap<String, u64> = HashMap::new();
    for (_, map) in &records {
        *statuses.entry(text(&map["status"])).or_default() += 1;
    }
    for entry in report["statuses"].as_array().unwrap() {
        assert_share(entry, statuses[entry["status"].as_str().unwrap()], found);
    }
    for flag in ["ported", "roaming"] {
        let said: Vec<bool> = records
            .iter()
            .filter_map(|(_, map)| map.get("details")?.get(flag).map(|f| text(f) == "1"))
            .collect();
        let yes = said.iter().filter(|y| **y).count() as u64;
        assert_eq!(report[flag]["yes"], yes, "{flag}");
        assert_eq!(report[flag]["of"], said.len() as u64, "{flag}");
        let share = report[flag]["share"].as_f64().unwrap();
        assert!((share - yes as f64 / said.len() as f64).abs() < 0.0005);
    }
    assert_networks(&report["networks"], &records);
}

/// Networks are counted by code (the same code comes with the server's `name_en`
/// on some records and without it on others): the ten commonest codes, each once
/// with its own count, then "(other)" with the rest.
fn assert_networks(listed: &Value, records: &[(u64, Map<String, Value>)]) {
    let mut by_code: HashMap<String, u64> = HashMap::new();
    for (_, map) in records {
        let code = map.get("network").map(text).unwrap_or_default();
        if !code.is_empty() {
            *by_code.entry(code).or_default() += 1;
        }
    }
    let with_network: u64 = by_code.values().sum();
    let mut expected: Vec<(u64, String)> = by_code.iter().map(|(c, n)| (*n, c.clone())).collect();
    expected.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    assert!(
        expected.len() > 10,
        "the data should need an (other): {expected:?}"
    );
    let listed = listed.as_array().unwrap();
    assert_eq!(listed.len(), 11, "top 10 and other: {listed:?}");
    for (entry, (count, code)) in listed.iter().take(10).zip(&expected) {
        assert_eq!(entry["code"], *code, "{listed:?}");
        assert_share(entry, *count, with_network);
    }
    let rest: u64 = expected.iter().skip(10).map(|(n, _)| n).sum();
    assert_eq!(listed[10]["network"], "(other)");
    assert_share(&listed[10], rest, with_network);
}

#[test]
fn task_report_sums_counters_and_names_the_lowest_rates() {
    let server = server(Kind::Task);
    let (report, _) = report_of(&server.base, "task", &[]);
    let records = records(Kind::Task);
    let count = |map: &Map<String, Value>, key: &str| map.get(key).map_or(0, |v| number(v) as i64);
    let sum = |key: &str| records.iter().map(|(_, m)| count(m, key)).sum::<i64>();
    let tasks = &report["tasks"];
    assert_eq!(tasks["messages"], sum("sent"));
    assert_eq!(tasks["delivered"], sum("delivered"));
    let finals = sum("delivered") + sum("undeliverable") + sum("expired") + sum("unknown");
    assert_eq!(tasks["pending"], sum("sent") - finals);
    let rate = sum("delivered") as f64 / sum("sent") as f64;
    assert!((tasks["delivery_rate"].as_f64().unwrap() - rate).abs() < 0.0005);
    let lowest = records
        .iter()
        .filter(|(_, m)| count(m, "sent") > 0)
        .map(|(id, m)| (count(m, "delivered") as f64 / count(m, "sent") as f64, *id))
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
        .unwrap();
    assert_eq!(
        report["lowest_delivery_rate"][0]["query"],
        lowest.1.to_string()
    );
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

#[test]
fn a_wait_report_tells_the_time_until_final_and_what_was_still_pending() {
    let sim = SimServer::start(SimOptions {
        settle: Duration::from_secs(3600),
        ..SimOptions::demo()
    })
    .unwrap();
    let base = sim.base_url();
    // An hour to settle: nearly every record is still pending at a 300 ms deadline.
    let out = smsstat_at(&base)
        .args(["--wait", "--wait-timeout", "300ms", "--interval", "100ms"])
        .args(["-o", "report-json", "sms", "101", "102", "103", "0"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let wait = &report["wait"];
    let pending = wait["pending_at_deadline"].as_u64().unwrap();
    let final_count = wait["until_final_ms"]["count"].as_u64().unwrap();
    assert_eq!(pending + final_count, 3, "{report}");
    assert!(pending >= 2, "{report}");
}

fn junit_cases(path: &std::path::Path) -> (usize, usize, usize, String) {
    let xml = std::fs::read_to_string(path).unwrap();
    let document = roxmltree::Document::parse(&xml).expect("valid XML");
    let suite = document
        .descendants()
        .find(|n| n.has_tag_name("testsuite"))
        .unwrap();
    let cases = suite
        .children()
        .filter(|n| n.has_tag_name("testcase"))
        .count();
    let failures = suite
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .count();
    let declared: usize = suite.attribute("failures").unwrap().parse().unwrap();
    assert_eq!(suite.attribute("tests").unwrap(), cases.to_string());
    (cases, failures, declared, xml)
}

#[test]
fn junit_has_a_case_per_lookup_and_a_failure_per_problem() {
    let server = server(Kind::Sms);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("smoke.xml");
    let ids: Vec<u64> = (1..=200).collect();
    let path_text = path.to_str().unwrap();
    let (out, _) = run_batch(
        &server.base,
        &[
            "--json",
            "--junit",
            path_text,
            "--expect",
            "delivered",
            "sms",
            "-",
        ],
        &ids,
        Duration::from_secs(60),
    );
    let failing = |id: &u64| match answer(Kind::Sms, *id) {
        Answer::NotFound => Some(20),
        Answer::Unavailable => Some(69),
        Answer::Record(map) => (map["status"] != "delivered").then_some(80),
    };
    // The batch rule: the exit code of the first failure in input order.
    assert_eq!(out.status.code(), ids.iter().find_map(failing));
    let failed = ids
        .iter()
        .filter(|id| match answer(Kind::Sms, **id) {
            Answer::Record(map) => map["status"] != "delivered",
            _ => true,
        })
        .count();
    let (cases, failures, declared, xml) = junit_cases(&path);
    assert_eq!(cases, 200);
    assert_eq!((failures, declared), (failed, failed));
    assert!(xml.contains(r#"<testcase classname="smsstat.sms" name="sms 1" time=""#));
    assert!(xml.contains(r#"type="exit 80""#), "{xml}");
    assert!(xml.contains(r#"type="exit 20""#), "{xml}");
    // Only the document is left behind.
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(left.len(), 1);
}

#[test]
fn junit_is_escaped_and_never_holds_the_key() {
    let key = "k3y-Zm9vYmFyYmF6cXV4";
    let server = TestServer::fixed(Canned::json(
        200,
        &format!(r#"{{"error":21,"errorDescription":"bad <x> & \"{key}\" \u0001 \u202e"}}"#),
    ));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.xml");
    let out = smsstat_at(&server.base)
        .env("SMSSTAT_API_KEY", key)
        .args(["--junit", path.to_str().unwrap(), "sms", "1", "2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(21));
    let (cases, failures, _, xml) = junit_cases(&path);
    assert_eq!((cases, failures), (2, 2));
    assert!(!xml.contains(key), "{xml}");
    assert!(!xml.contains('\u{202e}'), "{xml}");
}

#[test]
fn an_unwritable_junit_path_is_refused_before_any_lookup() {
    let server = server(Kind::Sms);
    let out = smsstat_at(&server.base)
        .args(["--junit", "/nonexistent-dir/out.xml", "sms", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(78));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write the JUnit file"));
    assert!(server.urls().is_empty());
}

/// Peak resident KiB of a `-o report-json` run over IDs 1..=n, and its report.
fn report_peak(base: &str, n: u64) -> (u64, Value) {
    let (mut child, feeder) = spawn_fed(
        command(base, &["-o", "report-json", "-j", "8", "sms", "-"]),
        1..=n,
    );
    let mut stdout = child.stdout.take().unwrap();
    let reader = thread::spawn(move || {
        let mut text = String::new();
        stdout.read_to_string(&mut text).unwrap();
        text
    });
    let stderr = child.stderr.take().unwrap();
    let drain = thread::spawn(move || BufReader::new(stderr).lines().count());
    let mut peak = 0;
    // Sampling, not synchronisation: VmHWM is a high-water mark, read until exit.
    while child.try_wait().unwrap().is_none() {
        peak = peak.max(peak_rss_kib(child.id()));
        thread::sleep(Duration::from_millis(10));
    }
    feeder.join().unwrap();
    drain.join().unwrap();
    (peak, serde_json::from_str(&reader.join().unwrap()).unwrap())
}

#[test]
fn a_report_over_many_lookups_keeps_memory_flat() {
    let sim = SimServer::start(SimOptions::demo()).unwrap();
    let base = sim.base_url();
    let (small, report) = report_peak(&base, 2_000);
    assert_eq!(report["lookups"], 2_000);
    let (large, report) = report_peak(&base, 20_000);
    assert_eq!(report["lookups"], 20_000);
    assert_eq!(report["send_latency_s"]["count"], 20_000);
    assert!(small > 0, "no memory reading");
    // Ten times the lookups, the same memory: nothing is kept per lookup.
    assert!(large < small + 2048, "peak {small} KiB, then {large} KiB");
}
