//! `--wait` and `--follow` against the simulator, whose records move from pending to
//! final within `--settle` of its start: timeouts, polls, Ctrl-C.

use std::io::Read;
use std::process::Stdio;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::common::answers::value_of;
use crate::common::process::{command, signal_when, Live, Signal, Stream};
use crate::common::settling::{late_ids, sim, status};
use crate::common::sim::PENDING_SMS_STATUSES;
use crate::common::{
    json_line, json_lines, run_batch, smsstat_at, Arrivals, Canned, Gate, RawServer, TestServer,
};
use predicates::prelude::*;
use serde_json::Value;

/// What the simulator shows before a record settles.
use PENDING_SMS_STATUSES as PENDING;

#[test]
fn wait_reaches_the_final_status() {
    let (id, _) = late_ids(|s| s == "delivered")
        .into_iter()
        .next()
        .expect("an SMS that will be delivered");
    let server = sim(Duration::from_secs(2));
    smsstat_at(&server.base_url())
        .args([
            "--wait",
            "--interval",
            "100ms",
            "--expect",
            "delivered",
            "sms",
            &id,
        ])
        .timeout(Duration::from_secs(20))
        .assert()
        .success()
        .stdout(predicate::str::contains("delivered"));
}

#[test]
fn wait_times_out_while_pending_with_81() {
    let (id, _) = late_ids(|_| true).into_iter().next().expect("an SMS");
    let server = sim(Duration::from_secs(3600));
    let started = Instant::now();
    smsstat_at(&server.base_url())
        .args([
            "--wait",
            "--wait-timeout",
            "800ms",
            "--interval",
            "100ms",
            "sms",
            &id,
        ])
        .timeout(Duration::from_secs(20))
        .assert()
        .code(81)
        .stderr(
            predicate::str::contains(format!("sms {id}: still pending"))
                // The whole --wait-timeout, not the few ms short the clock shows.
                .and(predicate::str::contains("after waiting 800ms")),
        );
    // Not before its --wait-timeout; and not far past it (ten times it, a bound that
    // no loaded machine reaches, where a wait that ignored it would poll for the
    // hour the records take to settle).
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(800) && took < Duration::from_secs(8),
        "took {took:?}"
    );
}

#[test]
fn batch_wait_ends_when_every_lookup_is_final() {
    let ids: Vec<String> = late_ids(|_| true)
        .into_iter()
        .take(4)
        .map(|(id, _)| id)
        .collect();
    assert!(ids.len() >= 2, "need late-settling SMS");
    let server = sim(Duration::from_secs(2));
    let mut args = vec!["--json", "--wait", "--interval", "100ms", "sms"];
    args.extend(ids.iter().map(String::as_str));
    let out = smsstat_at(&server.base_url())
        .args(&args)
        .timeout(Duration::from_secs(20))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = json_lines(&out.stdout);
    assert_eq!(lines.len(), ids.len());
    for (line, id) in lines.iter().zip(&ids) {
        assert_eq!(line["reference"], format!("ref-{id}"));
        assert!(!PENDING.contains(&status(line).as_str()), "{line}");
    }
}

#[test]
fn follow_prints_a_line_per_change() {
    let (id, final_status) = late_ids(|_| true).into_iter().next().unwrap();
    let server = sim(Duration::from_secs(2));
    let out = smsstat_at(&server.base_url())
        .args([
            "--wait",
            "--follow",
            "--normalize",
            "--interval",
            "100ms",
            "sms",
            &id,
        ])
        .timeout(Duration::from_secs(20))
        .output()
        .unwrap();
    let lines = json_lines(&out.stdout);
    assert!(lines.len() >= 2, "{lines:?}");
    assert!(
        PENDING.contains(&status(&lines[0]).as_str()),
        "{}",
        lines[0]
    );
    assert_eq!(status(lines.last().unwrap()), final_status);
    assert!(lines.iter().all(|l| l["query"] == id.as_str()));
    assert!(
        lines.windows(2).all(|w| w[0] != w[1]),
        "only changes are printed"
    );
}

