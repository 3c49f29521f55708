//! Real servers on loopback for the integration tests: an HTTP server (the simulator's
//! own core) with canned answers, recording what it was asked, and raw sockets for
//! faults HTTP cannot show. And the one way to run the binary (a clean environment,
//! see `clean_command`) and to read its JSON lines (`json_lines`).
#![allow(dead_code)]

pub mod answers;
pub mod config_home;
pub mod mixed;
pub mod process;
pub mod proxy;
pub mod pty;
pub mod screen;
pub mod settling;
pub mod sim;

use std::fmt::{Debug, Display};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::Output;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use httpcore::{Handler, HttpRequest, HttpResponse, HttpServer, Limits};
use serde_json::Value;

/// One canned answer.
#[derive(Clone, Debug)]
pub struct Canned {
    pub status: u16,
    pub body: String,
    pub headers: Vec<(String, String)>,
}

impl Canned {
    pub fn json(status: u16, body: &str) -> Canned {
        Canned {
            status,
            body: body.to_string(),
            headers: vec![("Content-Type".into(), "application/json".into())],
        }
    }

    pub fn text(status: u16, body: &str) -> Canned {
        Canned {
            status,
            body: body.to_string(),
            headers: vec![("Content-Type".into(), "text/html".into())],
        }
    }

    pub fn header(mut self, name: &str, value: &str) -> Canned {
        self.headers.push((name.into(), value.into()));
        self
    }
}

/// A request as the server saw it: the raw (still percent-encoded) URL and headers.
#[derive(Clone, Debug)]
pub struct Seen {
    pub url: String,
    pub headers: Vec<(String, String)>,
}

impl Seen {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What a server received, in order, and a wait for "`count` of them match": the
/// event a test synchronises on (a lookup started, a retry sent), never a time.
pub struct Arrivals<T> {
    items: Mutex<Vec<T>>,
    arrived: Condvar,
}

impl<T: Clone + Debug> Arrivals<T> {
    pub fn new() -> Arc<Arrivals<T>> {
        Arc::new(Arrivals {
            items: Mutex::new(Vec::new()),
            arrived: Condvar::new(),
        })
    }

    /// Records `item` and wakes every waiter.
    pub fn push(&self, item: T) {
        self.items().push(item);
        self.arrived.notify_all();
    }

    /// Everything received so far.
    pub fn all(&self) -> Vec<T> {
        self.items().clone()
    }

