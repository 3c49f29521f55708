//! The lookup subcommands: values in, one outcome per value out, in order, with the
//! batch exit-code rule; `--wait`/`--expect` decide verdicts on the records.

use std::io::{self, IsTerminal, Stdout};
use std::sync::Arc;
use std::time::Instant;

use crate::domain::budget::{Budget, MEMORY_BUDGET};
use crate::domain::error::LookupError;
use crate::domain::exit_codes;
use crate::domain::format::{OutputFormat, PrintStyle};
use crate::domain::lookup::LookupKind;
use crate::domain::outcome::Outcome;
use crate::output::messages::{batch_error, report, warn};
use crate::output::printer::Printer;
use crate::output::progress::{BatchProgress, LiveView, STDIN};
use crate::output::prometheus::Metrics;
use crate::output::summary::{NotStarted, Tally};
use crate::run::batch::{self, Ended, Limits, Sink};
use crate::run::error::Error;
use crate::run::interrupt::{self, interrupt_flag, was_interrupted};
use crate::run::junit::JunitFile;
use crate::run::problems::report_problem;
use crate::run::side_file::SideFile;
use crate::run::worker::Worker;
use crate::settings::config::Config;

pub fn run(config: &Config, kind: LookupKind, values: Vec<String>) -> Result<u8, Error> {
    crate::run::problems::tell_before_starting(config, kind);
    // The side files are made before any lookup, so that an unwritable path costs
    // no requests.
    let junit = (config.output.junit.as_deref())
        .map(|path| JunitFile::create(path, format!("smsstat {}", kind.name())))
        .transpose()?;
    let metrics = match &config.output.metrics {
        Some(path) => Some((SideFile::open(path, "metrics file")?, Metrics::new())),
        None => None,
    };
    let jobs = jobs_for(config);
    let stdin = values.iter().any(|v| v == "-");
    let total = (!stdin).then_some(values.len() as u64);
    // One value on the command line: shown in the record view, with no summary.
    let single = total == Some(1);
    let (live, progress) = drawing(config, total);
    // The run's one deadline: every poll, turn and retry of `--wait` ends by it.
    let wait = config.watch.wait.as_ref();
    let deadline = wait.map(|wait| Instant::now() + wait.timeout);
    let budget = Arc::new(Budget::new(MEMORY_BUDGET));
    let worker = Worker::new(config, single, kind, live.clone(), deadline, budget.clone());
    let worker = Arc::new(worker);
    let style = PrintStyle {
        // --follow is a stream of JSON lines, failures included.
        format: match config.watch.follow {
            true => OutputFormat::json(),
            false => config.output.style.format,
        },
        single,
        ..config.output.style.clone()
    };
    let output = Output {
        printer: Printer::stdout(style, kind),
        tally: Tally::default(),
        progress,
        live,
        config: config.clone(),
        junit,
        metrics,
        told_not_looked_up: false,
        write_error: None,
        total,
    };
    // Never more workers than values known in advance (one lookup: one thread).
    let jobs = total.map_or(jobs, |total| jobs.min(total.max(1) as usize));
    let limits = Limits {
        jobs,
        budget,
        deadline,
    };
    let inputs = batch::inputs(values);
    let (ended, output) = batch::run(inputs, limits, interrupt_flag(), worker, output);
    finish(output, ended, config)
}

/// What is drawn on a terminal's stderr while the batch runs: the live view of
/// `--wait`, or the progress bar.
fn drawing(config: &Config, total: Option<u64>) -> (Option<Arc<LiveView>>, BatchProgress) {
    // Someone is typing the values: say how to end, and draw nothing over the line
    // being typed (a redraw would erase it from the screen).
    let typed = total.is_none() && io::stdin().is_terminal();
    if typed && !config.output.quiet {
        report("reading values from stdin, one per line; Ctrl-D to end");
    }
    // Only one thing draws on a terminal's stderr at a time; -v traces and --follow
    // lines would be garbled by redraws.
    let output = &config.output;
    let quiet_terminal = output.stderr_is_terminal
        && config.http.verbose == 0
        && !config.watch.follow
        && !output.quiet
        && !typed;
    let utf8 = output.style.table.utf8;
    let live =
        (quiet_terminal && config.watch.wait.is_some()).then(|| Arc::new(LiveView::new(utf8)));
    let bar = quiet_terminal && live.is_none() && total != Some(1);
    (live, BatchProgress::new(bar, total, utf8))
}

/// Clears the terminal's drawing, prints the rest and the summary, and gives the
/// run's exit code.
fn finish(mut output: Output, ended: Ended, config: &Config) -> Result<u8, Error> {
    output.progress.finish();
    if let Some(live) = &output.live {
        // Lines of lookups abandoned at a signal would otherwise stay on screen.
        live.clear();
    }
    // A reader that went away (`| head -1`) is not an error: it leaves the exit code be.
    if let Err(err) = output.printer.finish() {
        output.failed_write(err);
    }
    let junit = output.junit.take().map(JunitFile::finish);
    let metrics = output.metrics.take();
    let metrics = metrics.map(|(file, metrics)| file.write(|out| metrics.write(out)));
    // The lookups' verdict stands unless they all succeeded.
    let side_files = [junit, metrics].into_iter().flatten();
    let side_file_errors: Vec<Error> = side_files.filter_map(Result::err).collect();
    side_file_errors.iter().for_each(batch_error);
    let tally = &output.tally;
    let told =
        (config.output.stderr_is_terminal || config.http.verbose > 0) && !config.output.quiet;
    if was_interrupted() {
        if told && output.total != Some(1) {
            report(tally.interrupted_summary(output.not_started()));
        }
        return Ok(interrupt::exit_code());
    }
    if tally.total() > 1 && told {
        report(tally.summary());
    }
    // Values still unread at the deadline (a stdin not closed): said once.
    let unread = ended == Ended::Deadline;
    if unread && !config.output.quiet {
        batch_error("the --wait timeout passed: not started: the rest of stdin");
    }
    // Lines that never reached stdout (a full disk) fail the run, whatever the
    // lookups said: a script must not read a lost output as a success.
    if let Some(err) = output.write_error.take() {
        return Err(Error::Output(err));
    }
    Ok(match tally.first_failure {
        Some(code) => code,
        None if unread => exit_codes::TIMEOUT,
        None if !side_file_errors.is_empty() => exit_codes::CONFIG,
        None => exit_codes::SUCCESS,
    })
}

