//! The simulator over real HTTP: in-process through `SimServer`, and once through
//! the `smsstat sim` binary.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::{mpsc, Arc, Barrier};
use std::time::{Duration, Instant};

use serde_json::Value;
use smsstat::testkit::Oddity;
use smsstat::testkit::PENDING_SMS_STATUSES as PENDING_SMS;
use smsstat::testkit::{settle_fraction, Kind};
use smsstat::testkit::{SimOptions, SimServer, API_KEY_HEADER, LISTENING_PREFIX};
use smsstat::testkit::{FINAL_HLR_STATUSES as FINAL_HLR, FINAL_SMS_STATUSES as FINAL_SMS};

const COUNTERS: [&str; 4] = ["delivered", "undeliverable", "expired", "unknown"];

struct Reply {
    status: u16,
    content_type: String,
    body: String,
}

impl Reply {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
}

struct Sim {
    server: SimServer,
    agent: ureq::Agent,
}

/// A client for the simulator on loopback: no proxy, whatever the environment says.
fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .proxy(None)
        .build()
        .into()
}

/// A simulator on an ephemeral port: settled at once and spec-shaped unless changed.
fn sim(configure: impl FnOnce(&mut SimOptions)) -> Sim {
    let mut options = SimOptions::demo();
    options.string_numbers = Oddity::Never;
    options.omit_error = Oddity::Never;
    options.extra_fields = Oddity::Never;
    configure(&mut options);
    let server = SimServer::start(options).expect("simulator starts");
    Sim {
        server,
        agent: agent(),
    }
}

impl Sim {
    fn get_with_key(&self, path: &str, key: Option<&str>) -> Reply {
        let url = format!("{}{path}", self.server.base_url());
        let mut request = self.agent.get(&url);
        if let Some(key) = key {
            request = request.header(API_KEY_HEADER, key);
        }
        let mut response = request.call().unwrap_or_else(|e| panic!("GET {url}: {e}"));
        let content_type = response
            .headers()
            .get("content-type")
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default();
        Reply {
            status: response.status().as_u16(),
            content_type,
            body: response.body_mut().read_to_string().unwrap(),
        }
    }

    fn get(&self, path: &str) -> Reply {
        self.get_with_key(path, None)
    }

    /// A 200 JSON record.
    fn record(&self, path: &str) -> Value {
        let reply = self.get(path);
        assert_eq!(reply.status, 200, "{path}: {}", reply.body);
        assert_eq!(reply.content_type, "application/json");
        reply.json()
    }
}

/// A JSON number or numeric string, as the field notes allow.
fn number(value: &Value) -> f64 {
    match value {
        Value::Number(n) => n.as_f64().unwrap(),
        Value::String(s) => s.parse().unwrap_or_else(|_| panic!("{s:?}")),
        other => panic!("not numeric: {other}"),
    }
}

fn assert_error(reply: &Reply, status: u16, code: f64) {
    assert_eq!(reply.status, status, "{}", reply.body);
    assert_eq!(reply.content_type, "application/json");
    let body = reply.json();
    assert_eq!(number(&body["error"]), code, "{body}");
    assert!(body["errorDescription"].is_string());
}

/// An ID whose record settles late in the period, so it is surely pending at start.
fn late_id(kind: Kind) -> u64 {
    (1..).find(|id| settle_fraction(kind, *id) > 0.6).unwrap()
}

#[test]
fn every_endpoint_and_short_form() {
    let sim = sim(|_| {});
    let sms = sim.record("/sms/42");
    assert_eq!(sms["reference"], "ref-42");
    assert!(FINAL_SMS.contains(&sms["status"].as_str().unwrap()));
    for path in [
        "/sms/reference/ref-42",
        "/sms/ref-42",
        "/rest/sms/42",
        "/rest/sms/reference/ref-42",
        "/sms/reference/ref%2D42",
        "/sms/42?verbose=1",
    ] {
        assert_eq!(sim.record(path), sms, "{path}");
    }

    let task = sim.record("/sms/task/7");
    assert_eq!(number(&task["validity"]), 72.0);
    assert!(task["originator"].is_string() && task["body"].is_string());
    for path in ["/sms/task-7", "/sms/task/task-7", "/rest/sms/task-7"] {
        assert_eq!(sim.record(path), task, "{path}");
    }

    let hlr = sim.record("/hlr/5");
    assert_eq!(hlr["id"], "5");
    assert!(FINAL_HLR.contains(&hlr["status"].as_str().unwrap()));
    for path in ["/hlr/reference/ref-5", "/hlr/ref-5", "/rest/hlr/5"] {
        assert_eq!(sim.record(path), hlr, "{path}");
    }
}

#[test]
fn missing_records_answer_404_with_the_spec_codes() {
    let sim = sim(|o| o.string_numbers = Oddity::Mixed);
    for (path, code) in [
        ("/sms/1000000", 20.0),
        ("/sms/0", 20.0),
        ("/sms/reference/order-17", 20.0),
        ("/sms/reference/ext%20id%2F17", 20.0),
        ("/sms/nope", 20.0),
        ("/sms/task/1000000", 30.0),
        ("/sms/task-0", 30.0),
        ("/sms/task/abc", 30.0),
        ("/hlr/1000000", 10.0),
        ("/hlr/reference/ref-0", 10.0),
        ("/hlr/nope", 10.0),
    ] {
        assert_error(&sim.get(path), 404, code);
    }
}

