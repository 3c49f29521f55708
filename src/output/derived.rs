//! A record as a person reads it: labelled rows in the spec's order (HLR details
//! flattened, extra fields after the known ones), and what smsstat works out from
//! it: SMS latencies, the HLR network decoded, a task's delivery rate, pending count
//! and counter check. A record's own JSON stays raw.

use serde_json::Value;

use crate::domain::fields::{self, Field, FieldType, ERROR_FIELDS};
use crate::domain::networks;
use crate::domain::record::{lenient_bool, plain_text, Record, RecordKind};
use crate::domain::task::{self, TaskCounters};
use crate::domain::timestamp::seconds_between;

/// Keys of the derived rows (labels in `domain::fields`); `--fields` picks them like
/// real fields in tables.
pub const SEND_LATENCY: &str = "send_latency";
pub const DELIVERY_LATENCY: &str = "delivery_latency";
pub const DELIVERY_RATE: &str = "delivery_rate";
pub const PENDING: &str = "pending";
pub const COUNTERS_CHECK: &str = "counters_check";

/// A value smsstat works out from the record by key, the network decoded too: for
/// people in tables (latencies `1m 05s`, the delivery rate `60.0% (6 of 10)`), or for
/// scripts and spreadsheets (CSV/TSV, `--field`, JSON: latencies in seconds, the rate
/// as a ratio `0.600`); pending as a count, the counters check as its text.
pub fn derived(record: &Record, key: &str, for_people: bool, utf8: bool) -> Option<String> {
    let counters = || TaskCounters::of(record).filter(|_| record.kind == RecordKind::Task);
    let latency = |to| {
        let seconds = seconds_between(record, "time_in", to)?;
        Some(match for_people {
            true => format_seconds(seconds.unsigned_abs()),
            false => seconds.to_string(),
        })
    };
    match key {
        "network" => network_text(record, utf8),
        SEND_LATENCY => latency("time_sent"),
        DELIVERY_LATENCY => latency("time_dr"),
        PENDING => task::pending(&counters()?).map(|n| n.to_string()),
        COUNTERS_CHECK => task::problem(&counters()?),
        DELIVERY_RATE => {
            let c = counters()?;
            let rate = c.delivered_ratio()? * 100.0;
            Some(match for_people {
                true => format!("{rate:.1}% ({} of {})", c.delivered(), c.messages()),
                false => format!("{:.3}", rate / 100.0),
            })
        }
        _ => None,
    }
}

/// Seconds from an SMS's `time_in` to its `time_dr`: the one delivery latency of
/// tables, `--normalize`, the report and the metrics.
pub fn delivery_latency(record: &Record) -> Option<i64> {
    seconds_between(record, "time_in", "time_dr")
}

/// A field's value for `--field` and CSV/TSV: the raw field when the record has it,
/// else a derived one (`delivery_rate`, `send_latency`, ...).
pub fn value_of(record: &Record, name: &str) -> Option<String> {
    field_value(record, name).or_else(|| derived(record, name, false, true))
}

/// Every value `derived` gives for the record, with its field, in the schema's order.
pub fn all_derived(
    record: &Record,
    for_people: bool,
) -> impl Iterator<Item = (&'static Field, String)> + '_ {
    let fields = fields::FIELDS.iter();
    let derived_fields = fields.filter(|f| f.kind == record.kind && f.ty == FieldType::Derived);
    derived_fields.filter_map(move |f| Some((f, derived(record, f.key, for_people, true)?)))
}

/// An HLR record's network: its MCC+MNC code, country and operator, the record's own
/// `name_en` and `brand` (v1: `country_name`, `brand_name`) when it has them, else the
/// embedded MCC/MNC table's. None when `network` is not an MCC+MNC.
pub fn network(record: &Record) -> Option<(String, Option<String>, Option<String>)> {
    let code = plain_text(record.get("network")?).trim().to_string();
    if !is_network_code(&code) {
        return None;
    }
    let listed = networks::lookup(&code);
    let country = own_text(record, ["name_en", "country_name"])
        .or_else(|| listed.map(|n| n.country.to_owned()))
        .or_else(|| networks::country_of(&code).map(str::to_owned))
        .filter(|s| !s.is_empty());
    let operator = own_text(record, ["brand", "brand_name"])
        .or_else(|| listed.map(|n| n.operator.to_owned()))
        .filter(|s| !s.is_empty());
    Some((code, country, operator))
}

/// An MCC+MNC code: 5 or 6 digits (`25503`).
pub fn is_network_code(text: &str) -> bool {
    (5..=6).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_digit())
}

/// The first of these fields the record has as a non-empty string, trimmed.
fn own_text(record: &Record, keys: [&str; 2]) -> Option<String> {
    keys.iter()
        .filter_map(|key| record.get(key).and_then(Value::as_str))
        .map(str::trim)
        .find(|s| !s.is_empty())
        .map(str::to_owned)
}

