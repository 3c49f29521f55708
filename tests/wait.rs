//! `--wait` and `--follow` against the simulator, whose records move from pending to
//! final within `--settle` of its start: timeouts, polls, Ctrl-C.

mod common;

use std::time::{Duration, Instant};

use common::process::{command, signal_when, Signal, Stream};
use common::settling::{late_ids, sim, status};
use common::{json_line, json_lines, run_batch, smsstat_at};
use predicates::prelude::*;
use serde_json::Value;
use smsstat::testkit::PENDING_SMS_STATUSES;

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
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(800) && took < Duration::from_secs(4),
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
    // A server that accepts and never answers: each poll would take the whole
    // --timeout; the wait must still end at its own timeout.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        let held: Vec<_> = listener.incoming().flatten().collect();
        drop(held);
    });
    let started = Instant::now();
    smsstat_at(&base)
        .args([
            "--timeout",
            "30s",
            "--wait",
            "--wait-timeout",
            "1s",
            "sms",
            "1",
        ])
        .timeout(Duration::from_secs(20))
        .assert()
        .code(75);
    let took = started.elapsed();
    assert!(took < Duration::from_secs(4), "took {took:?}");
}

#[test]
fn the_wait_timeout_is_shared_by_a_whole_batch() {
    let ids: Vec<String> = late_ids(|_| true)
        .into_iter()
        .take(10)
        .map(|(id, _)| id)
        .collect();
    let server = sim(Duration::from_secs(3600));
    let (out, took) = run_batch(
        &server.base_url(),
        &[
            "-j",
            "2",
            "--wait",
            "--wait-timeout",
            "1s",
            "--interval",
            "100ms",
            "--json",
            "sms",
            "-",
        ],
        &ids,
        Duration::from_secs(20),
    );
    assert_eq!(out.status.code(), Some(81));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).lines().count(),
        ids.len()
    );
    // Ten lookups on two workers: per-lookup clocks would take five seconds.
    assert!(took < Duration::from_secs(3), "took {took:?}");
}

#[test]
fn retry_after_slows_the_polls_down() {
    let server = common::TestServer::fixed(
        common::Canned::text(503, "<html>busy</html>").header("Retry-After", "2"),
    );
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
        .timeout(Duration::from_secs(20))
        .assert()
        .code(69);
    // Honoured: polls at 0 s and 2 s, and the next one (4 s) would be past the 3 s
    // wait; a 503 is transient, so the wait did poll again. Doubling from 100 ms
    // alone would poll four times (0, 0.2, 0.6 and 1.4 s).
    assert_eq!(server.urls().len(), 2, "polls: {:?}", server.urls());
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
    use std::sync::atomic::{AtomicUsize, Ordering};
    let polls = AtomicUsize::new(0);
    let server = common::TestServer::start(move |_| {
        if polls.fetch_add(1, Ordering::SeqCst) > 0 {
            std::thread::sleep(Duration::from_secs(30));
        }
        common::Canned::json(200, r#"{"status":"enroute","msisdn":"380501234567"}"#)
    });
    // The second GET is the poll that hangs.
    let mut gets = 0;
    let last = interrupt_wait(&server.base, "1", |l| {
        gets += usize::from(l.contains("GET "));
        gets == 2
    });
    assert_eq!(last["status"], "enroute");
}

#[test]
fn demo_with_wait_shows_records_settling() {
    let (id, final_status) = late_ids(|_| true).into_iter().next().unwrap();
    let out = common::smsstat()
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
        .timeout(Duration::from_secs(20))
        .output()
        .unwrap();
    assert!(out.status.success());
    let lines = json_lines(&out.stdout);
    assert!(lines.len() >= 2, "{lines:?}");
    assert_eq!(status(lines.last().unwrap()), final_status);
}

/// A server whose every SMS stays queued: counts the requests per value.
fn pending_forever() -> common::TestServer {
    common::TestServer::start(|url| {
        let id = url.rsplit('/').next().unwrap_or("");
        common::Canned::json(
            200,
            &format!(r#"{{"error":0,"sms_id":{id},"status":"queued"}}"#),
        )
    })
}

/// Every value asked at least twice, none "not looked up", exit 81 (still pending).
fn every_value_watched(server: &common::TestServer, out: &std::process::Output, values: usize) {
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
