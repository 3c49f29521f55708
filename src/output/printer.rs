//! Output: every byte smsstat writes to stdout goes through here.

use std::io::{self, Write};

use crate::domain::format::OutputFormat;
use crate::domain::lookup::LookupKind;
use crate::domain::outcome::Outcome;
use crate::domain::sanitize::escape_control;
use crate::output::delimited::{self, Cells, Delimiter};
use crate::output::derived::value_of;
use crate::output::json_lines::{follow_json, json_line, write_json_line};
use crate::output::prometheus::Metrics;
use crate::output::report::{Report, ReportForm};
use crate::output::rows_table::RowsTable;
use crate::output::table::{columns_for, record_table, TableStyle};

/// Rows per printed table in a batch: one page of a long run.
pub const TABLE_PAGE_ROWS: usize = 500;

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

/// One output format's writer: what it writes for each lookup (nothing, for a
/// document over the batch) and what it writes at the end.
trait Format: Send {
    fn lookup(&mut self, out: &mut dyn Write, outcome: &Outcome) -> io::Result<()>;
    fn finish(&mut self, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }
}

/// A format that writes each lookup as it comes, and nothing at the end.
impl<F: FnMut(&mut dyn Write, &Outcome) -> io::Result<()> + Send> Format for F {
    fn lookup(&mut self, out: &mut dyn Write, outcome: &Outcome) -> io::Result<()> {
        self(out, outcome)
    }
}

/// The writer of the chosen format: the one place a format becomes its code.
fn writer(style: &PrintStyle, kind: LookupKind) -> Box<dyn Format> {
    let kind = kind.record_kind();
    if let Some(name) = style.field.clone() {
        // `--field NAME`: the bare value, one line per lookup.
        return Box::new(move |out: &mut dyn Write, outcome: &Outcome| {
            let record = outcome.result.as_ref().ok();
            let value = record.and_then(|r| value_of(r, &name)).unwrap_or_default();
            writeln!(out, "{}", escape_control(&value))
        });
    }
    let delimited = |delimiter| -> Box<dyn Format> {
        let columns = columns_for(kind, &style.fields);
        let cells = Cells {
            delimiter,
            raw: style.raw_cells,
        };
        let mut header = !style.no_headers;
        Box::new(move |mut out: &mut dyn Write, outcome: &Outcome| {
            if std::mem::take(&mut header) {
                delimited::write_header(&mut out, &columns, cells)?;
            }
            delimited::write_outcome(&mut out, outcome, &columns, cells)
        })
    };
    let report = |form| -> Box<dyn Format> {
        Box::new(ReportDocument {
            report: Report::new(kind, style.waited),
            form,
            style: style.table,
        })
    };
    let style = style.clone();
    match style.format {
        OutputFormat::Table if style.single => {
            Box::new(move |out: &mut dyn Write, outcome: &Outcome| {
                record_view(out, outcome, &style)
            })
        }
        OutputFormat::Table => Box::new(RowsTable::new(
            kind,
            &style.fields,
            style.table,
            style.no_headers,
        )),
        OutputFormat::Json => Box::new(move |mut out: &mut dyn Write, outcome: &Outcome| {
            json_line(&mut out, outcome, &style.fields, style.normalize, kind)
        }),
        OutputFormat::Csv => delimited(Delimiter::Comma),
        OutputFormat::Tsv => delimited(Delimiter::Tab),
        OutputFormat::Report => report(ReportForm::Text),
        OutputFormat::ReportJson => report(ReportForm::Json),
        OutputFormat::ReportMarkdown => report(ReportForm::Markdown),
        OutputFormat::Prometheus => Box::new(Metrics::new()),
    }
}

