//! Output: every byte smsstat writes to stdout goes through here.

use std::io::{self, Write};

use crate::domain::error::LookupError;
use crate::domain::format::OutputFormat;
use crate::domain::lookup::LookupKind;
use crate::domain::outcome::Outcome;
use crate::domain::sanitize::escape_control;
use crate::output::delimited::{self, Cells, Delimiter};
use crate::output::derived::value_of;
use crate::output::json_lines::{
    follow_json, number_or_text, outcome_json, select_fields, write_json_line,
};
use crate::output::report::{Look, Report};
use crate::output::rows_table::RowsTable;
use crate::output::table::{columns_for, record_table, TableStyle};
use serde_json::Value;

/// Rows per printed table in a batch: one page of a long run.
pub const TABLE_PAGE_ROWS: usize = 500;

/// Output settings, resolved once from the `Config` (its `OutputSettings`, and the
/// `--follow` and `--wait` of its `WatchSettings`).
#[derive(Debug, Clone)]
pub struct PrintStyle {
    pub format: OutputFormat,
    pub fields: Vec<String>,
    pub field: Option<String>,
    pub normalize: bool,
    pub table: TableStyle,
    /// One value given on the command line: a record view rather than rows.
    pub single: bool,
    /// `--raw-cells`: CSV/TSV cells as sent, formulas not neutralised.
    pub raw_cells: bool,
    /// `--no-headers`: no header line in table, CSV and TSV.
    pub no_headers: bool,
    /// `--wait`: a report tells how long records took to be final.
    pub waited: bool,
}

impl PrintStyle {
    /// A format with every option off, no colour, UTF-8 and no width: the base
    /// that tests and the fuzz target vary one option at a time.
    pub fn plain(format: OutputFormat) -> Self {
        PrintStyle {
            format,
            fields: Vec::new(),
            field: None,
            normalize: false,
            table: TableStyle {
                color: false,
                utf8: true,
                width: None,
            },
            single: false,
            raw_cells: false,
            no_headers: false,
            waited: false,
        }
    }
}

/// Writes outcomes as they come, in the order given; only the row table waits for
/// `finish`, because its column widths depend on every row.
pub struct Printer<W: Write> {
    out: W,
    style: PrintStyle,
    kind: LookupKind,
    rows: Option<RowsTable>,
    /// `-o report*`: the batch folded into one report, written by `finish`.
    report: Option<Report>,
    header_written: bool,
    /// Tells whether the reader went away, checked while a table page is gathered
    /// (nothing is written until the page is full, so no write can fail earlier).
    reader_gone: Option<fn() -> bool>,
    /// Lines wait for `flush` (the batch engine's, after each group of lookups
    /// printed) instead of going out one by one.
    defer_flush: bool,
}

impl<W: Write> Printer<W> {
    pub fn new(out: W, style: PrintStyle, kind: LookupKind) -> Printer<W> {
        let report = style
            .format
            .is_report()
            .then(|| Report::new(kind.record_kind(), style.waited));
        Printer {
            out,
            style,
            kind,
            rows: None,
            report,
            header_written: false,
            reader_gone: None,
            defer_flush: false,
        }
    }

    /// `probe` tells whether the reader of the output went away (`| head -1`).
    pub fn with_reader_probe(mut self, probe: fn() -> bool) -> Printer<W> {
        self.reader_gone = Some(probe);
        self
    }

    /// Lines are written out by `flush`, not one by one: for output that is not
    /// a terminal, where a batch's lines are read as they come but need not each
    /// cost a system call.
    pub fn deferring_flush(mut self, defer: bool) -> Printer<W> {
        self.defer_flush = defer;
        self
    }

    /// Writes out the lines printed so far (a table waits for its page).
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// `--follow`: a line as it happens (a record that changed, a failure), out at
    /// once.
    pub fn print_follow(&mut self, outcome: &Outcome) -> io::Result<()> {
        write_json_line(&mut self.out, &follow_json(outcome, self.style.normalize))?;
        self.out.flush()
    }

