//! The TOML config file: `$XDG_CONFIG_HOME/smsstat/config.toml` (the platform's config
//! dir), or `--config PATH`. Top-level keys are defaults for every profile;
//! `[profiles.NAME]` tables override them. Unknown keys are errors, so a typo never
//! silently falls back to a default.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Deserializer};
use thiserror::Error;
use toml::Spanned;

use crate::domain::error::{ConfigError, SettingsError};
use crate::settings::read::{read_bounded_text, LocalFileError};
use crate::settings::table::{self, file_keys, settings_table, Setting};

/// A value as the file wrote it: text, or a number or a boolean read as its text, so
/// that the file's values pass the same check as a flag's (`timeout = 2` and
/// `--timeout 2` alike).
#[derive(Debug, Clone)]
struct Scalar(String);

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Scalar, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Integer(i64),
            Float(f64),
            Bool(bool),
            Text(String),
        }
        let raw = Raw::deserialize(d).map_err(|_| {
            serde::de::Error::custom("expected a value: text in quotes, a number or true/false")
        })?;
        Ok(Scalar(match raw {
            Raw::Integer(n) => n.to_string(),
            Raw::Float(f) => f.to_string(),
            Raw::Bool(b) => b.to_string(),
            Raw::Text(text) => text,
        }))
    }
}

/// The file's layers from the settings table: a key per setting, each value through
/// its setting's check. The top level repeats a layer's keys because serde cannot
/// combine `flatten` with `deny_unknown_fields`, and unknown keys must be refused.
macro_rules! file_layers {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident($id:ident) $field:ident: $ty:ty, $kind:ident $value:expr;
            $mode:ident, $file:ident, $flag:literal, $env:literal, $value_name:literal,
            $heading:ident, $check:path;
    )+) => {
        /// One layer of settings, checked: the top level of the file, or one profile.
        #[derive(Debug, Default, Clone, PartialEq)]
        pub struct FileSettings {
            $(pub $field: Option<$ty>,)+
        }

        /// A layer as written, each value with its place in the text.
        #[derive(Debug, Default, Deserialize)]
        #[serde(deny_unknown_fields)]
        struct RawLayer {
            $(#[serde(default)] $field: Option<Spanned<Scalar>>,)+
        }

        #[derive(Debug, Default, Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Document {
            $(#[serde(default)] $field: Option<Spanned<Scalar>>,)+
            #[serde(default)]
            profiles: BTreeMap<String, RawLayer>,
        }

        impl Document {
            fn split(self) -> (RawLayer, BTreeMap<String, RawLayer>) {
                (RawLayer { $($field: self.$field,)+ }, self.profiles)
            }
        }

        impl RawLayer {
            fn checked(self, refuse: &Refuse) -> Result<FileSettings, ConfigFileError> {
                Ok(FileSettings {
                    $($field: checked(&table::$name, self.$field, $check, refuse)?,)+
                })
            }
        }
    };
}

settings_table!(file_layers);

/// Makes the error of a value the file holds at a place (file, line and key).
type Refuse<'a> = dyn Fn(usize, String) -> ConfigFileError + 'a;

/// One value through its setting's check; a setting that chooses the file cannot be
/// set inside it.
fn checked<T>(
    setting: &Setting,
    value: Option<Spanned<Scalar>>,
    check: impl Fn(&str) -> Result<T, String>,
    refuse: &Refuse,
) -> Result<Option<T>, ConfigFileError> {
    let Some(value) = value else { return Ok(None) };
    let at = value.span().start;
    if !setting.in_file {
        return Err(refuse(
            at,
            format!(
                "`{}` cannot be set in a config file: it is chosen by {} or {}",
                setting.key, setting.flag, setting.env
            ),
        ));
    }
    check(&value.get_ref().0)
        .map(Some)
        .map_err(|why| refuse(at, why))
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
    let refuse = |offset: usize, message: String| invalid_at(path, &text, offset, message, None);
    let top = top.checked(&refuse)?;
    let profiles = profiles
        .into_iter()
        .map(|(name, layer)| Ok((name, layer.checked(&refuse)?)))
        .collect::<Result<BTreeMap<_, _>, ConfigFileError>>()?;
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
    let message = err.message().trim().to_string();
    let hint = message.contains("unknown field").then(|| {
        let keys: Vec<&str> = file_keys().collect();
        format!(
            "valid keys are {}; profiles go in [profiles.NAME] tables",
            keys.join(", ")
        )
    });
    let start = err.span().map_or(0, |span| span.start);
    invalid_at(path, text, start, message, hint)
}

/// The error of what the file holds at `offset`: its line and dotted key named.
fn invalid_at(
    path: &Path,
    text: &str,
    offset: usize,
    message: String,
    hint: Option<String>,
) -> ConfigFileError {
    let offset = offset.min(text.len());
    ConfigFileError::Invalid {
        path: path.to_path_buf(),
        line: text[..offset].matches('\n').count() + 1,
        key: key_at(text, offset),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::format::OutputFormat;
    use std::time::Duration;

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
    fn settings_that_choose_the_file_are_refused_in_it() {
        let err = parse("retries = 1\n[profiles.a]\nprofile = \"b\"\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("line 3, key `profiles.a.profile`"), "{err}");
        assert!(
            err.contains("chosen by --profile or SMSSTAT_PROFILE"),
            "{err}"
        );
    }

    #[test]
    fn numbers_and_text_pass_the_same_checks() {
        let file = parse("timeout = 2.5\nretries = \"3\"\n").unwrap();
        assert_eq!(file.top.timeout, Some(Duration::from_millis(2500)));
        assert_eq!(file.top.retries, Some(3));
        let err = parse("timeout = [1]\n").unwrap_err().to_string();
        assert!(err.contains("line 1, key `timeout`"), "{err}");
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
