//! Command-line parsing with smsstat's exit codes: clap's usage errors become 64
//! (clap's own 2 would collide with a service error code).

use std::ffi::OsString;

use clap::parser::ValueSource;
use clap::{CommandFactory, FromArgMatches};

use crate::app::ParseFacts;
use crate::cli::Cli;
use crate::exit_codes;

/// Parses the arguments; on `--help`/`--version` or a usage error, prints what clap
/// prints and returns the exit code to end with.
pub fn parse_args(args: impl IntoIterator<Item = OsString>) -> Result<(Cli, ParseFacts), u8> {
    let parsed = Cli::command()
        .try_get_matches_from(args)
        .and_then(|matches| Cli::from_arg_matches(&matches).map(|cli| (cli, matches)));
    match parsed {
        Ok((cli, matches)) => {
            let from_argv =
                |m: &clap::ArgMatches| m.value_source("api_key") == Some(ValueSource::CommandLine);
            let api_key_in_argv =
                from_argv(&matches) || matches.subcommand().is_some_and(|(_, sub)| from_argv(sub));
            Ok((cli, ParseFacts { api_key_in_argv }))
        }
        Err(err) => {
            let _ = err.print();
            Err(if err.use_stderr() {
                exit_codes::USAGE
            } else {
                exit_codes::SUCCESS
            })
        }
    }
}
