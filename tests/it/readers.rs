//! What other programs read back from `-o csv` and `-o tsv` (docs/formats.md):
//! Python's csv module gets every value of the CSV, and TSV's escapes, undone as
//! PostgreSQL's text format undoes them, give every value back. Through the built
//! binary, against a server whose values no delimited format carries plainly.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common::process::run_at;
use crate::common::{answering, TestServer};
use serde_json::{json, Value};

/// Each one a different way for a cell to break or to be misread.
const VALUES: [&str; 14] = [
    "two\nlines",
    "windows\r\nline",
    "a literal \\x0a, not a newline",
    "back\\slash\\",
    "tab\there",
    "\"quoted\" at the start",
    "comma, \"quote\" inside",
    " edge spaces ",
    "=1+2",
    "esc \u{1b}[2J and \u{202e}bidi",
    "",
    "plain",
    "'",
    "ünïcødé ✓",
];

/// An HLR record whose `details` hold the values as v0, v1, ...
fn server() -> TestServer {
    let details: serde_json::Map<String, Value> = VALUES
        .iter()
        .enumerate()
        .map(|(i, v)| (format!("v{i}"), json!(v)))
        .collect();
    answering(&json!({"status": "active", "details": details}).to_string())
}

/// `-o FORMAT --fields details.v0,...` for one lookup, header included.
fn run(server: &TestServer, format: &str, raw: bool) -> String {
    let fields: Vec<String> = (0..VALUES.len()).map(|i| format!("details.v{i}")).collect();
    let fields = fields.join(",");
    let mut args = vec!["-o", format, "--fields", &fields, "hlr", "1"];
    if raw {
        args.insert(0, "--raw-cells");
    }
    run_at(&server.base, &args).assert_code(0).stdout
}

/// The row the binary should give back for VALUES, after the header.
fn expected(values: &[String]) -> Vec<Vec<String>> {
    let mut header = vec!["query".to_string()];
    header.extend((0..VALUES.len()).map(|i| format!("details.v{i}")));
    header.extend(["error".into(), "errorDescription".into()]);
    let mut row = vec!["1".to_string()];
    row.extend(values.iter().cloned());
    row.extend(["0".into(), String::new()]);
    vec![header, row]
}

/// The rows Python's csv module reads from `text`; None, saying so, without python3.
fn python_csv_rows(text: &str) -> Option<Vec<Vec<String>>> {
    // newline='': the csv module's own rule, so that CR inside a quoted cell stays.
    let script = "import csv, io, json, sys\n\
                  rows = csv.reader(io.TextIOWrapper(sys.stdin.buffer, encoding='utf-8', newline=''))\n\
                  json.dump(list(rows), sys.stdout)";
    let child = Command::new("python3")
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) => {
            eprintln!("python3 cannot be run ({e}): the CSV is not read back by Python's csv");
            return None;
        }
    };
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "python3 failed");
    Some(serde_json::from_slice(&out.stdout).unwrap())
}

#[test]
fn python_reads_every_raw_csv_value_back() {
    let server = server();
    let csv = run(&server, "csv", true);
    let Some(rows) = python_csv_rows(&csv) else {
        return;
    };
    let values: Vec<String> = VALUES.iter().map(|v| v.to_string()).collect();
    assert_eq!(rows, expected(&values), "{csv}");
}

/// Without --raw-cells, a value differs only by the two documented guards: the `'`
/// before a formula, and the characters that act on a terminal (not newline or tab)
/// shown escaped.
#[test]
fn python_reads_csv_values_back_but_for_the_documented_guards() {
    let server = server();
    let csv = run(&server, "csv", false);
    let Some(rows) = python_csv_rows(&csv) else {
        return;
    };
    let values: Vec<String> = VALUES
        .iter()
        .map(|v| match *v {
            "windows\r\nline" => "windows\\x0d\nline".to_string(),
            "=1+2" => "'=1+2".to_string(),
            "esc \u{1b}[2J and \u{202e}bidi" => "esc \\x1b[2J and \\u{202e}bidi".to_string(),
            v => v.to_string(),
        })
        .collect();
    assert_eq!(rows, expected(&values), "{csv}");
}

/// A TSV cell as PostgreSQL's COPY (FORMAT text) reads it: `\\`, `\t`, `\n`, `\r`,
/// and `\xHH` as one byte.
fn unescape_tsv(cell: &str) -> String {
    let mut bytes = Vec::new();
    let mut rest = cell.as_bytes();
    while let Some((&first, tail)) = rest.split_first() {
        rest = tail;
        if first != b'\\' {
            bytes.push(first);
            continue;
        }
        let (&kind, tail) = rest.split_first().expect("a lone backslash ends the cell");
        rest = tail;
        match kind {
            b'n' => bytes.push(b'\n'),
            b't' => bytes.push(b'\t'),
            b'r' => bytes.push(b'\r'),
            b'\\' => bytes.push(b'\\'),
            b'x' => {
                let hex = std::str::from_utf8(&rest[..2]).unwrap();
                bytes.push(u8::from_str_radix(hex, 16).unwrap());
                rest = &rest[2..];
            }
            other => panic!("unknown escape \\{} in {cell:?}", other as char),
        }
    }
    String::from_utf8(bytes).unwrap()
}

fn tsv_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .map(|line| line.split('\t').map(unescape_tsv).collect())
        .collect()
}

#[test]
fn tsv_escapes_undo_to_every_value() {
    let server = server();
    for raw in [false, true] {
        let tsv = run(&server, "tsv", raw);
        // One line per row: nothing in a value breaks a line or a cell.
        assert_eq!(tsv.lines().count(), 2, "{tsv}");
        let values: Vec<String> = VALUES
            .iter()
            .map(|v| match *v {
                "=1+2" if !raw => "'=1+2".to_string(),
                v => v.to_string(),
            })
            .collect();
        assert_eq!(tsv_rows(&tsv), expected(&values), "raw: {raw}\n{tsv}");
        // Not raw: no cell starts with a quote that quote-aware readers would take
        // for an opening one, and nothing acts on a terminal.
        if !raw {
            assert!(!tsv.contains("\t\""), "{tsv}");
            assert!(!tsv.contains(['\u{1b}', '\u{202e}', '\r']), "{tsv}");
        }
    }
}
