//! CSV (RFC 4180) and TSV (PostgreSQL's text format): a header row of field names,
//! then one row per lookup; every value comes back to a reader (docs/formats.md).
//! Unless `--raw-cells`, formulas are neutralised (OWASP's advice against CSV
//! injection) and characters that act on a terminal are shown escaped.

use std::borrow::Cow;
use std::io::{self, Write};

use crate::domain::error::LookupError;
use crate::domain::outcome::Outcome;
use crate::domain::sanitize::{escape_control, is_unsafe};
use crate::output::derived::value_of;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delimiter {
    Comma,
    Tab,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cells {
    pub delimiter: Delimiter,
    /// `--raw-cells`: the values as sent, neither guard applied.
    pub raw: bool,
}

/// The header: the value looked up, the chosen fields, then the error code and text.
pub fn write_header(out: &mut impl Write, columns: &[String], cells: Cells) -> io::Result<()> {
    let header = [
        &["query".into()],
        columns,
        &["error".into(), "errorDescription".into()],
    ];
    write_row(out, &header.concat(), cells)
}

/// A lookup's row; a failure has the service's own code and text (as `--json`
/// shows them), or smsstat's exit code and message for local failures.
pub fn write_outcome(
    out: &mut impl Write,
    outcome: &Outcome,
    columns: &[String],
    cells: Cells,
) -> io::Result<()> {
    let mut row = vec![outcome.query.clone()];
    let record = outcome.result.as_ref().ok();
    let value = |c: &String| record.and_then(|r| value_of(r, c)).unwrap_or_default();
    row.extend(columns.iter().map(value));
    row.extend(match &outcome.result {
        Ok(_) => ["0".into(), String::new()],
        Err(
            error @ LookupError::Service {
                shown_code,
                description,
                ..
            },
        ) => {
            let text = description.clone().unwrap_or_else(|| error.to_string());
            [shown_code.clone(), text]
        }
        Err(local) => [local.exit_code().to_string(), local.to_string()],
    });
    write_row(out, &row, cells)
}

fn write_row(out: &mut impl Write, values: &[String], cells: Cells) -> io::Result<()> {
    let (separator, cell): (&str, fn(&str, bool) -> String) = match cells.delimiter {
        Delimiter::Comma => (",", csv_cell),
        Delimiter::Tab => ("\t", tsv_cell),
    };
    let line = values.iter().map(|v| {
        let v = if cells.raw { v.into() } else { neutralised(v) };
        cell(&v, cells.raw)
    });
    writeln!(out, "{}", line.collect::<Vec<_>>().join(separator))
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

/// RFC 4180: quoted when it holds a comma, a quote, a line break or edge spaces,
/// quotes doubled. Unless raw, the characters that act on a terminal are escaped
/// first (`\x1b`, `\u{202e}`), all but newline and tab, which are harmless there: a
/// CR would let a server write a fake status over the line.
fn csv_cell(text: &str, raw: bool) -> String {
    let mut value = String::with_capacity(text.len());
    for c in text.chars() {
        if raw || c == '\n' || c == '\t' {
            value.push(c);
        } else {
            value.push_str(&escape_control(c.encode_utf8(&mut [0; 4])));
        }
    }
    let needs_quotes =
        value.contains([',', '"', '\n', '\r']) || value.starts_with(' ') || value.ends_with(' ');
    if needs_quotes {
        format!("\"{}\"", value.replace('"', "\"\""))
    } else {
        value
    }
}

/// PostgreSQL's text format (COPY ... FORMAT text), so that a row is one line and
/// every value comes back. Unless raw, characters that act on a terminal are written
/// `\xHH` per UTF-8 byte, and so is a leading `"`, which quote-aware readers
/// (pandas, csvkit) would take for an opening quote.
fn tsv_cell(value: &str, raw: bool) -> String {
    let mut out = String::with_capacity(value.len());
    for (at, c) in value.char_indices() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if !raw && (is_unsafe(c) || (at == 0 && c == '"')) => {
                for byte in c.encode_utf8(&mut [0; 4]).bytes() {
                    out.push_str(&format!("\\x{byte:02x}"));
                }
            }
            c => out.push(c),
        }
    }
    out
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
            "'=1+1,'+cmd,'-2+3,'@SUM(A1),'\tx,'\\x0dx,-5,+3.20,-1e5,a=b\n"
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
            row(
                &["a", "b,c", "say \"hi\"", " x", "two\nlines"],
                Delimiter::Comma
            ),
            "a,\"b,c\",\"say \"\"hi\"\"\",\" x\",\"two\nlines\"\n"
        );
    }

    #[test]
    fn csv_escapes_what_acts_on_a_terminal_unless_raw() {
        let cells = ["\u{1b}[2J", "a\tb", "cr\r\n", "\\x0a"];
        assert_eq!(
            row(&cells, Delimiter::Comma),
            "\\x1b[2J,a\tb,\"cr\\x0d\n\",\\x0a\n"
        );
        assert_eq!(
            row_with(&cells, Delimiter::Comma, true),
            "\u{1b}[2J,a\tb,\"cr\r\n\",\\x0a\n"
        );
    }

    #[test]
    fn tsv_escapes_as_postgresql_text_format() {
        let cells = ["a\nb", "c\td", "\\x0a", "e\r", "\"q\"", "\u{1b}\u{202e}"];
        assert_eq!(
            row(&cells, Delimiter::Tab),
            "a\\nb\tc\\td\t\\\\x0a\te\\r\t\\x22q\"\t\\x1b\\xe2\\x80\\xae\n"
        );
        // Raw: only what cannot be framed otherwise.
        assert_eq!(
            row_with(&cells, Delimiter::Tab, true),
            "a\\nb\tc\\td\t\\\\x0a\te\\r\t\"q\"\t\u{1b}\u{202e}\n"
        );
    }
}
