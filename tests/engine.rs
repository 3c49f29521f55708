//! The batch engine under pressure: memory bounded in bytes behind a slow lookup,
//! stale keep-alive connections, `--rate`, a 429 pausing every worker, the early stop
//! on account-level failures (and `--keep-going`), and a prompt stop when the reader
//! of a table goes away. No timing assertions: servers count what they saw.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use common::process::{command, peak_rss_kib, spawn_fed};
use common::{smsstat_at, Canned, RawServer, TestServer, SMS};
use serde_json::Value;

fn value_of(url: &str) -> &str {
    url.rsplit('/').next().unwrap()
}

fn json_lines(out: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Runs the binary, draining stdout as it comes, and returns (exit code, stdout
/// lines, peak resident KiB).
fn run_watched(base: &str, args: &[&str]) -> (i32, usize, u64) {
    let mut child = command(base, args).spawn().unwrap();
    let stdout = child.stdout.take().unwrap();
    let counter = thread::spawn(move || BufReader::new(stdout).lines().count());
    let mut stderr = child.stderr.take().unwrap();
    let drain = thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
    });
    let mut peak = 0;
    let code = loop {
        // VmHWM is the high-water mark: the last reading before exit is the peak.
        peak = peak.max(peak_rss_kib(child.id()));
        if let Some(status) = child.try_wait().unwrap() {
            break status.code().unwrap_or(-1);
        }
        thread::sleep(Duration::from_millis(5));
    };
    drain.join().unwrap();
    (code, counter.join().unwrap(), peak)
}

#[test]
fn a_slow_head_with_large_answers_stays_within_the_byte_budget() {
    slow_head_with_large_answers("8");
}

#[test]
fn thirty_two_jobs_with_large_answers_stay_within_the_same_bound() {
    slow_head_with_large_answers("32");
}

#[test]
fn a_hundred_and_twenty_eight_jobs_with_large_answers_stay_within_the_same_bound() {
    slow_head_with_large_answers("128");
}

fn slow_head_with_large_answers(jobs: &str) {
    // 2 MiB records; the first lookup is answered only once the server has been asked
    // for every other value, or after a few seconds: without a bound in bytes, all
    // 119 others would wait in memory behind it (over 240 MiB of strings alone).
    let total = 120;
    let asked = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&asked);
    let behind_head = Arc::new(AtomicUsize::new(0));
    let released = Arc::clone(&behind_head);
    let big = "x".repeat(2 * 1024 * 1024);
    let server = TestServer::start(move |url| {
        if value_of(url) == "1" {
            let until = Instant::now() + Duration::from_secs(4);
            while counted.load(Ordering::SeqCst) < total - 1 && Instant::now() < until {
                thread::sleep(Duration::from_millis(10));
            }
            released.store(counted.load(Ordering::SeqCst), Ordering::SeqCst);
        } else {
            counted.fetch_add(1, Ordering::SeqCst);
        }
        Canned::json(
            200,
            &format!(r#"{{"error":0,"status":"delivered","reference":"{big}"}}"#),
        )
    });
    let ids: Vec<String> = (1..=total).map(|i| i.to_string()).collect();
    let mut args = vec!["--json", "-j", jobs, "sms"];
    args.extend(ids.iter().map(String::as_str));
    let (code, printed, peak_kib) = run_watched(&server.base, &args);
    assert_eq!(code, 0);
    assert_eq!(printed, total, "every line printed");
    let behind = behind_head.load(Ordering::SeqCst);
    assert!(
        behind < total - 1,
        "workers waited for room behind the slow lookup ({behind} asked)"
    );
    assert!(peak_kib > 0, "no memory reading");
    assert!(peak_kib < 200 * 1024, "peak {peak_kib} KiB");
}

/// A keep-alive server that closes a connection when a second request arrives on
/// it, without answering: what a pooled connection closed while idle looks like.
fn closing_server(served: Arc<AtomicUsize>) -> RawServer {
    RawServer::start(move |mut stream: TcpStream| {
        let body = SMS;
        let answer = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
             Connection: keep-alive\r\n\r\n{body}",
            body.len()
        );
        if stream.write_all(answer.as_bytes()).is_ok() {
            served.fetch_add(1, Ordering::SeqCst);
        }
        // The next request head on this connection is read, then the connection closed.
        let mut buffer = [0u8; 1024];
        let _ = stream.read(&mut buffer);
    })
}