    /// Waits (at most `process::LIVE_BOUND`, else fails naming what did arrive) until
    /// at least `count` items satisfy `matching`; returns those items.
    pub fn wait_for(&self, count: usize, matching: impl Fn(&T) -> bool) -> Vec<T> {
        let deadline = Instant::now() + process::LIVE_BOUND;
        let mut items = self.items();
        // Items are only ever appended: each is looked at once, however many arrive.
        let (mut looked_at, mut matched) = (0, 0);
        loop {
            matched += items[looked_at..].iter().filter(|i| matching(i)).count();
            looked_at = items.len();
            if matched >= count {
                return items.iter().filter(|i| matching(i)).cloned().collect();
            }
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(
                !left.is_zero(),
                "{count} matching arrivals awaited, {matched} came within {:?}; \
                 {} in all, the last of them: {:#?}",
                process::LIVE_BOUND,
                items.len(),
                &items[items.len().saturating_sub(20)..]
            );
            items = self
                .arrived
                .wait_timeout(items, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    fn items(&self) -> MutexGuard<'_, Vec<T>> {
        // A handler that panicked while recording leaves a list that is still whole.
        self.items.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Holds a server's answers until the test opens it: a handler calls `wait`, the test
/// calls `open` once it has seen what it waits for (or at its end). Clones share it.
#[derive(Clone, Default)]
pub struct Gate(Arc<(Mutex<bool>, Condvar)>);

impl Gate {
    pub fn new() -> Gate {
        Gate::default()
    }

    /// Lets every waiting handler, and every later one, go on.
    pub fn open(&self) {
        *self.0 .0.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.0 .1.notify_all();
    }

    /// Blocks until the gate is open; a gate never opened (a test that failed first)
    /// lets go after `process::LIVE_BOUND`, so no server thread is held forever.
    /// Whether it was opened.
    pub fn wait(&self) -> bool {
        let (open, opened) = &*self.0;
        let open = open.lock().unwrap_or_else(|e| e.into_inner());
        let (open, _) = opened
            .wait_timeout_while(open, process::LIVE_BOUND, |open| !*open)
            .unwrap_or_else(|e| e.into_inner());
        *open
    }
}

pub struct TestServer {
    pub base: String,
    seen: Arc<Arrivals<Seen>>,
    /// Serves until the test server is dropped.
    _server: HttpServer,
}

impl TestServer {
    /// Serves `handler`'s answers on 127.0.0.1:0, each connection on its own thread.
    pub fn start(handler: impl Fn(&str) -> Canned + Send + Sync + 'static) -> TestServer {
        TestServer::start_with(Limits::default(), handler)
    }

    /// As `start`, within `limits` (say, request heads larger than a real server's).
    pub fn start_with(
        limits: Limits,
        handler: impl Fn(&str) -> Canned + Send + Sync + 'static,
    ) -> TestServer {
        let seen = Arrivals::new();
        let record = Arc::clone(&seen);
        let serve: Handler = Arc::new(move |request: &HttpRequest| {
            record.push(Seen {
                url: request.target.clone(),
                headers: request.headers.clone(),
            });
            let canned = handler(&request.target);
            let mut content_type = None;
            let mut headers = Vec::new();
            for (name, value) in canned.headers {
                if content_type.is_none() && name.eq_ignore_ascii_case("Content-Type") {
                    content_type = Some(value);
                } else {
                    headers.push((name, value));
                }
            }
            let content_type = content_type.unwrap_or_else(|| "text/plain; charset=UTF-8".into());
            let mut response = HttpResponse::new(canned.status, content_type, canned.body);
            response.headers = headers;
            response
        });
        let server = HttpServer::bind("127.0.0.1:0", serve, limits).expect("bind");
        TestServer {
            base: format!("http://{}", server.addr()),
            seen,
            _server: server,
        }
    }

    /// Every request gets the same answer.
    pub fn fixed(canned: Canned) -> TestServer {
        TestServer::start(move |_| canned.clone())
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.seen.all()
    }

    pub fn urls(&self) -> Vec<String> {
        self.seen().into_iter().map(|s| s.url).collect()
    }

    /// Waits until at least `count` requests whose URL satisfies `matching` have
    /// been received (their handler has started), at most `process::LIVE_BOUND`;
    /// returns those URLs.
    pub fn wait_for_urls(&self, count: usize, matching: impl Fn(&str) -> bool) -> Vec<String> {
        self.seen
            .wait_for(count, |seen| matching(&seen.url))
            .into_iter()
            .map(|s| s.url)
            .collect()
    }

    /// `wait_for_urls` for every URL: `count` requests received, whatever they ask.
    pub fn wait_for_requests(&self, count: usize) -> Vec<String> {
        self.wait_for_urls(count, |_| true)
    }
}

/// A raw TCP server: `serve` gets each accepted connection (after the request head
/// was read) and does what it likes with it.
pub struct RawServer {
    pub base: String,
    /// The first line of each request head read (empty for `on_connect` servers,
    /// which read nothing), in the order they came.
    received: Arc<Arrivals<String>>,
}

impl RawServer {
    pub fn start(serve: impl Fn(TcpStream) + Send + Sync + 'static) -> RawServer {
        RawServer::serving(true, serve)
    }

    /// `serve` gets each connection as accepted, nothing read from it: for peers that
    /// do not speak HTTP first (a TLS ClientHello never ends an HTTP head).
    pub fn on_connect(serve: impl Fn(TcpStream) + Send + Sync + 'static) -> RawServer {
        RawServer::serving(false, serve)
    }

    fn serving(read_first: bool, serve: impl Fn(TcpStream) + Send + Sync + 'static) -> RawServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().unwrap().port();
        let serve = Arc::new(serve);
        let received = Arrivals::new();
        let record = Arc::clone(&received);
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let serve = Arc::clone(&serve);
                let record = Arc::clone(&record);
                thread::spawn(move || {
                    let mut stream = stream;
                    let head = match read_first {
                        true => read_head(&mut stream),
                        false => String::new(),
                    };
                    let first_line = head.lines().next().unwrap_or_default().to_string();
                    record.push(first_line);
                    serve(stream);
                });
            }
        });
        RawServer {
            base: format!("http://127.0.0.1:{port}"),
            received,
        }
    }

    /// Answers every request with these exact bytes, then closes.
    pub fn bytes(answer: &'static [u8]) -> RawServer {
        RawServer::start(move |mut stream| {
            let _ = stream.write_all(answer);
        })
    }

    /// The request line of each request (or "" for each connection of an
    /// `on_connect` server), in the order received.
    pub fn received(&self) -> Vec<String> {
        self.received.all()
    }

    /// Waits until at least `count` requests whose request line satisfies `matching`
    /// have been received (`serve` is under way for each), at most
    /// `process::LIVE_BOUND`.
    pub fn wait_for_requests(&self, count: usize, matching: impl Fn(&str) -> bool) -> Vec<String> {
        self.received.wait_for(count, |line| matching(line))
    }
}

/// The request head, up to and without its blank line (what came, if the peer
/// stopped first).
fn read_head(stream: &mut TcpStream) -> String {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => break,
        }
    }
    String::from_utf8_lossy(&head).into_owned()
}

