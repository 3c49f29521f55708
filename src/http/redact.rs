//! The API key taken out of everything a server sends back. A hostile or careless
//! server may echo the key (in an error description, a field, a `Location`); smsstat
//! prints answers to terminals and CI logs, so every occurrence becomes `****` before
//! any output sees it. Exactness of `--json` yields to this: a key is never printed.

use serde_json::{Map, Value};

use crate::domain::error::LookupError;
use crate::domain::record::Record;
use crate::settings::secret::ApiKey;

/// What the key is replaced by.
pub const MASK: &str = "****";

/// Replaces the key as sent, in any ASCII letter case, and percent-encoded (a server
/// echoing it in a URL, say a `Location`), by the mask.
pub fn scrub_string(text: &mut String, key: &str) {
    if key.is_empty() {
        return;
    }
    let encoded =
        percent_encoding::utf8_percent_encode(key, percent_encoding::NON_ALPHANUMERIC).to_string();
    replace_ignoring_case(text, key);
    if encoded != key {
        replace_ignoring_case(text, &encoded);
    }
}

fn replace_ignoring_case(text: &mut String, needle: &str) {
    // ASCII lowercasing keeps every byte where it was, so positions found in the
    // lowered copy are positions in the original.
    let lowered = text.to_ascii_lowercase();
    let needle = needle.to_ascii_lowercase();
    if !lowered.contains(&needle) {
        return;
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = 0;
    for (at, _) in lowered.match_indices(&needle) {
        out.push_str(&text[rest..at]);
        out.push_str(MASK);
        rest = at + needle.len();
    }
    out.push_str(&text[rest..]);
    *text = out;
}

/// Strings anywhere in a JSON value, object keys included.
pub fn scrub_value(value: &mut Value, key: &str) {
    match value {
        Value::String(s) => scrub_string(s, key),
        Value::Array(items) => items.iter_mut().for_each(|v| scrub_value(v, key)),
        Value::Object(map) => scrub_map(map, key),
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

pub fn scrub_map(map: &mut Map<String, Value>, key: &str) {
    if key.is_empty() {
        return;
    }
    // Rebuilt rather than edited in place: a key may be renamed, and order is kept.
    let entries = std::mem::take(map);
    for (mut name, mut value) in entries {
        scrub_string(&mut name, key);
        scrub_value(&mut value, key);
        map.insert(name, value);
    }
}

/// The key taken out of one lookup's result, record or error.
pub fn scrub_result(result: &mut Result<Record, LookupError>, key: Option<&ApiKey>) {
    let Some(key) = key.map(ApiKey::expose).filter(|k| !k.is_empty()) else {
        return;
    };
    match result {
        Ok(record) => scrub_map(&mut record.fields, key),
        Err(error) => scrub_error(error, key),
    }
}

fn scrub_error(error: &mut LookupError, key: &str) {
    match error {
        LookupError::Service {
            shown_code,
            description,
            body,
            ..
        } => {
            scrub_string(shown_code, key);
            if let Some(text) = description {
                scrub_string(text, key);
            }
            scrub_map(body, key);
        }
        LookupError::UnexpectedHttp {
            location: Some(location),
            ..
        } => scrub_string(location, key),
        LookupError::Usage(text)
        | LookupError::Unreadable(text)
        | LookupError::Unavailable(text)
        | LookupError::Unreachable(text)
        | LookupError::Internal(text)
        | LookupError::NotLookedUp { reason: text, .. } => scrub_string(text, key),
        LookupError::UnexpectedHttp { location: None, .. }
        | LookupError::Timeout(_)
        | LookupError::WaitOver
        | LookupError::NotAuthorised(_)
        | LookupError::Interrupted => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::record::RecordKind;
    use serde_json::json;

    const KEY: &str = "acc-secret-7f3";

    #[test]
    fn keys_and_values_at_any_depth() {
        let mut value =
            json!({"a": "x acc-secret-7f3 y", "acc-secret-7f3": [1, {"b": "acc-secret-7f3"}]});
        scrub_value(&mut value, KEY);
        assert_eq!(value, json!({"a": "x **** y", "****": [1, {"b": "****"}]}));
    }

    #[test]
    fn other_cases_and_percent_encoding_too() {
        let mut text = "ACC-SECRET-7F3 and acc%2Dsecret%2D7f3 and Acc-Secret-7f3!".to_string();
        scrub_string(&mut text, KEY);
        assert_eq!(text, "**** and **** and ****!");
        let mut plain = "nothing here".to_string();
        scrub_string(&mut plain, KEY);
        assert_eq!(plain, "nothing here");
    }

    #[test]
    fn errors_and_records() {
        let key = ApiKey::new(KEY);
        let body = json!({"error": 1, "errorDescription": "bad key acc-secret-7f3"});
        let mut result: Result<Record, LookupError> = Err(LookupError::Service {
            code: Some(1),
            shown_code: "1".into(),
            description: Some("bad key acc-secret-7f3".into()),
            body: Box::new(body.as_object().cloned().unwrap()),
        });
        scrub_result(&mut result, Some(&key));
        let text = format!("{:?}", result);
        assert!(!text.contains(KEY), "{text}");
        let mut result = Err(LookupError::UnexpectedHttp {
            status: 302,
            location: Some("http://x/?k=acc-secret-7f3".into()),
        });
        scrub_result(&mut result, Some(&key));
        assert!(!result.unwrap_err().to_string().contains(KEY));
        let mut ok = Ok(Record {
            kind: RecordKind::Sms,
            fields: json!({"status": "acc-secret-7f3"})
                .as_object()
                .cloned()
                .unwrap(),
        });
        scrub_result(&mut ok, Some(&key));
        assert_eq!(ok.unwrap().fields["status"], "****");
    }
}
