//! How flag values are read: the checks clap runs on them, the exit-code text of
//! `--help`, and the command-line names of the domain's choices.

use std::time::Duration;

use clap::builder::PossibleValue;
use clap::ValueEnum;

use crate::domain::duration::parse_duration;
use crate::domain::format::{ColorChoice, OutputFormat};
use crate::domain::lookup::PathStyle;

/// Each line at most 78 columns: `-h` and `--help` wrap at the terminal's width, and
/// at 80 this table must not be broken into unindented pieces.
pub const EXIT_CODES_HELP: &str = "\
Exit codes:
  0      success
  1-63   the service's non-zero error code, passed through (10 HLR not found,
         20 SMS not found, 30 task not found, 1 invalid API key, ...;
         deployments use other codes too)
  64     usage error (also a bad value in an SMSSTAT_* variable, named)
  65     the answer is not a readable JSON record, or not the record asked for
  69     service unavailable (connection failed, 5xx without a JSON error body)
  70     internal error
  74     the output could not be written (a full disk; a closed pipe is not
         an error)
  75     temporary failure: timed out, or still rate limited (429), after
         retries
  76     unexpected HTTP answer (3xx, 4xx other than 401/403, without a JSON
         error body)
  77     not authorised (401/403 without a JSON error body, 407 from a proxy)
  78     configuration error (config file: file, line and key named; base URL,
         key file, CA file, proxy)
  79     service error code outside 1-63
  80     expectation not met (--expect, --expect-delivered)
  81     still pending (--expect without --wait, or --wait timed out)
  129    stopped by SIGHUP
  130    interrupted (Ctrl-C)
  143    stopped by SIGTERM
With several lookups, the exit code is that of the first failed lookup in
input order.";

/// A wait that cannot poll even once is a mistake, not a check.
pub fn parse_wait_timeout(text: &str) -> Result<Duration, String> {
    let timeout = parse_duration(text)?;
    if timeout.is_zero() {
        return Err("the wait timeout must be more than 0".into());
    }
    Ok(timeout)
}

/// An empty status (`--expect "$UNSET"`) would silently turn a CI gate off.
pub fn parse_status(text: &str) -> Result<String, String> {
    let status = text.trim();
    if status.is_empty() {
        return Err("an empty status: name at least one (e.g. delivered)".into());
    }
    Ok(status.to_string())
}

/// Polling faster than this only loads the gateway.
pub fn parse_interval(text: &str) -> Result<Duration, String> {
    let interval = parse_duration(text)?;
    if interval < Duration::from_millis(100) {
        return Err(format!(
            "`{text}` is too short a poll interval; at least 100ms"
        ));
    }
    Ok(interval)
}

/// More workers than this only add open connections, not speed.
pub const MAX_JOBS: usize = 256;

/// `--jobs`: no worker would look anything up; too many only open connections.
pub fn parse_jobs(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(jobs) if (1..=MAX_JOBS).contains(&jobs) => Ok(jobs),
        _ => Err(format!("expected a whole number from 1 to {MAX_JOBS}")),
    }
}

/// `--max-body`: a limit of 0 bytes would refuse every answer.
pub fn parse_max_body(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(bytes) if bytes > 0 => Ok(bytes),
        _ => Err("expected a number of bytes from 1".into()),
    }
}

/// `sim --fail-rate`: a share of the requests.
pub fn parse_fraction(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(share) if (0.0..=1.0).contains(&share) => Ok(share),
        _ => Err("expected a fraction from 0.0 to 1.0 (e.g. 0.2)".into()),
    }
}

pub fn parse_ratio(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(ratio) if (0.0..=1.0).contains(&ratio) => Ok(ratio),
        _ => Err(format!(
            "`{text}` is not a ratio between 0 and 1 (e.g. 0.95)"
        )),
    }
}

/// Names on the command line for the domain's choices (the domain knows no clap).
macro_rules! value_enum {
    ($type:ty: $($variant:ident => $name:literal),+ $(,)?) => {
        impl ValueEnum for $type {
            fn value_variants<'a>() -> &'a [Self] {
                &[$(<$type>::$variant),+]
            }

            fn to_possible_value(&self) -> Option<PossibleValue> {
                Some(PossibleValue::new(match self {
                    $(<$type>::$variant => $name),+
                }))
            }
        }
    };
}

value_enum!(PathStyle: Auto => "auto", Explicit => "explicit", Short => "short");
value_enum!(ColorChoice: Auto => "auto", Always => "always", Never => "never");
value_enum!(OutputFormat: Table => "table", Json => "json", Csv => "csv", Tsv => "tsv",
    Report => "report", ReportJson => "report-json", ReportMarkdown => "report-md");

/// `--rate`: at most `requests` per `per`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    pub requests: u32,
    pub per: std::time::Duration,
}

impl Rate {
    /// The spacing between request starts that keeps to the rate.
    pub fn interval(&self) -> std::time::Duration {
        self.per / self.requests
    }
}

/// `N`, `N/s` or `N/m`, N from 1 (like curl's --rate; per second when no unit is given).
pub fn parse_rate(text: &str) -> Result<Rate, String> {
    let (count, unit) = text.split_once('/').unwrap_or((text, "s"));
    let per = match unit.trim() {
        "s" | "sec" | "second" => std::time::Duration::from_secs(1),
        "m" | "min" | "minute" => std::time::Duration::from_secs(60),
        _ => return Err("the unit must be /s or /m (e.g. 50/s, 600/m)".into()),
    };
    match count.trim().parse::<u32>() {
        Ok(requests) if requests > 0 => Ok(Rate { requests, per }),
        _ => Err("expected a whole number of requests from 1, e.g. 50/s or 600/m".into()),
    }
}
