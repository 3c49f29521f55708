//! The lookup subcommands: values in, one outcome per value out, in order, with the
//! batch exit-code rule; `--wait`/`--expect` decide verdicts on the records.

use std::collections::HashMap;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::cli::OutputFormat;
use crate::domain::error::LookupError;
use crate::domain::exit_codes;
use crate::domain::lookup::LookupKind;
use crate::domain::outcome::Outcome;
use crate::domain::record::{Record, RecordKind};
use crate::domain::sanitize::{escape_control, preview};
use crate::domain::status;
use crate::domain::task::TaskCounters;
use crate::domain::verdict::{self, Expectation, Stage, Verdict, WaitSettings};
use crate::http::client::Client;
use crate::output::json::{outcome_json, write_json_line};
use crate::output::messages::report;
use crate::output::printer::{PrintStyle, Printer};
use crate::output::progress::{BatchProgress, LiveView};
use crate::output::summary::Tally;
use crate::output::table::TableStyle;
use crate::run::batch::{self, Input};
use crate::run::interrupt::{interrupt_flag, was_interrupted};
use crate::run::wait;
use crate::settings::config::Config;

/// More waiting lookups than this at once would only open more connections.
const MAX_WAITING_JOBS: usize = 64;

/// Everything a worker needs, shared by all of them.
struct Worker {
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
    in_flight: Mutex<HashMap<usize, (String, Option<Record>)>>,
}

/// `--follow`: change lines are printed by the workers as they are seen.
struct Follow {
    normalize: bool,
}

pub fn run(config: &Config, kind: LookupKind, values: Vec<String>) -> u8 {
    if let Err(message) = check_combinations(config, kind) {
        report(format_args!("{message}"));
        return exit_codes::USAGE;
    }
    for status in config.expect.statuses.iter().chain(&config.until) {
        if !status::is_known(kind.record_kind(), status) {
            // Any status string is valid (servers have their own), but a typo would
            // make a CI gate fail forever: say so once.
            report(format_args!(
                "warning: `{}` is not a status smsstat knows for {} records",
                escape_control(status),
                kind.record_kind().name()
            ));
        }
    }
    let single = values.len() == 1 && values[0] != "-";
    let jobs = jobs_for(config, &values);
    let stop = interrupt_flag();
    // Only one thing draws on a terminal's stderr at a time; -v traces and --follow
    // lines would be garbled by redraws.
    let quiet_terminal = config.stderr_is_terminal && config.verbose == 0 && !config.follow;
    let live =
        (quiet_terminal && config.wait.is_some()).then(|| Arc::new(LiveView::new(config.utf8)));
    let total = (!values.iter().any(|v| v == "-")).then_some(values.len() as u64);
    let mut progress = BatchProgress::new(
        quiet_terminal && live.is_none() && !single,
        total,
        config.utf8,
    );
    let worker = Arc::new(Worker::new(config, kind, live.clone(), Arc::clone(&stop)));
    let abandoning = Arc::clone(&worker);
    let follow = config.follow;
    // Not locked for the whole run: `--follow` workers print to stdout too.
    let mut printer = Printer::new(io::stdout(), print_style(config, single), kind);
    let mut tally = Tally::default();
    batch::run_ordered(
        batch::inputs(values),
        jobs,
        stop,
        move |index, input| worker.outcome(index, input),
        |index| abandoning.abandoned(index),
        |outcome| {
            tally.add(&outcome);
            progress.advance();
            let print = || {
                report_problem(&outcome);
                // Following, the records were printed as they changed; a lookup that
                // failed still gets its line.
                if follow && outcome.result.is_ok() {
                    return Ok(());
                }
                let printed = printer.print(&outcome);
                for warning in printer.take_warnings() {
                    report(format_args!("{warning}"));
                }
                printed
            };
            match &live {
                Some(live) => live.suspend(print),
                None => progress.suspend(print),
            }
        },
    );
    progress.finish();
    if let Some(live) = &live {
        // Lines of lookups abandoned at Ctrl-C would otherwise stay on screen.
        live.clear();
    }
    // A reader that went away (`| head -1`) is not an error: it leaves the exit code be.
    let _ = printer.finish();
    if tally.total() > 1 && (config.stderr_is_terminal || config.verbose > 0) {
        report(format_args!("{}", tally.summary()));
    }
    if was_interrupted() {
        return exit_codes::INTERRUPTED;
    }
    tally.first_failure().unwrap_or(exit_codes::SUCCESS)
}

