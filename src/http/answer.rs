//! What an answer means, without the network: the JSON body is the authority; a
//! service error in it wins over the HTTP status, and without one the status decides.
//! Pure functions, so the reading can be property-tested and fuzzed.

use serde_json::{Map, Value};

use crate::domain::error::LookupError;
use crate::domain::record::{error_description, error_field, plain_text, ErrorField};
use crate::domain::record::{Record, RecordKind};
use crate::domain::sanitize::escape_control;
use crate::http::redact::Scrubber;

/// The body's top-level object; the key taken out of the body's first bytes before a
/// message quotes them (the whole body is scrubbed first, so a cut cannot split an echo).
pub fn parse_object(body: &[u8], scrubber: &Scrubber) -> Result<Map<String, Value>, String> {
    // Some proxies and Windows-made answers put a UTF-8 byte-order mark first.
    let body = body.strip_prefix(b"\xef\xbb\xbf").unwrap_or(body);
    let parsed = match body.iter().find(|b| !b.is_ascii_whitespace()) {
        None => return Err("empty body".into()),
        // serde_json's Map, not Value: a top-level name "$serde_json::private::Number"
        // (arbitrary_precision's) is a name the server sent, which Value would refuse.
        Some(b'{') => serde_json::from_slice::<Map<String, Value>>(body).map(Value::Object),
        Some(_) => serde_json::from_slice::<Value>(body),
    };
    match parsed {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(format!("JSON {} instead of an object", json_type(&other))),
        Err(_) => Err(format!(
            "not JSON (starts with `{}`)",
            preview(body, scrubber)
        )),
    }
}

/// An HTTP status, the `Location` header and the body as a record or a typed error.
pub fn read_answer(
    status: u16,
    location: Option<String>,
    body: &[u8],
    expected: RecordKind,
) -> Result<Record, LookupError> {
    let parsed = parse_object(body, &Scrubber::default());
    interpret(status, location, parsed, expected)
}

/// `read_answer` on a body already parsed.
pub fn interpret(
    status: u16,
    location: Option<String>,
    parsed: Result<Map<String, Value>, String>,
    expected: RecordKind,
) -> Result<Record, LookupError> {
    let success = (200..=299).contains(&status);
    let map = match parsed {
        Ok(map) => map,
        Err(why) if success => return Err(LookupError::Unreadable(why)),
        Err(_) => return Err(status_error(status, location, None)),
    };
    if let ErrorField::Failure { code, shown } = error_field(&map) {
        return Err(LookupError::Service {
            code,
            shown_code: shown,
            description: error_description(&map),
            body: Box::new(map),
        });
    }
    match service_message(&map) {
        Some(message) if success && !Record::looks_like_a_record(&map) => {
            Err(error_in_another_shape(&map, &message, expected))
        }
        _ if success => Ok(Record::classify(map, expected)),
        message => Err(status_error(status, location, message)),
    }
}

/// What an HTTP status other than 2xx means, when the body says nothing more.
pub fn status_error(status: u16, location: Option<String>, message: Option<String>) -> LookupError {
    match status {
        401 | 403 => LookupError::NotAuthorised { status, message },
        500..=599 => {
            let said = message.map_or(String::new(), |m| format!(": the service said \"{m}\""));
            let text = format!("HTTP {status} {}{said}", httpcore::reason(status));
            match status {
                502..=504 => LookupError::Unavailable(text),
                _ => LookupError::ServerFault(text),
            }
        }
        _ => LookupError::UnexpectedHttp {
            status,
            location: location.map(|l| escape_control(&l).into_owned()),
            message,
        },
    }
}

/// A success status with a body that is no record but says something (the v1 error
/// shape, `{"code":401,"message":"Unauthorized"}`, sent with HTTP 200): its `code`
/// stands for the HTTP status when it is one, else the answer is unreadable as a record.
fn error_in_another_shape(
    map: &Map<String, Value>,
    message: &str,
    expected: RecordKind,
) -> LookupError {
    let code = map.get("code").and_then(|c| match c {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    });
    match code {
        Some(code @ 400..=599) => {
            let mut without_code = map.clone();
            without_code.shift_remove("code");
            // A code in 400..=599 never reads as a record: always an error.
            interpret(code as u16, None, Ok(without_code), expected)
                .err()
                .unwrap_or_else(|| LookupError::Internal("error body read as a record".into()))
        }
        _ => LookupError::Unreadable(format!(
            "the answer is not {} record: the service said \"{message}\"",
            expected.with_article()
        )),
    }
}

/// Longest service message carried into an error line: enough for a sentence and
/// a few field errors, not a page.
pub const MAX_MESSAGE_CHARS: usize = 200;

