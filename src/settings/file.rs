//! The TOML config file: `$XDG_CONFIG_HOME/smsstat/config.toml` (the platform's config
//! dir), or `--config PATH`. Top-level keys are defaults for every profile;
//! `[profiles.NAME]` tables override them. Unknown keys are errors, so a typo never
//! silently falls back to a default.

use std::collections::BTreeMap;
use std::io::ErrorKind::NotFound;
use std::path::{Path, PathBuf};

use toml::de::{DeTable, DeValue};
use toml::Spanned;

use crate::domain::error::ConfigError;
use crate::settings::given::{flag_of, variable_of, KEYS};
use crate::settings::origin::Origin;
use crate::settings::read::read_bounded_text;

/// One layer of the file: the top level, or one `[profiles.NAME]` table. Each value is
/// its text and place (a number too: `Layers::pick` checks `timeout = 2` with the
/// parser of `--timeout 2`).
#[derive(Debug, Default)]
pub struct Layer {
    pub values: BTreeMap<&'static str, Spanned<String>>,
    pub profiles: BTreeMap<String, Layer>,
}

/// The error of what the file holds at an offset.
type At<'a> = &'a dyn Fn(usize, String) -> ConfigError;

/// A table of the file read as a layer; an unknown key, `config` and `profile`, and
/// a value that is not text, a number or a boolean are refused at their place.
fn layer(table: &DeTable, top: bool, at: At) -> Result<Layer, ConfigError> {
    let mut layer = Layer::default();
    for (key, value) in table {
        let (name, start) = (key.get_ref().as_ref(), value.span().start);
        match name {
            "profiles" if !top => return Err(at(start, "a profile cannot hold profiles".into())),
            "profiles" => {
                for (name, profile) in settings(value, at)? {
                    let profile = self::layer(settings(profile, at)?, false, at)?;
                    layer.profiles.insert(name.get_ref().to_string(), profile);
                }
            }
            _ => {
                let key = setting_key(name).map_err(|why| at(key.span().start, why))?;
                let why = "expected a value: text in quotes, a number or true/false";
                let text = scalar(value.get_ref()).ok_or_else(|| at(start, why.into()))?;
                layer.values.insert(key, Spanned::new(value.span(), text));
            }
        }
    }
    Ok(layer)
}

/// The `profiles` table, or one profile.
fn settings<'a>(value: &'a Spanned<DeValue<'a>>, at: At) -> Result<&'a DeTable<'a>, ConfigError> {
    let table = value.get_ref().as_table();
    table.ok_or_else(|| at(value.span().start, "expected a table of settings".into()))
}

/// A value as its text: a number or a boolean as TOML reads it.
fn scalar(value: &DeValue) -> Option<String> {
    Some(match value {
        DeValue::String(text) => text.to_string(),
        DeValue::Integer(n) => i64::from_str_radix(n.as_str(), n.radix()).ok()?.to_string(),
        DeValue::Float(f) => f.as_str().parse::<f64>().ok()?.to_string(),
        DeValue::Boolean(b) => b.to_string(),
        _ => return None,
    })
}

/// A key of a layer: a setting the file may set. `config` and `profile` are refused in
/// words that say why.
fn setting_key(key: &str) -> Result<&'static str, String> {
    if matches!(key, "config" | "profile") {
        return Err(format!(
            "`{key}` cannot be set in a config file: it is chosen by {} or {}",
            flag_of(key),
            variable_of(key)
        ));
    }
    let keys = || file_keys().collect::<Vec<_>>().join(", ");
    file_keys().find(|k| *k == key).ok_or_else(|| {
        format!(
            "unknown field `{key}` (valid keys are {}; profiles go in [profiles.NAME] tables)",
            keys()
        )
    })
}

#[derive(Debug)]
pub struct ConfigFile {
    pub path: PathBuf,
    pub top: Layer,
    /// The text, to name the line of a value found wrong.
    text: String,
}

/// `$XDG_CONFIG_HOME/smsstat/config.toml` (`~/.config/...` when unset, macOS too).
/// None when there is no home directory to anchor it.
pub fn default_path() -> Option<PathBuf> {
    use etcetera::BaseStrategy;
    let strategy = etcetera::choose_base_strategy().ok()?;
    Some(strategy.config_dir().join("smsstat").join("config.toml"))
}

/// Reads and checks a config file. A missing file is `Ok(None)` unless the user named
/// it (`given_by`: the flag or variable that did).
pub fn load(path: &Path, given_by: Option<&Origin>) -> Result<Option<ConfigFile>, ConfigError> {
    let shown = path.display();
    let text = match read_bounded_text(path) {
        Ok(text) => text,
        Err(err) if err.kind() == NotFound && given_by.is_none() => return Ok(None),
        Err(err) => {
            return Err(ConfigError(match given_by {
                Some(Origin::Flag(by) | Origin::Env(by)) if err.kind() == NotFound => {
                    format!("config file {shown} does not exist (given by {by})")
                }
                _ => format!("cannot read config file {shown}: {err}"),
            }))
        }
    };
    let at = |offset, why| invalid_at(path, &text, offset, why);
    // The parser's span gives the place of a TOML error.
    let table = DeTable::parse(&text).map_err(|err| {
        let start = err.span().map_or(0, |span| span.start);
        at(start, err.message().trim().into())
    });
    let top = layer(table?.get_ref(), true, &at)?;
    Ok(Some(ConfigFile {
        path: path.to_path_buf(),
        top,
        text,
    }))
}

