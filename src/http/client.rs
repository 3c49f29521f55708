//! The one HTTP client: a lookup's requests through ureq, and what each answer means
//! for it: done, retried after a pause, or sent again on the short path. The
//! decisions (`Attempts`) do no I/O and the batch engine runs them: nothing here sleeps.

use std::io::Write;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ureq::Agent;

use crate::domain::budget::{Budget, Permit};
use crate::domain::duration::format_duration;
use crate::domain::error::LookupError;
use crate::domain::lookup::{LookupKind, PathStyle};
use crate::domain::record::Record;
use crate::domain::sanitize::{escape_control, preview};
use crate::domain::step::Step;
use crate::http::agents::{Agents, ACCEPT, USER_AGENT};
use crate::http::answer::{interpret, is_missing_route, parse_object, status_error};
use crate::http::pace::Pace;
use crate::http::redact::Scrubber;
use crate::http::retry::{parse_retry_after, Backoff};
use crate::http::transport::{closed_early, read_body, transport_error};
use crate::settings::config::HttpSettings;
use crate::settings::secret::mask_key;

pub struct Client {
    agents: Agents,
    /// The run's, shared with the engine: large answers count against it while read.
    budget: Arc<Budget>,
    /// `--rate` and the pause after a 429, shared by every lookup.
    pace: Pace,
    routes: RouteEvidence,
    http: HttpSettings,
    /// The one scrubber: every answer and every trace line goes through it.
    scrubber: Scrubber,
    /// `SMSSTAT_DEBUG_PANIC` (debug builds only; tests/it/hostile.rs tests the panic
    /// hook with it): a deliberate panic in every lookup ("1") or in that value's.
    debug_panic: Option<String>,
}

/// An HTTP answer, body already read (within the cap).
pub struct Answer<'a> {
    pub status: u16,
    pub retry_after: Option<Duration>,
    pub location: Option<String>,
    pub body: Vec<u8>,
    /// Large bodies count against the run's memory budget until parsed.
    pub _permit: Permit<'a>,
}

/// Where a lookup's requests stand. Small: a batch under `--wait` keeps one per value.
#[derive(Debug, Default)]
pub struct Attempts {
    paths: Vec<String>,
    path: usize,
    retries: u32,
    /// Retries allowed on each path: `--retries` for a lookup, none for a probe.
    allowed: u32,
    backoff: Backoff,
    /// The turn taken when the request had to wait for one (`--rate`, a 429's pause).
    turn: Option<Instant>,
    /// The last `Retry-After` the server asked for: a floor for the next `--wait` poll.
    pub retry_after: Option<Duration>,
}

impl Attempts {
    pub fn new(paths: Vec<String>, allowed: u32) -> Attempts {
        Attempts {
            paths,
            allowed,
            ..Attempts::default()
        }
    }

    pub fn fresh(&self) -> bool {
        self.path == 0 && self.retries == 0
    }
}

impl Client {
    pub fn new(http: &HttpSettings, jobs: usize, budget: Arc<Budget>) -> Client {
        Client {
            agents: Agents::new(http, jobs),
            budget,
            pace: Pace::new(http.rate_interval),
            routes: RouteEvidence::default(),
            http: http.clone(),
            scrubber: Scrubber::new(http.api_key.as_ref()),
            debug_panic: std::env::var("SMSSTAT_DEBUG_PANIC")
                .ok()
                .filter(|v| cfg!(debug_assertions) && !v.is_empty()),
        }
    }

    /// `check`'s probe: one request on the explicit path, whatever `--paths` and
    /// `--retries` say (a retry would hide the service's own answer on that route),
    /// run on the calling thread; the result is `protect`ed, ready for output.
    pub fn probe(&self, kind: LookupKind, value: &str) -> Result<Record, LookupError> {
        let mut attempts = Attempts::new(kind.paths(value, PathStyle::Explicit), 0);
        let mut result = loop {
            match self.step(kind, value, &mut attempts, None) {
                Step::Done(result) => break result,
                Step::At(at) => std::thread::sleep(at.saturating_duration_since(Instant::now())),
            }
        };
        self.protect(&mut result);
        result
    }