/// A network named rather than coded (v1: `"network": "Kyivstar"`), with the
/// record's own country: `("Kyivstar", Some("Ukraine"))`. None for a code, an empty
/// or missing network.
pub fn named_network(record: &Record) -> Option<(String, Option<String>)> {
    let name = plain_text(record.get("network")?).trim().to_string();
    if name.is_empty() || is_network_code(&name) {
        return None;
    }
    Some((name, own_text(record, ["name_en", "country_name"])))
}

/// `25503 · Ukraine · Kyivstar`.
pub fn network_text(record: &Record, utf8: bool) -> Option<String> {
    let (code, country, operator) = network(record)?;
    let parts = [Some(code), country, operator];
    let parts: Vec<String> = parts.into_iter().flatten().collect();
    Some(parts.join(if utf8 { " · " } else { " / " }))
}

/// `4s`, `1m 05s`, `2h 03m`, `3d 04h`: the two largest units, enough to read a
/// latency without counting digits.
pub fn format_seconds(seconds: u64) -> String {
    const UNITS: [(u64, &str); 4] = [(86_400, "d"), (3600, "h"), (60, "m"), (1, "s")];
    let Some(first) = UNITS.iter().position(|(size, _)| seconds >= *size) else {
        return "0s".into();
    };
    let (size, unit) = UNITS[first];
    let mut text = format!("{}{unit}", seconds / size);
    if let Some((next_size, next_unit)) = UNITS.get(first + 1) {
        text.push_str(&format!(" {:02}{next_unit}", seconds % size / next_size));
    }
    text
}

/// One labelled line of a record. `key` is the name `--fields` and `--field` use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub key: String,
    pub label: String,
    pub value: String,
}

