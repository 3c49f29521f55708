//! The built-in simulator: a real HTTP server implementing the whole status API on
//! loopback, for `--demo`, `smsstat sim`, CI scripts and tests; what it answers is
//! in docs/simulator.md. An ID answers the same on every run and machine (`data`),
//! except for its progress: each record reaches its final state at its own moment
//! within `settle` after start. The answers' order of precedence: `server`.

pub(crate) mod data;
pub(crate) mod hlr;
mod networks;
mod prng;
pub(crate) mod routes;
mod server;

use std::io::{self, Write};
use std::net::SocketAddr;
use std::time::Duration;

use clap::ValueEnum;
use serde_json::{Map, Value};

use crate::domain::sanitize::escape_control;

use crate::domain::record::RecordKind::{self, Hlr, Sms, Task};
use data::Shape;

/// Which variant of the service the simulator answers like (docs/variants.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum Variant {
    /// The spec and the field notes' classic service
    #[default]
    Spec,
    /// The vendor's v1 API (OpenAPI document, 2025)
    V1,
}

/// The error codes of lookups that find nothing (`RecordKind::not_found_in`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum Codes {
    /// The spec's 10, 20, 30
    #[default]
    Spec,
    /// The vendor's 60, 65, 20, 29, 30
    Vendor,
}

/// How often the simulator applies one of the field notes' oddities.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum Oddity {
    /// Per record, decided by its ID (the default: realistic variety)
    #[default]
    Mixed,
    /// On every record
    Always,
    /// On no record
    Never,
}

pub use server::{start, API_KEY_HEADER};

/// The record for an existing ID (see `data::parse_id`), of any kind, as the
/// simulator with options `sim` answers it.
pub fn record(kind: RecordKind, id: u64, progress: f64, sim: &SimOptions) -> Map<String, Value> {
    let shape = Shape::new(sim, kind, id);
    match kind {
        Sms => data::sms(id, progress >= 1.0, &shape),
        Task => data::task(id, progress.clamp(0.0, 1.0), &shape),
        Hlr => hlr::hlr(id, progress >= 1.0, &shape),
    }
}

pub const LISTENING_PREFIX: &str = "smsstat sim listening on ";

/// Everything the simulator needs, the record shapes with it: `smsstat sim`'s flags
/// (`SimArgs` says what each does, and clap checks them), or the default: `--demo`'s,
/// on an ephemeral loopback port with records final at once.
#[derive(Debug, Clone, Default)]
pub struct SimOptions {
    /// None: an ephemeral port on 127.0.0.1.
    pub listen: Option<SocketAddr>,
    pub settle: Duration,
    pub api_key: Option<String>,
    pub latency: Duration,
    pub fail_rate: f64,
    pub seed: u64,
    pub string_numbers: Oddity,
    pub omit_error: Oddity,
    pub extra_fields: Oddity,
    pub no_errors_text: Oddity,
    pub errors_with_200: bool,
    pub rate_limit: Option<u32>,
    pub task_v1: bool,
    /// The variant answered like; `with_variant` sets it with its defaults.
    pub variant: Variant,
    pub codes: Codes,
    /// Each request told on stderr (`smsstat sim`; not `--demo`, nor -q).
    pub log: bool,
}

impl SimOptions {
    /// Spec-shaped records: numbers as numbers, error present, no extra fields.
    #[cfg(test)]
    pub fn plain() -> Self {
        SimOptions {
            string_numbers: Oddity::Never,
            omit_error: Oddity::Never,
            extra_fields: Oddity::Never,
            no_errors_text: Oddity::Never,
            ..SimOptions::default()
        }
    }

    /// The variant with what its documents say (docs/variants.md; v1: "API always
    /// returns HTTP 200"). The spec's variant leaves every setting as it is.
    pub fn with_variant(self, variant: Variant) -> Self {
        match variant {
            Variant::Spec => SimOptions { variant, ..self },
            Variant::V1 => SimOptions {
                variant,
                string_numbers: Oddity::Never,
                omit_error: Oddity::Never,
                no_errors_text: Oddity::Always,
                task_v1: true,
                codes: Codes::Vendor,
                errors_with_200: true,
                ..self
            },
        }
    }
}

/// `smsstat sim`: serves in the foreground until the process is ended. The first
/// line on stdout is `LISTENING_PREFIX` and the base URL, for scripts to parse.
pub fn serve(options: SimOptions) -> io::Result<()> {
    let key = options.api_key.clone();
    let server = start(options)?;
    if !server.addr().ip().is_loopback() {
        eprintln!(
            "smsstat: warning: sim listening on {}, reachable from other machines; \
             the simulator is meant for loopback",
            server.addr()
        );
    }
    let url = server.base_url();
    let try_line = try_line(&url, key.as_deref());
    let banner = format!("{LISTENING_PREFIX}{url}\n{try_line}\n");
    // One write, and its failure ignored: a script that reads the first line and
    // closes the pipe (`smsstat sim | head -1`) must not stop the server.
    let mut out = io::stdout();
    let _ = out.write_all(banner.as_bytes()).and_then(|()| out.flush());
    server.wait();
    Ok(())
}

/// A command to paste as is, at most 80 columns when it can be: with the key the
/// simulator was started with (its own test key, typed on its command line; the
/// lookups' exported key never reaches it), which moves to a line of its own when
/// the whole would be wider.
fn try_line(url: &str, key: Option<&str>) -> String {
    let lookup = format!("smsstat --base-url {url} sms 42");
    let Some(key) = key else {
        return format!("try: {lookup}");
    };
    let setting = format!("SMSSTAT_API_KEY={}", shell_quoted(&escape_control(key)));
    let line = format!("try: {setting} {lookup}");
    match line.chars().count() <= 80 {
        true => line,
        false => format!("try: {setting} \\\n       {lookup}"),
    }
}

/// `text` as one shell word: bare when it holds only characters no shell reads
/// specially, else in single quotes.
fn shell_quoted(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_.,:/@%+=".contains(c);
    match !text.is_empty() && text.chars().all(plain) {
        true => text.to_string(),
        false => format!("'{}'", text.replace('\'', r"'\''")),
    }
}

#[cfg(test)]
mod tests {
    use super::try_line;

    #[test]
    fn the_try_line_pastes_as_is_within_80_columns() {
        let url = "http://127.0.0.1:8765";
        assert_eq!(
            try_line(url, None),
            "try: smsstat --base-url http://127.0.0.1:8765 sms 42"
        );
        assert_eq!(
            try_line(url, Some("k")),
            "try: SMSSTAT_API_KEY=k smsstat --base-url http://127.0.0.1:8765 sms 42"
        );
        let long = try_line(url, Some("it's a long key, with spaces and a quote"));
        assert_eq!(
            long,
            "try: SMSSTAT_API_KEY='it'\\''s a long key, with spaces and a quote' \\\n       \
             smsstat --base-url http://127.0.0.1:8765 sms 42"
        );
        assert!(long.lines().all(|l| l.chars().count() <= 80));
    }
}
