//! CSV and TSV: a header row of field names, then one row per lookup.
//!
//! A cell that starts with `=`, `+`, `-`, `@`, tab or CR and is not a number is
//! prefixed with `'` (OWASP's advice against CSV injection): a spreadsheet opening
//! the file would otherwise run a server's text as a formula. `--raw-cells` turns
//! this off for pipelines that want the values as sent.

use std::borrow::Cow;
use std::io::{self, Write};

use crate::domain::error::LookupError;
use crate::domain::outcome::Outcome;
use crate::domain::sanitize::escape_control;
use crate::output::derived::value_of;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delimiter {
    Comma,
    Tab,
}

/// How cells are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cells {
    pub delimiter: Delimiter,
    /// `--raw-cells`: formulas not neutralised.
    pub raw: bool,
}

/// The header: the value looked up, the chosen fields, then the error code and text.
pub fn write_header(out: &mut impl Write, columns: &[String], cells: Cells) -> io::Result<()> {
    let mut header = vec!["query".to_string()];
    header.extend(columns.iter().cloned());
    header.push("error".into());
    header.push("errorDescription".into());
    write_row(out, &header, cells)
}

pub fn write_outcome(
    out: &mut impl Write,
    outcome: &Outcome,
    columns: &[String],
    cells: Cells,
) -> io::Result<()> {
    let mut row = vec![outcome.query.clone()];
    match &outcome.result {
        Ok(record) => {
            row.extend(
                columns
                    .iter()
                    .map(|c| value_of(record, c).unwrap_or_default()),
            );
            row.push("0".into());
            row.push(String::new());
        }
        Err(error) => {
            row.extend(columns.iter().map(|_| String::new()));
            row.push(error_code(error));
            row.push(error_text(error));
        }
    }
    write_row(out, &row, cells)
}

/// The service's own text for service errors (as `--json` shows it), smsstat's
/// message for local failures.
fn error_text(error: &LookupError) -> String {
    match error {
        LookupError::Service {
            description: Some(text),
            ..
        } => text.clone(),
        other => other.to_string(),
    }
}

/// The service's own code for service errors, smsstat's exit code for local failures.
fn error_code(error: &LookupError) -> String {
    match error {
        LookupError::Service { shown_code, .. } => shown_code.clone(),
        local => local.exit_code().to_string(),
    }
}

fn write_row(out: &mut impl Write, values: &[String], cells: Cells) -> io::Result<()> {
    let (separator, quote): (&str, fn(&str) -> String) = match cells.delimiter {
        Delimiter::Comma => (",", csv_field),
        // TSV cannot quote: tabs and newlines are already escaped as \x09, \x0a.
        Delimiter::Tab => ("\t", |v| v.to_string()),
    };
    let line: Vec<String> = values
        .iter()
        .map(|v| {
            let v = if cells.raw { v.into() } else { neutralised(v) };
            quote(&escape_control(&v))
        })
        .collect();
    writeln!(out, "{}", line.join(separator))
}

/// The cell with `'` in front when a spreadsheet would read it as a formula.
fn neutralised(value: &str) -> Cow<'_, str> {
    let risky = value.starts_with(['=', '+', '-', '@', '\t', '\r']);
    if risky && !is_plain_number(value) {
        Cow::Owned(format!("'{value}"))
    } else {
        Cow::Borrowed(value)
    }
}

/// `-5`, `+3.20`, `-1e5`: a signed number a spreadsheet reads as the same number.
fn is_plain_number(value: &str) -> bool {
    let unsigned = value.strip_prefix(['+', '-']).unwrap_or(value);
    let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e.strip_prefix(['+', '-']).unwrap_or(e))),
        None => (unsigned, None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    !whole.is_empty()
        && digits(whole)
        && digits(fraction)
        && exponent.is_none_or(|e| !e.is_empty() && digits(e))
}

/// RFC 4180 quoting: quoted when it holds a comma, a quote or edge spaces.
fn csv_field(value: &str) -> String {
    let needs_quotes = value.contains([',', '"']) || value.starts_with(' ') || value.ends_with(' ');
    if needs_quotes {
        format!("\"{}\"", value.replace('"', "\"\""))
    } else {
        value.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(values: &[&str], delimiter: Delimiter) -> String {
        row_with(values, delimiter, false)
    }

    fn row_with(values: &[&str], delimiter: Delimiter, raw: bool) -> String {
        let values: Vec<String> = values.iter().map(|s| s.to_string()).collect();
        let mut out = Vec::new();
        write_row(&mut out, &values, Cells { delimiter, raw }).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn formulas_are_neutralised_unless_raw() {
        let cells = [
            "=1+1", "+cmd", "-2+3", "@SUM(A1)", "\tx", "\rx", "-5", "+3.20", "-1e5", "a=b",
        ];
        assert_eq!(
            row(&cells, Delimiter::Comma),
            "'=1+1,'+cmd,'-2+3,'@SUM(A1),'\\x09x,'\\x0dx,-5,+3.20,-1e5,a=b\n"
        );
        assert_eq!(
            row(&["=HYPERLINK(\"x\")", "-"], Delimiter::Tab),
            "'=HYPERLINK(\"x\")\t'-\n"
        );
        assert_eq!(
            row_with(&["=1+1", "-x"], Delimiter::Comma, true),
            "=1+1,-x\n"
        );
    }

    #[test]
    fn csv_quotes_what_needs_it() {
        assert_eq!(
            row(&["a", "b,c", "say \"hi\"", " x"], Delimiter::Comma),
            "a,\"b,c\",\"say \"\"hi\"\"\",\" x\"\n"
        );
    }

    #[test]
    fn control_characters_are_escaped_in_both() {
        assert_eq!(row(&["a\nb", "c\td"], Delimiter::Tab), "a\\x0ab\tc\\x09d\n");
        assert_eq!(row(&["\u{1b}[2J"], Delimiter::Comma), "\\x1b[2J\n");
    }
}
