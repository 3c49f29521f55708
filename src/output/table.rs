//! Tables for people: a two-column record view for one lookup, one row per lookup
//! for several.

use comfy_table::{presets, Cell, Color, ContentArrangement, Table};

use crate::domain::outcome::Outcome;
use crate::domain::record::RecordKind;
use crate::domain::sanitize::{escape_cut, MAX_CELL_CHARS};
use crate::domain::status::{self, Tone};
use crate::output::derived;
use crate::output::rows::{field_value, record_rows};

/// How tables look; decided once from the `Config`.
#[derive(Debug, Clone, Copy)]
pub struct TableStyle {
    pub color: bool,
    pub utf8: bool,
}

fn new_table(style: TableStyle) -> Table {
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
    // Wrap to the terminal's width, unless it reports none (0x0 under some `docker -t`
    // and `script` setups), where wrapping would squeeze every column to one letter.
    let arrangement = match table.width() {
        Some(width) if width < MIN_WRAP_WIDTH => ContentArrangement::Disabled,
        _ => ContentArrangement::Dynamic,
    };
    table.set_content_arrangement(arrangement);
    table
}

/// Narrower "terminals" are reporting no real size.
const MIN_WRAP_WIDTH: u16 = 20;

fn value_cell(key: &str, value: &str, style: TableStyle) -> Cell {
    let cell = Cell::new(escape_cut(value, MAX_CELL_CHARS));
    let tone = match key {
        "status" => status::tone(value),
        derived::COUNTERS_CHECK => Tone::Doubtful,
        _ => Tone::Plain,
    };
    if !style.color {
        return cell;
    }
    match tone {
        Tone::Good => cell.fg(Color::Green),
        Tone::Bad => cell.fg(Color::Red),
        Tone::Doubtful => cell.fg(Color::Yellow),
        Tone::Pending => cell.fg(Color::Blue),
        Tone::Plain => cell,
    }
}

/// Field label and value, known fields first; `fields` (when given) picks rows by key.
pub fn record_table(
    record: &crate::domain::record::Record,
    fields: &[String],
    style: TableStyle,
) -> Table {
    let mut table = new_table(style);
    for row in derived::enrich(record_rows(record), record, style.utf8) {
        if fields.is_empty() || fields.contains(&row.key) {
            table.add_row(vec![
                Cell::new(escape_cut(&row.label, MAX_CELL_CHARS)),
                value_cell(&row.key, &row.value, style),
            ]);
        }
    }
    table
}

/// One row per lookup; failed lookups are rows too, with the reason in the last column.
pub struct RowsTable {
    table: Table,
    columns: Vec<String>,
    style: TableStyle,
}

impl RowsTable {
    pub fn new(kind: RecordKind, fields: &[String], style: TableStyle) -> RowsTable {
        let columns = columns_for(kind, fields);
        let mut table = new_table(style);
        let labels = kind.known_fields();
        let mut header = vec!["Query".to_string()];
        header.extend(columns.iter().map(|key| {
            labels
                .iter()
                .find(|(k, _)| k == key)
                // A `--fields` name is the user's text: escaped like a server's.
                .map_or_else(
                    || escape_cut(key, MAX_CELL_CHARS).into_owned(),
                    |(_, label)| label.to_string(),
                )
        }));
        header.push("Error".into());
        table.set_header(header);
        RowsTable {
            table,
            columns,
            style,
        }
    }

    pub fn add(&mut self, outcome: &Outcome) {
        let mut cells = vec![Cell::new(escape_cut(&outcome.query, MAX_CELL_CHARS))];
        match &outcome.result {
            Ok(record) => {
                for key in &self.columns {
                    let value = derived::derived_value(record, key, self.style.utf8)
                        .or_else(|| field_value(record, key))
                        .unwrap_or_default();
                    cells.push(value_cell(key, &value, self.style));
                }
                cells.push(Cell::new(""));
            }
            Err(error) => {
                cells.extend(self.columns.iter().map(|_| Cell::new("")));
                let cell = Cell::new(escape_cut(&error.to_string(), MAX_CELL_CHARS));
                cells.push(if self.style.color {
                    cell.fg(Color::Red)
                } else {
                    cell
                });
            }
        }
        self.table.add_row(cells);
    }

    pub fn table(&self) -> &Table {
        &self.table
    }
}

pub fn columns_for(kind: RecordKind, fields: &[String]) -> Vec<String> {
    if fields.is_empty() {
        kind.main_columns().iter().map(|c| c.to_string()).collect()
    } else {
        fields.to_vec()
    }
}
