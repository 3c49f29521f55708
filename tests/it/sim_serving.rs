//! The simulator as a server: concurrent clients, a burst of keep-alive connections,
//! shutdown, and the `smsstat sim` binary.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::sync::{mpsc, Arc, Barrier};
use std::time::{Duration, Instant};

use std::path::Path;

use crate::common::process::{Live, Running, Signal, Stream};
use crate::common::sim::{agent, sim};
use serde_json::Value;
use smsstat::testkit::{start_sim, SimOptions, API_KEY_HEADER, LISTENING_PREFIX};

#[test]
fn concurrent_clients_are_all_served() {
    let sim = sim(|_| {});
    let base = sim.server.base_url();
    let clients: Vec<_> = (0..4)
        .map(|n| {
            let base = base.clone();
            std::thread::spawn(move || {
                let agent = agent();
                (0..100).all(|i| {
                    let url = format!("{base}/sms/{}", n * 1000 + i + 1);
                    agent.get(&url).call().unwrap().status() == 200
                })
            })
        })
        .collect();
    assert!(clients.into_iter().all(|c| c.join().unwrap()));
}

/// Regression: tiny_http's pool could leave a connection of a burst queued behind
/// keep-alive connections that never end. A fresh simulator must answer 16
/// connections opened at once, all kept open, within a deadline.
#[test]
fn a_burst_of_keep_alive_connections_is_served_at_once() {
    const CLIENTS: usize = 16;
    let sim = sim(|_| {});
    let addr = sim.server.addr();
    let deadline = Instant::now() + Duration::from_secs(2);
    let start = Arc::new(Barrier::new(CLIENTS));
    let (done, answers) = mpsc::channel();
    let mut connections = Vec::new();
    for n in 0..CLIENTS {
        let (start, done) = (Arc::clone(&start), done.clone());
        let (keep, give) = mpsc::channel::<()>();
        connections.push(keep);
        std::thread::spawn(move || {
            start.wait();
            let mut stream = TcpStream::connect(addr).expect("connect");
            let request = format!("GET /sms/{} HTTP/1.1\r\nHost: sim\r\n\r\n", n + 1);
            stream.write_all(request.as_bytes()).expect("send");
            stream
                .set_read_timeout(Some(Duration::from_secs(10)))
                .unwrap();
            let mut head = Vec::new();
            let mut byte = [0u8];
            while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).unwrap_or(0) == 1 {
                head.push(byte[0]);
            }
            let _ = done.send(String::from_utf8_lossy(&head).into_owned());
            // Keep the connection open (as a keep-alive client would) until the end.
            let _ = give.recv();
        });
    }
    drop(done);
    for _ in 0..CLIENTS {
        let left = deadline.saturating_duration_since(Instant::now());
        let head = answers
            .recv_timeout(left)
            .expect("every connection answered within 2 s");
        assert!(head.starts_with("HTTP/1.1 200 "), "{head:?}");
    }
    drop(connections);
}

#[test]
fn shutdown_closes_the_port() {
    let server = start_sim(SimOptions::default()).unwrap();
    let addr = server.addr();
    assert!(TcpStream::connect(addr).is_ok());
    // Closed by the time drop returns: no wait, no retry.
    drop(server);
    assert!(
        TcpStream::connect(addr).is_err(),
        "still accepting on {addr}"
    );
}

#[test]
fn sim_subcommand_serves_over_http() {
    let mut running = Running::start(&["--api-key", "k"], &[]);
    let base = running.base_url();

    let agent = agent();
    let mut reply = agent
        .get(format!("{base}/sms/42"))
        .header(API_KEY_HEADER, "k")
        .call()
        .unwrap();
    assert_eq!(reply.status().as_u16(), 200);
    let body: Value = serde_json::from_str(&reply.body_mut().read_to_string().unwrap()).unwrap();
    assert_eq!(body["reference"], "ref-42");
    let reply = agent.get(format!("{base}/sms/42")).call().unwrap();
    assert_eq!(reply.status().as_u16(), 401);
}

