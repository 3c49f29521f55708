//! JSON output, one line per lookup (the NDJSON of `--json` and `--follow`; the
//! report's JSON is in `report`): the service's body as sent, or typed uniform
//! records (`--normalize`); local failures become objects of the same shape.

use std::io::{self, Write};

use serde_json::{Map, Value};

use crate::domain::error::LookupError;
use crate::domain::fields::{self, FieldType};
use crate::domain::outcome::Outcome;
use crate::domain::record::{error_field, exact_i64, lenient_bool, lenient_f64};
use crate::domain::record::{ErrorField, Record};
use crate::domain::sanitize::is_unsafe;
use crate::output::derived::{all_derived, derived};

fn outcome_map(outcome: &Outcome, normalize: bool) -> Map<String, Value> {
    match (&outcome.result, normalize) {
        (Ok(record), false) => record.fields.clone(),
        (Ok(record), true) => normalize_record(record, &outcome.query),
        (Err(LookupError::Service { body, .. }), false) => (**body).clone(),
        (Err(error), _) => failure_object(error, outcome, normalize),
    }
}

/// A `--follow` line: like `--json`, naming its lookup with `kind` and `query` first
/// (concurrent lookups' lines interleave; a record may not say which value it answers).
pub fn follow_json(outcome: &Outcome, normalize: bool) -> Value {
    let fields = outcome_map(outcome, normalize);
    let result = outcome.result.as_ref();
    let kind = result.map_or(outcome.kind.record_kind(), |r| r.kind);
    let mut map = Map::new();
    map.insert("kind".into(), kind.name().into());
    map.insert("query".into(), outcome.query.clone().into());
    // Ours name the lookup; normalized lines already hold the same values.
    let ours = |key: &String| key == "kind" || key == "query";
    map.extend(fields.into_iter().filter(|(key, _)| !ours(key)));
    Value::Object(map)
}

/// `--json`: a lookup's line; `kind` is the lookup's. `fields` picks fields in
/// their order, a dotted name keeping its nesting (for `jq .details.ported`).
/// Failures are left whole: they are few and small.
pub fn json_line(
    out: &mut impl Write,
    outcome: &Outcome,
    fields: &[String],
    normalize: bool,
) -> io::Result<()> {
    if !normalize && fields.is_empty() {
        // The answer as it came (most lines): written from the record itself.
        match &outcome.result {
            Ok(record) => return write_json_line(out, &record.fields),
            Err(LookupError::Service { body, .. }) => return write_json_line(out, &**body),
            Err(_) => {}
        }
    }
    let map = outcome_map(outcome, normalize);
    if fields.is_empty() || error_field(&map) != ErrorField::Success {
        return write_json_line(out, &map);
    }
    let always = ["kind", "query", "error"].into_iter().filter(|_| normalize);
    let mut picked = Map::new();
    for name in always.chain(fields.iter().map(String::as_str)) {
        let path: Vec<&str> = name.split('.').collect();
        let found = path[1..].iter().fold(map.get(path[0]), |v, p| v?.get(p));
        let found = found.cloned().or_else(|| match name {
            // Text, as --normalize has them: a query of digits keeps its zeros.
            "query" => Some(Value::String(outcome.query.clone())),
            "kind" => Some(Value::String(outcome.kind.record_kind().name().into())),
            _ => derived(outcome.result.as_ref().ok()?, name, false, true).map(number_or_text),
        });
        if let Some(found) = found {
            insert_at(&mut picked, &path, found);
        }
    }
    write_json_line(out, &picked)
}

/// A derived value as a JSON number when it is one (`0.886`, `374`), else text.
pub fn number_or_text(value: String) -> Value {
    value.parse().map_or(Value::String(value), Value::Number)
}

/// Puts `value` at `path` inside `map`, making the objects on the way.
fn insert_at(map: &mut Map<String, Value>, path: &[&str], value: Value) {
    let [head, rest @ ..] = path else {
        return;
    };
    if rest.is_empty() {
        map.insert(head.to_string(), value);
    } else if let Value::Object(child) = map.entry(*head).or_insert(Map::new().into()) {
        insert_at(child, rest, value);
    }
}

