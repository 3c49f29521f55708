//! Batches: many values and stdin, order under concurrency, one line per input under
//! faults, the exit-code rule, long tables in pages, no progress bar in a pipe, and
//! Ctrl-C.

use std::process::Stdio;
use std::time::Duration;

use crate::common::answers::{faulty, record_for, value_of};
use crate::common::process::{command, Live, Signal, Stream};
use crate::common::{json_line, json_lines, run_batch, smsstat_at, Gate, TestServer};
use predicates::prelude::*;
use serde_json::Value;

/// A bound on a batch run, far above what it takes.
const LIMIT: Duration = Duration::from_secs(60);

/// A small deterministic hash, for server delays and faults that vary by ID.
fn spread(id: &str) -> u64 {
    id.bytes().fold(1469598103934665603u64, |h, b| {
        (h ^ b as u64).wrapping_mul(1099511628211)
    })
}

#[test]
fn values_from_arguments_and_stdin_in_order() {
    let server = TestServer::start(record_for);
    let out = smsstat_at(&server.base)
        .args(["--json", "sms", "7", "-", "9"])
        .write_stdin("1\n\n# a comment\n  2  \n3")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let ids: Vec<Value> = json_lines(&out).iter().map(|l| l["id"].clone()).collect();
    assert_eq!(ids, ["7", "1", "2", "3", "9"]);
}

#[test]
fn order_is_kept_under_concurrency_with_random_latency() {
    let server = TestServer::start(|url| {
        std::thread::sleep(Duration::from_millis(spread(url) % 15));
        record_for(url)
    });
    let values: Vec<u64> = (1..=300).collect();
    let (out, _) = run_batch(
        &server.base,
        &["--json", "-j", "8", "sms", "-"],
        &values,
        LIMIT,
    );
    assert_eq!(out.status.code(), Some(0));
    let ids: Vec<u64> = json_lines(&out.stdout)
        .iter()
        .map(|l| l["id"].as_str().unwrap().parse().unwrap())
        .collect();
    assert_eq!(ids, values);
}

#[test]
fn exactly_one_line_per_input_under_faults() {
    let server = TestServer::start(faulty);
    let values: Vec<u64> = (1..=200).collect();
    let args = ["--json", "--normalize", "sms", "-"];
    let (out, _) = run_batch(&server.base, &args, &values, LIMIT);
    let records = json_lines(&out.stdout);
    assert_eq!(records.len(), 200);
    for (i, record) in records.iter().enumerate() {
        let id = i as u64 + 1;
        assert_eq!(record["query"], id.to_string(), "{record}");
        let expected = [20, 69, 65, 0, 0][(id % 5) as usize];
        assert_eq!(record["error"], expected, "{record}");
    }
    // First failure in input order: 1 → 503 → 69.
    assert_eq!(out.status.code(), Some(69));
}

#[test]
fn exit_code_is_the_first_failure_in_input_order() {
    let server = TestServer::start(faulty);
    smsstat_at(&server.base)
        .args(["sms", "3", "5", "6"])
        .assert()
        .code(20);
    smsstat_at(&server.base)
        .args(["sms", "3", "6", "5"])
        .assert()
        .code(69);
    smsstat_at(&server.base)
        .args(["sms", "3", "4", "8"])
        .assert()
        .success();
}

#[test]
fn local_failures_in_json_have_the_documented_shape() {
    let server = TestServer::start(faulty);
    let out = smsstat_at(&server.base)
        .args(["--json", "sms", "6"])
        .output()
        .unwrap();
    let line = json_line(&out.stdout);
    assert_eq!(line["error"], 69);
    assert_eq!(line["query"], "6");
    assert_eq!(line["source"], "smsstat");
    assert!(line["errorDescription"].as_str().unwrap().contains("503"));
}

#[test]
fn no_progress_bar_or_summary_in_a_pipe() {
    let server = TestServer::start(|url| {
        std::thread::sleep(Duration::from_millis(25));
        record_for(url)
    });
    let values: Vec<String> = (1..=100).map(|i| i.to_string()).collect();
    let out = smsstat_at(&server.base)
        .args(["-j", "2", "--json", "sms"])
        .args(&values)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "",
        "stderr must stay empty in a pipe"
    );
    smsstat_at(&server.base)
        .args(["-v", "sms", "1", "2"])
        .assert()
        .success()
        .stderr(predicate::str::contains("2 ok"));
}

