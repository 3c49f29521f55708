//! `smsstat check`: is this setup able to work? Step by step, like `gh auth status`:
//! settings, name, connection, TLS, the key, latency, routes, proxy. A checklist on a
//! terminal, `--json` for scripts; exit 0 when a lookup could work, else the code of
//! the first failing step.

use serde_json::{json, Value};

use crate::domain::exit_codes;
use crate::domain::sanitize::escape_control;
use crate::http::redact::Scrubber;
use crate::output::json_lines::json_line_text;
use crate::output::wrap::hanging;
use crate::run::error::{print_document, Error};
use crate::settings::config::{self, Config, HttpSettings};
use crate::settings::given::Given;
use crate::settings::layers::Layers;
use crate::settings::origin::Origin;
use crate::sim::{self, SimOptions};
use httpcore::HttpServer;

mod cert;
mod der;
mod network;
mod service;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
enum State {
    Ok,
    Failed,
    /// Not applicable (TLS on http) or not reached after a failure.
    Skipped,
}

struct Step {
    name: &'static str,
    state: State,
    detail: String,
    code: u8,
}

fn step(name: &'static str, state: State, detail: impl Into<String>, code: u8) -> Step {
    Step {
        name,
        state,
        detail: detail.into(),
        code,
    }
}

fn ok(name: &'static str, detail: impl Into<String>) -> Step {
    step(name, State::Ok, detail, exit_codes::SUCCESS)
}

fn failed(name: &'static str, detail: impl Into<String>, code: u8) -> Step {
    step(name, State::Failed, detail, code)
}

fn skipped(name: &'static str, detail: &str) -> Step {
    step(name, State::Skipped, detail, exit_codes::SUCCESS)
}

struct Setup {
    http: HttpSettings,
    key_origin: Option<Origin>,
    color: bool,
}

pub fn run(mut args: Given) -> Result<u8, Error> {
    // `--json` is how this checklist prints, not the lookups' output setting.
    let json = std::mem::take(&mut args.json);
    let demo = args.demo.then(|| sim::start(SimOptions::default()));
    let demo = demo.transpose().map_err(Error::Demo)?;
    let (steps, color) = steps(&args, demo.as_ref());
    let text = if json {
        json_line_text(&as_json(&steps))
    } else {
        // Settings that cannot be resolved leave only the flag to say it.
        let color = color.unwrap_or_else(|| {
            let stdout_is_terminal = std::io::IsTerminal::is_terminal(&std::io::stdout());
            config::use_color(args.color.unwrap_or_default(), stdout_is_terminal)
        });
        let utf8 = config::locale_is_utf8();
        as_checklist(&steps, utf8, color, config::terminal_width())
    };
    print_document(text.as_bytes())?;
    Ok(first_failure(&steps))
}

fn first_failure(steps: &[Step]) -> u8 {
    let failed = steps.iter().find(|s| s.state == State::Failed);
    failed.map_or(exit_codes::SUCCESS, |s| s.code)
}

/// One line per step, its details broken at spaces to fit `width` (a path or URL
/// never split).
fn as_checklist(steps: &[Step], utf8: bool, color: bool, width: Option<usize>) -> String {
    let name_width = ALL_STEPS.iter().map(|s| s.len()).max().unwrap_or(0);
    // "{mark:>4} {name}  ": where the details start.
    let indent = 4 + 1 + name_width + 2;
    let mut out = String::new();
    for step in steps {
        let [mark, ascii, paint] = match step.state {
            State::Ok => ["✓", "ok", "\x1b[32m"],
            State::Failed => ["✗", "FAIL", "\x1b[31m"],
            State::Skipped => ["-", "--", ""],
        };
        let mark = if utf8 { mark } else { ascii };
        let detail = escape_control(&step.detail);
        let detail = width.map_or_else(|| detail.to_string(), |w| hanging(&detail, indent, w));
        // Padded before it is painted: the escapes take no room on the screen.
        let mark = match color && !paint.is_empty() {
            true => format!("{paint}{mark:>4}\x1b[0m"),
            false => format!("{mark:>4}"),
        };
        let lines = format!("{mark} {:name_width$}  {detail}\n", step.name);
        // A name whose details went to a line of their own keeps no trailing spaces.
        out.extend(lines.lines().map(|line| format!("{}\n", line.trim_end())));
    }
    out
}

