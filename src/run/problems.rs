//! What stderr says of each lookup of a batch that did not simply succeed (a failure,
//! an unmet condition, or a record worth a warning), and of the settings before any.

use crate::domain::error::LookupError;
use crate::domain::lookup::LookupKind;
use crate::domain::outcome::Outcome;
use crate::domain::record::{Record, RecordKind};
use crate::domain::sanitize::{escape_control, preview};
use crate::domain::status;
use crate::domain::task::TaskCounters;
use crate::output::messages::{batch_error, report, warn};
use crate::run::worker;
use crate::settings::config::Config;

/// One line on stderr for a failed lookup or an unmet condition. The message may
/// quote the server (an error description, a status), so it is escaped as a whole.
pub(crate) fn report_problem(outcome: &Outcome, no_key: bool) {
    // An empty value is named as a shell would write it (`sms : empty value` reads
    // as a typo).
    let query = match outcome.query.is_empty() {
        true => "''".to_string(),
        false => preview(&outcome.query),
    };
    let name = format!("{} {query}", outcome.kind.name());
    let problem = match (&outcome.result, &outcome.verdict) {
        // The panic hook wrote the one line for the whole run.
        (Err(LookupError::Internal(text)), _) if text == worker::PANICKED => return,
        (Err(error), _) if no_key && is_key_refusal(error) => format!(
            "{error}; no API key is configured: set SMSSTAT_API_KEY (or api_key in the \
             config file)"
        ),
        (Err(error), _) => error.to_string(),
        (Ok(_), Some(verdict)) => verdict.message.clone(),
        (Ok(record), None) => return warn_of_record(&name, outcome.kind, record),
    };
    batch_error(format_args!("{name}: {}", escape_control(&problem)));
}

/// An answer that means the key is missing or wrong: service error 1 or HTTP 401.
fn is_key_refusal(error: &LookupError) -> bool {
    matches!(
        error,
        LookupError::Service { code: Some(1), .. } | LookupError::NotAuthorised { status: 401, .. }
    )
}

/// What a person should know about a record that is not an error: another kind of
/// record than asked, or task counters that cannot all be true.
fn warn_of_record(name: &str, kind: LookupKind, record: &Record) {
    // A short-form path can be answered with another kind of record (the spec does
    // not say how a deployment tells `/sms/{reference}` from `/sms/{task_id}`); the
    // record is shown as what it is, and the user is told.
    let expected = kind.record_kind();
    if record.kind != expected {
        warn(format_args!(
            "{name}: the answer is {} record, not {} record; the service may have read a \
             short-form path differently (try --paths explicit)",
            record.kind.with_article(),
            expected.with_article()
        ));
    }
    if record.kind != RecordKind::Task {
        return;
    }
    let problem = match TaskCounters::of(record) {
        Some(counters) => crate::domain::task::problem(&counters).map(|p| format!("task {p}")),
        None => Some("the task's `sent` counter is not a number".into()),
    };
    if let Some(problem) = problem {
        warn(format_args!("{name}: {problem}; treated as final"));
    }
}

/// Warnings about the settings and, under `-v`, the proxy: said before any lookup.
pub(crate) fn tell_before_starting(config: &Config, kind: LookupKind) {
    let (http, watch) = (&config.http, &config.watch);
    if !config.output.quiet {
        // Any status string is valid (servers have their own), but a typo in
        // `--expect` would make a CI gate fail forever.
        let record_kind = kind.record_kind();
        for status in watch.expect.statuses.iter().chain(&watch.until) {
            if !status::is_known(record_kind, status) {
                warn(format_args!(
                    "`{}` is not a status smsstat knows for {} records",
                    escape_control(status),
                    record_kind.name()
                ));
            }
        }
        // The key in a plain-http request can be read by anyone on the path, unless
        // the path is the machine itself.
        if let Some(host) = http.key_in_clear_to() {
            warn(format_args!(
                "the API key is sent in clear over http:// to {host}; use https://"
            ));
        }
    }
    if let Some(proxy) = http.proxy.as_ref().filter(|_| http.verbose > 0) {
        report(format_args!("proxy {proxy} for {}", http.base_url));
    }
}
