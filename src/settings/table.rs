//! The one table of the settings that can come from a flag, the environment or the
//! config file: for each, its key, flag, variable, type, check, default and doc.
//! Everything else is built from it: cli's flags (`--help`, the man page), the
//! config file's keys and their checks, the layers, the origins and `config show`.
//!
//! `settings_table!` holds the list and hands it to a generator macro, so that each
//! module builds its part from the same entries (here: `Id`, the `Setting`
//! constants; `file.rs`: the file's fields; `layers/`: the resolved `Layered` values
//! and how each is filled). An entry reads:
//!
//! ```text
//! /// The -h line (first paragraph)
//! ///
//! /// The rest of --help and the man page.
//! NAME(Id) key: Type, default EXPR | unset "shown when unset";
//!     layered | by_hand, in_file | not_in_file, "--flag", "VARIABLE", "VALUE_NAME",
//!     HEADING, check_function;
//! ```
//!
//! `layered`: flag (text, from the table), environment, profile, file top level,
//! default, all generated; the value is checked by `check_function` (`&str` to
//! `Type`) wherever it came from. `by_hand`: the same table entry, but the clap
//! argument and the resolution are written by hand (`settings::given`,
//! `settings::layers`), for settings that choose the file or the key, or that clap
//! must type itself.

use std::time::Duration;

use crate::domain::duration::format_duration;
use crate::domain::format::OutputFormat;

/// The headings `-h` groups the options under, in this order (clap lists a heading
/// where its first option is declared; `-h` and `-V` stay under "Options").
pub const CONNECTION: &str = "Connection";
pub const OUTPUT_HEADING: &str = "Output";
pub const BATCH: &str = "Batch";
pub const WAITING: &str = "Waiting";
pub const CONFIGURATION: &str = "Configuration";

/// The list of settings, handed to `$generator`. See the module's doc for the form.
macro_rules! settings_table {
    ($generator:ident) => {
        $generator! {
            /// Config file to read (must exist)
            ///
            /// Instead of $XDG_CONFIG_HOME/smsstat/config.toml.
            CONFIG(Config) config: std::path::PathBuf, unset "(none)";
                by_hand, not_in_file, "--config", "SMSSTAT_CONFIG", "PATH",
                CONFIGURATION, crate::settings::checks::path;
            /// Profile of the config file to use
            ///
            /// A [profiles.NAME] table; without it, `default` if the file has one.
            PROFILE(Profile) profile: String, unset "(none)";
                by_hand, not_in_file, "--profile", "SMSSTAT_PROFILE", "NAME",
                CONFIGURATION, crate::settings::checks::text;
            /// Base URL of the service
            ///
            /// For example https://gateway.example/rest.
            BASE_URL(BaseUrl) base_url: String, unset "(not set)";
                by_hand, in_file, "--base-url", "SMSSTAT_BASE_URL", "URL",
                CONNECTION, crate::settings::checks::base_url;
            /// API key sent with every request
            ///
            /// Prefer the SMSSTAT_API_KEY environment variable or --api-key-file: a key
            /// on the command line is visible to other users in the process list.
            API_KEY(ApiKey) api_key: String, unset "(none: no key is sent)";
                by_hand, in_file, "--api-key", "SMSSTAT_API_KEY", "KEY",
                CONNECTION, crate::settings::checks::file_api_key;
            /// File holding the API key
            ///
            /// Docker and Kubernetes secrets are files: a regular file of at most 1 MiB,
            /// surrounding whitespace trimmed.
            API_KEY_FILE(ApiKeyFile) api_key_file: std::path::PathBuf, unset "(none)";
                by_hand, in_file, "--api-key-file", "SMSSTAT_API_KEY_FILE", "PATH",
                CONNECTION, crate::settings::checks::path;
            /// Header carrying the key
            ///
            /// The name of the request header that carries the API key.
            API_KEY_HEADER(ApiKeyHeader) api_key_header: String,
                default String::from("X-API-KEY");
                layered, in_file, "--api-key-header", "SMSSTAT_API_KEY_HEADER", "NAME",
                CONNECTION, crate::settings::checks::key_header;
            /// CA certificates to trust for https (PEM)
            ///
            /// Instead of the built-in roots, for a gateway behind a private CA;
            /// verification is always on. In the config file, relative to the file
            /// (`~/` is the home directory).
            CA_CERT(CaCert) ca_cert: std::path::PathBuf,
                unset "(none: the built-in roots are trusted)";
                layered, in_file, "--ca-cert", "SMSSTAT_CA_CERT", "PATH",
                CONNECTION, crate::settings::checks::path;
            /// Bound on each whole request
            ///
            /// Connecting, the headers and the body together: 10, 500ms, 2s.
            TIMEOUT(Timeout) timeout: std::time::Duration,
                default std::time::Duration::from_secs(10);
                layered, in_file, "--timeout", "SMSSTAT_TIMEOUT", "DURATION",
                CONNECTION, crate::settings::checks::timeout;
            /// Retries of a transient failure
            ///
            /// 0 to 20. Transient: a refused or reset connection, a timeout, or HTTP
            /// 429, 502, 503 or 504.
            RETRIES(Retries) retries: u32, default 2;
                layered, in_file, "--retries", "SMSSTAT_RETRIES", "N",
                CONNECTION, crate::settings::checks::retries;
            /// Output format: json, csv, report, ...
            ///
            /// The output format: table (the default), json (one line per lookup), csv,
            /// tsv, or one report over the batch: report (terminal), report-json,
            /// report-md (Markdown for CI job summaries), prometheus (metrics for
            /// node_exporter). SMSSTAT_OUTPUT in the environment sets it too; --json
            /// and -o win over it.
            OUTPUT(Output) output: crate::domain::format::OutputFormat,
                default crate::domain::format::OutputFormat::Table;
                by_hand, in_file, "--output", "SMSSTAT_OUTPUT", "FORMAT",
                OUTPUT_HEADING, crate::settings::checks::output;
        }
    };
}
pub(crate) use settings_table;

