//! The batch tally: the exit code of the first failure in input order, and the
//! summary line (`120 ok, 3 SMS not found (20), 1 timed out`).

use std::borrow::Cow;

use crate::domain::error::LookupError;
use crate::domain::exit_codes::STILL_PENDING;
use crate::domain::outcome::Outcome;
use crate::domain::sanitize::{escape_control, escape_cut, MAX_CELL_CHARS};

/// The most of a service's error code a label shows (codes are numbers; a server
/// may send any text).
const MAX_CODE_CHARS: usize = 40;
/// Distinct failure kinds named in the summary; the rest are counted together.
const MAX_LABELS: usize = 8;
const OTHER: &str = "other failures";
const INTERRUPTED: &str = "interrupted";
/// The most of a service's text a summary label shows: the summary is one line that
/// names several kinds, where a report row or a JUnit attribute has room for more.
const MAX_SUMMARY_TEXT: usize = 60;

/// The values a signal kept from being looked up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotStarted {
    Count(usize),
    /// Stdin was still open: how much more it held cannot be known.
    RestOfStdin,
}

#[derive(Debug, Default)]
pub struct Tally {
    ok: usize,
    /// Failure kinds in order of first appearance, with their counts.
    failures: Vec<(String, usize)>,
    /// Lookups a signal cut short, also counted among `failures`.
    interrupted: usize,
    /// The exit code of the first failed lookup in input order.
    pub first_failure: Option<u8>,
}

impl Tally {
    pub fn add(&mut self, outcome: &Outcome) {
        let Some(label) = failure_label_within(outcome, summary_cut) else {
            self.ok += 1;
            return;
        };
        self.first_failure.get_or_insert(outcome.exit_code());
        self.interrupted += usize::from(label == INTERRUPTED);
        // Labels carry service text: a server that words every error differently
        // must not grow the summary (or the time to build it) without bound.
        let label = match self.failures.iter().any(|(l, _)| *l == label) {
            false if self.failures.len() >= MAX_LABELS => OTHER.to_string(),
            _ => label,
        };
        match self.failures.iter_mut().find(|(l, _)| *l == label) {
            Some((_, count)) => *count += 1,
            None => self.failures.push((label, 1)),
        }
    }

    pub fn total(&self) -> usize {
        self.ok + self.failures.iter().map(|(_, n)| n).sum::<usize>()
    }

    pub fn summary(&self) -> String {
        format!("{} ok{}", self.ok, self.failures_but(""))
    }

    /// `, 3 sms not found (20), 1 timed out`: the failure kinds but the one labelled
    /// `but`, each with its count.
    fn failures_but(&self, but: &str) -> String {
        let failures = self.failures.iter().filter(|(label, _)| label != but);
        String::from_iter(failures.map(|(label, n)| format!(", {n} {label}")))
    }

    /// The summary of a run a signal stopped: `interrupted: 57 done, 1 interrupted,
    /// 1942 not started`, with what the done ones came to when some failed.
    pub fn interrupted_summary(&self, not_started: NotStarted) -> String {
        let done = self.total() - self.interrupted;
        let mut text = format!("interrupted: {done} done");
        let failed = self.failures_but(INTERRUPTED);
        if !failed.is_empty() {
            text += &format!(" ({} ok{failed})", self.ok);
        }
        text += &format!(", {} interrupted, ", self.interrupted);
        match not_started {
            NotStarted::Count(n) => text + &format!("{n} not started"),
            NotStarted::RestOfStdin => text + "not started: the rest of stdin",
        }
    }
}

/// What went wrong with a lookup, in a few words (`sms not found (20)`, `timed
/// out`, `still pending`); None for a plain success.
pub fn failure_label(outcome: &Outcome) -> Option<String> {
    failure_label_within(outcome, |text| escape_cut(text, MAX_CELL_CHARS))
}

