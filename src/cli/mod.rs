//! The command line: clap definitions, argv parsing, and the help, man page and
//! completions generated from them. Imports nothing of the crate but `domain`.

pub(crate) mod args;
pub(crate) mod complete;
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
