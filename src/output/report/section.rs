//! The report for people, computed once into one shape: the headline, tables of
//! plain cells (a row's share drawn as a bar) and notes, in the order they are
//! shown. `draw` renders the shape as the terminal form or as Markdown.

use std::fmt::Write as _;

use super::stats::{Counts, Durations, MILLISECOND_BUCKETS, SECOND_BUCKETS};
use super::{Report, TOP_NETWORKS};
use crate::domain::record::RecordKind;
use crate::domain::status::{self, Tone};
use crate::output::derived::{format_seconds, is_network_code};
use crate::output::taskbar::COUNTERS;

/// Shown instead of the status table (or the task counters) when no lookup
/// brought a record.
const NO_RECORDS: &str = "No records to count.";

pub(super) struct Shape {
    pub headline: String,
    pub sections: Vec<Section>,
    /// The notes under the tables: a name and its text.
    pub notes: Vec<(&'static str, String)>,
}

/// A row's share, drawn as a bar, and the tone it is drawn in.
pub(super) type Bar = (f64, Tone);

/// One table: a title row and the rows under it, as plain cells; the first column names
/// the row, the others are numbers, aligned right. Without rows, the title is a line
/// shown instead (`No records to count.`): an empty table's header reads like a fault.
pub(super) struct Section {
    pub head: Vec<&'static str>,
    pub rows: Vec<(Vec<String>, Option<Bar>)>,
}

impl Section {
    fn new(head: Vec<&'static str>) -> Section {
        Section { head, rows: vec![] }
    }

    /// A row of a count and its share of `of`, the share drawn as a bar in `tone`.
    fn share_row(&mut self, label: String, count: u64, of: u64, tone: Tone) {
        let share = fraction(count, of);
        let cells = vec![label, count.to_string(), percent(share)];
        self.rows.push((cells, share.map(|s| (s, tone))));
    }
}

impl Shape {
    /// Adds a table, unless it has no rows.
    fn table(&mut self, section: Section) {
        if !section.rows.is_empty() {
            self.sections.push(section);
        }
    }

