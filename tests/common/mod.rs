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

use std::fmt::Display;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::Output;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use httpcore::{Handler, HttpRequest, HttpResponse, HttpServer};
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

pub struct TestServer {
    pub base: String,
    seen: Arc<Mutex<Vec<Seen>>>,
    /// Serves until the test server is dropped.
    _server: HttpServer,
}

impl TestServer {
    /// Serves `handler`'s answers on 127.0.0.1:0, each connection on its own thread.
    pub fn start(handler: impl Fn(&str) -> Canned + Send + Sync + 'static) -> TestServer {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let record = Arc::clone(&seen);
        let serve: Handler = Arc::new(move |request: &HttpRequest| {
            record.lock().unwrap().push(Seen {
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
        let server = HttpServer::bind("127.0.0.1:0", serve).expect("bind");
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
        self.seen.lock().unwrap().clone()
    }

    pub fn urls(&self) -> Vec<String> {
        self.seen().into_iter().map(|s| s.url).collect()
    }
}

/// A raw TCP server: `serve` gets each accepted connection (after the request head
/// was read) and does what it likes with it.
pub struct RawServer {
    pub base: String,
}

impl RawServer {
    pub fn start(serve: impl Fn(TcpStream) + Send + Sync + 'static) -> RawServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().unwrap().port();
        let serve = Arc::new(serve);
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let serve = Arc::clone(&serve);
                thread::spawn(move || {
                    let mut stream = stream;
                    read_head(&mut stream);
                    serve(stream);
                });
            }
        });
        RawServer {
            base: format!("http://127.0.0.1:{port}"),
        }
    }

    /// Answers every request with these exact bytes, then closes.
    pub fn bytes(answer: &'static [u8]) -> RawServer {
        RawServer::start(move |mut stream| {
            let _ = stream.write_all(answer);
        })
    }
}

fn read_head(stream: &mut TcpStream) {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => return,
        }
    }
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