#[test]
fn a_pooled_connection_closed_by_the_server_is_sent_again_not_lost() {
    let served = Arc::new(AtomicUsize::new(0));
    let server = closing_server(Arc::clone(&served));
    let ids: Vec<String> = (1..=30).map(|i| i.to_string()).collect();
    let mut args = vec!["--json", "-j", "2", "sms"];
    args.extend(ids.iter().map(String::as_str));
    let out = smsstat_at(&server.base).args(&args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let lines = json_lines(&out.stdout);
    assert_eq!(lines.len(), 30);
    assert!(
        lines.iter().all(|l| l["status"] == "delivered"),
        "{lines:?}"
    );
    assert_eq!(served.load(Ordering::SeqCst), 30);
}

#[test]
fn a_new_connection_closed_early_is_not_sent_again() {
    // The server closes every connection without an answer: nothing was reused, so
    // each attempt is one request; only --retries sends more.
    let served = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&served);
    let server = common::RawServer::start(move |stream| {
        counter.fetch_add(1, Ordering::SeqCst);
        drop(stream);
    });
    let out = smsstat_at(&server.base)
        .args(["sms", "5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(69));
    assert_eq!(served.load(Ordering::SeqCst), 1, "--retries 0 sent again");
    served.store(0, Ordering::SeqCst);
    smsstat_at(&server.base)
        .args(["--retries", "2", "sms", "5"])
        .assert()
        .code(69);
    assert_eq!(served.load(Ordering::SeqCst), 3);
}

/// A server that records when each request arrived.
fn timed_server(
    answer: impl Fn(usize) -> Canned + Send + Sync + 'static,
) -> (TestServer, Arc<Mutex<Vec<Instant>>>) {
    let arrivals = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&arrivals);
    let server = TestServer::start(move |_| {
        let n = {
            let mut log = log.lock().unwrap();
            log.push(Instant::now());
            log.len()
        };
        answer(n)
    });
    (server, arrivals)
}

#[test]
fn rate_limits_requests_per_second_across_workers() {
    let (server, arrivals) = timed_server(|_| Canned::json(200, SMS));
    let ids: Vec<String> = (1..=10).map(|i| i.to_string()).collect();
    let mut args = vec!["--json", "-j", "8", "--rate", "4/s", "sms"];
    args.extend(ids.iter().map(String::as_str));
    let out = smsstat_at(&server.base).args(&args).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(json_lines(&out.stdout).len(), 10);
    let arrivals = arrivals.lock().unwrap();
    let first = arrivals[0];
    let mut per_second = std::collections::BTreeMap::new();
    for at in arrivals.iter() {
        *per_second.entry((*at - first).as_secs()).or_insert(0) += 1;
    }
    // 4 a second; one more allowed for the network's jitter at a window's edge.
    assert!(per_second.values().all(|&n| n <= 5), "{per_second:?}");
    assert!(per_second.len() >= 2, "{per_second:?}");
}

#[test]
fn a_429_pauses_every_worker() {
    pauses_every_worker(&[]);
}

#[test]
fn a_429_pauses_workers_already_waiting_for_a_rate_slot() {
    pauses_every_worker(&["--rate", "20/s"]);
}

fn pauses_every_worker(extra: &[&str]) {
    let sent_429: Arc<Mutex<Option<Instant>>> = Arc::default();
    let mark = Arc::clone(&sent_429);
    let (server, arrivals) = timed_server(move |n| {
        if n == 1 {
            *mark.lock().unwrap() = Some(Instant::now());
            Canned::json(429, r#"{"error":"slow down"}"#).header("Retry-After", "1")
        } else {
            // Some latency, as a real gateway has: each worker then has at most one
            // request racing the 429 before the client has read it.
            thread::sleep(Duration::from_millis(15));
            Canned::json(200, SMS)
        }
    });
    let ids: Vec<String> = (1..=40).map(|i| i.to_string()).collect();
    let jobs = 4;
    let mut args = vec!["--json", "-j", "4", "--retries", "1"];
    args.extend_from_slice(extra);
    args.push("sms");
    args.extend(ids.iter().map(String::as_str));
    let out = smsstat_at(&server.base).args(&args).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(json_lines(&out.stdout).len(), 40);
    let at = sent_429.lock().unwrap().expect("a 429 was sent");
    let arrivals = arrivals.lock().unwrap();
    // Requests already under way when the 429 left may still arrive; nothing new is
    // sent until the pause is over. Without the pause, the other workers would send
    // the remaining values at once.
    let during = arrivals
        .iter()
        .filter(|t| **t > at && **t < at + Duration::from_millis(900))
        .count();
    let relative: Vec<i128> = arrivals
        .iter()
        .map(|t| {
            t.duration_since(at).as_millis() as i128 - at.duration_since(*t).as_millis() as i128
        })
        .collect();
    // Each other worker may have one more request racing the 429 on its way back.
    assert!(
        during < 2 * jobs,
        "{during} requests during the pause: {relative:?}"
    );
    // Those race only at the start: none is sent later in the pause, not even one
    // that had taken a --rate turn before the 429 came.
    let late = arrivals
        .iter()
        .filter(|t| **t > at + Duration::from_millis(60) && **t < at + Duration::from_millis(900))
        .count();
    assert_eq!(late, 0, "requests late in the pause: {relative:?}");
    assert_eq!(arrivals.len(), 41, "one retry");
}

fn invalid_key_server() -> TestServer {
    TestServer::fixed(Canned::json(
        200,
        r#"{"error":1,"errorDescription":"Invalid API key"}"#,
    ))
}

#[test]
fn an_invalid_key_stops_the_batch_with_one_line_per_value() {
    let server = invalid_key_server();
    let ids: Vec<String> = (1..=200).map(|i| i.to_string()).collect();
    let mut args = vec!["--json", "-j", "4", "sms"];
    args.extend(ids.iter().map(String::as_str));
    let out = smsstat_at(&server.base).args(&args).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let lines = json_lines(&out.stdout);
    assert_eq!(lines.len(), 200, "one line per value");
    let skipped: Vec<(&Value, &String)> = lines
        .iter()
        .zip(&ids)
        .filter(|(l, _)| {
            l["errorDescription"]
                == "not looked up: stopped after service error 1 (Invalid API key)"
        })
        .collect();
    for (line, id) in &skipped {
        assert_eq!(
            line["query"].as_str(),
            Some(id.as_str()),
            "in order: {line}"
        );
    }
    let skipped = skipped.len();
    let sent = server.urls().len();
    assert!(sent <= 8, "{sent} requests sent");
    assert_eq!(skipped, 200 - sent);
    assert!(
        lines.iter().all(|l| l["error"] == 1),
        "exit code 1 on every line"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("SMSSTAT_API_KEY"),
        "says how to set a key: {stderr}"
    );
}

#[test]
fn a_401_stops_the_batch_too() {
    let server = TestServer::fixed(Canned::json(401, r#"{"message":"Unauthenticated."}"#));
    let ids: Vec<String> = (1..=200).map(|i| i.to_string()).collect();
    let mut args = vec!["-o", "csv", "-j", "4", "sms"];
    args.extend(ids.iter().map(String::as_str));
    let out = smsstat_at(&server.base).args(&args).output().unwrap();
    assert_eq!(out.status.code(), Some(77));
    let rows = String::from_utf8(out.stdout).unwrap();
    assert_eq!(rows.lines().count(), 201, "a header and one row per value");
    let skipped = rows
        .lines()
        .filter(|row| row.contains("not looked up: stopped after HTTP 401 (not authorised)"))
        .count();
    let sent = server.urls().len();
    assert!(sent <= 8, "{sent} requests sent");
    assert_eq!(skipped, 200 - sent);
}

#[test]
fn keep_going_looks_every_value_up() {
    let server = invalid_key_server();
    let ids: Vec<String> = (1..=50).map(|i| i.to_string()).collect();
    let mut args = vec!["--json", "-j", "4", "--keep-going", "sms"];
    args.extend(ids.iter().map(String::as_str));
    let out = smsstat_at(&server.base)
        .env("SMSSTAT_API_KEY", "k-123456")
        .args(&args)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(json_lines(&out.stdout).len(), 50);
    assert_eq!(server.urls().len(), 50);
    // A key is configured: no advice to set one.
    assert!(!String::from_utf8_lossy(&out.stderr).contains("SMSSTAT_API_KEY"));
}

#[test]
fn refused_connections_stop_the_batch() {
    let base = common::refused_base();
    let ids: Vec<String> = (1..=300).map(|i| i.to_string()).collect();
    let mut args = vec!["--json", "-j", "2", "sms"];
    args.extend(ids.iter().map(String::as_str));
    let out = smsstat_at(&base).args(&args).output().unwrap();
    assert_eq!(out.status.code(), Some(69));
    let lines = json_lines(&out.stdout);
    assert_eq!(lines.len(), 300);
    let last = lines.last().unwrap()["errorDescription"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(last.starts_with("not looked up: stopped after"), "{last}");
}

#[test]
fn a_table_reader_that_goes_away_stops_the_run_promptly() {
    let server = TestServer::fixed(Canned::json(200, SMS));
    let (mut child, feeder) = spawn_fed(command(&server.base, &["-j", "4", "sms", "-"]), 1..=5_000);
    // The first page of the table comes after its 500 rows.
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    drop(stdout); // `| head -1`
    let code = child.wait().unwrap().code();
    feeder.join().unwrap();
    assert_eq!(code, Some(0));
    let sent = server.urls().len();
    // Without noticing, it would gather a whole second page of 500 before writing.
    assert!(sent < 800, "{sent} lookups after the reader left");
}

/// `-j 256` under `ulimit -n 64`: the jobs are lowered to fit the descriptors (with
/// a warning), and no lookup fails for want of one.
#[test]
fn a_low_open_file_limit_lowers_the_jobs_and_loses_nothing() {
    let server = TestServer::fixed(Canned::json(200, SMS));
    let ids: Vec<String> = (1..=400).map(|i| i.to_string()).collect();
    let mut args = vec!["--json", "-j", "256", "sms"];
    args.extend(ids.iter().map(String::as_str));
    let inner = command(&server.base, &args);
    let mut limited = std::process::Command::new("sh");
    limited
        .arg("-c")
        .arg("ulimit -n 64 && exec \"$0\" \"$@\"")
        .arg(inner.get_program())
        .args(inner.get_args());
    for (name, value) in inner.get_envs() {
        match value {
            Some(value) => limited.env(name, value),
            None => limited.env_remove(name),
        };
    }
    let out = limited.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(json_lines(&out.stdout).len(), 400);
    assert!(
        stderr.contains("-j 256 lowered to 16: the open-file limit (ulimit -n) is 64"),
        "{stderr}"
    );
}