#[test]
fn unknown_paths_and_methods() {
    let sim = sim(|_| {});
    for path in [
        "/",
        "/nope",
        "/sms",
        "/sms/42/",
        "/api/sms/42",
        "/sms/task/1/2",
    ] {
        let reply = sim.get(path);
        assert_eq!(reply.status, 404, "{path}");
        assert_eq!(reply.body, "Not Found");
        assert!(serde_json::from_str::<Value>(&reply.body).is_err());
    }
    let url = format!("{}/sms/42", sim.server.base_url());
    let mut reply = sim.agent.post(&url).send("").unwrap();
    assert_eq!(reply.status().as_u16(), 405);
    let body: Value = serde_json::from_str(&reply.body_mut().read_to_string().unwrap()).unwrap();
    assert_eq!(body["error"], 4);
}

#[test]
fn same_id_same_answer_across_servers() {
    let quirky = |o: &mut SimOptions| {
        o.string_numbers = Oddity::Mixed;
        o.omit_error = Oddity::Mixed;
        o.extra_fields = Oddity::Mixed;
    };
    let (a, b) = (sim(quirky), sim(quirky));
    for id in [1, 42, 4711, 999_999] {
        for kind in ["sms", "sms/task", "hlr"] {
            let path = format!("/{kind}/{id}");
            let first = a.get(&path).body;
            assert_eq!(first, a.get(&path).body, "{path}");
            assert_eq!(first, b.get(&path).body, "{path}");
        }
    }
}

