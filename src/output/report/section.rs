//! One section of the report for people (a table of plain text cells, or a line)
//! and the formats of its cells: shares, durations, bucket bounds. `text` and
//! `kinds` build the sections; `draw` draws them.

use super::stats::Durations;
use super::Share;
use crate::domain::status::Tone;
use crate::output::derived::format_seconds;

/// The notes under the tables: a name and its text.
pub(super) type Notes = Vec<(String, String)>;

/// A row's share, drawn as a bar, and the tone it is drawn in.
pub(super) type Bar = (f64, Tone);

/// One table of the report: a title row and the rows under it, as plain text cells;
/// the first column names the row, the others are numbers, aligned right.
pub(super) struct Section {
    pub head: Vec<&'static str>,
    pub rows: Vec<(Vec<String>, Option<Bar>)>,
    /// A line of text shown instead of the table (`No records to count.`): an
    /// empty table's header alone reads like a fault.
    pub line: Option<&'static str>,
}

impl Section {
    pub(super) fn new(head: Vec<&'static str>) -> Section {
        Section {
            head,
            rows: Vec::new(),
            line: None,
        }
    }

    pub(super) fn line(text: &'static str) -> Section {
        Section {
            line: Some(text),
            ..Section::new(Vec::new())
        }
    }

    pub(super) fn row(&mut self, cells: Vec<String>, bar: Option<Bar>) {
        self.rows.push((cells, bar));
    }

    /// A row of a count and its share of `of`, the share drawn as a bar in `tone`.
    pub(super) fn share_row(&mut self, label: String, count: u64, of: u64, tone: Tone) {
        let share = fraction(count, of);
        let cells = vec![label, count.to_string(), percent(share)];
        self.row(cells, share.map(|s| (s, tone)));
    }
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
        // Each row counts one bucket, so it is named as a range: `<= 5m` above
        // `<= 10m` read as cumulative counts.
        let at = bound.map_or(bounds.len(), |b| bounds.partition_point(|x| *x < b));
        let lower = at.checked_sub(1).map(|i| unit(bounds[i]));
        let label = match (lower, bound) {
            (None, Some(upper)) => format!("<= {}", unit(upper)),
            (Some(lower), Some(upper)) => format!("{lower}-{}", unit(upper)),
            (Some(lower), None) => format!("> {lower}"),
            (None, None) => "all".into(),
        };
        section.share_row(label, count, total, Tone::Plain);
    }
    section
}

pub(super) fn durations_row(
    name: &str,
    durations: &Durations,
    unit: fn(u64) -> String,
) -> Vec<String> {
    let mut row = vec![name.to_string(), durations.count().to_string()];
    if durations.count() == 0 {
        row.extend(["-"; 4].map(String::from));
    } else {
        row.extend([500, 900, 990].map(|p| unit(durations.percentile(p))));
        row.push(unit(durations.max()));
    }
    row
}

/// A note listing `items`, when there are any.
pub(super) fn list_note(notes: &mut Notes, name: &str, items: impl Iterator<Item = String>) {
    let items: Vec<String> = items.collect();
    if !items.is_empty() {
        notes.push((name.into(), items.join(", ")));
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
