//! Subcommand handlers: each takes the resolved `Config` and returns the run's exit
//! code, or the run's error for `main` to tell.

use std::process::ExitCode;
use std::time::Duration;

use crate::cli::parse::{parse_args, ParseFacts};
use crate::cli::{Cli, Command, SimArgs};
use crate::domain::exit_codes;
use crate::domain::lookup::LookupKind;
use crate::output::messages::{error, warn};
use crate::run::error::Error;
use crate::settings::config::resolve;
use crate::settings::given::Given;
use crate::sim::{SimOptions, SimServer};

/// The whole program: arguments in, exit code out. A run's error is told here and
/// nowhere else, after whatever the run printed.
pub fn main() -> ExitCode {
    crate::run::panic_hook::install();
    // Before anything reads or writes: the shell is waiting for candidates.
    crate::run::complete::complete_if_asked();
    let code = match parse_args(std::env::args_os()) {
        Ok((cli, facts)) => run(cli, facts).unwrap_or_else(|err| {
            error(&err);
            err.exit_code()
        }),
        Err(code) => code,
    };
    ExitCode::from(code)
}

fn run(cli: Cli, facts: ParseFacts) -> Result<u8, Error> {
    let Cli { global, command } = cli;
    let (kind, values) = match command {
        Command::Sim(args) => return serve_simulator(args, facts),
        Command::Completions(args) => return crate::run::docs::completions(args.shell),
        Command::Man => return crate::run::docs::man(),
        Command::Version(args) => return crate::run::version::run(args.json || global.json),
        Command::Check => return crate::run::check::run(global),
        Command::Config(_) => return crate::run::config_show::run(global),
        Command::Sms(args) => (LookupKind::Sms, args.values),
        Command::SmsRef(args) => (LookupKind::SmsRef, args.values),
        Command::Task(args) => (LookupKind::Task, args.values),
        Command::Hlr(args) => (LookupKind::Hlr, args.values),
        Command::HlrRef(args) => (LookupKind::HlrRef, args.values),
    };
    look_up(global, facts, kind, values)
}

/// A lookup subcommand: the `--demo` simulator, the settings, then the batch.
fn look_up(
    global: Given,
    facts: ParseFacts,
    kind: LookupKind,
    values: Vec<String>,
) -> Result<u8, Error> {
    if facts.api_key_in_argv && !global.quiet {
        warn(
            "--api-key on the command line is visible to other users in the process list; \
             prefer the SMSSTAT_API_KEY environment variable or a key file \
             (api_key_file in the config file, chmod 600)",
        );
    }
    // Kept alive until the lookups are done: `--demo` serves from this process.
    let demo = global
        .demo
        .then(|| SimServer::start(demo_options(global.wait)))
        .transpose()
        .map_err(Error::Demo)?;
    let demo_url = demo.as_ref().map(SimServer::base_url);
    // A bad value of a flag or variable, or a usage mistake, is 64; the rest 78.
    let (config, warnings) = resolve(&global, demo_url, Some(kind))?;
    if !global.quiet {
        warnings.iter().for_each(warn);
    }
    crate::run::lookups::run(&config, kind, values)
}

/// The `--demo` simulator: records final at once, except under `--wait`, where they
/// settle within a few seconds so that the wait has something to show.
fn demo_options(wait: bool) -> SimOptions {
    let settle = if wait {
        Duration::from_secs(4)
    } else {
        Duration::ZERO
    };
    SimOptions {
        settle,
        ..SimOptions::demo()
    }
}

fn serve_simulator(args: SimArgs, facts: ParseFacts) -> Result<u8, Error> {
    // The simulator's --api-key shares its name with the lookups' key, so clap also
    // fills it from SMSSTAT_API_KEY; a key the user exported for lookups must not
    // turn on the simulator's key check.
    let api_key = args.api_key.clone().filter(|_| facts.api_key_in_argv);
    let listen = args.listen;
    let options = crate::run::sim_options::sim_options(args, api_key);
    match crate::sim::serve(options) {
        Ok(()) => Ok(exit_codes::SUCCESS),
        Err(err) if err.kind() == std::io::ErrorKind::InvalidInput => Err(Error::SimOption(err)),
        Err(source) => Err(Error::SimServe { listen, source }),
    }
}
