//! One row per lookup, fitted to the terminal: a status, number, ID or timestamp is
//! never broken; columns empty in the whole page are left out; when the table is
//! still too wide, the longest free-text cells are shortened with `…` and a line
//! under the table says which columns were cut and how to see them whole.

use comfy_table::ContentArrangement;

use crate::domain::fields::{self, FieldType};
use crate::domain::format::{PrintStyle, TableStyle};
use crate::domain::outcome::Outcome;
use crate::domain::record::RecordKind;
use crate::domain::sanitize::{escape_cut, MAX_CELL_CHARS};
use crate::output::derived::{derived, field_value};
use crate::output::table::{columns_for, new_table, value_cell};

/// A free-text column is not cut narrower than this.
const MIN_CUT_WIDTH: usize = 6;

/// The columns a narrow terminal keeps longest: what a lookup is about.
const KEPT_LONGEST: [&str; 3] = ["status", "pending", "delivery_rate"];

/// Columns are left out rather than free text cut narrower than this.
const MIN_KEPT_WIDTH: usize = 16;

/// A column: the query's first, then the field columns, the error's last.
struct Column {
    /// The field's key; empty for the query.
    key: String,
    label: String,
    /// Text nobody promised to keep short, which may be cut.
    free_text: bool,
}

/// The rows of one page, kept as text until the page is printed: which columns to
/// show and how wide depends on every row.
pub struct RowsTable {
    columns: Vec<Column>,
    rows: Vec<Vec<String>>,
    style: TableStyle,
    /// `--no-headers`: the rows only.
    headless: bool,
}

impl RowsTable {
    pub fn new(kind: RecordKind, style: &PrintStyle) -> Self {
        let column = |key: String, label: String, free_text| Column {
            key,
            label,
            free_text,
        };
        let mut columns = vec![column(String::new(), "Query".into(), false)];
        for key in columns_for(kind, &style.fields) {
            let field = fields::find(kind, &key);
            // A `--fields` name is the user's text: escaped like a server's.
            let label = field.map_or_else(|| cell_text(&key), |f| f.label.to_string());
            // The service's own fields are text nobody promised to keep short.
            let free_text = field.is_none_or(|f| f.ty == FieldType::Text);
            columns.push(column(key, label, free_text));
        }
        columns.push(column("error".into(), "Error".into(), true));
        RowsTable {
            columns,
            rows: Vec::new(),
            style: style.table,
            headless: style.no_headers,
        }
    }

    fn is_error(&self, column: usize) -> bool {
        column + 1 == self.columns.len()
    }