impl ConfigFile {
    /// Whether any layer of the file holds a key itself (not a path to one, nor an
    /// empty one, which means no key).
    pub fn holds_key(&self) -> bool {
        std::iter::once(&self.top)
            .chain(self.top.profiles.values())
            .filter_map(|layer| layer.values.get("api_key"))
            .any(|key| !key.get_ref().trim().is_empty())
    }

    /// The error of a value of the file (exit 78): the file, its line and key.
    pub fn invalid_at(&self, value: &Spanned<String>, message: String) -> ConfigError {
        invalid_at(&self.path, &self.text, value.span().start, message)
    }
}

/// Every key a config file may set: the settings but those choosing the file.
pub fn file_keys() -> impl Iterator<Item = &'static str> {
    KEYS.into_iter()
        .filter(|k| !matches!(*k, "config" | "profile"))
}

/// The error of what the file holds at `offset`: its line and dotted key named.
fn invalid_at(path: &Path, text: &str, offset: usize, message: String) -> ConfigError {
    let offset = offset.min(text.len());
    let line = text[..offset].matches('\n').count() + 1;
    let key = key_at(text, offset).map(|k| format!(", key `{k}`"));
    let (path, key) = (path.display(), key.unwrap_or_default());
    ConfigError(format!("config file {path}, line {line}{key}: {message}"))
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
    Some(table.map_or(name.to_string(), |table| format!("{table}.{name}")))
}

/// The profile names of the file at `path`, sorted (as toml's tables are), for
/// completing `--profile`; none when it is missing, unreadable or not TOML. Read
/// leniently (only the `[profiles.NAME]` tables, whatever else the file holds): a
/// completion must offer what it can rather than fail on a value being edited.
pub fn profile_names(path: &Path) -> Vec<String> {
    let text = read_bounded_text(path).unwrap_or_default();
    let table = DeTable::parse(&text).ok();
    let profiles = table.as_ref().and_then(|t| t.get_ref().get("profiles"));
    let names = |p: &DeTable| p.keys().map(|name| name.get_ref().to_string()).collect();
    let profiles = profiles.and_then(|p| p.get_ref().as_table());
    profiles.map_or_else(Vec::new, names)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<ConfigFile, ConfigError> {
        use std::io::Write;
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(text.as_bytes()).unwrap();
        load(file.path(), Some(&Origin::Flag("--config".into()))).map(Option::unwrap)
    }

    #[test]
    fn top_level_and_profiles_keep_each_value_and_its_place() {
        let file = parse(
            "base_url = \"https://a.example/rest\"\ntimeout = \"2s\"\n\n\
             [profiles.prod]\nretries = 5\njobs = 2\nmask_msisdn = true\n",
        )
        .unwrap();
        assert_eq!(file.top.values.get("timeout").unwrap().get_ref(), "2s");
        let prod = &file.top.profiles["prod"];
        assert_eq!(prod.values.get("retries").unwrap().get_ref(), "5");
        assert_eq!(prod.values.get("mask_msisdn").unwrap().get_ref(), "true");
        let err = file.invalid_at(prod.values.get("jobs").unwrap(), "no".into());
        assert!(
            err.to_string()
                .contains("line 6, key `profiles.prod.jobs`: no"),
            "{err}"
        );
        assert!(!file.holds_key());
    }

    #[test]
    fn every_setting_but_config_and_profile_is_a_key() {
        for key in file_keys() {
            assert!(parse(&format!("{key} = \"x\"\n")).is_ok(), "{key}");
        }
        assert!(parse("api_key = \"\"\n").is_ok_and(|f| !f.holds_key()));
    }

    #[test]
    fn unknown_keys_name_line_and_key() {
        let err = parse("retries = 1\n[profiles.prod]\nbase_ur = \"x\"\n").unwrap_err();
        let text = err.to_string();
        assert!(text.contains("line 3"), "{text}");
        assert!(text.contains("key `profiles.prod.base_ur`"), "{text}");
        assert!(text.contains("valid keys are"), "{text}");
        assert!(!text.contains("`profiles`"), "{text}");
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
    fn numbers_and_booleans_are_read_as_their_text() {
        let file = parse("timeout = 2.5\nretries = \"3\"\ncolor = false\n").unwrap();
        assert_eq!(file.top.values.get("timeout").unwrap().get_ref(), "2.5");
        assert_eq!(file.top.values.get("color").unwrap().get_ref(), "false");
        let err = parse("timeout = [1]\n").unwrap_err().to_string();
        assert!(err.contains("line 1, key `timeout`"), "{err}");
    }

    #[test]
    fn missing_files() {
        let path = Path::new("/nonexistent/smsstat/config.toml");
        assert!(load(path, None).unwrap().is_none());
        let by = Origin::Env("SMSSTAT_CONFIG".into());
        let err = load(path, Some(&by)).unwrap_err().to_string();
        assert!(
            err.contains("does not exist (given by SMSSTAT_CONFIG)"),
            "{err}"
        );
    }

    #[test]
    fn names_even_when_a_value_is_wrong() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        let text = "timeout = \"soon\"\nbogus = 1\n[profiles.prod]\nretries = 99\n\
                    [profiles.staging]\n";
        std::fs::write(&path, text).unwrap();
        assert_eq!(profile_names(&path), ["prod", "staging"]);
        std::fs::write(&path, "[profiles.prod\n").unwrap();
        assert!(profile_names(&path).is_empty());
        assert!(profile_names(&dir.path().join("none")).is_empty());
    }
}
