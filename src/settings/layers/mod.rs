//! Settings in layers: flag > environment > profile > top level of the config file >
//! built-in default. clap has already merged flags and environment into `Given`
//! (whose file-settable options have no clap defaults for exactly this reason); this
//! fills what is still unset from the config file and records where each came from.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::domain::error::{ConfigError, SettingsError};
use crate::domain::format::OutputFormat;
use crate::settings::checks;
use crate::settings::file::{self as config_file, ConfigFile, FileSettings};
use crate::settings::given::{Given, Texts};
use crate::settings::key_file::{exposed_key_warning, read_key_file, trim_key};
use crate::settings::origin::Origin;
use crate::settings::origin::{bad_value, ArgSource, CliSources};
use crate::settings::table::{
    self, resolved_type, settings_table, Id, Setting, Shown, API_KEY, API_KEY_FILE, BASE_URL,
    CONFIG, OUTPUT, PROFILE,
};

/// The profile used when none is named, if the file has it (as aws-cli does).
pub const DEFAULT_PROFILE: &str = "default";

/// Where each setting of the table came from.
#[derive(Debug, Clone, Default)]
pub struct Origins(BTreeMap<&'static str, Origin>);

impl Origins {
    pub fn of(&self, setting: &Setting) -> Origin {
        self.0.get(setting.key).cloned().unwrap_or(Origin::Default)
    }
}

/// The values of the table's settings after the layers (flag, environment, profile,
/// top level of the file, default), from the table: a setting with a default has its
/// type, one without is an Option. What was typed stays in `Given`.
macro_rules! layered_values {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident($id:ident) $field:ident: $ty:ty, $kind:ident $value:expr;
            $mode:ident, $file:ident, $flag:literal, $env:literal, $value_name:literal,
            $heading:ident, $check:path;
    )+) => {
        #[derive(Debug, Clone)]
        pub struct Layered {
            $(pub $field: resolved_type!($kind, $ty),)+
        }

        impl Layered {
            /// A setting's value as `config show` prints it.
            pub fn shown(&self, id: Id) -> String {
                match id {
                    $(Id::$id => shown!($kind $value, &self.$field),)+
                }
            }
        }

        impl Filler<'_> {
            /// Every setting: a layered one filled from its text, its check and the
            /// file's layers; one resolved by hand taken from `hand`.
            fn values(
                &mut self,
                texts: &Texts,
                hand: ByHand,
            ) -> Result<Layered, SettingsError> {
                Ok(Layered {
                    $($field: filled!(
                        $mode, $kind $value,
                        self.layered(&table::$name, texts, $check, |l| l.$field.clone())?,
                        hand.$field
                    ),)+
                })
            }
        }
    };
}

macro_rules! shown {
    (default $value:expr, $found:expr) => {
        Shown::shown($found)
    };
    (unset $value:expr, $found:expr) => {
        $found
            .as_ref()
            .map_or_else(|| String::from($value), Shown::shown)
    };
}

macro_rules! filled {
    (layered, $kind:ident $value:expr, $layered:expr, $hand:expr) => {
        or_default!($kind $value, $layered)
    };
    (by_hand, $kind:ident $value:expr, $layered:expr, $hand:expr) => {
        or_default!($kind $value, $hand)
    };
}

macro_rules! or_default {
    (default $value:expr, $found:expr) => {
        $found.unwrap_or_else(|| $value)
    };
    (unset $value:expr, $found:expr) => {
        $found
    };
}

settings_table!(layered_values);

/// The settings resolved by hand (they choose the file or the key, or clap types
/// them), before their defaults.
struct ByHand {
    config: Option<PathBuf>,
    profile: Option<String>,
    base_url: Option<String>,
    api_key: Option<String>,
    api_key_file: Option<PathBuf>,
    output: Option<OutputFormat>,
}

/// A value from the config file, placed: a path is relative to the file.
trait Placed: Sized {
    fn placed(self, _origin: &Origin) -> Self {
        self
    }
}

impl Placed for String {}
impl Placed for u32 {}
impl Placed for Duration {}
impl Placed for OutputFormat {}

impl Placed for PathBuf {
    fn placed(self, origin: &Origin) -> PathBuf {
        match origin {
            Origin::Profile { .. } | Origin::File(_) => file_setting_path(&self, origin),
            _ => self,
        }
    }
}

