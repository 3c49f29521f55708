//! The batch tally: the exit code of the first failure in input order, and the
//! summary line (`120 ok, 3 SMS not found (20), 1 timed out`).

use crate::domain::error::LookupError;
use crate::domain::exit_codes;
use crate::domain::outcome::Outcome;
use crate::domain::sanitize::{escape_cut, MAX_CELL_CHARS};

/// The most of a service's error code a label shows (codes are numbers; a server
/// may send any text).
const MAX_CODE_CHARS: usize = 40;
/// Distinct failure kinds named in the summary; the rest are counted together.
const MAX_LABELS: usize = 8;
const OTHER: &str = "other failures";

#[derive(Debug, Default)]
pub struct Tally {
    ok: usize,
    /// Failure kinds in order of first appearance, with their counts.
    failures: Vec<(String, usize)>,
    first_failure: Option<u8>,
}

impl Tally {
    pub fn add(&mut self, outcome: &Outcome) {
        let Some(label) = failure_label(outcome) else {
            self.ok += 1;
            return;
        };
        self.first_failure.get_or_insert(outcome.exit_code());
        // Labels carry service text: a server that words every error differently
        // must not grow the summary (or the time to build it) without bound.
        let label = if self.failures.len() >= MAX_LABELS
            && !self.failures.iter().any(|(l, _)| *l == label)
        {
            OTHER.to_string()
        } else {
            label
        };
        match self.failures.iter_mut().find(|(l, _)| *l == label) {
            Some((_, count)) => *count += 1,
            None => self.failures.push((label, 1)),
        }
    }

    pub fn total(&self) -> usize {
        self.ok + self.failures.iter().map(|(_, n)| n).sum::<usize>()
    }

    /// The exit code of the first failed lookup in input order.
    pub fn first_failure(&self) -> Option<u8> {
        self.first_failure
    }

    pub fn summary(&self) -> String {
        let mut parts = vec![format!("{} ok", self.ok)];
        parts.extend(
            self.failures
                .iter()
                .map(|(label, n)| format!("{n} {label}")),
        );
        parts.join(", ")
    }
}

/// What went wrong with a lookup, in a few words (`sms not found (20)`, `timed
/// out`, `still pending`); None for a plain success.
pub fn failure_label(outcome: &Outcome) -> Option<String> {
    let label = match (&outcome.result, &outcome.verdict) {
        (Err(error), _) => label(error),
        (Ok(_), Some(verdict)) if verdict.code == exit_codes::STILL_PENDING => {
            "still pending".into()
        }
        (Ok(_), Some(verdict)) if verdict.interrupted() => "interrupted".into(),
        (Ok(_), Some(_)) => "expectation not met".into(),
        (Ok(_), None) => return None,
    };
    Some(label)
}

/// A failed lookup's label: the service's own words when it gave some.
pub fn label(error: &LookupError) -> String {
    match error {
        LookupError::Service {
            description: Some(text),
            shown_code,
            ..
        } => {
            // The service's words go to a terminal: escaped like any answer text, and
            // cut to a table cell, since a label names a kind in the summary, a
            // report row and a JUnit attribute (a 1 MB description would be a 1 MB
            // line in each). Cut before lowercasing: the rest is never copied.
            let text = escape_cut(text, MAX_CELL_CHARS).to_lowercase();
            let code = escape_cut(shown_code, MAX_CODE_CHARS);
            format!("{text} ({code})")
        }
        other => other.category(),
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
        assert_eq!(tally.first_failure(), Some(75));
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
    fn all_ok_has_no_failure_code() {
        let mut tally = Tally::default();
        tally.add(&ok());
        assert_eq!(tally.first_failure(), None);
    }
}