    /// A note listing `items`, when there are any.
    fn list(&mut self, name: &'static str, items: impl Iterator<Item = String>) {
        let items: Vec<String> = items.collect();
        if !items.is_empty() {
            self.notes.push((name, items.join(", ")));
        }
    }
}

pub(super) fn shape(report: &Report) -> Shape {
    let mut shape = Shape {
        headline: headline(report),
        sections: Vec::new(),
        notes: Vec::new(),
    };
    if report.records == 0 {
        shape.sections.push(Section::new(vec![NO_RECORDS]));
    } else if report.kind != RecordKind::Task {
        let tone = status::tone;
        shape.table(counts("Status", &report.statuses, report.records, tone));
    }
    // The records a verdict failed, as shares of the records: shown whenever there
    // are some, so that the report agrees with the exit code.
    let mut verdicts = Section::new(vec!["Verdict", "Count", "Share"]);
    for (count, what, tone) in verdict_rows(report) {
        verdicts.share_row(what.to_string(), count, report.records, tone);
    }
    shape.table(verdicts);
    let (failures, lookups) = (&report.failures, report.lookup_ms.count());
    shape.table(counts("Failure", failures, lookups, |_| Tone::Plain));
    match report.kind {
        RecordKind::Sms => sms(report, &mut shape),
        RecordKind::Hlr => hlr(report, &mut shape),
        RecordKind::Task => task(report, &mut shape),
    }
    times(report, &mut shape);
    let totals = report.prices.totals().map(|(currency, total)| match total {
        Some(total) => format!("{total} {currency}"),
        None => format!("{currency}: too large to sum exactly"),
    });
    shape.list("Total price", totals);
    let slowest = report.slowest.entries().iter();
    let slowest = slowest.map(|(ms, query)| format!("{query} ({})", millis(*ms)));
    shape.list("Slowest lookups", slowest);
    shape
}

fn headline(report: &Report) -> String {
    let (lookups, records) = (report.lookup_ms.count(), report.records);
    let kind = match report.kind {
        RecordKind::Sms => "SMS",
        RecordKind::Task => "Task",
        RecordKind::Hlr => "HLR",
    };
    let plural = |count: u64| if count == 1 { "" } else { "s" };
    let mut headline = format!(
        "{kind} report: {lookups} lookup{}, {records} record{}, {} failed",
        plural(lookups),
        plural(records),
        lookups - records,
    );
    for (count, what, _) in verdict_rows(report) {
        let what = match what {
            "expectation not met" if count > 1 => "expectations not met",
            what => what,
        };
        let _ = write!(headline, ", {count} {what}");
    }
    headline
}

/// The records a verdict failed, by verdict, when there are some: with `failed` they
/// make the exit code.
fn verdict_rows(report: &Report) -> impl Iterator<Item = (u64, &'static str, Tone)> {
    let verdicts = report.verdicts;
    let rows = [
        (verdicts.still_pending, "still pending", Tone::Pending),
        (verdicts.unmet, "expectation not met", Tone::Bad),
        (verdicts.interrupted, "interrupted", Tone::Doubtful),
    ];
    rows.into_iter().filter(|(count, ..)| *count > 0)
}

fn sms(report: &Report, shape: &mut Shape) {
    let part = &report.sms;
    let latencies = [
        ("send", "Send latency", &part.send_latency),
        ("delivery", "Delivery latency", &part.delivery_latency),
    ];
    let rows = latencies.map(|(name, _, durations)| (name, durations));
    shape.table(durations("Latency", &rows, format_seconds));
    for (_, title, latency) in latencies {
        shape.table(histogram(title, latency, SECOND_BUCKETS, whole_unit));
    }
    let oldest = part.oldest_pending.entries().iter();
    let oldest = oldest.map(|(_, p)| format!("{} ({} since {})", p.query, p.status, p.time_in));
    shape.list("Oldest still pending", oldest);
}

/// The commonest networks by code (`Russia / Beeline (25099)`) or by the records' name
/// (`Ukraine / Kyivstar`), then "(other)"; the shares of ported and roaming numbers.
fn hlr(report: &Report, shape: &mut Shape) {
    let part = &report.hlr;
    let mut networks = Section::new(vec!["Network", "Count", "Share"]);
    for (code, name, count) in part.networks.ranked(TOP_NETWORKS) {
        // Named networks (v1) are grouped by their name: no code to add.
        let label = match code.filter(|code| is_network_code(code) && name != *code) {
            Some(code) => format!("{name} ({code})"),
            None => name.to_owned(),
        };
        networks.share_row(label, count, part.networks.total(), Tone::Plain);
    }
    shape.table(networks);
    for (name, share) in [("Ported", part.ported), ("Roaming", part.roaming)] {
        let text = match fraction(share.yes, share.known) {
            Some(s) => format!("{} of {} ({})", share.yes, share.known, percent(Some(s))),
            None => "not reported".into(),
        };
        shape.notes.push((name, text));
    }
}

/// The summed counters of the tasks, as shares of their messages, and the tasks
/// with the lowest delivery rate.
fn task(report: &Report, shape: &mut Shape) {
    let part = &report.tasks;
    if report.records > 0 {
        let mut counters = Section::new(vec!["Messages", "Count", "Share"]);
        let of = u64::try_from(part.messages).unwrap_or(0);
        for ((name, tone), count) in COUNTERS.into_iter().zip(part.counters) {
            let count = u64::try_from(count).unwrap_or(0);
            counters.share_row(name.into(), count, of, tone);
        }
        let total = vec!["total".into(), part.messages.to_string(), String::new()];
        counters.rows.push((total, None));
        shape.table(counters);
    }
    shape.notes.push(("Tasks", part.tasks.to_string()));
    let lowest = part.lowest_rate.entries().iter().map(|(_, low)| {
        let rate = low.delivered as f64 / low.messages as f64;
        let rate = percent(Some(rate));
        format!("{} ({rate} of {})", low.query, low.messages)
    });
    shape.list("Lowest delivery rate", lowest);
}

/// How long lookups took, and under `--wait` how long records took to be final.
fn times(report: &Report, shape: &mut Shape) {
    let mut rows = vec![("lookup", &report.lookup_ms)];
    rows.extend(report.until_final_ms.as_ref().map(|d| ("until final", d)));
    shape.table(durations("Time", &rows, millis));
    let Some(until_final) = &report.until_final_ms else {
        return;
    };
    // Under --wait, every record still pending was so at the deadline.
    let pending = report.verdicts.still_pending.to_string();
    shape.notes.push(("Pending at the deadline", pending));
    let unit = |ms| match ms {
        0..=999 => format!("{ms}ms"),
        _ => whole_unit(ms / 1000),
    };
    let title = "Time until final";
    shape.table(histogram(title, until_final, MILLISECOND_BUCKETS, unit));
}

fn counts(title: &'static str, counts: &Counts, of: u64, tone: fn(&str) -> Tone) -> Section {
    let mut section = Section::new(vec![title, "Count", "Share"]);
    for (_, label, count) in counts.ranked(usize::MAX) {
        section.share_row(label.to_string(), count, of, tone(label));
    }
    section
}

/// The count, percentiles and max of each of `rows`, in `unit`.
fn durations(title: &'static str, rows: &[(&str, &Durations)], unit: fn(u64) -> String) -> Section {
    let mut section = Section::new(vec![title, "Count", "p50", "p90", "p99", "Max"]);
    for (name, durations) in rows {
        let mut row = vec![name.to_string(), durations.count().to_string()];
        let figures = durations.figures().map(|figures| figures.map(unit));
        row.extend(figures.unwrap_or_else(|| ["-"; 4].map(String::from)));
        section.rows.push((row, None));
    }
    section
}

fn histogram(
    title: &'static str,
    durations: &Durations,
    bounds: &[u64],
    unit: fn(u64) -> String,
) -> Section {
    let mut section = Section::new(vec![title, "Count", "Share"]);
    for (at, count) in durations.buckets(bounds) {
        // Each row counts one bucket, so it is named as a range: `<= 5m` above
        // `<= 10m` read as cumulative counts.
        let lower = at.checked_sub(1).map(|i| unit(bounds[i]));
        let label = match (lower, bounds.get(at)) {
            (None, Some(&upper)) => format!("<= {}", unit(upper)),
            (Some(lower), Some(&upper)) => format!("{lower}-{}", unit(upper)),
            (Some(lower), None) => format!("> {lower}"),
            (None, None) => "all".into(),
        };
        section.share_row(label, count, durations.count(), Tone::Plain);
    }
    section
}

pub(super) fn fraction(part: u64, whole: u64) -> Option<f64> {
    (whole > 0).then(|| part as f64 / whole as f64)
}

fn percent(share: Option<f64>) -> String {
    share.map_or_else(String::new, |s| format!("{:.1}%", s * 100.0))
}

/// `850ms`, `1.2s`, `2m 05s`.
fn millis(value: u64) -> String {
    match value {
        0..=999 => format!("{value}ms"),
        1000..=59_999 => format!("{:.1}s", value as f64 / 1000.0),
        _ => format_seconds(value / 1000),
    }
}

/// A bucket bound in seconds in its largest whole unit: `30s`, `2m`, `6h`, `7d`.
fn whole_unit(value: u64) -> String {
    let unit = [(86_400, "d"), (3600, "h"), (60, "m")]
        .into_iter()
        .find(|(size, _)| value >= *size && value.is_multiple_of(*size));
    match unit {
        Some((size, name)) => format!("{}{name}", value / size),
        None => format!("{value}s"),
    }
}
