//! Every clap definition of smsstat, and nothing else: the parsed `Cli` is turned
//! into a resolved `Config` by `settings::config::construct_config`.

use clap::{Args, Parser, Subcommand};

pub use super::values::EXIT_CODES_HELP;
use super::values::{
    parse_interval, parse_jobs, parse_max_body, parse_rate, parse_ratio, parse_status,
    parse_wait_timeout, Rate,
};
pub use crate::domain::format::{ColorChoice, OutputFormat};
pub use crate::domain::lookup::PathStyle;
use crate::settings::given::{Given, Texts};
use crate::settings::table as settings;

pub use crate::cli::sim_args::SimArgs;

/// Status inspector for an SMS gateway's read API.
///
/// Looks up the delivery status of an SMS, the counters of a multi-recipient SMS task
/// and the result of an HLR request, and prints them as tables for people or JSON for
/// scripts. The exit code passes the service's error code through.
#[derive(Debug, Parser)]
#[command(name = "smsstat", version = super::build::VERSION_LINE, after_help = EXIT_CODES_HELP, args_override_self = true)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,

    #[command(subcommand)]
    pub command: Command,
}

use crate::settings::table::{BATCH, CONNECTION, OUTPUT_HEADING as OUTPUT, WAITING};

// Each option's first paragraph is its line in `-h`: short enough to read at a
// glance; the rest is for `--help` and the man page.
#[derive(Debug, Args)]
pub struct GlobalArgs {
    #[arg(long, env = settings::BASE_URL.env, value_name = settings::BASE_URL.value_name, help = settings::BASE_URL.help(), long_help = settings::BASE_URL.long_help(), global = true, help_heading = settings::BASE_URL.heading)]
    pub base_url: Option<String>,

    #[arg(
        long,
        env = settings::API_KEY.env,
        hide_env_values = true,
        value_name = settings::API_KEY.value_name,
        help = settings::API_KEY.help(),
        long_help = settings::API_KEY.long_help(),
        global = true,
        help_heading = settings::API_KEY.heading
    )]
    pub api_key: Option<String>,

    #[arg(
        long,
        env = settings::API_KEY_FILE.env,
        value_name = settings::API_KEY_FILE.value_name,
        help = settings::API_KEY_FILE.help(),
        long_help = settings::API_KEY_FILE.long_help(),
        global = true,
        help_heading = settings::API_KEY_FILE.heading
    )]
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

    #[arg(short = 'o', long, value_enum, value_name = settings::OUTPUT.value_name, help = settings::OUTPUT.help(), long_help = settings::OUTPUT.long_help(), hide_possible_values = true, global = true, help_heading = settings::OUTPUT.heading)]
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
    /// expectation; next to any output format.
    #[arg(long, value_name = "PATH", global = true, help_heading = OUTPUT)]
    pub junit: Option<std::path::PathBuf>,

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

    #[arg(
        long,
        env = settings::CONFIG.env,
        value_name = settings::CONFIG.value_name,
        help = settings::CONFIG.help(),
        long_help = settings::CONFIG.long_help(),
        global = true,
        help_heading = settings::CONFIG.heading
    )]
    pub config: Option<std::path::PathBuf>,

    #[arg(
        long,
        env = settings::PROFILE.env,
        value_name = settings::PROFILE.value_name,
        help = settings::PROFILE.help(),
        long_help = settings::PROFILE.long_help(),
        global = true,
        help_heading = settings::PROFILE.heading
    )]
    pub profile: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Delivery status of SMS messages by their numeric ID
    #[command(
        after_help = "Examples:\n  smsstat sms 42\n  smsstat --json sms 42 43 44\n  smsstat sms - < ids.txt\n  smsstat --wait --wait-timeout 2m --expect delivered sms 42\n  smsstat -o report sms - < campaign-ids.txt\n  smsstat -o report-md --junit smoke.xml --expect delivered \\\n      sms - < ids.txt >> \"$GITHUB_STEP_SUMMARY\""
    )]
    Sms(LookupArgs),

    /// Delivery status of SMS messages by the client's reference
    #[command(
        after_help = "Examples:\n  smsstat sms-ref order-1234\n  smsstat --json sms-ref 'ext id/17'"
    )]
    SmsRef(LookupArgs),

    /// Aggregate counters of multi-recipient SMS tasks
    #[command(
        after_help = "Examples:\n  smsstat task 7\n  smsstat -o csv task 7 8 9\n  smsstat --wait --expect-delivered 0.95 task 7\n  smsstat -o report-json task - < tasks.txt | jq .tasks.delivery_rate"
    )]
    Task(LookupArgs),

    /// Result of HLR requests (phone-number lookups) by their ID
    #[command(
        after_help = "Examples:\n  smsstat hlr 3001\n  smsstat --field status hlr 3001\n  smsstat --wait --expect active,absent hlr 3001\n  smsstat -o report hlr - < checks.txt"
    )]
    Hlr(LookupArgs),

    /// Result of HLR requests by the client's reference
    #[command(
        after_help = "Examples:\n  smsstat hlr-ref check-7\n  smsstat --json hlr-ref ref-3001 | jq .network"
    )]
    HlrRef(LookupArgs),

    /// Serve the status API with simulated data, on loopback
    ///
    /// The whole status API with simulated data, on a loopback port, until Ctrl-C.
    #[command(
        after_help = "Examples:\n  smsstat sim\n  smsstat sim --listen 127.0.0.1:0 --settle 0\n  smsstat sim --fail-rate 0.2 --latency 50ms --seed 7"
    )]
    Sim(SimArgs),

    /// Inspect the settings and where each comes from
    ///
    /// Each setting's value and where it came from: a flag, the environment, a
    /// profile, the config file or the built-in default.
    #[command(
        subcommand,
        after_help = "Examples:\n  smsstat config show\n  smsstat --profile prod config show\n  SMSSTAT_CONFIG=./ci.toml smsstat config show"
    )]
    Config(ConfigCommand),

    /// Check that this setup can work, step by step
    ///
    /// The settings, the name, the connection, TLS, the key, latency, routes and the
    /// proxy; the exit code is the first failing step's.
    #[command(
        after_help = "Examples:\n  smsstat check\n  smsstat --profile prod check\n  smsstat --json check | jq .steps\n  smsstat --demo check"
    )]
    Check,

    /// Print a shell completion script to stdout
    #[command(
        after_help = "Examples:\n  smsstat completions bash > ~/.local/share/bash-completion/completions/smsstat\n  smsstat completions zsh > ~/.zfunc/_smsstat\n  smsstat completions fish > ~/.config/fish/completions/smsstat.fish"
    )]
    Completions(CompletionsArgs),

    /// Print the man page (roff) to stdout
    #[command(
        after_help = "Examples:\n  smsstat man | man -l -\n  smsstat man > ~/.local/share/man/man1/smsstat.1"
    )]
    Man,

    /// Print the version and build details (for bug reports)
    ///
    /// The version, commit, build date, target, linking and TLS library, for bug
    /// reports and CI logs.
    #[command(
        after_help = "Examples:\n  smsstat version\n  smsstat version --json | jq -r .commit"
    )]
    Version(VersionArgs),
}

