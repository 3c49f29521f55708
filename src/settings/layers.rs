//! Settings in layers: flag > environment > profile > top level of the config file >
//! built-in default. clap has already merged flags and environment into `GlobalArgs`
//! (whose file-settable options have no clap defaults for exactly this reason); this
//! fills what is still unset from the config file and records where each came from.

use std::path::{Path, PathBuf};

use clap::ValueEnum;

use crate::cli::parse::{ArgSource, CliSources};
use crate::cli::{GlobalArgs, OutputFormat};
use crate::domain::error::ConfigError;
use crate::settings::file::{self as config_file, ConfigFile, FileSettings};
use crate::settings::origin::Origin;

/// The profile used when none is named, if the file has it (as aws-cli does).
pub const DEFAULT_PROFILE: &str = "default";
/// `-o`'s environment variable, read here rather than by clap: clap would count it as
/// given and refuse it beside `--json`.
pub const OUTPUT_ENV: &str = "SMSSTAT_OUTPUT";

/// Where each file-settable setting came from.
#[derive(Debug, Clone)]
pub struct Origins {
    pub base_url: Origin,
    pub api_key: Origin,
    pub api_key_header: Origin,
    pub timeout: Origin,
    pub retries: Origin,
    pub output: Origin,
    pub ca_cert: Origin,
}

/// What resolving the layers found, for `config show` and for warnings.
#[derive(Debug, Clone)]
pub struct Resolution {
    /// The config file looked for (given, or the default path).
    pub file_path: Option<PathBuf>,
    pub file_found: bool,
    /// The profile used, and what chose it.
    pub profile: Option<(String, Origin)>,
    pub origins: Origins,
    /// The file the key was read from, when it came from `api_key_file`.
    pub api_key_file: Option<PathBuf>,
    /// Things to tell the user on stderr (never holding the key).
    pub warnings: Vec<String>,
}

/// Fills `args` from the config file and reports where every setting came from.
pub fn apply(args: &mut GlobalArgs, sources: &CliSources) -> Result<Resolution, ConfigError> {
    let (file_path, given_by) = match &args.config {
        Some(path) => (Some(path.clone()), Some(given_by(sources.config))),
        None => (config_file::default_path(), None),
    };
    let file = match &file_path {
        Some(path) => config_file::load(path, given_by)?,
        None => None,
    };
    let profile = choose_profile(args, sources, file.as_ref(), file_path.as_deref())?;
    let layers = layers(
        file.as_ref(),
        profile.as_ref().map(|(name, _)| name.as_str()),
    );
    let mut warnings = Vec::new();
    if let Some(file) = &file {
        if file.holds_key() && config_file::readable_by_others(file.mode) {
            warnings.push(exposed_key_warning("config file", &file.path, file.mode));
        }
    }
    let cli = |source, flag, env| Origin::of_arg(source, flag, env);
    let base_url = fill(
        &mut args.base_url,
        cli(sources.base_url, "--base-url", "SMSSTAT_BASE_URL"),
        &layers,
        |l| l.base_url.clone(),
    );
    let (api_key, api_key_file) = fill_api_key(args, sources, &layers, &mut warnings)?;
    let origins = Origins {
        base_url,
        api_key,
        api_key_header: fill(
            &mut args.api_key_header,
            cli(
                sources.api_key_header,
                "--api-key-header",
                "SMSSTAT_API_KEY_HEADER",
            ),
            &layers,
            |l| l.api_key_header.clone(),
        ),
        timeout: fill(
            &mut args.timeout,
            cli(sources.timeout, "--timeout", "SMSSTAT_TIMEOUT"),
            &layers,
            |l| l.timeout,
        ),
        retries: fill(
            &mut args.retries,
            cli(sources.retries, "--retries", "SMSSTAT_RETRIES"),
            &layers,
            |l| l.retries,
        ),
        output: fill_output(args, sources, &layers)?,
        ca_cert: fill_path(
            &mut args.ca_cert,
            cli(sources.ca_cert, "--ca-cert", "SMSSTAT_CA_CERT"),
            &layers,
            |l| l.ca_cert.clone(),
        ),
    };
    Ok(Resolution {
        file_found: file.is_some(),
        file_path,
        profile,
        origins,
        api_key_file,
        warnings,
    })
}

fn given_by(source: ArgSource) -> &'static str {
    match source {
        ArgSource::Env => "SMSSTAT_CONFIG",
        _ => "--config",
    }
}

