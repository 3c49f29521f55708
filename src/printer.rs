//! Output: every byte smsstat writes to stdout goes through here.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Shows control characters (C0, DEL, C1) and bidirectional-override characters as
/// escapes, so a server cannot retitle, clear or rearrange the terminal.
pub fn escape_control(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unsafe(c) {
            if (c as u32) < 0x100 {
                let _ = write!(out, "\\x{:02x}", c as u32);
            } else {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A value as shown in messages: escaped, and cut to a readable length (a pasted
/// file must not flood the terminal).
pub fn preview(text: &str) -> String {
    const MAX_CHARS: usize = 64;
    let mut shown: String = text.chars().take(MAX_CHARS).collect();
    if text.chars().nth(MAX_CHARS).is_some() {
        shown.push('…');
    }
    escape_control(&shown).into_owned()
}

pub fn is_unsafe(c: char) -> bool {
    c.is_control() || is_bidi_control(c)
}

/// Bidirectional controls, and invisible characters that can hide or split text
/// (zero-width space and joiners, line/paragraph separators, byte-order mark).
fn is_bidi_control(c: char) -> bool {
    is_invisible(c) || is_direction_control(c)
}

fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{200b}'..='\u{200d}' | '\u{2028}' | '\u{2029}' | '\u{2060}' | '\u{feff}'
    )
}

fn is_direction_control(c: char) -> bool {
    matches!(c, '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

use std::io::{self, Write};

use crate::cli::OutputFormat;
use crate::delimited::{self, Delimiter};
use crate::display::{is_known_name, value_of};
use crate::endpoint::LookupKind;
use crate::error::LookupError;
use crate::json_out::{outcome_json, select_fields, write_json_line};
use crate::model::Record;
use crate::table::{columns_for, record_table, RowsTable, TableStyle};
use crate::wait::Verdict;

/// Rows per printed table in a batch: one page of a long run.
pub const TABLE_PAGE_ROWS: usize = 500;

/// What one lookup came to.
#[derive(Debug)]
pub struct Outcome {
    pub kind: LookupKind,
    pub query: String,
    pub result: Result<Record, LookupError>,
    /// An unmet `--expect` or a record still pending (exit 80/81); the record is
    /// still printed.
    pub verdict: Option<Verdict>,
}

impl Outcome {
    pub fn new(kind: LookupKind, query: String, result: Result<Record, LookupError>) -> Outcome {
        Outcome {
            kind,
            query,
            result,
            verdict: None,
        }
    }

    /// The exit code this outcome asks for, 0 when it is a plain success.
    pub fn exit_code(&self) -> u8 {
        match (&self.result, &self.verdict) {
            (Err(error), _) => error.exit_code(),
            (Ok(_), Some(verdict)) => verdict.code,
            (Ok(_), None) => crate::exit_codes::SUCCESS,
        }
    }
}

/// Output settings, resolved once from the `Config`.
#[derive(Debug, Clone)]
pub struct PrintStyle {
    pub format: OutputFormat,
    pub fields: Vec<String>,
    pub field: Option<String>,
    pub normalize: bool,
    pub table: TableStyle,
    /// One value given on the command line: a record view rather than rows.
    pub single: bool,
}

/// Writes outcomes as they come, in the order given; only the row table waits for
/// `finish`, because its column widths depend on every row.
pub struct Printer<W: Write> {
    out: W,
    style: PrintStyle,
    kind: LookupKind,
    rows: Option<RowsTable>,
    header_written: bool,
    /// Field names already warned about.
    warned: Vec<String>,
    warnings: Vec<String>,
}

impl<W: Write> Printer<W> {
    pub fn new(out: W, style: PrintStyle, kind: LookupKind) -> Printer<W> {
        Printer {
            out,
            style,
            kind,
            rows: None,
            header_written: false,
            warned: Vec::new(),
            warnings: Vec::new(),
        }
    }

    pub fn print(&mut self, outcome: &Outcome) -> io::Result<()> {
        if let Ok(record) = &outcome.result {
            self.warn_about_unknown_names(record);
        }
        if let Some(name) = &self.style.field {
            let value = outcome.result.as_ref().ok().and_then(|r| value_of(r, name));
            return writeln!(self.out, "{}", escape_control(&value.unwrap_or_default()));
        }
        match self.style.format {
            OutputFormat::Json => {
                let value = outcome_json(outcome, self.style.normalize);
                let derived = |name: &str| {
                    let record = outcome.result.as_ref().ok()?;
                    crate::glance::derived_value(record, name, true)
                };
                let value = select_fields(value, &self.style.fields, self.style.normalize, derived);
                write_json_line(&mut self.out, &value)?
            }
            OutputFormat::Csv => self.delimited(outcome, Delimiter::Comma)?,
            OutputFormat::Tsv => self.delimited(outcome, Delimiter::Tab)?,
            OutputFormat::Table if self.style.single => {
                if let Ok(record) = &outcome.result {
                    let table = record_table(record, &self.style.fields, self.style.table);
                    writeln!(self.out, "{table}")?;
                    // The task bar sums the whole record: not shown when rows were picked.
                    let TableStyle { utf8, color } = self.style.table;
                    let bar = crate::taskbar::task_bar(record, utf8, color);
                    if let Some(bar) = bar.filter(|_| self.style.fields.is_empty()) {
                        writeln!(self.out, "{bar}")?;
                    }
                }
            }
            OutputFormat::Table => {
                let kind = self.kind.record_kind();
                let rows = self.rows.get_or_insert_with(|| {
                    RowsTable::new(kind, &self.style.fields, self.style.table)
                });
                rows.add(outcome);
                // Column widths need the rows, so a table waits for them; in pages,
                // memory stays bounded however long the input.
                if rows.table().row_count() >= TABLE_PAGE_ROWS {
                    self.flush_rows()?;
                }
            }
        }
        if self.style.format != OutputFormat::Table {
            // Scripts read line by line: a finished lookup must not wait in a buffer.
            self.out.flush()?;
        }
        Ok(())
    }

    /// `--field stauts` would print empty lines forever: a name that no record of
    /// this kind knows gets one warning on stderr.
    fn warn_about_unknown_names(&mut self, record: &Record) {
        let names = self.style.field.iter().chain(&self.style.fields);
        for name in names {
            if !is_known_name(record, name) && !self.warned.contains(name) {
                self.warnings.push(format!(
                    "warning: {} records have no field `{}`",
                    record.kind.name(),
                    escape_control(name)
                ));
                self.warned.push(name.clone());
            }
        }
    }

    /// Warnings found while printing, for the caller to show on stderr (the printer
    /// itself writes only its output).
    pub fn take_warnings(&mut self) -> Vec<String> {
        std::mem::take(&mut self.warnings)
    }

    fn delimited(&mut self, outcome: &Outcome, delimiter: Delimiter) -> io::Result<()> {
        let columns = columns_for(self.kind.record_kind(), &self.style.fields);
        if !self.header_written {
            delimited::write_header(&mut self.out, &columns, delimiter)?;
            self.header_written = true;
        }
        delimited::write_outcome(&mut self.out, outcome, &columns, delimiter)
    }

    fn flush_rows(&mut self) -> io::Result<()> {
        if let Some(rows) = self.rows.take() {
            writeln!(self.out, "{}", rows.table())?;
        }
        self.out.flush()
    }

    pub fn finish(&mut self) -> io::Result<()> {
        self.flush_rows()
    }
}
