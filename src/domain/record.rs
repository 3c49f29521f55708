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
    /// `an SMS`, `a task`, `an HLR`, for messages.
    pub fn with_article(self) -> &'static str {
        match self {
            RecordKind::Sms => "an SMS",
            RecordKind::Task => "a task",
            RecordKind::Hlr => "an HLR",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            RecordKind::Sms => "sms",
            RecordKind::Task => "task",
            RecordKind::Hlr => "hlr",
        }
    }
}

/// One successful answer: its kind and all its fields, as sent.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    pub kind: RecordKind,
    pub fields: Map<String, Value>,
}

impl Record {
    /// Tells the record kind by its fields, so a short-form path that answers with
    /// another kind of record is still shown right; `expected` breaks ties.
    pub fn classify(fields: Map<String, Value>, expected: RecordKind) -> Record {
        let has = |names: &[&str]| has_any(&fields, names);
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
        } else if has(&["time_in", "time_sent", "time_dr"]) {
            RecordKind::Sms
        } else if expected == RecordKind::Task && has(&["msisdn", "status", "price"]) {
            // Not a task (no counter), and SMS and HLR records both carry these:
            // `price` alone cannot tell an HLR result from an SMS.
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

    /// Whether an object has any field a status record of some kind carries: a body
    /// with none (`{"code":401,"message":"..."}`) is an error in another shape.
    pub fn looks_like_a_record(fields: &Map<String, Value>) -> bool {
        const ANY_KIND: [&str; 14] = [
            "status",
            "msisdn",
            "reference",
            "id",
            "price",
            "time_in",
            "time_sent",
            "time_dr",
            "network",
            "details",
            "totalprice",
            "delivered",
            "sent",
            "total",
        ];
        has_any(fields, &ANY_KIND)
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.fields.get(key)
    }

    pub fn status(&self) -> Option<&str> {
        self.fields.get("status").and_then(Value::as_str)
    }
}

/// Whether `fields` has any of `names`, by reading its keys: hashing a dozen names a
/// record lacks (SipHash, as serde_json's map does) costs more.
pub fn has_any(fields: &Map<String, Value>, names: &[&str]) -> bool {
    fields.keys().any(|key| names.contains(&key.as_str()))
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorField {
    Success,
    Failure { code: Option<i64>, shown: String },
}

/// Absent, null and exactly 0 (number or numeric string) mean success; anything else
/// is a service error, even a code that is not an integer (`1e-400`, `bad`: exit 79).
pub fn error_field(fields: &Map<String, Value>) -> ErrorField {
    let value = fields.get("error").filter(|value| !value.is_null());
    match value.map(|value| (lenient_i64(value), plain_text(value))) {
        None | Some((Some(0), _)) => ErrorField::Success,
        Some((code, shown)) => ErrorField::Failure { code, shown },
    }
}

pub fn error_description(fields: &Map<String, Value>) -> Option<String> {
    Some(fields.get("errorDescription")?.as_str()?.to_owned())
}

/// An integer sent as a number or a numeric string (`72`, `"72"`, `72.0`, `7.2e1`),
/// read exactly from its digits (`1e-400` and `1.0000000000000000001` are not
/// integers); beyond the i64 range it saturates.
pub fn lenient_i64(value: &Value) -> Option<i64> {
    integer_of(value).map(|(n, _)| n)
}

/// `lenient_i64`, but only when the integer fits i64 as sent (never saturated).
pub fn exact_i64(value: &Value) -> Option<i64> {
    integer_of(value).filter(|(_, fits)| *fits).map(|(n, _)| n)
}

/// The integer a value spells exactly, saturated to i64, and whether it fit.
fn integer_of(value: &Value) -> Option<(i64, bool)> {
    let text = match value {
        // With serde_json's arbitrary_precision, a number's text is the digits sent.
        Value::Number(n) => n.as_str(),
        Value::String(s) => s.trim(),
        _ => return None,
    };
    let negative = text.starts_with('-');
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (mantissa, exponent) = match unsigned.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => (mantissa, exponent.parse::<i64>().ok()?),
        None => (unsigned, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    // Joined only when there is a fraction: most integers are sent without one.
    let digits: std::borrow::Cow<str> = match fraction.is_empty() {
        true => whole.into(),
        false => [whole, fraction].concat().into(),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let leading = digits.trim_start_matches('0');
    let significant = leading.trim_end_matches('0');
    if significant.is_empty() {
        return Some((0, true));
    }
    // The value is `significant` × 10^scale.
    let scale = exponent
        .checked_sub(fraction.len() as i64)?
        .checked_add((leading.len() - significant.len()) as i64)?;
    if scale < 0 {
        return None;
    }
    // At most 19 digits: the product fits i128, and anything longer is beyond i64.
    let magnitude = (significant.len() as i64 + scale <= 19)
        .then(|| significant.parse::<i128>().ok())
        .flatten()
        .map(|m| m * 10i128.pow(scale as u32));
    let signed = magnitude.map(|m| if negative { -m } else { m });
    match signed.and_then(|v| i64::try_from(v).ok()) {
        Some(v) => Some((v, true)),
        None if negative => Some((i64::MIN, false)),
        None => Some((i64::MAX, false)),
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
        other => lenient_i64(other)
            .filter(|n| matches!(n, 0 | 1))
            .map(|n| n == 1),
    }
}

/// A value as a person reads it: strings unquoted, null empty, the rest compact JSON
/// (not escaped: that is the printer's job).
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
        let tiny: Value = serde_json::from_str(r#"{"error": 1e-400}"#).unwrap();
        assert_eq!(
            error_field(tiny.as_object().unwrap()),
            ErrorField::Failure {
                code: None,
                shown: "1e-400".into()
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
        assert_eq!(lenient_i64(&json!("7.2e1")), Some(72));
        assert_eq!(lenient_i64(&json!("-0.0")), Some(0));
        assert_eq!(lenient_i64(&json!("1.5")), None);
        assert_eq!(lenient_i64(&json!("1e30")), Some(i64::MAX));
        assert_eq!(exact_i64(&json!("1e30")), None);
        assert_eq!(exact_i64(&json!("-9223372036854775808")), Some(i64::MIN));
        let tiny: Value = serde_json::from_str("1e-400").unwrap();
        assert_eq!(lenient_i64(&tiny), None);
        let near: Value = serde_json::from_str("1.0000000000000000001").unwrap();
        assert_eq!(lenient_i64(&near), None);
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
