//! Tables for people: the two-column record view for one lookup, and what it shares
//! with the one-row-per-lookup table of `rows_table` (style, cell colours, columns).

use comfy_table::{presets, Cell, Color, ColumnConstraint, ContentArrangement, Table};

use crate::domain::fields;
use crate::domain::format::TableStyle;
use crate::domain::record::{Record, RecordKind};
use crate::domain::sanitize::{escape_cut, MAX_CELL_CHARS};
use crate::domain::status::{self, Tone};
use crate::output::derived::{self, record_rows, row, Row};

pub(super) fn new_table(style: TableStyle) -> Table {
    let mut table = Table::new();
    table.load_style(if style.utf8 {
        presets::UTF8_FULL_CONDENSED
    } else {
        presets::ASCII_FULL_CONDENSED
    });
    if style.color {
        table.enforce_styling();
    } else {
        table.force_no_tty();
    }
    // Wrap to the terminal's width (settings decided it: COLUMNS, or the terminal's
    // own; none for a pipe, or a 0x0 "terminal" under some `docker -t` setups).
    if let Some(width) = style.width {
        table.set_width(u16::try_from(width).unwrap_or(u16::MAX));
        table.set_content_arrangement(ContentArrangement::Dynamic);
    }
    table
}

/// The colour of each tone, as comfy-table names it for a cell and console for
/// painted text.
fn tone_colors(tone: Tone) -> Option<(Color, console::Color)> {
    use console::Color as Text;
    match tone {
        Tone::Good => Some((Color::Green, Text::Green)),
        Tone::Bad => Some((Color::Red, Text::Red)),
        Tone::Doubtful => Some((Color::Yellow, Text::Yellow)),
        Tone::Pending => Some((Color::Blue, Text::Blue)),
        Tone::Plain => None,
    }
}

/// `text` in its tone's colour when `color` (the task bar, the report's bars).
pub(crate) fn paint(text: &str, tone: Tone, color: bool) -> String {
    let mut style = console::Style::new().force_styling(color);
    if let Some((_, text_color)) = tone_colors(tone) {
        style = style.fg(text_color);
    }
    style.apply_to(text).to_string()
}

/// A value's cell, coloured by its tone; `value` is escaped and cut already.
pub(super) fn value_cell(key: &str, value: &str, style: TableStyle) -> Cell {
    let cell = Cell::new(value);
    let tone = match key {
        "status" => status::tone(value),
        derived::COUNTERS_CHECK => Tone::Doubtful,
        // The row table's error column.
        "error" => Tone::Bad,
        _ => Tone::Plain,
    };
    match tone_colors(tone).filter(|_| style.color) {
        Some((cell_color, _)) => cell.fg(cell_color),
        None => cell,
    }
}

/// Field label and value; `fields` (when given) picks rows by key, in their order
/// (`details` picks every `details.NAME` row).
pub fn record_table(record: &Record, query: &str, fields: &[String], style: TableStyle) -> Table {
    let mut table = new_table(style);
    let mut rows = record_rows(record, style.utf8);
    // A task record names no ID of its own: the value looked up is its ID.
    if record.kind == RecordKind::Task && record.get("id").is_none() {
        rows.insert(0, row("query", "ID", query.to_string()));
    }
    if !fields.is_empty() {
        let picked = |name: &String| picked_rows(&rows, record, query, name);
        rows = fields.iter().flat_map(picked).collect();
    }
    for row in rows {
        let [label, value] = [&row.label, &row.value].map(|t| escape_cut(t, MAX_CELL_CHARS));
        table.add_row(vec![Cell::new(label), value_cell(&row.key, &value, style)]);
    }
    // Labels are never wrapped; values wrap, at word boundaries where they have some.
    if let Some(labels) = table.column_mut(0) {
        labels.set_constraint(ColumnConstraint::ContentWidth);
    }
    table
}

/// The rows of one `--fields` name: the field's, every row under a dotted prefix,
/// or the line's own `query` and `kind`.
fn picked_rows(rows: &[Row], record: &Record, query: &str, name: &str) -> Vec<Row> {
    let picked = |name: &str| -> Vec<Row> {
        let under = |key: &str| key.strip_prefix(name).is_some_and(|r| r.starts_with('.'));
        let picked = rows.iter().filter(|r| r.key == name || under(&r.key));
        picked.cloned().collect()
    };
    match name {
        "query" => vec![row("query", "Query", query.to_string())],
        "kind" => vec![row("kind", "Kind", record.kind.name().to_string())],
        // A field the record lacks is shown by one that means the same.
        _ => std::iter::once(name)
            .chain(fields::synonyms(record.kind, name).map(|s| -> &str { s }))
            .map(picked)
            .find(|rows| !rows.is_empty())
            .unwrap_or_default(),
    }
}

/// The field columns of the row table, CSV and TSV: the defaults, or `--fields`
/// without the columns those always have (`query`, `error`, `errorDescription`).
pub fn columns_for(kind: RecordKind, fields: &[String]) -> Vec<String> {
    if fields.is_empty() {
        let defaults = fields::default_columns(kind).into_iter();
        return defaults.map(str::to_string).collect();
    }
    let own = |name: &&String| !fields::ALWAYS_COLUMNS.contains(&name.as_str());
    fields.iter().filter(own).cloned().collect()
}
