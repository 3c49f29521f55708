//! Drawing the report's shape: the terminal form with aligned columns and bars in
//! the status colours (`-o report`), and GitHub-flavoured Markdown for CI job
//! summaries (`-o report-md`).

use std::fmt::Write as _;

use super::section::Shape;
use crate::domain::format::TableStyle;
use crate::output::table::paint;
use crate::output::wrap::hanging_list;

/// Cells of a bar at a share of 100 %.
const BAR_CELLS: usize = 30;

/// The terminal form: aligned columns, bars in the status colours, the notes' lists
/// broken between items to fit the width (None: no limit).
pub(super) fn terminal(shape: &Shape, style: TableStyle) -> String {
    let mut out = format!("{}\n", shape.headline);
    for section in &shape.sections {
        let head: Vec<String> = section.head.iter().map(|h| h.to_string()).collect();
        let mut widths: Vec<usize> = head.iter().map(|h| h.chars().count()).collect();
        for (cells, _) in &section.rows {
            for (width, cell) in widths.iter_mut().zip(cells) {
                *width = (*width).max(cell.chars().count());
            }
        }
        let line = |cells: &[String]| -> String {
            let cells = cells.iter().zip(&widths).enumerate();
            let cells = cells.map(|(i, (cell, &width))| match i {
                0 => format!("{cell:<width$}"),
                _ => format!("{cell:>width$}"),
            });
            cells.collect::<Vec<_>>().join("  ")
        };
        let _ = write!(out, "\n{}\n", line(&head).trim_end());
        for (cells, bar) in &section.rows {
            let mut text = line(cells);
            if let Some((share, tone)) = bar {
                text.push_str("  ");
                text.push_str(&paint(&bar_cells(*share, style.utf8), *tone, style.color));
            }
            let _ = writeln!(out, "{}", text.trim_end());
        }
    }
    if !shape.notes.is_empty() {
        out.push('\n');
        let names = shape.notes.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
        for (name, value) in &shape.notes {
            let wrapped = |width| hanging_list(value, names + 2, width);
            let value = style.width.map_or(value.clone(), wrapped);
            let _ = writeln!(out, "{name:<names$}  {value}");
        }
    }
    out
}

/// The Markdown form: a heading, GFM tables and a list; every cell escaped so that
/// service text cannot inject markup into a job summary.
pub(super) fn markdown(shape: &Shape) -> String {
    let mut out = format!("### smsstat {}\n", md(&shape.headline));
    for section in &shape.sections {
        if section.rows.is_empty() {
            let _ = write!(out, "\n{}\n", md(section.head[0]));
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
    if !shape.notes.is_empty() {
        out.push('\n');
        for (name, value) in &shape.notes {
            let _ = writeln!(out, "- **{}**: {}", md(name), md(value));
        }
    }
    out
}

/// A bar of `share` × 30 cells; anything above nothing shows at least one cell.
fn bar_cells(share: f64, utf8: bool) -> String {
    let cells = (share * BAR_CELLS as f64).round() as usize;
    let cells = cells.clamp(usize::from(share > 0.0), BAR_CELLS);
    (if utf8 { "█" } else { "#" }).repeat(cells)
}

/// Markdown-safe text: HTML and table syntax escaped, markup characters quoted.
fn md(text: &str) -> String {
    let text = text
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    let quoted = |c: char| "|\\`*_[]#~!".contains(c).then_some('\\');
    text.chars()
        .flat_map(|c| quoted(c).into_iter().chain([c]))
        .collect()
}
