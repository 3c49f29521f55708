//! The layers a setting is taken from, highest first: flag, `SMSSTAT_*` variable,
//! the profile, the top level of the config file, the built-in default. `Layers::pick`
//! is that order written out once; every setting goes through it, and each records
//! its value and origin for `config show`.

use std::mem::discriminant;
use std::path::{Path, PathBuf};

use crate::domain::duration::format_duration;
use crate::domain::error::{ConfigError, SettingsError};
use crate::domain::format::{ColorChoice, OutputFormat};
use crate::domain::lookup::PathStyle;
use crate::settings::checks::{self, Rate};
use crate::settings::file::{self as config_file, ConfigFile, Layer};
use crate::settings::given::{flag_of, variable_of, Given};
use crate::settings::origin::Origin;
use crate::settings::secret::{exposed_key_warning, mask_key, read_key_file, trim_key};

/// The profile used when none is named, if the file has it (as aws-cli does).
pub const DEFAULT_PROFILE: &str = "default";

#[derive(Debug, Clone, PartialEq)]
pub struct Sourced<T> {
    pub value: T,
    pub origin: Origin,
}

impl<T> Sourced<T> {
    pub fn new(value: T, origin: Origin) -> Sourced<T> {
        Sourced { value, origin }
    }
}

/// One line of `config show`: a setting, its value as shown, where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShowRow {
    pub key: &'static str,
    pub value: String,
    pub origin: Origin,
}

/// The flags, the environment and the config file, and what was taken from them.
pub struct Layers {
    file: Option<ConfigFile>,
    profile: Option<String>,
    /// Every setting picked so far, for `config show`.
    pub rows: Vec<ShowRow>,
    /// Things to tell the user on stderr (never holding the key).
    pub warnings: Vec<String>,
}

impl Layers {
    /// The config file (`--config`, `SMSSTAT_CONFIG` or the default place) and its
    /// profile (`--profile`, `SMSSTAT_PROFILE`, else `default` if it has one).
    pub fn open(args: &Given) -> Result<Layers, SettingsError> {
        let mut layers = Layers {
            file: None,
            profile: None,
            rows: Vec::new(),
            warnings: Vec::new(),
        };
        let named = layers.pick("config", args.config.clone(), checks::path)?;
        let path = named.as_ref().map(|n| n.value.clone());
        let path = path.or_else(config_file::default_path);
        if let Some(path) = &path {
            layers.file = config_file::load(path, named.as_ref().map(|n| &n.origin))?;
        }
        let place = path.as_ref().map(|path| path.display().to_string());
        let place = place.unwrap_or_else(|| "(no config directory)".into());
        let shown = match path.is_some() && layers.file.is_none() {
            true => format!("{place} (not found)"),
            false => place.clone(),
        };
        let origin = named.map_or(Origin::Default, |n| n.origin);
        layers.row("config", shown, origin);
        let profile = layers.pick("profile", args.profile.clone(), checks::name)?;
        let profiles = layers.file.as_ref().map(|f| &f.top.profiles);
        let profile = match profile {
            None if profiles.is_some_and(|p| p.contains_key(DEFAULT_PROFILE)) => {
                Some(Sourced::new(DEFAULT_PROFILE.into(), Origin::Default))
            }
            Some(named) if !profiles.is_some_and(|p| p.contains_key(&named.value)) => {
                return Err(layers.no_profile(&named, &place).into());
            }
            profile => profile,
        };
        let none = || Sourced::new("(none)".into(), Origin::Default);
        let shown = profile.clone().unwrap_or_else(none);
        layers.row("profile", shown.value, shown.origin);
        layers.profile = profile.map(|p| p.value);
        if let Some(file) = layers.file.as_ref().filter(|f| f.holds_key()) {
            let warning = exposed_key_warning("config file", &file.path);
            layers.warnings.extend(warning);
        }
        Ok(layers)
    }

    /// A setting's value, highest layer first: the flag as clap parsed it, the
    /// variable, the profile, the top level of the file. A bad variable is exit 64
    /// naming it; a bad value in the file 78 naming its line and key.
    pub fn pick<T>(
        &self,
        key: &'static str,
        flag: Option<T>,
        parse: fn(&str) -> Result<T, String>,
    ) -> Result<Option<Sourced<T>>, SettingsError> {
        if let Some(value) = flag {
            return Ok(Some(Sourced::new(value, Origin::Flag(flag_of(key)))));
        }
        let name = variable_of(key);
        if let Ok(text) = std::env::var(&name) {
            let value = parse(&text).map_err(|why| bad_value(&name, &why))?;
            return Ok(Some(Sourced::new(value, Origin::Env(name))));
        }
        for (file, layer, origin) in self.file_layers() {
            if let Some(text) = layer.values.get(key) {
                let value = parse(text.get_ref()).map_err(|why| file.invalid_at(text, why))?;
                return Ok(Some(Sourced::new(value, origin)));
            }
        }
        Ok(None)
    }

