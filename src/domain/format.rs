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

/// An option that shapes the records a format prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shaping {
    /// `--fields`: which columns or keys.
    Fields,
    /// `--no-headers`: no header line.
    NoHeaders,
    /// `--raw-cells`: cells as sent, formulas not neutralised.
    RawCells,
    /// `--normalize`: records in one shape whatever the server sent.
    Normalize,
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

    /// Whether `option` changes what this format prints (else it is a usage error).
    pub fn accepts(self, option: Shaping) -> bool {
        use OutputFormat::*;
        match option {
            Shaping::Fields => matches!(self, Table | Json | Csv | Tsv),
            Shaping::NoHeaders => matches!(self, Table | Csv | Tsv),
            Shaping::RawCells => matches!(self, Csv | Tsv),
            Shaping::Normalize => self == Json,
        }
    }

    /// Each lookup's line is written as soon as it is its turn (a table waits for
    /// its page, a report for the end).
    pub fn streams(self) -> bool {
        matches!(
            self,
            OutputFormat::Json | OutputFormat::Csv | OutputFormat::Tsv
        )
    }

    /// One JSON line per lookup (`--normalize` shapes them; no header to leave out).
    pub fn is_json_lines(self) -> bool {
        self == OutputFormat::Json
    }

    /// CSV or TSV: cells guarded against formulas (`--raw-cells`).
    pub fn is_delimited(self) -> bool {
        matches!(self, OutputFormat::Csv | OutputFormat::Tsv)
    }

    /// The service's error body is printed by JSON lines only; other formats need
    /// not hold it while the result waits its turn.
    pub fn keeps_error_body(self) -> bool {
        self == OutputFormat::Json
    }

    /// Fields outside the schema (a service's own extras, which may be large) are
    /// shown by JSON lines only (and the one-record view); rows, CSV, TSV and the
    /// reports read schema fields.
    pub fn keeps_extra_fields(self) -> bool {
        self == OutputFormat::Json
    }
}

/// `--color`: when tables are coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}