/// Options that make no sense together are usage errors, not silently ignored.
fn check_combinations(config: &Config, kind: LookupKind) -> Result<(), String> {
    let delimited = matches!(config.output, OutputFormat::Csv | OutputFormat::Tsv);
    if config.follow && (config.field.is_some() || delimited) {
        return Err(
            "--follow prints JSON lines; it does not combine with -o csv/tsv or --field".into(),
        );
    }
    let (expect, until) = (&config.expect, &config.until);
    let task = kind == LookupKind::Task;
    if task && !expect.statuses.is_empty() {
        return Err(
            "--expect applies to sms and hlr lookups; for tasks use --expect-delivered RATIO"
                .into(),
        );
    }
    if task && !until.is_empty() {
        return Err(
            "--until applies to sms and hlr lookups; a task is final when nothing is pending"
                .into(),
        );
    }
    if !task && expect.delivered_ratio.is_some() {
        return Err(
            "--expect-delivered applies to task lookups; for sms and hlr use --expect STATUS"
                .into(),
        );
    }
    Ok(())
}

/// Waiting lookups hold a worker for the whole wait, so every value given on the
/// command line gets one (up to a bound): the wait ends when all are final.
fn jobs_for(config: &Config, values: &[String]) -> usize {
    match config.wait {
        Some(_) => config.jobs.max(values.len().min(MAX_WAITING_JOBS)),
        None => config.jobs,
    }
}

fn print_style(config: &Config, single: bool) -> PrintStyle {
    PrintStyle {
        // --follow is a stream of JSON lines, failures included.
        format: if config.follow {
            OutputFormat::Json
        } else {
            config.output
        },
        fields: config.fields.clone(),
        field: config.field.clone(),
        normalize: config.normalize,
        table: TableStyle {
            color: config.color,
            utf8: config.utf8,
            width: config.width,
        },
        single,
        raw_cells: config.raw_cells,
    }
}

/// One line on stderr for a failed lookup or an unmet condition. The message may
/// quote the server (an error description, a status), so it is escaped as a whole.
fn report_problem(outcome: &Outcome) {
    let problem = match (&outcome.result, &outcome.verdict) {
        (Err(error), _) => error.to_string(),
        (Ok(_), Some(verdict)) => verdict.message.clone(),
        (Ok(record), None) => {
            for warning in record_warnings(outcome.kind, record) {
                report(format_args!(
                    "{} {}: {warning}",
                    outcome.kind.name(),
                    preview(&outcome.query)
                ));
            }
            return;
        }
    };
    report(format_args!(
        "{} {}: {}",
        outcome.kind.name(),
        preview(&outcome.query),
        escape_control(&problem)
    ));
}

/// What a person should know about a record that is not an error: another kind of
/// record than asked, or task counters that cannot all be true.
fn record_warnings(kind: LookupKind, record: &Record) -> Vec<String> {
    let counters = (record.kind == RecordKind::Task)
        .then(|| match TaskCounters::of(record) {
            Some(counters) => crate::domain::task::problem(&counters)
                .map(|problem| format!("warning: task {problem}; treated as final")),
            None => {
                Some("warning: the task's `sent` counter is not a number; treated as final".into())
            }
        })
        .flatten();
    kind_mismatch(kind, record)
        .into_iter()
        .chain(counters)
        .collect()
}

