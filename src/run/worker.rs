//! The lookups of a run, as the batch engine steps them: the first request, retries
//! and the short path (`http::client::Attempts`), the `--wait` polls (`wait::Watch`),
//! `--follow` lines, the state kept for a signal's report, and the early stop.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde_json::{Map, Value};

use crate::domain::error::LookupError;
use crate::domain::fields;
use crate::domain::lookup::LookupKind;
use crate::domain::outcome::Outcome;
use crate::domain::record::Record;
use crate::domain::sanitize::{escape_control, preview};
use crate::domain::verdict::{self, Expectation, Stage, Verdict, WaitSettings};
use crate::http::client::{Attempts, Client, Next};
use crate::output::json_lines::{follow_json, write_json_line};
use crate::output::progress::{LiveLine, LiveView};
use crate::run::batch::{Input, Step, Work};
use crate::run::halt::Halt;
use crate::run::panic_hook::catching;
use crate::run::wait::{Polled, Watch};
use crate::settings::config::Config;

/// Lookups under way by input index: the value and the last record seen.
type InFlight = ByIndex<(String, Option<Record>)>;

/// Maps keyed by a lookup's input index, hashed by one multiplication: SipHash (the
/// default, made to resist keys chosen by an attacker) was a visible share of a
/// batch's CPU, and indexes are our own counter.
type ByIndex<V> = HashMap<usize, V, BuildHasherDefault<IndexHasher>>;

#[derive(Debug, Default)]
struct IndexHasher(u64);

impl Hasher for IndexHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(self.0.rotate_left(8) ^ u64::from(byte));
        }
    }

    fn write_u64(&mut self, n: u64) {
        // Fibonacci hashing: consecutive indexes spread over the high bits too,
        // which the table uses to tell entries apart.
        self.0 = n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

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
    /// A `--follow` line that stdout did not take (not a closed pipe).
    write_error: Mutex<Option<io::Error>>,
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
        let (output, watch) = (&config.output, &config.watch);
        Worker {
            client: Client::new(&config.http, config.batch.jobs),
            kind,
            wait: watch.wait.clone(),
            expect: watch.expect.clone(),
            follow: watch.follow.then_some(Follow {
                normalize: output.normalize,
            }),
            live,
            stop,
            // One deadline for the whole run: a batch wait ends when the timeout passes.
            wait_deadline: watch.wait.as_ref().map(|w| Instant::now() + w.timeout),
            until: watch.until.clone(),
            in_flight: (0..IN_FLIGHT_SHARDS).map(|_| Mutex::default()).collect(),
            halt: Halt::new(!config.batch.keep_going),
            keep_error_body: watch.follow || output.format.keeps_error_body(),
            keep_extra_fields: watch.follow
                || (output.format.keeps_extra_fields() && output.field.is_none())
                || single,
            write_error: Mutex::default(),
        }
    }

    /// The outcome of a lookup that ended before any request (a bad value, the
    /// early stop), told at once under `--follow`.
    fn ended(&self, query: String, error: LookupError) -> Outcome {
        self.told(Outcome::new(self.kind, query, Err(error)))
    }

    /// Following, a failure is told when it happens, not when the lookups before
    /// it are done (the batch prints nothing under --follow).
    fn told(&self, outcome: Outcome) -> Outcome {
        if outcome.result.is_err() {
            self.print_follow(&outcome);
        }
        outcome
    }

    /// The outcome of a lookup that ended after `started`: it leaves the in-flight
    /// map, tells the early stop what came of it, and keeps only what is printed.
    fn finished(&self, index: usize, started: Instant, mut outcome: Outcome) -> Outcome {
        outcome.elapsed = started.elapsed();
        self.in_flight_map(index).remove(&index);
        self.halt.observe(&outcome.result);
        self.told(self.slimmed(outcome))
    }

    /// One request of `lookup` and what came of it.
    fn advance(&self, index: usize, lookup: &mut Lookup) -> Step<Outcome> {
        let Lookup {
            query,
            attempts,
            watch,
            ..
        } = lookup;
        if attempts.fresh() && watch.as_ref().is_none_or(|w| w.watch.polls == 0) {
            if let Some(refusal) = self.halt.refusal() {
                return Step::Done(Outcome::new(self.kind, preview(query), Err(refusal)));
            }
        }
        let (Some(settings), Some(watching)) = (&self.wait, watch) else {
            return match self.client.step(self.kind, query, attempts, None) {
                Next::At(at) => Step::At(at),
                Next::Done(result) => Step::Done(self.judged(query.clone(), result, None)),
            };
        };
        let deadline = self.wait_deadline.unwrap_or_else(Instant::now);
        if attempts.fresh() {
            if let Some(last) = watching.watch.expired(Instant::now(), deadline) {
                return Step::Done(self.waited(query, settings, watching, last));
            }
        }
        let result = match self.client.step(self.kind, query, attempts, Some(deadline)) {
            Next::At(at) => return Step::At(at),
            Next::Done(result) => result,
        };
        if let Ok(record) = &result {
            self.observe(index, query, watching, record);
        }
        let retry_after = attempts.retry_after;
        match watching
            .watch
            .polled(result, retry_after, settings, Instant::now(), deadline)
        {
            Polled::Again(at) => {
                *attempts = self.client.attempts(self.kind, query);
                Step::At(at)
            }
            Polled::Over(result) => Step::Done(self.waited(query, settings, watching, result)),
        }
    }

    /// A polled record, shown protected (the key scrubbed, numbers masked): the live
    /// line, the state kept for a signal, and a `--follow` line when it changed.
    fn observe(&self, index: usize, query: &str, watching: &mut Watching, record: &Record) {
        let mut shown = Ok(record.clone());
        self.client.protect(&mut shown);
        let Ok(shown) = shown else { return };
        if let Some(line) = &watching.line {
            line.update(&live_status(&shown, &self.until), watching.watch.polls);
        }
        if watching.last_seen.as_ref() != Some(&shown) {
            self.track_last_seen(index, &shown);
            self.print_change(query, &shown);
            watching.last_seen = Some(shown);
        }
    }

    /// The outcome of a watch that is over.
    fn waited(
        &self,
        query: &str,
        settings: &WaitSettings,
        watching: &Watching,
        result: Result<Record, LookupError>,
    ) -> Outcome {
        // A wait that ran into the run's deadline took the whole --wait-timeout, as
        // asked: said so, not as the few milliseconds short that the clock shows.
        let over = self.wait_deadline.is_some_and(|d| Instant::now() >= d);
        let waited = Some(match over {
            true => settings.timeout,
            false => watching.watch.started.elapsed(),
        });
        let verdict = result
            .as_ref()
            .ok()
            .and_then(|r| verdict::verdict(r, &settings.until, &self.expect, waited));
        self.protected(query.to_string(), verdict, result)
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

    fn track_last_seen(&self, index: usize, record: &Record) {
        if let Some(entry) = self.in_flight_map(index).get_mut(&index) {
            entry.1 = Some(record.clone());
        }
    }

    /// The outcome of a lookup without `--wait`: its verdict, then protected.
    fn judged(
        &self,
        query: String,
        result: Result<Record, LookupError>,
        waited: Option<std::time::Duration>,
    ) -> Outcome {
        let verdict = result
            .as_ref()
            .ok()
            .and_then(|r| verdict::verdict(r, &self.until, &self.expect, waited));
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
        if let Err(err) = write_json_line(&mut out, &line).and_then(|_| out.flush()) {
            // Nothing more to follow: the reader is gone (quiet), or stdout cannot be
            // written (kept for the run's end: exit 74).
            if err.kind() != io::ErrorKind::BrokenPipe {
                let mut kept = self.write_error.lock().unwrap_or_else(|e| e.into_inner());
                kept.get_or_insert(err);
            }
            self.stop.store(true, Ordering::SeqCst);
        }
    }

    /// The first error writing a `--follow` line other than a reader gone away.
    pub(crate) fn take_write_error(&self) -> Option<io::Error> {
        self.write_error
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
    }
}

