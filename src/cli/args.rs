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

/// The headings `-h` groups the options under, in this order (clap lists a heading
/// where its first option is declared; `-h` and `-V` stay under "Options").
const CONNECTION: &str = "Connection";
const OUTPUT: &str = "Output";
const BATCH: &str = "Batch";
const WAITING: &str = "Waiting";
const CONFIGURATION: &str = "Configuration";

// Each option's first paragraph is its line in `-h`: short enough to read at a
// glance; the rest is for `--help` and the man page.
#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// Base URL of the service
    ///
    /// For example https://gateway.example/rest.
    #[arg(long, env = settings::BASE_URL.env, value_name = "URL", global = true, help_heading = CONNECTION)]
    pub base_url: Option<String>,

    /// API key sent with every request
    ///
    /// Prefer the SMSSTAT_API_KEY environment variable or --api-key-file: a key on the
    /// command line is visible to other users in the process list.
    #[arg(
        long,
        env = settings::API_KEY.env,
        hide_env_values = true,
        value_name = "KEY",
        global = true,
        help_heading = CONNECTION
    )]
    pub api_key: Option<String>,

    /// File holding the API key
    ///
    /// Docker and Kubernetes secrets are files: a regular file of at most 1 MiB,
    /// surrounding whitespace trimmed.
    #[arg(
        long,
        env = settings::API_KEY_FILE.env,
        value_name = "PATH",
        global = true,
        help_heading = CONNECTION
    )]
    pub api_key_file: Option<std::path::PathBuf>,

    /// Header carrying the key [default: X-API-KEY]
    ///
    /// The name of the request header that carries the API key.
    #[arg(
        long,
        env = settings::API_KEY_HEADER.env,
        value_name = "NAME",
        global = true,
        help_heading = CONNECTION
    )]
    pub api_key_header: Option<String>,

    /// CA certificates to trust for https (PEM)
    ///
    /// Instead of the built-in roots, for a gateway behind a private CA; verification
    /// is always on.
    #[arg(long, env = settings::CA_CERT.env, value_name = "PATH", global = true, help_heading = CONNECTION)]
    pub ca_cert: Option<std::path::PathBuf>,

    // Timeout, retries and the key header are kept as text: the settings layer checks
    // them where it knows whether the flag or the variable gave them, and names that
    // one (`settings::checks`).
    /// Bound on each whole request [default: 10s]
    ///
    /// Connecting, the headers and the body together: 10, 500ms, 2s.
    #[arg(long, env = settings::TIMEOUT.env, value_name = "DURATION", global = true, help_heading = CONNECTION)]
    pub timeout: Option<String>,

    /// Retries of a transient failure [default: 2]
    ///
    /// 0 to 20. Transient: a refused or reset connection, a timeout, or HTTP 429,
    /// 502, 503 or 504.
    #[arg(long, env = settings::RETRIES.env, value_name = "N", global = true, help_heading = CONNECTION)]
    pub retries: Option<String>,

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

    /// table, json, csv, tsv, report, report-json, report-md
    ///
    /// The output format: table (the default), json (one line per lookup), csv, tsv,
    /// or one report over the batch: report (terminal), report-json, report-md
    /// (Markdown for CI job summaries). SMSSTAT_OUTPUT in the environment sets it
    /// too.
    #[arg(short = 'o', long, value_enum, value_name = "FORMAT", hide_possible_values = true, global = true, help_heading = OUTPUT)]
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

    /// Config file to read (must exist)
    ///
    /// Instead of $XDG_CONFIG_HOME/smsstat/config.toml.
    #[arg(
        long,
        env = settings::CONFIG.env,
        value_name = "PATH",
        global = true,
        help_heading = CONFIGURATION
    )]
    pub config: Option<std::path::PathBuf>,

    /// Profile of the config file to use
    ///
    /// A [profiles.NAME] table; without it, `default` if the file has one.
    #[arg(
        long,
        env = settings::PROFILE.env,
        value_name = "NAME",
        global = true,
        help_heading = CONFIGURATION
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
