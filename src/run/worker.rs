//! One lookup of a batch, on whichever worker thread takes its value: the request or
//! the `--wait` polls, `--follow` lines, the state kept for a signal's report, and
//! the early stop.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde_json::{Map, Value};

use crate::cli::OutputFormat;
use crate::domain::error::LookupError;
use crate::domain::fields;
use crate::domain::lookup::LookupKind;
use crate::domain::outcome::Outcome;
use crate::domain::record::Record;
use crate::domain::sanitize::{escape_control, preview};
use crate::domain::verdict::{self, Expectation, Stage, Verdict, WaitSettings};
use crate::http::client::Client;
use crate::output::json_lines::{follow_json, write_json_line};
use crate::output::progress::LiveView;
use crate::run::batch::Input;
use crate::run::by_index::ByIndex;
use crate::run::halt::Halt;
use crate::run::panic_hook::catching;
use crate::run::wait;
use crate::settings::config::Config;

/// Lookups under way by input index: the value and the last record seen.
type InFlight = ByIndex<(String, Option<Record>)>;

/// Shards of the in-flight map: more than workers, so that they rarely share one.
const IN_FLIGHT_SHARDS: usize = 64;

/// Everything a worker needs, shared by all of them.
pub(crate) struct Worker {
    client: Client,
    kind: LookupKind,
    wait: Option<WaitSettings>,
    expect: Expectation,
    follow: Option<Follow>,
    live: Option<Arc<LiveView>>,
    stop: Arc<AtomicBool>,
    /// When `--wait` ends for every lookup of the run.
    wait_deadline: Option<Instant>,
    /// `--until`: what counts as final, with or without `--wait`.
    until: Vec<String>,
    /// Lookups under way by input index: the value and the last record seen.
    /// In shards by index, so that workers rarely meet on one lock.
    in_flight: Vec<Mutex<InFlight>>,
    /// Early stop after account-level failures (off with `--keep-going`).
    halt: Halt,
    /// The service's error body is printed by JSON output only; other formats need
    /// not hold it while the result waits its turn.
    keep_error_body: bool,
    /// Fields outside the schema (a service's own extras, which may be large) are
    /// shown by JSON and the one-record view only; rows, CSV, TSV, `--field` and
    /// the reports read schema fields, so only those wait for their turn.
    keep_extra_fields: bool,
}

/// `--follow`: change lines are printed by the workers as they are seen.
struct Follow {
    normalize: bool,
}

impl Worker {
    /// `single`: one value, shown in the record view.
    pub(crate) fn new(
        config: &Config,
        single: bool,
        kind: LookupKind,
        live: Option<Arc<LiveView>>,
        stop: Arc<AtomicBool>,
    ) -> Worker {
        Worker {
            client: Client::new(config),
            kind,
            wait: config.wait.clone(),
            expect: config.expect.clone(),
            follow: config.follow.then_some(Follow {
                normalize: config.normalize,
            }),
            live,
            stop,
            // One deadline for the whole run: a batch wait ends when the timeout passes.
            wait_deadline: config.wait.as_ref().map(|w| Instant::now() + w.timeout),
            until: config.until.clone(),
            in_flight: (0..IN_FLIGHT_SHARDS).map(|_| Mutex::default()).collect(),
            halt: Halt::new(!config.keep_going),
            keep_error_body: config.follow || config.output == OutputFormat::Json,
            keep_extra_fields: config.follow
                || (config.output == OutputFormat::Json && config.field.is_none())
                || single,
        }
    }

    /// The outcome of input number `index`; while it runs, its last state is kept in
    /// `in_flight` so that a signal can still show it (`abandoned`). A panic fails
    /// this lookup only (exit 70); the hook has told it on stderr.
    pub(crate) fn outcome(&self, index: usize, input: Input) -> Outcome {
        let outcome = self.run_one(index, input);
        self.told(outcome)
    }

    /// Following, a failure is told when it happens, not when the lookups before
    /// it are done (the batch prints nothing under --follow).
    fn told(&self, outcome: Outcome) -> Outcome {
        if outcome.result.is_err() {
            self.print_follow(&outcome);
        }
        outcome
    }

