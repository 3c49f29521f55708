//! A task's counters as numbers a person can trust, and as a one-line stacked bar
//! (delivered / undeliverable / expired / unknown / pending) with a legend, so the
//! state of a send is seen before it is read.

use crate::domain::record::Record;
use crate::domain::status::Tone;
use crate::domain::task::{pending, pending_parts, TaskCounters};
use crate::output::table::paint;

/// Cells of the bar: wide enough to show 1 in 40, narrow enough for any terminal.
const BAR_WIDTH: usize = 40;

/// A task's counters in the order shown (the bar, its legend, the report), with the
/// tone each is drawn in.
pub const COUNTERS: [(&str, Tone); 5] = [
    ("delivered", Tone::Good),
    ("undeliverable", Tone::Bad),
    ("expired", Tone::Doubtful),
    ("unknown", Tone::Doubtful),
    ("pending", Tone::Pending),
];

/// Each counter's glyph in the bar, and its ASCII stand-in.
const GLYPHS: [(char, char); 5] = [('█', '#'), ('▓', 'x'), ('▒', '-'), ('░', '?'), ('·', '.')];

/// The counts [`COUNTERS`] names. Counters that add up to more than `sent` have
/// nothing pending: the warning row says why.
pub fn counts(counters: &TaskCounters) -> [i64; 5] {
    let [delivered, undeliverable, expired, unknown] = counters.finals;
    let still_pending = pending(counters).unwrap_or(0);
    [delivered, undeliverable, expired, unknown, still_pending]
}

/// The bar and its legend, two lines; None when there is nothing to draw (nothing
/// sent, or a negative counter).
pub fn task_bar(record: &Record, utf8: bool, color: bool) -> Option<String> {
    let counters = TaskCounters::of(record)?;
    if counters.messages() < 0 || counters.finals.iter().any(|c| *c < 0) {
        return None;
    }
    let counts = counts(&counters).map(|c| c.max(0) as u64);
    let widths = split(&counts, BAR_WIDTH)?;
    let mut bar = String::new();
    let mut legend = Vec::new();
    for (i, (name, tone)) in COUNTERS.into_iter().enumerate() {
        let (glyph, ascii) = GLYPHS[i];
        let glyph = if utf8 { glyph } else { ascii }.to_string();
        if widths[i] > 0 {
            bar.push_str(&paint(&glyph.repeat(widths[i]), tone, color));
        }
        let painted = paint(&glyph, tone, color);
        legend.push(format!("{painted} {name} {}", counts[i]));
    }
    let mut legend = legend.join("  ");
    // ` (queued 0, enroute 3)` after the pending count, for v1 records that say
    // where their pending messages are.
    if let Some(parts) = pending_parts(&counters) {
        let parts: Vec<String> = parts.iter().map(|(n, c)| format!("{n} {c}")).collect();
        legend += &format!(" ({})", parts.join(", "));
    }
    Some(format!("{bar}\n{legend}"))
}

