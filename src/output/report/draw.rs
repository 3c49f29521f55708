//! Drawing the report's sections: the terminal form with aligned columns and bars
//! in the status colours (`-o report`), and GitHub-flavoured Markdown for CI job
//! summaries (`-o report-md`).

use std::fmt::Write as _;

use super::section::Section;
use super::text::sections;
use super::{Look, Report};
use crate::domain::status::Tone;
use crate::output::wrap::hanging_list;

/// Cells of a bar at a share of 100 %.
const BAR_CELLS: usize = 30;

/// The terminal form with no width limit.
#[cfg(test)]
pub(super) fn terminal(report: &Report, look: Look) -> String {
    terminal_to_width(report, look, None)
}

/// The terminal form: aligned columns, bars in the status colours, the notes' lists
/// broken between items to fit `width` (None: no limit).
pub(super) fn terminal_to_width(report: &Report, look: Look, width: Option<usize>) -> String {
    let (headline, sections, notes) = sections(report);
    let mut out = format!("{headline}\n");
    for section in &sections {
        out.push('\n');
        if let Some(line) = section.line {
            let _ = writeln!(out, "{line}");
            continue;
        }
        let widths = column_widths(section);
        let line = |cells: &[String]| -> String {
            let cells = cells.iter().zip(&widths).enumerate();
            let cells = cells.map(|(i, (cell, &width))| match i {
                0 => format!("{cell:<width$}"),
                _ => format!("{cell:>width$}"),
            });
            cells.collect::<Vec<_>>().join("  ")
        };
        let head: Vec<String> = section.head.iter().map(|h| h.to_string()).collect();
        let _ = writeln!(out, "{}", line(&head).trim_end());
        for (cells, bar) in &section.rows {
            let mut text = line(cells);
            if let Some((share, tone)) = bar {
                text.push_str("  ");
                text.push_str(&paint(&bar_cells(*share, look.utf8), *tone, look.color));
            }
            let _ = writeln!(out, "{}", text.trim_end());
        }
    }
    if !notes.is_empty() {
        out.push('\n');
        let names = notes.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
        for (name, value) in &notes {
            let value = match width {
                Some(width) => hanging_list(value, names + 2, width),
                None => value.clone(),
            };
            let _ = writeln!(out, "{name:<names$}  {value}");
        }
    }
    out
}

/// The Markdown form: a heading, GFM tables and a list; every cell escaped so that
/// service text cannot inject markup into a job summary.
pub(super) fn markdown(report: &Report) -> String {
    let (headline, sections, notes) = sections(report);
    let mut out = format!("### smsstat {}\n", md(&headline));
    for section in &sections {
        if let Some(line) = section.line {
            let _ = write!(out, "\n{}\n", md(line));
            continue;
        }
        let has_bars = section.rows.iter().any(|(_, bar)| bar.is_some());
        let mut head: Vec<String> = section.head.iter().map(|h| md(h)).collect();
        let mut align = vec!["---:"; section.head.len()];
        align[0] = "---";
        if has_bars {
            head.push(String::new());
            align.push("---");
        }
        let _ = write!(out, "\n| {} |\n|{}|\n", head.join(" | "), align.join("|"));
        for (cells, bar) in &section.rows {
            let mut cells: Vec<String> = cells.iter().map(|c| md(c)).collect();
            if has_bars {
                cells.push(bar.map_or_else(String::new, |(share, _)| bar_cells(share, true)));
            }
            let _ = writeln!(out, "| {} |", cells.join(" | "));
        }
    }
    if !notes.is_empty() {
        out.push('\n');
        for (name, value) in &notes {
            let _ = writeln!(out, "- **{}**: {}", md(name), md(value));
        }
    }
    out
}

fn column_widths(section: &Section) -> Vec<usize> {
    let mut widths: Vec<usize> = section.head.iter().map(|h| h.chars().count()).collect();
    for (row, _) in &section.rows {
        for (i, cell) in row.iter().enumerate() {
            widths[i] = widths[i].max(cell.chars().count());
        }
    }
    widths
}

/// A bar of `share` × 30 cells; anything above nothing shows at least one cell.
fn bar_cells(share: f64, utf8: bool) -> String {
    let cells = (share * BAR_CELLS as f64).round() as usize;
    let cells = cells.clamp(usize::from(share > 0.0), BAR_CELLS);
    (if utf8 { "█" } else { "#" }).repeat(cells)
}

fn paint(text: &str, tone: Tone, color: bool) -> String {
    let sgr = match tone {
        Tone::Good => "32",
        Tone::Bad => "31",
        Tone::Doubtful => "33",
        Tone::Pending => "34",
        Tone::Plain => return text.to_string(),
    };
    if color {
        format!("\u{1b}[{sgr}m{text}\u{1b}[0m")
    } else {
        text.to_string()
    }
}

/// Markdown-safe text: HTML and table syntax escaped, markup characters quoted.
fn md(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '|' | '\\' | '`' | '*' | '_' | '[' | ']' | '#' | '~' | '!' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}
