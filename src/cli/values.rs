//! The examples and exit-code text of `--help`, and the domain's choices' names.

use clap::builder::PossibleValue;
use clap::ValueEnum;

use crate::domain::format::{ColorChoice, OutputFormat};
use crate::domain::lookup::PathStyle;

/// The end of `-h` (and of bare `smsstat`): a first try, the common forms, where to
/// read more. Each line at most 78 columns, as below.
pub const START_HELP: &str = "\
Examples:
  smsstat --demo sms 42            try it against the built-in simulator
  smsstat --demo --wait --expect delivered sms 2
  smsstat sms - < ids.txt          one lookup per line of a file
  smsstat check                    diagnose the setup, step by step

Every option and the exit codes: smsstat --help, or man smsstat.
A command's options and examples: smsstat sms -h (task -h, ...).
The guide: README.md (/usr/share/doc/smsstat/ once installed).";

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
    Report => "report", ReportJson => "report-json", ReportMarkdown => "report-md",
    Prometheus => "prometheus");