/// What a body outside the spec's shape says, for the error line: `message` (v1:
/// `{"code":401,"message":"..."}`) and the field errors of `errors` (422:
/// `{"errors":{"phone":["required"]}}`), escaped for a terminal and cut.
pub fn service_message(map: &Map<String, Value>) -> Option<String> {
    let text = |value: &Value| match value {
        Value::Array(items) => items.iter().map(plain_text).collect::<Vec<_>>().join(", "),
        other => plain_text(other).trim().to_string(),
    };
    let message = map.get("message").map(text).filter(|t| !t.is_empty());
    let detail = map.get("errors").map(|errors| match errors {
        Value::Object(fields) => fields
            .iter()
            .map(|(name, value)| format!("{name}: {}", text(value)))
            .collect::<Vec<_>>()
            .join("; "),
        other => text(other),
    });
    let detail = detail.filter(|d| !d.is_empty()).map(|d| format!("({d})"));
    let joined = [message, detail].into_iter().flatten().collect::<Vec<_>>();
    let joined = Some(joined.join(" ")).filter(|j| !j.is_empty())?;
    let mut cut: String = joined.chars().take(MAX_MESSAGE_CHARS).collect();
    if joined.chars().nth(MAX_MESSAGE_CHARS).is_some() {
        cut.push('…');
    }
    Some(escape_control(&cut).into_owned())
}

/// The gateway answers a route it does not have with error 4 ("Invalid request or
/// API method does not exists"), with HTTP 200 or 404: on an explicit path that
/// means the deployment lacks the route, like a bare 404.
pub fn is_missing_route(status: u16, parsed: &Result<Map<String, Value>, String>) -> bool {
    match parsed.as_ref().map(error_field) {
        Ok(ErrorField::Failure { code, .. }) => code == Some(4),
        _ => status == 404,
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
    let end = match scrubber.is_active() {
        true => body.len(),
        false => body.len().min(SHOWN),
    };
    let text = String::from_utf8_lossy(&body[..end]);
    let text = scrubber.scrub(&text);
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
    fn objects_read_as_value_reads_them() {
        let bodies = [
            r#"{"status":"delivered","id":"42"}"#,
            " \r\n\t{\"a\":1}\n",
            r#"{"a":1,"b":2,"a":3}"#,
            r#"{"n":12345678901234567890123,"f":1.50,"e":-0.0,"x":null,"t":true}"#,
            r#"{"details":{"ported":"1","list":[1,{"z":2}]},"k":"\u00e9\n"}"#,
            &format!(
                "{{{}}}",
                (0..40)
                    .map(|i| format!("\"f{i}\":{i}"))
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            "{}",
            "{\"a\":1} x",
            "{\"a\":1",
            "[{\"a\":1}]",
            "\"text\"",
        ];
        for body in bodies {
            let value = serde_json::from_slice::<Value>(body.as_bytes());
            let expected = match &value {
                Ok(Value::Object(map)) => Some(map),
                _ => None,
            };
            let read = parse_object(body.as_bytes(), &Scrubber::default());
            assert_eq!(read.as_ref().ok(), expected, "{body}");
            if let Ok(map) = read {
                // Same order, not only the same set: records print as they came.
                let keys: Vec<_> = map.keys().collect();
                let want: Vec<_> = expected.unwrap().keys().collect();
                assert_eq!(keys, want, "{body}");
            }
        }
        // serde_json's private name for a number (arbitrary_precision) is read as
        // the name it is: `Value` refuses such an object, but the server sent one.
        let odd = br#"{"$serde_json::private::Number":"1"}"#;
        let odd = parse_object(odd, &Scrubber::default()).unwrap();
        assert_eq!(odd["$serde_json::private::Number"], "1");
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
        assert_eq!(code(429, ""), 75);
    }

    fn message(status: u16, body: &str) -> String {
        read_answer(status, None, body.as_bytes(), RecordKind::Sms)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn messages_outside_the_spec_shape_are_carried() {
        assert_eq!(
            message(401, r#"{"code":401,"message":"Unauthorized"}"#),
            "not authorised: HTTP 401 (check the API key): the service said \"Unauthorized\""
        );
        assert!(message(404, r#"{"code":404,"message":"Not found"}"#)
            .ends_with("the service said \"Not found\""));
        assert!(message(
            422,
            r#"{"message":"The given data was invalid.","errors":{"phone":["required"]}}"#
        )
        .ends_with("\"The given data was invalid. (phone: required)\""));
        let long = format!(r#"{{"message":"{}\u001b[2J"}}"#, "x".repeat(500));
        let shown = message(400, &long);
        assert!(!shown.contains('\u{1b}'), "{shown}");
        assert!(shown.chars().count() < MAX_MESSAGE_CHARS + 80, "{shown}");
        let escaped = message(400, r#"{"message":"a\u001b[2Jb"}"#);
        assert!(escaped.contains("a\\x1b[2Jb"), "{escaped}");
    }

    #[test]
    fn error_4_and_bare_404_are_missing_routes() {
        let parsed = |body: &str| parse_object(body.as_bytes(), &Scrubber::default());
        let route4 =
            r#"{"error":4,"errorDescription":"Invalid request or API method does not exists"}"#;
        assert!(is_missing_route(200, &parsed(route4)));
        assert!(is_missing_route(404, &parsed(route4)));
        assert!(is_missing_route(404, &parsed("Not Found")));
        assert!(is_missing_route(
            404,
            &parsed(r#"{"code":404,"message":"Not found"}"#)
        ));
        assert!(!is_missing_route(404, &parsed(r#"{"error":20}"#)));
        assert!(!is_missing_route(200, &parsed(r#"{"status":"sent"}"#)));
    }
}
