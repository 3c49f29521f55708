//! The lookups of a run, as the batch engine steps them: the first request, retries
//! and the short path (`http::client::Attempts`), the `--wait` polls (`wait::Watch`),
//! `--follow` lines, what a stop prints of a lookup cut short, and the early stop.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

use crate::domain::budget::Budget;
use crate::domain::error::LookupError;
use crate::domain::fields;
use crate::domain::lock;
use crate::domain::lookup::LookupKind;
use crate::domain::outcome::Outcome;
use crate::domain::record::Record;
use crate::domain::sanitize::{escape_control, preview};
use crate::domain::step::Step;
use crate::domain::verdict::{self, Stage, Verdict};
use crate::http::client::{Attempts, Client};
use crate::output::progress::{LiveLine, LiveView};
use crate::run::batch::{Cut, Input, Tell, Work};
use crate::run::halt::Halt;
use crate::run::interrupt;
use crate::run::panic_hook::catching;
use crate::run::wait::{Kept, Watch};
use crate::settings::config::{Config, WatchSettings};

pub(crate) struct Worker {
    client: Client,
    kind: LookupKind,
    /// `--until` (what counts as final) holds with or without `--wait`.
    watch: WatchSettings,
    live: Option<Arc<LiveView>>,
    deadline: Option<Instant>,
    /// Early stop after account-level failures (off with `--keep-going`).
    halt: Halt,
    /// The service's error body is printed by JSON output only.
    keep_error_body: bool,
    /// Fields outside the schema (which may be large) are shown by JSON and the
    /// one-record view only.
    keep_extra_fields: bool,
}

impl Worker {
    /// `single`: one value, shown in the record view.
    pub(crate) fn new(
        config: &Config,
        single: bool,
        kind: LookupKind,
        live: Option<Arc<LiveView>>,
        deadline: Option<Instant>,
        budget: Arc<Budget>,
    ) -> Worker {
        let (style, watch) = (&config.output.style, &config.watch);
        Worker {
            client: Client::new(&config.http, config.batch.jobs, budget),
            kind,
            watch: watch.clone(),
            live,
            deadline,
            halt: Halt::new(!config.batch.keep_going),
            keep_error_body: watch.follow || style.format.is_json_lines(),
            keep_extra_fields: watch.follow
                || (style.format.is_json_lines() && style.field.is_none())
                || single,
        }
    }

    /// Following, a failure is told when it happens, not when the lookups before
    /// it are done (the batch prints nothing else under --follow).
    fn told(&self, outcome: Outcome, tell: Tell<'_, Outcome>) -> Outcome {
        if self.watch.follow && outcome.result.is_err() {
            tell(&outcome);
        }
        outcome
    }

    fn advance(&self, lookup: &mut Lookup, tell: Tell<'_, Outcome>) -> Step<Outcome> {
        // The early stop holds back a lookup's first request, however long it waited
        // in the queue; one already under way goes on.
        if let Some(refusal) = self.halt.refusal().filter(|_| !lookup.sent()) {
            let query = preview(&lookup.query);
            return Step::Done(Outcome::new(self.kind, query, Err(refusal)));
        }
        let (query, attempts) = (&lookup.query, &mut lookup.attempts);
        let result = match self.client.step(self.kind, query, attempts, self.deadline) {
            Step::At(at) => return Step::At(at),
            Step::Done(result) => result,
        };
        let (Some(settings), Some(watch), Some(deadline)) =
            (&self.watch.wait, &mut lookup.watch, self.deadline)
        else {
            return Step::Done(self.judged(query.clone(), result, None));
        };
        // Kept while watched: only what the output needs of it.
        let result = result.map(|record| self.kept(record));
        let mut last = lock(&lookup.seen.last);
        if let Ok(record) = &result {
            if let Some(line) = &lookup.line {
                let status = live_status(record, &self.watch.until);
                line.update(&self.client.scrub_text(&status), watch.polls + 1);
            }
            // `--follow`: a record that changed is told at once (protected).
            if self.watch.follow && last.as_ref() != Some(&Kept::of(record)) {
                tell(&self.protected(query.clone(), None, Ok(record.clone())));
            }
        }
        let (retry_after, now) = (attempts.retry_after, Instant::now());
        match watch.polled(result, retry_after, settings, &mut last, now, deadline) {
            Step::At(at) => {
                *attempts = self.client.attempts(self.kind, query);
                Step::At(at)
            }
            Step::Done(result) => {
                // A wait that ran into the run's deadline took the whole
                // --wait-timeout, as asked: not the few milliseconds short the clock shows.
                let waited = match Instant::now() >= deadline {
                    true => settings.timeout,
                    false => lookup.seen.started.elapsed(),
                };
                Step::Done(self.judged(query.clone(), result, Some(waited)))
            }
        }
    }

    /// What the output shows of a record, kept while its turn comes.
    fn kept(&self, mut record: Record) -> Record {
        if !self.keep_extra_fields {
            let kind = record.kind;
            record.fields.retain(|key, _| {
                fields::find(kind, key).is_some() || fields::ERROR_FIELDS.contains(&key.as_str())
            });
        }
        record
    }

    /// Only what will be printed is kept while the outcome waits for its turn.
    fn slimmed(&self, mut outcome: Outcome) -> Outcome {
        match outcome.result {
            Err(LookupError::Service { ref mut body, .. }) if !self.keep_error_body => {
                **body = Default::default();
            }
            Ok(record) => outcome.result = Ok(self.kept(record)),
            _ => {}
        }
        outcome
    }

