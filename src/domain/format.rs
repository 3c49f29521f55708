//! The output formats a run can print, and what each one is: the settings' usage
//! checks, the workers and the printer ask here rather than naming formats.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OutputFormat {
    #[default]
    Table,
    Json,
    Csv,
    Tsv,
    /// One aggregate report over the whole batch, for a terminal.
    Report,
    /// The aggregate report as one JSON object, for scripts.
    ReportJson,
    /// The aggregate report as GitHub-flavoured Markdown, for CI job summaries.
    ReportMarkdown,
    /// The batch as Prometheus metrics (text exposition format 0.0.4).
    Prometheus,
}

impl OutputFormat {
    /// `--json`, and what `--follow` prints: JSON lines.
    pub fn json() -> OutputFormat {
        OutputFormat::Json
    }

    /// One document over the whole batch, written at the end, rather than a line or
    /// row per lookup: the reports and the metrics.
    pub fn is_report(self) -> bool {
        use OutputFormat::*;
        matches!(self, Report | ReportJson | ReportMarkdown | Prometheus)
    }

    /// Each lookup's line is written as soon as it is its turn (a table waits for
    /// its page, a report for the end).
    pub fn streams(self) -> bool {
        self.is_json_lines() || self.is_delimited()
    }

    /// One JSON line per lookup: the only format that prints the service's error body
    /// and fields outside the schema, so the others need not hold them while a result
    /// waits its turn.
    pub fn is_json_lines(self) -> bool {
        self == OutputFormat::Json
    }

    /// CSV or TSV: cells guarded against formulas (`--raw-cells`).
    pub fn is_delimited(self) -> bool {
        matches!(self, OutputFormat::Csv | OutputFormat::Tsv)
    }
}

/// How records are printed: resolved with the settings, `single` set by the run.
#[derive(Debug, Clone, Default)]
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

/// How tables look; decided once from the `Config`.
#[derive(Debug, Clone, Copy, Default)]
pub struct TableStyle {
    pub color: bool,
    pub utf8: bool,
    /// Columns of the terminal the row table is fitted to; None for a pipe or file.
    pub width: Option<usize>,
}

/// `--color`: when tables are coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}
