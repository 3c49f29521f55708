//! `smsstat config show`: every resolved setting, its value and where it came from,
//! the key masked. Ends with exit 78 when the settings could not run a lookup, so it
//! doubles as a check in scripts.

use serde_json::{json, Map, Value};
use unicode_width::UnicodeWidthStr;

use crate::domain::error::SettingsError;
use crate::domain::exit_codes;
use crate::domain::sanitize::escape_control;
use crate::http::redact::Scrubber;
use crate::output::json_lines::json_line_text;
use crate::output::messages::warn;
use crate::output::wrap::hanging;
use crate::run::error::{print_document, Error};
use crate::settings::config::{terminal_width, Config};
use crate::settings::given::{Given, KEYS};
use crate::settings::layers::{Layers, ShowRow};

pub fn run(mut args: Given) -> Result<u8, Error> {
    // `--json` is how this listing prints, not the lookups' output setting.
    let json = std::mem::take(&mut args.json);
    let mut layers = Layers::open(&args)?;
    // With --demo a lookup would start the simulator on a free port: any loopback
    // address stands for it in the check.
    let demo = args.demo.then(|| "http://127.0.0.1".to_string());
    let problem = match Config::resolve(&mut layers, &args, demo, None) {
        Ok(config) => {
            // A key in the URL's path is scrubbed as `-v` scrubs it.
            let scrubber = Scrubber::new(config.http.api_key.as_ref());
            for row in layers.rows.iter_mut().filter(|r| r.key == "base_url") {
                row.value = scrubber.scrub(&row.value).into_owned();
            }
            None
        }
        // A bad value is told as any command tells it. A setting that cannot be used
        // (no base URL, an unreadable CA file) comes after the listing of them all.
        Err(problem) if layers.rows.len() == KEYS.len() => Some(problem),
        Err(err) => return Err(err.into()),
    };
    layers.warnings.iter().for_each(warn);
    let mut rows = layers.rows;
    rows.sort_by_key(|row| KEYS.iter().position(|k| *k == row.key));
    let text = if json {
        json_line_text(&as_json(&rows, problem.as_ref()))
    } else {
        render(&rows, terminal_width())
    };
    print_document(text.as_bytes())?;
    problem.map_or(Ok(exit_codes::SUCCESS), |problem| Err(problem.into()))
}

/// `config show --json`: `problem` says why a lookup could not run.
fn as_json(rows: &[ShowRow], problem: Option<&SettingsError>) -> Value {
    let entry = |row: &ShowRow| json!({"value": row.value, "from": row.origin.to_string()});
    let settings = rows.iter().map(|row| (row.key.to_string(), entry(row)));
    let settings: Map<String, Value> = settings.collect();
    let problem = problem.map(ToString::to_string);
    json!({"ok": problem.is_none(), "problem": problem, "settings": settings})
}

/// Three aligned columns, values escaped like every other output. When that is
/// wider than `width`, value and origin go under each other, broken at spaces (a
/// path is never split).
fn render(rows: &[ShowRow], width: Option<usize>) -> String {
    let rows: Vec<[String; 3]> = rows
        .iter()
        .map(|row| {
            // The file's own row reads as what it is, not as the flag's name.
            let name = match row.key {
                "config" => "config file",
                key => key,
            };
            let from = row.origin.to_string();
            [name, &row.value, &from].map(|text| escape_control(text).into_owned())
        })
        .collect();
    let [name_width, value_width, from_width] =
        std::array::from_fn(|i| rows.iter().map(|r| r[i].width()).max().unwrap_or(0));
    let table_width = name_width + 2 + value_width.max(5) + 2 + from_width.max(4);
    match width {
        Some(width) if table_width > width => stacked(&rows, name_width, width),
        _ => table(&rows, name_width, value_width),
    }
}

fn table(rows: &[[String; 3]], name_width: usize, value_width: usize) -> String {
    let pad = |text: &str, to: usize| " ".repeat(to.saturating_sub(text.width()));
    let header = ["SETTING", "VALUE", "FROM"].map(String::from);
    let lines = std::iter::once(&header).chain(rows);
    lines
        .map(|[name, value, from]| {
            let (name_pad, value_pad) = (pad(name, name_width), pad(value, value_width));
            format!("{name}{name_pad}  {value}{value_pad}  {from}\n")
        })
        .collect()
}

fn stacked(rows: &[[String; 3]], name_width: usize, width: usize) -> String {
    let indent = name_width + 2;
    let mut out = format!("{:indent$}VALUE, FROM\n", "SETTING");
    for [name, value, from] in rows {
        let value = hanging(value, indent, width);
        let from = hanging(&format!("from {from}"), indent, width);
        let lines = format!("{name:indent$}{value}\n{:indent$}{from}\n", "");
        // A name whose value went to a line of its own keeps no trailing spaces.
        out.extend(lines.lines().map(|line| format!("{}\n", line.trim_end())));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::origin::Origin;

    #[test]
    fn columns_are_aligned() {
        let row = |key, value: &str, origin| ShowRow {
            key,
            value: value.into(),
            origin,
        };
        let text = render(
            &[
                row("a", "1", Origin::Default),
                row("long name", "value", Origin::Flag("--x".into())),
            ],
            Some(80),
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "SETTING    VALUE  FROM");
        assert_eq!(lines[1], "a          1      default");
        assert_eq!(lines[2], "long name  value  flag --x");
    }
}
