//! The settings as given, before resolution, and their flags: clap parses the command
//! line and the environment into `Given`; `settings/` resolves it with the config
//! file and the defaults into the `Config` every other layer reads.

use std::collections::BTreeMap;

use clap::Args;

use crate::domain::format::{ColorChoice, OutputFormat};
use crate::domain::lookup::PathStyle;
use crate::settings::checks::{
    parse_interval, parse_jobs, parse_max_body, parse_rate, parse_ratio, parse_status,
    parse_wait_timeout, Rate,
};
use crate::settings::table::{self, Id, BATCH, CONNECTION, OUTPUT_HEADING as OUTPUT, WAITING};

// Each option's first paragraph is its line in `-h`: short enough to read at a
// glance; the rest is for `--help` and the man page.
/// The global options as given: what flags and the environment said (clap has
/// parsed and merged them), typed, with nothing filled in. A flag-only setting is a
/// field here (its doc comment is its help, its `value_parser` its check) plus its
/// consumer; a setting that the environment or the config file can also give is an
/// entry of the settings table instead (`table::table`).
#[derive(Debug, Clone, Default, Args)]
pub struct Given {
    #[arg(table_entry = table::BASE_URL)]
    pub base_url: Option<String>,

    #[arg(table_entry = table::API_KEY, hide_env_values = true)]
    pub api_key: Option<String>,

    #[arg(table_entry = table::API_KEY_FILE)]
    pub api_key_file: Option<std::path::PathBuf>,

    /// The table's layered settings (`--api-key-header`, `--ca-cert`, `--timeout`,
    /// `--retries`, ...), their flags built from the table.
    #[command(flatten)]
    pub layered: Texts,

    /// Paths: auto, explicit or short
    ///
    /// Which request paths to use: explicit (/sms/reference/R), short (/sms/R), or
    /// auto (explicit, then short when the explicit route does not exist).
    #[arg(long, value_enum, value_name = "STYLE", default_value_t = PathStyle::Auto, hide_possible_values = true, global = true, help_heading = CONNECTION)]
    pub paths: PathStyle,

    /// Largest answer body, in bytes [default: 4194304]
    ///
    /// A longer answer is a failed lookup.
    #[arg(long, value_name = "BYTES", value_parser = parse_max_body, global = true, help_heading = CONNECTION)]
    pub max_body: Option<u64>,

    /// Run against a built-in simulator
    ///
    /// No configuration needed: the simulator serves on a loopback port for the
    /// run's length.
    #[arg(long, global = true, help_heading = CONNECTION)]
    pub demo: bool,

    /// JSON, one compact line per lookup (short for -o json)
    ///
    /// The service's JSON as it came, one compact line per lookup.
    #[arg(long, global = true, conflicts_with = "output", help_heading = OUTPUT)]
    pub json: bool,

    #[arg(short = 'o', long, value_enum, value_name = table::OUTPUT.value_name, help = table::OUTPUT.help(), long_help = table::OUTPUT.long_help(), hide_possible_values = true, global = true, help_heading = table::OUTPUT.heading)]
    pub output: Option<OutputFormat>,

    /// Fields to show, comma-separated (e.g. status,time_dr)
    ///
    /// Table and CSV/TSV columns, or the keys kept in JSON records: names of the
    /// kind's fields, details.NAME, query, kind, error, errorDescription or table
    /// labels (anything else is exit 64).
    #[arg(long, value_name = "A,B,...", value_delimiter = ',', global = true, help_heading = OUTPUT)]
    pub fields: Vec<String>,

    /// Only this field's bare value, one line per lookup
    #[arg(long, value_name = "NAME", global = true, conflicts_with = "fields", help_heading = OUTPUT)]
    pub field: Option<String>,

    /// JSON: typed, uniform records
    ///
    /// Numbers as numbers, error always present, ported and roaming as booleans, plus
    /// kind and query.
    #[arg(long, global = true, help_heading = OUTPUT)]
    pub normalize: bool,

    /// Mask phone numbers in every output format
    ///
    /// All of an msisdn but the country code and the last 2 digits: 380501234567
    /// becomes 380*******67.
    #[arg(long, global = true, help_heading = OUTPUT)]
    pub mask_msisdn: bool,

    /// CSV/TSV: cells exactly as sent, formulas included
    ///
    /// Without the ' put before a cell that starts with = + - @ tab or CR and is not a
    /// number (spreadsheet formula injection).
    #[arg(long, global = true, help_heading = OUTPUT)]
    pub raw_cells: bool,

    /// Leave out the header line of table, CSV and TSV output
    #[arg(long, global = true, help_heading = OUTPUT)]
    pub no_headers: bool,

    /// When to colour: auto, always or never
    ///
    /// auto: only on a terminal, never with NO_COLOR, CLICOLOR=0 or TERM=dumb in the
    /// environment, forced by CLICOLOR_FORCE.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto, hide_possible_values = true, global = true, help_heading = OUTPUT)]
    pub color: ColorChoice,

    /// Also write a JUnit XML file (for CI test reports)
    ///
    /// One test case per lookup, a failure for each failed lookup or unmet
    /// expectation; next to any output format. Written as --metrics is: a regular
    /// file replaced atomically, a symlink followed, a FIFO or device in place.
    #[arg(long, value_name = "PATH", global = true, help_heading = OUTPUT)]
    pub junit: Option<std::path::PathBuf>,

