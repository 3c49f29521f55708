//! What an answer means, without the network: the JSON body is the authority; a
//! service error in it wins over the HTTP status, and without one the status decides.
//! Pure functions, so the reading can be property-tested and fuzzed.

use serde_json::{Map, Value};
use ureq::http::StatusCode;

use crate::domain::error::LookupError;
use crate::domain::record::{error_description, error_field, ErrorField, Record, RecordKind};
use crate::domain::sanitize::escape_control;
use crate::http::redact::Scrubber;

/// The body as a JSON object, or why it is not one.
pub fn parse_object(body: &[u8]) -> Result<Map<String, Value>, String> {
    parse_object_scrubbed(body, &Scrubber::default())
}

/// `parse_object`, with the key taken out of the body's first bytes before a message
/// quotes them (the whole body is scrubbed first, so a cut cannot split an echo).
pub fn parse_object_scrubbed(
    body: &[u8],
    scrubber: &Scrubber,
) -> Result<Map<String, Value>, String> {
    // Some proxies and Windows-made answers put a UTF-8 byte-order mark first.
    let body = body.strip_prefix(b"\xef\xbb\xbf").unwrap_or(body);
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err("empty body".into());
    }
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(format!("JSON {} instead of an object", json_type(&other))),
        Err(_) => Err(format!(
            "not JSON (starts with `{}`)",
            preview(body, scrubber)
        )),
    }
}

/// How an answer is read, without the network: an HTTP status, the `Location` header
/// (for 3xx) and the body (already within the cap) become a record or a typed error.
/// Pure, so the parser can be property-tested and fuzzed.
pub fn read_answer(
    status: u16,
    location: Option<String>,
    body: &[u8],
    expected: RecordKind,
) -> Result<Record, LookupError> {
    interpret(status, location, parse_object(body), expected)
}

pub fn is_service_error(parsed: &Result<Map<String, Value>, String>) -> bool {
    matches!(parsed, Ok(map) if error_field(map) != ErrorField::Success)
}

/// The JSON body is the authority: a service error in it wins over the HTTP status;
/// without one, the status decides.
pub fn interpret(
    status: u16,
    location: Option<String>,
    parsed: Result<Map<String, Value>, String>,
    expected: RecordKind,
) -> Result<Record, LookupError> {
    if let Ok(map) = parsed.as_ref() {
        if let ErrorField::Failure { code, shown } = error_field(map) {
            let description = error_description(map);
            let body = Box::new(parsed.unwrap_or_default());
            return Err(LookupError::Service {
                code,
                shown_code: shown,
                description,
                body,
            });
        }
    }
    match status {
        200..=299 => parsed
            .map(|map| Record::classify(map, expected))
            .map_err(LookupError::Unreadable),
        401 | 403 => Err(LookupError::NotAuthorised(status)),
        500..=599 => Err(LookupError::Unavailable(format!(
            "HTTP {status} {}",
            StatusCode::from_u16(status)
                .ok()
                .and_then(|s| s.canonical_reason())
                .unwrap_or("")
        ))),
        _ => Err(LookupError::UnexpectedHttp {
            status,
            location: location.map(|l| escape_control(&l).into_owned()),
        }),
    }
}

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The first few characters of a body, safe to show in a terminal.
fn preview(body: &[u8], scrubber: &Scrubber) -> String {
    const SHOWN: usize = 40;
    let whole;
    let text = if scrubber.is_active() {
        whole = String::from_utf8_lossy(body);
        scrubber.scrub(&whole)
    } else {
        String::from_utf8_lossy(&body[..body.len().min(SHOWN)])
    };
    let cut: String = text.trim_start().chars().take(SHOWN).collect();
    escape_control(cut.trim()).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(status: u16, body: &str) -> u8 {
        match read_answer(status, None, body.as_bytes(), RecordKind::Sms) {
            Ok(_) => 0,
            Err(e) => e.exit_code(),
        }
    }

    #[test]
    fn body_error_wins_over_status() {
        assert_eq!(
            code(404, r#"{"error":20,"errorDescription":"SMS not found"}"#),
            20
        );
        assert_eq!(code(200, r#"{"error":"30"}"#), 30);
        assert_eq!(code(500, r#"{"error":1}"#), 1);
        assert_eq!(code(200, r#"{"error":500}"#), 79);
    }

    #[test]
    fn status_decides_without_json_error() {
        assert_eq!(code(200, r#"{"status":"delivered"}"#), 0);
        assert_eq!(code(200, "\u{feff}{\"status\":\"delivered\"}"), 0);
        assert_eq!(code(200, "<html>hi</html>"), 65);
        assert_eq!(code(200, ""), 65);
        assert_eq!(code(200, "[1,2]"), 65);
        assert_eq!(code(502, "<html>bad gateway</html>"), 69);
        assert_eq!(code(401, ""), 77);
        assert_eq!(code(403, "{}"), 77);
        assert_eq!(code(404, "Not Found"), 76);
        assert_eq!(code(302, ""), 76);
        assert_eq!(code(418, ""), 76);
    }
}
