//! A record as a person reads it: labelled rows in the spec's order, HLR details
//! flattened, extra fields after the known ones; and a field's raw value by name.

use serde_json::Value;

use crate::domain::fields::{self, FieldType, ERROR_FIELDS};
use crate::domain::record::{lenient_bool, plain_text, Record};

/// One labelled line of a record. `key` is the name `--fields` and `--field` use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub key: String,
    pub label: String,
    pub value: String,
}

pub fn record_rows(record: &Record) -> Vec<Row> {
    let mut rows = Vec::new();
    for field in fields::sent(record.kind) {
        match (field.ty, record.get(field.key)) {
            (_, None) => {}
            (FieldType::Details, Some(details)) => rows.extend(detail_rows(details)),
            (FieldType::Flag, Some(value)) => rows.push(row(field.key, field.label, yes_no(value))),
            (_, Some(value)) => rows.push(row(field.key, field.label, plain_text(value))),
        }
    }
    for (key, value) in &record.fields {
        let is_known = fields::find(record.kind, key).is_some();
        if !is_known && !ERROR_FIELDS.contains(&key.as_str()) {
            rows.push(row(key, key, plain_text(value)));
        }
    }
    rows
}

/// `details` flattened: ported and roaming as yes/no, the rest under `details.NAME`.
fn detail_rows(details: &Value) -> Vec<Row> {
    let Value::Object(map) = details else {
        return vec![row("details", "Details", "none".into())];
    };
    map.iter()
        .map(|(name, value)| {
            let key = format!("details.{name}");
            match name.as_str() {
                "ported" => row(&key, "Ported", yes_no(value)),
                "roaming" => row(&key, "Roaming", yes_no(value)),
                "imsi" => row(&key, "IMSI", plain_text(value)),
                "location_msc" => row(&key, "Serving MSC", plain_text(value)),
                _ => row(&key, &key, plain_text(value)),
            }
        })
        .collect()
}

fn yes_no(value: &Value) -> String {
    let word = |yes| if yes { "yes" } else { "no" }.to_string();
    lenient_bool(value).map_or_else(|| plain_text(value), word)
}

pub(crate) fn row(key: &str, label: &str, value: String) -> Row {
    Row {
        key: key.to_owned(),
        label: label.to_owned(),
        value,
    }
}

/// A field's raw value by name; `details.ported` reaches into objects. A field the
/// record lacks is answered by one that means the same (`name` by v1's
/// `brand_name`, `name_en` by `country_name`).
pub fn field_value(record: &Record, name: &str) -> Option<String> {
    own_field_value(record, name).or_else(|| {
        fields::synonyms(record.kind, name).find_map(|other| own_field_value(record, other))
    })
}

fn own_field_value(record: &Record, name: &str) -> Option<String> {
    let mut parts = name.split('.');
    let mut value = record.get(parts.next()?)?;
    for part in parts {
        value = value.get(part)?;
    }
    Some(plain_text(value))
}

/// The names of every line that no record carries: `kind` (the record's kind, as
/// `--json --normalize` names it). `query` is the line's, not the record's: callers
/// that have the lookup show it.
pub fn line_value(record: &Record, name: &str) -> Option<String> {
    (name == "kind").then(|| record.kind.name().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::record::RecordKind;
    use serde_json::json;

    fn record(kind: RecordKind, value: Value) -> Record {
        Record::of_kind(kind, value)
    }

    #[test]
    fn known_fields_first_then_extras_without_error_fields() {
        let r = record(
            RecordKind::Sms,
            json!({"error": 0, "status": "delivered", "zzz": 1, "msisdn": "380501234567"}),
        );
        let keys: Vec<_> = record_rows(&r).into_iter().map(|r| r.key).collect();
        assert_eq!(keys, ["msisdn", "status", "zzz"]);
    }

    #[test]
    fn hlr_details_are_flattened() {
        let r = record(
            RecordKind::Hlr,
            json!({"status": "active", "details": {"ported": "1", "roaming": "0", "imsi": "2550"}}),
        );
        let rows = record_rows(&r);
        let find = |k: &str| rows.iter().find(|r| r.key == k).unwrap().value.clone();
        assert_eq!(find("details.ported"), "yes");
        assert_eq!(find("details.roaming"), "no");
        assert_eq!(find("details.imsi"), "2550");
    }

    #[test]
    fn null_details_say_none() {
        let r = record(
            RecordKind::Hlr,
            json!({"status": "failed", "details": null}),
        );
        assert!(record_rows(&r).contains(&row("details", "Details", "none".into())));
    }

    #[test]
    fn dotted_field_names_reach_into_details() {
        let r = record(
            RecordKind::Hlr,
            json!({"details": {"ported": "1"}, "price": 0.5}),
        );
        assert_eq!(field_value(&r, "details.ported").as_deref(), Some("1"));
        assert_eq!(field_value(&r, "price").as_deref(), Some("0.5"));
        assert_eq!(field_value(&r, "nope"), None);
    }
}
