//! Real servers on loopback for the integration tests: an HTTP server (the simulator's
//! own core) with canned answers, recording what it was asked, and raw sockets for
//! faults HTTP cannot show.
#![allow(dead_code)]

pub mod process;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;

use assert_cmd::Command;
use httpcore::{Handler, HttpRequest, HttpResponse, HttpServer};

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

/// The built binary, with a clean environment (no settings leak in from the machine).
pub fn smsstat() -> Command {
    let mut cmd = Command::cargo_bin("smsstat").expect("binary");
    for var in [
        "SMSSTAT_BASE_URL",
        "SMSSTAT_API_KEY",
        "SMSSTAT_PROFILE",
        "SMSSTAT_CONFIG",
        "SMSSTAT_API_KEY_HEADER",
        "SMSSTAT_TIMEOUT",
        "SMSSTAT_RETRIES",
        "SMSSTAT_OUTPUT",
        "NO_COLOR",
        "CLICOLOR_FORCE",
        "CLICOLOR",
        "TERM",
        "RUST_BACKTRACE",
        "LC_ALL",
        "LC_CTYPE",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("LANG", "C.UTF-8");
    // An empty config dir: the developer's own config file never leaks into a test.
    cmd.env("XDG_CONFIG_HOME", empty_config_home());
    cmd
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
    cmd.args(["--base-url", base, "--retries", "0"]);
    cmd
}

pub const SMS: &str = r#"{"error":0,"msisdn":"380501234567","reference":"ref-42","time_in":"2026-11-01 10:00:00","time_sent":"2026-11-01 10:00:01","time_dr":"2026-11-01 10:00:05","status":"delivered","price":0.23,"currency":"EUR"}"#;
pub const TASK: &str = r#"{"error":"0","originator":"Shop","body":"Sale!","validity":"72","sent":"10","delivered":7,"undeliverable":"1","expired":1,"unknown":"1","totalprice":"2.30","currency":"USD"}"#;
pub const HLR: &str = r#"{"id":"174568","reference":"chk-1","msisdn":"380501234567","network":"25503","status":"active","details":{"ported":"0","roaming":"1"},"createdDatetime":"2017-03-03T13:04:56+00:00","statusDatetime":"2017-03-03T13:04:58+00:00","name_en":"Ukraine","brand":"Kyivstar"}"#;

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
