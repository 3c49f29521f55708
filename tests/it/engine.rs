//! The batch engine under pressure: memory bounded in bytes behind a slow lookup,
//! stale keep-alive connections, `--rate`, a 429 pausing every worker, the early stop
//! on account-level failures (and `--keep-going`), and a prompt stop when the reader
//! of a table goes away. No timing windows: servers count and order what they saw,
//! tests synchronise on requests received and lines printed, and the only clock
//! readings are lower bounds (a turn of `--rate`, a 429's pause), which load cannot
//! break.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::Stdio;
use std::sync::{mpsc, Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::common::answers::value_of;
use crate::common::process::{command, finish, in_shell, peak_rss_kib, spawn_fed};
use crate::common::{json_lines, smsstat_at, Arrivals, Canned, Gate, RawServer, TestServer, SMS};
use serde_json::Value;

/// Bytes of finished results the engine lets wait behind the oldest unprinted
/// lookup (the run's memory budget, `MEMORY_BUDGET` in src/domain/budget.rs), and the size of each large answer here.
const BUDGET: usize = 32 << 20;
const ANSWER: usize = 2 << 20;

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

/// How long an engine that keeps asking past its budget is given to show it: the
/// debug binary takes about 0.1 s of CPU for each 2 MiB answer, so one without the
/// bound asks for another well within it, even on a loaded machine. An engine that
/// keeps to its budget passes however long (or short) this is: it is no
/// synchronisation, only the window in which a failure can be seen.
const GRACE: Duration = Duration::from_secs(2);

fn slow_head_with_large_answers(jobs: &str) {
    // 2 MiB records; the first lookup (the head) is held until the budget's worth of
    // others has been asked for (16 answers fill the 32 MiB, the head's among them),
    // and then for the grace, to see whether any more is asked for: without a bound
    // in bytes, all 119 others would be asked for and wait in memory behind it
    // (over 240 MiB of strings alone).
    let total = 120;
    let budget_worth = BUDGET / ANSWER - 1;
    let head = Gate::new();
    let hold = head.clone();
    let others = Arc::new((Mutex::new(0usize), Condvar::new()));
    let counted = Arc::clone(&others);
    let big = "x".repeat(ANSWER);
    let server = TestServer::start(move |url| {
        if value_of(url) == "1" {
            hold.wait();
        } else {
            let (count, changed) = &*counted;
            *count.lock().unwrap() += 1;
            changed.notify_all();
        }
        Canned::json(
            200,
            &format!(r#"{{"error":0,"status":"delivered","reference":"{big}"}}"#),
        )
    });
    // The values on stdin, held open: the run is still there to be measured once
    // every line is out. The head's answer may come late on a loaded machine:
    // --timeout is not what is tested.
    let args = ["--json", "--timeout", "120s", "-j", jobs, "sms", "-"];
    let mut child = command(&server.base, &args)
        .stdin(Stdio::piped())
        .spawn()
        .expect("spawn the binary");
    let mut stdin = child.stdin.take().unwrap();
    let ids: String = (1..=total).map(|id| format!("{id}\n")).collect();
    stdin.write_all(ids.as_bytes()).expect("write the IDs");
    // Lines are counted as they come, not kept (2 MiB each); the count is told
    // when it reaches the total.
    let stdout = child.stdout.take().unwrap();
    let (all_out, printed_all) = mpsc::channel();
    let counter = thread::spawn(move || {
        let mut printed = 0;
        for _ in BufReader::new(stdout).split(b'\n').map_while(Result::ok) {
            printed += 1;
            if printed == total {
                let _ = all_out.send(());
            }
        }
        printed
    });
    // The peak (VmHWM, a high-water mark) read at two events of the run: once the
    // budget's worth of others has been asked for, behind the head still held; then
    // once every line is out, the run still waiting for more input.
    server.wait_for_urls(budget_worth, |url| value_of(url) != "1");
    let full_kib = peak_rss_kib(child.id());
    let (count, changed) = &*others;
    let behind = *changed
        .wait_timeout_while(count.lock().unwrap(), GRACE, |asked| *asked <= budget_worth)
        .unwrap()
        .0;
    head.open();
    // 240 MiB of JSON take the debug binary some 12 s of CPU: a bound for a hang
    // only, far above what a loaded machine needs.
    let printed_in_time = printed_all.recv_timeout(Duration::from_secs(300)).is_ok();
    let peak_kib = peak_rss_kib(child.id());
    drop(stdin);
    let ended = finish(child);
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    assert!(printed_in_time, "not every line printed within 5 minutes");
    assert_eq!(counter.join().unwrap(), total, "every line printed");
    assert!(
        behind <= budget_worth,
        "workers waited for room behind the slow lookup ({behind} others asked)"
    );
    assert!(full_kib > 0 && peak_kib > 0, "no memory reading");
    assert!(
        peak_kib < 200 * 1024,
        "peak {peak_kib} KiB ({full_kib} KiB with the budget full)"
    );
}

/// A keep-alive server that closes a connection when a second request arrives on
/// it, without answering: what a pooled connection closed while idle looks like.
/// Each connection answers its first request only (the one `RawServer` records).
fn closing_server() -> RawServer {
    RawServer::start(move |mut stream: TcpStream| {
        let body = SMS;
        let answer = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
             Connection: keep-alive\r\n\r\n{body}",
            body.len()
        );
        let _ = stream.write_all(answer.as_bytes());
        // The next request head on this connection is read, then the connection closed.
        let mut buffer = [0u8; 1024];
        let _ = stream.read(&mut buffer);
    })
}

#[test]
fn a_pooled_connection_closed_by_the_server_is_sent_again_not_lost() {
    let server = closing_server();
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
    // Recorded before each answer was written: all there once the run is over.
    // Each value answered once: the requests lost on closed connections were sent
    // again, and nothing else was.
    let mut answered: Vec<String> = server
        .received()
        .iter()
        .filter_map(|line| line.split(' ').nth(1))
        .map(value_of)
        .collect();
    answered.sort_by_key(|value| value.parse::<u32>().unwrap_or(0));
    assert_eq!(answered, ids, "each value answered once");
}

#[test]
fn a_new_connection_closed_early_is_not_sent_again() {
    // The server closes every connection without an answer: nothing was reused, so
    // each attempt is one request; only --retries sends more. Each request is
    // recorded before its connection is closed, so all are there when the run ends.
    let server = RawServer::start(drop);
    let out = smsstat_at(&server.base)
        .args(["sms", "5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(69));
    assert_eq!(server.received().len(), 1, "--retries 0 sent again");
    smsstat_at(&server.base)
        .args(["--retries", "2", "sms", "5"])
        .assert()
        .code(69);
    assert_eq!(server.received().len(), 1 + 3);
}

/// What a timed server saw: each request's value and when it arrived, in order.
type Log = Arc<Arrivals<(String, Instant)>>;

/// A server that logs each request and answers `answer(value, log)`.
fn timed_server(
    answer: impl Fn(&str, &Log) -> Canned + Send + Sync + 'static,
) -> (TestServer, Log) {
    let log: Log = Arrivals::new();
    let kept = Arc::clone(&log);
    let server = TestServer::start(move |url| {
        let value = value_of(url);
        kept.push((value.clone(), Instant::now()));
        answer(&value, &kept)
    });
    (server, log)
}

#[test]
fn rate_limits_requests_per_second_across_workers() {
    let (server, arrivals) = timed_server(|_, _| Canned::json(200, SMS));
    let ids: Vec<String> = (1..=10).map(|i| i.to_string()).collect();
    let mut args = vec!["--json", "-j", "8", "--rate", "4/s", "sms"];
    args.extend(ids.iter().map(String::as_str));
    let started = Instant::now();
    let out = smsstat_at(&server.base).args(&args).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(json_lines(&out.stdout).len(), 10);
    // 4 a second: a turn every 250 ms, shared by the eight workers, each request
    // sent no sooner than its turn. So the (n + 1)-th request to arrive came no
    // sooner than n turns after the run began (n + 1 requests took n + 1 turns).
    // Lower bounds only: a loaded machine sends later, never sooner.
    let mut times: Vec<Duration> = arrivals.all().iter().map(|(_, at)| *at - started).collect();
    assert_eq!(times.len(), 10, "one request a value");
    times.sort();
    let turn = Duration::from_millis(250);
    let early: Vec<(usize, Duration)> = times
        .into_iter()
        .enumerate()
        .filter(|(n, after)| *after < turn * *n as u32)
        .collect();
    assert!(
        early.is_empty(),
        "requests (how many came before, time since the start) before their turn: {early:?}"
    );
}

#[test]
fn a_429_pauses_every_worker() {
    pauses_every_worker(&[]);
}

#[test]
fn a_429_pauses_workers_already_waiting_for_a_rate_slot() {
    pauses_every_worker(&["--rate", "20/s"]);
}

/// Value 1 is answered 429 (Retry-After: 1) once every other worker has a request
/// under way; those are held until a request comes after the 429, so that no worker
/// finishes one meanwhile: the worker that got the 429 is the only one free, with
/// values to look up (and, under `--rate`, turns taken before the 429). Nothing may
/// reach the server until the pause is over: every request after the 429 comes at
/// least its second later (a lower bound, which load cannot break). Without the
/// pause, the free worker would send the next value at once.
fn pauses_every_worker(extra: &[&str]) {
    let jobs = 4;
    let sent_429: Arc<Mutex<Option<Instant>>> = Arc::default();
    let mark = Arc::clone(&sent_429);
    let under_way = Gate::new();
    let (server, arrivals) = timed_server(move |value, log| {
        if value == "1" && mark.lock().unwrap().is_none() {
            // Value 1's request and one from each other worker.
            log.wait_for(jobs, |_| true);
            *mark.lock().unwrap() = Some(Instant::now());
            return Canned::json(429, r#"{"error":"slow down"}"#).header("Retry-After", "1");
        }
        // After the 429 is when the request came, not when its handler runs: the
        // fourth request's handler may run after the 429 was decided on its arrival.
        let arrived = log
            .all()
            .iter()
            .rev()
            .find(|(v, _)| v == value)
            .map(|(_, t)| *t);
        let after_429 = matches!((*mark.lock().unwrap(), arrived), (Some(at), Some(t)) if t > at);
        match after_429 {
            // The first request after the 429: the pause is over.
            true => under_way.open(),
            false => {
                under_way.wait();
            }
        }
        Canned::json(200, SMS)
    });
    let ids: Vec<String> = (1..=40).map(|i| i.to_string()).collect();
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
    let arrivals = arrivals.all();
    let (before, after): (Vec<_>, Vec<_>) = arrivals.iter().partition(|(_, t)| *t <= at);
    assert_eq!(
        before.len(),
        jobs,
        "one request a worker before the 429: {before:?}"
    );
    let pause = Duration::from_secs(1);
    let during: Vec<(&String, Duration)> = after
        .iter()
        .map(|(value, t)| (value, *t - at))
        .filter(|(_, since)| *since < pause)
        .collect();
    assert!(
        during.is_empty(),
        "requests during the pause (value, time after the 429): {during:?}"
    );
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
    let base = crate::common::refused_base();
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
    // The first page of the table comes after its 500 rows. The lookups past it are
    // held until the reader has gone, so that the run cannot race ahead meanwhile.
    let page = 500;
    let reader_gone = Gate::new();
    let hold = reader_gone.clone();
    let server = TestServer::start(move |url| {
        if value_of(url).parse::<usize>().expect("an ID") > page {
            hold.wait();
        }
        Canned::json(200, SMS)
    });
    let (mut child, feeder) = spawn_fed(command(&server.base, &["-j", "4", "sms", "-"]), 1..=5_000);
    // The whole first page is read, to its bottom border: the page is written out,
    // so that it is the next page, still being gathered, that must notice.
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while !line.starts_with('└') {
        line.clear();
        let read = stdout.read_line(&mut line).unwrap();
        assert!(read > 0, "the output ended before the first page did");
    }
    drop(stdout); // `| head -504`
    reader_gone.open();
    let ended = finish(child);
    feeder.join().unwrap();
    assert_eq!(ended.code, Some(0), "{}", ended.stderr);
    // Noticed at the next row: past the first page, at most the lookups under way and
    // the results that may wait for an earlier one (64 a job) were asked for. Without
    // noticing, it would gather a whole second page of 500 before writing.
    let sent = server.urls().len();
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
    let out = in_shell(&inner, "ulimit -n 64 && exec \"$0\" \"$@\"")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(json_lines(&out.stdout).len(), 400);
    assert!(
        stderr.contains("-j 256 lowered to 16: the open-file limit (ulimit -n) is 64"),
        "{stderr}"
    );
}
