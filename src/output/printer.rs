//! Output: every byte smsstat writes to stdout goes through here.

use std::io::{self, IsTerminal, Write};

use crate::domain::format::{OutputFormat, PrintStyle};
use crate::domain::lookup::LookupKind;
use crate::domain::outcome::Outcome;
use crate::domain::sanitize::escape_control;
use crate::output::delimited::{self, Cells, Delimiter};
use crate::output::derived::value_of;
use crate::output::json_lines::{follow_json, json_line, write_json_line};
use crate::output::prometheus::Metrics;
use crate::output::report::{Report, ReportForm};
use crate::output::rows_table::RowsTable;
use crate::output::table::{columns_for, record_table};

/// Rows per printed table in a batch: one page of a long run.
pub const TABLE_PAGE_ROWS: usize = 500;

/// The chosen format's writer: what it keeps between lookups.
enum Format {
    /// `--field NAME`: the bare value, one line per lookup.
    Field,
    /// One value given: its record as label and value rows.
    Record,
    /// A batch as tables of rows, one per page: memory stays bounded however long
    /// the input, and the column widths fit each page's rows.
    Rows(RowsTable),
    Json,
    Delimited {
        columns: Vec<String>,
        cells: Cells,
        header: bool,
    },
    /// `-o report*`: the batch folded into one report, written at the end.
    Report(Box<Report>, ReportForm),
    Metrics(Metrics),
}

/// Writes outcomes as they come, in the order given; a table waits for its page
/// (its column widths depend on every row), a report for `finish`.
pub struct Printer<W: Write> {
    out: W,
    format: Format,
    style: PrintStyle,
    /// Writes to stdout, whose reader going away is checked for while a table page
    /// or a report is gathered (nothing is written then, so no write can fail earlier).
    stdout: bool,
    /// Lines wait for `flush` (the batch engine's, after each group of lookups
    /// printed) instead of going out one by one.
    defer_flush: bool,
}

impl<W: Write> Printer<W> {
    pub fn new(out: W, style: PrintStyle, kind: LookupKind) -> Printer<W> {
        let kind = kind.record_kind();
        let delimited = |delimiter| Format::Delimited {
            columns: columns_for(kind, &style.fields),
            cells: Cells {
                delimiter,
                raw: style.raw_cells,
            },
            header: !style.no_headers,
        };
        let report = |form| Format::Report(Box::new(Report::new(kind, style.waited)), form);
        let format = match style.format {
            _ if style.field.is_some() => Format::Field,
            OutputFormat::Table if style.single => Format::Record,
            OutputFormat::Table => Format::Rows(RowsTable::new(kind, &style)),
            OutputFormat::Json => Format::Json,
            OutputFormat::Csv => delimited(Delimiter::Comma),
            OutputFormat::Tsv => delimited(Delimiter::Tab),
            OutputFormat::Report => report(ReportForm::Text),
            OutputFormat::ReportJson => report(ReportForm::Json),
            OutputFormat::ReportMarkdown => report(ReportForm::Markdown),
            OutputFormat::Prometheus => Format::Metrics(Metrics::new()),
        };
        Printer {
            out,
            format,
            style,
            stdout: false,
            defer_flush: false,
        }
    }

    /// Writes out the lines printed so far (a table waits for its page).
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// `--follow`: a line as it happens (a record that changed, a failure), out at once.
    pub fn print_follow(&mut self, outcome: &Outcome) -> io::Result<()> {
        let line = follow_json(outcome, self.style.normalize);
        write_json_line(&mut self.out, &line)?;
        self.out.flush()
    }

    pub fn print(&mut self, outcome: &Outcome) -> io::Result<()> {
        let (out, style) = (&mut self.out, &self.style);
        let record = outcome.result.as_ref().ok();
        match &mut self.format {
            Format::Field => {
                let name = style.field.as_deref().unwrap_or_default();
                let value = record.and_then(|r| value_of(r, name)).unwrap_or_default();
                writeln!(out, "{}", escape_control(&value))?;
            }
            Format::Record => record_view(out, outcome, style)?,
            Format::Rows(table) => {
                table.add(outcome);
                if table.len() >= TABLE_PAGE_ROWS {
                    writeln!(out, "{}", table.render())?;
                    out.flush()?;
                }
            }
            Format::Json => json_line(out, outcome, &style.fields, style.normalize)?,
            Format::Delimited {
                columns,
                cells,
                header,
            } => {
                if std::mem::take(header) {
                    delimited::write_header(out, columns, *cells)?;
                }
                delimited::write_outcome(out, outcome, columns, *cells)?;
            }
            Format::Report(report, _) => report.add(outcome),
            Format::Metrics(metrics) => metrics.add(outcome),
        }
        if self.style.field.is_some() || self.style.format.streams() {
            // Scripts read line by line: a finished lookup's line does not wait in
            // a buffer, unless the caller flushes groups of them (`Printer::stdout`).
            if !self.defer_flush {
                self.out.flush()?;
            }
        } else if self.stdout && stdout_reader_gone() {
            // Nothing may be written for a while: a reader gone away still stops the run.
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        Ok(())
    }

    pub fn finish(&mut self) -> io::Result<()> {
        let (out, style) = (&mut self.out, self.style.table);
        match &mut self.format {
            Format::Rows(table) if table.len() > 0 => writeln!(out, "{}", table.render())?,
            Format::Report(report, form) => write!(out, "{}", report.text(*form, style))?,
            Format::Metrics(metrics) => metrics.write(out)?,
            _ => {}
        }
        self.out.flush()
    }
}

impl Printer<io::BufWriter<io::Stdout>> {
    /// The run's printer. When stdout is not a terminal, lines go out at `flush`, not
    /// one by one: a batch's lines need not each cost a system call.
    pub fn stdout(style: PrintStyle, kind: LookupKind) -> Self {
        let mut printer = Printer::new(io::BufWriter::new(io::stdout()), style, kind);
        printer.stdout = true;
        printer.defer_flush = !io::stdout().is_terminal();
        printer
    }
}

/// One value's record as label and value rows, and a task's stacked bar.
fn record_view(out: &mut impl Write, outcome: &Outcome, style: &PrintStyle) -> io::Result<()> {
    let Ok(record) = &outcome.result else {
        return Ok(());
    };
    let table = record_table(record, &outcome.query, &style.fields, style.table);
    writeln!(out, "{table}")?;
    // The task bar sums the whole record: not shown when rows were picked.
    let bar = crate::output::taskbar::task_bar(record, style.table.utf8, style.table.color);
    if let Some(bar) = bar.filter(|_| style.fields.is_empty()) {
        writeln!(out, "{bar}")?;
    }
    Ok(())
}

/// True when stdout is a pipe or socket whose other end is closed, found without
/// writing to it: a table page is held until it is full, and `| head -1` must still
/// stop the run at once.
fn stdout_reader_gone() -> bool {
    use rustix::event::{poll, PollFd, PollFlags, Timespec};
    let stdout = std::io::stdout();
    let mut fds = [PollFd::new(&stdout, PollFlags::empty())];
    // POLLERR on a pipe whose reader closed, POLLHUP on a socket; always reported.
    // A zero timeout: a look, no wait.
    poll(&mut fds, Some(&Timespec::default()))
        .is_ok_and(|_| fds[0].revents().intersects(PollFlags::ERR | PollFlags::HUP))
}