#[test]
fn follow_interval_and_wait_timeout_need_wait() {
    for flag in [
        &["--follow"][..],
        &["--interval", "1s"],
        &["--wait-timeout", "1m"],
    ] {
        smsstat_at("http://127.0.0.1:9")
            .args(flag)
            .args(["sms", "1"])
            .assert()
            .code(64);
    }
}

/// Ctrl-C during `--wait --json -v` on `sms ID`, sent once a line of the trace
/// satisfies `ready`: it exits 130 and tells it was interrupted; the last state seen,
/// its one line of output.
fn interrupt_wait(base: &str, id: &str, ready: impl FnMut(&str) -> bool) -> Value {
    let args = ["-v", "--json", "--wait", "--interval", "100ms", "sms", id];
    let ended = signal_when(
        command(base, &args),
        None,
        Stream::Stderr,
        ready,
        Signal::Int,
    );
    assert_eq!(ended.code, Some(130), "{}", ended.stderr);
    assert!(
        ended.stderr.contains("interrupted; last seen"),
        "{}",
        ended.stderr
    );
    json_line(&ended.stdout)
}

#[test]
fn ctrl_c_during_a_wait_prints_the_last_state_and_exits_130() {
    let (id, _) = late_ids(|_| true).into_iter().next().unwrap();
    let server = sim(Duration::from_secs(3600));
    // The first answer seen on the trace means the wait is under way.
    let last = interrupt_wait(&server.base_url(), &id, |l| l.contains("200 OK"));
    assert!(PENDING.contains(&status(&last).as_str()), "{last}");
}

#[test]
fn wait_timeout_binds_requests_in_flight_too() {
    // A server that reads the request and never answers: each poll would take the
    // whole --timeout (30 s); the wait must still end at its own (1 s).
    let server = RawServer::start(|mut stream| {
        // Held until the client closes it.
        let _ = stream.read(&mut [0u8; 1]);
    });
    let started = Instant::now();
    smsstat_at(&server.base)
        .args([
            "--timeout",
            "30s",
            "--wait",
            "--wait-timeout",
            "1s",
            "sms",
            "1",
        ])
        .timeout(Duration::from_secs(60))
        .assert()
        .code(75);
    let took = started.elapsed();
    // The poll was under way when the wait ended.
    server.wait_for_requests(1, |line| line.starts_with("GET "));
    // Ten times the --wait-timeout, a third of the --timeout.
    assert!(took < Duration::from_secs(10), "took {took:?}");
}

#[test]
fn the_deadline_ends_the_run_whatever_stdin_does() {
    // Ten values watched by two workers, never final, and a stdin its producer
    // keeps open: the one deadline of the run ends it. The lines come then, and
    // what was never read is said once; the run does not wait for the next line.
    let server = pending_forever();
    let args = [
        "-j",
        "2",
        "--wait",
        "--wait-timeout",
        "2s",
        "--interval",
        "100ms",
        "--json",
        "sms",
        "-",
    ];
    let mut cmd = command(&server.base, &args);
    cmd.stdin(Stdio::piped());
    let started = Instant::now();
    let mut live = Live::spawn(cmd);
    let batch: String = (1..=10).map(|id| format!("{id}\n")).collect();
    live.write_stdin(&batch);
    // Stdin stays open until the process has ended.
    let ended = live.finish();
    let took = started.elapsed();
    assert!(took < Duration::from_secs(10), "ended after {took:?}");
    assert_eq!(ended.code, Some(81), "{}", ended.stderr);
    assert_eq!(ended.json_lines().len(), 10);
    assert_eq!(
        ended
            .stderr
            .matches("not started: the rest of stdin")
            .count(),
        1,
        "{}",
        ended.stderr
    );
}