#[test]
fn ctrl_c_flushes_finished_lookups_in_order_and_exits_130() {
    // Value 2 is answered; 1 and every value from 3 on are held until the run is
    // over. So 2 finishes behind 1, and waits for it.
    let hold = Gate::new();
    let held = hold.clone();
    let server = TestServer::start(move |url| {
        if value_of(url) != "2" {
            held.wait();
        }
        record_for(url)
    });
    // Stdin stays open: without Ctrl-C the batch would never end.
    let mut cmd = command(&server.base, &["--json", "-j", "2", "sms", "-"]);
    cmd.stdin(Stdio::piped());
    let mut live = Live::spawn(cmd);
    let input: String = (1..=50).map(|i| format!("{i}\n")).collect();
    live.write_stdin(&input);
    // Ctrl-C once 1, 2 and 3 were asked for: 2 is done, and the two workers hold 1
    // and 3, none free to begin another.
    server.wait_for_requests(3);
    live.signal(Signal::Int);
    let ended = live.finish();
    hold.open();
    assert_eq!(ended.code, Some(130), "{}", ended.stderr);
    // In input order: the finished lookup's record, and the lookups under way told
    // interrupted; the values never begun have no line: a prefix of the input.
    let lines = ended.json_lines();
    let values: Vec<(Option<&str>, Option<&str>)> = lines
        .iter()
        .map(|l| (l["id"].as_str(), l["query"].as_str()))
        .collect();
    assert_eq!(
        values,
        [(None, Some("1")), (Some("2"), None), (None, Some("3"))],
        "{lines:?}"
    );
    assert!(
        [&lines[0], &lines[2]].iter().all(|l| l["error"] == 130),
        "the lookups under way are interrupted: {lines:?}"
    );
}

#[test]
fn a_runaway_stdin_line_is_refused_without_echoing_it() {
    let server = TestServer::start(record_for);
    let input = format!("1\n{}\n2\n", "x".repeat(5 * 1024 * 1024));
    let out = smsstat_at(&server.base)
        .args(["--json", "sms-ref", "-"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
    assert!(
        out.stderr.len() < 1000,
        "stderr echoes the line: {} bytes",
        out.stderr.len()
    );
    let records = json_lines(&out.stdout);
    assert_eq!(records.len(), 3);
    assert_eq!(records[1]["error"], 64);
    assert!(records[1]["query"].as_str().unwrap().len() < 100);
    assert_eq!(
        (records[0]["id"].as_str(), records[2]["id"].as_str()),
        (Some("1"), Some("2"))
    );
    assert_eq!(server.urls().len(), 2, "the long line is never sent");
}

#[test]
fn stdin_is_streamed_results_come_before_it_ends() {
    let server = TestServer::start(record_for);
    let mut cmd = command(&server.base, &["--json", "sms", "-"]);
    cmd.stdin(Stdio::piped());
    let mut live = Live::spawn(cmd);
    live.write_stdin("41\n");
    // stdin is still open: the first result must arrive anyway.
    let first = live.wait_for(Stream::Stdout, |_| true);
    assert_eq!(json_line(&first)["id"], "41");
    live.write_stdin("42\n");
    live.close_stdin();
    let ended = live.finish();
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    let ids: Vec<Value> = ended.json_lines().iter().map(|l| l["id"].clone()).collect();
    assert_eq!(ids, ["41", "42"]);
}

#[test]
fn long_table_output_comes_in_pages() {
    let server = TestServer::start(record_for);
    let values: Vec<u64> = (1..=1200).collect();
    let (out, _) = run_batch(&server.base, &["sms", "-"], &values, LIMIT);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    // 500 + 500 + 200 rows: three tables, each with its header.
    assert_eq!(text.matches("Query").count(), 3);
    assert!(text.contains("│ 1200 "), "the last row is there");
}

#[test]
fn a_bom_at_the_start_of_stdin_is_not_part_of_the_first_value() {
    let server = TestServer::start(record_for);
    let out = smsstat_at(&server.base)
        .args(["--json", "sms-ref", "-"])
        .write_stdin("\u{feff}first\nsecond\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let ids: Vec<Value> = json_lines(&out.stdout)
        .iter()
        .map(|l| l["id"].clone())
        .collect();
    assert_eq!(ids, ["first", "second"]);
    assert!(server.urls().iter().all(|u| !u.contains("%EF%BB%BF")));
}

#[test]
fn an_unreadable_stdin_is_one_failure_and_the_end_of_the_input() {
    let server = TestServer::start(record_for);
    // Reading a directory fails (EISDIR) every time: it must not loop for ever.
    let dir = std::fs::File::open(env!("CARGO_MANIFEST_DIR")).unwrap();
    let out = crate::common::process::command(&server.base, &["--json", "sms", "1", "-"])
        .stdin(Stdio::from(dir))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
    let printed = json_lines(&out.stdout);
    assert_eq!(printed.len(), 2, "{printed:?}");
    assert_eq!(printed[0]["id"], "1");
    let reason = printed[1]["errorDescription"].as_str().unwrap();
    assert!(reason.starts_with("cannot read stdin"), "{reason}");
    assert!(server.urls().len() == 1);
}