/// The profile named by `--profile`/`SMSSTAT_PROFILE`, which must exist, or else
/// `default` when the file has one.
fn choose_profile(
    args: &GlobalArgs,
    sources: &CliSources,
    file: Option<&ConfigFile>,
    path: Option<&Path>,
) -> Result<Option<(String, Origin)>, ConfigError> {
    let shown_path = || path.map_or_else(|| "(no config dir)".into(), |p| p.display().to_string());
    let Some(name) = &args.profile else {
        let has_default = file.is_some_and(|f| f.profiles.contains_key(DEFAULT_PROFILE));
        return Ok(has_default.then(|| (DEFAULT_PROFILE.to_string(), Origin::Default)));
    };
    let origin = Origin::of_arg(sources.profile, "--profile", "SMSSTAT_PROFILE")
        .unwrap_or(Origin::Flag("--profile"));
    let Some(file) = file else {
        return Err(ConfigError(format!(
            "profile `{name}` ({origin}) needs a config file, but there is none at {}",
            shown_path()
        )));
    };
    if file.profiles.contains_key(name) {
        return Ok(Some((name.clone(), origin)));
    }
    let available = if file.profiles.is_empty() {
        "it has no [profiles.NAME] tables".to_string()
    } else {
        let names: Vec<&str> = file.profiles.keys().map(String::as_str).collect();
        format!("available: {}", names.join(", "))
    };
    Err(ConfigError(format!(
        "no profile `{name}` ({origin}) in {}; {available}",
        file.path.display()
    )))
}

/// The file's layers, highest precedence first: the profile, then the top level.
fn layers<'a>(
    file: Option<&'a ConfigFile>,
    profile: Option<&str>,
) -> Vec<(&'a FileSettings, Origin)> {
    let Some(file) = file else { return Vec::new() };
    let mut layers = Vec::new();
    if let Some((name, settings)) = profile.and_then(|p| file.profiles.get_key_value(p)) {
        let origin = Origin::Profile {
            name: name.clone(),
            file: file.path.clone(),
        };
        layers.push((settings, origin));
    }
    layers.push((&file.top, Origin::File(file.path.clone())));
    layers
}

/// Keeps a value clap found; else takes the first layer that has one.
fn fill<T>(
    value: &mut Option<T>,
    cli: Option<Origin>,
    layers: &[(&FileSettings, Origin)],
    get: impl Fn(&FileSettings) -> Option<T>,
) -> Origin {
    if value.is_some() {
        return cli.unwrap_or(Origin::Default);
    }
    for (layer, origin) in layers {
        if let Some(found) = get(layer) {
            *value = Some(found);
            return origin.clone();
        }
    }
    Origin::Default
}

/// `fill` for a path: one from the file is taken relative to the file.
fn fill_path(
    value: &mut Option<PathBuf>,
    cli: Option<Origin>,
    layers: &[(&FileSettings, Origin)],
    get: impl Fn(&FileSettings) -> Option<PathBuf>,
) -> Origin {
    let origin = fill(value, cli, layers, get);
    if matches!(origin, Origin::Profile { .. } | Origin::File(_)) {
        *value = value
            .as_deref()
            .map(|path| file_setting_path(path, &origin));
    }
    origin
}

/// The key from the first layer that has `api_key` or `api_key_file` (one layer may
/// not have both: which one was meant would be a guess).
fn fill_api_key(
    args: &mut GlobalArgs,
    sources: &CliSources,
    layers: &[(&FileSettings, Origin)],
    warnings: &mut Vec<String>,
) -> Result<(Origin, Option<PathBuf>), ConfigError> {
    if let Some(key) = &mut args.api_key {
        let origin = Origin::of_arg(sources.api_key, "--api-key", "SMSSTAT_API_KEY");
        let origin = origin.unwrap_or(Origin::Default);
        trim_key(key, &origin, warnings);
        return Ok((origin, None));
    }
    for (layer, origin) in layers {
        match (&layer.api_key, &layer.api_key_file) {
            (Some(_), Some(_)) => {
                return Err(ConfigError(format!(
                    "both api_key and api_key_file are set in {origin}; keep one"
                )))
            }
            (Some(key), None) => {
                let mut key = key.clone();
                trim_key(&mut key, origin, warnings);
                args.api_key = Some(key);
                return Ok((origin.clone(), None));
            }
            (None, Some(path)) => {
                let path = file_setting_path(path, origin);
                args.api_key = Some(read_key_file(&path, origin)?);
                if config_file::readable_by_others(config_file::file_mode(&path)) {
                    let mode = config_file::file_mode(&path);
                    warnings.push(exposed_key_warning("API key file", &path, mode));
                }
                return Ok((origin.clone(), Some(path)));
            }
            (None, None) => {}
        }
    }
    Ok((Origin::Default, None))
}