#[test]
fn retry_after_slows_the_polls_down() {
    let polled: Arc<Arrivals<Instant>> = Arrivals::new();
    let log = Arc::clone(&polled);
    let server = TestServer::start(move |_| {
        log.push(Instant::now());
        Canned::text(503, "<html>busy</html>").header("Retry-After", "1")
    });
    smsstat_at(&server.base)
        .args([
            "--wait",
            "--wait-timeout",
            "3s",
            "--interval",
            "100ms",
            "sms",
            "1",
        ])
        .timeout(Duration::from_secs(30))
        .assert()
        .code(69);
    // A 503 is transient: the wait polled again. Honoured, each poll came at least
    // the second asked for after the one before (lower bounds, which load cannot
    // break); doubling from 100 ms alone would have polled after 0.2, 0.4 and 0.8 s.
    let polls = polled.all();
    assert!(polls.len() >= 2, "polls: {polls:?}");
    let gaps: Vec<Duration> = polls.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(
        gaps.iter().all(|gap| *gap >= Duration::from_secs(1)),
        "time between polls: {gaps:?}"
    );
}

#[test]
fn absurd_durations_and_intervals_are_usage_errors() {
    smsstat_at("http://127.0.0.1:9")
        .args(["--wait", "--wait-timeout", "1e19", "sms", "1"])
        .assert()
        .code(64);
    smsstat_at("http://127.0.0.1:9")
        .args(["--wait", "--interval", "0", "sms", "1"])
        .assert()
        .code(64);
    smsstat_at("http://127.0.0.1:9")
        .args(["--until", "delivered", "task", "1"])
        .assert()
        .code(64);
}

#[test]
fn follow_gives_a_failed_lookup_its_line_and_refuses_csv() {
    let server = sim(Duration::ZERO);
    let out = smsstat_at(&server.base_url())
        .args(["--wait", "--follow", "--normalize", "sms", "1000000", "42"])
        .timeout(Duration::from_secs(20))
        .output()
        .unwrap();
    let lines = json_lines(&out.stdout);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines
        .iter()
        .any(|l| l["query"] == "1000000" && l["error"] == 20));
    assert_eq!(out.status.code(), Some(20));
    smsstat_at(&server.base_url())
        .args(["--wait", "--follow", "-o", "csv", "sms", "42"])
        .assert()
        .code(64);
}

#[test]
fn ctrl_c_during_a_poll_in_flight_still_prints_the_last_state() {
    // The first poll is answered; the second is held until the test ends.
    let polls = AtomicUsize::new(0);
    let hang = Gate::new();
    let held = hang.clone();
    let server = TestServer::start(move |_| {
        if polls.fetch_add(1, Ordering::SeqCst) > 0 {
            held.wait();
        }
        Canned::json(200, r#"{"status":"enroute","msisdn":"380501234567"}"#)
    });
    let args = ["--json", "--wait", "--interval", "100ms", "sms", "1"];
    let mut live = Live::spawn(command(&server.base, &args));
    // Ctrl-C once the second poll has reached the server: it is in flight.
    server.wait_for_requests(2);
    live.signal(Signal::Int);
    let ended = live.finish();
    hang.open();
    assert_eq!(ended.code, Some(130), "{}", ended.stderr);
    assert!(
        ended.stderr.contains("interrupted; last seen"),
        "{}",
        ended.stderr
    );
    assert_eq!(json_line(&ended.stdout)["status"], "enroute");
}

#[test]
fn demo_with_wait_shows_records_settling() {
    let (id, final_status) = late_ids(|_| true).into_iter().next().unwrap();
    let out = crate::common::smsstat()
        .args([
            "--demo",
            "--wait",
            "--follow",
            "--normalize",
            "--interval",
            "200ms",
            "sms",
            &id,
        ])
        // The demo's records settle within 4 s: ten times that.
        .timeout(Duration::from_secs(40))
        .output()
        .unwrap();
    assert!(out.status.success());
    let lines = json_lines(&out.stdout);
    assert!(lines.len() >= 2, "{lines:?}");
    assert_eq!(status(lines.last().unwrap()), final_status);
}

/// A server whose every SMS stays queued: counts the requests per value.
fn pending_forever() -> TestServer {
    TestServer::start(|url| sms_record(&value_of(url), "queued"))
}

/// Every value asked at least twice, none "not looked up", exit 81 (still pending).
fn every_value_watched(server: &TestServer, out: &std::process::Output, values: usize) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(81), "{stderr}");
    assert!(!stderr.contains("not looked up"), "{stderr}");
    let lines = json_lines(&out.stdout);
    assert_eq!(lines.len(), values);
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line["status"], "queued", "{line}");
        assert_eq!(line["sms_id"], i + 1, "{line}");
    }
    let urls = server.urls();
    for id in 1..=values {
        let asked = urls
            .iter()
            .filter(|u| u.ends_with(&format!("/{id}")))
            .count();
        assert!(asked >= 2, "value {id} asked {asked} times");
    }
}