    /// `pick`, else the default (written as its help writes it); shown in `config show`.
    pub fn value<T: Shown>(
        &mut self,
        key: &'static str,
        flag: Option<T>,
        parse: fn(&str) -> Result<T, String>,
        default: &str,
    ) -> Result<T, SettingsError> {
        let default = || Sourced::new(parse(default).expect("a valid default"), Origin::Default);
        let Sourced { value, origin } = self.pick(key, flag, parse)?.unwrap_or_else(default);
        self.row(key, value.shown(), origin);
        Ok(value)
    }

    /// `pick` for a setting with no default; shown in `config show`.
    pub fn optional<T: Shown>(
        &mut self,
        key: &'static str,
        flag: Option<T>,
        parse: fn(&str) -> Result<T, String>,
    ) -> Result<Option<Sourced<T>>, SettingsError> {
        let picked = self.pick(key, flag, parse)?;
        let row = picked.as_ref().map(|s| (s.value.shown(), s.origin.clone()));
        let (shown, origin) = row.unwrap_or_else(|| ("(not set)".into(), Origin::Default));
        self.row(key, shown, origin);
        Ok(picked)
    }

    pub fn row(&mut self, key: &'static str, value: String, origin: Origin) {
        self.rows.push(ShowRow { key, value, origin });
    }

    /// A path from the config file is relative to the file (`~/` is the home
    /// directory), so the file means the same wherever smsstat is started.
    pub fn placed(&self, path: &Sourced<PathBuf>) -> PathBuf {
        let (Origin::Profile { file, .. } | Origin::File(file)) = &path.origin else {
            return path.value.clone();
        };
        let home = |rest: &Path| Some(etcetera::home_dir().ok()?.join(rest));
        let from_home = path.value.strip_prefix("~").ok().and_then(home);
        // An absolute path is kept as it is by `join`.
        from_home.unwrap_or_else(|| file.parent().unwrap_or(Path::new("")).join(&path.value))
    }

    /// A value that passed its parser but cannot be used (a base URL, a CA file),
    /// said with where it came from: in the file, its line and key (all 78).
    pub fn unusable(&self, origin: &Origin, key: &str, why: String) -> ConfigError {
        let layer = self.file_layers().find(|(_, _, o)| o == origin);
        match (layer.and_then(|(_, l, _)| l.values.get(key)), &self.file) {
            (Some(value), Some(config)) => config.invalid_at(value, why),
            _ => ConfigError(why),
        }
    }

    /// The key and the file it was read from: the highest layer that has `api_key`
    /// or `api_key_file` (a layer with both is refused: which one was meant would be
    /// a guess). An empty or blank key is no key, from wherever it came.
    pub fn api_key(&mut self, args: &Given) -> Result<Option<String>, SettingsError> {
        let key = self.pick("api_key", args.api_key.clone(), |key| Ok(key.into()))?;
        let file = self.pick("api_key_file", args.api_key_file.clone(), checks::path)?;
        // Of a key and a key file, the one of the higher layer.
        let file = match (&key, file) {
            (Some(key), Some(file)) if discriminant(&key.origin) == discriminant(&file.origin) => {
                return Err(both_keys(&key.origin));
            }
            (Some(key), Some(file)) if key.origin < file.origin => None,
            (_, file) => file,
        };
        if let Some(file) = file {
            let path = self.placed(&file);
            let key = read_key_file(&path, &file.origin)?;
            self.warnings
                .extend(exposed_key_warning("API key file", &path));
            let shown = format!("{} (read from {})", mask_key(&key), path.display());
            self.row("api_key", shown, file.origin.clone());
            self.row("api_key_file", path.display().to_string(), file.origin);
            return Ok(Some(key));
        }
        self.row("api_key_file", "(none)".into(), Origin::Default);
        let (mut key, origin) = key.map_or_else(Default::default, |k| (k.value, k.origin));
        trim_key(&mut key, &origin, &mut self.warnings);
        if key.is_empty() {
            self.row("api_key", "(none: no key is sent)".into(), origin);
            return Ok(None);
        }
        if let Err(why) = checks::api_key(&key) {
            return Err(match &origin {
                Origin::Flag(name) | Origin::Env(name) => bad_value(name, &why),
                _ => self.unusable(&origin, "api_key", why).into(),
            });
        }
        self.row("api_key", mask_key(&key), origin);
        Ok(Some(key))
    }

