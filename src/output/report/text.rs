//! The report for people, as sections of plain cells: the headline, tables (with
//! a share to draw as a bar) and notes. `draw` turns them into the terminal form
//! (`-o report`) or Markdown (`-o report-md`).

use std::fmt::Write as _;

use super::kinds;
use super::stats::{Counts, Durations, MILLISECOND_BUCKETS};
use super::{Report, Share};
use crate::domain::record::RecordKind;
use crate::domain::status::{self, Tone};
use crate::output::derived::format_seconds;

/// One table of the report: a title row and the rows under it, as plain text cells.
pub(super) struct Section {
    pub head: Vec<&'static str>,
    pub rows: Vec<Vec<String>>,
    /// Per row: the share drawn as a bar and the tone it is drawn in.
    pub bars: Vec<Option<(f64, Tone)>>,
    /// Columns aligned right (numbers).
    pub right: Vec<bool>,
    /// A line of text shown instead of the table (`No records to count.`): an
    /// empty table's header alone reads like a fault.
    pub line: Option<&'static str>,
}

impl Section {
    pub(super) fn new(head: Vec<&'static str>) -> Section {
        let right = head.iter().enumerate().map(|(i, _)| i > 0).collect();
        Section {
            head,
            rows: Vec::new(),
            bars: Vec::new(),
            right,
            line: None,
        }
    }

    fn line(text: &'static str) -> Section {
        Section {
            line: Some(text),
            ..Section::new(Vec::new())
        }
    }

    pub(super) fn row(&mut self, cells: Vec<String>, bar: Option<(f64, Tone)>) {
        self.rows.push(cells);
        self.bars.push(bar);
    }
}

/// Shown instead of the status table (or the task counters) when no lookup
/// brought a record.
const NO_RECORDS: &str = "No records to count.";

/// The headline and the sections of a report, in the order they are shown.
pub(super) fn sections(report: &Report) -> (String, Vec<Section>, Vec<(String, String)>) {
    let mut sections = Vec::new();
    if report.records == 0 {
        sections.push(Section::line(NO_RECORDS));
    } else if report.kind != RecordKind::Task {
        sections.push(counts_section(
            "Status",
            &report.statuses,
            report.records,
            usize::MAX,
            true,
        ));
    }
    sections.extend(verdict_section(report));
    if report.failures.total() > 0 {
        sections.push(counts_section(
            "Failure",
            &report.failures,
            report.lookups,
            usize::MAX,
            false,
        ));
    }
    let mut notes = Vec::new();
    match report.kind {
        RecordKind::Sms => kinds::sms_sections(report, &mut sections, &mut notes),
        RecordKind::Hlr => kinds::hlr_sections(report, &mut sections, &mut notes),
        RecordKind::Task => kinds::task_sections(report, &mut sections, &mut notes),
    }
    time_sections(report, &mut sections, &mut notes);
    price_and_slowest_notes(report, &mut notes);
    (headline(report), sections, notes)
}

fn headline(report: &Report) -> String {
    let failed = report.lookups - report.records;
    let mut headline = format!(
        "{} report: {} {}, {} {}, {failed} failed",
        kind_title(report.kind),
        report.lookups,
        plural(report.lookups, "lookup"),
        report.records,
        plural(report.records, "record"),
    );
    for (count, what, _) in verdict_rows(report) {
        if count > 0 {
            let what = match what {
                "expectation not met" if count > 1 => "expectations not met",
                what => what,
            };
            let _ = write!(headline, ", {count} {what}");
        }
    }
    headline
}

