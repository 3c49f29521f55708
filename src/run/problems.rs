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
use crate::settings::config::{Config, HttpSettings, WatchSettings};

/// One line on stderr for a failed lookup or an unmet condition. The message may
/// quote the server (an error description, a status), so it is escaped as a whole.
pub(crate) fn report_problem(outcome: &Outcome, no_key: bool) {
    let problem = match (&outcome.result, &outcome.verdict) {
        // The panic hook wrote the one line for the whole run.
        (Err(LookupError::Internal(text)), _) if text == worker::PANICKED => return,
        (Err(error), _) if no_key && is_key_refusal(error) => format!(
            "{error}; no API key is configured: set SMSSTAT_API_KEY (or api_key in the \
             config file)"
        ),
        (Err(error), _) => error.to_string(),
        (Ok(_), Some(verdict)) => verdict.message.clone(),
        (Ok(record), None) => {
            for warning in record_warnings(outcome.kind, record) {
                warn(format_args!(
                    "{} {}: {warning}",
                    outcome.kind.name(),
                    shown(&outcome.query)
                ));
            }
            return;
        }
    };
    batch_error(format_args!(
        "{} {}: {}",
        outcome.kind.name(),
        shown(&outcome.query),
        escape_control(&problem)
    ));
}

/// The value as a line names it: an empty one as `''`, as a shell would write it
/// (`sms : empty value` read as a typo).
fn shown(query: &str) -> String {
    match query.is_empty() {
        true => "''".to_string(),
        false => preview(query),
    }
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
fn record_warnings(kind: LookupKind, record: &Record) -> Vec<String> {
    let counters = (record.kind == RecordKind::Task)
        .then(|| match TaskCounters::of(record) {
            Some(counters) => crate::domain::task::problem(&counters)
                .map(|problem| format!("task {problem}; treated as final")),
            None => Some("the task's `sent` counter is not a number; treated as final".into()),
        })
        .flatten();
    kind_mismatch(kind, record)
        .into_iter()
        .chain(counters)
        .collect()
}

/// A short-form path can be answered with another kind of record (the spec does not
/// say how a deployment tells `/sms/{reference}` from `/sms/{task_id}`); the record is
/// shown as what it is, and the user is told.
fn kind_mismatch(kind: LookupKind, record: &Record) -> Option<String> {
    let expected = kind.record_kind();
    (record.kind != expected).then(|| {
        format!(
            "the answer is {} record, not {} record; the service may have read a \
             short-form path differently (try --paths explicit)",
            article(record.kind),
            article(expected)
        )
    })
}

fn article(kind: RecordKind) -> &'static str {
    match kind {
        RecordKind::Sms => "an SMS",
        RecordKind::Task => "a task",
        RecordKind::Hlr => "an HLR",
    }
}

/// Warnings about the settings (an unknown status, a key in clear) and, under
/// `-v`, the proxy a run goes through: said once, before any lookup.
pub(crate) fn tell_before_starting(config: &Config, kind: LookupKind) {
    if !config.output.quiet {
        warn_about_statuses(&config.watch, kind);
        warn_about_clear_key(&config.http);
    }
    if config.http.verbose > 0 {
        if let Some(proxy) = &config.http.proxy {
            report(format_args!(
                "proxy {} (from {}) for {}",
                proxy.shown, proxy.variable, config.http.base_url
            ));
        }
    }
}

/// The key in a plain-http request can be read by anyone on the path: say so once,
/// unless the path is the machine itself.
fn warn_about_clear_key(http: &HttpSettings) {
    if let Some(host) = http.key_in_clear_to() {
        warn(format_args!(
            "the API key is sent in clear over http:// to {host}; use https://"
        ));
    }
}

/// Any status string is valid (servers have their own), but a typo in `--expect`
/// would make a CI gate fail forever: say so once.
fn warn_about_statuses(watch: &WatchSettings, kind: LookupKind) {
    for status in watch.expect.statuses.iter().chain(&watch.until) {
        if !status::is_known(kind.record_kind(), status) {
            warn(format_args!(
                "`{}` is not a status smsstat knows for {} records",
                escape_control(status),
                kind.record_kind().name()
            ));
        }
    }
}
