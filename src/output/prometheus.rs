//! `-o prometheus` and `--metrics FILE`: the batch in Prometheus' text format 0.0.4
//! (node_exporter's textfile collector, the Pushgateway). Every family has a bounded
//! number of series, so memory stays flat; no label carries a phone number, a key,
//! an SMS ID or a reference (a task's ID is the one label taken from the input).

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use crate::domain::outcome::Outcome;
use crate::domain::record::RecordKind;
use crate::domain::status;
use crate::domain::task::TaskCounters;
use crate::output::derived::delivery_latency;

/// Tasks whose delivery ratio gets a series of its own, in input order.
pub const MAX_TASKS: usize = 100;
/// Upper bounds of the delivery latency buckets, in seconds: a second to a day.
const LATENCY_BUCKETS: [u64; 10] = [1, 5, 10, 30, 60, 300, 900, 3600, 21600, 86400];

pub struct Metrics {
    started: Instant,
    /// By lookup kind and status label.
    lookups: BTreeMap<(&'static str, &'static str), u64>,
    /// By lookup kind and exit code.
    failed: BTreeMap<(&'static str, u8), u64>,
    /// Delivery latencies up to each bound, cumulative as the format has them; the
    /// last (`+Inf`) counts every latency.
    latency_buckets: [u64; LATENCY_BUCKETS.len() + 1],
    latency_sum: u64,
    /// Delivered ratio by task ID, the first `MAX_TASKS` tasks (a task looked up
    /// twice has one series, of its last record).
    tasks: BTreeMap<String, f64>,
}

impl Metrics {
    pub(crate) fn new() -> Metrics {
        Metrics {
            started: Instant::now(),
            lookups: BTreeMap::new(),
            failed: BTreeMap::new(),
            latency_buckets: [0; LATENCY_BUCKETS.len() + 1],
            latency_sum: 0,
            tasks: BTreeMap::new(),
        }
    }

    pub fn add(&mut self, outcome: &Outcome) {
        let kind = outcome.kind.name();
        let code = outcome.exit_code();
        if code != 0 {
            *self.failed.entry((kind, code)).or_default() += 1;
        }
        let status = outcome.result.as_ref().map_or("error", status_label);
        *self.lookups.entry((kind, status)).or_default() += 1;
        let Ok(record) = &outcome.result else {
            return;
        };
        if let Some(seconds) = delivery_latency(record).map(i64::unsigned_abs) {
            let bounds = LATENCY_BUCKETS.iter().chain([&u64::MAX]);
            for (count, &le) in self.latency_buckets.iter_mut().zip(bounds) {
                *count += u64::from(seconds <= le);
            }
            self.latency_sum = self.latency_sum.saturating_add(seconds);
        }
        let tasks = &mut self.tasks;
        let room = tasks.len() < MAX_TASKS || tasks.contains_key(&outcome.query);
        let ratio = TaskCounters::of(record).and_then(|c| c.delivered_ratio());
        if let Some(ratio) = ratio.filter(|_| room) {
            tasks.insert(outcome.query.clone(), ratio);
        }
    }

