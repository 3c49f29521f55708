//! One row per lookup, fitted to the terminal: a status, number, ID or timestamp is
//! never broken; columns empty in the whole page are left out; when the table is
//! still too wide, the longest free-text cells are shortened with `…` and a line
//! under the table says which columns were cut and how to see them whole.

use comfy_table::{Cell, Color, ContentArrangement};

use crate::domain::fields::{self, FieldType};
use crate::domain::outcome::Outcome;
use crate::domain::record::RecordKind;
use crate::domain::sanitize::{escape_cut, MAX_CELL_CHARS};
use crate::output::derived;
use crate::output::rows::field_value;
use crate::output::table::{columns_for, new_table, value_cell, TableStyle};

/// A free-text column is not cut narrower than this.
const MIN_CUT_WIDTH: usize = 6;

/// What a column holds.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Column {
    Query,
    Field { key: String, free_text: bool },
    Error,
}

impl Column {
    fn free_text(&self) -> bool {
        matches!(
            self,
            Column::Error
                | Column::Field {
                    free_text: true,
                    ..
                }
        )
    }

    fn key(&self) -> &str {
        match self {
            Column::Field { key, .. } => key,
            Column::Query | Column::Error => "",
        }
    }
}

/// The rows of one page, kept as text until the page is printed: which columns to
/// show and how wide depends on every row.
pub struct RowsTable {
    columns: Vec<Column>,
    header: Vec<String>,
    rows: Vec<Vec<String>>,
    style: TableStyle,
    /// `--no-headers`: the rows only.
    headless: bool,
}

impl RowsTable {
    pub fn new(kind: RecordKind, fields: &[String], style: TableStyle) -> RowsTable {
        let mut columns = vec![Column::Query];
        let mut header = vec!["Query".to_string()];
        for key in columns_for(kind, fields) {
            let field = fields::find(kind, &key);
            // A `--fields` name is the user's text: escaped like a server's.
            header.push(field.map_or_else(|| cell_text(&key), |f| f.label.to_string()));
            // The service's own fields are text nobody promised to keep short.
            let free_text = field.is_none_or(|f| f.ty == FieldType::Text);
            columns.push(Column::Field { key, free_text });
        }
        columns.push(Column::Error);
        header.push("Error".into());
        RowsTable {
            columns,
            header,
            rows: Vec::new(),
            style,
            headless: false,
        }
    }

    pub fn without_header(mut self, headless: bool) -> RowsTable {
        self.headless = headless;
        self
    }

    pub fn add(&mut self, outcome: &Outcome) {
        let mut cells = vec![cell_text(&outcome.query)];
        let fields = self
            .columns
            .iter()
            .filter(|c| matches!(c, Column::Field { .. }));
        match &outcome.result {
            Ok(record) => {
                cells.extend(fields.map(|column| {
                    let key = column.key();
                    let value = derived::derived_value(record, key, self.style.utf8)
                        .or_else(|| field_value(record, key))
                        .unwrap_or_default();
                    cell_text(&value)
                }));
                cells.push(String::new());
            }
            Err(error) => {
                cells.extend(fields.map(|_| String::new()));
                cells.push(cell_text(&error.to_string()));
            }
        }
        self.rows.push(cells);
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// The page as text, fitted to `width` columns of terminal when there is one.
    pub fn render(&self, width: Option<usize>) -> String {
        let shown: Vec<usize> = (0..self.columns.len())
            .filter(|&i| i == 0 || self.rows.iter().any(|row| !row[i].is_empty()))
            .collect();
        let mut widths: Vec<usize> = shown.iter().map(|&i| self.natural_width(i)).collect();
        let cut = match width {
            Some(width) => self.fit(&shown, &mut widths, width),
            None => Vec::new(),
        };
        let mut table = new_table(self.style);
        // Fitted here: comfy-table's own wrapping would break tokens mid-way.
        table.set_content_arrangement(ContentArrangement::Disabled);
        if !self.headless {
            table.set_header(shown.iter().map(|&i| self.header[i].clone()));
        }
        for row in &self.rows {
            let cells = shown.iter().zip(&widths).map(|(&i, &w)| {
                let text = shorten(&row[i], w);
                match &self.columns[i] {
                    Column::Error if self.style.color => Cell::new(text).fg(Color::Red),
                    column => value_cell(column.key(), &text, self.style),
                }
            });
            table.add_row(cells.collect::<Vec<_>>());
        }
        let mut text = table.to_string();
        if !cut.is_empty() {
            text.push_str(&format!(
                "\n(cut to fit the terminal: {}; --json or --fields shows them whole)",
                cut.join(", ")
            ));
        }
        text
    }

    fn natural_width(&self, column: usize) -> usize {
        let cells = self.rows.iter().map(|row| row[column].chars().count());
        cells
            .chain([self.header[column].chars().count()])
            .max()
            .unwrap_or(0)
    }

    /// Narrows the widest free-text columns until the table fits (or none can give
    /// more); returns the labels of the columns that were cut.
    fn fit(&self, shown: &[usize], widths: &mut [usize], width: usize) -> Vec<String> {
        // Borders and padding: "│ " + " ┆ " between columns + " │".
        let overhead = 4 + 3 * shown.len().saturating_sub(1);
        let mut cut = Vec::new();
        loop {
            let total: usize = widths.iter().sum::<usize>() + overhead;
            if total <= width {
                return cut;
            }
            let widest = (0..shown.len())
                .filter(|&j| self.columns[shown[j]].free_text() && widths[j] > MIN_CUT_WIDTH)
                .max_by_key(|&j| widths[j]);
            let Some(j) = widest else { return cut };
            widths[j] = widths[j].saturating_sub(total - width).max(MIN_CUT_WIDTH);
            let label = self.header[shown[j]].clone();
            if !cut.contains(&label) {
                cut.push(label);
            }
        }
    }
}

/// A cell's text: escaped, and cut to a length any table can hold.
fn cell_text(text: &str) -> String {
    escape_cut(text, MAX_CELL_CHARS).into_owned()
}

/// `text` cut to `width` characters, the last one `…`.
fn shorten(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut short: String = text.chars().take(width.saturating_sub(1)).collect();
    short.push('…');
    short
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shorten_marks_the_cut() {
        assert_eq!(shorten("delivered", 20), "delivered");
        assert_eq!(shorten("a long error text", 8), "a long …");
    }
}