    fn run_one(&self, index: usize, input: Input) -> Outcome {
        let query = match input {
            Ok(query) => query,
            Err(bad) => {
                return Outcome::new(self.kind, bad.shown, Err(LookupError::Usage(bad.reason)))
            }
        };
        if let Some(refusal) = self.halt.refusal() {
            return Outcome::new(self.kind, preview(&query), Err(refusal));
        }
        let shown = preview(&query);
        self.start_tracking(index, shown.clone());
        self.tracked(index, shown, Instant::now(), || self.look_up(index, query))
    }

    /// A lookup being tracked since `started`: a panic fails it alone, and once it
    /// ends it leaves the in-flight map and tells the early stop what came of it.
    fn tracked(
        &self,
        index: usize,
        shown: String,
        started: Instant,
        look_up: impl FnOnce() -> Outcome,
    ) -> Outcome {
        let mut outcome =
            catching(look_up).unwrap_or_else(|()| Outcome::new(self.kind, shown, Err(panicked())));
        outcome.elapsed = started.elapsed();
        self.in_flight_map(index).remove(&index);
        self.halt.observe(&outcome.result);
        self.slimmed(outcome)
    }

    /// Only what will be printed is kept while the outcome waits for its turn.
    fn slimmed(&self, mut outcome: Outcome) -> Outcome {
        match &mut outcome.result {
            Err(LookupError::Service { body, .. }) if !self.keep_error_body => {
                **body = Default::default();
            }
            Ok(record) if !self.keep_extra_fields => {
                let kind = record.kind;
                record.fields.retain(|key, _| {
                    fields::find(kind, key).is_some()
                        || fields::ERROR_FIELDS.contains(&key.as_str())
                });
            }
            _ => {}
        }
        outcome
    }

    /// What to print for a lookup still running when Ctrl-C's grace period ended: its
    /// last state seen, marked interrupted.
    pub(crate) fn abandoned(&self, index: usize) -> Option<Outcome> {
        let (query, last) = self.in_flight_map(index).remove(&index)?;
        let outcome = match last {
            Some(record) => Outcome {
                verdict: Some(self.interrupted(&record)),
                ..Outcome::new(self.kind, query, Ok(record))
            },
            None => Outcome::new(
                self.kind,
                query,
                Err(LookupError::Interrupted {
                    code: crate::run::interrupt::exit_code(),
                }),
            ),
        };
        if outcome.result.is_err() {
            self.print_follow(&outcome);
        }
        Some(outcome)
    }

    fn interrupted(&self, record: &Record) -> Verdict {
        Verdict {
            code: crate::run::interrupt::exit_code(),
            message: format!(
                "interrupted; last seen: {}",
                live_status(record, &self.until)
            ),
        }
    }

    fn in_flight_map(&self, index: usize) -> std::sync::MutexGuard<'_, InFlight> {
        self.in_flight[index % IN_FLIGHT_SHARDS]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    fn start_tracking(&self, index: usize, shown_query: String) {
        self.in_flight_map(index).insert(index, (shown_query, None));
    }

    fn track_last_seen(&self, index: usize, record: &Record) {
        if let Some(entry) = self.in_flight_map(index).get_mut(&index) {
            entry.1 = Some(record.clone());
        }
    }

    fn look_up(&self, index: usize, query: String) -> Outcome {
        if let Err(refused) = self.kind.validate(&query) {
            // Refused before sending; a value is shown cut (echoing megabytes helps nobody).
            return Outcome::new(self.kind, preview(&query), Err(refused));
        }
        let Some(settings) = &self.wait else {
            let result = self.client.lookup_until(self.kind, &query, None).0;
            return self.judged(query, result);
        };
        let mut last_seen: Option<Record> = None;
        let line = self
            .live
            .as_ref()
            .map(|live| live.line(index, &format!("{} {}", self.kind.name(), preview(&query))));
        let deadline = self.wait_deadline.unwrap_or_else(Instant::now);
        let watched = wait::watch(
            &self.client,
            self.kind,
            &query,
            settings,
            deadline,
            &self.stop,
            |record, polls| {
                if let Some(line) = &line {
                    line.update(&live_status(record, &settings.until), polls);
                }
                if last_seen.as_ref() != Some(record) {
                    self.track_last_seen(index, record);
                    self.print_change(&query, record);
                    last_seen = Some(record.clone());
                }
            },
        );
        let verdict = match &watched.result {
            Ok(record) if watched.interrupted => Some(self.interrupted(record)),
            Ok(record) => {
                verdict::verdict(record, &settings.until, &self.expect, Some(watched.waited))
            }
            Err(_) => None,
        };
        self.protected(query, verdict, watched.result)
    }

