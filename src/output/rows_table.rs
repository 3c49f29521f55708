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
use crate::output::record_rows::{field_value, line_value};
use crate::output::table::{columns_for, new_table, value_cell, TableStyle};

/// A free-text column is not cut narrower than this.
const MIN_CUT_WIDTH: usize = 6;

/// The columns a narrow terminal keeps longest: what a lookup is about.
const KEPT_LONGEST: [&str; 3] = ["status", "pending", "delivery_rate"];

/// Columns are left out rather than free text cut narrower than this.
const MIN_KEPT_WIDTH: usize = 16;

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
                        .or_else(|| line_value(record, key))
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
        let mut shown: Vec<usize> = (0..self.columns.len())
            .filter(|&i| i == 0 || self.rows.iter().any(|row| !row[i].is_empty()))
            .collect();
        let mut widths: Vec<usize> = shown.iter().map(|&i| self.natural_width(i)).collect();
        let (cut, left_out) = match width {
            Some(width) => self.fit(&mut shown, &mut widths, width),
            None => Default::default(),
        };
        let mut table = new_table(self.style);
        // Fitted here: comfy-table's own wrapping would break tokens mid-way.
        table.set_content_arrangement(ContentArrangement::Disabled);
        if !self.headless {
            let header = shown.iter().zip(&widths);
            table.set_header(header.map(|(&i, &w)| wrap_words(&self.header[i], w)));
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
        let mut notes = Vec::new();
        if !cut.is_empty() {
            notes.push(format!(
                "(cut to fit the terminal: {}; --json or --fields shows them whole)",
                cut.join(", ")
            ));
        }
        if !left_out.is_empty() {
            notes.push(format!(
                "(left out to fit the terminal: {}; --json or --fields shows them)",
                left_out.join(", ")
            ));
        }
        for note in notes {
            text.push('\n');
            text.push_str(&width.map_or(note.clone(), |w| wrap_words(&note, w)));
        }
        text
    }

    fn natural_width(&self, column: usize) -> usize {
        self.widest_cell(column)
            .max(self.header[column].chars().count())
    }

    fn widest_cell(&self, column: usize) -> usize {
        let cells = self.rows.iter().map(|row| row[column].chars().count());
        cells.max().unwrap_or(0)
    }

    /// Fits the table in three steps, each only while it is still too wide: labels
    /// wrap at their spaces; columns are left out from the right (never the query or
    /// the error) until free text can keep a readable width; the widest free-text
    /// cells are shortened with `…`.
    /// Returns the labels of the columns cut and of those left out.
    fn fit(
        &self,
        shown: &mut Vec<usize>,
        widths: &mut Vec<usize>,
        width: usize,
    ) -> (Vec<String>, Vec<String>) {
        let fits = |shown: &[usize], widths: &[usize]| {
            // Borders and padding: "│ " + " ┆ " between columns + " │".
            widths.iter().sum::<usize>() + 4 + 3 * shown.len().saturating_sub(1) <= width
        };
        if fits(shown, widths) {
            return Default::default();
        }
        for (j, &i) in shown.iter().enumerate() {
            widths[j] = self.widest_cell(i).max(longest_word(&self.header[i]));
        }
        // The least width each column can be given: free text is cut (the error most:
        // stderr tells each failure whole, and the record's columns are worth more
        // room than a second copy of its text).
        let least = |i: usize, w: usize| match &self.columns[i] {
            Column::Error => w.min(MIN_CUT_WIDTH),
            column if column.free_text() => w.min(MIN_KEPT_WIDTH),
            _ => w,
        };
        let least_of = |shown: &[usize], widths: &[usize]| -> Vec<usize> {
            shown
                .iter()
                .zip(widths)
                .map(|(&i, &w)| least(i, w))
                .collect()
        };
        // Columns go from the right until the rest fits with free text at a readable width.
        let mut left_out = Vec::new();
        let mut removed = Vec::new();
        loop {
            if fits(shown, &least_of(shown, widths)) {
                break;
            }
            let droppable = |j: &usize| self.columns[shown[*j]] != Column::Error;
            let plain = |j: &usize| !KEPT_LONGEST.contains(&self.columns[shown[*j]].key());
            let mut candidates = (1..shown.len()).rev().filter(droppable);
            let last = candidates.clone().find(plain).or_else(|| candidates.next());
            let Some(j) = last else { break };
            removed.push((shown.remove(j), widths.remove(j)));
        }
        // A narrow column left out behind a wide one comes back when it fits.
        for (i, w) in removed.into_iter().rev() {
            let at = shown.partition_point(|&k| k < i);
            shown.insert(at, i);
            widths.insert(at, w);
            if !fits(shown, &least_of(shown, widths)) {
                shown.remove(at);
                widths.remove(at);
                left_out.push(self.header[i].clone());
            }
        }
        left_out.sort_by_key(|label| self.header.iter().position(|h| h == label));
        let cut = self.cut_free_text(shown, widths, width);
        (cut, left_out)
    }

    /// Narrows the widest free-text columns until the table fits (or none can give
    /// more); returns the labels of the columns whose text was cut.
    fn cut_free_text(&self, shown: &[usize], widths: &mut [usize], width: usize) -> Vec<String> {
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
            let floor = MIN_CUT_WIDTH.max(longest_word(&self.header[shown[j]]));
            if widths[j] <= floor {
                return cut;
            }
            widths[j] = widths[j].saturating_sub(total - width).max(floor);
            let label = self.header[shown[j]].clone();
            if self.widest_cell(shown[j]) > widths[j] && !cut.contains(&label) {
                cut.push(label);
            }
        }
    }
}

fn longest_word(label: &str) -> usize {
    label
        .split(' ')
        .map(|w| w.chars().count())
        .max()
        .unwrap_or(0)
}

/// A label or note on as many lines as `width` needs, broken at spaces only.
fn wrap_words(label: &str, width: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    for word in label.split(' ') {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines.join("\n")
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

    #[test]
    fn labels_wrap_at_spaces_only() {
        assert_eq!(wrap_words("Delivery rate", 13), "Delivery rate");
        assert_eq!(wrap_words("Delivery rate", 8), "Delivery\nrate");
        assert_eq!(wrap_words("Undeliverable", 5), "Undeliverable");
        assert_eq!(longest_word("Total price"), 5);
    }
}