#[derive(Debug, Subcommand)]
pub enum ConfigCommand {
    /// Print each setting, its value and where it came from
    ///
    /// Every resolved setting (the key masked); exit 78 when the settings could not
    /// run a lookup.
    #[command(
        after_help = "Examples:\n  smsstat config show\n  smsstat --profile staging config show\n  smsstat --config ./ci.toml config show\n  smsstat config show --json | jq -r .settings.base_url.value"
    )]
    Show,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct VersionArgs {
    /// Print one JSON object
    ///
    /// Its keys: version, commit, dirty, build_date, target, linking, rustc, tls.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct LookupArgs {
    /// Values to look up; `-` reads them from stdin
    ///
    /// With `-`, one value per line (blank lines and # comments skipped).
    #[arg(required = true, value_name = "VALUE")]
    pub values: Vec<String>,
}

impl GlobalArgs {
    /// The settings as given, for `settings/` to resolve.
    pub fn given(&self) -> Given {
        Given {
            base_url: self.base_url.clone(),
            api_key: self.api_key.clone(),
            api_key_file: self.api_key_file.clone(),
            layered: self.layered.clone(),
            paths: self.paths,
            json: self.json,
            output: self.output,
            fields: self.fields.clone(),
            field: self.field.clone(),
            normalize: self.normalize,
            jobs: self.jobs,
            max_body: self.max_body,
            verbose: self.verbose,
            color: self.color,
            demo: self.demo,
            mask_msisdn: self.mask_msisdn,
            config: self.config.clone(),
            profile: self.profile.clone(),
            wait: self.wait,
            wait_timeout: self.wait_timeout,
            interval: self.interval,
            until: self.until.clone(),
            expect: self.expect.clone(),
            expect_delivered: self.expect_delivered,
            follow: self.follow,
            rate_interval: self.rate.map(|rate| rate.interval()),
            keep_going: self.keep_going,
            raw_cells: self.raw_cells,
            no_headers: self.no_headers,
            quiet: self.quiet,
            junit: self.junit.clone(),
        }
    }
}

/// The flags of the table's layered settings, built from the table: each takes text,
/// which the layers check (they know whether the flag or the variable gave it).
impl clap::Args for Texts {
    fn augment_args(command: clap::Command) -> clap::Command {
        let layered = settings::SETTINGS.iter().filter(|s| s.layered);
        command.args(layered.map(|setting| {
            clap::Arg::new(setting.key)
                .long(setting.flag.trim_start_matches('-'))
                .env(setting.env)
                .value_name(setting.value_name)
                .help(setting.help())
                .long_help(setting.long_help())
                .help_heading(setting.heading)
                .global(true)
        }))
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        Self::augment_args(command)
    }
}

impl clap::FromArgMatches for Texts {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let layered = settings::SETTINGS.iter().filter(|s| s.layered);
        Ok(layered
            .filter_map(|s| Some((s.id, matches.get_one::<String>(s.key)?.clone())))
            .collect())
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}