    /// Also write the batch as Prometheus metrics
    ///
    /// The document of -o prometheus, next to any output format. A regular file
    /// (or a new path) is replaced atomically: written beside it and renamed over
    /// it, a symlink followed to its target and left as it is. A FIFO or device is
    /// written in place. The same holds for --junit.
    #[arg(long, value_name = "PATH", global = true, help_heading = OUTPUT)]
    pub metrics: Option<std::path::PathBuf>,

    /// Show requests, statuses, latency and retries on stderr
    ///
    /// The request line, status, latency and retries; -vv adds the headers (never
    /// the API key).
    #[arg(short, long, action = clap::ArgAction::Count, global = true, help_heading = OUTPUT)]
    pub verbose: u8,

    /// No warnings, per-lookup lines or summary on stderr
    ///
    /// Errors that end the run and the exit code stay.
    #[arg(short, long, global = true, help_heading = OUTPUT)]
    pub quiet: bool,

    /// How many requests run at once [default: 8]
    ///
    /// Lowered to fit the open-file limit.
    #[arg(short = 'j', long, value_name = "N", value_parser = parse_jobs, global = true, help_heading = BATCH)]
    pub jobs: Option<usize>,

    /// At most N requests a second (N/s) or a minute (N/m)
    ///
    /// Across all lookups, polls and retries included, e.g. 50/s or 600/m.
    #[arg(long, value_name = "N[/s|/m]", value_parser = parse_rate, global = true, help_heading = BATCH)]
    pub rate: Option<Rate>,

    /// Go on after a refused account or connection
    ///
    /// Look up every value even after the service refused the account (error 1 or 2)
    /// or every connection was refused (by default the rest are "not looked up").
    #[arg(long, global = true, help_heading = BATCH)]
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
    #[arg(long, value_name = "DURATION", value_parser = parse_wait_timeout, requires = "wait", global = true, help_heading = WAITING)]
    pub wait_timeout: Option<std::time::Duration>,

    /// Pause between polls [default: 2s]
    ///
    /// At least 100ms; longer after errors, or when the server asks with Retry-After.
    #[arg(long, value_name = "DURATION", value_parser = parse_interval, requires = "wait", global = true, help_heading = WAITING)]
    pub interval: Option<std::time::Duration>,

    /// Statuses that count as final
    ///
    /// SMS and HLR statuses, replacing the built-in pending lists, for --wait and
    /// --expect alike.
    #[arg(
        long,
        value_name = "STATUS,...",
        value_delimiter = ',',
        value_parser = parse_status,
        global = true,
        help_heading = WAITING
    )]
    pub until: Vec<String>,

    /// Succeed only with one of these statuses
    ///
    /// SMS and HLR statuses: exit 80 when final and different, 81 when still
    /// pending.
    #[arg(
        long,
        value_name = "STATUS,...",
        value_delimiter = ',',
        value_parser = parse_status,
        global = true,
        help_heading = WAITING
    )]
    pub expect: Vec<String>,

    /// Delivery rate a task must reach
    ///
    /// Delivered/total (delivered/sent without `total`), e.g. 0.95: exit 80 below it.
    #[arg(long, value_name = "RATIO", value_parser = parse_ratio, global = true, help_heading = WAITING)]
    pub expect_delivered: Option<f64>,

    /// Print each change as a JSON line
    ///
    /// With --wait: one JSON line per observed change (each with `kind` and `query`),
    /// and a failure as soon as it happens, instead of the final records only.
    #[arg(long, global = true, requires = "wait", help_heading = WAITING)]
    pub follow: bool,

    #[arg(table_entry = table::CONFIG)]
    pub config: Option<std::path::PathBuf>,

    #[arg(table_entry = table::PROFILE)]
    pub profile: Option<String>,
}

impl Given {
    /// `--rate` as the least spacing between request starts.
    pub fn rate_interval(&self) -> Option<std::time::Duration> {
        self.rate.map(|rate| rate.interval())
    }
}

/// A flag built from its table entry: its name, variable, value name, help and
/// heading. The by-hand settings' clap derive calls it (`#[arg(table_entry = ...)]`),
/// and so does the layered settings' `Args`.
trait TableEntry {
    fn table_entry(self, setting: table::Setting) -> Self;
}

impl TableEntry for clap::Arg {
    fn table_entry(self, setting: table::Setting) -> clap::Arg {
        self.long(setting.flag.trim_start_matches('-'))
            .env(setting.env)
            .value_name(setting.value_name)
            .help(setting.help())
            .long_help(setting.long_help())
            .help_heading(setting.heading)
            .global(true)
    }
}

/// The text of each layered setting that a flag or a variable gave.
#[derive(Debug, Clone, Default)]
pub struct Texts(BTreeMap<Id, String>);

impl Texts {
    pub fn get(&self, id: Id) -> Option<&str> {
        self.0.get(&id).map(String::as_str)
    }
}

impl FromIterator<(Id, String)> for Texts {
    fn from_iter<T: IntoIterator<Item = (Id, String)>>(iter: T) -> Self {
        Texts(iter.into_iter().collect())
    }
}

/// The flags of the table's layered settings, built from the table: each takes text,
/// which the layers check (they know whether the flag or the variable gave it).
impl clap::Args for Texts {
    fn augment_args(command: clap::Command) -> clap::Command {
        let layered = table::SETTINGS.iter().filter(|s| s.layered);
        command.args(layered.map(|setting| clap::Arg::new(setting.key).table_entry(*setting)))
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        Self::augment_args(command)
    }
}

impl clap::FromArgMatches for Texts {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let layered = table::SETTINGS.iter().filter(|s| s.layered);
        Ok(layered
            .filter_map(|s| Some((s.id, matches.get_one::<String>(s.key)?.clone())))
            .collect())
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}
