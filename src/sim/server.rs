//! The request pipeline: latency, injected failure, API key, route, method, record.
//! Workers share nothing mutable but one atomic counter, so they never wait on each
//! other beyond tiny_http's own request queue.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tiny_http::{Header, Method, Request, Response};

use super::data::{self, Quirks};
use super::prng;
use super::routes::{self, Lookup};
use super::SimOptions;
use crate::cli::Oddity;

pub const API_KEY_HEADER: &str = "X-API-KEY";
pub const UNAVAILABLE_HTML: &str =
    "<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyType {
    Json,
    Html,
    Text,
}

/// An answer before it becomes a tiny_http response (kept separate for unit tests).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub status: u16,
    pub body_type: BodyType,
    pub body: String,
}

impl Answer {
    fn json(status: u16, body: String) -> Self {
        Answer {
            status,
            body_type: BodyType::Json,
            body,
        }
    }
}

/// Everything the workers share.
pub struct Shared {
    pub server: tiny_http::Server,
    pub stopping: AtomicBool,
    settle: Duration,
    api_key: Option<String>,
    latency: Duration,
    fail_rate: f64,
    seed: u64,
    quirks: Quirks,
    started: Instant,
    requests: AtomicU64,
    headers: [Header; 3],
}

impl Shared {
    pub fn new(server: tiny_http::Server, options: &SimOptions) -> Self {
        let header =
            |value: &str| Header::from_bytes("Content-Type", value).expect("a valid static header");
        Shared {
            server,
            stopping: AtomicBool::new(false),
            settle: options.settle,
            api_key: options.api_key.clone(),
            latency: options.latency,
            fail_rate: options.fail_rate,
            seed: options.seed,
            quirks: Quirks {
                string_numbers: options.string_numbers,
                omit_error: options.omit_error,
                extra_fields: options.extra_fields,
            },
            started: Instant::now(),
            requests: AtomicU64::new(0),
            headers: [
                header("application/json"),
                header("text/html; charset=utf-8"),
                header("text/plain; charset=utf-8"),
            ],
        }
    }

    /// One worker: serves until `stopping` is set and the queue is unblocked.
    pub fn work(&self) {
        loop {
            match self.server.recv() {
                Ok(request) => self.handle(request),
                Err(_) if self.stopping.load(Ordering::Acquire) => return,
                // An accept error concerns one connection only; keep serving.
                Err(_) => continue,
            }
        }
    }

    fn handle(&self, request: Request) {
        if !self.latency.is_zero() {
            std::thread::sleep(self.latency);
        }
        let key = request
            .headers()
            .iter()
            .find(|h| h.field.equiv(API_KEY_HEADER))
            .map(|h| h.value.as_str());
        let answer = self.answer(request.method(), request.url(), key);
        let content_type = match answer.body_type {
            BodyType::Json => &self.headers[0],
            BodyType::Html => &self.headers[1],
            BodyType::Text => &self.headers[2],
        };
        let response = Response::from_string(answer.body)
            .with_status_code(answer.status)
            .with_header(content_type.clone());
        // The client may have gone away; there is nobody left to tell.
        let _ = request.respond(response);
    }

    /// The whole decision for one request, in the order a real gateway behind a
    /// proxy would make it.
    pub fn answer(&self, method: &Method, target: &str, key: Option<&str>) -> Answer {
        if self.injected_failure() {
            return Answer {
                status: 503,
                body_type: BodyType::Html,
                body: UNAVAILABLE_HTML.into(),
            };
        }
        if let Some(expected) = &self.api_key {
            if key != Some(expected.as_str()) {
                return self.error(401, 1, "Invalid API key", self.always_strings());
            }
        }
        let Some(lookup) = routes::route(target) else {
            return Answer {
                status: 404,
                body_type: BodyType::Text,
                body: "Not Found".into(),
            };
        };
        if !matches!(method, Method::Get | Method::Head) {
            let text = "Invalid request or method does not exist";
            return self.error(405, 4, text, self.always_strings());
        }
        self.lookup(&lookup)
    }

    fn lookup(&self, lookup: &Lookup) -> Answer {
        let Some(id) = lookup.resolve() else {
            let (code, text) = lookup.kind.not_found();
            let as_string = self.quirks.error_code_as_string(lookup.value());
            return self.error(404, code, text, as_string);
        };
        let elapsed = self.started.elapsed();
        let progress = data::progress(lookup.kind, id, elapsed, self.settle);
        let record = data::record(lookup.kind, id, progress, self.quirks);
        Answer::json(200, serde_json::Value::Object(record).to_string())
    }

    fn error(&self, status: u16, code: u32, text: &str, as_string: bool) -> Answer {
        Answer::json(status, data::error_body(code, text, as_string))
    }

    /// Errors not tied to a looked-up value vary only when forced to.
    fn always_strings(&self) -> bool {
        self.quirks.string_numbers == Oddity::Always
    }

    /// Thread-safe and reproducible per seed: the n-th request overall fails or not
    /// by a hash of (seed, n), whichever worker serves it.
    fn injected_failure(&self) -> bool {
        if self.fail_rate <= 0.0 {
            return false;
        }
        let n = self.requests.fetch_add(1, Ordering::Relaxed);
        prng::unit(prng::mix(self.seed), n) < self.fail_rate
    }
}