/// A loopback address where nothing listens.
pub fn refused_base() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    format!("http://127.0.0.1:{port}")
}

/// A host name that fails to resolve without a query leaving the machine: its first
/// label is longer than the 63 octets a DNS label may have (RFC 1035), so the resolver
/// (glibc, musl, systemd-resolved alike) refuses it before building a DNS message; and
/// `.invalid` (RFC 6761) never resolves anyway. For the tests of "host not found".
pub const UNRESOLVABLE_HOST: &str =
    "no-resolver-asks-dns-about-this-label-as-it-is-longer-than-63-octets.invalid";

/// Every proxy variable (ureq reads them): a test talks to its loopback server directly.
pub const PROXY_VARS: [&str; 8] = [
    "http_proxy",
    "HTTP_PROXY",
    "https_proxy",
    "HTTPS_PROXY",
    "all_proxy",
    "ALL_PROXY",
    "no_proxy",
    "NO_PROXY",
];

/// Other variables of the machine that change what the binary prints, read by the
/// binary itself or by its libraries: the backtrace switch, the width (`COLUMNS`, and
/// `LINES` with it for crossterm's `tput` fallback), colour (NO_COLOR, CLICOLOR*,
/// console's COLORTERM), the terminal (TERM, TERMINFO*), the locale, and `COMPLETE`
/// (clap_complete: with it set, the binary prints completions and exits).
const MACHINE_VARS: [&str; 14] = [
    "RUST_BACKTRACE",
    "NO_COLOR",
    "CLICOLOR_FORCE",
    "CLICOLOR",
    "COLORTERM",
    "TERM",
    "TERMINFO",
    "TERMINFO_DIRS",
    "COLUMNS",
    "LINES",
    "COMPLETE",
    "LC_ALL",
    "LC_CTYPE",
    "LC_MESSAGES",
];

/// Prefixes of variable families removed whatever the rest of the name: the binary's
/// own settings, and clap_complete's `_CLAP_COMPLETE_INDEX`, `_CLAP_IFS`, ...
pub const REMOVED_PREFIXES: [&str; 2] = ["SMSSTAT_", "_CLAP_"];

/// The built binary as a std `Command`, with a clean environment: every `SMSSTAT_*`
/// and `_CLAP_*` variable removed (whatever its name), every proxy variable (lower
/// and upper case), RUST_BACKTRACE, `COMPLETE`, the width, colour, terminal and locale
/// variables, then LANG=C.UTF-8 and an empty config home (the developer's own config
/// file never leaks in). Every run of the binary in the tests
/// starts here, through `smsstat()` (assert_cmd) or `process::command()` (spawned).
pub fn clean_command() -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_smsstat"));
    for (name, _) in std::env::vars_os() {
        let text = name.to_string_lossy();
        if REMOVED_PREFIXES
            .iter()
            .any(|prefix| text.starts_with(prefix))
        {
            cmd.env_remove(name);
        }
    }
    for name in PROXY_VARS.iter().chain(&MACHINE_VARS) {
        cmd.env_remove(name);
    }
    cmd.env("LANG", "C.UTF-8")
        .env("XDG_CONFIG_HOME", empty_config_home());
    cmd
}

/// The built binary with the clean environment of `clean_command`, for assert_cmd.
pub fn smsstat() -> Command {
    Command::from_std(clean_command())
}

/// A directory that exists and stays empty, inside cargo's target dir.
/// A key file holding `key`, readable by its owner only (as the warning asks).
pub fn key_file(dir: &std::path::Path, key: &str) -> std::path::PathBuf {
    let path = dir.join("key");
    config_home::write_private(&path, key);
    path
}