    /// The document, every family with its HELP and TYPE, ending with a newline.
    pub fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        let lookups = self.lookups.iter().map(|((kind, status), n)| {
            let status = escape_label(status);
            format!("{{kind=\"{kind}\",status=\"{status}\"}} {n}")
        });
        let failed = self
            .failed
            .iter()
            .map(|((kind, code), n)| format!("{{kind=\"{kind}\",exit_code=\"{code}\"}} {n}"));
        let bounds = LATENCY_BUCKETS.iter().map(u64::to_string);
        let buckets = bounds.chain(["+Inf".into()]).zip(self.latency_buckets);
        let mut latency: Vec<String> = buckets
            .map(|(le, n)| format!("_bucket{{le=\"{le}\"}} {n}"))
            .collect();
        let count = self.latency_buckets[LATENCY_BUCKETS.len()];
        latency.push(format!("_sum {}", self.latency_sum));
        latency.push(format!("_count {count}"));
        let tasks = self
            .tasks
            .iter()
            .map(|(task, ratio)| format!("{{task=\"{}\"}} {ratio}", escape_label(task)));
        let duration = self.started.elapsed().as_secs_f64();
        let now = SystemTime::now().duration_since(UNIX_EPOCH);
        let now = now.map_or(0.0, |d| d.as_secs_f64());
        let families = [
            (
                "smsstat_lookups_total",
                "counter",
                "Lookups by kind and the record's status (other: a status smsstat does not \
                 know; none: no status; error: no record)",
                lookups.collect(),
            ),
            (
                "smsstat_lookups_failed_total",
                "counter",
                "Lookups that failed, by kind and smsstat's exit code",
                failed.collect(),
            ),
            (
                "smsstat_sms_delivery_latency_seconds",
                "histogram",
                "Seconds from an SMS's time_in to its time_dr, as --normalize and the report have it",
                latency,
            ),
            (
                "smsstat_task_delivered_ratio",
                "gauge",
                "Delivered messages of a task over its messages, 0 to 1",
                tasks.collect(),
            ),
            (
                "smsstat_run_duration_seconds",
                "gauge",
                "How long the run took",
                vec![format!(" {duration:.3}")],
            ),
            (
                "smsstat_run_finished_timestamp_seconds",
                "gauge",
                "When the run finished, in Unix seconds",
                vec![format!(" {now:.3}")],
            ),
        ];
        for (name, kind, help, series) in families {
            writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}")?;
            for series in series {
                writeln!(out, "{name}{series}")?;
            }
        }
        Ok(())
    }
}

/// A status as a label: one of the statuses smsstat knows for the kind, "none" or
/// "other", so that a server's text never makes a series of its own.
fn status_label(record: &crate::domain::record::Record) -> &'static str {
    if record.kind == RecordKind::Task {
        return "none";
    }
    match record.status().map(str::trim) {
        None | Some("") => "none",
        Some(text) => status::find(record.kind, text).map_or("other", |s| s.name),
    }
}

/// A label value as the format says: backslash, double quote and newline escaped.
fn escape_label(text: &str) -> String {
    let text = text.replace('\\', "\\\\").replace('"', "\\\"");
    text.replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::lookup::LookupKind;
    use crate::domain::record::Record;
    use serde_json::json;

    fn outcome(kind: LookupKind, query: &str, value: serde_json::Value) -> Outcome {
        let record = Record::of_kind(kind.record_kind(), value);
        Outcome::new(kind, query.into(), Ok(record))
    }

    fn document(metrics: &Metrics) -> String {
        let mut out = Vec::new();
        metrics.write(&mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn label_values_escape_backslash_quote_and_newline() {
        assert_eq!(escape_label("a\\b\"c\nd"), "a\\\\b\\\"c\\nd");
    }

    #[test]
    fn a_status_the_server_made_up_is_other_and_never_a_label() {
        let mut metrics = Metrics::new();
        for status in ["DELIVERED ", "made-up \"status\"\n", "", "sent"] {
            metrics.add(&outcome(LookupKind::Sms, "1", json!({ "status": status })));
        }
        let text = document(&metrics);
        assert!(!text.contains("made-up"), "{text}");
        for series in [
            "{kind=\"sms\",status=\"delivered\"} 1",
            "{kind=\"sms\",status=\"other\"} 1",
            "{kind=\"sms\",status=\"none\"} 1",
        ] {
            assert!(text.contains(series), "{series}: {text}");
        }
    }

    #[test]
    fn tasks_past_the_limit_get_no_series_and_a_task_twice_one() {
        let mut metrics = Metrics::new();
        let counters =
            json!({ "sent": 4, "delivered": 1, "undeliverable": 0, "expired": 0, "unknown": 0 });
        for id in (0..MAX_TASKS + 50).chain([7]) {
            metrics.add(&outcome(
                LookupKind::Task,
                &id.to_string(),
                counters.clone(),
            ));
        }
        let text = document(&metrics);
        let series = text
            .lines()
            .filter(|l| l.starts_with("smsstat_task_delivered_ratio"));
        assert_eq!(series.count(), MAX_TASKS);
        assert!(text.contains("smsstat_task_delivered_ratio{task=\"7\"} 0.25\n"));
        assert!(!text.contains(&format!("task=\"{}\"", MAX_TASKS)));
    }
}
