//! A task's counters and the rules that relate them: what is pending, the delivery
//! rate, and whether the counters can all be true.

use crate::domain::record::{lenient_i64, Record};

/// The counters of a task record, read leniently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TaskCounters {
    pub sent: i64,
    pub delivered: i64,
    pub undeliverable: i64,
    pub expired: i64,
    pub unknown: i64,
}

impl TaskCounters {
    /// The counters, when `sent` is readable; a missing outcome counter counts as 0.
    pub fn of(record: &Record) -> Option<TaskCounters> {
        // No task counts beyond 10^15 messages; clamping keeps every sum of counters
        // within i64 (and u64), whatever a server sends.
        const LIMIT: i64 = 1_000_000_000_000_000;
        let count = |name: &str| {
            record
                .get(name)
                .and_then(lenient_i64)
                .map(|n| n.clamp(-LIMIT, LIMIT))
        };
        Some(TaskCounters {
            sent: count("sent")?,
            delivered: count("delivered").unwrap_or(0),
            undeliverable: count("undeliverable").unwrap_or(0),
            expired: count("expired").unwrap_or(0),
            unknown: count("unknown").unwrap_or(0),
        })
    }

    /// The spec does not say how the counters relate; smsstat assumes `sent` is the
    /// total and the other four are outcomes, so the rest is still pending. Negative
    /// means the counters are inconsistent.
    pub fn pending(&self) -> i64 {
        self.sent - self.delivered - self.undeliverable - self.expired - self.unknown
    }

    pub fn consistent(&self) -> bool {
        self.pending() >= 0
            && [
                self.delivered,
                self.undeliverable,
                self.expired,
                self.unknown,
            ]
            .iter()
            .all(|n| *n >= 0)
    }

    /// delivered / sent, when anything was sent.
    pub fn delivered_ratio(&self) -> Option<f64> {
        (self.sent > 0).then(|| self.delivered as f64 / self.sent as f64)
    }
}

/// Sent but not yet in a final state; None when the counters do not add up.
pub fn pending(counters: &TaskCounters) -> Option<i64> {
    (counters.sent >= 0 && counters.consistent()).then(|| counters.pending())
}

/// delivered / sent in percent; None for a task that sent nothing.
pub fn delivery_rate(counters: &TaskCounters) -> Option<f64> {
    counters.delivered_ratio().map(|ratio| ratio * 100.0)
}

pub fn finals(c: &TaskCounters) -> [i64; 4] {
    [c.delivered, c.undeliverable, c.expired, c.unknown]
}

/// Why the counters cannot all be true, if they cannot.
pub fn problem(c: &TaskCounters) -> Option<String> {
    let named = [
        ("sent", c.sent),
        ("delivered", c.delivered),
        ("undeliverable", c.undeliverable),
        ("expired", c.expired),
        ("unknown", c.unknown),
    ];
    if let Some((name, value)) = named.iter().find(|(_, v)| *v < 0) {
        return Some(format!("counters do not add up: {name} is {value}"));
    }
    let finished: i64 = finals(c).iter().sum();
    (finished > c.sent).then(|| {
        format!(
            "counters do not add up: delivered+undeliverable+expired+unknown = {finished}, \
             more than sent {}",
            c.sent
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::record::RecordKind;
    use serde_json::{json, Map, Value};

    fn map(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap()
    }

    #[test]
    fn task_counters_pending_and_ratio() {
        let record = Record::classify(
            map(json!({"sent": "10", "delivered": 6, "undeliverable": "1", "expired": 1})),
            RecordKind::Task,
        );
        let counters = TaskCounters::of(&record).unwrap();
        assert_eq!(counters.pending(), 2);
        assert!(counters.consistent());
        assert_eq!(counters.delivered_ratio(), Some(0.6));
        let odd = Record::classify(map(json!({"sent": 1, "delivered": 3})), RecordKind::Task);
        assert!(!TaskCounters::of(&odd).unwrap().consistent());
    }

    #[test]
    fn huge_counters_cannot_overflow() {
        let record = Record::classify(
            map(
                json!({"sent": i64::MIN, "delivered": i64::MAX, "undeliverable": "1e30", "expired": i64::MAX, "unknown": i64::MAX}),
            ),
            RecordKind::Task,
        );
        let counters = TaskCounters::of(&record).unwrap();
        assert!(counters.pending() < 0);
        assert!(!counters.consistent());
        assert!(problem(&counters).is_some());
    }
}
