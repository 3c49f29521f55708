//! The command line: clap definitions, argv parsing, and the help, man page and
//! completions generated from them.

pub(crate) mod args;
pub(crate) mod build;
pub(crate) mod complete;
pub(crate) mod docs;
pub(crate) mod parse;
pub(crate) mod sim_args;
mod values;

pub(crate) use args::*;

use clap::error::ErrorKind;
use clap::parser::ValueSource;
use clap::CommandFactory;

use crate::domain::lookup::LookupKind;

/// The global options a subcommand uses; None for a lookup, which uses every one
/// (they are global to work before or after it). `-o` is a lookup option: `config
/// show` and `check` print a table or `--json`.
fn shown_globals(subcommand: &str) -> Option<Vec<&'static str>> {
    let own: &[&str] = match subcommand {
        "show" => &["demo", "json"],
        "check" => &["demo", "json", "verbose", "paths", "color"],
        // `config` itself only leads to `show`, which lists the settings.
        // `version` has its own --json.
        "config" | "sim" | "man" | "completions" | "version" => return Some(Vec::new()),
        _ => return None,
    };
    let settings = crate::settings::given::KEYS.into_iter();
    let settings = settings.filter(|key| *key != "output");
    Some(settings.chain(own.iter().copied()).collect())
}

/// The clap command as parsed, documented and completed: built, then decorated.
pub(crate) fn command() -> clap::Command {
    let mut command = Cli::command();
    command.build();
    let long_end = format!("{START_HELP}\n\n{EXIT_CODES_HELP}");
    command
        .after_long_help(long_end)
        .mut_args(env_in_long_help)
        .mut_subcommands(decorate)
}

/// A subcommand and its own as people read them: the global options it does not use
/// hidden (`refuse_unused` refuses them), `--json` of `check` and `config show` as one
/// document (`mut_args` keeps each argument in its place, where `mut_arg` moves it
/// past the index clap built), and a lookup's `--help` ending with the exit codes.
fn decorate(sub: clap::Command) -> clap::Command {
    let name = sub.get_name().to_string();
    let shown = shown_globals(&name);
    let one_document = name == "check" || name == "show";
    let sub = sub.mut_args(env_in_long_help).mut_subcommands(decorate);
    let sub = sub.mut_args(|arg| {
        const JSON: &str = "Print the result as one JSON document (short for -o json)";
        let id = arg.get_id().as_str();
        let unused = shown.as_ref().is_some_and(|shown| !shown.contains(&id));
        match (one_document && id == "json", arg.is_global_set() && unused) {
            (true, _) => arg.help(JSON).long_help(JSON),
            (_, true) => arg.hide(true),
            _ => arg,
        }
    });
    let examples = sub.get_after_help().cloned().unwrap_or_default();
    match LookupKind::from_name(&name) {
        Some(_) => sub.after_long_help(format!("{examples}\n\n{EXIT_CODES_HELP}")),
        None => sub,
    }
}

/// `command` as clap prints its help, with fewer options in `-h` so that `smsstat -h`
/// fits a 24-row screen (not for the man page: clap_mangen leaves their text out).
pub(crate) fn help_command() -> clap::Command {
    command()
        .mut_args(short_help_lists(&[]))
        .mut_subcommands(|sub| match LookupKind::from_name(sub.get_name()) {
            Some(_) => sub.mut_args(short_help_lists(&SHORT_HELP_OPTIONS)),
            None => sub,
        })
}

/// The options a lookup's `-h` lists: enough for a first run, a batch and a CI gate.
const SHORT_HELP_OPTIONS: [&str; 10] = [
    "demo", "profile", "json", "output", "fields", "jobs", "wait", "expect", "junit", "verbose",
];

/// Hides from `-h` the global options not `listed`.
fn short_help_lists(listed: &'static [&'static str]) -> impl FnMut(clap::Arg) -> clap::Arg {
    move |arg| match arg.is_global_set() && !listed.contains(&arg.get_id().as_str()) {
        true => arg.hide_short_help(true),
        false => arg,
    }
}

