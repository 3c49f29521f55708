//! The API key: read from a setting (trimmed, with a warning) or a key file, kept as a
//! secret type, and only ever shown masked.

use std::fmt;
use std::path::Path;

use crate::domain::error::ConfigError;
use crate::settings::checks;
use crate::settings::origin::Origin;

/// The API key. It has no `Display`, and its `Debug` is redacted, so it cannot end up
/// in a message by accident.
#[derive(Clone)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn new(key: impl Into<String>) -> ApiKey {
        ApiKey(key.into())
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(****)")
    }
}

/// `****-7f3`: at most the last 4 characters, so two keys can be told apart without
/// showing either; nothing of a key shorter than 16 characters, as even 4 characters
/// of a short key narrow it down too much.
pub fn mask_key(key: &str) -> String {
    let count = key.chars().count();
    if count < 16 {
        return "****".into();
    }
    let tail: String = key.chars().skip(count - 4).collect();
    format!("****{tail}")
}

/// Spaces or line breaks around a pasted key are a copying accident: the trimmed key
/// is sent (and masked), with a warning; a blank key, like an empty one, is no key.
pub(crate) fn trim_key(key: &mut String, origin: &Origin, warnings: &mut Vec<String>) {
    let trimmed = key.trim();
    if trimmed.len() == key.len() {
        return;
    }
    let said = match trimmed.is_empty() {
        true => "is empty once its spaces or line breaks are removed; no key will be sent",
        false => "has spaces or line breaks around it; they were removed",
    };
    warnings.push(format!("the API key from {origin} {said}"));
    *key = trimmed.to_string();
}

pub(crate) fn read_key_file(path: &Path, origin: &Origin) -> Result<String, ConfigError> {
    let file = path.display();
    let shown = format!("the API key file {file} (api_key_file in {origin})");
    let text = crate::settings::read::read_bounded_text(path)
        .map_err(|err| ConfigError(format!("cannot read {shown}: {err}")))?;
    let key = text.trim();
    if key.is_empty() {
        return Err(ConfigError(format!("{shown} is empty")));
    }
    checks::api_key(key).map_err(|why| ConfigError(format!("{shown}: {why}")))?;
    Ok(key.to_string())
}

/// The warning for a file holding a key that group or others may read or write (a
/// key in it is not secret).
pub(crate) fn exposed_key_warning(what: &str, path: &Path) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path).ok()?.permissions().mode() & 0o777;
    let path = path.display();
    (mode & 0o077 != 0).then(|| {
        format!(
            "{what} {path} holds an API key and can be read by other users (mode {mode:04o}); \
             restrict it: chmod 600 {path}"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_masked() {
        assert_eq!(mask_key("acc-12345-abcdef-7f3"), "****-7f3");
        assert_eq!(mask_key("0123456789abcdef"), "****cdef");
        assert_eq!(mask_key("0123456789abcde"), "****");
        assert_eq!(mask_key("short-key"), "****");
        assert_eq!(mask_key(""), "****");
    }

    #[test]
    fn api_key_debug_is_redacted() {
        let key = ApiKey("secret-value".into());
        assert!(!format!("{key:?}").contains("secret"));
    }

    #[test]
    fn modes_readable_by_others() {
        use std::os::unix::fs::PermissionsExt;
        let file = tempfile::NamedTempFile::new().unwrap();
        let warned = |mode| {
            let permissions = std::fs::Permissions::from_mode(mode);
            std::fs::set_permissions(file.path(), permissions).unwrap();
            exposed_key_warning("config file", file.path()).is_some()
        };
        assert!(warned(0o644));
        assert!(warned(0o640));
        assert!(!warned(0o600));
        assert!(exposed_key_warning("config file", Path::new("/nonexistent/k")).is_none());
    }
}
