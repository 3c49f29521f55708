//! The request pipeline, in this order: latency, rate limit (429), injected failure
//! (503), API key (401), route (404), method (405), record (or not found).
//! Each connection is served on its own thread (by the workspace crate `httpcore`);
//! they share nothing mutable but one atomic counter and, under `--rate-limit`, the
//! count of the current second.

use std::io::{self, Write};
use std::net::Ipv4Addr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::data;
use super::prng;
use super::routes::route;
use super::{Oddity, SimOptions, Variant};
use crate::domain::sanitize::escape_control;
use httpcore::{HttpRequest, HttpResponse, HttpServer, Limits};

pub const API_KEY_HEADER: &str = "X-API-KEY";

fn json(status: u16, body: String) -> HttpResponse {
    HttpResponse::new(status, "application/json", body)
}

/// Binds the listening socket (so the address is known and connectable on return)
/// and starts serving; the server stops when dropped.
pub fn start(options: SimOptions) -> io::Result<HttpServer> {
    let listen = options.listen.unwrap_or((Ipv4Addr::LOCALHOST, 0).into());
    let shared = Shared {
        options,
        window: Mutex::new((0, 0)),
        started: Instant::now(),
        requests: AtomicU64::new(0),
    };
    let handler = Arc::new(move |request: &HttpRequest| shared.handle(request));
    HttpServer::bind(listen, handler, Limits::default())
}

struct Shared {
    options: SimOptions,
    /// The second since start being counted, and its requests so far.
    window: Mutex<(u64, u32)>,
    started: Instant,
    requests: AtomicU64,
}

impl Shared {
    /// One request, on its connection's thread (so `--latency` delays only that
    /// connection).
    fn handle(&self, request: &HttpRequest) -> HttpResponse {
        let arrived = Instant::now();
        std::thread::sleep(self.options.latency);
        let response = if self.over_rate_limit() {
            // The v1 document's `HttpError429Response`; the next second counts anew.
            let body = data::http_error_body(429, "Too Many Attempts.");
            json(429, body).with_header("Retry-After", "1")
        } else {
            self.answer(request)
        };
        if self.options.log {
            log_request(request, response.status, arrived.elapsed());
        }
        response
    }

    /// `--rate-limit N`: whether this request is beyond the N allowed in the current
    /// second since start.
    fn over_rate_limit(&self) -> bool {
        let Some(limit) = self.options.rate_limit else {
            return false;
        };
        let second = self.started.elapsed().as_secs();
        let mut window = self.window.lock().unwrap_or_else(|e| e.into_inner());
        if window.0 != second {
            *window = (second, 0);
        }
        window.1 = window.1.saturating_add(1);
        window.1 > limit
    }

    /// The whole decision for one request, in the order a real gateway behind a
    /// proxy would make it.
    fn answer(&self, request: &HttpRequest) -> HttpResponse {
        if self.injected_failure() {
            let html = "<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>";
            return HttpResponse::new(503, "text/html; charset=utf-8", html);
        }
        let key = self.options.api_key.as_deref();
        if key.is_some_and(|key| request.header(API_KEY_HEADER) != Some(key)) {
            return self.refused(401, "Unauthorized", 1, "Invalid API key");
        }
        let Some(lookup) = route(&request.target) else {
            if self.options.variant == Variant::Spec && !self.options.errors_with_200 {
                return HttpResponse::new(404, "text/plain; charset=utf-8", "Not Found");
            }
            // The live service's answer for a route it does not have.
            let text = "Invalid request or API method does not exists";
            return self.refused(404, "Not Found", 4, text);
        };
        if !matches!(request.method.as_str(), "GET" | "HEAD") {
            let text = "Invalid request or method does not exist";
            return self.refused(405, "Method Not Allowed", 4, text);
        }
        let Some(id) = lookup.id else {
            let (code, text) = lookup.kind.not_found_in(self.options.codes, &lookup.value);
            let as_string = data::error_code_as_string(&self.options, &lookup.value);
            return self.error(404, code, text, as_string);
        };
        let elapsed = self.started.elapsed();
        let progress = data::progress(lookup.kind, id, elapsed, self.options.settle);
        let record = super::record(lookup.kind, id, progress, &self.options);
        json(200, serde_json::Value::Object(record).to_string())
    }

    fn error(&self, status: u16, code: u32, text: &str, as_string: bool) -> HttpResponse {
        let with_200 = self.options.errors_with_200;
        let body = data::error_body(code, text, as_string);
        json(if with_200 { 200 } else { status }, body)
    }

    /// A request refused before any lookup: v1's HTTP error (`message`), or the
    /// service's error `code`. Its code is a string only when forced to: no looked-up
    /// value to vary by.
    fn refused(&self, status: u16, message: &str, code: u32, text: &str) -> HttpResponse {
        if self.options.variant == Variant::V1 {
            return json(status, data::http_error_body(status, message));
        }
        let as_string = self.options.string_numbers == Oddity::Always;
        self.error(status, code, text, as_string)
    }

    /// Thread-safe and reproducible per seed: the n-th request overall fails or not
    /// by a hash of (seed, n), whichever connection carries it.
    fn injected_failure(&self) -> bool {
        let n = self.requests.fetch_add(1, Ordering::Relaxed);
        prng::unit(prng::mix(self.options.seed), n) < self.options.fail_rate
    }
}

/// `14:03:07.512 GET /sms/42 200 0.3ms`: the time of day (UTC), the request as
/// sent (escaped: a client may send anything) and what the simulator answered, so
/// that an operator sees lookups arrive. One write per line: lines of concurrent
/// connections do not mix.
fn log_request(request: &HttpRequest, status: u16, took: Duration) {
    let now = humantime::format_rfc3339_millis(std::time::SystemTime::now()).to_string();
    let took = match took.as_secs_f64() {
        s if s < 1.0 => format!("{:.1}ms", s * 1000.0),
        s => format!("{s:.2}s"),
    };
    let method = escape_control(&request.method);
    let target = escape_control(&request.target);
    let line = format!("{} {method} {target} {status} {took}\n", &now[11..23]);
    // A closed stderr must not stop the server.
    let _ = io::stderr().write_all(line.as_bytes());
}
