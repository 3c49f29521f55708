//! Subcommand handlers: each takes the resolved `Config` and returns an exit code.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use crate::batch::{self, Input};
use crate::cli::{Cli, Command};
use crate::client::Client;
use crate::config::{construct_config, Config};
use crate::endpoint::LookupKind;
use crate::error::LookupError;
use crate::exit_codes;
use crate::printer::{escape_control, Outcome, PrintStyle, Printer};
use crate::sim::{SimOptions, SimServer};
use crate::summary::Tally;
use crate::table::TableStyle;

/// What `main` learnt while parsing that the `Cli` itself does not hold.
#[derive(Debug, Default, Clone, Copy)]
pub struct ParseFacts {
    /// `--api-key` was given on the command line (visible in the process list).
    pub api_key_in_argv: bool,
}

pub fn run(cli: Cli, facts: ParseFacts) -> u8 {
    let kind = match &cli.command {
        Command::Sim(args) => return serve_simulator(args),
        Command::Sms(_) => LookupKind::Sms,
        Command::SmsRef(_) => LookupKind::SmsRef,
        Command::Task(_) => LookupKind::Task,
        Command::Hlr(_) => LookupKind::Hlr,
        Command::HlrRef(_) => LookupKind::HlrRef,
    };
    let values = match cli.command {
        Command::Sms(a)
        | Command::SmsRef(a)
        | Command::Task(a)
        | Command::Hlr(a)
        | Command::HlrRef(a) => a.values,
        Command::Sim(_) => unreachable!("handled above"),
    };
    if facts.api_key_in_argv {
        warn(
            "--api-key on the command line is visible to other users in the process list; \
              prefer the SMSSTAT_API_KEY environment variable",
        );
    }
    // Kept alive until the lookups are done: `--demo` serves from this process.
    let demo = if cli.global.demo {
        match SimServer::start(SimOptions::demo()) {
            Ok(server) => Some(server),
            Err(err) => {
                report(format_args!("cannot start the demo simulator: {err}"));
                return exit_codes::INTERNAL;
            }
        }
    } else {
        None
    };
    let config = match construct_config(&cli.global, demo.as_ref().map(SimServer::base_url)) {
        Ok(config) => config,
        Err(err) => {
            report(format_args!("{err}"));
            return exit_codes::CONFIG;
        }
    };
    run_lookups(&config, kind, values)
}

fn serve_simulator(args: &crate::cli::SimArgs) -> u8 {
    match SimServer::start(SimOptions::from_args(args)).map(SimServer::wait) {
        Ok(()) => exit_codes::SUCCESS,
        Err(err) => {
            report(format_args!("sim: cannot listen on {}: {err}", args.listen));
            exit_codes::CONFIG
        }
    }
}

fn run_lookups(config: &Config, kind: LookupKind, values: Vec<String>) -> u8 {
    let single = values.len() == 1 && values[0] != "-";
    let style = PrintStyle {
        format: config.output,
        fields: config.fields.clone(),
        field: config.field.clone(),
        normalize: config.normalize,
        table: TableStyle {
            color: config.color,
            utf8: config.utf8,
        },
        single,
    };
    let client = Client::new(config);
    let stop = interrupt_flag();
    let stdout = io::stdout();
    let mut printer = Printer::new(stdout.lock(), style, kind);
    let mut tally = Tally::default();
    let finished = batch::run_ordered(
        batch::inputs(values),
        config.jobs,
        Arc::clone(&stop),
        move |input| look_up(&client, kind, input),
        |outcome| {
            tally.add(&outcome);
            if let Err(error) = &outcome.result {
                report(format_args!(
                    "{} {}: {error}",
                    kind.name(),
                    escape_control(&outcome.query)
                ));
            }
            printer.print(&outcome)
        },
    );
    let flushed = printer.finish();
    if tally.total() > 1 && (config.stderr_is_terminal || config.verbose > 0) {
        report(format_args!("{}", tally.summary()));
    }
    // A reader that went away (`| head -1`) is not an error: `finished` is false
    // then, and so is `flushed`, but neither changes the exit code.
    let _ = (finished, flushed);
    if INTERRUPTED.load(Ordering::SeqCst) {
        return exit_codes::INTERRUPTED;
    }
    tally.first_failure().unwrap_or(exit_codes::SUCCESS)
}

fn look_up(client: &Client, kind: LookupKind, input: Input) -> Outcome {
    match input {
        Ok(query) => {
            let result = client.lookup(kind, &query);
            Outcome {
                kind,
                query,
                result,
            }
        }
        Err(problem) => Outcome {
            kind,
            query: String::new(),
            result: Err(LookupError::Usage(problem)),
        },
    }
}

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The flag raised by Ctrl-C: the first press stops new lookups and lets the finished
/// ones print; a second press ends the process at once.
fn interrupt_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    Arc::clone(FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let handler_flag = Arc::clone(&flag);
        let _ = ctrlc::set_handler(move || {
            if INTERRUPTED.swap(true, Ordering::SeqCst) {
                std::process::exit(exit_codes::INTERRUPTED.into());
            }
            handler_flag.store(true, Ordering::SeqCst);
        });
        flag
    }))
}

/// One line on stderr, prefixed with the program name; a closed stderr is ignored.
pub fn report(message: std::fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr().lock(), "smsstat: {message}");
}

fn warn(message: &str) {
    report(format_args!("warning: {message}"));
}