/// One setting: its name in the config file and `config show` (also clap's argument
/// id), its flag, environment variable and documentation.
#[derive(Debug, Clone, Copy)]
pub struct Setting {
    /// Which setting: what code that handles each one matches on.
    pub id: Id,
    pub key: &'static str,
    pub flag: &'static str,
    pub env: &'static str,
    /// Whether the config file can set it (`config` and `profile` choose the file).
    pub in_file: bool,
    /// Whether cli builds its flag from this table and the layers resolve it
    /// without hand-written code.
    pub layered: bool,
    pub value_name: &'static str,
    pub heading: &'static str,
    /// The doc comment's lines: the first paragraph is the `-h` line.
    pub docs: &'static [&'static str],
    /// The built-in default as `config show` prints it; None when it has none.
    pub default: Option<fn() -> String>,
}

impl PartialEq for Setting {
    fn eq(&self, other: &Setting) -> bool {
        self.id == other.id
    }
}

impl Eq for Setting {}

impl Setting {
    /// The `-h` line: the first paragraph, and the default when there is one.
    pub fn help(&self) -> String {
        let first = paragraphs(self.docs).into_iter().next().unwrap_or_default();
        match self.default {
            Some(default) => format!("{first} [default: {}]", default()),
            None => first,
        }
    }

    /// `--help` and the man page: every paragraph, the first with its default.
    pub fn long_help(&self) -> String {
        let mut paragraphs = paragraphs(self.docs);
        if let Some(first) = paragraphs.first_mut() {
            *first = self.help();
        }
        paragraphs.join("\n\n")
    }

    /// The man page's ENVIRONMENT line.
    pub fn about(&self) -> String {
        let first = paragraphs(self.docs).into_iter().next().unwrap_or_default();
        format!("As {}: {first}.", self.flag)
    }
}

