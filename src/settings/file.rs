//! The TOML config file: `$XDG_CONFIG_HOME/smsstat/config.toml` (the platform's config
//! dir), or `--config PATH`. Top-level keys are defaults for every profile;
//! `[profiles.NAME]` tables override them. Unknown keys are errors, so a typo never
//! silently falls back to a default.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Deserializer};
use thiserror::Error;

use crate::domain::error::{ConfigError, SettingsError};
use crate::domain::format::OutputFormat;
use crate::settings::checks;
use crate::settings::read::{read_bounded_text, LocalFileError};
use crate::settings::table::file_keys;

/// One layer's settings and the whole document, from one list of fields: the top
/// level repeats a layer's keys because serde cannot combine `flatten` with
/// `deny_unknown_fields`, and unknown keys must be refused.
macro_rules! file_layers {
    ($($(#[$attr:meta])* $name:ident: $type:ty,)+) => {
        /// One layer of settings: the top level of the file, or one profile.
        #[derive(Debug, Default, Clone, PartialEq, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct FileSettings {
            $($(#[$attr])* pub $name: Option<$type>,)+
        }

        #[derive(Debug, Default, Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Document {
            $($(#[$attr])* $name: Option<$type>,)+
            #[serde(default)]
            profiles: BTreeMap<String, FileSettings>,
        }

        impl Document {
            fn split(self) -> (FileSettings, BTreeMap<String, FileSettings>) {
                (FileSettings { $($name: self.$name,)+ }, self.profiles)
            }
        }

        #[cfg(test)]
        const FIELDS: &[&str] = &[$(stringify!($name)),+];
    };
}

file_layers! {
    #[serde(default, deserialize_with = "base_url_setting")]
    base_url: String,
    #[serde(default, deserialize_with = "key_setting")]
    api_key: String,
    api_key_file: PathBuf,
    #[serde(default, deserialize_with = "key_header_setting")]
    api_key_header: String,
    #[serde(default, deserialize_with = "duration_setting")]
    timeout: Duration,
    #[serde(default, deserialize_with = "retries_setting")]
    retries: u32,
    #[serde(default, deserialize_with = "output_setting")]
    output: OutputFormat,
    /// PEM file of the CAs to trust (relative to the config file; `~/` is home).
    ca_cert: PathBuf,
}

/// A config file, read and checked.
#[derive(Debug, Clone)]
pub struct ConfigFile {
    pub path: PathBuf,
    pub top: FileSettings,
    pub profiles: BTreeMap<String, FileSettings>,
    /// Unix permission bits, for the warning about keys readable by others.
    pub mode: Option<u32>,
}

/// Why a config file cannot be used (exit 78). Messages name the file, and the line
/// and key when the file itself is wrong.
#[derive(Debug, Error)]
pub enum ConfigFileError {
    #[error("config file {} does not exist (given by {given_by})", path.display())]
    Missing { path: PathBuf, given_by: String },

    #[error("cannot read config file {}: {source}", path.display())]
    Unreadable {
        path: PathBuf,
        source: LocalFileError,
    },

    #[error("config file {}, line {line}{}: {message}{}", path.display(),
        key.as_deref().map(|k| format!(", key `{k}`")).unwrap_or_default(),
        hint.as_deref().map(|h| format!(" ({h})")).unwrap_or_default())]
    Invalid {
        path: PathBuf,
        line: usize,
        key: Option<String>,
        message: String,
        hint: Option<String>,
    },
}

impl From<ConfigFileError> for ConfigError {
    fn from(error: ConfigFileError) -> ConfigError {
        ConfigError(error.to_string())
    }
}

impl From<ConfigFileError> for SettingsError {
    fn from(error: ConfigFileError) -> SettingsError {
        SettingsError::Config(error.into())
    }
}

/// `$XDG_CONFIG_HOME/smsstat/config.toml` (`~/.config/...` when unset; the Windows
/// config dir on Windows). None when there is no home directory to anchor it.
pub fn default_path() -> Option<PathBuf> {
    use etcetera::BaseStrategy;
    let strategy = etcetera::choose_base_strategy().ok()?;
    Some(strategy.config_dir().join("smsstat").join("config.toml"))
}

/// Reads and checks a config file. A missing file is `Ok(None)` unless the user named
/// it (`given_by` is the flag or variable that did).
pub fn load(path: &Path, given_by: Option<&str>) -> Result<Option<ConfigFile>, ConfigFileError> {
    let text = match read_bounded_text(path) {
        Ok(text) => text,
        Err(err) if err.is_not_found() => {
            return match given_by {
                Some(given_by) => Err(ConfigFileError::Missing {
                    path: path.to_path_buf(),
                    given_by: given_by.to_string(),
                }),
                None => Ok(None),
            };
        }
        Err(source) => {
            return Err(ConfigFileError::Unreadable {
                path: path.to_path_buf(),
                source,
            })
        }
    };
    let document: Document = toml::from_str(&text).map_err(|err| invalid(path, &text, &err))?;
    let (top, profiles) = document.split();
    Ok(Some(ConfigFile {
        path: path.to_path_buf(),
        top,
        profiles,
        mode: file_mode(path),
    }))
}

impl ConfigFile {
    /// Whether any layer of the file holds a key itself (not a path to one).
    pub fn holds_key(&self) -> bool {
        std::iter::once(&self.top)
            .chain(self.profiles.values())
            .any(|layer| layer.api_key.is_some())
    }
}

/// The permission bits of a file, on systems that have them.
pub fn file_mode(path: &Path) -> Option<u32> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::metadata(path)
            .ok()
            .map(|m| m.permissions().mode() & 0o777)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// True when group or others may read or write the file: a key in it is not secret.
pub fn readable_by_others(mode: Option<u32>) -> bool {
    mode.is_some_and(|mode| mode & 0o077 != 0)
}

/// A TOML error turned into file, line and key: the parser's span gives the place.
fn invalid(path: &Path, text: &str, err: &toml::de::Error) -> ConfigFileError {
    let start = err.span().map_or(0, |span| span.start.min(text.len()));
    let line = text[..start].matches('\n').count() + 1;
    let message = err.message().trim().to_string();
    let hint = message.contains("unknown field").then(|| {
        let keys: Vec<&str> = file_keys().collect();
        format!(
            "valid keys are {}; profiles go in [profiles.NAME] tables",
            keys.join(", ")
        )
    });
    ConfigFileError::Invalid {
        path: path.to_path_buf(),
        line,
        key: key_at(text, start),
        message,
        hint,
    }
}

/// The dotted key written on the line of `offset` (`profiles.prod.timeout`): the name
/// before `=`, under the last `[table]` header above it.
fn key_at(text: &str, offset: usize) -> Option<String> {
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = text[line_start..].lines().next().unwrap_or("");
    let (name, _) = line.split_once('=')?;
    let name = name.trim().trim_matches(['"', '\'']);
    if name.is_empty() || name.starts_with('#') {
        return None;
    }
    let table = text[..line_start]
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('[') && l.ends_with(']'))
        .map(|header| header.trim_matches(['[', ']']).trim().to_string());
    Some(match table {
        Some(table) => format!("{table}.{name}"),
        None => name.to_string(),
    })
}

/// `timeout = 10`, `timeout = 2.5` or `timeout = "500ms"`, as on the command line.
fn duration_setting<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        Integer(u64),
        Float(f64),
        Text(String),
    }
    let text = match Raw::deserialize(d).map_err(|_| {
        serde::de::Error::custom("expected a duration: a number of seconds or text such as \"2s\"")
    })? {
        Raw::Integer(n) => n.to_string(),
        Raw::Float(f) => f.to_string(),
        Raw::Text(text) => text,
    };
    checks::timeout(&text)
        .map(Some)
        .map_err(serde::de::Error::custom)
}