/// What resolving the layers found, for `config show` and for warnings.
#[derive(Debug, Clone)]
pub struct Resolution {
    /// The config file looked for (given, or the default path).
    pub file_path: Option<PathBuf>,
    pub file_found: bool,
    /// What named the config file (flag, environment or the default path).
    pub config_origin: Origin,
    /// The profile used, and what chose it.
    pub profile: Option<(String, Origin)>,
    pub values: Layered,
    pub origins: Origins,
    /// The file the key was read from, when it came from `api_key_file`.
    pub api_key_file: Option<PathBuf>,
    /// Things to tell the user on stderr (never holding the key).
    pub warnings: Vec<String>,
}

/// Resolves the file-settable settings through the layers and reports where every
/// one came from.
pub fn apply(args: &Given, sources: &CliSources) -> Result<Resolution, SettingsError> {
    let (file_path, given_by) = match &args.config {
        Some(path) => (Some(path.clone()), Some(given_by(sources.of(&CONFIG)))),
        None => (config_file::default_path(), None),
    };
    let file = match &file_path {
        Some(path) => config_file::load(path, given_by)?,
        None => None,
    };
    let profile = choose_profile(args, sources, file.as_ref(), file_path.as_deref())?;
    let mut filler = Filler {
        sources,
        layers: layers(
            file.as_ref(),
            profile.as_ref().map(|(name, _)| name.as_str()),
        ),
        origins: Origins::default(),
        warnings: Vec::new(),
    };
    if let Some(file) = &file {
        if file.holds_key() && config_file::readable_by_others(file.mode) {
            let warning = exposed_key_warning("config file", &file.path, file.mode);
            filler.warnings.push(warning);
        }
    }
    let (api_key, api_key_file) = filler.api_key(args)?;
    let hand = ByHand {
        config: file_path.clone(),
        profile: profile.as_ref().map(|(name, _)| name.clone()),
        base_url: filler.fill(&BASE_URL, args.base_url.clone(), |l| l.base_url.clone()),
        api_key,
        api_key_file: api_key_file.clone(),
        output: filler.output(args)?,
    };
    let values = filler.values(&args.layered, hand)?;
    Ok(Resolution {
        config_origin: Origin::of_arg(sources.of(&CONFIG), &CONFIG).unwrap_or(Origin::Default),
        file_found: file.is_some(),
        file_path,
        profile,
        values,
        origins: filler.origins,
        api_key_file,
        warnings: filler.warnings,
    })
}

fn given_by(source: ArgSource) -> &'static str {
    match source {
        ArgSource::Env => CONFIG.env,
        _ => CONFIG.flag,
    }
}