fn as_json(steps: &[Step]) -> Value {
    let items: Vec<Value> = steps
        .iter()
        .map(|s| json!({"step": s.name, "status": s.state, "detail": s.detail, "exit": s.code}))
        .collect();
    let exit = first_failure(steps);
    json!({"ok": exit == exit_codes::SUCCESS, "exit": exit, "steps": items})
}

/// Every step, in order, and whether the resolved settings colour the checklist.
/// The proxy step is reported whenever the settings are known: a failure at the name
/// or connect step is often the proxy's doing.
fn steps(args: &Given, demo: Option<&HttpServer>) -> (Vec<Step>, Option<bool>) {
    let (setup, settings) = match settings_step(args, demo) {
        Ok((step, setup)) => (setup, step),
        Err(step) => return (with_rest_skipped(vec![step], None), None),
    };
    let mut proxy = network::proxy_step(&setup.http);
    let mut steps = vec![settings];
    steps.extend(network::name_and_connect(&setup.http));
    if steps.iter().all(|s| s.state != State::Failed) {
        steps.extend(service::service_steps(&setup, &mut proxy));
    }
    (with_rest_skipped(steps, Some(proxy)), Some(setup.color))
}

const ALL_STEPS: [&str; 8] = [
    "settings", "name", "connect", "tls", "key", "latency", "paths", "proxy",
];

fn with_rest_skipped(mut steps: Vec<Step>, proxy: Option<Step>) -> Vec<Step> {
    let not_checked = "not checked: an earlier step failed";
    for name in &ALL_STEPS[steps.len()..ALL_STEPS.len() - 1] {
        steps.push(skipped(name, not_checked));
    }
    steps.push(proxy.unwrap_or_else(|| skipped("proxy", not_checked)));
    steps
}

/// The settings as every command resolves them, refused as a lookup would refuse
/// them (the same exit code).
fn settings_step(args: &Given, demo: Option<&HttpServer>) -> Result<(Step, Setup), Step> {
    let demo_url = demo.map(HttpServer::base_url);
    let resolved = Layers::open(args).and_then(|mut layers| {
        let config = Config::resolve(&mut layers, args, demo_url, None)?;
        Ok((config, layers.rows))
    });
    let (config, rows) =
        resolved.map_err(|err| failed("settings", err.to_string(), err.exit_code()))?;
    let origin_of = |key: &str| rows.iter().find(|r| r.key == key).map(|r| r.origin.clone());
    let key_origin = config.http.api_key.as_ref().and(origin_of("api_key"));
    let key = match &key_origin {
        Some(origin) => format!("an API key ({origin})"),
        None => "no API key".into(),
    };
    let base_origin = origin_of("base_url").unwrap_or_default();
    // A key in the URL's path is scrubbed as `-v` scrubs it.
    let url = Scrubber::new(config.http.api_key.as_ref()).scrub(&config.http.base_url);
    let detail = format!("{url} ({base_origin}); {key}");
    let setup = Setup {
        http: config.http,
        key_origin,
        color: config.output.style.table.color,
    };
    Ok((ok("settings", detail), setup))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_failure_decides_the_exit_code() {
        let steps = vec![
            ok("settings", String::new()),
            failed("connect", String::new(), 69),
            failed("key", String::new(), 1),
        ];
        assert_eq!(first_failure(&steps), 69);
        assert_eq!(as_json(&steps)["ok"], false);
    }

    #[test]
    fn steps_not_reached_are_listed_before_the_proxy() {
        let steps = vec![
            ok("settings", String::new()),
            failed("name", String::new(), 69),
        ];
        let proxy = ok("proxy", String::new());
        let steps = with_rest_skipped(steps, Some(proxy));
        let names: Vec<&str> = steps.iter().map(|s| s.name).collect();
        assert_eq!(names, ALL_STEPS);
        assert_eq!(steps[6].state, State::Skipped);
        assert_eq!(steps[7].state, State::Ok);
    }
}