/// `failure_label`, with the service's own words cut by `cut`.
fn failure_label_within(outcome: &Outcome, cut: impl Fn(&str) -> Cow<'_, str>) -> Option<String> {
    let label = match (&outcome.result, &outcome.verdict) {
        (
            Err(LookupError::Service {
                description: Some(text),
                shown_code,
                ..
            }),
            _,
        ) => {
            // Escaped like any answer text, and cut to a table cell: a label names a kind
            // in the summary, a report row and a JUnit attribute (a 1 MB description
            // would be a 1 MB line in each). Cut first: the rest is never lowercased.
            let text = cut(text).to_lowercase();
            format!("{text} ({})", escape_cut(shown_code, MAX_CODE_CHARS))
        }
        (Err(error), _) => error.category(),
        (Ok(_), Some(verdict)) if verdict.code == STILL_PENDING => "still pending".into(),
        (Ok(_), Some(verdict)) if verdict.interrupted() => INTERRUPTED.into(),
        (Ok(_), Some(_)) => "expectation not met".into(),
        (Ok(_), None) => return None,
    };
    Some(label)
}

/// A summary label's cut: the first words and `…`, no count of what was left out.
fn summary_cut(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(MAX_SUMMARY_TEXT) {
        Some((at, _)) => Cow::Owned(format!("{}…", escape_control(&text[..at]))),
        None => escape_control(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::lookup::LookupKind;
    use crate::domain::record::{Record, RecordKind};

    fn ok() -> Outcome {
        let record = Record {
            kind: RecordKind::Sms,
            fields: Default::default(),
        };
        Outcome::new(LookupKind::Sms, "1".into(), Ok(record))
    }

    fn failed(error: LookupError) -> Outcome {
        Outcome::new(LookupKind::Sms, "1".into(), Err(error))
    }

    fn not_found() -> LookupError {
        LookupError::Service {
            code: Some(20),
            shown_code: "20".into(),
            description: Some("SMS not found".into()),
            body: Default::default(),
        }
    }

    #[test]
    fn first_failure_in_order_and_summary() {
        let mut tally = Tally::default();
        tally.add(&ok());
        tally.add(&failed(LookupError::Timeout(
            std::time::Duration::from_secs(1),
        )));
        tally.add(&failed(not_found()));
        tally.add(&failed(not_found()));
        tally.add(&ok());
        assert_eq!(tally.first_failure, Some(75));
        assert_eq!(tally.total(), 5);
        assert_eq!(tally.summary(), "2 ok, 1 timed out, 2 sms not found (20)");
    }

    #[test]
    fn distinct_service_texts_do_not_grow_the_summary() {
        let mut tally = Tally::default();
        for n in 0..1000 {
            tally.add(&failed(LookupError::Service {
                code: Some(20),
                shown_code: "20".into(),
                description: Some(format!("SMS {n} not found")),
                body: Default::default(),
            }));
        }
        assert_eq!(tally.total(), 1000);
        assert!(tally.summary().len() < 400, "{}", tally.summary());
        assert!(tally.summary().contains("other failures"));
    }

    #[test]
    fn a_long_service_text_is_cut_in_the_summary() {
        let mut tally = Tally::default();
        tally.add(&failed(LookupError::Service {
            code: Some(20),
            shown_code: "20".into(),
            description: Some("Word ".repeat(100)),
            body: Default::default(),
        }));
        let summary = tally.summary();
        assert!(summary.ends_with("… (20)"), "{summary}");
        assert!(summary.chars().count() < 80, "{summary}");
    }

    #[test]
    fn an_interrupted_summary_counts_done_interrupted_and_not_started() {
        let mut tally = Tally::default();
        tally.add(&ok());
        tally.add(&ok());
        tally.add(&failed(LookupError::Interrupted { code: 130 }));
        assert_eq!(
            tally.interrupted_summary(NotStarted::Count(7)),
            "interrupted: 2 done, 1 interrupted, 7 not started"
        );
        tally.add(&failed(not_found()));
        assert_eq!(
            tally.interrupted_summary(NotStarted::RestOfStdin),
            "interrupted: 3 done (2 ok, 1 sms not found (20)), 1 interrupted, \
             not started: the rest of stdin"
        );
    }

    #[test]
    fn all_ok_has_no_failure_code() {
        let mut tally = Tally::default();
        tally.add(&ok());
        assert_eq!(tally.first_failure, None);
    }
}
