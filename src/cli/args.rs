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
use crate::settings::given::Given;
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

#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// Base URL of the service, e.g. https://gateway.example/rest
    #[arg(long, env = settings::BASE_URL.env, value_name = "URL", global = true)]
    pub base_url: Option<String>,

    /// API key sent with every request (prefer the SMSSTAT_API_KEY environment variable:
    /// a command-line key is visible to other users in the process list)
    #[arg(
        long,
        env = settings::API_KEY.env,
        hide_env_values = true,
        value_name = "KEY",
        global = true
    )]
    pub api_key: Option<String>,

    /// File holding the API key (Docker and Kubernetes secrets are files): a regular
    /// file of at most 1 MiB, surrounding whitespace trimmed
    #[arg(
        long,
        env = settings::API_KEY_FILE.env,
        value_name = "PATH",
        global = true
    )]
    pub api_key_file: Option<std::path::PathBuf>,

    /// Name of the request header that carries the API key [default: X-API-KEY]
    #[arg(
        long,
        env = settings::API_KEY_HEADER.env,
        value_name = "NAME",
        global = true
    )]
    pub api_key_header: Option<String>,

    // Timeout, retries and the key header are kept as text: the settings layer checks
    // them where it knows whether the flag or the variable gave them, and names that
    // one (`settings::checks`).
    /// Bound on each whole request (connect, headers and body): 10, 500ms, 2s [default: 10s]
    #[arg(long, env = settings::TIMEOUT.env, value_name = "DURATION", global = true)]
    pub timeout: Option<String>,

    /// How often a transient failure (refused, reset, timeout, 429/502/503/504) is
    /// retried, 0 to 20 [default: 2]
    #[arg(long, env = settings::RETRIES.env, value_name = "N", global = true)]
    pub retries: Option<String>,

    /// Which request paths to use: explicit (/sms/reference/R), short (/sms/R), or auto
    /// (explicit, then short when the explicit route does not exist)
    #[arg(long, value_enum, value_name = "STYLE", default_value_t = PathStyle::Auto, global = true)]
    pub paths: PathStyle,

    /// Print the service's JSON, one compact line per lookup (short for -o json)
    #[arg(long, global = true, conflicts_with = "output")]
    pub json: bool,

    /// Output format: table, json (one line per lookup), csv, tsv, or one report over
    /// the batch: report (terminal), report-json, report-md (Markdown for CI job
    /// summaries) (SMSSTAT_OUTPUT in the environment sets it too) [default: table]
    #[arg(short = 'o', long, value_enum, value_name = "FORMAT", global = true)]
    pub output: Option<OutputFormat>,

    /// Fields to show, comma-separated (e.g. status,time_dr): table and csv/tsv columns, or
    /// the keys kept in JSON records; names of the kind's fields, details.NAME, query,
    /// kind, error, errorDescription or table labels (anything else is exit 64)
    #[arg(long, value_name = "A,B,...", value_delimiter = ',', global = true)]
    pub fields: Vec<String>,

    /// Print only this field's bare value, one line per lookup
    #[arg(long, value_name = "NAME", global = true, conflicts_with = "fields")]
    pub field: Option<String>,

    /// With JSON output: typed, uniform records (numbers as numbers, error always
    /// present, ported/roaming as booleans, plus kind and query)
    #[arg(long, global = true)]
    pub normalize: bool,

    /// How many requests run at once, lowered to fit the open-file limit [default: 8]
    #[arg(short = 'j', long, value_name = "N", value_parser = parse_jobs, global = true)]
    pub jobs: Option<usize>,

    /// Largest answer body accepted, in bytes [default: 4194304]
    #[arg(long, value_name = "BYTES", value_parser = parse_max_body, global = true)]
    pub max_body: Option<u64>,

    /// PEM file of the CA certificates to trust for https, instead of the built-in
    /// roots (for a gateway behind a private CA); verification is always on
    #[arg(long, env = settings::CA_CERT.env, value_name = "PATH", global = true)]
    pub ca_cert: Option<std::path::PathBuf>,

    /// Show the request line, status, latency and retries on stderr (never the API key)
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    pub verbose: u8,

    /// When to colour the output (NO_COLOR in the environment means never)
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto, global = true)]
    pub color: ColorChoice,

    /// Run against a built-in simulator on a loopback port: no configuration needed
    #[arg(long, global = true)]
    pub demo: bool,

    /// Mask phone numbers (msisdn) in every output format, except the country code
    /// and the last 2 digits: 380501234567 becomes 380*******67
    #[arg(long, global = true)]
    pub mask_msisdn: bool,

    /// Config file to read instead of $XDG_CONFIG_HOME/smsstat/config.toml (must exist)
    #[arg(
        long,
        env = settings::CONFIG.env,
        value_name = "PATH",
        global = true,
        help_heading = "Configuration"
    )]
    pub config: Option<std::path::PathBuf>,

    /// Profile of the config file to use ([profiles.NAME]; without it, `default` if the
    /// file has one)
    #[arg(
        long,
        env = settings::PROFILE.env,
        value_name = "NAME",
        global = true,
        help_heading = "Configuration"
    )]
    pub profile: Option<String>,

    /// Poll until each record is final (SMS/HLR status no longer pending, task with
    /// nothing pending), then print it
    #[arg(long, global = true, help_heading = "Waiting")]
    pub wait: bool,

    /// How long --wait waits at most: 90, 500ms, 2m [default: 10m]
    #[arg(long, value_name = "DURATION", value_parser = parse_wait_timeout, requires = "wait", global = true, help_heading = "Waiting")]
    pub wait_timeout: Option<std::time::Duration>,

    /// Pause between polls of --wait, at least 100ms (longer after errors, or when the
    /// server asks with Retry-After) [default: 2s]
    #[arg(long, value_name = "DURATION", value_parser = parse_interval, requires = "wait", global = true, help_heading = "Waiting")]
    pub interval: Option<std::time::Duration>,

    /// Statuses that count as final (SMS, HLR), replacing the built-in pending lists,
    /// for --wait and --expect alike
    #[arg(
        long,
        value_name = "STATUS,...",
        value_delimiter = ',',
        value_parser = parse_status,
        global = true,
        help_heading = "Waiting"
    )]
    pub until: Vec<String>,

    /// Succeed only when the final status is one of these (SMS, HLR): exit 80 when
    /// final and different, 81 when still pending
    #[arg(
        long,
        value_name = "STATUS,...",
        value_delimiter = ',',
        value_parser = parse_status,
        global = true,
        help_heading = "Waiting"
    )]
    pub expect: Vec<String>,

    /// Succeed only when delivered/total (delivered/sent without `total`) reaches RATIO
    /// (tasks), e.g. 0.95: exit 80 below it
    #[arg(long, value_name = "RATIO", value_parser = parse_ratio, global = true, help_heading = "Waiting")]
    pub expect_delivered: Option<f64>,

    /// With --wait: print one JSON line per observed change (each with `kind` and `query`),
    /// and a failure as soon as it happens, instead of the final records only
    #[arg(long, global = true, requires = "wait", help_heading = "Waiting")]
    pub follow: bool,

    /// At most N requests per second (N/s) or per minute (N/m) across all lookups,
    /// polls and retries included, e.g. 50/s or 600/m
    #[arg(long, value_name = "N[/s|/m]", value_parser = parse_rate, global = true)]
    pub rate: Option<Rate>,

    /// Look up every value even after the service refused the account (error 1 or 2)
    /// or every connection was refused (by default the rest are "not looked up")
    #[arg(long, global = true)]
    pub keep_going: bool,

    /// CSV/TSV: print cells exactly as sent, without the ' put before a cell that starts
    /// with = + - @ tab or CR and is not a number (spreadsheet formula injection)
    #[arg(long, global = true)]
    pub raw_cells: bool,

    /// Leave out the header line of table, CSV and TSV output (for pipelines)
    #[arg(long, global = true)]
    pub no_headers: bool,

    /// Print no warnings, no per-lookup lines and no summary on stderr; errors that end
    /// the run and the exit code stay
    #[arg(short, long, global = true)]
    pub quiet: bool,

    /// Also write a JUnit XML file: one test case per lookup, a failure for each failed
    /// lookup or unmet expectation (for CI test reports); next to any output format
    #[arg(long, value_name = "PATH", global = true)]
    pub junit: Option<std::path::PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Delivery status of SMS messages by their numeric ID
    #[command(
        after_help = "Examples:\n  smsstat sms 42\n  smsstat --json sms 42 43 44\n  smsstat sms - < ids.txt\n  smsstat --wait --wait-timeout 2m --expect delivered sms 42\n  smsstat -o report sms - < campaign-ids.txt\n  smsstat -o report-md --junit smoke.xml --expect delivered sms - < ids.txt >> \"$GITHUB_STEP_SUMMARY\""
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

    /// Serve the whole status API on loopback with simulated data (until Ctrl-C)
    #[command(
        after_help = "Examples:\n  smsstat sim\n  smsstat sim --listen 127.0.0.1:0 --settle 0\n  smsstat sim --fail-rate 0.2 --latency 50ms --seed 7"
    )]
    Sim(SimArgs),

    /// Inspect the settings: where each one comes from (flag, environment, profile, file)
    #[command(
        subcommand,
        after_help = "Examples:\n  smsstat config show\n  smsstat --profile prod config show\n  SMSSTAT_CONFIG=./ci.toml smsstat config show"
    )]
    Config(ConfigCommand),

    /// Check that this setup can work: settings, name, connection, TLS, the key,
    /// latency, routes and proxy, step by step (exit: the first failing step's code)
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

    /// Print the version, commit, build date, target, linking and TLS library (for
    /// bug reports and CI logs)
    #[command(
        after_help = "Examples:\n  smsstat version\n  smsstat version --json | jq -r .commit"
    )]
    Version(VersionArgs),
}

#[derive(Debug, Subcommand)]
pub enum ConfigCommand {
    /// Print every resolved setting, its value and where it came from (the key masked);
    /// exit 78 when the settings could not run a lookup
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
    /// Print one JSON object: version, commit, dirty, build_date, target, linking,
    /// rustc, tls
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct LookupArgs {
    /// Values to look up; `-` reads them from stdin, one per line (blank lines and
    /// # comments skipped)
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
            api_key_header: self.api_key_header.clone(),
            timeout: self.timeout.clone(),
            retries: self.retries.clone(),
            paths: self.paths,
            json: self.json,
            output: self.output,
            fields: self.fields.clone(),
            field: self.field.clone(),
            normalize: self.normalize,
            jobs: self.jobs,
            max_body: self.max_body,
            ca_cert: self.ca_cert.clone(),
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
