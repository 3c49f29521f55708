//! The blocking HTTP layer: one shared ureq agent (keep-alive pool), a bound on every
//! request, retries of transient failures and a cap on body size. What an answer
//! means is `answer`'s concern.

use std::io::Write;
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

use ureq::http::{HeaderMap, HeaderName};

use crate::http::agents::Agents;
use crate::http::budget::{BodyBudget, Permit};

/// Bytes of large answers (and their parsed copies) in memory at once while being
/// read: a dozen 4 MiB answers, whatever `--jobs`.
const BODY_BUDGET: u64 = 96 * 1024 * 1024;

use crate::domain::duration::format_duration;
use crate::domain::error::LookupError;
use crate::domain::lookup::LookupKind;
use crate::domain::lookup::PathStyle;
use crate::domain::record::Record;
use crate::domain::sanitize::{escape_control, preview};
use crate::http::answer::{interpret, is_missing_route, parse_object_scrubbed};
use crate::http::redact::Scrubber;
use crate::http::retry::{is_transient_status, parse_retry_after, Backoff};
use crate::http::routes::RouteEvidence;
use crate::settings::config::Config;
use crate::settings::secret::ApiKey;

pub struct Client {
    agents: Agents,
    /// Bytes of large answers read and parsed at once, across workers.
    bodies: BodyBudget,
    /// `--rate` and the pause after a 429, shared by every worker.
    pace: crate::http::pace::Pace,
    /// What explicit paths answered so far, per lookup kind: the run goes straight to
    /// the short form only on consistent evidence that the route is missing.
    routes: RouteEvidence,
    base_url: String,
    api_key: Option<ApiKey>,
    api_key_header: HeaderName,
    /// The one scrubber: every answer and every trace line goes through it.
    scrubber: Scrubber,
    timeout: Duration,
    retries: u32,
    paths: PathStyle,
    max_body: u64,
    verbose: u8,
    mask_msisdn: bool,
    /// `SMSSTAT_DEBUG_PANIC`: a deliberate panic in a lookup, to test the panic hook:
    /// in every lookup ("1") or in the lookup of that value only.
    debug_panic: Option<String>,
}

/// An HTTP answer, body already read (within the cap).
struct Answer<'a> {
    status: u16,
    retry_after: Option<Duration>,
    location: Option<String>,
    body: Vec<u8>,
    /// The body already parsed (the multiplexer's first answers are, to tell
    /// whether the lookup needs another request).
    parsed: Option<Result<Map<String, Value>, String>>,
    /// Large bodies count against the budget of answers read at once until parsed.
    _permit: Permit<'a>,
}

impl Answer<'_> {
    /// What the head says beyond the status: the pause asked for, and where to.
    fn head(headers: &HeaderMap) -> (Option<Duration>, Option<String>) {
        let retry_after = headers
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(parse_retry_after);
        // Lossy rather than `to_str`: a Location with non-ASCII bytes is still shown
        // (escaped) in the message, not silently dropped.
        let location = headers
            .get("location")
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
        (retry_after, location)
    }
}

impl Client {
    pub fn new(config: &Config) -> Client {
        Client {
            agents: Agents::new(config),
            bodies: BodyBudget::new(BODY_BUDGET),
            pace: crate::http::pace::Pace::new(config.rate_interval),
            routes: RouteEvidence::default(),
            base_url: config.base_url.clone(),
            api_key: config.api_key.clone(),
            scrubber: Scrubber::new(config.api_key.as_ref()),
            api_key_header: config.api_key_header.clone(),
            timeout: config.timeout,
            retries: config.retries,
            paths: config.paths,
            max_body: config.max_body,
            verbose: config.verbose,
            mask_msisdn: config.mask_msisdn,
            debug_panic: crate::http::panic_trigger::requested(),
        }
    }

    /// Looks one value up: the explicit path first and, when the deployment has no such
    /// route (404 without a JSON error body), the short form.
    /// The result is ready for output: the key scrubbed, MSISDNs masked when asked.
    pub fn lookup(&self, kind: LookupKind, value: &str) -> Result<Record, LookupError> {
        let mut result = self.lookup_until(kind, value, None).0;
        self.protect(&mut result);
        result
    }

    /// What may be shown of a result: a server may echo the key anywhere, and it
    /// never reaches any output; `--mask-msisdn` hides every copy of the number.
    /// Applied after the verdict is drawn, so that a key such as `live` cannot turn
    /// `delivered` into another status: the record is judged as sent.
    pub fn protect(&self, result: &mut Result<Record, LookupError>) {
        crate::domain::msisdn::mask_result(result, self.mask_msisdn);
        self.scrubber.scrub_result(result);
    }

    /// A message built from a record (a verdict), with the key scrubbed.
    pub fn scrub_text(&self, text: &str) -> String {
        self.scrubber.scrub(text).into_owned()
    }

    /// `lookup`, finished by `deadline` (requests and retry pauses are cut to fit),
    /// with the last `Retry-After` the server asked for, for callers that poll. The
    /// result is as sent: `protect` it before showing it.
    pub fn lookup_until(
        &self,
        kind: LookupKind,
        value: &str,
        deadline: Option<Instant>,
    ) -> (Result<Record, LookupError>, Option<Duration>) {
        let mut retry_after = None;
        let paths = self.paths_for(kind, value);
        let result = self.lookup_inner(kind, value, deadline, &mut retry_after, paths, None);
        (result, retry_after)
    }

