//! What one lookup came to: the record or the error, and the verdict on it.

use std::time::Duration;

use crate::domain::error::LookupError;
use crate::domain::lookup::LookupKind;
use crate::domain::record::Record;
use crate::domain::verdict::Verdict;

#[derive(Debug)]
pub struct Outcome {
    pub kind: LookupKind,
    pub query: String,
    pub result: Result<Record, LookupError>,
    /// An unmet `--expect` or a record still pending (exit 80/81); the record is
    /// still printed.
    pub verdict: Option<Verdict>,
    /// How long the lookup took, polls of `--wait` included (JUnit times, reports).
    pub elapsed: Duration,
}

impl Outcome {
    pub fn new(kind: LookupKind, query: String, result: Result<Record, LookupError>) -> Outcome {
        Outcome {
            kind,
            query,
            result,
            verdict: None,
            elapsed: Duration::ZERO,
        }
    }

    pub fn exit_code(&self) -> u8 {
        match (&self.result, &self.verdict) {
            (Err(error), _) => error.exit_code(),
            (Ok(_), Some(verdict)) => verdict.code,
            (Ok(_), None) => crate::domain::exit_codes::SUCCESS,
        }
    }
}
