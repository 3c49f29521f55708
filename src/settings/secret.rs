//! The API key as a secret type, and the one way it is ever shown: masked.

use std::fmt;

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
}