/// Doc lines (each with the space after `///`) joined into paragraphs.
fn paragraphs(lines: &[&str]) -> Vec<String> {
    let mut paragraphs: Vec<String> = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    for line in lines.iter().map(|l| l.trim()) {
        if line.is_empty() {
            if !current.is_empty() {
                paragraphs.push(current.join(" "));
                current.clear();
            }
        } else {
            current.push(line);
        }
    }
    if !current.is_empty() {
        paragraphs.push(current.join(" "));
    }
    paragraphs
}

/// How a setting's value reads in `config show` and as a default in `-h`.
pub trait Shown {
    fn shown(&self) -> String;
}

impl Shown for String {
    fn shown(&self) -> String {
        self.clone()
    }
}

impl Shown for u32 {
    fn shown(&self) -> String {
        self.to_string()
    }
}

impl Shown for Duration {
    fn shown(&self) -> String {
        format_duration(*self)
    }
}

impl Shown for std::path::PathBuf {
    fn shown(&self) -> String {
        self.display().to_string()
    }
}

impl Shown for OutputFormat {
    fn shown(&self) -> String {
        use clap::ValueEnum;
        self.to_possible_value()
            .map_or_else(String::new, |v| v.get_name().to_string())
    }
}

/// The field type of a resolved setting: the type itself when it has a default,
/// else an Option.
macro_rules! resolved_type {
    (default, $ty:ty) => { $ty };
    (unset, $ty:ty) => { Option<$ty> };
}
pub(crate) use resolved_type;

macro_rules! default_shown {
    (default $value:expr, $ty:ty) => {
        Some(|| <$ty as crate::settings::table::Shown>::shown(&$value))
    };
    (unset $value:expr, $ty:ty) => {
        None
    };
}

macro_rules! flag_of {
    (in_file) => {
        true
    };
    (not_in_file) => {
        false
    };
    (layered) => {
        true
    };
    (by_hand) => {
        false
    };
}

macro_rules! define_settings {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident($id:ident) $field:ident: $ty:ty, $kind:ident $value:expr;
            $mode:ident, $file:ident, $flag:literal, $env:literal, $value_name:literal,
            $heading:ident, $check:path;
    )+) => {
        /// Every setting of the table.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
        pub enum Id {
            $($id),+
        }

        $(pub const $name: Setting = Setting {
            id: Id::$id,
            key: stringify!($field),
            flag: $flag,
            env: $env,
            in_file: flag_of!($file),
            layered: flag_of!($mode),
            value_name: $value_name,
            heading: $heading,
            docs: &[$($doc),*],
            default: default_shown!($kind $value, $ty),
        };)+

        /// In the order `config show` lists them.
        pub const SETTINGS: &[Setting] = &[$($name),+];
    };
}

settings_table!(define_settings);

/// Every key a config file may set, in the order of the table.
pub fn file_keys() -> impl Iterator<Item = &'static str> {
    SETTINGS.iter().filter(|s| s.in_file).map(|s| s.key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_is_the_first_paragraph_with_the_default() {
        assert_eq!(TIMEOUT.help(), "Bound on each whole request [default: 10s]");
        assert_eq!(
            RETRIES.help(),
            "Retries of a transient failure [default: 2]"
        );
        assert_eq!(BASE_URL.help(), "Base URL of the service");
        let long = API_KEY_FILE.long_help();
        assert!(
            long.starts_with("File holding the API key\n\nDocker and"),
            "{long}"
        );
        assert!(!long.contains("  "), "{long}");
        assert_eq!(BASE_URL.about(), "As --base-url: Base URL of the service.");
    }

    #[test]
    fn keys_flags_and_variables_follow_one_pattern() {
        for setting in SETTINGS {
            assert_eq!(setting.flag, format!("--{}", setting.key.replace('_', "-")));
            assert_eq!(
                setting.env,
                format!("SMSSTAT_{}", setting.key.to_ascii_uppercase())
            );
        }
    }
}
