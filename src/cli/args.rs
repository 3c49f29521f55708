//! The subcommands and their own arguments; the global options are `settings::given`'s.

use clap::{Args, Parser, Subcommand};

pub use super::values::{EXIT_CODES_HELP, START_HELP};
use crate::settings::given::Given;

pub use crate::cli::sim_args::SimArgs;

/// Status inspector for an SMS gateway's read API.
///
/// Looks up the delivery status of an SMS, the counters of a multi-recipient SMS task
/// and the result of an HLR request, and prints them as tables for people or JSON for
/// scripts. The exit code passes the service's error code through.
#[derive(Debug, Parser)]
#[command(name = "smsstat", version = super::build::VERSION_LINE, after_help = START_HELP, args_override_self = true)]
pub struct Cli {
    #[command(flatten)]
    pub global: Given,

    #[command(subcommand)]
    pub command: Command,
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
    /// The whole status API with simulated data, on a loopback port, until stopped
    /// (Ctrl-C, SIGTERM); each request a line on stderr (-q: none).
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
    Completions {
        /// The shell to complete for
        #[arg(value_enum, value_name = "SHELL")]
        shell: clap_complete::Shell,
    },

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
    Version {
        /// Print one JSON object
        ///
        /// Its keys: version, commit, dirty, build_date, target, linking, rustc, tls.
        #[arg(long)]
        json: bool,
    },
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
pub struct LookupArgs {
    /// Values to look up; `-` reads them from stdin
    ///
    /// With `-`, one value per line (blank lines and # comments skipped).
    #[arg(required = true, value_name = "VALUE")]
    pub values: Vec<String>,
}
