//! The command line: clap definitions, argv parsing, and the help, man page and
//! completions generated from them. Imports nothing of the crate but `domain`.

pub(crate) mod args;
pub(crate) mod docs;
pub(crate) mod parse;
pub(crate) mod settings;
pub(crate) mod sim_args;
mod values;

pub(crate) use args::*;

use clap::CommandFactory;

/// What each subcommand shows of the global options (lookup options are global so
/// that they work before or after a lookup subcommand, which would list all of them
/// under `sim --help` too). Lookups show every one.
fn shown_globals(subcommand: &str) -> Option<Vec<&'static str>> {
    let settings = settings::SETTINGS.iter().map(|s| s.key);
    match subcommand {
        "config" | "show" => Some(settings.chain(["demo", "json"]).collect()),
        "check" => Some(settings.chain(["demo", "json", "verbose"]).collect()),
        "sim" | "man" | "completions" => Some(Vec::new()),
        _ => None,
    }
}

/// The clap command as parsed, documented and completed: built, then with the
/// global options a subcommand does not use hidden from its help and completions
/// (still accepted, as clap propagates them).
pub(crate) fn command() -> clap::Command {
    fn hide_unused(sub: clap::Command) -> clap::Command {
        let sub = sub.mut_subcommands(hide_unused);
        let Some(shown) = shown_globals(sub.get_name()) else {
            return sub;
        };
        sub.mut_args(|arg| {
            let used = shown.contains(&arg.get_id().as_str());
            if arg.is_global_set() && !used {
                arg.hide(true)
            } else {
                arg
            }
        })
    }
    let mut command = Cli::command();
    command.build();
    command.mut_subcommands(hide_unused)
}

/// The command for completion scripts: clap_complete's bash generator offers hidden
/// options too, so the global options are made local and given to each subcommand
/// that uses them (the parser never sees this command).
pub(crate) fn completion_command() -> clap::Command {
    fn give(sub: clap::Command, globals: &[clap::Arg]) -> clap::Command {
        let shown = shown_globals(sub.get_name());
        let used = globals.iter().filter(|arg| {
            let id = arg.get_id().as_str();
            shown.as_ref().is_none_or(|shown| shown.contains(&id))
        });
        let sub = sub.args(used.cloned().collect::<Vec<_>>());
        sub.mut_subcommands(|nested| give(nested, globals))
    }
    let command = Cli::command().mut_args(|arg| arg.global(false));
    let globals: Vec<clap::Arg> = command.get_arguments().cloned().collect();
    command.mut_subcommands(|sub| give(sub, &globals))
}