    pub fn attempts(&self, kind: LookupKind, value: &str) -> Attempts {
        let mut paths = kind.paths(value, self.http.paths);
        if paths.len() > 1 && self.routes.explicit_missing(kind) {
            // Learnt on earlier lookups: this deployment has only the short form.
            paths.remove(0);
        }
        Attempts::new(paths, self.http.retries)
    }

    /// One step of a lookup whose next request is due: its `--rate` turn, or the
    /// request and what its answer means. `deadline` (the end of `--wait`) bounds
    /// the request and any retry. `value` has passed `kind.validate`. The result is
    /// as sent: `protect` it before showing it.
    pub fn step(
        &self,
        kind: LookupKind,
        value: &str,
        attempts: &mut Attempts,
        deadline: Option<Instant>,
    ) -> Step<Result<Record, LookupError>> {
        let debug_panic = self.debug_panic.as_deref();
        let debug_panic = debug_panic.is_some_and(|only| only == "1" || only == value);
        if debug_panic && attempts.fresh() && attempts.turn.is_none() {
            // The payload stands for data from an answer: the hook must not show it.
            panic!("SMSSTAT_DEBUG_PANIC: deliberate panic looking up {value}");
        }
        // Nothing is sent past the deadline, and no turn is waited for beyond it.
        let now = Instant::now();
        let left = deadline.map_or(Duration::MAX, |d| d.saturating_duration_since(now));
        let timeout = self.http.timeout.min(left);
        if timeout.is_zero() {
            return Step::Done(Err(LookupError::WaitOver));
        }
        // A pause that began after the turn was taken holds it: taken again.
        if attempts.turn.take().is_none_or(|t| self.pace.held_past(t)) {
            if let Some(turn) = self.pace.turn() {
                attempts.turn = Some(turn);
                return Step::At(deadline.map_or(turn, |d| turn.min(d)));
            }
        }
        let url = [self.http.base_url.as_str(), &attempts.paths[attempts.path]].concat();
        let label = self.label(kind, value);
        let started = Instant::now();
        let answer = self.exchange(&label, &url, timeout);
        if self.http.verbose > 0 {
            // The exchange as one line: the lookup, the request and what came of it.
            let took = format_duration(started.elapsed());
            let url = escape_control(&url);
            let outcome = match &answer {
                Ok(Answer { status, body, .. }) => {
                    let reason = httpcore::reason(*status);
                    format!("{status} {reason} in {took} ({} bytes)", body.len())
                }
                Err(error) => format!("{error} in {took}"),
            };
            self.trace(format_args!("{label}: GET {url} -> {outcome}"));
        }
        self.after(attempts, answer, Instant::now(), kind, value, deadline)
    }

    /// What every -v line of a lookup begins with: which lookup it belongs to.
    fn label(&self, kind: LookupKind, value: &str) -> String {
        let label = || format!("{} {}", kind.name(), preview(value));
        (self.http.verbose > 0).then(label).unwrap_or_default()
    }