/// A failure as an object with a non-zero `error`: the service's code for service
/// errors, smsstat's exit code (65-79) for local failures, marked `"source":"smsstat"`.
fn failure_object(error: &LookupError, outcome: &Outcome, normalize: bool) -> Map<String, Value> {
    let (kind, query) = (outcome.kind.record_kind(), outcome.query.as_str());
    let mut map = Map::new();
    if normalize {
        map.insert("kind".into(), kind.name().into());
        map.insert("query".into(), query.into());
    }
    match error {
        LookupError::Service {
            code,
            shown_code,
            description,
            ..
        } => {
            let code = code.map_or_else(|| shown_code.as_str().into(), Value::from);
            map.insert("error".into(), code);
            map.insert("errorDescription".into(), description.clone().into());
        }
        local => {
            map.insert("error".into(), local.exit_code().into());
            map.insert("errorDescription".into(), local.to_string().into());
            if !normalize {
                map.insert("query".into(), query.into());
            }
            map.insert("source".into(), "smsstat".into());
            // Not the record asked for, but nothing is hidden: what came back is kept.
            if let LookupError::WrongRecord { record, .. } = local {
                map.insert("record".into(), Value::Object((**record).clone()));
            }
        }
    }
    map
}

fn normalize_record(record: &Record, query: &str) -> Map<String, Value> {
    let mut map = Map::new();
    map.insert("kind".into(), record.kind.name().into());
    map.insert("query".into(), query.into());
    map.insert("error".into(), 0.into());
    for (key, value) in &record.fields {
        let typed = match (key.as_str(), fields::find(record.kind, key).map(|f| f.ty)) {
            // `error` is always 0 here, and "No errors" comes only from some servers.
            ("error" | "errorDescription", _) => continue,
            ("details", _) => normalize_details(value),
            (_, Some(FieldType::Flag)) => lenient_bool(value).map_or(Value::Null, Value::Bool),
            (_, Some(FieldType::Number)) => number(value),
            (k, _) if fields::is_digits(k) => text(value),
            _ => value.clone(),
        };
        map.insert(key.clone(), typed);
    }
    // The derived values (a task's delivery rate and pending count, an SMS's latencies
    // in seconds) come typed like the rest, so `jq .delivery_rate` needs no --fields.
    for (field, value) in all_derived(record, false) {
        map.entry(field.key)
            .or_insert_with(|| number_or_text(value));
    }
    map
}

/// Identifiers and phone numbers are digit strings in the spec, but some servers send
/// numbers: strings here, so leading zeros and long values survive, every record alike.
fn text(value: &Value) -> Value {
    match value {
        Value::Number(n) => Value::String(n.to_string()),
        other => other.clone(),
    }
}

/// A number as an integer when it is one that fits, else with the digits sent: never
/// a rounded or saturated number the server did not send.
fn number(value: &Value) -> Value {
    if let Some(i) = exact_i64(value) {
        return i.into();
    }
    let sent = match value {
        Value::Number(n) => Some(n.clone()),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    };
    let number = sent.or_else(|| lenient_f64(value).and_then(serde_json::Number::from_f64));
    number.map_or_else(|| value.clone(), Value::Number)
}

fn normalize_details(details: &Value) -> Value {
    let Value::Object(map) = details else {
        return Value::Null;
    };
    let typed = map.iter().map(|(k, v)| {
        let v = match k.as_str() {
            "ported" | "roaming" => lenient_bool(v).map_or(Value::Null, Value::Bool),
            _ => v.clone(),
        };
        (k.clone(), v)
    });
    Value::Object(typed.collect())
}

/// One compact line. C1 controls, DEL and bidi overrides, legal raw in JSON strings but
/// dangerous in a terminal, are written as `\uXXXX` escapes: a parser reads the same.
pub fn write_json_line(out: &mut impl Write, value: &impl serde::Serialize) -> io::Result<()> {
    // Room for a typical record's line in one allocation (serde_json's own starts
    // at 128 bytes and grows).
    let mut line = Vec::with_capacity(512);
    serde_json::to_writer(&mut line, value).map_err(io::Error::other)?;
    // serde_json escapes C0 controls; printable ASCII (nearly every line) needs no look
    // at each character.
    if line.iter().all(|b| (0x20..0x7f).contains(b)) {
        line.push(b'\n');
        return out.write_all(&line);
    }
    let mut escaped = String::with_capacity(line.len() + 16);
    for c in String::from_utf8_lossy(&line).chars() {
        if !is_unsafe(c) {
            escaped.push(c);
            continue;
        }
        // A character past U+FFFF is escaped as its UTF-16 surrogate pair.
        for unit in c.encode_utf16(&mut [0; 2]) {
            escaped += &format!("\\u{unit:04x}");
        }
    }
    out.write_all((escaped + "\n").as_bytes())
}