/// Where outcomes go, in input order: stdout, the tally, the side files, the
/// terminal's drawing, and a line on stderr for each problem.
struct Output {
    printer: Printer<io::BufWriter<Stdout>>,
    tally: Tally,
    progress: BatchProgress,
    live: Option<Arc<LiveView>>,
    config: Config,
    junit: Option<JunitFile>,
    metrics: Option<(SideFile, Metrics)>,
    /// The first error writing stdout other than a closed pipe: the run ends with 74.
    write_error: Option<io::Error>,
    /// After an early stop every later value fails alike: stderr tells the first,
    /// stdout keeps a line for each, the summary counts them.
    told_not_looked_up: bool,
    /// How many values there are, when known before the run (no stdin).
    total: Option<u64>,
}

impl Output {
    /// The values that got no line: output ends before the first one never started.
    fn not_started(&self) -> NotStarted {
        // Values read in all, once the input ended.
        let values = match (self.total, STDIN.estimated_total()) {
            (Some(total), _) | (None, Some((total, true))) => total as usize,
            _ => return NotStarted::RestOfStdin,
        };
        NotStarted::Count(values.saturating_sub(self.tally.total()))
    }

    /// Keeps the first write error that is not a reader gone away (`| head -1`).
    fn failed_write(&mut self, err: io::Error) -> io::Error {
        let kind = err.kind();
        if kind != io::ErrorKind::BrokenPipe && self.write_error.is_none() {
            self.write_error = Some(err);
        }
        kind.into()
    }
}

impl Sink<Outcome> for Output {
    /// Only `--follow` tells, and then nothing is drawn on the terminal.
    fn tell(&mut self, outcome: &Outcome) -> io::Result<()> {
        let told = self.printer.print_follow(outcome);
        told.map_err(|err| self.failed_write(err))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.printer.flush().map_err(|err| self.failed_write(err))
    }

    fn emit(&mut self, outcome: Outcome) -> io::Result<()> {
        self.tally.add(&outcome);
        if let Some(junit) = &mut self.junit {
            junit.add(&outcome);
        }
        if let Some((_, metrics)) = &mut self.metrics {
            metrics.add(&outcome);
        }
        self.progress.advance();
        let not_looked_up = matches!(outcome.result, Err(LookupError::NotLookedUp { .. }));
        let repeated = not_looked_up && self.told_not_looked_up;
        let tell = !self.config.output.quiet && !repeated;
        self.told_not_looked_up |= not_looked_up;
        let Output {
            printer,
            live,
            config,
            ..
        } = self;
        let print = || {
            if tell {
                if outcome.result.is_err() || outcome.verdict.is_some() {
                    // What stderr says comes after the lines before it on stdout.
                    printer.flush()?;
                }
                report_problem(&outcome, config.http.api_key.is_none());
                if not_looked_up {
                    warn("the values after it are not looked up either (one line each on stdout)");
                }
            }
            // Following, the workers told every line when it happened: the records
            // as they changed, a failure as soon as it came; only a lookup a stop
            // cut short is told here.
            if config.watch.follow {
                return match outcome.result {
                    Err(LookupError::Interrupted { .. }) => printer.print_follow(&outcome),
                    _ => Ok(()),
                };
            }
            printer.print(&outcome)
        };
        match live {
            Some(live) => live.suspend(print),
            None => self.progress.suspend(print),
        }
        .map_err(|err| self.failed_write(err))
    }
}

/// Descriptors each job may hold: its kept-alive connections and one made anew
/// when a kept one turned out closed.
const FILES_PER_JOB: u64 = 3;
/// Descriptors kept for everything else: stdio, the signal pipe, the side files,
/// the files read while the run starts.
const FILES_RESERVED: u64 = 16;

/// `--jobs`, lowered (with a warning) so that the run's connections fit the
/// open-file limit: past it, lookups would fail as "service unavailable".
fn jobs_for(config: &Config) -> usize {
    let jobs = config.batch.jobs as u64;
    let limit = rustix::process::getrlimit(rustix::process::Resource::Nofile).current;
    let limit = limit.unwrap_or(u64::MAX);
    let fit = (limit.saturating_sub(FILES_RESERVED) / FILES_PER_JOB).max(1);
    if jobs > fit && !config.output.quiet {
        warn(format_args!(
            "-j {jobs} lowered to {fit}: the open-file limit (ulimit -n) is {limit}"
        ));
    }
    jobs.min(fit) as usize
}
