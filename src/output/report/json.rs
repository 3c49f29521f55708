//! `-o report-json`: the report as one JSON object. Shares are ratios (0.25),
//! latencies whole seconds, lookup times milliseconds, money decimal numbers.

use serde_json::{json, Map, Number, Value};

use super::section::fraction;
use super::stats::{Counts, Durations, MILLISECOND_BUCKETS, SECOND_BUCKETS};
use super::{Report, Share, COUNTERS};
use crate::domain::record::RecordKind;
use crate::output::derived::is_network_code;

pub(super) fn report(report: &Report) -> Value {
    let (kind, verdicts) = (report.kind, report.verdicts);
    let mut fields: Vec<(&str, Value)> = vec![
        ("kind", kind.name().into()),
        ("lookups", report.lookups.into()),
        ("records", report.records.into()),
        ("failed", (report.lookups - report.records).into()),
        ("still_pending", verdicts.still_pending.into()),
        ("expectations_not_met", verdicts.unmet.into()),
        ("interrupted", verdicts.interrupted.into()),
    ];
    if kind != RecordKind::Task {
        let statuses = counts(&report.statuses, "status", report.records);
        fields.push(("statuses", statuses));
    }
    let failures = counts(&report.failures, "failure", report.lookups);
    fields.push(("failures", failures));
    fields.extend(match kind {
        RecordKind::Sms => sms(report),
        RecordKind::Hlr => hlr(report),
        RecordKind::Task => task(report),
    });
    if kind != RecordKind::Hlr {
        fields.push(("prices", prices(report)));
    }
    let lookup_ms = durations(&report.lookup_ms, MILLISECOND_BUCKETS);
    fields.push(("lookup_ms", lookup_ms));
    let slowest = report.slowest.entries().iter();
    let slowest = slowest.map(|(ms, query)| json!({"query": query, "ms": ms}));
    fields.push(("slowest", slowest.collect()));
    if let Some(until_final) = &report.until_final_ms {
        let until_final_ms = durations(until_final, MILLISECOND_BUCKETS);
        // Under --wait, every record still pending was so at the deadline.
        let pending_at_deadline = report.verdicts.still_pending;
        let wait =
            json!({"until_final_ms": until_final_ms, "pending_at_deadline": pending_at_deadline});
        fields.push(("wait", wait));
    }
    fields.into_iter().collect()
}

fn sms(report: &Report) -> Vec<(&'static str, Value)> {
    let part = &report.sms;
    let oldest = part.oldest_pending.entries().iter();
    let oldest =
        oldest.map(|(_, p)| json!({"query": p.query, "status": p.status, "time_in": p.time_in}));
    let seconds = |latency| durations(latency, SECOND_BUCKETS);
    vec![
        ("send_latency_s", seconds(&part.send_latency)),
        ("delivery_latency_s", seconds(&part.delivery_latency)),
        ("oldest_pending", oldest.collect()),
    ]
}

fn hlr(report: &Report) -> Vec<(&'static str, Value)> {
    let part = &report.hlr;
    vec![
        ("networks", networks(&part.networks)),
        ("ported", share(part.ported)),
        ("roaming", share(part.roaming)),
    ]
}

fn task(report: &Report) -> Vec<(&'static str, Value)> {
    let part = &report.tasks;
    let delivered = part.counters[0];
    let rate = (part.messages > 0).then(|| delivered as f64 / part.messages as f64);
    let mut tasks = Map::from_iter([("messages".to_string(), part.messages.into())]);
    for ((name, _), count) in COUNTERS.into_iter().zip(part.counters) {
        tasks.insert(name.into(), count.into());
    }
    tasks.insert("delivery_rate".into(), rate.map(round3).into());
    let lowest = part.lowest_rate.entries().iter();
    let lowest = lowest.map(|(_, low)| {
        json!({
            "query": low.query,
            "delivered": low.delivered,
            "messages": low.messages,
            "delivery_rate": round3(low.delivered as f64 / low.messages as f64),
        })
    });
    vec![
        ("tasks", tasks.into()),
        ("lowest_delivery_rate", lowest.collect()),
    ]
}

/// `[{"status": "delivered", "count": 9, "share": 0.9}, ...]`, largest first; what
/// is past the label cap is one `"(other)"` entry.
fn counts(counts: &Counts, name: &str, of: u64) -> Value {
    let ranked = counts.ranked(usize::MAX).into_iter();
    let entries =
        ranked.map(|(label, _, n)| json!({name: label, "count": n, "share": ratio(n, of)}));
    Value::Array(entries.collect())
}

/// `[{"network": "Russia / Beeline", "code": "25099", "count": 9, "share": 0.9}]`:
/// the commonest network codes (or names, with `"code": null`), then one
/// `"(other)"` entry without a code.
fn networks(networks: &Counts) -> Value {
    let of = networks.total();
    let ranked = networks.ranked(super::TOP_NETWORKS).into_iter();
    let entries = ranked.map(|(key, name, count)| {
        let share = ratio(count, of);
        let Some(key) = key else {
            return json!({"network": name, "count": count, "share": share});
        };
        // A network the records name (v1) has no code.
        let code = is_network_code(key).then_some(key);
        json!({"network": name, "code": code, "count": count, "share": share})
    });
    Value::Array(entries.collect())
}

fn durations(durations: &Durations, bounds: &[u64]) -> Value {
    if durations.count() == 0 {
        return json!({"count": 0});
    }
    let buckets = durations.buckets(bounds).into_iter();
    let buckets = buckets.map(|(bound, count)| json!({"le": bound, "count": count}));
    json!({
        "count": durations.count(),
        "p50": durations.percentile(500),
        "p90": durations.percentile(900),
        "p99": durations.percentile(990),
        "max": durations.max(),
        "buckets": buckets.collect::<Vec<_>>(),
    })
}

fn share(share: Share) -> Value {
    json!({"yes": share.yes, "of": share.known, "share": ratio(share.yes, share.known)})
}

fn prices(report: &Report) -> Value {
    let totals = report.prices.totals().into_iter().map(|(currency, total)| {
        // The exact decimal digits, as a JSON number (arbitrary precision keeps them);
        // null for a sum too large to count exactly.
        let total = total.map_or(Value::Null, |total| {
            total
                .parse::<Number>()
                .map_or(Value::String(total.clone()), Value::Number)
        });
        json!({"currency": currency, "total": total})
    });
    Value::Array(totals.collect())
}

fn ratio(part: u64, whole: u64) -> Value {
    fraction(part, whole).map_or(Value::Null, round3)
}

/// A ratio to three decimals (0.886), enough for a share and stable in tests.
fn round3(ratio: f64) -> Value {
    Number::from_f64((ratio * 1000.0).round() / 1000.0).map_or(Value::Null, Value::Number)
}