    pub fn print(&mut self, outcome: &Outcome) -> io::Result<()> {
        if let Some(report) = &mut self.report {
            report.add(outcome);
            // Nothing is written before the end: a reader gone away still stops the run.
            return match self.reader_gone.is_some_and(|gone| gone()) {
                true => Err(io::ErrorKind::BrokenPipe.into()),
                false => Ok(()),
            };
        }
        if let Some(name) = &self.style.field {
            let value = outcome.result.as_ref().ok().and_then(|r| value_of(r, name));
            writeln!(self.out, "{}", escape_control(&value.unwrap_or_default()))?;
            return self.line_done();
        }
        match self.style.format {
            OutputFormat::Json => self.json_line(outcome)?,
            // Folded into `self.report` above.
            OutputFormat::Report | OutputFormat::ReportJson | OutputFormat::ReportMarkdown => {}
            OutputFormat::Csv => self.delimited(outcome, Delimiter::Comma)?,
            OutputFormat::Tsv => self.delimited(outcome, Delimiter::Tab)?,
            OutputFormat::Table if self.style.single => self.record_view(outcome)?,
            OutputFormat::Table => {
                let kind = self.kind.record_kind();
                let rows = self.rows.get_or_insert_with(|| {
                    RowsTable::new(kind, &self.style.fields, self.style.table)
                        .without_header(self.style.no_headers)
                });
                rows.add(outcome);
                // Column widths need the rows, so a table waits for them; in pages,
                // memory stays bounded however long the input.
                if rows.len() >= TABLE_PAGE_ROWS {
                    self.flush_rows()?;
                } else if self.reader_gone.is_some_and(|gone| gone()) {
                    return Err(io::ErrorKind::BrokenPipe.into());
                }
            }
        }
        if self.style.format != OutputFormat::Table {
            self.line_done()?;
        }
        Ok(())
    }

    /// Scripts read line by line: a finished lookup's line does not wait in a
    /// buffer, unless the caller flushes groups of them (`deferring_flush`).
    fn line_done(&mut self) -> io::Result<()> {
        match self.defer_flush {
            true => Ok(()),
            false => self.out.flush(),
        }
    }

    fn json_line(&mut self, outcome: &Outcome) -> io::Result<()> {
        if !self.style.normalize && self.style.fields.is_empty() {
            // The answer as it came (most lines): written from the record itself.
            match &outcome.result {
                Ok(record) => return write_json_line(&mut self.out, &record.fields),
                Err(LookupError::Service { body, .. }) => {
                    return write_json_line(&mut self.out, &**body)
                }
                Err(_) => {}
            }
        }
        let value = outcome_json(outcome, self.style.normalize);
        let kind = self.kind.record_kind();
        let extra = |name: &str| match name {
            // Text, as --normalize has them: a query of digits keeps its zeros.
            "query" => Some(Value::String(outcome.query.clone())),
            "kind" => Some(Value::String(kind.name().into())),
            _ => {
                let record = outcome.result.as_ref().ok()?;
                let number = crate::output::derived::derived_number(record, name);
                number.map(number_or_text)
            }
        };
        let value = select_fields(value, &self.style.fields, self.style.normalize, extra);
        write_json_line(&mut self.out, &value)
    }

    /// One lookup's record as label and value rows, and a task's stacked bar.
    fn record_view(&mut self, outcome: &Outcome) -> io::Result<()> {
        let Ok(record) = &outcome.result else {
            return Ok(());
        };
        let table = record_table(record, &outcome.query, &self.style.fields, self.style.table);
        writeln!(self.out, "{table}")?;
        // The task bar sums the whole record: not shown when rows were picked.
        let TableStyle { utf8, color, .. } = self.style.table;
        let bar = crate::output::taskbar::task_bar(record, utf8, color);
        if let Some(bar) = bar.filter(|_| self.style.fields.is_empty()) {
            writeln!(self.out, "{bar}")?;
        }
        Ok(())
    }

    fn delimited(&mut self, outcome: &Outcome, delimiter: Delimiter) -> io::Result<()> {
        let columns = columns_for(self.kind.record_kind(), &self.style.fields);
        let cells = Cells {
            delimiter,
            raw: self.style.raw_cells,
        };
        if !self.header_written && !self.style.no_headers {
            delimited::write_header(&mut self.out, &columns, cells)?;
            self.header_written = true;
        }
        delimited::write_outcome(&mut self.out, outcome, &columns, cells)
    }

    fn flush_rows(&mut self) -> io::Result<()> {
        if let Some(rows) = self.rows.take() {
            writeln!(self.out, "{}", rows.render(self.style.table.width))?;
        }
        self.out.flush()
    }

    pub fn finish(&mut self) -> io::Result<()> {
        if let Some(report) = self.report.take() {
            let TableStyle {
                utf8, color, width, ..
            } = self.style.table;
            let look = Look { utf8, color };
            report.write(&mut self.out, self.style.format, look, width)?;
        }
        self.flush_rows()
    }
}

/// True when stdout is a pipe or socket whose other end is closed, found without
/// writing to it: a table page is held until it is full, and `| head -1` must still
/// stop the run at once.
#[cfg(unix)]
pub fn stdout_reader_gone() -> bool {
    use rustix::event::{poll, PollFd, PollFlags, Timespec};
    let stdout = std::io::stdout();
    let mut fds = [PollFd::new(&stdout, PollFlags::empty())];
    let now = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // POLLERR on a pipe whose reader closed, POLLHUP on a socket; always reported.
    poll(&mut fds, Some(&now))
        .is_ok_and(|_| fds[0].revents().intersects(PollFlags::ERR | PollFlags::HUP))
}

#[cfg(not(unix))]
pub fn stdout_reader_gone() -> bool {
    false
}
