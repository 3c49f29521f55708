//! The profile names of a config file, for completing `--profile`: read leniently
//! (only the `[profiles.NAME]` tables, whatever else the file holds), because a
//! completion must offer what it can rather than fail on a value being edited.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::de::IgnoredAny;
use serde::Deserialize;

use crate::settings::file::default_path;
use crate::settings::read::read_bounded_text;

#[derive(Deserialize)]
struct Profiles {
    #[serde(default)]
    profiles: BTreeMap<String, IgnoredAny>,
}

/// The file a lookup would read: `--config`, else `SMSSTAT_CONFIG`, else the
/// default place.
pub fn config_path(flag: Option<PathBuf>, env: Option<PathBuf>) -> Option<PathBuf> {
    flag.or(env).or_else(default_path)
}

/// The profile names of the file at `path`, sorted; none when it is missing,
/// unreadable or not TOML (read with the same bounds as any config file).
pub fn profile_names(path: &Path) -> Vec<String> {
    let Ok(text) = read_bounded_text(path) else {
        return Vec::new();
    };
    toml::from_str::<Profiles>(&text)
        .map(|file| file.profiles.into_keys().collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

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
