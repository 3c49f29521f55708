//! The global options as typed: clap parses the command line into `Given`, each value
//! checked by its parser. A setting is a field here; its variable and config key are
//! read by `settings::resolve` with the same parser (`KEYS` lists them).

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::domain::format::{ColorChoice, OutputFormat};
use crate::domain::lookup::PathStyle;
use crate::settings::checks::{self, Rate};

const CONNECTION: &str = "Connection";
const OUTPUT: &str = "Output";
const BATCH: &str = "Batch";
const WAITING: &str = "Waiting";
const CONFIGURATION: &str = "Configuration";

/// The settings, by field name: options a flag, an `SMSSTAT_*` variable and the config
/// file can all give (`config` and `profile` choose the file, so it cannot set them).
pub const KEYS: [&str; 18] = [
    "config",
    "profile",
    "base_url",
    "api_key",
    "api_key_file",
    "api_key_header",
    "ca_cert",
    "timeout",
    "retries",
    "paths",
    "max_body",
    "output",
    "mask_msisdn",
    "color",
    "jobs",
    "rate",
    "wait_timeout",
    "interval",
];

/// `--base-url` for `base_url`.
pub fn flag_of(key: &str) -> String {
    format!("--{}", key.replace('_', "-"))
}

/// `SMSSTAT_BASE_URL` for `base_url`.
pub fn variable_of(key: &str) -> String {
    format!("SMSSTAT_{}", key.to_ascii_uppercase())
}

/// Each setting's variable and what it sets (the first line of its flag's help), for
/// the man page.
pub fn variables() -> Vec<(String, String)> {
    let command = Given::augment_args(clap::Command::new("smsstat"));
    let help = |key: &str| {
        let arg = command.get_arguments().find(|arg| arg.get_id() == key);
        arg.and_then(|arg| arg.get_help()).map(ToString::to_string)
    };
    let about = |key| format!("As {}: {}.", flag_of(key), help(key).unwrap_or_default());
    KEYS.map(|key| (variable_of(key), about(key))).into()
}

// Each option's first paragraph is its line in `-h`: short enough to read at a
// glance; the rest is for `--help` and the man page. A setting's default is written
// in its help: it has none in clap, so that the file can still fill it.
#[derive(Debug, Clone, Default, Args)]
pub struct Given {
    /// Base URL of the service
    ///
    /// For example https://gateway.example/rest.
    #[arg(long, value_name = "URL", global = true, hide_short_help = true, help_heading = CONNECTION)]
    pub base_url: Option<String>,

    /// API key sent with every request
    ///
    /// Prefer the SMSSTAT_API_KEY environment variable or --api-key-file: a key on the
    /// command line is visible to other users in the process list.
    #[arg(long, value_name = "KEY", global = true, hide_short_help = true, help_heading = CONNECTION)]
    pub api_key: Option<String>,

    /// File holding the API key
    ///
    /// Docker and Kubernetes secrets are files: a regular file of at most 1 MiB,
    /// surrounding whitespace trimmed.
    #[arg(long, value_name = "PATH", value_parser = checks::path, global = true, hide_short_help = true, help_heading = CONNECTION)]
    pub api_key_file: Option<PathBuf>,

    /// Header carrying the key [default: X-API-KEY]
    ///
    /// The name of the request header that carries the API key.
    #[arg(long, value_name = "NAME", value_parser = checks::key_header, global = true, hide_short_help = true, help_heading = CONNECTION)]
    pub api_key_header: Option<String>,

    /// CA certificates to trust for https (PEM)
    ///
    /// Instead of the built-in roots, for a gateway behind a private CA; verification
    /// is always on. In the config file, relative to the file (`~/` is the home
    /// directory).
    #[arg(long, value_name = "PATH", value_parser = checks::path, global = true, hide_short_help = true, help_heading = CONNECTION)]
    pub ca_cert: Option<PathBuf>,

    /// Bound on each whole request [default: 10s]
    ///
    /// Connecting, the headers and the body together: 10, 500ms, 2s.
    #[arg(long, value_name = "DURATION", value_parser = checks::timeout, global = true, hide_short_help = true, help_heading = CONNECTION)]
    pub timeout: Option<Duration>,

    /// Retries of a transient failure [default: 2]
    ///
    /// 0 to 20. Transient: a refused or reset connection, a timeout, or HTTP 429, 502,
    /// 503 or 504.
    #[arg(long, value_name = "N", value_parser = checks::retries, global = true, hide_short_help = true, help_heading = CONNECTION)]
    pub retries: Option<u32>,

    /// Paths: auto, explicit or short [default: auto]
    ///
    /// Which request paths to use: explicit (/sms/reference/R), short (/sms/R), or
    /// auto (explicit, then short when the explicit route does not exist).
    #[arg(long, value_enum, value_name = "STYLE", hide_possible_values = true, global = true, hide_short_help = true, help_heading = CONNECTION)]
    pub paths: Option<PathStyle>,

