//! The request pipeline: latency, injected failure, API key, route, method, record.
//! Each connection is served on its own thread (by the workspace crate `httpcore`);
//! they share nothing mutable but one atomic counter and, under `--rate-limit`, the
//! count of the current second.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::data::{self, Quirks};
use super::prng;
use super::routes::{self, Lookup};
use super::SimOptions;
use super::{Codes, Oddity, Variant};
use crate::domain::sanitize::escape_control;
use httpcore::{HttpRequest, HttpResponse};

pub const API_KEY_HEADER: &str = "X-API-KEY";
pub const UNAVAILABLE_HTML: &str =
    "<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>";
/// The live service's answer for a route it does not have.
pub const NO_ROUTE: (u32, &str) = (4, "Invalid request or API method does not exists");
/// The rate-limit body, in the v1 document's `HttpError429Response` shape.
pub const RATE_LIMITED_JSON: &str = r#"{"code":429,"message":"Too Many Attempts."}"#;

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

/// The simulator's reply before it becomes an HTTP response (kept separate for unit tests).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub status: u16,
    pub body_type: BodyType,
    pub body: String,
    /// Seconds for a `Retry-After` header.
    pub retry_after: Option<u64>,
}

impl Reply {
    fn json(status: u16, body: String) -> Self {
        Reply {
            status,
            body_type: BodyType::Json,
            body,
            retry_after: None,
        }
    }

    fn plain(status: u16, body_type: BodyType, body: &str) -> Self {
        Reply {
            status,
            body_type,
            body: body.into(),
            retry_after: None,
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
    variant: Variant,
    codes: Codes,
    errors_with_200: bool,
    rate_limit: Option<u32>,
    /// The second since start being counted, and its requests so far.
    window: Mutex<(u64, u32)>,
    started: Instant,
    requests: AtomicU64,
    /// A line on stderr per request (`smsstat sim` without -q).
    log: bool,
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
                task_v1: options.task_v1,
            },
            variant: options.variant,
            codes: options.codes,
            errors_with_200: options.errors_with_200,
            rate_limit: options.rate_limit,
            window: Mutex::new((0, 0)),
            started: Instant::now(),
            requests: AtomicU64::new(0),
            log: options.log,
        }
    }

    /// One request, on its connection's thread (so `--latency` delays only that
    /// connection).
    pub fn handle(&self, request: &HttpRequest) -> HttpResponse {
        let arrived = Instant::now();
        if !self.latency.is_zero() {
            std::thread::sleep(self.latency);
        }
        let key = request.header(API_KEY_HEADER);
        let answer = match self.over_rate_limit() {
            Some(wait) => Reply {
                retry_after: Some(wait),
                ..Reply::json(429, RATE_LIMITED_JSON.into())
            },
            None => self.answer(&request.method, &request.target, key),
        };
        if self.log {
            log_request(request, answer.status, arrived.elapsed());
        }
        let response = HttpResponse::new(
            answer.status,
            answer.body_type.content_type(),
            answer.body.into_bytes(),
        );
        match answer.retry_after {
            Some(seconds) => response.with_header("Retry-After", seconds.to_string()),
            None => response,
        }
    }

    /// `--rate-limit N`: the seconds to wait when this request is beyond the N
    /// allowed in the current second since start.
    fn over_rate_limit(&self) -> Option<u64> {
        let limit = self.rate_limit?;
        let second = self.started.elapsed().as_secs();
        let mut window = self.window.lock().unwrap_or_else(|e| e.into_inner());
        if window.0 != second {
            *window = (second, 0);
        }
        window.1 = window.1.saturating_add(1);
        (window.1 > limit).then_some(1)
    }

    /// The whole decision for one request, in the order a real gateway behind a
    /// proxy would make it.
    pub fn answer(&self, method: &str, target: &str, key: Option<&str>) -> Reply {
        if self.injected_failure() {
            return Reply::plain(503, BodyType::Html, UNAVAILABLE_HTML);
        }
        let v1 = self.variant == Variant::V1;
        if let Some(expected) = &self.api_key {
            if key != Some(expected.as_str()) {
                if v1 {
                    return Reply::json(401, data::http_error_body(401, "Unauthorized"));
                }
                return self.error(401, 1, "Invalid API key", self.always_strings());
            }
        }
        let Some(lookup) = routes::route(target) else {
            if v1 {
                return Reply::json(404, data::http_error_body(404, "Not Found"));
            }
            if self.errors_with_200 {
                let (code, text) = NO_ROUTE;
                return self.error(404, code, text, self.always_strings());
            }
            return Reply::plain(404, BodyType::Text, "Not Found");
        };
        if !matches!(method, "GET" | "HEAD") {
            if v1 {
                return Reply::json(405, data::http_error_body(405, "Method Not Allowed"));
            }
            let text = "Invalid request or method does not exist";
            return self.error(405, 4, text, self.always_strings());
        }
        self.lookup(&lookup)
    }

    fn lookup(&self, lookup: &Lookup) -> Reply {
        let Some(id) = lookup.resolve() else {
            let (code, text) = lookup.kind.not_found_in(self.codes, lookup.value());
            let as_string = self.quirks.error_code_as_string(lookup.value());
            return self.error(404, code, text, as_string);
        };
        let elapsed = self.started.elapsed();
        let progress = data::progress(lookup.kind, id, elapsed, self.settle);
        let record = super::record_of(self.variant, lookup.kind, id, progress, self.quirks);
        Reply::json(200, serde_json::Value::Object(record).to_string())
    }

    fn error(&self, status: u16, code: u32, text: &str, as_string: bool) -> Reply {
        let status = if self.errors_with_200 { 200 } else { status };
        Reply::json(status, data::error_body(code, text, as_string))
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

/// `14:03:07.512 GET /sms/42 200 0.3ms`: the time of day (UTC), the request as
/// sent (escaped: a client may send anything) and what the simulator answered, so
/// that an operator sees lookups arrive. One write per line: lines of concurrent
/// connections do not mix.
fn log_request(request: &HttpRequest, status: u16, took: Duration) {
    use std::io::Write;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let day = now.as_secs() % 86_400;
    let took = match took.as_secs_f64() {
        s if s < 1.0 => format!("{:.1}ms", s * 1000.0),
        s => format!("{s:.2}s"),
    };
    let line = format!(
        "{:02}:{:02}:{:02}.{:03} {} {} {status} {took}\n",
        day / 3600,
        day / 60 % 60,
        day % 60,
        now.subsec_millis(),
        escape_control(&request.method),
        escape_control(&request.target),
    );
    // A closed stderr must not stop the server.
    let _ = std::io::stderr().write_all(line.as_bytes());
}