#[test]
fn records_evolve_until_settled() {
    let (sms_id, task_id, hlr_id) = (late_id(Kind::Sms), late_id(Kind::Task), late_id(Kind::Hlr));
    let sim = sim(|o| o.settle = Duration::from_secs(2));

    let sms = sim.record(&format!("/sms/{sms_id}"));
    assert!(
        PENDING_SMS.contains(&sms["status"].as_str().unwrap()),
        "{sms}"
    );
    assert!(sms.get("time_dr").is_none_or(|dr| dr == ""), "{sms}");
    let task = sim.record(&format!("/sms/task/{task_id}"));
    let sum = |t: &Value| COUNTERS.iter().map(|c| number(&t[*c])).sum::<f64>();
    assert!(sum(&task) < number(&task["sent"]), "{task}");
    let hlr = sim.record(&format!("/hlr/{hlr_id}"));
    assert_eq!(hlr["status"], "sent");
    assert!(hlr["details"].is_null());

    let deadline = Instant::now() + Duration::from_secs(15);
    let mut last_sum = sum(&task);
    loop {
        let sms = sim.record(&format!("/sms/{sms_id}"));
        let task = sim.record(&format!("/sms/task/{task_id}"));
        let hlr = sim.record(&format!("/hlr/{hlr_id}"));
        assert!(sum(&task) >= last_sum, "counters never shrink");
        last_sum = sum(&task);
        let sms_done = FINAL_SMS.contains(&sms["status"].as_str().unwrap());
        let task_done = last_sum == number(&task["sent"]);
        let hlr_done = FINAL_HLR.contains(&hlr["status"].as_str().unwrap());
        if sms_done && task_done && hlr_done {
            assert_eq!(sms["time_dr"].as_str().unwrap().len(), 19);
            break;
        }
        assert!(Instant::now() < deadline, "not settled: {sms} {task} {hlr}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn api_key_is_enforced_when_set() {
    let sim = sim(|o| o.api_key = Some("s3cret".into()));
    assert_error(&sim.get("/sms/42"), 401, 1.0);
    assert_error(&sim.get_with_key("/sms/42", Some("wrong")), 401, 1.0);
    assert_error(&sim.get_with_key("/nope", None), 401, 1.0);
    assert_eq!(sim.get_with_key("/sms/42", Some("s3cret")).status, 200);
    assert_eq!(sim.get_with_key("/hlr/ref-3", Some("s3cret")).status, 200);

    let open = self::sim(|_| {});
    assert_eq!(open.get_with_key("/sms/42", Some("anything")).status, 200);
    assert_eq!(open.get("/sms/42").status, 200);
}

#[test]
fn fail_rate_one_fails_everything_with_html() {
    let sim = sim(|o| o.fail_rate = 1.0);
    for path in ["/sms/42", "/hlr/1", "/nope"] {
        let reply = sim.get(path);
        assert_eq!(reply.status, 503);
        assert!(reply.content_type.starts_with("text/html"));
        assert!(reply.body.contains("503 Service Temporarily Unavailable"));
    }
}

#[test]
fn fail_rate_zero_fails_nothing_and_a_seed_repeats_its_faults() {
    let sim = self::sim(|o| o.fail_rate = 0.0);
    assert!((0..50).all(|id| sim.get(&format!("/sms/{}", id + 1)).status == 200));

    let faults = |seed| {
        let sim = self::sim(|o| {
            o.fail_rate = 0.5;
            o.seed = seed;
        });
        (0..40)
            .map(|_| sim.get("/sms/1").status)
            .collect::<Vec<_>>()
    };
    let first = faults(7);
    assert!(first.contains(&503) && first.contains(&200), "{first:?}");
    assert_eq!(first, faults(7));
    assert_ne!(first, faults(8));
}

#[test]
fn latency_delays_every_answer() {
    let latency = Duration::from_millis(150);
    let sim = sim(|o| o.latency = latency);
    for path in ["/sms/42", "/nope"] {
        let started = Instant::now();
        sim.get(path);
        assert!(
            started.elapsed() >= latency,
            "{path}: {:?}",
            started.elapsed()
        );
    }
}

#[test]
fn string_numbers_can_be_forced_either_way() {
    let always = sim(|o| o.string_numbers = Oddity::Always);
    let never = sim(|o| o.string_numbers = Oddity::Never);
    for id in 1..=20 {
        let sms = always.record(&format!("/sms/{id}"));
        assert!(
            sms["price"].is_string() && sms["error"].is_string(),
            "{sms}"
        );
        let task = always.record(&format!("/sms/task/{id}"));
        assert!(task["sent"].is_string() && task["totalprice"].is_string());
        let sms = never.record(&format!("/sms/{id}"));
        assert!(
            sms["price"].is_number() && sms["error"].is_number(),
            "{sms}"
        );
        let task = never.record(&format!("/sms/task/{id}"));
        assert!(task["validity"].is_number() && task["delivered"].is_number());
    }
    assert!(always.get("/sms/0").json()["error"].is_string());
}

#[test]
fn omit_error_can_be_forced_either_way() {
    let always = sim(|o| o.omit_error = Oddity::Always);
    let never = sim(|o| o.omit_error = Oddity::Never);
    for path in ["/sms/3", "/sms/task/3", "/hlr/3", "/sms/8", "/hlr/9"] {
        assert!(always.record(path).get("error").is_none(), "{path}");
        assert_eq!(number(&never.record(path)["error"]), 0.0, "{path}");
    }
    assert_error(&always.get("/sms/0"), 404, 20.0);
}

#[test]
fn no_errors_text_can_be_forced_either_way() {
    let always = sim(|o| {
        o.no_errors_text = Oddity::Always;
        o.omit_error = Oddity::Never;
    });
    let never = sim(|o| o.no_errors_text = Oddity::Never);
    for path in ["/sms/3", "/sms/task/3", "/hlr/3"] {
        assert_eq!(
            always.record(path)["errorDescription"],
            "No errors",
            "{path}"
        );
        assert!(
            never.record(path).get("errorDescription").is_none(),
            "{path}"
        );
    }
}

#[test]
fn extra_fields_can_be_forced_either_way() {
    let always = sim(|o| o.extra_fields = Oddity::Always);
    let never = sim(|o| o.extra_fields = Oddity::Never);
    let mut active_seen = false;
    for id in 1..=20 {
        let sms = always.record(&format!("/sms/{id}"));
        // The ID, or the phone number as BSG-style answers have it.
        assert!(
            sms["id"].as_str() == Some(id.to_string().as_str()) || sms["id"] == sms["msisdn"],
            "{sms}"
        );
        assert!(never.record(&format!("/sms/{id}")).get("id").is_none());
        let hlr = always.record(&format!("/hlr/{id}"));
        if hlr["status"] == "active" {
            active_seen = true;
            for field in ["name_en", "name_ru", "brand", "name"] {
                assert!(hlr[field].is_string(), "{field}: {hlr}");
            }
            assert!(hlr["details"]["imsi"].is_string());
        }
        let hlr = never.record(&format!("/hlr/{id}"));
        assert!(hlr.get("brand").is_none() && hlr["details"].get("imsi").is_none());
    }
    assert!(active_seen);
}

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
    let server = SimServer::start(SimOptions::demo()).unwrap();
    let addr = server.addr();
    assert!(TcpStream::connect(addr).is_ok());
    server.shutdown();
    let deadline = Instant::now() + Duration::from_secs(5);
    while TcpStream::connect(addr).is_ok() {
        assert!(Instant::now() < deadline, "still accepting on {addr}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Kills the `smsstat sim` process however the test ends.
struct Running(Child);

impl Running {
    /// `smsstat sim` on an ephemeral port, settled at once, with `args` and the clean
    /// environment of `common::clean_command` changed by `env`.
    fn start(args: &[&str], env: &[(&str, &str)]) -> Running {
        let mut cmd: Command = common::clean_command();
        cmd.args(["sim", "--listen", "127.0.0.1:0", "--settle", "0"])
            .args(args)
            .envs(env.iter().copied())
            .stdout(Stdio::piped());
        Running(cmd.spawn().expect("smsstat sim starts"))
    }

    /// The base URL from the first line, as a script would read it.
    fn base_url(&mut self) -> String {
        let stdout = self.0.stdout.as_mut().unwrap();
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).unwrap();
        line.trim_end()
            .strip_prefix(LISTENING_PREFIX)
            .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
            .to_string()
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
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
