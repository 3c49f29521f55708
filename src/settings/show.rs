//! The data of `smsstat config show`: one row per setting of the table, with its
//! resolved value (the key masked) and where it came from.

use crate::settings::checks::{has_credentials, mask_credentials};
use crate::settings::given::Given;
use crate::settings::layers::Resolution;
use crate::settings::origin::Origin;
use crate::settings::secret::mask_key;
use crate::settings::table::{Id, Setting, CONFIG, SETTINGS};

/// One line of the listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShowRow {
    /// The setting's key in the table (`config` for the file's own row).
    pub key: &'static str,
    pub setting: &'static str,
    pub value: String,
    pub origin: Origin,
}

/// Every setting of the table, in its order.
pub fn rows(args: &Given, resolution: &Resolution) -> Vec<ShowRow> {
    SETTINGS
        .iter()
        .map(|setting| {
            let (value, origin) = value(setting, args, resolution);
            ShowRow {
                key: setting.key,
                // The file's own row reads as what it is, not as the flag's name.
                setting: if setting == &CONFIG {
                    "config file"
                } else {
                    setting.key
                },
                value,
                origin,
            }
        })
        .collect()
}

fn value(setting: &Setting, args: &Given, resolution: &Resolution) -> (String, Origin) {
    let values = &resolution.values;
    let origin = resolution.origins.of(setting);
    let value = match setting.id {
        Id::Config => {
            let shown = match (&resolution.file_path, resolution.file_found) {
                (Some(path), true) => path.display().to_string(),
                (Some(path), false) => format!("{} (not found)", path.display()),
                (None, _) => "(no config directory)".into(),
            };
            return (shown, resolution.config_origin.clone());
        }
        Id::Profile => {
            return match &resolution.profile {
                Some((name, origin)) => (name.clone(), origin.clone()),
                None => ("(none)".into(), Origin::Default),
            }
        }
        Id::BaseUrl if args.demo => {
            let shown = "(the built-in simulator, on a free loopback port)";
            return (shown.into(), Origin::Demo);
        }
        Id::BaseUrl => match values.base_url.as_deref() {
            // Shown masked, as lookups refuse it: the listing ends in exit 78.
            Some(url) if has_credentials(url) => format!(
                "{} (refused: credentials in the URL)",
                mask_credentials(url)
            ),
            Some(url) => url.to_string(),
            None => "(not set)".into(),
        },
        Id::ApiKey => match (&values.api_key, &resolution.api_key_file) {
            (Some(key), Some(path)) => format!("{} (read from {})", mask_key(key), path.display()),
            (Some(key), None) => mask_key(key),
            (None, _) => "(none: no key is sent)".into(),
        },
        Id::ApiKeyFile => {
            return match &resolution.api_key_file {
                Some(path) => (path.display().to_string(), origin_of_key(resolution)),
                None => ("(none)".into(), Origin::Default),
            }
        }
        // The rest read as their values do (`Layered::shown`, built from the table,
        // covers every setting).
        _ => values.shown(setting.id),
    };
    (value, origin)
}

fn origin_of_key(resolution: &Resolution) -> Origin {
    resolution.origins.of(&crate::settings::table::API_KEY)
}
