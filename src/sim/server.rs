//! The request pipeline: latency, injected failure, API key, route, method, record.
//! Each connection is served on its own thread (see [`super::http`]); they share
//! nothing mutable but one atomic counter, so they never wait on each other.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::data::{self, Quirks};
use super::prng;
use super::routes::{self, Lookup};
use super::Oddity;
use super::SimOptions;
use httpcore::{HttpRequest, HttpResponse};

pub const API_KEY_HEADER: &str = "X-API-KEY";
pub const UNAVAILABLE_HTML: &str =
    "<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyType {
    Json,
    Html,
    Text,
}

impl BodyType {
    fn content_type(self) -> &'static str {
        match self {
            BodyType::Json => "application/json",
            BodyType::Html => "text/html; charset=utf-8",
            BodyType::Text => "text/plain; charset=utf-8",
        }
    }
}

/// An answer before it becomes an HTTP response (kept separate for unit tests).
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

/// Everything the connection threads share.
pub struct Shared {
    settle: Duration,
    api_key: Option<String>,
    latency: Duration,
    fail_rate: f64,
    seed: u64,
    quirks: Quirks,
    started: Instant,
    requests: AtomicU64,
}

impl Shared {
    pub fn new(options: &SimOptions) -> Self {
        Shared {
            settle: options.settle,
            api_key: options.api_key.clone(),
            latency: options.latency,
            fail_rate: options.fail_rate,
            seed: options.seed,
            quirks: Quirks {
                string_numbers: options.string_numbers,
                omit_error: options.omit_error,
                extra_fields: options.extra_fields,
                no_errors_text: options.no_errors_text,
            },
            started: Instant::now(),
            requests: AtomicU64::new(0),
        }
    }

    /// One request, on its connection's thread (so `--latency` delays only that
    /// connection).
    pub fn handle(&self, request: &HttpRequest) -> HttpResponse {
        if !self.latency.is_zero() {
            std::thread::sleep(self.latency);
        }
        let key = request.header(API_KEY_HEADER);
        let answer = self.answer(&request.method, &request.target, key);
        HttpResponse::new(
            answer.status,
            answer.body_type.content_type(),
            answer.body.into_bytes(),
        )
    }

    /// The whole decision for one request, in the order a real gateway behind a
    /// proxy would make it.
    pub fn answer(&self, method: &str, target: &str, key: Option<&str>) -> Answer {
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
        if !matches!(method, "GET" | "HEAD") {
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
    /// by a hash of (seed, n), whichever connection carries it.
    fn injected_failure(&self) -> bool {
        if self.fail_rate <= 0.0 {
            return false;
        }
        let n = self.requests.fetch_add(1, Ordering::Relaxed);
        prng::unit(prng::mix(self.seed), n) < self.fail_rate
    }
}