/// A record's labelled rows: its fields, the network decoded, and the derived rows
/// after the last field in the schema they are computed from (`time_dr`, `unknown`).
pub fn record_rows(record: &Record, utf8: bool) -> Vec<Row> {
    let last_source = match record.kind {
        RecordKind::Sms => "time_dr",
        RecordKind::Task => "unknown",
        RecordKind::Hlr => "",
    };
    let mut rows = Vec::new();
    for field in fields::sent(record.kind) {
        match (field.ty, record.get(field.key)) {
            (_, None) => {}
            (FieldType::Details, Some(details)) => rows.extend(detail_rows(details)),
            (FieldType::Flag, Some(value)) => rows.push(row(field.key, field.label, yes_no(value))),
            (_, Some(value)) => rows.push(row(field.key, field.label, plain_text(value))),
        }
        if field.key == last_source {
            let derived = all_derived(record, true);
            rows.extend(derived.map(|(f, value)| row(f.key, f.label, value)));
        }
    }
    for (key, value) in &record.fields {
        let is_known = fields::find(record.kind, key).is_some();
        if !is_known && !ERROR_FIELDS.contains(&key.as_str()) {
            rows.push(row(key, key, plain_text(value)));
        }
    }
    let network = rows.iter_mut().find(|r| r.key == "network");
    if let (Some(row), Some(decoded)) = (network, network_text(record, utf8)) {
        row.value = decoded;
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
/// record lacks is answered by a synonym (`name` by v1's `brand_name`); `kind`, which
/// no record carries, is the record's kind, as `--json --normalize` names it.
pub fn field_value(record: &Record, name: &str) -> Option<String> {
    let synonyms = fields::synonyms(record.kind, name).map(|s| -> &str { s });
    let found = std::iter::once(name).chain(synonyms).find_map(|name| {
        let mut parts = name.split('.');
        let mut value = record.get(parts.next()?)?;
        for part in parts {
            value = value.get(part)?;
        }
        Some(plain_text(value))
    });
    found.or_else(|| (name == "kind").then(|| record.kind.name().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn record(kind: RecordKind, value: Value) -> Record {
        Record::of_kind(kind, value)
    }

    fn derived_rows(record: &Record) -> Vec<Row> {
        let rows = all_derived(record, true).map(|(f, value)| row(f.key, f.label, value));
        rows.collect()
    }

    fn row_value(rows: &[Row], key: &str) -> Option<String> {
        rows.iter().find(|r| r.key == key).map(|r| r.value.clone())
    }

    #[test]
    fn latencies_from_iso_times_with_offsets() {
        let r = record(
            RecordKind::Sms,
            json!({"time_in": "2017-03-03T13:35:42+02:00", "time_sent": "2017-03-03T11:35:45Z",
                   "time_dr": "2017-03-03T13:36:50+02:00"}),
        );
        let rows = derived_rows(&r);
        assert_eq!(row_value(&rows, SEND_LATENCY).as_deref(), Some("3s"));
        assert_eq!(
            row_value(&rows, DELIVERY_LATENCY).as_deref(),
            Some("1m 08s")
        );
    }

    #[test]
    fn durations_show_two_units() {
        assert_eq!(format_seconds(0), "0s");
        assert_eq!(format_seconds(4), "4s");
        assert_eq!(format_seconds(65), "1m 05s");
        assert_eq!(format_seconds(7380), "2h 03m");
        assert_eq!(format_seconds(3 * 86_400 + 4 * 3600 + 59), "3d 04h");
    }

    #[test]
    fn sms_latencies_across_midnight_and_missing_ones() {
        let r = record(
            RecordKind::Sms,
            json!({"time_in": "2026-12-31 23:59:58", "time_sent": "2027-01-01 00:00:01",
                   "time_dr": "", "status": "sent"}),
        );
        let rows = derived_rows(&r);
        assert_eq!(row_value(&rows, SEND_LATENCY).as_deref(), Some("3s"));
        assert_eq!(row_value(&rows, DELIVERY_LATENCY), None);
    }

    #[test]
    fn negative_latency_is_not_shown() {
        let r = record(
            RecordKind::Sms,
            json!({"time_in": "2026-11-01 10:00:05", "time_dr": "2026-11-01 10:00:00"}),
        );
        assert!(derived_rows(&r).is_empty());
    }

    #[test]
    fn derived_rows_follow_their_sources() {
        let r = record(
            RecordKind::Sms,
            json!({"time_in": "2026-11-01 10:00:00", "time_dr": "2026-11-01 10:00:04",
                   "status": "delivered"}),
        );
        let keys: Vec<_> = record_rows(&r, true).into_iter().map(|r| r.key).collect();
        assert_eq!(keys, ["time_in", "time_dr", DELIVERY_LATENCY, "status"]);
        assert_eq!(
            derived(&r, DELIVERY_LATENCY, true, true).as_deref(),
            Some("4s")
        );
    }

    #[test]
    fn task_derived_rows_follow_the_last_counter_present() {
        let r = record(
            RecordKind::Task,
            json!({"totalprice": 1, "sent": 2, "delivered": 1, "x": 0, "body": "hi"}),
        );
        let keys: Vec<_> = record_rows(&r, true).into_iter().map(|r| r.key).collect();
        let expected = [
            "body",
            "sent",
            "delivered",
            PENDING,
            DELIVERY_RATE,
            "totalprice",
            "x",
        ];
        assert_eq!(keys, expected);
    }

    #[test]
    fn network_from_the_service_fields_first() {
        let r = record(
            RecordKind::Hlr,
            json!({"network": "25503", "name_en": "Ukraina", "brand": "KS"}),
        );
        assert_eq!(
            network_text(&r, true).as_deref(),
            Some("25503 · Ukraina · KS")
        );
    }

    #[test]
    fn network_from_the_embedded_table_otherwise() {
        let r = record(RecordKind::Hlr, json!({"network": 25503}));
        assert_eq!(
            network_text(&r, true).as_deref(),
            Some("25503 · Ukraine · Kyivstar")
        );
        assert_eq!(
            network_text(&r, false).as_deref(),
            Some("25503 / Ukraine / Kyivstar")
        );
        let unlisted = record(RecordKind::Hlr, json!({"network": "25590"}));
        assert_eq!(
            network_text(&unlisted, true).as_deref(),
            Some("25590 · Ukraine")
        );
        let odd = record(RecordKind::Hlr, json!({"network": ""}));
        assert_eq!(network_text(&odd, true), None);
    }

    #[test]
    fn task_rate_pending_and_check() {
        let r = record(
            RecordKind::Task,
            json!({"sent": "10", "delivered": 6, "undeliverable": "1", "expired": 1}),
        );
        let rows = derived_rows(&r);
        assert_eq!(row_value(&rows, PENDING).as_deref(), Some("2"));
        assert_eq!(
            row_value(&rows, DELIVERY_RATE).as_deref(),
            Some("60.0% (6 of 10)")
        );
        assert_eq!(row_value(&rows, COUNTERS_CHECK), None);
        let over = record(
            RecordKind::Task,
            json!({"sent": 3, "delivered": 3, "unknown": 1}),
        );
        let rows = derived_rows(&over);
        assert_eq!(row_value(&rows, PENDING), None);
        assert!(row_value(&rows, COUNTERS_CHECK)
            .unwrap()
            .contains("more than sent"));
    }

    #[test]
    fn kind_is_a_value_of_every_record() {
        let r = record(RecordKind::Hlr, json!({"status": "active"}));
        assert_eq!(value_of(&r, "kind").as_deref(), Some("hlr"));
        assert_eq!(
            value_of(&r, "query"),
            None,
            "the lookup's, not the record's"
        );
    }

    #[test]
    fn known_fields_first_then_extras_without_error_fields() {
        let r = record(
            RecordKind::Sms,
            json!({"error": 0, "status": "delivered", "zzz": 1, "msisdn": "380501234567"}),
        );
        let keys: Vec<_> = record_rows(&r, true).into_iter().map(|r| r.key).collect();
        assert_eq!(keys, ["msisdn", "status", "zzz"]);
    }

    #[test]
    fn hlr_details_are_flattened() {
        let r = record(
            RecordKind::Hlr,
            json!({"status": "active", "details": {"ported": "1", "roaming": "0", "imsi": "2550"}}),
        );
        let rows = record_rows(&r, true);
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
        assert!(record_rows(&r, true).contains(&row("details", "Details", "none".into())));
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