/// One lookup under way: between its steps it waits in the engine's queue.
pub(crate) struct Lookup {
    query: String,
    started: Instant,
    attempts: Attempts,
    /// Under `--wait`.
    watch: Option<Watching>,
}

/// A value being watched, and what the terminal shows of it.
struct Watching {
    watch: Watch,
    /// The last record seen, protected: `--follow` prints a line when it changes.
    last_seen: Option<Record>,
    /// Its line in the live view; dropped with the lookup.
    line: Option<LiveLine>,
}

impl Work for Worker {
    type Lookup = Lookup;
    type Out = Outcome;

    fn begin(&self, index: usize, input: Input) -> Result<Lookup, Outcome> {
        let query = match input {
            Ok(query) => query,
            Err(bad) => return Err(self.ended(bad.shown, LookupError::Usage(bad.reason))),
        };
        if let Some(refusal) = self.halt.refusal() {
            return Err(self.ended(preview(&query), refusal));
        }
        if let Err(refused) = self.kind.validate(&query) {
            // Refused before sending; a value is shown cut (echoing megabytes helps nobody).
            return Err(self.ended(preview(&query), refused));
        }
        let shown = preview(&query);
        let now = Instant::now();
        let watch = self.wait.as_ref().map(|settings| Watching {
            watch: Watch::new(settings, now),
            last_seen: None,
            line: self
                .live
                .as_ref()
                .map(|live| live.line(index, &format!("{} {shown}", self.kind.name()))),
        });
        self.in_flight_map(index).insert(index, (shown, None));
        Ok(Lookup {
            attempts: self.client.attempts(self.kind, &query),
            query,
            started: now,
            watch,
        })
    }

    /// A panic (reading the answer is most of the work) fails this lookup alone
    /// (exit 70); the hook has told it on stderr.
    fn step(&self, index: usize, lookup: &mut Lookup) -> Step<Outcome> {
        let outcome = match catching(|| self.advance(index, lookup)) {
            Ok(Step::At(at)) => return Step::At(at),
            Ok(Step::Done(outcome)) => outcome,
            Err(()) => Outcome::new(self.kind, preview(&lookup.query), Err(panicked())),
        };
        Step::Done(self.finished(index, lookup.started, outcome))
    }

    fn weigh(&self, outcome: &Outcome) -> usize {
        weigh(outcome)
    }

    /// What to print for a lookup still under way when a signal's grace period
    /// ended: its last state seen, marked interrupted.
    fn abandoned(&self, index: usize) -> Option<Outcome> {
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
        Some(self.told(outcome))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indexes_are_kept_apart() {
        let mut map = ByIndex::default();
        for i in 0..10_000 {
            map.insert(i, i * 2);
        }
        assert_eq!(map.len(), 10_000);
        assert!((0..10_000).all(|i| map[&i] == i * 2));
        map.remove(&5);
        assert!(!map.contains_key(&5));
    }
}
