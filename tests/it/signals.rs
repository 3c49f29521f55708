//! Ctrl-C, and SIGTERM and SIGHUP (what `timeout`, CI cancellation and `docker stop`
//! send) like it, stop a batch: finished lookups are printed in input order, a lookup still
//! running gets its "interrupted" line, and the exit code is 128 + the signal.

use std::process::Stdio;

use crate::common::answers::value_of;
use crate::common::process::{command, Ended, Live, Signal};
use crate::common::{Canned, Gate, TestServer};
use serde_json::Value;

/// A server whose `/hang` answers only once `hung` is opened.
fn server(hung: &Gate) -> TestServer {
    let hung = hung.clone();
    TestServer::start(move |url| {
        if url.ends_with("/hang") {
            hung.wait();
        }
        let id = value_of(url);
        Canned::json(200, &format!(r#"{{"id":"{id}","status":"delivered"}}"#))
    })
}

/// Starts a batch of four lookups, the second of which hangs, and sends `signal`
/// once the server has been asked all four; how the process ended.
fn signalled(signal: Signal, output: &[&str]) -> Ended {
    let hung = Gate::new();
    let server = server(&hung);
    let mut args = output.to_vec();
    args.extend(["-j", "4", "sms-ref", "a", "hang", "c", "d"]);
    let mut cmd = command(&server.base, &args);
    cmd.stdin(Stdio::null());
    let mut live = Live::spawn(cmd);
    server.wait_for_requests(4);
    live.signal(signal);
    let ended = live.finish();
    hung.open();
    ended
}

/// Every value has its JSON line in input order; the hung one is "interrupted", with
/// the run's own exit code (130, 143 or 129 by the signal).
fn assert_in_order_with_the_hung_one_interrupted(ended: &Ended) {
    let lines = ended.json_lines();
    assert_eq!(lines.len(), 4, "{}", ended.stdout);
    assert_eq!(lines[0]["id"], "a");
    assert_eq!(
        (lines[1]["query"].as_str(), lines[1]["error"].as_i64()),
        (Some("hang"), ended.code.map(i64::from))
    );
    assert_eq!(
        (lines[2]["id"].as_str(), lines[3]["id"].as_str()),
        (Some("c"), Some("d"))
    );
}

#[test]
fn ctrl_c_prints_every_line_in_order_and_exits_130() {
    let ended = signalled(Signal::Int, &["--json"]);
    assert_eq!(ended.code, Some(130), "{}", ended.stderr);
    assert_in_order_with_the_hung_one_interrupted(&ended);
}

#[test]
fn sigterm_prints_every_line_in_order_and_exits_143() {
    let ended = signalled(Signal::Term, &["--json"]);
    assert_eq!(ended.code, Some(143), "{}", ended.stderr);
    assert_in_order_with_the_hung_one_interrupted(&ended);
}

#[test]
fn sigterm_with_table_output_prints_the_table() {
    let ended = signalled(Signal::Term, &[]);
    let stdout = &ended.stdout;
    assert_eq!(ended.code, Some(143), "{stdout}");
    let rows: Vec<&str> = stdout
        .lines()
        .filter(|l| {
            ["a", "hang", "c", "d"]
                .iter()
                .any(|q| l.contains(&format!(" {q} ")))
        })
        .collect();
    assert_eq!(rows.len(), 4, "{stdout}");
    assert!(rows[1].contains("interrupted"), "{stdout}");
}

#[test]
fn sighup_exits_129() {
    let ended = signalled(Signal::Hup, &["-o", "csv"]);
    let stdout = &ended.stdout;
    assert_eq!(ended.code, Some(129), "{stdout}");
    // The header and one row per value.
    assert_eq!(stdout.lines().count(), 5, "{stdout}");
    let hung = stdout.lines().nth(2).unwrap();
    assert!(
        hung.contains("interrupted") && hung.contains(",129,"),
        "{stdout}"
    );
}

#[test]
fn sigterm_with_a_report_prints_the_report_and_writes_the_junit_file() {
    let dir = tempfile::tempdir().unwrap();
    let junit = dir.path().join("smoke.xml");
    let junit_text = junit.to_str().unwrap().to_string();
    let ended = signalled(Signal::Term, &["-o", "report-json", "--junit", &junit_text]);
    assert_eq!(ended.code, Some(143), "{}", ended.stdout);
    let report: Value = serde_json::from_str(&ended.stdout).unwrap();
    assert_eq!(report["lookups"], 4, "{report}");
    assert_eq!(report["records"], 3, "{report}");
    assert_eq!(report["failures"][0]["failure"], "interrupted", "{report}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert_eq!(xml.matches("<testcase ").count(), 4, "{xml}");
    assert_eq!(xml.matches("type=\"exit 143\"").count(), 1, "{xml}");
}

/// A `--wait` report stopped by SIGTERM: the two lookups still waiting are counted
/// as interrupted, not as final (no time until final for them) and not as pending at
/// a deadline that never came.
#[test]
fn sigterm_during_a_wait_report_counts_the_waiting_lookups_as_interrupted() {
    let server = TestServer::start(move |url| {
        let id = value_of(url);
        let status = if id == "done" { "delivered" } else { "enroute" };
        Canned::json(200, &format!(r#"{{"id":"{id}","status":"{status}"}}"#))
    });
    let mut args = vec!["-o", "report-json", "--wait", "--interval", "100ms"];
    args.extend(["-j", "3", "sms-ref", "a", "b", "done"]);
    let mut live = Live::spawn(command(&server.base, &args));
    // A second poll of each waiting one: its first answer was seen and kept.
    for id in ["/a", "/b"] {
        server.wait_for_urls(2, |url| url.ends_with(id));
    }
    live.signal(Signal::Term);
    let ended = live.finish();
    assert_eq!(ended.code, Some(143), "{}", ended.stderr);
    let report: Value = serde_json::from_str(&ended.stdout).unwrap();
    assert_eq!(report["records"], 3, "{report}");
    assert_eq!(report["wait"]["until_final_ms"]["count"], 1, "{report}");
    assert_eq!(report["wait"]["pending_at_deadline"], 0, "{report}");
    assert_eq!(report["interrupted"], 2, "{report}");
    assert_eq!(report["still_pending"], 0, "{report}");
}

/// The summary line a signal leaves on stderr (told with -v, as on a terminal).
fn interrupted_summary(ended: &Ended) -> &str {
    ended
        .stderr
        .lines()
        .rfind(|l| l.starts_with("smsstat: interrupted:"))
        .unwrap_or_else(|| panic!("no summary:\n{}", ended.stderr))
}

#[test]
fn the_summary_after_a_signal_counts_done_interrupted_and_not_started() {
    let ended = signalled(Signal::Int, &["-v", "--json"]);
    assert_eq!(
        interrupted_summary(&ended),
        "smsstat: interrupted: 3 done, 1 interrupted, 0 not started"
    );
}

#[test]
fn the_summary_after_a_signal_says_the_rest_of_stdin_was_not_started() {
    let hung = Gate::new();
    let server = server(&hung);
    let mut cmd = command(&server.base, &["-v", "-j", "2", "sms-ref", "-"]);
    cmd.stdin(Stdio::piped());
    let mut live = Live::spawn(cmd);
    // Stdin stays open: how many values are left is not known.
    live.write_stdin("a\nhang\n");
    server.wait_for_requests(2);
    live.signal(Signal::Int);
    let ended = live.finish();
    hung.open();
    assert_eq!(ended.code, Some(130), "{}", ended.stderr);
    assert_eq!(
        interrupted_summary(&ended),
        "smsstat: interrupted: 1 done, 1 interrupted, not started: the rest of stdin"
    );
}

#[test]
fn lookups_that_only_waited_for_their_rate_turn_are_not_started() {
    // One request a second: the first lookup is answered, those begun behind it
    // wait for their turns in the queue. Ctrl-C then: they never sent a request,
    // so they are not started (output ends before them), not lines of errors.
    let server = TestServer::start(|url| {
        Canned::json(
            200,
            &format!(
                r#"{{"error":0,"sms_id":{},"status":"delivered"}}"#,
                value_of(url)
            ),
        )
    });
    let ids: Vec<String> = (1..=40).map(|i| i.to_string()).collect();
    // One job: value 1 begins first and takes the one turn.
    let mut args = vec!["-j", "1", "--rate", "1/m", "--json", "sms"];
    args.extend(ids.iter().map(String::as_str));
    let mut live = Live::spawn(command(&server.base, &args));
    live.wait_for(crate::common::process::Stream::Stdout, |_| true);
    live.signal(Signal::Int);
    let ended = live.finish();
    assert_eq!(ended.code, Some(130), "{}", ended.stderr);
    assert_eq!(ended.json_lines().len(), 1, "{}", ended.stdout);
    assert!(!ended.stderr.contains("interrupted"), "{}", ended.stderr);
    assert_eq!(server.urls().len(), 1);
}
