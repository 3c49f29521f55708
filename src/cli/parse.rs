//! Command-line parsing with smsstat's exit codes: clap's usage errors become 64
//! (clap's own 2 would collide with a service error code).

use std::ffi::OsString;
use std::io::Write;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{CommandFactory, FromArgMatches};

use crate::cli::Cli;
use crate::domain::exit_codes;
use crate::domain::sanitize::{escape_cut, MAX_LINE_CHARS};

/// Parses the arguments; on `--help`/`--version` or a usage error, prints what clap
/// prints and returns the exit code to end with.
pub fn parse_args(args: impl IntoIterator<Item = OsString>) -> Result<Cli, u8> {
    let args = help_flag_after_help(args.into_iter().collect());
    // The definition as derived first: what `command` adds changes what clap prints,
    // never what it accepts, and costs more than the rest of a run's start.
    if let Ok(cli) = parse(&mut Cli::command(), &args) {
        return Ok(cli);
    }
    let mut command = super::help_command();
    match parse(&mut command, &args) {
        Ok(cli) => Ok(cli),
        Err(err) if err.use_stderr() => {
            let err = plain_usage(closer_subcommand(err, &command, &args), &mut command, &args);
            // clap quotes the bad value raw: escaped like server text, line by line.
            let text = err.render().to_string();
            let mut stderr = std::io::stderr().lock();
            for (i, line) in text.lines().enumerate() {
                let shown = escape_cut(line, MAX_LINE_CHARS);
                // One style for every error: `smsstat: error: ...`, clap's too.
                let name = (i == 0 && line.starts_with("error:")).then_some("smsstat: ");
                let _ = writeln!(stderr, "{}{shown}", name.unwrap_or_default());
            }
            Err(exit_codes::USAGE)
        }
        // Help and version: a document like any other, so a full disk is exit 74.
        // stdout holds the text's tail until flushed; the flush reports the failure.
        Err(err) => match err.print().and_then(|()| std::io::stdout().flush()) {
            // A reader that stopped early (`| head`) is not an error.
            Err(failure) if failure.kind() != std::io::ErrorKind::BrokenPipe => {
                let _ = writeln!(
                    std::io::stderr(),
                    "smsstat: error: cannot write the output: {failure}"
                );
                Err(exit_codes::IO_ERROR)
            }
            _ => Err(exit_codes::SUCCESS),
        },
    }
}

/// `command`'s parse, refusing the global options the subcommand does not use.
pub(super) fn parse(command: &mut clap::Command, args: &[OsString]) -> Result<Cli, clap::Error> {
    let matches = command.try_get_matches_from_mut(args)?;
    super::refuse_unused(command, &matches)?;
    Cli::from_arg_matches(&matches)
}

/// `help [NAME...] -h` is `[NAME...] -h`: clap's `help` refused the flag.
fn help_flag_after_help(mut args: Vec<OsString>) -> Vec<OsString> {
    let asks_help = |arg: &OsString| arg == "-h" || arg == "--help";
    if args.get(1).is_some_and(|arg| arg == "help") && args.iter().skip(2).any(asks_help) {
        args.remove(1);
    }
    args
}

/// A missing argument is shown with the subcommand's own usage line: clap's names the
/// options given (the key too), which read as advice to type them.
fn plain_usage(mut err: clap::Error, cmd: &mut clap::Command, args: &[OsString]) -> clap::Error {
    let mut typed = args.iter().skip(1).filter_map(|arg| arg.to_str());
    let name = typed.find(|arg| cmd.find_subcommand(arg).is_some());
    let sub = name.and_then(|name| cmd.find_subcommand_mut(name));
    if let Some(sub) = sub.filter(|_| err.kind() == ErrorKind::MissingRequiredArgument) {
        let usage = sub.render_usage();
        err.insert(ContextKind::Usage, ContextValue::StyledStr(usage));
    }
    err
}

/// An unknown subcommand with the nearest one suggested by edit distance, a swap of
/// two letters counting as one: clap's own measure offers `help` for `hrl`, where
/// `hlr` was meant. Named among those of the command it was typed after (`config sho`).
fn closer_subcommand(mut err: clap::Error, cmd: &clap::Command, args: &[OsString]) -> clap::Error {
    let typed = match err.get(ContextKind::InvalidSubcommand) {
        Some(ContextValue::String(typed)) if err.kind() == ErrorKind::InvalidSubcommand => typed,
        _ => return err,
    };
    let before = args.iter().skip(1).filter_map(|arg| arg.to_str());
    let before = before.take_while(|arg| arg != typed);
    let level = before.fold(cmd, |level, arg| {
        level.find_subcommand(arg).unwrap_or(level)
    });
    let names = level.get_subcommands().filter(|sub| !sub.is_hide_set());
    let nearest = names
        .map(|sub| sub.get_name())
        .map(|name| (strsim::damerau_levenshtein(typed, name), name))
        .filter(|(distance, _)| *distance <= 2)
        .min();
    if let Some((_, nearest)) = nearest {
        let nearest = ContextValue::String(nearest.to_string());
        err.insert(ContextKind::SuggestedSubcommand, nearest);
    }
    err
}
