//! Everything written for people and scripts: tables, JSON, CSV/TSV, progress and
//! live view, summaries. Writes to the `impl Write` it is handed.

pub(crate) mod delimited;
pub(crate) mod derived;
pub(crate) mod json_lines;
pub(crate) mod junit_xml;
pub(crate) mod messages;
pub(crate) mod printer;
pub(crate) mod progress;
pub(crate) mod prometheus;
pub(crate) mod report;
pub(crate) mod rows_table;
pub(crate) mod summary;
pub(crate) mod table;
pub(crate) mod taskbar;
pub(crate) mod term;
pub(crate) mod wrap;
