//! When a record is final, and the verdict of an expectation (exit 80 or 81); the
//! polling itself is `run::wait`'s.

use std::time::Duration;

use crate::domain::duration::format_duration;
use crate::domain::exit_codes;
use crate::domain::record::{Record, RecordKind};
use crate::domain::status::{self, Phase};
use crate::domain::task::TaskCounters;

#[derive(Debug, Clone, Default)]
pub struct WaitSettings {
    pub timeout: Duration,
    pub interval: Duration,
    /// Statuses that end the wait, replacing the built-in pending lists (SMS, HLR).
    pub until: Vec<String>,
}

#[derive(Debug, Clone, Default)]
pub struct Expectation {
    pub statuses: Vec<String>,
    pub delivered_ratio: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stage {
    Final,
    Pending(String),
}

/// A condition about a record that failed: exit 80 (not met) or 81 (still pending).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub code: u8,
    pub message: String,
}

impl Verdict {
    /// A stopping signal ended the wait (exit 128 + the signal: 129, 130, 143):
    /// the record is only the last state seen, neither final nor timed out.
    pub fn interrupted(&self) -> bool {
        use exit_codes::{HANGUP, INTERRUPTED, TERMINATED};
        matches!(self.code, HANGUP | INTERRUPTED | TERMINATED)
    }
}

pub fn stage(record: &Record, until: &[String]) -> Stage {
    let status = record.status().unwrap_or("").trim().to_ascii_lowercase();
    let done = match record.kind {
        RecordKind::Task => {
            return match TaskCounters::of(record).map(|c| c.pending()) {
                // Inconsistent counters (negative pending) cannot get better by waiting.
                Some(pending) if pending > 0 => Stage::Pending(format!("{pending} pending")),
                _ => Stage::Final,
            };
        }
        _ if !until.is_empty() => until.iter().any(|u| u.eq_ignore_ascii_case(&status)),
        kind => status::phase(kind, &status) == Phase::Final,
    };
    match (done, status.is_empty()) {
        (true, _) => Stage::Final,
        (false, true) => Stage::Pending("no status".into()),
        (false, false) => Stage::Pending(format!("status {status}")),
    }
}

/// The verdict on a record: `waited` is how long `--wait` waited (None without it).
pub fn verdict(
    record: &Record,
    settings_until: &[String],
    expect: &Expectation,
    waited: Option<Duration>,
) -> Option<Verdict> {
    let expects = !expect.statuses.is_empty() || expect.delivered_ratio.is_some();
    let message = match (stage(record, settings_until), waited) {
        (Stage::Final, _) => return unmet_expectation(record, expect),
        (Stage::Pending(what), Some(waited)) => {
            let waited = format_duration(waited);
            format!("still pending ({what}) after waiting {waited}")
        }
        (Stage::Pending(what), None) if expects => {
            format!("still pending ({what}); add --wait to wait for a final status")
        }
        (Stage::Pending(_), None) => return None,
    };
    let code = exit_codes::STILL_PENDING;
    Some(Verdict { code, message })
}

