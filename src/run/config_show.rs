//! `smsstat config show`: every resolved setting, its value and where it came from,
//! the key masked. Ends with exit 78 when the settings could not run a lookup, so it
//! doubles as a check in scripts.

use std::io::{self, Write};

use clap::ValueEnum;

use crate::cli::parse::CliSources;
use crate::cli::{GlobalArgs, OutputFormat};
use crate::domain::duration::format_duration;
use crate::domain::exit_codes;
use crate::domain::sanitize::escape_control;
use crate::output::messages::report;
use crate::settings::config::{
    construct_config, DEFAULT_KEY_HEADER, DEFAULT_RETRIES, DEFAULT_TIMEOUT,
};
use crate::settings::layers::{self, Resolution};
use crate::settings::origin::Origin;
use crate::settings::secret::mask_key;

pub fn run(mut args: GlobalArgs, sources: CliSources) -> u8 {
    let resolution = match layers::apply(&mut args, &sources) {
        Ok(resolution) => resolution,
        Err(err) => {
            report(format_args!("{err}"));
            return exit_codes::CONFIG;
        }
    };
    for warning in &resolution.warnings {
        report(format_args!("warning: {warning}"));
    }
    let lines = render(&settings(&args, &sources, &resolution));
    // A reader that went away is not an error.
    let _ = io::stdout().lock().write_all(lines.as_bytes());
    // With --demo a lookup would start the simulator on a free port: any loopback
    // address stands for it in the check.
    let demo = args.demo.then(|| "http://127.0.0.1".to_string());
    match construct_config(&args, demo) {
        Ok(_) => exit_codes::SUCCESS,
        Err(err) => {
            report(format_args!("{err}"));
            exit_codes::CONFIG
        }
    }
}

/// (setting, value, where from) for every row of the listing.
fn settings(
    args: &GlobalArgs,
    sources: &CliSources,
    resolution: &Resolution,
) -> Vec<(&'static str, String, String)> {
    let origins = &resolution.origins;
    let file = match (&resolution.file_path, resolution.file_found) {
        (Some(path), true) => path.display().to_string(),
        (Some(path), false) => format!("{} (not found)", path.display()),
        (None, _) => "(no config directory)".into(),
    };
    let file_origin =
        Origin::of_arg(sources.config, "--config", "SMSSTAT_CONFIG").unwrap_or(Origin::Default);
    let (profile, profile_origin) = match &resolution.profile {
        Some((name, origin)) => (name.clone(), origin.clone()),
        None => ("(none)".into(), Origin::Default),
    };
    let api_key = match (&args.api_key, &resolution.api_key_file) {
        (Some(key), Some(path)) => format!("{} (read from {})", mask_key(key), path.display()),
        (Some(key), None) => mask_key(key),
        (None, _) => "(none: no key is sent)".into(),
    };
    let output = if args.json {
        OutputFormat::Json
    } else {
        args.output.unwrap_or(OutputFormat::Table)
    };
    vec![
        ("config file", file, file_origin.to_string()),
        ("profile", profile, profile_origin.to_string()),
        if args.demo {
            (
                "base_url",
                "(the built-in simulator, on a free loopback port)".into(),
                Origin::Demo.to_string(),
            )
        } else {
            (
                "base_url",
                args.base_url.clone().unwrap_or_else(|| "(not set)".into()),
                origins.base_url.to_string(),
            )
        },
        ("api_key", api_key, origins.api_key.to_string()),
        (
            "api_key_header",
            args.api_key_header
                .clone()
                .unwrap_or_else(|| DEFAULT_KEY_HEADER.into()),
            origins.api_key_header.to_string(),
        ),
        (
            "timeout",
            format_duration(args.timeout.unwrap_or(DEFAULT_TIMEOUT)),
            origins.timeout.to_string(),
        ),
        (
            "retries",
            args.retries.unwrap_or(DEFAULT_RETRIES).to_string(),
            origins.retries.to_string(),
        ),
        ("output", format_name(output), origins.output.to_string()),
        (
            "ca_cert",
            args.ca_cert.as_ref().map_or_else(
                || "(none: the built-in roots are trusted)".into(),
                |path| path.display().to_string(),
            ),
            origins.ca_cert.to_string(),
        ),
    ]
}

fn format_name(format: OutputFormat) -> String {
    format
        .to_possible_value()
        .map_or_else(String::new, |v| v.get_name().to_string())
}

/// Three aligned columns under a header; values escaped like every other output.
fn render(rows: &[(&str, String, String)]) -> String {
    let rows: Vec<(String, String, String)> = rows
        .iter()
        .map(|(name, value, from)| {
            (
                name.to_string(),
                escape_control(value).into_owned(),
                escape_control(from).into_owned(),
            )
        })
        .collect();
    let name_width = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0);
    let value_width = rows.iter().map(|r| r.1.chars().count()).max().unwrap_or(0);
    let mut out = format!(
        "{:name_width$}  {:value_width$}  FROM\n",
        "SETTING", "VALUE"
    );
    for (name, value, from) in rows {
        out.push_str(&format!(
            "{name:name_width$}  {value:value_width$}  {from}\n"
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_aligned() {
        let text = render(&[
            ("a", "1".into(), "default".into()),
            ("long name", "value".into(), "flag --x".into()),
        ]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "SETTING    VALUE  FROM");
        assert_eq!(lines[1], "a          1      default");
        assert_eq!(lines[2], "long name  value  flag --x");
    }
}