    /// The outcome of a lookup without `--wait`: its verdict, then protected.
    fn judged(&self, query: String, result: Result<Record, LookupError>) -> Outcome {
        let verdict = result
            .as_ref()
            .ok()
            .and_then(|r| verdict::verdict(r, &self.until, &self.expect, None));
        self.protected(query, verdict, result)
    }

    /// The outcome as it may be shown: the verdict was drawn on the record as sent;
    /// the record is protected now, and the verdict's message, which may quote the
    /// record, is scrubbed like it.
    fn protected(
        &self,
        query: String,
        verdict: Option<Verdict>,
        mut result: Result<Record, LookupError>,
    ) -> Outcome {
        self.client.protect(&mut result);
        let verdict = verdict.map(|v| Verdict {
            message: self.client.scrub_text(&v.message),
            ..v
        });
        Outcome {
            verdict,
            ..Outcome::new(self.kind, query, result)
        }
    }

    fn print_change(&self, query: &str, record: &Record) {
        if self.follow.is_some() {
            let outcome = Outcome::new(self.kind, query.to_string(), Ok(record.clone()));
            self.print_follow(&outcome);
        }
    }

    /// One `--follow` line on stdout; nothing without --follow.
    fn print_follow(&self, outcome: &Outcome) {
        let Some(follow) = &self.follow else { return };
        let line = follow_json(outcome, follow.normalize);
        // One locked write per line: lines of concurrent workers never interleave.
        let mut out = io::stdout().lock();
        if write_json_line(&mut out, &line)
            .and_then(|_| out.flush())
            .is_err()
        {
            // The reader is gone: nothing more to follow.
            self.stop.store(true, Ordering::SeqCst);
        }
    }
}

/// The failure of a lookup that panicked; its line and the hook's are all that is
/// told of it (the payload may hold answer data).
fn panicked() -> LookupError {
    LookupError::Internal(PANICKED.into())
}

/// The text of a lookup's failure after a panic, told apart from other internal
/// errors so that stderr gets one line for the whole run.
pub(crate) const PANICKED: &str = "the lookup hit a bug";

/// A rough count of the bytes an outcome holds, for the reorder buffer's budget:
/// every string and number of its record or error body, plus a fixed overhead.
pub(crate) fn weigh(outcome: &Outcome) -> usize {
    const OVERHEAD: usize = 256;
    let fields = match &outcome.result {
        Ok(record) => weigh_map(&record.fields),
        Err(LookupError::Service { body, .. }) => weigh_map(body),
        Err(_) => 0,
    };
    OVERHEAD + outcome.query.len() + fields
}

fn weigh_map(map: &Map<String, Value>) -> usize {
    map.iter().map(|(k, v)| 48 + k.len() + weigh_value(v)).sum()
}

fn weigh_value(value: &Value) -> usize {
    match value {
        Value::String(text) => text.len(),
        Value::Number(number) => number.as_str().len(),
        Value::Array(items) => items.iter().map(|v| 16 + weigh_value(v)).sum(),
        Value::Object(map) => weigh_map(map),
        Value::Null | Value::Bool(_) => 0,
    }
}

/// What the live view says of a polled record.
fn live_status(record: &Record, until: &[String]) -> String {
    match verdict::stage(record, until) {
        Stage::Final => "final".into(),
        Stage::Pending(what) => escape_control(&what).into_owned(),
    }
}

#[cfg(unix)]
#[path = "flights.rs"]
mod flights;
#[cfg(unix)]
pub(crate) use flights::MuxFlights;
