//! What each lookup asks for: validation of the value and the request paths to try.

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

use crate::domain::error::LookupError;
use crate::domain::record::RecordKind;

/// Longest value accepted; longer ones are surely a mistake (a pasted file?) and
/// would only earn a 414 from a proxy.
pub const MAX_VALUE_LEN: usize = 1024;

/// Everything but RFC 3986 unreserved characters is encoded, so a value always stays
/// one path segment: `/`, `?`, `#`, `%`, spaces and non-ASCII included.
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// Which request paths a lookup uses: explicit (`/sms/reference/R`), short
/// (`/sms/R`), or auto (explicit, then short when the explicit route is missing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathStyle {
    Auto,
    Explicit,
    Short,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LookupKind {
    Sms,
    SmsRef,
    Task,
    Hlr,
    HlrRef,
}

impl LookupKind {
    /// The subcommand name, used in messages (`sms 999: SMS not found`).
    pub fn name(self) -> &'static str {
        match self {
            LookupKind::Sms => "sms",
            LookupKind::SmsRef => "sms-ref",
            LookupKind::Task => "task",
            LookupKind::Hlr => "hlr",
            LookupKind::HlrRef => "hlr-ref",
        }
    }

    /// The kind of record this lookup is expected to return.
    pub fn record_kind(self) -> RecordKind {
        match self {
            LookupKind::Sms | LookupKind::SmsRef => RecordKind::Sms,
            LookupKind::Task => RecordKind::Task,
            LookupKind::Hlr | LookupKind::HlrRef => RecordKind::Hlr,
        }
    }

    fn explicit_prefix(self) -> &'static str {
        match self {
            LookupKind::Sms => "/sms/",
            LookupKind::SmsRef => "/sms/reference/",
            LookupKind::Task => "/sms/task/",
            LookupKind::Hlr => "/hlr/",
            LookupKind::HlrRef => "/hlr/reference/",
        }
    }

    /// The spec's short form, where it differs from the explicit one.
    fn short_prefix(self) -> Option<&'static str> {
        match self {
            LookupKind::SmsRef | LookupKind::Task => Some("/sms/"),
            LookupKind::HlrRef => Some("/hlr/"),
            LookupKind::Sms | LookupKind::Hlr => None,
        }
    }

    /// Checks a value before anything is sent (exit 64 when it is unusable).
    pub fn validate(self, value: &str) -> Result<(), LookupError> {
        if value.is_empty() {
            return Err(LookupError::Usage("empty value".into()));
        }
        if value.len() > MAX_VALUE_LEN {
            return Err(LookupError::Usage(format!(
                "value is {} bytes long; at most {MAX_VALUE_LEN} are accepted",
                value.len()
            )));
        }
        let numeric = value.bytes().all(|b| b.is_ascii_digit());
        match self {
            LookupKind::Sms if !numeric => Err(LookupError::Usage(format!(
                "`{}` is not a numeric SMS ID; to look up a reference use `smsstat sms-ref`",
                crate::domain::sanitize::escape_control(value)
            ))),
            LookupKind::Hlr if !numeric => Err(LookupError::Usage(format!(
                "`{}` is not a numeric HLR ID; to look up a reference use `smsstat hlr-ref`",
                crate::domain::sanitize::escape_control(value)
            ))),
            _ => Ok(()),
        }
    }

    /// Paths to try, in order, relative to the base URL. With `auto`, the short form
    /// comes second: it is tried only when a deployment lacks the explicit route.
    pub fn paths(self, value: &str, style: PathStyle) -> Vec<String> {
        let segment = encode_segment(value);
        let explicit = format!("{}{segment}", self.explicit_prefix());
        let short = self.short_prefix().map(|p| format!("{p}{segment}"));
        match (style, short) {
            (PathStyle::Explicit, _) | (_, None) => vec![explicit],
            (PathStyle::Short, Some(short)) => vec![short],
            (PathStyle::Auto, Some(short)) => vec![explicit, short],
        }
    }
}

/// Percent-encodes a value as exactly one path segment; `.` and `..` are encoded too,
/// so that no client, proxy or server normalises them into a different path.
pub fn encode_segment(value: &str) -> String {
    match value {
        "." => "%2E".into(),
        ".." => "%2E%2E".into(),
        _ => utf8_percent_encode(value, SEGMENT).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_paths() {
        let auto = PathStyle::Auto;
        assert_eq!(LookupKind::Sms.paths("42", auto), ["/sms/42"]);
        assert_eq!(LookupKind::Hlr.paths("7", auto), ["/hlr/7"]);
        assert_eq!(
            LookupKind::SmsRef.paths("r1", auto),
            ["/sms/reference/r1", "/sms/r1"]
        );
        assert_eq!(LookupKind::Task.paths("6", auto), ["/sms/task/6", "/sms/6"]);
        assert_eq!(
            LookupKind::HlrRef.paths("x", auto),
            ["/hlr/reference/x", "/hlr/x"]
        );
    }

    #[test]
    fn pinned_path_styles() {
        assert_eq!(
            LookupKind::Task.paths("6", PathStyle::Explicit),
            ["/sms/task/6"]
        );
        assert_eq!(LookupKind::Task.paths("6", PathStyle::Short), ["/sms/6"]);
        assert_eq!(LookupKind::Sms.paths("6", PathStyle::Short), ["/sms/6"]);
    }

    #[test]
    fn awkward_values_stay_one_segment() {
        assert_eq!(encode_segment("a/b"), "a%2Fb");
        assert_eq!(encode_segment("a b?c#d%e"), "a%20b%3Fc%23d%25e");
        assert_eq!(encode_segment("ключ"), "%D0%BA%D0%BB%D1%8E%D1%87");
        assert_eq!(encode_segment(".."), "%2E%2E");
        assert_eq!(encode_segment("."), "%2E");
        assert_eq!(encode_segment("a.b-c_d~e"), "a.b-c_d~e");
    }

    #[test]
    fn numeric_ids_are_checked() {
        assert!(LookupKind::Sms.validate("42").is_ok());
        assert!(LookupKind::Sms.validate("abc").is_err());
        assert!(LookupKind::Sms.validate("+5").is_err());
        assert!(LookupKind::Sms.validate("").is_err());
        assert!(LookupKind::Hlr.validate("-1").is_err());
        assert!(LookupKind::SmsRef.validate("any thing/ at all").is_ok());
        assert!(LookupKind::SmsRef
            .validate(&"x".repeat(MAX_VALUE_LEN + 1))
            .is_err());
    }
}