/// Splits `width` cells in proportion to `counts` (largest remainder; None if all are
/// 0), giving every non-zero count at least one cell: a single failure is never hidden.
pub fn split(counts: &[u64], width: usize) -> Option<Vec<usize>> {
    let total: u64 = counts.iter().sum();
    if total == 0 {
        return None;
    }
    let exact: Vec<f64> = counts
        .iter()
        .map(|c| *c as f64 * width as f64 / total as f64)
        .collect();
    // At least a cell for a non-zero count (a zero count's share is 0).
    let least = |(c, e): (&u64, &f64)| (e.floor() as usize).max(usize::from(*c > 0));
    let mut cells: Vec<usize> = counts.iter().zip(&exact).map(least).collect();
    // Hand out or take back cells one at a time, where the rounding was furthest off.
    while cells.iter().sum::<usize>() < width {
        let i = (0..cells.len()).filter(|i| counts[*i] > 0).max_by(|a, b| {
            (exact[*a] - cells[*a] as f64).total_cmp(&(exact[*b] - cells[*b] as f64))
        })?;
        cells[i] += 1;
    }
    while cells.iter().sum::<usize>() > width {
        let i = (0..cells.len()).filter(|i| cells[*i] > 1).max_by(|a, b| {
            (cells[*a] as f64 - exact[*a]).total_cmp(&(cells[*b] as f64 - exact[*b]))
        })?;
        cells[i] -= 1;
    }
    Some(cells)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::record::RecordKind;
    use crate::domain::task::problem;
    use serde_json::json;

    fn task(value: serde_json::Value) -> Record {
        Record {
            kind: RecordKind::Task,
            fields: value.as_object().cloned().unwrap(),
        }
    }

    #[test]
    fn split_is_proportional_and_fills_the_width() {
        assert_eq!(split(&[7, 1, 1, 1, 0], 40), Some(vec![28, 4, 4, 4, 0]));
        assert_eq!(split(&[0, 0, 0, 0, 0], 40), None);
        let tiny = split(&[998, 1, 1, 0, 0], 40).unwrap();
        assert_eq!(tiny.iter().sum::<usize>(), 40);
        assert_eq!(&tiny[1..], &[1, 1, 0, 0]);
        let thirds = split(&[1, 1, 1], 10).unwrap();
        assert_eq!(thirds.iter().sum::<usize>(), 10);
    }

    #[test]
    fn counters_read_leniently() {
        let c =
            TaskCounters::of(&task(json!({"sent": "10", "delivered": 7, "unknown": "1"}))).unwrap();
        assert_eq!(pending(&c), Some(2));
        assert_eq!(c.delivered_ratio(), Some(0.7));
        assert_eq!(problem(&c), None);
        assert_eq!(TaskCounters::of(&task(json!({"delivered": 1}))), None);
        let zero = TaskCounters::of(&task(json!({"sent": 0}))).unwrap();
        assert_eq!(zero.delivered_ratio(), None);
    }

    #[test]
    fn negative_counters_are_a_problem() {
        let c = TaskCounters::of(&task(json!({"sent": 5, "expired": -1}))).unwrap();
        assert_eq!(pending(&c), None);
        assert!(problem(&c).unwrap().contains("expired is -1"));
        assert_eq!(
            task_bar(&task(json!({"sent": 5, "expired": -1})), true, false),
            None
        );
    }

    #[test]
    fn v1_bar_counts_from_total_and_names_the_in_flight() {
        let r = task(
            json!({"sent": 6, "total": 10, "queued": 2, "accepted": 1, "enroute": 1,
                   "delivered": 4, "expired": 0, "undeliverable": 1, "unknown": 1}),
        );
        let drawn = task_bar(&r, true, false).unwrap();
        let (bar, legend) = drawn.split_once('\n').unwrap();
        assert_eq!(bar.chars().filter(|c| *c == '·').count(), 16);
        assert!(
            legend.ends_with("· pending 4 (queued 2, accepted 1, enroute 1)"),
            "{legend}"
        );
    }

    #[test]
    fn v1_legend_does_not_count_accepted_as_pending() {
        let r = task(
            json!({"total": 100, "sent": 100, "queued": 0, "accepted": 95, "enroute": 3,
                   "delivered": 92, "expired": 2, "undeliverable": 3, "unknown": 0}),
        );
        let drawn = task_bar(&r, true, false).unwrap();
        let legend = drawn.lines().nth(1).unwrap();
        assert!(
            legend.ends_with("· pending 3 (queued 0, enroute 3)"),
            "{legend}"
        );
    }

    #[test]
    fn bar_in_utf8_and_ascii() {
        let r = task(
            json!({"sent": 10, "delivered": 5, "undeliverable": 1, "expired": 1, "unknown": 1}),
        );
        let utf8 = task_bar(&r, true, false).unwrap();
        let (bar, legend) = utf8.split_once('\n').unwrap();
        assert_eq!(bar.chars().count(), BAR_WIDTH);
        assert_eq!(
            bar,
            format!(
                "{}{}{}{}{}",
                "█".repeat(20),
                "▓".repeat(4),
                "▒".repeat(4),
                "░".repeat(4),
                "·".repeat(8)
            )
        );
        assert_eq!(
            legend,
            "█ delivered 5  ▓ undeliverable 1  ▒ expired 1  ░ unknown 1  · pending 2"
        );
        let ascii = task_bar(&r, false, false).unwrap();
        assert!(ascii.is_ascii());
        assert!(ascii.starts_with(&"#".repeat(20)));
        let coloured = task_bar(&r, true, true).unwrap();
        let green = format!("\u{1b}[32m{}\u{1b}[0m\u{1b}[31m", "█".repeat(20));
        assert!(coloured.starts_with(&green), "{coloured}");
    }
}