/// Writes outcomes as they come, in the order given; a table waits for its page
/// (its column widths depend on every row), a report for `finish`.
pub struct Printer<W: Write> {
    out: W,
    format: Box<dyn Format>,
    /// Each lookup's line goes out when written (else a page or a document).
    streams: bool,
    /// Tells whether the reader went away, checked while a table page or a report
    /// is gathered (nothing is written then, so no write can fail earlier).
    reader_gone: Option<fn() -> bool>,
    /// Lines wait for `flush` (the batch engine's, after each group of lookups
    /// printed) instead of going out one by one.
    defer_flush: bool,
    /// `--normalize`, for `--follow`'s lines.
    normalize: bool,
}

impl<W: Write> Printer<W> {
    pub fn new(out: W, style: PrintStyle, kind: LookupKind) -> Printer<W> {
        Printer {
            out,
            format: writer(&style, kind),
            streams: style.field.is_some() || style.format.streams(),
            reader_gone: None,
            defer_flush: false,
            normalize: style.normalize,
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
        write_json_line(&mut self.out, &follow_json(outcome, self.normalize))?;
        self.out.flush()
    }

    pub fn print(&mut self, outcome: &Outcome) -> io::Result<()> {
        self.format.lookup(&mut self.out, outcome)?;
        if self.streams {
            // Scripts read line by line: a finished lookup's line does not wait in
            // a buffer, unless the caller flushes groups of them (`deferring_flush`).
            if !self.defer_flush {
                self.out.flush()?;
            }
        } else if self.reader_gone.is_some_and(|gone| gone()) {
            // Nothing may be written for a while: a reader gone away still stops the run.
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        Ok(())
    }

    pub fn finish(&mut self) -> io::Result<()> {
        self.format.finish(&mut self.out)?;
        self.out.flush()
    }
}

/// One value's record as label and value rows, and a task's stacked bar.
fn record_view(out: &mut dyn Write, outcome: &Outcome, style: &PrintStyle) -> io::Result<()> {
    let Ok(record) = &outcome.result else {
        return Ok(());
    };
    let table = record_table(record, &outcome.query, &style.fields, style.table);
    writeln!(out, "{table}")?;
    // The task bar sums the whole record: not shown when rows were picked.
    let TableStyle { utf8, color, .. } = style.table;
    let bar = crate::output::taskbar::task_bar(record, utf8, color);
    if let Some(bar) = bar.filter(|_| style.fields.is_empty()) {
        writeln!(out, "{bar}")?;
    }
    Ok(())
}

/// A batch as tables of rows, one per page: memory stays bounded however long the
/// input, and the column widths fit each page's rows.
impl Format for RowsTable {
    fn lookup(&mut self, out: &mut dyn Write, outcome: &Outcome) -> io::Result<()> {
        self.add(outcome);
        if self.len() < TABLE_PAGE_ROWS {
            return Ok(());
        }
        self.finish(out)?;
        out.flush()
    }

    fn finish(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.len() > 0 {
            writeln!(out, "{}", self.render())?;
        }
        Ok(())
    }
}

/// `-o report*`: the batch folded into one report, written at the end.
struct ReportDocument {
    report: Report,
    form: ReportForm,
    style: TableStyle,
}

impl Format for ReportDocument {
    fn lookup(&mut self, _: &mut dyn Write, outcome: &Outcome) -> io::Result<()> {
        self.report.add(outcome);
        Ok(())
    }

    fn finish(&mut self, out: &mut dyn Write) -> io::Result<()> {
        self.report.write(out, self.form, self.style)
    }
}

impl Format for Metrics {
    fn lookup(&mut self, _: &mut dyn Write, outcome: &Outcome) -> io::Result<()> {
        self.add(outcome);
        Ok(())
    }

    fn finish(&mut self, out: &mut dyn Write) -> io::Result<()> {
        self.write(out)
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
    // POLLERR on a pipe whose reader closed, POLLHUP on a socket; always reported.
    // A zero timeout: a look, no wait.
    poll(&mut fds, Some(&Timespec::default()))
        .is_ok_and(|_| fds[0].revents().intersects(PollFlags::ERR | PollFlags::HUP))
}

#[cfg(not(unix))]
pub fn stdout_reader_gone() -> bool {
    false
}