    /// Why the profile named by `--profile`/`SMSSTAT_PROFILE` is not in the file at `place`.
    fn no_profile(&self, named: &Sourced<String>, place: &str) -> ConfigError {
        let (name, origin) = (&named.value, &named.origin);
        let Some(file) = &self.file else {
            return ConfigError(format!(
                "profile `{name}` ({origin}) needs a config file, but there is none at {place}"
            ));
        };
        let names: Vec<&str> = file.top.profiles.keys().map(String::as_str).collect();
        let available = match names.is_empty() {
            true => "it has no [profiles.NAME] tables".to_string(),
            false => format!("available: {}", names.join(", ")),
        };
        ConfigError(format!(
            "no profile `{name}` ({origin}) in {place}; {available}"
        ))
    }

    /// The file's layers, highest first: the profile, then the top level.
    fn file_layers(&self) -> impl Iterator<Item = (&ConfigFile, &Layer, Origin)> {
        let file = self.file.as_ref();
        let profile = file.and_then(|f| {
            let name = self.profile.as_ref()?;
            let origin = Origin::Profile {
                name: name.clone(),
                file: f.path.clone(),
            };
            Some((f, f.top.profiles.get(name)?, origin))
        });
        let top = file.map(|f| (f, &f.top, Origin::File(f.path.clone())));
        profile.into_iter().chain(top)
    }
}

fn both_keys(origin: &Origin) -> SettingsError {
    if let Origin::Flag(_) | Origin::Env(_) = origin {
        let why = "a key and a key file are both given (--api-key and --api-key-file, or \
                   SMSSTAT_API_KEY and SMSSTAT_API_KEY_FILE); keep one";
        return SettingsError::Usage(why.into());
    }
    let why = format!("both api_key and api_key_file are set in {origin}; keep one");
    ConfigError(why).into()
}

/// A bad value of a flag or a variable (exit 64), the message led by its name.
fn bad_value(name: &str, why: &str) -> SettingsError {
    SettingsError::Usage(format!("{name}: {why}"))
}

/// How a setting's value reads in `config show`.
pub trait Shown {
    fn shown(&self) -> String;
}

trait Plain: std::fmt::Display {}
impl Plain for String {}
impl Plain for u32 {}
impl Plain for u64 {}
impl Plain for usize {}
impl Plain for bool {}

impl<T: Plain> Shown for T {
    fn shown(&self) -> String {
        self.to_string()
    }
}

impl Shown for PathBuf {
    fn shown(&self) -> String {
        self.display().to_string()
    }
}

impl Shown for std::time::Duration {
    fn shown(&self) -> String {
        format_duration(*self)
    }
}

impl Shown for Rate {
    fn shown(&self) -> String {
        let unit = if self.per.as_secs() == 60 { "m" } else { "s" };
        format!("{}/{unit}", self.requests)
    }
}

/// The name `-o`, `--paths` and `--color` take.
fn value_name(value: &impl clap::ValueEnum) -> String {
    let name = value.to_possible_value();
    name.map_or_else(String::new, |v| v.get_name().to_string())
}

impl Shown for OutputFormat {
    fn shown(&self) -> String {
        value_name(self)
    }
}

impl Shown for PathStyle {
    fn shown(&self) -> String {
        value_name(self)
    }
}

impl Shown for ColorChoice {
    fn shown(&self) -> String {
        value_name(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_highest_layer_with_a_value_wins() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        let text = "retries = 1\ntimeout = \"3s\"\n[profiles.p]\nretries = 5\n";
        std::fs::write(&path, text).unwrap();
        let args = Given {
            config: Some(path.clone()),
            profile: Some("p".into()),
            ..Given::default()
        };
        let layers = Layers::open(&args).unwrap();
        let retries = |l: &Layers, flag| l.pick("retries", flag, checks::retries);
        let profile = Origin::Profile {
            name: "p".into(),
            file: path.clone(),
        };
        let picked = retries(&layers, None).unwrap().unwrap();
        assert_eq!(
            picked,
            Sourced {
                value: 5,
                origin: profile
            }
        );
        let timeout = layers.pick("timeout", None, checks::timeout);
        assert_eq!(timeout.unwrap().unwrap().origin, Origin::File(path.clone()));
        let unset = layers.pick("max_body", None, checks::parse_max_body);
        assert!(unset.unwrap().is_none());
        let flag = retries(&layers, Some(9)).unwrap().unwrap();
        assert_eq!(flag.origin, Origin::Flag("--retries".into()));
        let placed = layers.placed(&Sourced {
            value: PathBuf::from("key.txt"),
            origin: Origin::File(path.clone()),
        });
        assert_eq!(placed, dir.path().join("key.txt"));
        let absolute = PathBuf::from("/run/secrets/k");
        let origin = Origin::File(path);
        let kept = layers.placed(&Sourced {
            value: absolute.clone(),
            origin,
        });
        assert_eq!(kept, absolute);
    }
}
