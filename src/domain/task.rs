//! A task's counters and the rules that relate them: what is pending, the delivery
//! rate, and whether the counters can all be true.

use crate::domain::record::{lenient_i64, Record};

/// The final outcomes, in the order of `TaskCounters::finals`.
pub const FINALS: [&str; 4] = ["delivered", "undeliverable", "expired", "unknown"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TaskCounters {
    pub sent: i64,
    /// The `FINALS` counters (0 when absent).
    pub finals: [i64; 4],
    /// The v1 variant's number of messages; there `sent` is only one stage of them.
    pub total: Option<i64>,
    /// The v1 variant's `IN_FLIGHT` counters (0 when absent).
    pub in_flight: [i64; 3],
}

pub const IN_FLIGHT: [&str; 3] = ["queued", "accepted", "enroute"];

impl TaskCounters {
    /// The counters, when `total` or `sent` is readable; a missing outcome counter
    /// counts as 0.
    pub fn of(record: &Record) -> Option<TaskCounters> {
        // No task counts beyond 10^15 messages; clamping keeps every sum of counters
        // within i64 (and u64), whatever a server sends.
        const LIMIT: i64 = 1_000_000_000_000_000;
        let count = |name: &str| Some(lenient_i64(record.get(name)?)?.clamp(-LIMIT, LIMIT));
        let total = count("total");
        Some(TaskCounters {
            // v1 records may leave `sent` out; `total` carries the rules then.
            sent: count("sent").or(total.and(Some(0)))?,
            finals: FINALS.map(|name| count(name).unwrap_or(0)),
            total,
            in_flight: IN_FLIGHT.map(|name| count(name).unwrap_or(0)),
        })
    }

    /// The number of messages: `total` when the record has it (v1), else `sent`.
    pub fn messages(&self) -> i64 {
        self.total.unwrap_or(self.sent)
    }

    pub fn messages_name(&self) -> &'static str {
        self.total.map_or("sent", |_| "total")
    }

    /// Messages less the four final outcomes; negative when the counters disagree.
    pub fn pending(&self) -> i64 {
        self.messages() - self.finals.iter().sum::<i64>()
    }

    pub fn delivered(&self) -> i64 {
        self.finals[0]
    }

    pub fn delivered_ratio(&self) -> Option<f64> {
        let messages = self.messages();
        (messages > 0).then(|| self.delivered() as f64 / messages as f64)
    }
}

/// Not yet in a final state; None when the counters do not add up.
pub fn pending(counters: &TaskCounters) -> Option<i64> {
    let pending = counters.pending();
    let negative = counters.finals.iter().any(|n| *n < 0);
    (counters.messages() >= 0 && pending >= 0 && !negative).then_some(pending)
}

/// Where a v1 task's pending messages are, for the bar's legend; None for a record
/// without in-flight counters. The v1 document's own example (accepted 95, delivered
/// 92, undeliverable 3) adds up only if `accepted` is cumulative, so the parts are
/// `queued`, `enroute` and the accepted still awaiting a report (when positive). An
/// `accepted` below delivered + undeliverable cannot be cumulative: it is in flight.
pub fn pending_parts(c: &TaskCounters) -> Option<Vec<(&'static str, i64)>> {
    if c.in_flight.iter().all(|n| *n <= 0) {
        return None;
    }
    let ([queued, accepted, enroute], [delivered, undeliverable, ..]) = (c.in_flight, c.finals);
    let reported = delivered.saturating_add(undeliverable);
    let mut parts = vec![("queued", queued), ("enroute", enroute)];
    let awaiting = accepted - reported;
    if awaiting > 0 {
        parts.push(("awaiting report", awaiting));
    } else if awaiting < 0 {
        parts.insert(1, ("accepted", accepted));
    }
    Some(parts)
}

/// Why the counters cannot all be true, if they cannot.
pub fn problem(c: &TaskCounters) -> Option<String> {
    let total = ("total", c.total.unwrap_or(0));
    let counters = FINALS.into_iter().zip(c.finals).chain([total]);
    let in_flight = IN_FLIGHT.iter().copied().zip(c.in_flight);
    let mut named = [("sent", c.sent)]
        .into_iter()
        .chain(counters)
        .chain(in_flight);
    if let Some((name, value)) = named.find(|(_, v)| *v < 0) {
        return Some(format!("counters do not add up: {name} is {value}"));
    }
    let finished: i64 = c.finals.iter().sum();
    let (name, messages) = (c.messages_name(), c.messages());
    let finals = FINALS.join("+");
    (finished > messages).then(|| {
        format!("counters do not add up: {finals} = {finished}, more than {name} {messages}")
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
        assert_eq!(pending(&counters), Some(2));
        assert_eq!(counters.delivered_ratio(), Some(0.6));
        let odd = Record::classify(map(json!({"sent": 1, "delivered": 3})), RecordKind::Task);
        assert_eq!(pending(&TaskCounters::of(&odd).unwrap()), None);
    }

    #[test]
    fn v1_counters_count_from_total() {
        let record = Record::classify(
            map(
                json!({"error":0,"originator":"BSG","body":"Hello","validity":72,
                "totalprice":2.3,"currency":"EUR","sent":6,"total":10,"queued":2,
                "accepted":1,"enroute":1,"delivered":4,"expired":0,"undeliverable":1,
                "unknown":1}),
            ),
            RecordKind::Task,
        );
        let counters = TaskCounters::of(&record).unwrap();
        assert_eq!(counters.pending(), 4);
        assert_eq!(counters.in_flight.iter().sum::<i64>(), 4);
        assert_eq!(pending(&counters), Some(4));
        assert_eq!(counters.delivered_ratio(), Some(0.4));
        assert_eq!(problem(&counters), None);
        let over = Record::classify(map(json!({"total": 3, "delivered": 4})), RecordKind::Task);
        let problem = problem(&TaskCounters::of(&over).unwrap()).unwrap();
        assert!(problem.contains("more than total 3"), "{problem}");
    }

    #[test]
    fn accepted_is_cumulative_as_in_the_v1_example() {
        let counters = |value: Value| {
            TaskCounters::of(&Record::classify(map(value), RecordKind::Task)).unwrap()
        };
        let example = counters(json!({"total": 100, "sent": 100, "queued": 0,
            "accepted": 95, "enroute": 3, "delivered": 92, "expired": 2,
            "undeliverable": 3, "unknown": 0}));
        assert_eq!(pending(&example), Some(3));
        assert_eq!(
            pending_parts(&example).unwrap(),
            [("queued", 0), ("enroute", 3)]
        );
        assert_eq!(example.delivered_ratio(), Some(0.92));
        let awaiting = counters(json!({"total": 100, "queued": 5, "accepted": 60,
            "enroute": 10, "delivered": 40, "undeliverable": 5}));
        assert_eq!(pending(&awaiting), Some(55));
        assert_eq!(
            pending_parts(&awaiting).unwrap(),
            [("queued", 5), ("enroute", 10), ("awaiting report", 15)]
        );
        let in_flight = counters(json!({"total": 10, "queued": 2, "accepted": 1,
            "enroute": 1, "delivered": 4, "undeliverable": 1, "unknown": 1}));
        assert_eq!(
            pending_parts(&in_flight).unwrap(),
            [("queued", 2), ("accepted", 1), ("enroute", 1)]
        );
        assert_eq!(pending_parts(&counters(json!({"sent": 3}))), None);
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
        assert_eq!(pending(&counters), None);
        assert!(problem(&counters).is_some());
    }
}
