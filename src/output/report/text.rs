//! The report for people, as sections of plain cells: the headline, tables (with
//! a share to draw as a bar) and notes. `draw` turns them into the terminal form
//! (`-o report`) or Markdown (`-o report-md`). The sections particular to each kind
//! of record are in `kinds`.

use std::fmt::Write as _;

use super::kinds;
use super::section::{durations_row, histogram, list_note, seconds, whole_unit, Notes, Section};
use super::stats::{Counts, MILLISECOND_BUCKETS};
use super::Report;
use crate::domain::record::RecordKind;
use crate::domain::status::{self, Tone};

/// Shown instead of the status table (or the task counters) when no lookup
/// brought a record.
const NO_RECORDS: &str = "No records to count.";

/// The headline and the sections of a report, in the order they are shown.
pub(super) fn sections(report: &Report) -> (String, Vec<Section>, Notes) {
    let mut sections = Vec::new();
    if report.records == 0 {
        sections.push(Section::line(NO_RECORDS));
    } else if report.kind != RecordKind::Task {
        let statuses = counts_section("Status", &report.statuses, report.records, true);
        sections.push(statuses);
    }
    sections.extend(verdict_section(report));
    if report.failures.total() > 0 {
        let failures = counts_section("Failure", &report.failures, report.lookups, false);
        sections.push(failures);
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
    let mut section = Section::new(vec!["Verdict", "Count", "Share"]);
    for (count, what, tone) in verdict_rows(report) {
        if count > 0 {
            section.share_row(what.to_string(), count, report.records, tone);
        }
    }
    (!section.rows.is_empty()).then_some(section)
}

/// How long lookups took, and under `--wait` how long records took to be final.
fn time_sections(report: &Report, sections: &mut Vec<Section>, notes: &mut Notes) {
    let mut times = Section::new(vec!["Time", "Count", "p50", "p90", "p99", "Max"]);
    times.row(durations_row("lookup", &report.lookup_ms, millis), None);
    let Some(until_final) = &report.until_final_ms else {
        sections.push(times);
        return;
    };
    times.row(durations_row("until final", until_final, millis), None);
    // Under --wait, every record still pending was so at the deadline.
    let pending = report.verdicts.still_pending.to_string();
    notes.push(("Pending at the deadline".into(), pending));
    sections.push(times);
    if until_final.count() > 0 {
        let unit = |ms| match ms {
            0..=999 => format!("{ms}ms"),
            _ => whole_unit(ms / 1000),
        };
        let title = "Time until final";
        sections.push(histogram(title, until_final, MILLISECOND_BUCKETS, unit));
    }
}

fn price_and_slowest_notes(report: &Report, notes: &mut Notes) {
    let totals = report.prices.totals().into_iter();
    let totals = totals.map(|(currency, total)| match total {
        Some(total) => format!("{total} {currency}"),
        None => format!("{currency}: too large to sum exactly"),
    });
    list_note(notes, "Total price", totals);
    let slowest = report.slowest.entries().iter();
    let slowest = slowest.map(|(ms, query)| format!("{query} ({})", millis(*ms)));
    list_note(notes, "Slowest lookups", slowest);
}

fn counts_section(title: &'static str, counts: &Counts, of: u64, toned: bool) -> Section {
    let mut section = Section::new(vec![title, "Count", "Share"]);
    for (_, label, count) in counts.ranked(usize::MAX) {
        let tone = if toned {
            status::tone(label)
        } else {
            Tone::Plain
        };
        section.share_row(label.to_string(), count, of, tone);
    }
    section
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

/// `850ms`, `1.2s`, `2m 05s`.
fn millis(value: u64) -> String {
    match value {
        0..=999 => format!("{value}ms"),
        1000..=59_999 => format!("{:.1}s", value as f64 / 1000.0),
        _ => seconds(value / 1000),
    }
}