/// The largest key a key file may hold (1 MiB).
pub fn largest_key() -> String {
    "k".repeat(1024 * 1024)
}

pub fn empty_config_home() -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("empty-config-home");
    std::fs::create_dir_all(&dir).expect("create the empty config home");
    dir
}

/// The binary pointed at `base`, no retries unless a test asks.
pub fn smsstat_at(base: &str) -> Command {
    let mut cmd = smsstat();
    cmd.args(at(base));
    cmd
}

/// The arguments that point the binary at `base` with no retries.
fn at(base: &str) -> [&str; 4] {
    ["--base-url", base, "--retries", "0"]
}

pub const SMS: &str = r#"{"error":0,"msisdn":"380501234567","reference":"ref-42","time_in":"2026-11-01 10:00:00","time_sent":"2026-11-01 10:00:01","time_dr":"2026-11-01 10:00:05","status":"delivered","price":0.23,"currency":"EUR"}"#;
pub const TASK: &str = r#"{"error":"0","originator":"Shop","body":"Sale!","validity":"72","sent":"10","delivered":7,"undeliverable":"1","expired":1,"unknown":"1","totalprice":"2.30","currency":"USD"}"#;
pub const HLR: &str = r#"{"id":"174568","reference":"chk-1","msisdn":"380501234567","network":"25503","status":"active","details":{"ported":"0","roaming":"1"},"createdDatetime":"2017-03-03T13:04:56+00:00","statusDatetime":"2017-03-03T13:04:58+00:00","name_en":"Ukraine","brand":"Kyivstar"}"#;

/// The JSON report of `check` and its exit code. `--retries 0` changes nothing of
/// check's probes (they never retry); it keeps the settings step's line the same
/// wherever the test runs.
pub fn check_json(mut cmd: Command) -> (Value, i32) {
    let out = cmd
        .args(["--retries", "0", "--json", "check"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    (report, out.status.code().unwrap_or(-1))
}

/// The step `name` of a `check` report.
pub fn check_step<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["step"] == name)
        .unwrap_or_else(|| panic!("no step {name} in {report}"))
}

/// A server answering every request with this JSON body (HTTP 200).
pub fn answering(body: &str) -> TestServer {
    TestServer::fixed(Canned::json(200, body))
}

/// A server answering every request with the SMS record.
pub fn sms_server() -> TestServer {
    answering(SMS)
}

/// Stdout of a run that must succeed.
pub fn stdout_of(cmd: &mut Command) -> String {
    let output = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(output).unwrap()
}

/// Runs the binary against `base` with `args`, asserts success, returns stdout.
pub fn success_stdout(base: &str, args: &[&str]) -> String {
    let out = smsstat_at(base)
        .args(args)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).expect("UTF-8 output")
}

/// Runs the binary against `base` with `args` (which read stdin: `-`) and `values` on
/// stdin, one a line, killed after `limit`: its output and how long it took.
pub fn run_batch(
    base: &str,
    args: &[&str],
    values: &[impl Display],
    limit: Duration,
) -> (Output, Duration) {
    let input: String = values.iter().map(|v| format!("{v}\n")).collect();
    let started = Instant::now();
    let out = smsstat_at(base)
        .args(args)
        .write_stdin(input)
        .timeout(limit)
        .output()
        .unwrap();
    (out, started.elapsed())
}

/// Stdout (or any text) as JSON lines, one value a line. Fails naming the line when a
/// line is not JSON or the text is not UTF-8.
pub fn json_lines(out: impl AsRef<[u8]>) -> Vec<Value> {
    let text = std::str::from_utf8(out.as_ref())
        .unwrap_or_else(|e| panic!("output is not UTF-8 ({e}): {:?}", out.as_ref()));
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            serde_json::from_str(line).unwrap_or_else(|e| {
                panic!(
                    "line {} is not JSON ({e}): {line:?}\nwhole output:\n{text}",
                    i + 1
                )
            })
        })
        .collect()
}

/// Output that must be exactly one JSON line: its value.
pub fn json_line(out: impl AsRef<[u8]>) -> Value {
    let mut lines = json_lines(&out);
    assert_eq!(
        lines.len(),
        1,
        "expected one JSON line, got {}:\n{}",
        lines.len(),
        String::from_utf8_lossy(out.as_ref())
    );
    lines.remove(0)
}