/// `retries = 5`, in the range of `--retries`.
fn retries_setting<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    let count = u32::deserialize(d)?;
    checks::retry_count(count)
        .map(Some)
        .map_err(serde::de::Error::custom)
}

/// `api_key_header = "X-Key"`: a name a header can have.
fn key_header_setting<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let text = String::deserialize(d)?;
    checks::key_header(&text)
        .map(Some)
        .map_err(serde::de::Error::custom)
}

/// `api_key = "..."`: sendable once trimmed (the layers trim it, with a warning).
fn key_setting<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let key = String::deserialize(d)?;
    checks::api_key(key.trim()).map_err(serde::de::Error::custom)?;
    Ok(Some(key))
}

/// `base_url = "https://host/rest"`, checked here so that an error names its line.
fn base_url_setting<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let text = String::deserialize(d)?;
    crate::settings::checks::validate_base_url(&text)
        .map(|_| Some(text))
        .map_err(|err| serde::de::Error::custom(err.0))
}

/// `output = "json"`: the same names as `-o`.
fn output_setting<'de, D: Deserializer<'de>>(d: D) -> Result<Option<OutputFormat>, D::Error> {
    let text = String::deserialize(d)?;
    checks::output(&text)
        .map(Some)
        .map_err(serde::de::Error::custom)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<ConfigFile, ConfigFileError> {
        use std::io::Write;
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(text.as_bytes()).unwrap();
        load(file.path(), Some("--config")).map(Option::unwrap)
    }

    #[test]
    fn top_level_and_profiles() {
        let file = parse(
            "base_url = \"https://a.example/rest\"\ntimeout = \"2s\"\n\n\
             [profiles.prod]\nretries = 5\noutput = \"json\"\ntimeout = 3\n",
        )
        .unwrap();
        assert_eq!(file.top.timeout, Some(Duration::from_secs(2)));
        let prod = &file.profiles["prod"];
        assert_eq!(prod.retries, Some(5));
        assert_eq!(prod.output, Some(OutputFormat::Json));
        assert_eq!(prod.timeout, Some(Duration::from_secs(3)));
        assert!(!file.holds_key());
    }

    #[test]
    fn unknown_keys_name_line_and_key() {
        let err = parse("retries = 1\n[profiles.prod]\nbase_ur = \"x\"\n").unwrap_err();
        let text = err.to_string();
        assert!(text.contains("line 3"), "{text}");
        assert!(text.contains("key `profiles.prod.base_ur`"), "{text}");
        assert!(text.contains("valid keys are"), "{text}");
    }

    #[test]
    fn bad_values_name_line_and_key() {
        let err = parse("# comment\n\ntimeout = \"soon\"\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("line 3, key `timeout`"), "{err}");
        let err = parse("output = \"xml\"\n").unwrap_err().to_string();
        assert!(err.contains("not an output format"), "{err}");
        let err = parse("retries = -1\n").unwrap_err().to_string();
        assert!(err.contains("line 1, key `retries`"), "{err}");
    }

    #[test]
    fn syntax_errors_have_a_line() {
        let err = parse("retries = 1\nbase_url = \n").unwrap_err().to_string();
        assert!(err.contains("line 2"), "{err}");
    }

    #[test]
    fn the_file_has_exactly_the_keys_of_the_settings_table() {
        let keys: Vec<&str> = file_keys().collect();
        let mut fields = FIELDS.to_vec();
        fields.sort_unstable();
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        assert_eq!(fields, sorted);
    }

    #[test]
    fn missing_files() {
        let path = Path::new("/nonexistent/smsstat/config.toml");
        assert!(load(path, None).unwrap().is_none());
        let err = load(path, Some("--config")).unwrap_err().to_string();
        assert!(err.contains("does not exist (given by --config)"), "{err}");
    }

    #[test]
    fn modes_readable_by_others() {
        assert!(readable_by_others(Some(0o644)));
        assert!(readable_by_others(Some(0o640)));
        assert!(!readable_by_others(Some(0o600)));
        assert!(!readable_by_others(None));
    }
}