    /// The outcome of a lookup with its verdict (`--until` is the wait's too), then
    /// protected.
    fn judged(
        &self,
        query: String,
        result: Result<Record, LookupError>,
        waited: Option<Duration>,
    ) -> Outcome {
        let verdict = |r| verdict::verdict(r, &self.watch.until, &self.watch.expect, waited);
        let verdict = result.as_ref().ok().and_then(verdict);
        self.protected(query, verdict, result)
    }

    /// The outcome as it may be shown: the record protected, and the verdict's
    /// message, which may quote it, scrubbed like it.
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
}

/// One lookup's whole state between its steps (`seen` holds its last record).
pub(crate) struct Lookup {
    query: String,
    attempts: Attempts,
    watch: Option<Watch>,
    seen: Arc<Seen>,
    /// Its line in the live view; dropped with the lookup.
    line: Option<LiveLine>,
}

/// What a stop prints of a lookup: shared with the engine while a worker steps it.
pub(crate) struct Seen {
    shown: String,
    started: Instant,
    /// Under `--wait`, the last record a poll brought.
    last: Mutex<Option<Kept>>,
}

impl Lookup {
    /// Whether a request went out: one only waiting for its `--rate` turn did not.
    fn sent(&self) -> bool {
        !self.attempts.fresh() || self.watch.as_ref().is_some_and(|w| w.polls > 0)
    }
}

impl Work for Worker {
    type Lookup = Lookup;
    type Out = Outcome;
    type Tag = Arc<Seen>;

    fn begin(
        &self,
        index: usize,
        input: Input,
        tell: Tell<'_, Outcome>,
    ) -> Result<Lookup, Outcome> {
        let query = input.map_err(|bad| (bad.shown, LookupError::Usage(bad.reason)));
        // Refused before sending; a value is shown cut (echoing megabytes helps nobody).
        let query = query.and_then(|query| match self.kind.validate(&query) {
            Ok(()) => Ok(query),
            Err(refused) => Err((preview(&query), refused)),
        });
        // Ended before any request: told at once under `--follow`.
        let ended = |(shown, error)| self.told(Outcome::new(self.kind, shown, Err(error)), tell);
        let query = query.map_err(ended)?;
        let shown = preview(&query);
        // The live view is drawn only under `--wait`.
        let label = format!("{} {shown}", self.kind.name());
        let line = self.live.as_ref().map(|live| live.line(index, &label));
        Ok(Lookup {
            attempts: self.client.attempts(self.kind, &query),
            watch: self.watch.wait.as_ref().map(Watch::new),
            seen: Arc::new(Seen {
                shown,
                started: Instant::now(),
                last: Mutex::default(),
            }),
            query,
            line,
        })
    }

    /// A panic (reading the answer is most of the work) fails this lookup alone
    /// (exit 70); the hook has told it on stderr.
    fn step(&self, _: usize, lookup: &mut Lookup, tell: Tell<'_, Outcome>) -> Step<Outcome> {
        let mut outcome = match catching(|| self.advance(lookup, tell)) {
            Ok(Step::At(at)) => return Step::At(at),
            Ok(Step::Done(outcome)) => outcome,
            Err(()) => {
                let panicked = LookupError::Internal(PANICKED.into());
                Outcome::new(self.kind, preview(&lookup.query), Err(panicked))
            }
        };
        outcome.elapsed = lookup.seen.started.elapsed();
        self.halt.observe(&outcome.result);
        Step::Done(self.told(self.slimmed(outcome), tell))
    }

    fn tag(&self, lookup: &Lookup) -> Arc<Seen> {
        Arc::clone(&lookup.seen)
    }

    /// Every string and number of the record or error body, plus a fixed overhead.
    fn weigh(&self, outcome: &Outcome) -> usize {
        const OVERHEAD: usize = 256;
        let fields = match &outcome.result {
            Ok(record) => weigh_map(&record.fields),
            Err(LookupError::Service { body, .. }) => weigh_map(body),
            Err(_) => 0,
        };
        OVERHEAD + outcome.query.len() + fields
    }

    /// Its last state seen, marked interrupted. One that never sent a request (it
    /// waited for its `--rate` turn) was not started: output ends before it.
    fn abandoned(&self, _: usize, cut: Cut<'_, Lookup, Arc<Seen>>) -> Option<Outcome> {
        let seen = match cut {
            Cut::Waiting(lookup) if !lookup.sent() => return None,
            Cut::Waiting(lookup) => &lookup.seen,
            Cut::Busy(seen) => seen,
        };
        let last = lock(&seen.last).take().map(|kept| kept.record());
        let (shown, code) = (seen.shown.clone(), interrupt::exit_code());
        let mut outcome = match last {
            Some(record) => {
                let status = live_status(&record, &self.watch.until);
                let message = format!("interrupted; last seen: {status}");
                self.protected(shown, Some(Verdict { code, message }), Ok(record))
            }
            None => Outcome::new(self.kind, shown, Err(LookupError::Interrupted { code })),
        };
        outcome.elapsed = seen.started.elapsed();
        Some(outcome)
    }
}

/// The failure of a lookup that panicked (the payload may hold answer data), told
/// apart from other internal errors so that stderr gets one line for the whole run.
pub(crate) const PANICKED: &str = "the lookup hit a bug";

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

fn live_status(record: &Record, until: &[String]) -> String {
    match verdict::stage(record, until) {
        Stage::Final => "final".into(),
        Stage::Pending(what) => escape_control(&what).into_owned(),
    }
}
