//! The output formats a run can print.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
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
}

impl OutputFormat {
    /// One report for the whole batch rather than a line or row per lookup.
    pub fn is_report(self) -> bool {
        matches!(
            self,
            OutputFormat::Report | OutputFormat::ReportJson | OutputFormat::ReportMarkdown
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
}

/// `--color`: when tables are coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}
