//! The dynamic completion entry point: when the shell's registration script runs
//! `COMPLETE=SHELL smsstat -- WORDS`, print the candidates and exit before anything
//! else happens (no settings resolved, no stdin read, no network). The config file
//! is read only to complete `--profile`, and leniently.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::Arc;

use clap_complete::env::Shells;
use clap_complete::CompleteEnv;

use crate::cli::complete::ProfileNames;
use crate::settings::file::{default_path, profile_names};

/// Completes and exits when `COMPLETE` names a shell. Any other value (`COMPLETE=1`
/// left in an environment) is no request: clap would end every command with exit 2,
/// which scripts read as a service code.
pub fn complete_if_asked() {
    let shells = Shells::builtins();
    let asked = std::env::var("COMPLETE").is_ok_and(|shell| shells.completer(&shell).is_some());
    if !asked {
        return;
    }
    let profiles: ProfileNames = Arc::new(|| {
        let flag = config_flag(std::env::args_os().skip_while(|w| w != "--"));
        let env = std::env::var_os("SMSSTAT_CONFIG").filter(|v| !v.is_empty());
        flag.or(env.map(PathBuf::from))
            .or_else(default_path)
            .map(|path| profile_names(&path))
            .unwrap_or_default()
    });
    CompleteEnv::with_factory(move || crate::cli::complete::command(Arc::clone(&profiles)))
        .complete();
}

/// The last `--config PATH` or `--config=PATH` among the words being completed: the
/// file whose profiles `--profile` would choose from.
fn config_flag(mut words: impl Iterator<Item = OsString>) -> Option<PathBuf> {
    let mut found = None;
    while let Some(word) = words.next() {
        let text = word.to_string_lossy();
        if let Some(path) = text.strip_prefix("--config=") {
            found = Some(PathBuf::from(path));
        } else if text == "--config" {
            found = words.next().map(PathBuf::from).or(found);
        }
    }
    found.filter(|path| !path.as_os_str().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_config_flag_wins() {
        let words = |list: &[&str]| list.iter().map(OsString::from).collect::<Vec<_>>();
        let flag = |list: &[&str]| config_flag(words(list).into_iter());
        assert_eq!(flag(&["--", "smsstat", "--profile", ""]), None);
        let given = flag(&["--", "smsstat", "--config", "a.toml", "--config=b.toml"]);
        assert_eq!(given, Some(PathBuf::from("b.toml")));
        assert_eq!(flag(&["--", "smsstat", "--config"]), None);
    }
}
