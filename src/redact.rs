//! The API key taken out of everything a server sends back. A hostile or careless
//! server may echo the key (in an error description, a field, a `Location`); smsstat
//! prints answers to terminals and CI logs, so every occurrence becomes `****` before
//! any output sees it. Exactness of `--json` yields to this: a key is never printed.

use serde_json::{Map, Value};

use crate::config::ApiKey;
use crate::error::LookupError;
use crate::model::Record;

/// What the key is replaced by.
pub const MASK: &str = "****";

fn scrub_string(text: &mut String, key: &str) {
    if !key.is_empty() && text.contains(key) {
        *text = text.replace(key, MASK);
    }
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
        | LookupError::Internal(text) => scrub_string(text, key),
        LookupError::UnexpectedHttp { location: None, .. }
        | LookupError::Timeout(_)
        | LookupError::NotAuthorised(_)
        | LookupError::Interrupted => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::RecordKind;
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