    /// What the answer to the current request means for the lookup of `value`, at
    /// `now`. A retry is not worth its pause past `deadline` (the end of `--wait`).
    fn after(
        &self,
        attempts: &mut Attempts,
        answer: Result<Answer<'_>, LookupError>,
        now: Instant,
        kind: LookupKind,
        value: &str,
        deadline: Option<Instant>,
    ) -> Step<Result<Record, LookupError>> {
        // Only explicit paths with a short form behind them are evidence.
        let short_form = attempts.path + 1 < attempts.paths.len();
        let label = self.label(kind, value);
        let (result, status, retry_after, missing) = match answer {
            Err(err) => (Err(err), None, None, false),
            Ok(answer) => {
                attempts.retry_after = answer.retry_after;
                let parsed = parse_object(&answer.body, &self.scrubber);
                let missing = short_form && is_missing_route(answer.status, &parsed);
                let record = interpret(answer.status, answer.location, parsed, kind.record_kind());
                let result = record.and_then(|record| match kind.check_answer(value, &record) {
                    Ok(()) => Ok(record),
                    Err(message) => Err(LookupError::WrongRecord {
                        message,
                        record: Box::new(record.fields),
                    }),
                });
                (result, Some(answer.status), answer.retry_after, missing)
            }
        };
        // The status alone may say "try again" (a 429 or a 503 whose body is the
        // service's error): retried on it; the body still decides the result.
        let transient = status.is_some_and(|s| status_error(s, None, None).is_transient())
            || matches!(&result, Err(err) if err.is_transient());
        if transient && attempts.retries < attempts.allowed {
            let delay = attempts.backoff.next_delay(retry_after);
            // No time left for another try: the caller's deadline wins.
            if deadline.is_none_or(|d| now + delay < d) {
                attempts.retries += 1;
                let reason = match &result {
                    Err(err) if status.is_none() => err.to_string(),
                    _ => format!("HTTP {}", status.unwrap_or_default()),
                };
                self.trace(format_args!(
                    "{label}: retry {}/{} in {} after {reason}",
                    attempts.retries,
                    attempts.allowed,
                    format_duration(delay)
                ));
                if status == Some(429) {
                    // Too many requests from this account: every lookup waits, not
                    // only this one (the retry waits its turn like the others).
                    self.pace.pause_all(delay);
                }
                return Step::At(now + delay);
            }
        }
        // A failed exchange is no evidence either way.
        if short_form && status.is_some() {
            self.routes.note(kind, missing);
            if missing {
                let path = &attempts.paths[attempts.path];
                self.trace(format_args!(
                    "{label}: no route {path} here; trying the short form"
                ));
                attempts.path += 1;
                attempts.retries = 0;
                attempts.backoff = Backoff::default();
                return Step::At(now);
            }
        }
        Step::Done(result)
    }

    /// What may be shown of a result: the key scrubbed, the number masked under
    /// `--mask-msisdn`. Applied after the verdict, so that a key such as `live`
    /// cannot turn `delivered` into another status: the record is judged as sent.
    pub fn protect(&self, result: &mut Result<Record, LookupError>) {
        crate::domain::msisdn::mask_result(result, self.http.mask_msisdn);
        self.scrubber.scrub_result(result);
    }

    /// A message built from a record (a verdict), with the key scrubbed.
    pub fn scrub_text(&self, text: &str) -> String {
        self.scrubber.scrub(text).into_owned()
    }

