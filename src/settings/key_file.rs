//! The API key as read from a setting: trimmed with a warning, read from a key file
//! with the bounded reader, and a warning when the file is readable by others.

use std::path::Path;

use crate::domain::error::ConfigError;
use crate::settings::checks;
use crate::settings::origin::Origin;

/// Spaces or a line break around a pasted key are a copying accident, not part of the
/// key: the trimmed key is what is sent (and masked), with a warning.
/// A key of nothing but spaces is an empty variable or paste gone wrong: like an
/// empty key it means no key is sent, and the warning says so.
pub(crate) fn trim_key(key: &mut String, origin: &Origin, warnings: &mut Vec<String>) {
    let trimmed = key.trim();
    if trimmed.is_empty() && !key.is_empty() {
        warnings.push(format!(
            "the API key from {origin} is empty once its spaces or line breaks are removed; \
             no key will be sent"
        ));
        key.clear();
    } else if trimmed.len() != key.len() {
        warnings.push(format!(
            "the API key from {origin} has spaces or line breaks around it; they were removed"
        ));
        *key = trimmed.to_string();
    }
}

pub(crate) fn read_key_file(path: &Path, origin: &Origin) -> Result<String, ConfigError> {
    let shown = format!(
        "the API key file {} (api_key_file in {origin})",
        path.display()
    );
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
/// key in it is not secret); none on systems without permission bits.
pub(crate) fn exposed_key_warning(what: &str, path: &Path) -> Option<String> {
    let mode = file_mode(path).filter(|mode| mode & 0o077 != 0)?;
    Some(format!(
        "{what} {} holds an API key and can be read by other users (mode {mode:04o}); \
         restrict it: chmod 600 {}",
        path.display(),
        path.display()
    ))
}

/// The permission bits of a file, on systems that have them.
fn file_mode(path: &Path) -> Option<u32> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path)
            .ok()
            .map(|m| m.permissions().mode() & 0o777)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
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
