//! Subcommand handlers: each takes the resolved `Config` and returns an exit code.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use crate::cli::{Cli, Command};
use crate::config::construct_config;
use crate::endpoint::LookupKind;
use crate::exit_codes;
use crate::sim::{SimOptions, SimServer};

/// What `main` learnt while parsing that the `Cli` itself does not hold.
#[derive(Debug, Default, Clone, Copy)]
pub struct ParseFacts {
    /// `--api-key` was given on the command line (visible in the process list).
    pub api_key_in_argv: bool,
    /// Flag or environment, for the options a config file can also set.
    pub sources: crate::origin::CliSources,
}

pub fn run(cli: Cli, facts: ParseFacts) -> u8 {
    let Cli {
        mut global,
        command,
    } = cli;
    let (kind, values) = match command {
        Command::Sim(args) => return serve_simulator(args, facts),
        Command::Completions(args) => return crate::meta::completions(args.shell),
        Command::Man => return crate::meta::man(),
        Command::Config(_) => return crate::config_show::run(global, facts.sources),
        Command::Sms(args) => (LookupKind::Sms, args.values),
        Command::SmsRef(args) => (LookupKind::SmsRef, args.values),
        Command::Task(args) => (LookupKind::Task, args.values),
        Command::Hlr(args) => (LookupKind::Hlr, args.values),
        Command::HlrRef(args) => (LookupKind::HlrRef, args.values),
    };
    if facts.api_key_in_argv {
        warn(
            "--api-key on the command line is visible to other users in the process list; \
              prefer the SMSSTAT_API_KEY environment variable or a key file \
              (api_key_file in the config file, chmod 600)",
        );
    }
    // Kept alive until the lookups are done: `--demo` serves from this process.
    let demo = match global
        .demo
        .then(|| SimServer::start(demo_options(global.wait)))
        .transpose()
    {
        Ok(demo) => demo,
        Err(err) => {
            report(format_args!("cannot start the demo simulator: {err}"));
            return exit_codes::INTERNAL;
        }
    };
    // The config file fills what flags and environment left unset (exit 78 if invalid).
    let resolved = crate::layers::apply(&mut global, &facts.sources).and_then(|resolution| {
        resolution.warnings.iter().for_each(|w| warn(w));
        construct_config(&global, demo.as_ref().map(SimServer::base_url))
    });
    match resolved {
        Ok(config) => crate::lookups::run(&config, kind, values),
        Err(err) => {
            report(format_args!("{err}"));
            exit_codes::CONFIG
        }
    }
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

fn serve_simulator(mut args: crate::cli::SimArgs, facts: ParseFacts) -> u8 {
    // The simulator's --api-key shares its name with the lookups' key, so clap also
    // fills it from SMSSTAT_API_KEY; a key the user exported for lookups must not
    // turn on the simulator's key check.
    if !facts.api_key_in_argv {
        args.api_key = None;
    }
    match crate::sim::serve(&args) {
        Ok(()) => exit_codes::SUCCESS,
        Err(err) => {
            report(format_args!("sim: cannot serve on {}: {err}", args.listen));
            exit_codes::CONFIG
        }
    }
}

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The flag raised by Ctrl-C: the first press stops new lookups and lets the finished
/// ones print; a second press ends the process at once.
pub fn interrupt_flag() -> Arc<AtomicBool> {
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

/// Whether Ctrl-C was pressed.
pub fn was_interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// One line on stderr, prefixed with the program name; a closed stderr is ignored.
pub fn report(message: std::fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr().lock(), "smsstat: {message}");
}

fn warn(message: &str) {
    report(format_args!("warning: {message}"));
}