#[test]
fn more_values_than_jobs_are_all_watched() {
    let server = pending_forever();
    let ids: Vec<String> = (1..=12).map(|i| i.to_string()).collect();
    let mut args = vec![
        "-j",
        "8",
        "--wait",
        "--wait-timeout",
        "2s",
        "--interval",
        "200ms",
        "--json",
        "sms",
    ];
    args.extend(ids.iter().map(String::as_str));
    let out = smsstat_at(&server.base)
        .args(&args)
        .timeout(Duration::from_secs(30))
        .output()
        .unwrap();
    every_value_watched(&server, &out, 12);
}

#[test]
fn values_from_stdin_are_all_watched_by_few_jobs() {
    let server = pending_forever();
    let ids: Vec<u64> = (1..=40).collect();
    let args = [
        "-j",
        "4",
        "--wait",
        "--wait-timeout",
        "2s",
        "--interval",
        "200ms",
        "--json",
        "sms",
        "-",
    ];
    let (out, _) = run_batch(&server.base, &args, &ids, Duration::from_secs(30));
    every_value_watched(&server, &out, 40);
}

/// A record of value `id` with this status.
fn sms_record(id: &str, status: &str) -> Canned {
    Canned::json(
        200,
        &format!(r#"{{"error":0,"sms_id":{id},"status":"{status}"}}"#),
    )
}

#[test]
fn one_pending_value_before_299_final_ones_holds_no_value_back() {
    // Under --wait every value read is watched: the results held behind the pending
    // first one bound what is printed, never what is read and asked.
    let server = TestServer::start(|url| {
        let id = value_of(url);
        sms_record(&id, if id == "1" { "queued" } else { "delivered" })
    });
    let ids: Vec<String> = (1..=300).map(|i| i.to_string()).collect();
    let mut args = vec![
        "-j",
        "2",
        "--wait",
        "--wait-timeout",
        "3s",
        "--interval",
        "500ms",
        "--json",
        "sms",
    ];
    args.extend(ids.iter().map(String::as_str));
    let out = smsstat_at(&server.base).args(&args).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(81),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = json_lines(&out.stdout);
    assert_eq!(lines.len(), 300);
    assert!(
        lines[1..].iter().all(|l| l["status"] == "delivered"),
        "{lines:?}"
    );
    let asked: std::collections::HashSet<String> =
        server.urls().iter().map(|url| value_of(url)).collect();
    assert_eq!(asked.len(), 300, "every value asked");
}

#[test]
fn a_rate_turn_past_the_deadline_is_not_waited_for() {
    // One request a minute, two seconds to wait: value 1 is asked once, the others'
    // turns lie past the deadline. The run ends at the deadline, not minutes later.
    // One job, so value 1 begins first and takes the one turn.
    let server = pending_forever();
    let started = Instant::now();
    let out = smsstat_at(&server.base)
        .args(["-j", "1", "--rate", "1/m", "--wait", "--wait-timeout", "2s"])
        .args(["--interval", "100ms", "--json", "sms", "1", "2", "3"])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let took = started.elapsed();
    assert!(took < Duration::from_secs(10), "ended after {took:?}");
    assert_eq!(
        out.status.code(),
        Some(81),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = json_lines(&out.stdout);
    assert_eq!(lines.len(), 3);
    assert_eq!(
        lines[0]["status"], "queued",
        "value 1 keeps the record seen"
    );
    assert_eq!(server.urls().len(), 1, "{:?}", server.urls());
}

#[test]
fn a_slow_stdin_holds_up_no_poll() {
    // One worker, one value, and a producer that has not closed stdin: the worker
    // polls value 1 at its interval while the reader waits for the next line.
    let polls = Arc::new(AtomicUsize::new(0));
    let count = Arc::clone(&polls);
    let server = TestServer::start(move |url| {
        let id = value_of(url);
        let status = match id.as_str() {
            "1" if count.fetch_add(1, Ordering::SeqCst) < 3 => "queued",
            _ => "delivered",
        };
        sms_record(&id, status)
    });
    let args = [
        "-j",
        "1",
        "--wait",
        "--wait-timeout",
        "20s",
        "--interval",
        "200ms",
        "--json",
        "sms",
        "-",
    ];
    let mut cmd = command(&server.base, &args);
    cmd.stdin(Stdio::piped());
    let mut live = Live::spawn(cmd);
    live.write_stdin("1\n");
    // Its final line comes while stdin is still open.
    let line = live.wait_for(Stream::Stdout, |_| true);
    assert!(line.contains("delivered"), "{line}");
    assert_eq!(polls.load(Ordering::SeqCst), 4);
    live.write_stdin("2\n");
    live.close_stdin();
    let ended = live.finish();
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    assert_eq!(ended.json_lines().len(), 2);
}

#[test]
fn a_reader_gone_ends_a_follow_quietly() {
    // The status changes on every poll, so `--follow` writes a line each time: once
    // `head` has gone, the next line cannot be written and the run ends, with the
    // exit code of what was printed, not as if a signal had come.
    let polls = Arc::new(AtomicUsize::new(0));
    let count = Arc::clone(&polls);
    let server = TestServer::start(move |url| {
        let status = ["queued", "accepted"][count.fetch_add(1, Ordering::SeqCst) % 2];
        sms_record(&value_of(url), status)
    });
    let args = [
        "--wait",
        "--wait-timeout",
        "60s",
        "--interval",
        "100ms",
        "--follow",
        "sms",
        "1",
        "2",
    ];
    let script = "{ \"$0\" \"$@\"; echo \"smsstat exited $?\" >&2; } | head -n 1";
    let out = crate::common::process::in_shell(&command(&server.base, &args), script)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr, "smsstat exited 0\n");
    assert_eq!(json_lines(&out.stdout).len(), 1);
}

#[test]
fn lookups_a_signal_cut_short_keep_their_durations() {
    let server = pending_forever();
    let dir = tempfile::tempdir().unwrap();
    let junit = dir.path().join("junit.xml");
    let junit_arg = junit.to_str().unwrap();
    let args = [
        "--wait",
        "--wait-timeout",
        "60s",
        "--interval",
        "100ms",
        "--junit",
        junit_arg,
        "--json",
        "sms",
        "1",
        "2",
    ];
    let mut live = Live::spawn(command(&server.base, &args));
    // Each value polled three times: watched for at least 200 ms.
    server.wait_for_urls(3, |url| value_of(url) == "1");
    server.wait_for_urls(3, |url| value_of(url) == "2");
    live.signal(Signal::Term);
    let ended = live.finish();
    assert_eq!(ended.code, Some(143), "{}", ended.stderr);
    let xml = std::fs::read_to_string(&junit).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let times: Vec<f64> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .map(|n| n.attribute("time").unwrap().parse().unwrap())
        .collect();
    assert_eq!(times.len(), 2, "{xml}");
    assert!(times.iter().all(|t| *t >= 0.2), "{xml}");
}