/// The records a verdict failed, by verdict: with `failed` they make the exit code.
fn verdict_rows(report: &Report) -> [(u64, &'static str, Tone); 3] {
    let verdicts = report.verdicts;
    [
        (verdicts.still_pending, "still pending", Tone::Pending),
        (verdicts.unmet, "expectation not met", Tone::Bad),
        (verdicts.interrupted, "interrupted", Tone::Doubtful),
    ]
}

/// The records a verdict failed, as shares of the records: shown whenever there are
/// some, so that the report agrees with the exit code.
fn verdict_section(report: &Report) -> Option<Section> {
    if !report.verdicts.any() {
        return None;
    }
    let mut section = Section::new(vec!["Verdict", "Count", "Share"]);
    for (count, what, tone) in verdict_rows(report) {
        if count == 0 {
            continue;
        }
        let share = fraction(count, report.records);
        section.row(
            vec![what.to_string(), count.to_string(), percent(share)],
            share.map(|s| (s, tone)),
        );
    }
    Some(section)
}

/// How long lookups took, and under `--wait` how long records took to be final.
fn time_sections(report: &Report, sections: &mut Vec<Section>, notes: &mut Vec<(String, String)>) {
    let mut times = Section::new(vec!["Time", "Count", "p50", "p90", "p99", "Max"]);
    times.row(durations_row("lookup", &report.lookup_ms, millis), None);
    if let Some(wait) = &report.wait {
        times.row(
            durations_row("until final", &wait.until_final_ms, millis),
            None,
        );
        notes.push((
            "Pending at the deadline".into(),
            wait.pending_at_deadline.to_string(),
        ));
    }
    sections.push(times);
    if let Some(wait) = report
        .wait
        .as_ref()
        .filter(|w| w.until_final_ms.count() > 0)
    {
        sections.push(histogram(
            "Time until final",
            &wait.until_final_ms,
            MILLISECOND_BUCKETS,
            |ms| match ms {
                0..=999 => format!("{ms}ms"),
                _ => whole_unit(ms / 1000),
            },
        ));
    }
}

fn price_and_slowest_notes(report: &Report, notes: &mut Vec<(String, String)>) {
    let prices = report.prices.totals();
    if !prices.is_empty() {
        let totals: Vec<String> = prices.iter().map(|(c, t)| format!("{t} {c}")).collect();
        notes.push(("Total price".into(), totals.join(", ")));
    }
    let slowest: Vec<String> = report
        .slowest
        .entries()
        .iter()
        .map(|(ms, query)| {
            format!(
                "{query} ({})",
                millis(u64::try_from(*ms).unwrap_or(u64::MAX))
            )
        })
        .collect();
    if !slowest.is_empty() {
        notes.push(("Slowest lookups".into(), slowest.join(", ")));
    }
}

fn counts_section(
    title: &'static str,
    counts: &Counts,
    of: u64,
    top: usize,
    toned: bool,
) -> Section {
    let mut section = Section::new(vec![title, "Count", "Share"]);
    let (ranked, rest) = counts.ranked(top);
    let rest = (rest > 0).then_some(("(other)", rest));
    for (label, count) in ranked.into_iter().chain(rest) {
        let share = fraction(count, of);
        let tone = if toned {
            status::tone(label)
        } else {
            Tone::Plain
        };
        section.row(
            vec![label.to_string(), count.to_string(), percent(share)],
            share.map(|s| (s, tone)),
        );
    }
    section
}

pub(super) fn histogram(
    title: &'static str,
    durations: &Durations,
    bounds: &[u64],
    unit: fn(u64) -> String,
) -> Section {
    let mut section = Section::new(vec![title, "Count", "Share"]);
    let total = durations.count();
    for (bound, count) in durations.buckets(bounds) {
        let label = match bound {
            Some(bound) => format!("<= {}", unit(bound)),
            None => "longer".into(),
        };
        let share = fraction(count, total);
        section.row(
            vec![label, count.to_string(), percent(share)],
            share.map(|s| (s, Tone::Plain)),
        );
    }
    section
}

pub(super) fn durations_row(
    name: &str,
    durations: &Durations,
    unit: fn(u64) -> String,
) -> Vec<String> {
    if durations.count() == 0 {
        return vec![
            name.into(),
            "0".into(),
            "-".into(),
            "-".into(),
            "-".into(),
            "-".into(),
        ];
    }
    let mut row = vec![name.to_string(), durations.count().to_string()];
    row.extend([500, 900, 990].map(|p| unit(durations.percentile(p))));
    row.push(unit(durations.max()));
    row
}

fn kind_title(kind: RecordKind) -> &'static str {
    match kind {
        RecordKind::Sms => "SMS",
        RecordKind::Task => "Task",
        RecordKind::Hlr => "HLR",
    }
}

fn plural(count: u64, word: &str) -> String {
    if count == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}

pub(super) fn fraction(part: u64, whole: u64) -> Option<f64> {
    (whole > 0).then(|| part as f64 / whole as f64)
}

pub(super) fn percent(share: Option<f64>) -> String {
    share.map_or_else(String::new, |s| format!("{:.1}%", s * 100.0))
}

pub(super) fn share_text(share: Share) -> String {
    match fraction(share.yes, share.known) {
        Some(s) => format!("{} of {} ({})", share.yes, share.known, percent(Some(s))),
        None => "not reported".into(),
    }
}

pub(super) fn seconds(value: u64) -> String {
    format_seconds(i64::try_from(value).unwrap_or(i64::MAX))
}

/// A bucket bound in seconds in its largest whole unit: `30s`, `2m`, `6h`, `7d`.
pub(super) fn whole_unit(value: u64) -> String {
    let unit = [(86_400, "d"), (3600, "h"), (60, "m")]
        .into_iter()
        .find(|(size, _)| value >= *size && value.is_multiple_of(*size));
    match unit {
        Some((size, name)) => format!("{}{name}", value / size),
        None => format!("{value}s"),
    }
}

/// `850ms`, `1.2s`, `2m 05s`.
fn millis(value: u64) -> String {
    match value {
        0..=999 => format!("{value}ms"),
        1000..=59_999 => format!("{:.1}s", value as f64 / 1000.0),
        _ => seconds(value / 1000),
    }
}