/// The lookups' SMSSTAT_API_KEY is often exported; it must not lock the simulator.
#[test]
fn an_exported_lookup_key_does_not_lock_the_simulator() {
    let mut running = Running::start(&[], &[("SMSSTAT_API_KEY", "exported")]);
    let base = running.base_url();
    let reply = agent().get(format!("{base}/sms/42")).call().unwrap();
    assert_eq!(reply.status().as_u16(), 200);
}

/// `smsstat sim` as spawned by an operator, its stdout and stderr watched.
fn watched_sim(args: &[&str]) -> (Live, String, String) {
    let mut cmd = crate::common::clean_command();
    cmd.args(["sim", "--listen", "127.0.0.1:0", "--settle", "0"])
        .args(args);
    let mut live = Live::spawn(cmd);
    let first = live.wait_for(Stream::Stdout, |l| l.starts_with(LISTENING_PREFIX));
    let base = first.strip_prefix(LISTENING_PREFIX).unwrap().to_string();
    let try_line = live.wait_for(Stream::Stdout, |l| l.starts_with("try: "));
    (live, base, try_line)
}

/// Each request is a line on stderr: time, method, path, status, latency.
#[test]
fn the_simulator_shows_each_request_on_stderr() {
    let (mut live, base, _) = watched_sim(&[]);
    let agent = agent();
    assert_eq!(
        agent.get(format!("{base}/sms/42")).call().unwrap().status(),
        200
    );
    let line = live.wait_for(Stream::Stderr, |l| l.contains(" /sms/42 "));
    let words: Vec<&str> = line.split(' ').collect();
    assert_eq!(words.len(), 5, "{line:?}");
    let time = words[0].as_bytes();
    let shape = time.len() == 12 && time[2] == b':' && time[5] == b':' && time[8] == b'.';
    assert!(shape, "time of day with milliseconds: {line:?}");
    assert_eq!(&words[1..4], ["GET", "/sms/42", "200"], "{line:?}");
    assert!(words[4].ends_with("ms"), "{line:?}");
    let missing = agent.get(format!("{base}/sms/9999999")).call();
    assert!(missing.is_err() || missing.unwrap().status() == 404);
    live.wait_for(Stream::Stderr, |l| {
        l.ends_with("ms") && l.contains(" GET /sms/9999999 404 ")
    });
}

#[test]
fn quiet_keeps_the_simulator_silent_on_stderr() {
    for quiet in [&["-q"][..], &["--quiet"]] {
        let (mut live, base, _) = watched_sim(quiet);
        assert_eq!(
            agent()
                .get(format!("{base}/sms/42"))
                .call()
                .unwrap()
                .status(),
            200
        );
        live.signal(Signal::Term);
        let ended = live.finish();
        assert_eq!(ended.stderr, "", "{quiet:?}");
    }
}

/// The `try:` line fits 80 columns and, pasted into a shell as printed, runs: with
/// the simulator's own key when it has one.
#[test]
fn the_try_line_pastes_as_is() {
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_smsstat")).parent().unwrap();
    let path = format!("{}:/usr/bin:/bin", bin_dir.display());
    for args in [&[][..], &["--api-key", "k-42"]] {
        let (_live, _, try_line) = watched_sim(args);
        assert!(try_line.chars().count() <= 80, "{try_line:?}");
        assert!(!try_line.contains('<'), "a placeholder: {try_line:?}");
        let command = try_line.strip_prefix("try: ").unwrap();
        let pasted = Command::new("sh")
            .args(["-c", command])
            .env_clear()
            .env("PATH", &path)
            .env("LANG", "C.UTF-8")
            .env("XDG_CONFIG_HOME", crate::common::empty_config_home())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&pasted.stdout);
        assert!(pasted.status.success(), "{command}: {pasted:?}");
        assert!(stdout.contains("ref-42"), "{stdout}");
    }
}

#[test]
fn an_address_already_taken_is_a_configuration_error() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    crate::common::smsstat()
        .args(["sim", "-q", "--listen", &addr])
        .assert()
        .code(78)
        .stderr(predicates::str::contains(format!(
            "smsstat: error: sim: cannot serve on {addr}"
        )));
}
