//! Subcommand handlers: each takes the resolved `Config` and returns the run's exit
//! code, or the run's error for `main` to tell.

use std::io;
use std::process::ExitCode;
use std::time::Duration;

use crate::cli::docs::{completion_script, man_page};
use crate::cli::parse::parse_args;
use crate::cli::sim_args::{Numbers, TaskCounterShape};
use crate::cli::{Cli, Command, SimArgs};
use crate::domain::exit_codes;
use crate::domain::lookup::LookupKind;
use crate::output::messages::{error, warn};
use crate::run::error::{print_document, Error};
use crate::settings::config::resolve;
use crate::settings::given::Given;
use crate::sim::{self, Oddity, SimOptions};

/// The whole program. A run's error is told here and nowhere else.
pub fn main() -> ExitCode {
    crate::run::panic_hook::install();
    // Before anything reads or writes: the shell is waiting for candidates.
    crate::run::complete::complete_if_asked();
    let code = match parse_args(std::env::args_os()) {
        Ok(cli) => run(cli).unwrap_or_else(|err| {
            error(&err);
            err.exit_code()
        }),
        Err(code) => code,
    };
    ExitCode::from(code)
}

fn run(cli: Cli) -> Result<u8, Error> {
    let Cli { global, command } = cli;
    let (kind, values) = match command {
        Command::Sim(args) => return serve_simulator(args),
        Command::Completions { shell } => return document(Ok(completion_script(shell))),
        Command::Man => return document(man_page()),
        Command::Version { json } => return crate::run::version::run(json || global.json),
        Command::Check => return crate::run::check::run(global),
        Command::Config(_) => return crate::run::config_show::run(global),
        Command::Sms(args) => (LookupKind::Sms, args.values),
        Command::SmsRef(args) => (LookupKind::SmsRef, args.values),
        Command::Task(args) => (LookupKind::Task, args.values),
        Command::Hlr(args) => (LookupKind::Hlr, args.values),
        Command::HlrRef(args) => (LookupKind::HlrRef, args.values),
    };
    look_up(global, kind, values)
}

/// `completions` and `man`, generated into memory first: the generators panic on a
/// write error, and a reader that goes away (`| head`) must not become exit 70.
fn document(generated: io::Result<Vec<u8>>) -> Result<u8, Error> {
    print_document(&generated.map_err(Error::ManPage)?)?;
    Ok(exit_codes::SUCCESS)
}

fn look_up(global: Given, kind: LookupKind, values: Vec<String>) -> Result<u8, Error> {
    // The settings read SMSSTAT_API_KEY themselves: a key in `global` was typed.
    if global.api_key.is_some() && !global.quiet {
        warn(
            "--api-key on the command line is visible to other users in the process list; \
             prefer the SMSSTAT_API_KEY environment variable or a key file \
             (api_key_file in the config file, chmod 600)",
        );
    }
    // Kept alive until the lookups are done. Under `--wait` its records settle
    // within a few seconds, so that the wait has something to show.
    let options = SimOptions {
        settle: Duration::from_secs(if global.wait { 4 } else { 0 }),
        ..SimOptions::default()
    };
    let demo = global.demo.then(|| sim::start(options)).transpose();
    let demo = demo.map_err(Error::Demo)?;
    let demo_url = demo.as_ref().map(httpcore::HttpServer::base_url);
    // A bad value of a flag or variable, or a usage mistake, is 64; the rest 78.
    let (config, warnings) = resolve(&global, demo_url, Some(kind))?;
    if !global.quiet {
        warnings.iter().for_each(warn);
    }
    crate::run::lookups::run(&config, kind, values)
}

fn serve_simulator(args: SimArgs) -> Result<u8, Error> {
    let listen = args.listen;
    sim::serve(sim_options(args)).map_err(|source| Error::SimServe { listen, source })?;
    Ok(exit_codes::SUCCESS)
}

/// `smsstat sim`'s flags over the variant's defaults.
fn sim_options(args: SimArgs) -> SimOptions {
    let options = SimOptions {
        listen: Some(args.listen),
        settle: args.settle,
        api_key: args.api_key,
        latency: args.latency,
        fail_rate: args.fail_rate,
        seed: args.seed,
        extra_fields: args.extra_fields,
        rate_limit: args.rate_limit,
        log: !args.quiet,
        ..SimOptions::default()
    }
    .with_variant(args.variant);
    let numbers = args.numbers.map(|numbers| match numbers {
        Numbers::Mixed => Oddity::Mixed,
        Numbers::Integers => Oddity::Never,
        Numbers::Strings => Oddity::Always,
    });
    SimOptions {
        string_numbers: numbers
            .or(args.string_numbers)
            .unwrap_or(options.string_numbers),
        omit_error: args.omit_error.unwrap_or(options.omit_error),
        no_errors_text: args.no_errors_text.unwrap_or(options.no_errors_text),
        codes: args.codes.unwrap_or(options.codes),
        task_v1: args
            .task_counters
            .map_or(options.task_v1, |s| s == TaskCounterShape::V1),
        errors_with_200: options.errors_with_200 || args.errors_with_200,
        ..options
    }
}