    pub fn add(&mut self, outcome: &Outcome) {
        let fields = &self.columns[1..self.columns.len() - 1];
        let (values, error) = match &outcome.result {
            Ok(record) => {
                let value = |column: &Column| {
                    derived(record, &column.key, true, self.style.utf8)
                        .or_else(|| field_value(record, &column.key))
                        .unwrap_or_default()
                };
                (fields.iter().map(value).collect(), String::new())
            }
            Err(error) => (vec![String::new(); fields.len()], error.to_string()),
        };
        let cells = [&outcome.query].into_iter().chain(&values).chain([&error]);
        self.rows.push(cells.map(|text| cell_text(text)).collect());
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// The page as text, fitted to the terminal's width when there is one; the page's
    /// rows are gone after.
    pub fn render(&mut self) -> String {
        let width = self.style.width;
        let mut shown: Vec<usize> = (0..self.columns.len())
            .filter(|&i| i == 0 || self.rows.iter().any(|row| !row[i].is_empty()))
            .collect();
        let natural = |&i: &usize| {
            self.widest_cell(i)
                .max(self.columns[i].label.chars().count())
        };
        let mut widths: Vec<usize> = shown.iter().map(natural).collect();
        let (cut, left_out) = self.fit(&mut shown, &mut widths, width);
        let mut table = new_table(self.style);
        // Fitted here: comfy-table's own wrapping would break tokens mid-way.
        table.set_content_arrangement(ContentArrangement::Disabled);
        if !self.headless {
            let header = shown.iter().zip(&widths);
            table.set_header(header.map(|(&i, &w)| wrap_words(&self.columns[i].label, w)));
        }
        for row in &self.rows {
            let cells = shown
                .iter()
                .zip(&widths)
                .map(|(&i, &w)| value_cell(&self.columns[i].key, &shorten(&row[i], w), self.style));
            table.add_row(cells.collect::<Vec<_>>());
        }
        let mut text = table.to_string();
        let notes = [
            (cut, "cut to fit the terminal", "shows them whole"),
            (left_out, "left out to fit the terminal", "shows them"),
        ];
        for (labels, what, how) in notes.iter().filter(|(labels, ..)| !labels.is_empty()) {
            let note = format!("({what}: {}; --json or --fields {how})", labels.join(", "));
            text.push('\n');
            text.push_str(&width.map_or(note.clone(), |w| wrap_words(&note, w)));
        }
        self.rows.clear();
        text
    }

    fn widest_cell(&self, column: usize) -> usize {
        let cells = self.rows.iter().map(|row| row[column].chars().count());
        cells.max().unwrap_or(0)
    }

    /// Fits the table to a terminal's width in three steps, each only while it is still
    /// too wide: labels wrap at their spaces; columns are left out from the right (never
    /// the query or the error) until free text can keep a readable width; the widest
    /// free-text cells are shortened with `…`. Returns the labels cut and left out.
    fn fit(
        &self,
        shown: &mut Vec<usize>,
        widths: &mut Vec<usize>,
        width: Option<usize>,
    ) -> (Vec<String>, Vec<String>) {
        let Some(width) = width.filter(|&width| !fits(widths, width)) else {
            return Default::default();
        };
        for (j, &i) in shown.iter().enumerate() {
            widths[j] = self
                .widest_cell(i)
                .max(longest_word(&self.columns[i].label));
        }
        // The least width each column can be given: free text is cut (the error most:
        // stderr tells each failure whole, and the record's columns are worth more
        // room than a second copy of its text).
        let least = |shown: &[usize], widths: &[usize]| -> Vec<usize> {
            let least = |(&i, &w): (&usize, &usize)| match self.columns[i].free_text {
                true if self.is_error(i) => w.min(MIN_CUT_WIDTH),
                true => w.min(MIN_KEPT_WIDTH),
                false => w,
            };
            shown.iter().zip(widths).map(least).collect()
        };
        // Columns go from the right until the rest fits with free text at a readable width.
        let mut removed = Vec::new();
        while !fits(&least(shown, widths), width) {
            let droppable = |j: &usize| !self.is_error(shown[*j]);
            let plain = |j: &usize| !KEPT_LONGEST.contains(&self.columns[shown[*j]].key.as_str());
            let mut candidates = (1..shown.len()).rev().filter(droppable);
            let last = candidates.clone().find(plain).or_else(|| candidates.next());
            let Some(j) = last else { break };
            removed.push((shown.remove(j), widths.remove(j)));
        }
        // A narrow column left out behind a wide one comes back when it fits.
        let mut left_out = Vec::new();
        for (i, w) in removed.into_iter().rev() {
            let at = shown.partition_point(|&k| k < i);
            shown.insert(at, i);
            widths.insert(at, w);
            if !fits(&least(shown, widths), width) {
                shown.remove(at);
                widths.remove(at);
                left_out.push(i);
            }
        }
        left_out.sort();
        let left_out = left_out.iter().map(|&i| self.columns[i].label.clone());
        (self.cut_free_text(shown, widths, width), left_out.collect())
    }

    /// Narrows the widest free-text columns until the table fits (or none can give
    /// more); returns the labels of the columns whose text was cut.
    fn cut_free_text(&self, shown: &[usize], widths: &mut [usize], width: usize) -> Vec<String> {
        let mut cut = Vec::new();
        while !fits(widths, width) {
            let widest = (0..shown.len())
                .filter(|&j| self.columns[shown[j]].free_text && widths[j] > MIN_CUT_WIDTH)
                .max_by_key(|&j| widths[j]);
            let Some(j) = widest else { break };
            let label = &self.columns[shown[j]].label;
            let floor = MIN_CUT_WIDTH.max(longest_word(label));
            if widths[j] <= floor {
                break;
            }
            let over = widths.iter().sum::<usize>() + overhead(widths.len()) - width;
            widths[j] = widths[j].saturating_sub(over).max(floor);
            if self.widest_cell(shown[j]) > widths[j] && !cut.contains(label) {
                cut.push(label.clone());
            }
        }
        cut
    }
}

/// Borders and padding: "│ " + " ┆ " between columns + " │".
fn overhead(columns: usize) -> usize {
    4 + 3 * columns.saturating_sub(1)
}

fn fits(widths: &[usize], width: usize) -> bool {
    widths.iter().sum::<usize>() + overhead(widths.len()) <= width
}

fn longest_word(label: &str) -> usize {
    let words = label.split(' ').map(|w| w.chars().count());
    words.max().unwrap_or(0)
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
    use crate::domain::lookup::LookupKind;
    use crate::domain::record::Record;

    #[test]
    fn a_long_cell_is_cut_once_with_the_whole_count() {
        let table = TableStyle {
            color: false,
            utf8: true,
            width: None,
        };
        let style = PrintStyle {
            table,
            ..PrintStyle::default()
        };
        let mut table = RowsTable::new(RecordKind::Sms, &style);
        let record = Record::of_kind(
            RecordKind::Sms,
            serde_json::json!({"status": "E".repeat(1000)}),
        );
        table.add(&Outcome::new(LookupKind::Sms, "1".into(), Ok(record)));
        let text = table.render();
        assert!(
            text.contains(&format!("{}… (700 more characters)", "E".repeat(300))),
            "{text}"
        );
    }

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
