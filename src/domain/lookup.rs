//! What each lookup asks for: validation of the value and the request paths to try.

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

use crate::domain::error::LookupError;
use crate::domain::record::{has_any, plain_text, Record, RecordKind};
use crate::domain::sanitize::{escape_control, preview};

/// Longest value accepted: longer is surely a mistake, and would earn a 414.
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PathStyle {
    #[default]
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
    /// The subcommand name (in messages: `sms 999: SMS not found`), the kind of
    /// record it answers, its explicit path prefix, and the spec's short form where
    /// that differs.
    fn row(self) -> (&'static str, RecordKind, &'static str, Option<&'static str>) {
        match self {
            LookupKind::Sms => ("sms", RecordKind::Sms, "/sms/", None),
            LookupKind::SmsRef => ("sms-ref", RecordKind::Sms, "/sms/reference/", Some("/sms/")),
            LookupKind::Task => ("task", RecordKind::Task, "/sms/task/", Some("/sms/")),
            LookupKind::Hlr => ("hlr", RecordKind::Hlr, "/hlr/", None),
            LookupKind::HlrRef => ("hlr-ref", RecordKind::Hlr, "/hlr/reference/", Some("/hlr/")),
        }
    }

    pub fn name(self) -> &'static str {
        self.row().0
    }

    pub fn record_kind(self) -> RecordKind {
        self.row().1
    }

    /// The lookup a subcommand name stands for, if it is one.
    pub fn from_name(name: &str) -> Option<LookupKind> {
        use LookupKind::*;
        let all = [Sms, SmsRef, Task, Hlr, HlrRef];
        all.into_iter().find(|kind| kind.name() == name)
    }

    /// Whether `record` is what this lookup asked for: short forms overlap
    /// (`/sms/{reference}` is also `/sms/{id}`, `/sms/{task_id}` too), so a
    /// deployment may answer another record.
    pub fn check_answer(self, value: &str, record: &Record) -> Result<(), String> {
        let wanted = self.record_kind();
        let counters = ["sent", "total", "delivered", "totalprice", "originator"];
        let task_like = has_any(&record.fields, &counters);
        // A bare `{"status":...}` is classified as what was asked; a task has no
        // status of its own, so that cannot be a task record.
        let is_status_only_task =
            record.kind == RecordKind::Task && record.get("status").is_some() && !task_like;
        if record.kind != wanted || is_status_only_task {
            let got = match is_status_only_task {
                true => "a record with a status, not task counters".to_string(),
                false => format!("{} record", record.kind.with_article()),
            };
            let wanted = wanted.with_article();
            return Err(format!(
                "asked for {wanted} record, the answer is {got} (short forms overlap; \
                 `--paths explicit` avoids them)"
            ));
        }
        let by_reference = matches!(self, LookupKind::SmsRef | LookupKind::HlrRef);
        let other = record.get("reference").map(plain_text);
        match other.filter(|other| by_reference && other.trim() != value.trim()) {
            Some(other) => {
                let (value, other, name) = (preview(value), preview(&other), wanted.name());
                Err(format!(
                    "asked for reference `{value}`, the answer is the record of reference \
                     `{other}` (short forms overlap: /{name}/{{reference}} is also /{name}/{{id}})"
                ))
            }
            None => Ok(()),
        }
    }

    /// Checks a value before anything is sent (exit 64 when it is unusable).
    pub fn validate(self, value: &str) -> Result<(), LookupError> {
        let (name, len) = (self.name(), value.len());
        let by_id = matches!(self, LookupKind::Sms | LookupKind::Hlr);
        let problem = if value.is_empty() {
            "empty value".to_string()
        } else if len > MAX_VALUE_LEN {
            format!("value is {len} bytes long; at most {MAX_VALUE_LEN} are accepted")
        } else if by_id && !value.bytes().all(|b| b.is_ascii_digit()) {
            let (value, id) = (escape_control(value), name.to_uppercase());
            format!(
                "`{value}` is not a numeric {id} ID; to look up a reference use \
                 `smsstat {name}-ref`"
            )
        } else {
            return Ok(());
        };
        Err(LookupError::Usage(problem))
    }

    /// Paths to try, in order; with `auto`, the short form only when a deployment
    /// lacks the explicit route.
    pub fn paths(self, value: &str, style: PathStyle) -> Vec<String> {
        let path = |prefix: &str| format!("{prefix}{}", segment(value));
        let (.., explicit, short) = self.row();
        match (style, short) {
            (PathStyle::Short, Some(short)) => vec![path(short)],
            (PathStyle::Auto, Some(short)) => vec![path(explicit), path(short)],
            _ => vec![path(explicit)],
        }
    }
}