    /// Largest answer body, in bytes [default: 4194304]
    ///
    /// A longer answer is a failed lookup.
    #[arg(long, value_name = "BYTES", value_parser = checks::parse_max_body, global = true, hide_short_help = true, help_heading = CONNECTION)]
    pub max_body: Option<u64>,

    /// Run against a built-in simulator
    ///
    /// No configuration needed: the simulator serves on a loopback port for the run's
    /// length, whatever SMSSTAT_BASE_URL or the config file say.
    #[arg(long, global = true, help_heading = CONNECTION)]
    pub demo: bool,

    /// JSON, one compact line per lookup (short for -o json)
    ///
    /// The service's JSON as it came, one compact line per lookup.
    #[arg(long, global = true, conflicts_with = "output", help_heading = OUTPUT)]
    pub json: bool,

    /// Output format: json, csv, report, ...
    ///
    /// The output format: table (the default), json (one line per lookup), csv
    /// (RFC 4180: a line break stays inside a quoted cell), tsv (one line per
    /// lookup, escaped as PostgreSQL's text format: \\ \t \n \r for backslash,
    /// tab, newline and CR; \xHH for each byte of a character that acts on a
    /// terminal and of a leading "), or one document over the batch: report
    /// (terminal), report-json, report-md (Markdown for CI job summaries),
    /// prometheus (metrics in Prometheus' text format).
    #[arg(short = 'o', long, value_enum, value_name = "FORMAT", hide_possible_values = true, global = true, help_heading = OUTPUT)]
    pub output: Option<OutputFormat>,

    /// Fields to show, comma-separated (e.g. status,time_dr)
    ///
    /// Table and CSV/TSV columns, or the keys kept in JSON records: names of the
    /// kind's fields, details.NAME, query, kind, error, errorDescription or table
    /// labels (anything else is exit 64).
    #[arg(long, value_name = "A,B,...", value_delimiter = ',', global = true, hide_short_help = true, help_heading = OUTPUT)]
    pub fields: Vec<String>,

    /// Only this field's bare value, one line per lookup
    #[arg(long, value_name = "NAME", global = true, hide_short_help = true, conflicts_with = "fields", help_heading = OUTPUT)]
    pub field: Option<String>,

    /// JSON: typed, uniform records
    ///
    /// Numbers as numbers, error always present, ported and roaming as booleans, plus
    /// kind and query.
    #[arg(long, global = true, hide_short_help = true, help_heading = OUTPUT)]
    pub normalize: bool,

    /// Mask phone numbers in every output format
    ///
    /// All of an msisdn but the country code and the last 2 digits: 380501234567
    /// becomes 380*******67. --mask-msisdn=false turns off a profile's masking.
    #[arg(long, value_name = "BOOL", num_args = 0..=1, require_equals = true, default_missing_value = "true", value_parser = checks::parse_bool, global = true, hide_short_help = true, help_heading = OUTPUT)]
    pub mask_msisdn: Option<bool>,

    /// CSV/TSV: cells exactly as sent, formulas included
    ///
    /// Without the ' put before a cell that starts with = + - @ tab or CR and is not a
    /// number (spreadsheet formula injection), and without escaping characters that
    /// act on a terminal. TSV still escapes backslash, tab, newline and CR (\\ \t \n
    /// \r): nothing else can keep a row on one line.
    #[arg(long, global = true, hide_short_help = true, help_heading = OUTPUT)]
    pub raw_cells: bool,

    /// Leave out the header line of table, CSV and TSV output
    #[arg(long, global = true, hide_short_help = true, help_heading = OUTPUT)]
    pub no_headers: bool,

    /// When to colour: auto, always or never [default: auto]
    ///
    /// auto: only on a terminal, never with NO_COLOR, CLICOLOR=0 or TERM=dumb in the
    /// environment, forced by CLICOLOR_FORCE.
    #[arg(long, value_enum, value_name = "WHEN", hide_possible_values = true, global = true, hide_short_help = true, help_heading = OUTPUT)]
    pub color: Option<ColorChoice>,

    /// Also write a JUnit XML file (for CI test reports)
    ///
    /// One test case per lookup, a failure for each failed lookup or unmet
    /// expectation; next to any output format. Written as --metrics is: a regular
    /// file replaced atomically, a symlink followed, a FIFO or device in place.
    #[arg(long, value_name = "PATH", global = true, hide_short_help = true, help_heading = OUTPUT)]
    pub junit: Option<PathBuf>,

    /// Also write the batch as Prometheus metrics
    ///
    /// The document of -o prometheus, next to any output format. A regular file
    /// (or a new path) is replaced atomically: written beside it and renamed over
    /// it, a symlink followed to its target and left as it is. A FIFO or device is
    /// written in place. The same holds for --junit.
    #[arg(long, value_name = "PATH", global = true, hide_short_help = true, help_heading = OUTPUT)]
    pub metrics: Option<PathBuf>,