    fn lookup_inner<'c>(
        &'c self,
        kind: LookupKind,
        value: &str,
        deadline: Option<Instant>,
        retry_after: &mut Option<Duration>,
        paths: Vec<String>,
        mut first: Option<Result<Answer<'c>, LookupError>>,
    ) -> Result<Record, LookupError> {
        kind.validate(value)?;
        if self
            .debug_panic
            .as_deref()
            .is_some_and(|only| only == "1" || only == value)
        {
            // The payload stands for data from an answer: the hook must not show it.
            panic!("SMSSTAT_DEBUG_PANIC: deliberate panic looking up {value}");
        }
        let last = paths.len() - 1;
        // Every -v line of a batch says which lookup it belongs to.
        let label = if self.verbose > 0 {
            format!("{} {}", kind.name(), preview(value))
        } else {
            String::new()
        };
        for (i, path) in paths.iter().enumerate() {
            let mut answer = self.get_with_retries(&label, path, deadline, first.take())?;
            *retry_after = answer.retry_after;
            let parsed = answer
                .parsed
                .take()
                .unwrap_or_else(|| parse_object_scrubbed(&answer.body, &self.scrubber));
            if i < last {
                // Only explicit paths with a short form behind them are evidence.
                let missing = is_missing_route(answer.status, &parsed);
                self.routes.note(kind, missing);
                if missing {
                    self.trace(format_args!(
                        "{label}: no route {path} here; trying the short form"
                    ));
                    continue;
                }
            }
            let result = interpret(answer.status, answer.location, parsed, kind.record_kind())
                .and_then(|record| match kind.check_answer(value, &record) {
                    Ok(()) => Ok(record),
                    Err(message) => Err(LookupError::WrongRecord {
                        message,
                        record: Box::new(record.fields),
                    }),
                });
            return result;
        }
        unreachable!("paths() always yields at least one path")
    }

    /// The paths to try for a value, in order.
    pub fn paths_for(&self, kind: LookupKind, value: &str) -> Vec<String> {
        let mut paths = kind.paths(value, self.paths);
        if paths.len() > 1 && self.routes.explicit_missing(kind) {
            // Learnt on earlier lookups: this deployment has only the short form.
            paths.remove(0);
        }
        paths
    }

    fn get_with_retries<'c>(
        &'c self,
        label: &str,
        path: &str,
        deadline: Option<Instant>,
        mut first: Option<Result<Answer<'c>, LookupError>>,
    ) -> Result<Answer<'c>, LookupError> {
        let url = format!("{}{path}", self.base_url);
        let mut backoff = Backoff::new();
        let mut attempt = 0;
        loop {
            // The first try may have been made already, by the multiplexer.
            let result = match first.take() {
                Some(result) => result,
                None => {
                    let timeout = match deadline {
                        Some(deadline) => self
                            .timeout
                            .min(deadline.saturating_duration_since(Instant::now())),
                        None => self.timeout,
                    };
                    if timeout.is_zero() {
                        return Err(LookupError::WaitOver);
                    }
                    self.get_once(label, &url, timeout)
                }
            };
            let (reason, retry_after) = match &result {
                Ok(answer) if is_transient_status(answer.status) => {
                    (format!("HTTP {}", answer.status), answer.retry_after)
                }
                Err(err @ (LookupError::Timeout(_) | LookupError::Unavailable(_))) => {
                    (err.to_string(), None)
                }
                _ => return result,
            };
            if attempt >= self.retries {
                return result;
            }
            attempt += 1;
            let delay = backoff.next_delay(retry_after);
            if deadline.is_some_and(|d| Instant::now() + delay >= d) {
                // No time left for another try: the caller's deadline wins.
                return result;
            }
            self.trace(format_args!(
                "{label}: retry {attempt}/{} in {} after {}",
                self.retries,
                format_duration(delay),
                reason
            ));
            if matches!(&result, Ok(answer) if answer.status == 429) {
                // Too many requests from this account: every worker waits, not only
                // this one (the retry waits its turn like the others).
                self.pace.pause_all(delay);
            } else {
                std::thread::sleep(delay);
            }
        }
    }

    /// One exchange, traced under `-v` as one line: the lookup, the request and what
    /// came of it.
    fn get_once(
        &self,
        label: &str,
        url: &str,
        timeout: Duration,
    ) -> Result<Answer<'_>, LookupError> {
        let started = Instant::now();
        let result = self.exchange(label, url, timeout);
        if self.verbose > 0 {
            let took = format_duration(started.elapsed());
            let url = escape_control(url);
            match &result {
                Ok(answer) => self.trace(format_args!(
                    "{label}: GET {url} -> {} {} in {took} ({} bytes)",
                    answer.status,
                    ureq::http::StatusCode::from_u16(answer.status)
                        .ok()
                        .and_then(|s| s.canonical_reason())
                        .unwrap_or(""),
                    answer.body.len()
                )),
                Err(error) => self.trace(format_args!("{label}: GET {url} -> {error} in {took}")),
            }
        }
        result
    }

    fn trace(&self, line: std::fmt::Arguments<'_>) {
        if self.verbose > 0 {
            let line = line.to_string();
            let line = self.scrubber.scrub(&line);
            let _ = writeln!(std::io::stderr().lock(), "smsstat: {line}");
        }
    }
}

#[path = "client_exchange.rs"]
mod exchange;
#[cfg(unix)]
#[path = "client_mux.rs"]
mod multiplexed;
#[cfg(unix)]
pub use multiplexed::First;