/// Percent-encodes a value as exactly one path segment; `.` and `..` are encoded too,
/// so that no client, proxy or server normalises them into a different path.
fn segment(value: &str) -> std::borrow::Cow<'_, str> {
    match value {
        "." => "%2E".into(),
        ".." => "%2E%2E".into(),
        _ => utf8_percent_encode(value, SEGMENT).into(),
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

    fn encode_segment(value: &str) -> String {
        let path = LookupKind::Sms.paths(value, PathStyle::Explicit).remove(0);
        path.strip_prefix("/sms/").unwrap().to_string()
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

    fn answer(kind: RecordKind, value: serde_json::Value) -> Record {
        Record::of_kind(kind, value)
    }

    #[test]
    fn another_reference_is_not_the_record_asked_for() {
        let other = answer(
            RecordKind::Sms,
            serde_json::json!({"reference": "someone-elses-order", "status": "delivered"}),
        );
        let err = LookupKind::SmsRef
            .check_answer("12345", &other)
            .unwrap_err();
        assert!(
            err.contains("`12345`") && err.contains("`someone-elses-order`"),
            "{err}"
        );
        let own = answer(RecordKind::Sms, serde_json::json!({"reference": "12345"}));
        assert!(LookupKind::SmsRef.check_answer("12345", &own).is_ok());
        // No reference field: nothing to compare, the record stands.
        let bare = answer(RecordKind::Sms, serde_json::json!({"status": "sent"}));
        assert!(LookupKind::SmsRef.check_answer("12345", &bare).is_ok());
        // An ID lookup does not compare references.
        assert!(LookupKind::Sms.check_answer("12345", &other).is_ok());
    }

    #[test]
    fn each_lookup_must_answer_its_own_kind() {
        let sms = answer(RecordKind::Sms, serde_json::json!({"status": "delivered"}));
        let err = LookupKind::Task.check_answer("6", &sms).unwrap_err();
        assert!(
            err.starts_with("asked for a task record, the answer is an SMS record"),
            "{err}"
        );
        assert!(LookupKind::Hlr.check_answer("6", &sms).is_err());
        let status_only = answer(RecordKind::Task, serde_json::json!({"status": "delivered"}));
        assert!(LookupKind::Task.check_answer("6", &status_only).is_err());
        let task = answer(RecordKind::Task, serde_json::json!({"sent": 3}));
        assert!(LookupKind::Task.check_answer("6", &task).is_ok());
        // `kind as usize` indexes arrays of five (http::client's route evidence).
        assert_eq!(LookupKind::HlrRef as usize, 4);
        assert_eq!(LookupKind::from_name("hlr-ref"), Some(LookupKind::HlrRef));
        assert_eq!(LookupKind::from_name("sim"), None);
    }

    #[test]
    fn numeric_ids_are_checked() {
        assert!(LookupKind::Sms.validate("42").is_ok());
        assert!(LookupKind::Sms.validate("abc").is_err());
        assert!(LookupKind::Sms.validate("+5").is_err());
        assert!(LookupKind::Sms.validate("").is_err());
        let hlr = LookupKind::Hlr.validate("-1").unwrap_err().to_string();
        assert_eq!(
            hlr,
            "`-1` is not a numeric HLR ID; to look up a reference use `smsstat hlr-ref`"
        );
        assert!(LookupKind::SmsRef.validate("any thing/ at all").is_ok());
        assert!(LookupKind::SmsRef
            .validate(&"x".repeat(MAX_VALUE_LEN + 1))
            .is_err());
    }
}