/// The profile named by `--profile`/`SMSSTAT_PROFILE`, which must exist, or else
/// `default` when the file has one.
fn choose_profile(
    args: &Given,
    sources: &CliSources,
    file: Option<&ConfigFile>,
    path: Option<&Path>,
) -> Result<Option<(String, Origin)>, ConfigError> {
    let shown_path = || path.map_or_else(|| "(no config dir)".into(), |p| p.display().to_string());
    let Some(name) = &args.profile else {
        let has_default = file.is_some_and(|f| f.profiles.contains_key(DEFAULT_PROFILE));
        return Ok(has_default.then(|| (DEFAULT_PROFILE.to_string(), Origin::Default)));
    };
    let origin =
        Origin::of_arg(sources.of(&PROFILE), &PROFILE).unwrap_or(Origin::Flag("--profile"));
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

/// Fills settings from the layers, recording where each value came from.
struct Filler<'a> {
    sources: &'a CliSources,
    /// The file's layers, highest precedence first.
    layers: Vec<(&'a FileSettings, Origin)>,
    origins: Origins,
    warnings: Vec<String>,
}

impl Filler<'_> {
    /// The value clap found (flag or environment), else the first layer's.
    fn fill<T>(
        &mut self,
        setting: &Setting,
        typed: Option<T>,
        get: impl Fn(&FileSettings) -> Option<T>,
    ) -> Option<T> {
        let (value, origin) = match typed {
            Some(value) => {
                let origin = Origin::of_arg(self.sources.of(setting), setting);
                (Some(value), origin.unwrap_or(Origin::Default))
            }
            None => self
                .layers
                .iter()
                .find_map(|(layer, origin)| get(layer).map(|v| (Some(v), origin.clone())))
                .unwrap_or((None, Origin::Default)),
        };
        self.origins.0.insert(setting.key, origin);
        value
    }

    /// A layered setting: its text from the flag or the variable, checked here, where
    /// it is known which of the two gave it, so the message names that one (exit 64),
    /// else the file's layers (checked as the file was read: line and key, 78).
    fn layered<T: Placed>(
        &mut self,
        setting: &Setting,
        texts: &Texts,
        check: impl Fn(&str) -> Result<T, String>,
        get: impl Fn(&FileSettings) -> Option<T>,
    ) -> Result<Option<T>, SettingsError> {
        let typed = texts
            .get(setting.id)
            .map(|text| {
                check(text).map_err(|why| bad_value(self.sources.of(setting), setting, &why))
            })
            .transpose()?;
        let value = self.fill(setting, typed, get);
        let origin = self.origins.of(setting);
        Ok(value.map(|value| value.placed(&origin)))
    }

    /// The key from the flag or environment, else from the first layer that has
    /// `api_key` or `api_key_file` (one layer may not have both: which one was meant
    /// would be a guess). Also the file it was read from.
    fn api_key(
        &mut self,
        args: &Given,
    ) -> Result<(Option<String>, Option<PathBuf>), SettingsError> {
        // A key typed or exported wins over every file layer; of a key and a key
        // file given at once, the flag wins over the environment.
        let key_source = self.sources.of(&API_KEY);
        let file_source = self.sources.of(&API_KEY_FILE);
        let file_first = args.api_key.is_none() || file_source > key_source;
        if let (Some(path), true) = (&args.api_key_file, file_first) {
            let origin = Origin::of_arg(file_source, &API_KEY_FILE).unwrap_or_default();
            self.origins.0.insert(API_KEY.key, origin.clone());
            return Ok(self.key_from_file(path.clone(), &origin)?);
        }
        if let Some(key) = &args.api_key {
            let mut key = self.fill(&API_KEY, Some(key.clone()), |_| None);
            if let Some(key) = &mut key {
                trim_key(key, &self.origins.of(&API_KEY), &mut self.warnings);
                checks::api_key(key).map_err(|why| bad_value(key_source, &API_KEY, &why))?;
            }
            return Ok((key, None));
        }
        let (found, origin) = match self
            .layers
            .iter()
            .find(|(layer, _)| layer.api_key.is_some() || layer.api_key_file.is_some())
        {
            Some((layer, origin)) => (
                (layer.api_key.clone(), layer.api_key_file.clone()),
                origin.clone(),
            ),
            None => return Ok((self.fill(&API_KEY, None, |_| None), None)),
        };
        self.origins.0.insert(API_KEY.key, origin.clone());
        match found {
            (Some(_), Some(_)) => Err(ConfigError(format!(
                "both api_key and api_key_file are set in {origin}; keep one"
            ))
            .into()),
            (Some(mut key), None) => {
                trim_key(&mut key, &origin, &mut self.warnings);
                Ok((Some(key), None))
            }
            (_, path) => {
                let path = file_setting_path(&path.unwrap_or_default(), &origin);
                Ok(self.key_from_file(path, &origin)?)
            }
        }
    }

    /// The key read from a file, with a warning when others can read the file.
    fn key_from_file(
        &mut self,
        path: PathBuf,
        origin: &Origin,
    ) -> Result<(Option<String>, Option<PathBuf>), ConfigError> {
        let key = read_key_file(&path, origin)?;
        let mode = config_file::file_mode(&path);
        if config_file::readable_by_others(mode) {
            let warning = exposed_key_warning("API key file", &path, mode);
            self.warnings.push(warning);
        }
        Ok((Some(key), Some(path)))
    }

    /// `--json` and `-o` first, then `SMSSTAT_OUTPUT`, then the file. The variable
    /// is read here rather than by clap: clap would count it as given and refuse it
    /// beside `--json`.
    fn output(&mut self, args: &Given) -> Result<Option<OutputFormat>, SettingsError> {
        if args.json {
            self.origins.0.insert(OUTPUT.key, Origin::Flag("--json"));
            return Ok(Some(OutputFormat::Json));
        }
        if args.output.is_none() {
            if let Some(text) = std::env::var(OUTPUT.env).ok().filter(|v| !v.is_empty()) {
                let format = checks::output(&text)
                    .map_err(|why| bad_value(ArgSource::Env, &OUTPUT, &why))?;
                self.origins.0.insert(OUTPUT.key, Origin::Env(OUTPUT.env));
                return Ok(Some(format));
            }
        }
        Ok(self.fill(&OUTPUT, args.output, |l| l.output))
    }
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

#[cfg(test)]
mod tests;
