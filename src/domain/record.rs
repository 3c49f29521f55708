//! The records the service returns, read leniently: numbers may be strings, `error`
//! may be absent, `details` may be null, unknown fields are kept in their order.

use serde_json::{Map, Value};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordKind {
    Sms,
    Task,
    Hlr,
}

impl RecordKind {
    pub fn name(self) -> &'static str {
        match self {
            RecordKind::Sms => "sms",
            RecordKind::Task => "task",
            RecordKind::Hlr => "hlr",
        }
    }
}

/// One successful answer: what kind of record it is and all its fields, as sent.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    pub kind: RecordKind,
    pub fields: Map<String, Value>,
}

impl Record {
    /// Tells the record kind by its fields, so a short-form path that answers with
    /// another kind of record is still shown right; `expected` breaks ties.
    pub fn classify(fields: Map<String, Value>, expected: RecordKind) -> Record {
        let has = |names: &[&str]| names.iter().any(|n| fields.contains_key(*n));
        let kind = if has(&[
            "totalprice",
            "delivered",
            "undeliverable",
            "originator",
            "total",
        ]) {
            RecordKind::Task
        } else if has(&["network", "details", "createdDatetime", "statusDatetime"]) {
            RecordKind::Hlr
        } else if has(&["time_in", "time_sent", "time_dr", "price"]) {
            RecordKind::Sms
        } else {
            expected
        };
        Record { kind, fields }
    }

    /// A record of a known kind from a JSON object (tests and examples).
    #[cfg(test)]
    pub fn of_kind(kind: RecordKind, value: Value) -> Record {
        let fields = value.as_object().cloned().expect("a JSON object");
        Record { kind, fields }
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.fields.get(key)
    }

    /// The `status` field as text, when there is one.
    pub fn status(&self) -> Option<&str> {
        self.fields.get("status").and_then(Value::as_str)
    }
}

/// What the `error` field of an answer says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorField {
    Success,
    Failure { code: Option<i64>, shown: String },
}

/// Absent, null and 0 (number or numeric string) mean success; anything else is a
/// service error, even a code that is not a number (shown as sent, exit 79).
pub fn error_field(fields: &Map<String, Value>) -> ErrorField {
    let value = match fields.get("error") {
        None | Some(Value::Null) => return ErrorField::Success,
        Some(value) => value,
    };
    match lenient_i64(value) {
        Some(0) => ErrorField::Success,
        code => ErrorField::Failure {
            code,
            shown: plain_text(value),
        },
    }
}

/// The `errorDescription` field, when it is text.
pub fn error_description(fields: &Map<String, Value>) -> Option<String> {
    fields
        .get("errorDescription")
        .and_then(Value::as_str)
        .map(str::to_owned)
}

/// An integer sent as a number or a numeric string (`72`, `"72"`, `72.0`).
pub fn lenient_i64(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n
            .as_i64()
            .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64)),
        Value::String(s) => {
            let s = s.trim();
            s.parse::<i64>().ok().or_else(|| {
                s.parse::<f64>()
                    .ok()
                    .filter(|f| f.is_finite() && f.fract() == 0.0)
                    .map(|f| f as i64)
            })
        }
        _ => None,
    }
}

/// A decimal sent as a number or a numeric string (`0.23`, `"0.002"`).
pub fn lenient_f64(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok().filter(|f| f.is_finite()),
        _ => None,
    }
}

/// `"1"`/`1`/`true` → true, `"0"`/`0`/`false` → false, anything else unknown.
pub fn lenient_bool(value: &Value) -> Option<bool> {
    match value {
        Value::Bool(b) => Some(*b),
        other => match lenient_i64(other) {
            Some(1) => Some(true),
            Some(0) => Some(false),
            _ => None,
        },
    }
}

/// A value as a person reads it: strings without quotes, null as empty, objects and
/// arrays as compact JSON. Not escaped: that is the printer's job.
pub fn plain_text(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap()
    }

    #[test]
    fn absent_zero_and_string_zero_are_success() {
        assert_eq!(error_field(&map(json!({}))), ErrorField::Success);
        assert_eq!(error_field(&map(json!({"error": 0}))), ErrorField::Success);
        assert_eq!(
            error_field(&map(json!({"error": "0"}))),
            ErrorField::Success
        );
        assert_eq!(
            error_field(&map(json!({"error": null}))),
            ErrorField::Success
        );
    }

    #[test]
    fn non_zero_codes_are_failures() {
        assert_eq!(
            error_field(&map(json!({"error": 20}))),
            ErrorField::Failure {
                code: Some(20),
                shown: "20".into()
            }
        );
        assert_eq!(
            error_field(&map(json!({"error": "40"}))),
            ErrorField::Failure {
                code: Some(40),
                shown: "40".into()
            }
        );
        assert_eq!(
            error_field(&map(json!({"error": "bad"}))),
            ErrorField::Failure {
                code: None,
                shown: "bad".into()
            }
        );
    }

    #[test]
    fn lenient_numbers() {
        assert_eq!(lenient_i64(&json!(72)), Some(72));
        assert_eq!(lenient_i64(&json!("72")), Some(72));
        assert_eq!(lenient_i64(&json!(" 72 ")), Some(72));
        assert_eq!(lenient_i64(&json!(72.0)), Some(72));
        assert_eq!(lenient_i64(&json!("x")), None);
        assert_eq!(lenient_f64(&json!("0.002")), Some(0.002));
        assert_eq!(lenient_f64(&json!(0.23)), Some(0.23));
        assert_eq!(lenient_bool(&json!("1")), Some(true));
        assert_eq!(lenient_bool(&json!("0")), Some(false));
        assert_eq!(lenient_bool(&json!("maybe")), None);
    }

    #[test]
    fn records_are_told_apart_by_their_fields() {
        let task = map(json!({"sent": "3", "delivered": 1, "totalprice": 0.3}));
        assert_eq!(
            Record::classify(task, RecordKind::Sms).kind,
            RecordKind::Task
        );
        let hlr = map(json!({"network": "25503", "status": "active", "details": null}));
        assert_eq!(Record::classify(hlr, RecordKind::Sms).kind, RecordKind::Hlr);
        let sms = map(json!({"time_in": "2017-01-01 00:00:00", "status": "delivered"}));
        assert_eq!(
            Record::classify(sms, RecordKind::Task).kind,
            RecordKind::Sms
        );
        let bare = map(json!({"status": "delivered"}));
        assert_eq!(
            Record::classify(bare, RecordKind::Hlr).kind,
            RecordKind::Hlr
        );
    }
}