/// A short-form path can be answered with another kind of record (the spec does not
/// say how a deployment tells `/sms/{reference}` from `/sms/{task_id}`); the record is
/// shown as what it is, and the user is told.
fn kind_mismatch(kind: LookupKind, record: &Record) -> Option<String> {
    let expected = kind.record_kind();
    (record.kind != expected).then(|| {
        format!(
            "warning: the answer is {} record, not {} record; the service may have read a \
             short-form path differently (try --paths explicit)",
            article(record.kind),
            article(expected)
        )
    })
}

fn article(kind: RecordKind) -> &'static str {
    match kind {
        RecordKind::Sms => "an SMS",
        RecordKind::Task => "a task",
        RecordKind::Hlr => "an HLR",
    }
}

impl Worker {
    fn new(
        config: &Config,
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
            in_flight: Mutex::new(HashMap::new()),
        }
    }

    /// The outcome of input number `index`; while it runs, its last state is kept in
    /// `in_flight` so that Ctrl-C can still show it (`abandoned`).
    fn outcome(&self, index: usize, input: Input) -> Outcome {
        let query = match input {
            Ok(query) => query,
            Err(bad) => {
                return Outcome::new(self.kind, bad.shown, Err(LookupError::Usage(bad.reason)))
            }
        };
        self.start_tracking(index, preview(&query));
        let outcome = self.look_up(index, query);
        self.in_flight_map().remove(&index);
        outcome
    }

    /// What to print for a lookup still running when Ctrl-C's grace period ended: its
    /// last state seen, marked interrupted.
    fn abandoned(&self, index: usize) -> Option<Outcome> {
        let (query, last) = self.in_flight_map().remove(&index)?;
        let outcome = match last {
            Some(record) => Outcome {
                verdict: Some(self.interrupted(&record)),
                ..Outcome::new(self.kind, query, Ok(record))
            },
            None => Outcome::new(self.kind, query, Err(LookupError::Interrupted)),
        };
        Some(outcome)
    }

    fn interrupted(&self, record: &Record) -> Verdict {
        Verdict {
            code: exit_codes::INTERRUPTED,
            message: format!(
                "interrupted; last seen: {}",
                live_status(record, &self.until)
            ),
        }
    }

    fn in_flight_map(&self) -> std::sync::MutexGuard<'_, HashMap<usize, (String, Option<Record>)>> {
        self.in_flight.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn start_tracking(&self, index: usize, shown_query: String) {
        self.in_flight_map().insert(index, (shown_query, None));
    }

    fn track_last_seen(&self, index: usize, record: &Record) {
        if let Some(entry) = self.in_flight_map().get_mut(&index) {
            entry.1 = Some(record.clone());
        }
    }

    fn look_up(&self, index: usize, query: String) -> Outcome {
        if let Err(refused) = self.kind.validate(&query) {
            // Refused before sending; a value is shown cut (echoing megabytes helps nobody).
            return Outcome::new(self.kind, preview(&query), Err(refused));
        }
        let Some(settings) = &self.wait else {
            let result = self.client.lookup(self.kind, &query);
            let verdict = result
                .as_ref()
                .ok()
                .and_then(|r| verdict::verdict(r, &self.until, &self.expect, None));
            return Outcome {
                verdict,
                ..Outcome::new(self.kind, query, result)
            };
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
        Outcome {
            verdict,
            ..Outcome::new(self.kind, query, watched.result)
        }
    }

    fn print_change(&self, query: &str, record: &Record) {
        let Some(follow) = &self.follow else { return };
        let outcome = Outcome::new(self.kind, query.to_string(), Ok(record.clone()));
        let line = outcome_json(&outcome, follow.normalize);
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

/// What the live view says of a polled record.
fn live_status(record: &Record, until: &[String]) -> String {
    match verdict::stage(record, until) {
        Stage::Final => "final".into(),
        Stage::Pending(what) => escape_control(&what).into_owned(),
    }
}