    /// Show requests, statuses, latency and retries on stderr
    ///
    /// The request line, status, latency and retries; -vv adds the headers (never the
    /// API key).
    #[arg(short, long, action = clap::ArgAction::Count, global = true, help_heading = OUTPUT)]
    pub verbose: u8,

    /// No warnings, per-lookup lines or summary on stderr
    ///
    /// Errors that end the run and the exit code stay.
    #[arg(short, long, global = true, hide_short_help = true, help_heading = OUTPUT)]
    pub quiet: bool,

    /// How many requests run at once [default: 8]
    ///
    /// Lowered to fit the open-file limit.
    #[arg(short = 'j', long, value_name = "N", value_parser = checks::parse_jobs, global = true, help_heading = BATCH)]
    pub jobs: Option<usize>,

    /// At most N requests a second (N/s) or a minute (N/m)
    ///
    /// Across all lookups, polls and retries included, e.g. 50/s or 600/m.
    #[arg(long, value_name = "N[/s|/m]", value_parser = checks::parse_rate, global = true, hide_short_help = true, help_heading = BATCH)]
    pub rate: Option<Rate>,

    /// Go on after a refused account or connection
    ///
    /// Look up every value even after the service refused the account (error 1 or 2)
    /// or every connection was refused (by default the rest are "not looked up").
    #[arg(long, global = true, hide_short_help = true, help_heading = BATCH)]
    pub keep_going: bool,

    /// Poll until each record is final
    ///
    /// Then print it. Final: an SMS or HLR status no longer pending, a task with
    /// nothing pending.
    #[arg(long, global = true, help_heading = WAITING)]
    pub wait: bool,

    /// Give up waiting after this [default: 10m]
    ///
    /// How long --wait waits at most: 90, 500ms, 2m.
    #[arg(long, value_name = "DURATION", value_parser = checks::parse_wait_timeout, requires = "wait", global = true, hide_short_help = true, help_heading = WAITING)]
    pub wait_timeout: Option<Duration>,

    /// Pause between polls [default: 2s]
    ///
    /// At least 100ms; longer after errors, or when the server asks with Retry-After.
    #[arg(long, value_name = "DURATION", value_parser = checks::parse_interval, requires = "wait", global = true, hide_short_help = true, help_heading = WAITING)]
    pub interval: Option<Duration>,

    /// Statuses that count as final
    ///
    /// SMS and HLR statuses, replacing the built-in pending lists, for --wait and
    /// --expect alike.
    #[arg(long, value_name = "STATUS,...", value_delimiter = ',', value_parser = checks::parse_status, global = true, hide_short_help = true, help_heading = WAITING)]
    pub until: Vec<String>,

    /// Succeed only with one of these statuses
    ///
    /// SMS and HLR statuses: exit 80 when final and different, 81 when still pending.
    /// A word close to a known status is refused as a typo (64); others are taken as
    /// the gateway's own.
    #[arg(long, value_name = "STATUS,...", value_delimiter = ',', value_parser = checks::parse_status, global = true, help_heading = WAITING)]
    pub expect: Vec<String>,

    /// Delivery rate a task must reach
    ///
    /// Delivered/total (delivered/sent without `total`), e.g. 0.95: exit 80 below it.
    #[arg(long, value_name = "RATIO", value_parser = checks::parse_ratio, global = true, hide_short_help = true, help_heading = WAITING)]
    pub expect_delivered: Option<f64>,

    /// Print each change as a JSON line
    ///
    /// With --wait: one JSON line per observed change (each with `kind` and `query`),
    /// and a failure as soon as it happens, instead of the final records only.
    #[arg(long, global = true, hide_short_help = true, requires = "wait", help_heading = WAITING)]
    pub follow: bool,

    /// Config file to read (must exist)
    ///
    /// Instead of $XDG_CONFIG_HOME/smsstat/config.toml.
    #[arg(long, value_name = "PATH", value_parser = checks::path, global = true, hide_short_help = true, help_heading = CONFIGURATION)]
    pub config: Option<PathBuf>,

    /// Profile of the config file to use
    ///
    /// A [profiles.NAME] table; without it, `default` if the file has one.
    #[arg(long, value_name = "NAME", global = true, help_heading = CONFIGURATION)]
    pub profile: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_a_global_option_with_its_flag() {
        let command = Given::augment_args(clap::Command::new("t"));
        for key in KEYS {
            let arg = command.get_arguments().find(|a| a.get_id() == key);
            let arg = arg.unwrap_or_else(|| panic!("no option {key}"));
            assert_eq!(arg.get_long().map(|l| format!("--{l}")), Some(flag_of(key)));
            assert!(arg.is_global_set(), "{key}");
        }
        assert_eq!(variable_of("max_body"), "SMSSTAT_MAX_BODY");
        let (name, about) = &variables()[2];
        assert_eq!(name, "SMSSTAT_BASE_URL");
        assert_eq!(about, "As --base-url: Base URL of the service.");
    }
}
