//! `--wait`, `--until` and `--expect`: when a record is final, polling until it is,
//! and the verdict of an expectation (exit 80 not met, 81 still pending).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::client::Client;
use crate::duration::format_duration;
use crate::endpoint::LookupKind;
use crate::error::LookupError;
use crate::exit_codes;
use crate::model::{Record, RecordKind, TaskCounters};

/// SMS statuses that mean "no delivery report yet" (documented in the README).
pub const SMS_PENDING: [&str; 8] = [
    "sent",
    "enroute",
    "accepted",
    "queued",
    "scheduled",
    "pending",
    "unknown",
    "",
];
/// HLR statuses that mean "no result yet".
pub const HLR_PENDING: [&str; 2] = ["sent", ""];

/// Final SMS statuses seen in the field (see the field notes); others may exist.
pub const SMS_FINAL: [&str; 6] = [
    "delivered",
    "undeliverable",
    "expired",
    "rejected",
    "failed",
    "unknown",
];
/// Final HLR statuses of the spec.
pub const HLR_FINAL: [&str; 4] = ["absent", "active", "unknown", "failed"];

/// Whether `status` is one smsstat knows for this kind of record (for typo warnings).
pub fn is_known_status(kind: RecordKind, status: &str) -> bool {
    let known = |lists: &[&[&str]]| lists.iter().any(|list| list.contains(&status));
    match kind {
        RecordKind::Sms => known(&[&SMS_PENDING, &SMS_FINAL]),
        RecordKind::Hlr => known(&[&HLR_PENDING, &HLR_FINAL]),
        RecordKind::Task => true,
    }
}

/// Longest pause between polls after repeated transient errors.
const MAX_INTERVAL: Duration = Duration::from_secs(30);
/// Granularity at which a pause notices Ctrl-C.
const STOP_CHECK: Duration = Duration::from_millis(50);

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

impl Expectation {
    pub fn is_set(&self) -> bool {
        !self.statuses.is_empty() || self.delivered_ratio.is_some()
    }
}

/// Whether a record has reached the end, and if not, what it is waiting on.
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

pub fn stage(record: &Record, until: &[String]) -> Stage {
    let status = || record.status().unwrap_or("").trim().to_ascii_lowercase();
    let by_list = |pending: &[&str]| {
        let status = status();
        let done = if until.is_empty() {
            !pending.contains(&status.as_str())
        } else {
            until.iter().any(|u| u.eq_ignore_ascii_case(&status))
        };
        if done {
            Stage::Final
        } else {
            Stage::Pending(display_status(&status))
        }
    };
    match record.kind {
        RecordKind::Sms => by_list(&SMS_PENDING),
        RecordKind::Hlr => by_list(&HLR_PENDING),
        RecordKind::Task => match TaskCounters::of(record).map(|c| c.pending()) {
            // Inconsistent counters (negative pending) cannot get better by waiting.
            Some(pending) if pending > 0 => Stage::Pending(format!("{pending} pending")),
            _ => Stage::Final,
        },
    }
}

fn display_status(status: &str) -> String {
    if status.is_empty() {
        "no status".into()
    } else {
        format!("status {status}")
    }
}

/// The verdict on a record: `waited` is how long `--wait` waited (None without it).
pub fn verdict(
    record: &Record,
    settings_until: &[String],
    expect: &Expectation,
    waited: Option<Duration>,
) -> Option<Verdict> {
    match (stage(record, settings_until), waited) {
        (Stage::Pending(what), Some(waited)) => Some(Verdict {
            code: exit_codes::STILL_PENDING,
            message: format!(
                "still pending ({what}) after waiting {}",
                format_duration(waited)
            ),
        }),
        (Stage::Pending(what), None) if expect.is_set() => Some(Verdict {
            code: exit_codes::STILL_PENDING,
            message: format!("still pending ({what}); add --wait to wait for a final status"),
        }),
        (Stage::Pending(_), None) => None,
        (Stage::Final, _) => unmet_expectation(record, expect),
    }
}