/// A setting's variable (and config key) ends its long help: the settings read the
/// variable, so clap does not know it. Only the global options are settings: `sim
/// --api-key` shares a name with one, not its variable.
fn env_in_long_help(arg: clap::Arg) -> clap::Arg {
    use crate::settings::{file::file_keys, given};
    let id = arg.get_id().to_string();
    if !arg.is_global_set() || !given::KEYS.contains(&id.as_str()) {
        return arg;
    }
    let key = file_keys().any(|key| key == id);
    let key = key.then(|| format!(" [config key: {id}]"));
    let text = arg.get_long_help().or(arg.get_help()).cloned();
    let text = text.unwrap_or_default();
    let env = given::variable_of(&id);
    arg.long_help(format!("{text}\n\n[env: {env}]{}", key.unwrap_or_default()))
}

/// A global option typed for a subcommand that does nothing with it (`sim --json`) is
/// a usage error: a script must not believe it took effect. The environment's values
/// are not refused: they may be exported for a whole session. `command` may be built
/// or not: a subcommand's own options are those not marked global.
pub(crate) fn refuse_unused(
    command: &clap::Command,
    matches: &clap::ArgMatches,
) -> Result<(), clap::Error> {
    let path: Vec<&str> = std::iter::successors(matches.subcommand(), |(_, sub)| sub.subcommand())
        .map(|(name, _)| name)
        .collect();
    let Some(shown) = path.last().and_then(|leaf| shown_globals(leaf)) else {
        return Ok(());
    };
    let leaf = path.iter().try_fold(command, |c, n| c.find_subcommand(n));
    let leaf = leaf.expect("parsed subcommands exist");
    // A subcommand's own option of the same name (`sim --api-key`) is its own.
    let own = |id: &str| {
        let mut args = leaf.get_arguments();
        args.any(|a| a.get_id() == id && !a.is_global_set())
    };
    // Typed on the command line, at any subcommand's level.
    let levels = || std::iter::successors(Some(matches), |m| m.subcommand().map(|(_, m)| m));
    let typed = |id| levels().any(|m| m.value_source(id) == Some(ValueSource::CommandLine));
    let unused = command.get_arguments().find(|arg| {
        let id = arg.get_id().as_str();
        arg.is_global_set() && !shown.contains(&id) && !own(id) && typed(id)
    });
    let flag = match unused.map(|arg| (arg.get_short(), arg.get_long())) {
        None => return Ok(()),
        Some((Some(short), Some(long))) => format!("-{short}/--{long}"),
        Some((_, long)) => format!("--{}", long.unwrap_or_default()),
    };
    let name = path.join(" ");
    let message = format!(
        "{flag} does nothing for `smsstat {name}`; `smsstat {name} --help` lists its options"
    );
    Err(leaf.clone().error(ErrorKind::ArgumentConflict, message))
}

#[cfg(test)]
mod tests {

    use super::{parse::parse, Cli};
    use clap::CommandFactory;

    fn argv(words: &[&str]) -> Vec<std::ffi::OsString> {
        std::iter::once("smsstat")
            .chain(words.iter().copied())
            .map(Into::into)
            .collect()
    }

    /// The plain parse takes what the decorated command takes, and leaves to it
    /// everything clap prints.
    #[test]
    fn the_plain_parse_leaves_help_and_errors_to_the_decorated_command() {
        for ok in [
            &["--json", "sms", "42"][..],
            &["sms", "42", "--json", "-j", "2"],
            &["sim", "--api-key", "k"],
            &["check", "--json"],
            &["config", "show", "--demo"],
        ] {
            assert!(parse(&mut Cli::command(), &argv(ok)).is_ok(), "{ok:?}");
            let decorated = super::command().try_get_matches_from(argv(ok));
            assert!(decorated.is_ok(), "{ok:?}");
        }
        for printed in [
            &["--help"][..],
            &["sms", "-h"],
            &["--version"],
            &["sim", "--json"],
            &["config", "show", "--wait"],
            &["sms"],
            &["hrl", "1"],
        ] {
            assert!(
                parse(&mut Cli::command(), &argv(printed)).is_err(),
                "{printed:?}"
            );
        }
    }
}
