//! `-o report-json`: the report as one JSON object. Shares are ratios (0.25),
//! latencies whole seconds, lookup times milliseconds, money decimal numbers.

use serde_json::{json, Number, Value};

use super::section::fraction;
use super::stats::{Counts, Durations, MILLISECOND_BUCKETS, SECOND_BUCKETS};
use super::{Report, Share, TOP_NETWORKS};
use crate::domain::record::RecordKind;
use crate::output::derived::is_network_code;
use crate::output::taskbar::COUNTERS;

pub(super) fn report(report: &Report) -> Value {
    let (kind, verdicts, lookups) = (report.kind, report.verdicts, report.lookup_ms.count());
    // Keys come out in the order they are set.
    let mut out = json!({
        "kind": kind.name(),
        "lookups": lookups,
        "records": report.records,
        "failed": lookups - report.records,
        "still_pending": verdicts.still_pending,
        "expectations_not_met": verdicts.unmet,
        "interrupted": verdicts.interrupted,
    });
    if kind != RecordKind::Task {
        out["statuses"] = counts(&report.statuses, "status", report.records);
    }
    out["failures"] = counts(&report.failures, "failure", lookups);
    match kind {
        RecordKind::Sms => {
            let part = &report.sms;
            out["send_latency_s"] = durations(&part.send_latency, SECOND_BUCKETS);
            out["delivery_latency_s"] = durations(&part.delivery_latency, SECOND_BUCKETS);
            let oldest = part.oldest_pending.entries().iter();
            let oldest = oldest
                .map(|(_, p)| json!({"query": p.query, "status": p.status, "time_in": p.time_in}));
            out["oldest_pending"] = oldest.collect();
        }
        RecordKind::Hlr => {
            out["networks"] = networks(&report.hlr.networks);
            out["ported"] = share(report.hlr.ported);
            out["roaming"] = share(report.hlr.roaming);
        }
        RecordKind::Task => task(report, &mut out),
    }
    if kind != RecordKind::Hlr {
        out["prices"] = prices(report);
    }
    out["lookup_ms"] = durations(&report.lookup_ms, MILLISECOND_BUCKETS);
    let slowest = report.slowest.entries().iter();
    out["slowest"] = slowest
        .map(|(ms, query)| json!({"query": query, "ms": ms}))
        .collect();
    if let Some(until_final) = &report.until_final_ms {
        // Under --wait, every record still pending was so at the deadline.
        out["wait"] = json!({
            "until_final_ms": durations(until_final, MILLISECOND_BUCKETS),
            "pending_at_deadline": verdicts.still_pending,
        });
    }
    out
}

fn task(report: &Report, out: &mut Value) {
    let part = &report.tasks;
    let mut tasks = json!({"messages": part.messages});
    for ((name, _), count) in COUNTERS.into_iter().zip(part.counters) {
        tasks[name] = count.into();
    }
    let rate = (part.messages > 0).then(|| part.counters[0] as f64 / part.messages as f64);
    tasks["delivery_rate"] = rate.map(round3).into();
    out["tasks"] = tasks;
    let lowest = part.lowest_rate.entries().iter().map(|(_, low)| {
        json!({
            "query": low.query,
            "delivered": low.delivered,
            "messages": low.messages,
            "delivery_rate": round3(low.delivered as f64 / low.messages as f64),
        })
    });
    out["lowest_delivery_rate"] = lowest.collect();
}

/// `[{"status": "delivered", "count": 9, "share": 0.9}, ...]`, largest first; what
/// is past the label cap is one `"(other)"` entry.
fn counts(counts: &Counts, name: &str, of: u64) -> Value {
    let ranked = counts.ranked(usize::MAX).into_iter();
    let entries =
        ranked.map(|(label, _, n)| json!({name: label, "count": n, "share": ratio(n, of)}));
    entries.collect()
}

/// `[{"network": "Russia / Beeline", "code": "25099", "count": 9, "share": 0.9}]`:
/// the commonest network codes (or names, with `"code": null`), then one
/// `"(other)"` entry without a code.
fn networks(networks: &Counts) -> Value {
    let of = networks.total();
    let ranked = networks.ranked(TOP_NETWORKS).into_iter();
    let entries = ranked.map(|(key, name, count)| {
        let share = ratio(count, of);
        let Some(key) = key else {
            return json!({"network": name, "count": count, "share": share});
        };
        // A network the records name (v1) has no code.
        let code = is_network_code(key).then_some(key);
        json!({"network": name, "code": code, "count": count, "share": share})
    });
    entries.collect()
}

fn durations(durations: &Durations, bounds: &[u64]) -> Value {
    let Some([p50, p90, p99, max]) = durations.figures() else {
        return json!({"count": 0});
    };
    let buckets = durations.buckets(bounds).into_iter();
    let buckets = buckets.map(|(at, count)| json!({"le": bounds.get(at), "count": count}));
    let count = durations.count();
    let buckets: Vec<Value> = buckets.collect();
    json!({"count": count, "p50": p50, "p90": p90, "p99": p99, "max": max, "buckets": buckets})
}

fn share(share: Share) -> Value {
    json!({"yes": share.yes, "of": share.known, "share": ratio(share.yes, share.known)})
}

fn prices(report: &Report) -> Value {
    let totals = report.prices.totals().map(|(currency, total)| {
        // The exact decimal digits, as a JSON number (arbitrary precision keeps them);
        // null for a sum too large to count exactly.
        let total = total.map(|total| total.parse().map_or(Value::String(total), Value::Number));
        json!({"currency": currency, "total": total})
    });
    totals.collect()
}

fn ratio(part: u64, whole: u64) -> Value {
    fraction(part, whole).map_or(Value::Null, round3)
}

/// A ratio to three decimals (0.886), enough for a share and stable in tests.
fn round3(ratio: f64) -> Value {
    Number::from_f64((ratio * 1000.0).round() / 1000.0).map_or(Value::Null, Value::Number)
}
