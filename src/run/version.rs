//! `smsstat version [--json]`: what this binary is, for bug reports and CI logs. Every
//! fact was found at build time (`cli::build`); nothing is looked up.

use serde_json::{json, Value};

use crate::cli::build;
use crate::domain::exit_codes;
use crate::run::error::{print_document, Error};

pub fn run(json: bool) -> Result<u8, Error> {
    let text = if json {
        format!("{}\n", as_json())
    } else {
        render()
    };
    print_document(text.as_bytes())?;
    Ok(exit_codes::SUCCESS)
}

fn as_json() -> Value {
    json!({
        "version": build::VERSION,
        "commit": build::commit(),
        "dirty": build::dirty(),
        "build_date": build::DATE,
        "target": build::TARGET,
        "linking": build::LINKING,
        "rustc": build::RUSTC,
        "tls": build::TLS,
    })
}

fn render() -> String {
    let commit = match (build::commit(), build::dirty()) {
        (None, _) => "unknown".to_string(),
        (Some(hash), Some(true)) => format!("{hash} (with uncommitted changes)"),
        (Some(hash), _) => hash.to_string(),
    };
    let rows = [
        ("commit", commit),
        ("build date", build::DATE.to_string()),
        ("target", format!("{} ({})", build::TARGET, build::LINKING)),
        ("rustc", build::RUSTC.to_string()),
        ("TLS", build::TLS.to_string()),
    ];
    let lines = rows.map(|(name, value)| format!("{name:10}  {value}\n"));
    format!("smsstat {}\n{}", build::VERSION, lines.concat())
}
