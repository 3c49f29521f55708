//! `-o report-json`: aggregates over a batch of the simulator's records, checked
//! against figures computed here, independently, from the same records (the
//! simulator's data is a pure function of the kind and the ID); and flat memory.
//! The forms and verdicts are in `report_forms.rs`, `--junit` in `junit.rs`.

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::ops::RangeInclusive;
use std::process::{ChildStdin, Stdio};
use std::thread;
use std::time::{Duration, SystemTime};

use crate::common::answers::value_of;
use crate::common::mixed::{is_pending, records, server, text, IDS};
use crate::common::process::{command, finish, peak_rss_kib};
use crate::common::{run_batch, smsstat_at, Canned, TestServer};
use serde_json::{Map, Value};
use smsstat::testkit::{sim_record, start_sim, Kind, SimOptions};

fn report_of(base: &str, kind: &str, extra: &[&str]) -> (Value, i32) {
    let ids: Vec<u64> = (1..=IDS).collect();
    let mut args = vec!["-o", "report-json", "-j", "8"];
    args.extend(extra);
    args.extend([kind, "-"]);
    let (out, _) = run_batch(base, &args, &ids, Duration::from_secs(120));
    let report = serde_json::from_slice(&out.stdout).expect("one JSON report");
    (report, out.status.code().unwrap_or(-1))
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

/// The total price per currency, summed here from the records.
fn assert_prices(totals: &Value, records: &[(u64, Map<String, Value>)]) {
    let mut prices: BTreeMap<String, f64> = BTreeMap::new();
    for (_, map) in records {
        *prices.entry(text(&map["currency"])).or_default() += number(&map["price"]);
    }
    let totals = totals.as_array().unwrap();
    assert_eq!(totals.len(), prices.len());
    for (entry, (currency, total)) in totals.iter().zip(&prices) {
        assert_eq!(entry["currency"], *currency);
        assert!(
            (number(&entry["total"]) - total).abs() < 1e-6,
            "{entry} vs {total}"
        );
    }
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

    assert_prices(&report["prices"], &records);

    let oldest = records
        .iter()
        .filter(|(_, map)| is_pending(map))
        .min_by_key(|(id, map)| (seconds(map.get("time_in")), *id))
        .unwrap();
    assert_eq!(report["oldest_pending"][0]["query"], oldest.0.to_string());
    assert_eq!(report["slowest"].as_array().unwrap().len(), 5);
    assert_eq!(report["lookup_ms"]["count"], IDS);
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
fn a_wait_report_tells_the_time_until_final_and_what_was_still_pending() {
    let sim = start_sim(SimOptions {
        settle: Duration::from_secs(3600),
        ..SimOptions::default()
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

/// Writes `ids`, one a line, to `stdin` on a thread of its own; the thread gives
/// stdin back (still open) once they are written.
fn feed(mut stdin: ChildStdin, ids: RangeInclusive<u64>) -> thread::JoinHandle<ChildStdin> {
    thread::spawn(move || {
        let text: String = ids.map(|id| format!("{id}\n")).collect();
        stdin.write_all(text.as_bytes()).expect("write the IDs");
        stdin
    })
}

#[test]
fn a_report_over_many_lookups_keeps_memory_flat() {
    const FIRST: u64 = 2_000;
    const ALL: u64 = 20_000;
    // The simulator's settled SMS records, from a server that counts requests.
    let server = TestServer::start(|url| {
        let id = value_of(url).parse().expect("an SMS ID");
        let record = sim_record(Kind::Sms, id, 1.0, &SimOptions::default());
        Canned::json(200, &Value::Object(record).to_string())
    });
    // Two workers: each thread's malloc arena grows when it first does work, and
    // with eight the arenas still warming up between the two readings (a matter of
    // scheduling, more so on a busy machine) looked like growth per lookup.
    let mut cmd = command(&server.base, &["-o", "report-json", "-j", "2", "sms", "-"]);
    let mut child = cmd.stdin(Stdio::piped()).spawn().expect("spawn the binary");
    // The peak (VmHWM, a high-water mark) read at two events of one run, stdin held
    // open so that the run is still there: once the first 2,000 lookups have reached
    // the server, then once all 20,000 have.
    let stdin = feed(child.stdin.take().unwrap(), 1..=FIRST);
    server.wait_for_requests(FIRST as usize);
    let small = peak_rss_kib(child.id());
    let stdin = feed(stdin.join().unwrap(), FIRST + 1..=ALL);
    server.wait_for_requests(ALL as usize);
    let large = peak_rss_kib(child.id());
    drop(stdin.join().unwrap());
    let ended = finish(child);
    let report: Value = serde_json::from_str(&ended.stdout).expect("one JSON report");
    assert_eq!(report["lookups"], ALL);
    assert_eq!(report["send_latency_s"]["count"], ALL);
    assert!(small > 0, "no memory reading");
    // Ten times the lookups, the same memory: nothing is kept per lookup (18,000
    // lookups more: 60 bytes each would be over the MiB allowed; one run grows by
    // about 100 KiB, allocator arenas and the histograms' buckets).
    assert!(large < small + 1024, "peak {small} KiB, then {large} KiB");
}
