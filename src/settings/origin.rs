//! Where a setting came from, for `smsstat config show` and for messages that must
//! name the place to fix.

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

use crate::domain::error::SettingsError;
use crate::settings::table::Setting;

/// Where one resolved setting came from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Origin {
    /// A command-line flag, e.g. `--base-url`.
    Flag(&'static str),
    /// An environment variable, e.g. `SMSSTAT_BASE_URL`.
    Env(&'static str),
    /// A `[profiles.NAME]` table of a config file.
    Profile { name: String, file: PathBuf },
    /// The top level of a config file (defaults for every profile).
    File(PathBuf),
    /// The built-in simulator of `--demo`.
    Demo,
    #[default]
    Default,
}

impl Origin {
    /// The origin of a value clap parsed, or None when clap had none.
    pub fn of_arg(source: ArgSource, setting: &Setting) -> Option<Origin> {
        match source {
            ArgSource::Unset => None,
            ArgSource::Flag => Some(Origin::Flag(setting.flag)),
            ArgSource::Env => Some(Origin::Env(setting.env)),
        }
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Flag(flag) => write!(f, "flag {flag}"),
            Origin::Env(name) => write!(f, "env {name}"),
            Origin::Profile { name, file } => {
                write!(f, "profile {name} in {}", file.display())
            }
            Origin::File(file) => write!(f, "file {}", file.display()),
            Origin::Demo => f.write_str("--demo simulator"),
            Origin::Default => f.write_str("default"),
        }
    }
}

/// How clap got a global option's value (its `env` merges flag and environment, so
/// the parser records which one it was).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ArgSource {
    #[default]
    Unset,
    Env,
    Flag,
}

/// Flag or environment, for every setting of the table.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct CliSources(BTreeMap<&'static str, ArgSource>);

impl FromIterator<(&'static str, ArgSource)> for CliSources {
    fn from_iter<T: IntoIterator<Item = (&'static str, ArgSource)>>(iter: T) -> Self {
        CliSources(iter.into_iter().collect())
    }
}

impl CliSources {
    pub fn of(&self, setting: &Setting) -> ArgSource {
        self.0.get(setting.key).copied().unwrap_or_default()
    }
}

/// A bad value of a flag or a variable (exit 64), the message led by its name.
pub fn bad_value(source: ArgSource, setting: &Setting, why: &str) -> SettingsError {
    let name = match source {
        ArgSource::Env => setting.env,
        ArgSource::Flag | ArgSource::Unset => setting.flag,
    };
    SettingsError::BadValue(format!("{name}: {why}"))
}