fn unmet_expectation(record: &Record, expect: &Expectation) -> Option<Verdict> {
    let unmet = |message| {
        let code = exit_codes::EXPECTATION_NOT_MET;
        Some(Verdict { code, message })
    };
    let status = record.status().unwrap_or("");
    let is_status = |s: &String| s.eq_ignore_ascii_case(status.trim());
    if !expect.statuses.is_empty() && !expect.statuses.iter().any(is_status) {
        let expected = expect.statuses.join(" or ");
        return unmet(format!("final status is \"{status}\", expected {expected}"));
    }
    let wanted = expect.delivered_ratio?;
    let counters = TaskCounters::of(record);
    let ratio = counters.and_then(|c| c.delivered_ratio());
    if ratio.is_some_and(|r| r + 1e-9 >= wanted) {
        return None;
    }
    let got = match (counters, ratio) {
        (None, _) => "no readable counters".to_string(),
        (Some(c), None) => format!("no messages ({} is {})", c.messages_name(), c.messages()),
        (Some(c), Some(r)) => format!("delivered {:.1}% of {}", r * 100.0, c.messages_name()),
    };
    let wanted = wanted * 100.0;
    unmet(format!("{got}, expected at least {wanted:.1}% delivered"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn record(kind: RecordKind, value: Value) -> Record {
        Record::of_kind(kind, value)
    }

    fn sms(status: &str) -> Record {
        record(RecordKind::Sms, json!({ "status": status }))
    }

    #[test]
    fn signals_are_interruptions() {
        let verdict = |code| Verdict {
            code,
            message: String::new(),
        };
        assert!([129, 130, 143]
            .map(verdict)
            .iter()
            .all(Verdict::interrupted));
        assert!(!verdict(81).interrupted() && !verdict(128).interrupted());
    }

    #[test]
    fn sms_pending_statuses() {
        for status in status::names(RecordKind::Sms, Phase::Pending) {
            assert!(
                matches!(stage(&sms(status), &[]), Stage::Pending(_)),
                "{status}"
            );
        }
        for status in [
            "delivered",
            "undeliverable",
            "expired",
            "rejected",
            "unknown",
            "weird",
        ] {
            assert_eq!(stage(&sms(status), &[]), Stage::Final, "{status}");
        }
    }

    #[test]
    fn until_overrides_the_pending_list() {
        let until = vec!["delivered".to_string()];
        assert!(matches!(stage(&sms("expired"), &until), Stage::Pending(_)));
        assert_eq!(stage(&sms("DELIVERED"), &until), Stage::Final);
    }

    #[test]
    fn hlr_is_pending_while_sent() {
        let hlr = |s: &str| record(RecordKind::Hlr, json!({ "status": s }));
        assert!(matches!(stage(&hlr("sent"), &[]), Stage::Pending(_)));
        for s in ["absent", "active", "unknown", "failed"] {
            assert_eq!(stage(&hlr(s), &[]), Stage::Final);
        }
    }

    #[test]
    fn task_is_final_when_nothing_is_pending() {
        let task = |sent: &str, delivered: i64| {
            record(
                RecordKind::Task,
                json!({"sent": sent, "delivered": delivered, "undeliverable": "1", "expired": 0, "unknown": 0}),
            )
        };
        assert_eq!(
            stage(&task("10", 5), &[]),
            Stage::Pending("4 pending".into())
        );
        assert_eq!(stage(&task("10", 9), &[]), Stage::Final);
        // Inconsistent: more outcomes than sent; final, waiting cannot fix it.
        assert_eq!(stage(&task("3", 9), &[]), Stage::Final);
    }

    #[test]
    fn expectations() {
        let expect = Expectation {
            statuses: vec!["delivered".into()],
            delivered_ratio: None,
        };
        assert_eq!(verdict(&sms("delivered"), &[], &expect, None), None);
        assert_eq!(
            verdict(&sms("expired"), &[], &expect, None).unwrap().code,
            80
        );
        assert_eq!(
            verdict(&sms("enroute"), &[], &expect, None).unwrap().code,
            81
        );
        let waited = verdict(
            &sms("enroute"),
            &[],
            &Expectation::default(),
            Some(Duration::from_secs(3)),
        )
        .unwrap();
        assert_eq!(waited.code, 81);
        assert!(
            waited.message.contains("enroute") && waited.message.contains("3s"),
            "{}",
            waited.message
        );
        assert_eq!(
            verdict(&sms("enroute"), &[], &Expectation::default(), None),
            None
        );
    }

    #[test]
    fn v1_task_waits_on_its_in_flight_counters() {
        let v1 = |queued: i64, delivered: i64, undeliverable: i64| {
            record(
                RecordKind::Task,
                json!({"sent": 6, "total": 10, "queued": queued, "accepted": 0, "enroute": 0,
                       "delivered": delivered, "expired": 0, "undeliverable": undeliverable,
                       "unknown": 1}),
            )
        };
        let gate = Expectation {
            statuses: vec![],
            delivered_ratio: Some(0.5),
        };
        let pending = v1(4, 4, 1);
        assert_eq!(stage(&pending, &[]), Stage::Pending("4 pending".into()));
        assert_eq!(verdict(&pending, &[], &gate, None).unwrap().code, 81);
        let settled = v1(0, 4, 5);
        assert_eq!(stage(&settled, &[]), Stage::Final);
        let unmet = verdict(&settled, &[], &gate, None).unwrap();
        assert_eq!(unmet.code, 80);
        assert!(
            unmet.message.contains("40.0% of total"),
            "{}",
            unmet.message
        );
    }

    #[test]
    fn delivered_ratio_gate() {
        let task = record(
            RecordKind::Task,
            json!({"sent": 20, "delivered": "19", "undeliverable": 1, "expired": 0, "unknown": 0}),
        );
        let gate = |r: f64| Expectation {
            statuses: vec![],
            delivered_ratio: Some(r),
        };
        assert_eq!(verdict(&task, &[], &gate(0.95), None), None);
        let unmet = verdict(&task, &[], &gate(0.96), None).unwrap();
        assert_eq!(unmet.code, 80);
        assert!(unmet.message.contains("95.0%"), "{}", unmet.message);
    }
}