/// `write_json_line`'s line as text, for a document printed whole (`check`, `config
/// show`): the same escapes as every lookup's line.
pub fn json_line_text(value: &Value) -> String {
    let mut line = Vec::new();
    // A `Value` always serializes, and a Vec takes every write.
    let _ = write_json_line(&mut line, value);
    String::from_utf8_lossy(&line).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::lookup::LookupKind;
    use crate::domain::record::RecordKind;
    use serde_json::json;

    fn outcome_json(outcome: &Outcome, normalize: bool) -> Value {
        Value::Object(outcome_map(outcome, normalize))
    }

    fn outcome(kind: LookupKind, result: Result<Record, LookupError>) -> Outcome {
        Outcome::new(kind, "42".into(), result)
    }

    fn sms(value: Value) -> Record {
        Record {
            kind: RecordKind::Sms,
            fields: value.as_object().cloned().unwrap(),
        }
    }

    #[test]
    fn raw_json_keeps_types_and_order() {
        let o = outcome(
            LookupKind::Sms,
            Ok(sms(json!({"price": "0.23", "zeta": 1, "alpha": null}))),
        );
        assert_eq!(
            outcome_json(&o, false).to_string(),
            r#"{"price":"0.23","zeta":1,"alpha":null}"#
        );
    }

    #[test]
    fn normalized_json_is_typed() {
        let o = outcome(
            LookupKind::Sms,
            Ok(sms(
                json!({"error": "0", "errorDescription": "No errors", "price": "0.23", "id": 7}),
            )),
        );
        let v = outcome_json(&o, true);
        assert_eq!(
            v,
            json!({"kind": "sms", "query": "42", "error": 0, "price": 0.23, "id": "7"})
        );
        let hlr = Record {
            kind: RecordKind::Hlr,
            fields: json!({"details": {"ported": "1", "roaming": "0"}})
                .as_object()
                .cloned()
                .unwrap(),
        };
        let v = outcome_json(&outcome(LookupKind::Hlr, Ok(hlr)), true);
        assert_eq!(v["details"], json!({"ported": true, "roaming": false}));
    }

    #[test]
    fn fields_select_keys_of_records_but_not_of_failures() {
        let line = |outcome: &Outcome, fields: &[&str]| {
            let fields: Vec<String> = fields.iter().map(|f| f.to_string()).collect();
            let mut out = Vec::new();
            json_line(&mut out, outcome, &fields, false).unwrap();
            String::from_utf8(out).unwrap()
        };
        let record = json!({"status": "active", "details": {"ported": "1"}, "x": 1});
        let record = Record::of_kind(RecordKind::Hlr, record);
        // `kind` is not in the record: the line's own.
        assert_eq!(
            line(
                &outcome(LookupKind::Hlr, Ok(record)),
                &["details.ported", "status", "kind"]
            ),
            "{\"details\":{\"ported\":\"1\"},\"status\":\"active\",\"kind\":\"hlr\"}\n"
        );
        let failure = LookupError::Service {
            code: Some(20),
            shown_code: "20".into(),
            description: Some("SMS not found".into()),
            body: Box::new(
                json!({"error": 20, "errorDescription": "SMS not found"})
                    .as_object()
                    .cloned()
                    .unwrap(),
            ),
        };
        assert_eq!(
            line(&outcome(LookupKind::Hlr, Err(failure)), &["status"]),
            "{\"error\":20,\"errorDescription\":\"SMS not found\"}\n"
        );
    }

    #[test]
    fn local_failures_have_the_documented_shape() {
        let o = outcome(
            LookupKind::Sms,
            Err(LookupError::Unavailable("refused".into())),
        );
        let v = outcome_json(&o, false);
        assert_eq!(v["error"], 69);
        assert_eq!(v["query"], "42");
        assert_eq!(v["source"], "smsstat");
    }

    #[test]
    fn terminal_controls_are_escaped_in_json_lines() {
        let mut out = Vec::new();
        let hostile = "a\u{1b}]0;x\u{7}\u{202e}\u{9b}\u{e0041}";
        write_json_line(&mut out, &json!({ "s": hostile })).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(!text.chars().any(|c| is_unsafe(c) && c != '\n'));
        assert!(text.contains("\\udb40\\udc41"), "{text}");
        let back: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back["s"], hostile);
    }
}
