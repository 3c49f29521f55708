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
}

/// `--color`: when tables are coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}