/// A path from the config file (`api_key_file`, `ca_cert`): `~/` is the home
/// directory; a relative path is relative to the config file, so
/// the file means the same wherever smsstat is started.
fn file_setting_path(path: &Path, origin: &Origin) -> PathBuf {
    if let Ok(rest) = path.strip_prefix("~") {
        if let Ok(home) = etcetera::home_dir() {
            return home.join(rest);
        }
    }
    let config_dir = match origin {
        Origin::Profile { file, .. } | Origin::File(file) => file.parent(),
        _ => None,
    };
    match config_dir {
        Some(dir) if path.is_relative() => dir.join(path),
        _ => path.to_path_buf(),
    }
}

/// Spaces or a line break around a pasted key are a copying accident, not part of the
/// key: the trimmed key is what is sent (and masked), with a warning.
fn trim_key(key: &mut String, origin: &Origin, warnings: &mut Vec<String>) {
    let trimmed = key.trim();
    if trimmed.len() != key.len() {
        warnings.push(format!(
            "the API key from {origin} has spaces or line breaks around it; they were removed"
        ));
        *key = trimmed.to_string();
    }
}

fn read_key_file(path: &Path, origin: &Origin) -> Result<String, ConfigError> {
    let text = crate::settings::read::read_bounded_text(path).map_err(|err| {
        ConfigError(format!(
            "cannot read the API key file {} (api_key_file in {origin}): {err}",
            path.display()
        ))
    })?;
    let key = text.trim();
    if key.is_empty() {
        return Err(ConfigError(format!(
            "the API key file {} (api_key_file in {origin}) is empty",
            path.display()
        )));
    }
    Ok(key.to_string())
}

/// `--json` and `-o` first, then `SMSSTAT_OUTPUT`, then the file.
fn fill_output(
    args: &mut GlobalArgs,
    sources: &CliSources,
    layers: &[(&FileSettings, Origin)],
) -> Result<Origin, ConfigError> {
    if args.json {
        return Ok(Origin::Flag("--json"));
    }
    if args.output.is_none() {
        if let Some(text) = std::env::var(OUTPUT_ENV).ok().filter(|v| !v.is_empty()) {
            let format = OutputFormat::from_str(&text, true).map_err(|_| {
                ConfigError(format!(
                    "{OUTPUT_ENV}=`{text}` is not an output format: expected table, json, csv or tsv"
                ))
            })?;
            args.output = Some(format);
            return Ok(Origin::Env(OUTPUT_ENV));
        }
    }
    let cli = Origin::of_arg(sources.output, "--output", OUTPUT_ENV);
    Ok(fill(&mut args.output, cli, layers, |l| l.output))
}

fn exposed_key_warning(what: &str, path: &Path, mode: Option<u32>) -> String {
    format!(
        "{what} {} holds an API key and can be read by other users (mode {:04o}); \
         restrict it: chmod 600 {}",
        path.display(),
        mode.unwrap_or(0),
        path.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_file_paths_are_relative_to_the_config_file() {
        let origin = Origin::File(PathBuf::from("/etc/smsstat/config.toml"));
        assert_eq!(
            file_setting_path(Path::new("key.txt"), &origin),
            PathBuf::from("/etc/smsstat/key.txt")
        );
        assert_eq!(
            file_setting_path(Path::new("/run/secrets/k"), &origin),
            PathBuf::from("/run/secrets/k")
        );
    }

    #[test]
    fn the_first_layer_with_a_value_wins() {
        let profile = FileSettings {
            retries: Some(5),
            ..FileSettings::default()
        };
        let top = FileSettings {
            retries: Some(1),
            timeout: Some(std::time::Duration::from_secs(3)),
            ..FileSettings::default()
        };
        let p = Origin::Profile {
            name: "p".into(),
            file: "f".into(),
        };
        let layers = vec![(&profile, p.clone()), (&top, Origin::File("f".into()))];
        let mut retries = None;
        assert_eq!(fill(&mut retries, None, &layers, |l| l.retries), p);
        assert_eq!(retries, Some(5));
        let mut flagged = Some(9);
        let flag = Origin::Flag("--retries");
        assert_eq!(
            fill(&mut flagged, Some(flag.clone()), &layers, |l| l.retries),
            flag
        );
        assert_eq!(flagged, Some(9));
        let mut timeout = None;
        let origin = fill(&mut timeout, None, &layers, |l| l.timeout);
        assert_eq!(origin, Origin::File("f".into()));
        let mut header: Option<String> = None;
        assert_eq!(
            fill(&mut header, None, &layers, |l| l.api_key_header.clone()),
            Origin::Default
        );
    }
}