fn unmet_expectation(record: &Record, expect: &Expectation) -> Option<Verdict> {
    if !expect.statuses.is_empty() {
        let status = record.status().unwrap_or("");
        if !expect
            .statuses
            .iter()
            .any(|s| s.eq_ignore_ascii_case(status.trim()))
        {
            return Some(Verdict {
                code: exit_codes::EXPECTATION_NOT_MET,
                message: format!(
                    "final status is \"{status}\", expected {}",
                    expect.statuses.join(" or ")
                ),
            });
        }
    }
    if let Some(wanted) = expect.delivered_ratio {
        let counters = TaskCounters::of(record);
        let ratio = counters.and_then(|c| c.delivered_ratio());
        if ratio.is_none_or(|r| r + 1e-9 < wanted) {
            let got = match (counters, ratio) {
                (None, _) => "no readable counters".to_string(),
                (Some(_), None) => "nothing sent (sent is 0)".to_string(),
                (Some(_), Some(r)) => format!("delivered {:.1}% of sent", r * 100.0),
            };
            return Some(Verdict {
                code: exit_codes::EXPECTATION_NOT_MET,
                message: format!("{got}, expected at least {:.1}% delivered", wanted * 100.0),
            });
        }
    }
    None
}

/// What a watch came to: the last result seen and how long it took.
pub struct Watched {
    pub result: Result<Record, LookupError>,
    pub waited: Duration,
    pub polls: u32,
    pub interrupted: bool,
}

/// Polls `query` until its record is final, a non-transient failure occurs,
/// `deadline` passes (shared by every lookup of a batch, and binding on requests in
/// flight too) or `stop` is raised. `observe` sees every successful poll.
pub fn watch(
    client: &Client,
    kind: LookupKind,
    query: &str,
    settings: &WaitSettings,
    deadline: Instant,
    stop: &AtomicBool,
    mut observe: impl FnMut(&Record, u32),
) -> Watched {
    let started = Instant::now();
    let mut interval = settings.interval;
    let mut polls = 0;
    let mut last: Option<Result<Record, LookupError>> = None;
    loop {
        polls += 1;
        let (result, retry_after) = client.lookup_until(kind, query, Some(deadline));
        match &result {
            Ok(record) => {
                observe(record, polls);
                interval = settings.interval;
                if stage(record, &settings.until) == Stage::Final {
                    return done(result, started, polls, false);
                }
            }
            Err(error) if is_transient(error) => interval = (interval * 2).min(MAX_INTERVAL),
            Err(_) => return done(result, started, polls, false),
        }
        // A record seen earlier is more useful than a later transient error.
        if result.is_ok() || !matches!(last, Some(Ok(_))) {
            last = Some(result);
        }
        let now = Instant::now();
        if now >= deadline {
            return done(last.expect("set above"), started, polls, false);
        }
        // The server's wish (Retry-After) is a floor, as long as the deadline allows.
        let wish = retry_after
            .unwrap_or_default()
            .min(crate::retry::MAX_RETRY_AFTER);
        let pause = interval.max(wish).min(deadline - now);
        if !sleep_unless(stop, pause) {
            return done(last.expect("set above"), started, polls, true);
        }
        if Instant::now() >= deadline {
            // The pause used the time left: another poll would only time out.
            return done(last.expect("set above"), started, polls, false);
        }
    }
}

fn done(
    result: Result<Record, LookupError>,
    started: Instant,
    polls: u32,
    interrupted: bool,
) -> Watched {
    Watched {
        result,
        waited: started.elapsed(),
        polls,
        interrupted,
    }
}

/// Failures worth polling through: the service may be back on the next poll.
fn is_transient(error: &LookupError) -> bool {
    matches!(
        error,
        LookupError::Timeout(_)
            | LookupError::Unavailable(_)
            | LookupError::UnexpectedHttp { status: 429, .. }
    )
}

/// Sleeps `duration` unless `stop` is raised first; returns false when stopped.
pub fn sleep_unless(stop: &AtomicBool, duration: Duration) -> bool {
    let end = Instant::now() + duration;
    loop {
        if stop.load(Ordering::SeqCst) {
            return false;
        }
        let now = Instant::now();
        if now >= end {
            return true;
        }
        std::thread::sleep((end - now).min(STOP_CHECK));
    }
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
    fn sms_pending_statuses() {
        for status in SMS_PENDING {
            assert!(
                matches!(stage(&sms(status), &[]), Stage::Pending(_)),
                "{status}"
            );
        }
        for status in ["delivered", "undeliverable", "expired", "rejected", "weird"] {
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

    #[test]
    fn sleep_unless_stops_early() {
        let stop = AtomicBool::new(true);
        let started = Instant::now();
        assert!(!sleep_unless(&stop, Duration::from_secs(5)));
        assert!(started.elapsed() < Duration::from_secs(1));
    }
}