    fn exchange(
        &self,
        label: &str,
        url: &str,
        timeout: Duration,
    ) -> Result<Answer<'_>, LookupError> {
        if self.http.verbose > 1 {
            // curl's order: the request line, its headers, then the answer's.
            self.trace(format_args!("{label}: > GET {}", escape_control(url)));
            // The agent's own headers first (`agent_config`), then the request's.
            let key = self.http.api_key.as_ref();
            let key = key.map(|key| (self.http.api_key_header.as_str(), key.expose()));
            let agent = [("user-agent", USER_AGENT), ("accept", ACCEPT)];
            for (name, value) in agent.into_iter().chain(key) {
                let line = self.header_line(name, value.as_bytes());
                self.trace(format_args!("{label}: > {line}"));
            }
        }
        let mut response = self
            .send(label, url, timeout)
            .map_err(|e| transport_error(e, timeout))?;
        let status = response.status();
        if self.http.verbose > 1 {
            self.trace(format_args!("{label}: < {status}"));
            for (name, value) in response.headers() {
                let line = self.header_line(name.as_str(), value.as_bytes());
                self.trace(format_args!("{label}: < {line}"));
            }
        }
        // Lossy rather than `to_str`: a Location with non-ASCII bytes is still shown
        // (escaped) in the message, not silently dropped.
        let header = |name| response.headers().get(name).map(|v| v.as_bytes());
        let header = |name| header(name).map(|v| String::from_utf8_lossy(v).into_owned());
        let retry_after = header("retry-after").as_deref().and_then(parse_retry_after);
        let location = header("location");
        let (body, permit) = read_body(&mut response, timeout, self.http.max_body, &self.budget)?;
        Ok(Answer {
            status: status.as_u16(),
            retry_after,
            location,
            body,
            _permit: permit,
        })
    }

    /// Sends the GET; once more on a new connection when the reused one turned out
    /// closed.
    fn send(
        &self,
        label: &str,
        url: &str,
        timeout: Duration,
    ) -> Result<ureq::http::Response<ureq::Body>, ureq::Error> {
        let get = |agent: &Agent| {
            let mut request = agent.get(url);
            if timeout < self.http.timeout {
                request = request.config().timeout_global(Some(timeout)).build();
            }
            if let Some(key) = &self.http.api_key {
                request = request.header(self.http.api_key_header.clone(), key.expose());
            }
            request.call()
        };
        let sent = get(self.agents.pooled());
        let reused = self.agents.answered(sent.is_ok());
        match sent {
            // Only a reused connection can have been closed while idle; a new one
            // that closes early is the server failing, for the retries to judge.
            Err(error) if reused && closed_early(&error) => {
                // Not counted as a retry: the server did not fail, the idle
                // connection was gone. A GET is safe to send again, at once.
                self.trace(format_args!(
                    "{label}: connection closed early ({error}); sending again"
                ));
                get(&self.agents.fresh)
            }
            sent => sent,
        }
    }

    /// One header as `-vv` shows it (curl-style), safe to print: the key header masked,
    /// other credentials hidden, any echo of the key scrubbed.
    fn header_line(&self, name: &str, value: &[u8]) -> String {
        let value = String::from_utf8_lossy(value);
        let shown = if name.eq_ignore_ascii_case(self.http.api_key_header.as_str()) {
            mask_key(&value)
        } else if SECRET_HEADERS.iter().any(|s| name.eq_ignore_ascii_case(s)) {
            "****".to_string()
        } else {
            self.scrubber.scrub(&value).into_owned()
        };
        let name = self.scrubber.scrub(name);
        format!("{}: {}", escape_control(&name), escape_control(&shown))
    }

    fn trace(&self, line: std::fmt::Arguments<'_>) {
        if self.http.verbose > 0 {
            let line = line.to_string();
            let line = self.scrubber.scrub(&line);
            let _ = writeln!(std::io::stderr().lock(), "smsstat: {line}");
        }
    }
}

/// Headers that carry credentials of some kind, whatever the key header is called.
const SECRET_HEADERS: [&str; 4] = [
    "authorization",
    "proxy-authorization",
    "cookie",
    "set-cookie",
];

/// Whether a deployment has the explicit routes: per lookup kind, the served and the
/// missing-route answers of explicit paths. One stray answer (an HTML 404 from a
/// proxy) must not switch a whole run to short forms, where `/sms/{x}` may answer
/// another record: it takes two missing-route answers of the same kind and none served.
#[derive(Default)]
struct RouteEvidence([[AtomicU32; 2]; 5]);

impl RouteEvidence {
    fn note(&self, kind: LookupKind, missing: bool) {
        self.0[kind as usize][usize::from(missing)].fetch_add(1, Ordering::Relaxed);
    }

    fn explicit_missing(&self, kind: LookupKind) -> bool {
        let [served, missing] = &self.0[kind as usize];
        served.load(Ordering::Relaxed) == 0 && missing.load(Ordering::Relaxed) >= 2
    }
}

#[cfg(test)]
mod tests;
