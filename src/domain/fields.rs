//! The one field schema: every field smsstat knows for each kind of record (sent, or
//! derived from what was sent), its label, its type, and its place among the row
//! table's default columns.

use crate::domain::record::RecordKind;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FieldType {
    Text,
    /// An identifier or phone number: digits, kept as a string (leading zeros).
    Digits,
    Number,
    Time,
    Status,
    /// The HLR `details` object.
    Details,
    /// A yes/no sent as 1/0, "1"/"0" or a boolean.
    Flag,
    /// Computed by smsstat from the fields the service sent.
    Derived,
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Field {
    pub kind: RecordKind,
    pub key: &'static str,
    pub label: &'static str,
    pub ty: FieldType,
    /// Position among the default columns of the row table, if it is one.
    pub column: Option<u8>,
}

const fn field(
    kind: RecordKind,
    key: &'static str,
    label: &'static str,
    ty: FieldType,
    column: Option<u8>,
) -> Field {
    Field {
        kind,
        key,
        label,
        ty,
        column,
    }
}

use FieldType::{Derived, Details, Digits, Flag, Number, Status, Text, Time};
use RecordKind::{Hlr, Sms, Task};

/// In the spec's order, which is the order of the record view. SMS `id` and the HLR
/// operator fields are not in the spec, but real servers send them.
pub(crate) const FIELDS: &[Field] = &[
    field(Sms, "id", "ID", Digits, None),
    field(Sms, "msisdn", "Phone number", Digits, Some(0)),
    field(Sms, "reference", "Reference", Digits, Some(1)),
    field(Sms, "time_in", "Received", Time, None),
    field(Sms, "time_sent", "Sent", Time, None),
    field(Sms, "time_dr", "Delivery report", Time, Some(3)),
    field(Sms, "status", "Status", Status, Some(2)),
    field(Sms, "price", "Price", Number, Some(4)),
    field(Sms, "currency", "Currency", Text, Some(5)),
    field(Sms, "send_latency", "Send latency", Derived, None),
    field(Sms, "delivery_latency", "Delivery latency", Derived, None),
    field(Task, "originator", "Originator", Text, None),
    field(Task, "body", "Text", Text, None),
    field(Task, "validity", "Validity", Number, None),
    // The v1 variant's counters: `total` messages, three kinds still in flight.
    field(Task, "total", "Total", Number, Some(0)),
    field(Task, "sent", "Sent", Number, Some(1)),
    field(Task, "queued", "Queued", Number, Some(9)),
    field(Task, "accepted", "Accepted", Number, Some(10)),
    field(Task, "enroute", "En route", Number, Some(11)),
    field(Task, "delivered", "Delivered", Number, Some(2)),
    field(Task, "undeliverable", "Undeliverable", Number, Some(3)),
    field(Task, "expired", "Expired", Number, Some(4)),
    field(Task, "unknown", "Unknown", Number, Some(5)),
    field(Task, "totalprice", "Total price", Number, Some(12)),
    field(Task, "currency", "Currency", Text, Some(13)),
    field(Task, "pending", "Pending", Derived, Some(6)),
    field(Task, "delivery_rate", "Delivery rate", Derived, Some(7)),
    field(Task, "counters_check", "Warning", Derived, None),
    field(Hlr, "id", "ID", Digits, None),
    field(Hlr, "reference", "Reference", Digits, Some(1)),
    field(Hlr, "msisdn", "Phone number", Digits, Some(0)),
    field(Hlr, "network", "Network", Digits, Some(2)),
    // One label per meaning (docs/variants.md): the classic `name_en` and v1's
    // `country_name` are the country; `brand` the operator's brand; the classic
    // `name` and v1's `brand_name` the operator's full name.
    field(Hlr, "name_en", "Country", Text, None),
    field(Hlr, "country_name", "Country", Text, None),
    field(Hlr, "name_ru", "Country (Russian)", Text, None),
    field(Hlr, "brand", "Operator", Text, None),
    field(Hlr, "brand_name", "Operator name", Text, None),
    field(Hlr, "name", "Operator name", Text, None),
    field(Hlr, "status", "Status", Status, Some(3)),
    // v1 examples send these at the top, as booleans or 0/1 (the classic service
    // and the v1 schema put them in `details`): typed alike wherever they sit.
    field(Hlr, "ported", "Ported", Flag, None),
    field(Hlr, "roaming", "Roaming", Flag, None),
    field(Hlr, "details", "Details", Details, None),
    field(Hlr, "createdDatetime", "Created", Time, None),
    field(Hlr, "statusDatetime", "Status time", Time, Some(4)),
];

/// Fields every answer may carry, that say nothing on a successful record.
pub(crate) const ERROR_FIELDS: [&str; 2] = ["error", "errorDescription"];

pub(crate) fn of(kind: RecordKind) -> impl Iterator<Item = &'static Field> {
    FIELDS.iter().filter(move |f| f.kind == kind)
}

/// The fields the service sends for a kind.
pub(crate) fn sent(kind: RecordKind) -> impl Iterator<Item = &'static Field> {
    of(kind).filter(|f| f.ty != Derived)
}

pub(crate) fn find(kind: RecordKind, key: &str) -> Option<&'static Field> {
    of(kind).find(|f| f.key == key)
}

/// The other keys of a kind that mean the same as `key` (one label per meaning:
/// `name_en` and `country_name`, `name` and `brand_name`): a record of one variant
/// answers a name of the other's.
pub(crate) fn synonyms(kind: RecordKind, key: &str) -> impl Iterator<Item = &'static str> {
    let own = find(kind, key).filter(|f| f.ty != Derived);
    let same = move |f: &&Field| own.is_some_and(|o| f.key != o.key && f.label == o.label);
    of(kind).filter(same).map(|f| f.key)
}

pub(crate) fn default_columns(kind: RecordKind) -> Vec<&'static str> {
    let mut columns: Vec<&Field> = of(kind).filter(|f| f.column.is_some()).collect();
    columns.sort_by_key(|f| f.column);
    columns.into_iter().map(|f| f.key).collect()
}

/// Names of every lookup's line rather than of the record (`--json --normalize` has
/// both; CSV, TSV and tables a `query` column).
pub(crate) const OUTCOME_FIELDS: [&str; 2] = ["query", "kind"];

/// Columns that CSV, TSV and the row table always have, whatever `--fields` says.
pub(crate) const ALWAYS_COLUMNS: [&str; 3] = ["query", "error", "errorDescription"];

/// Labels of the row table's own columns, accepted as names of their fields.
pub(crate) const COLUMN_LABELS: [(&str, &str); 2] = [("Query", "query"), ("Error", "error")];

/// Whether `name` means something for this kind of record: a field, an error or outcome
/// field, or a dotted path into `details` (the service decides what it holds).
pub(crate) fn is_known(kind: RecordKind, name: &str) -> bool {
    match name.split_once('.') {
        Some((head, rest)) => {
            !rest.is_empty() && find(kind, head).is_some_and(|f| f.ty == FieldType::Details)
        }
        None => {
            ERROR_FIELDS.contains(&name)
                || OUTCOME_FIELDS.contains(&name)
                || find(kind, name).is_some()
        }
    }
}

/// Whether a key holds digits to be kept as a string, in any kind of record.
pub(crate) fn is_digits(key: &str) -> bool {
    FIELDS.iter().any(|f| f.key == key && f.ty == Digits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_columns_are_in_their_order() {
        assert_eq!(
            default_columns(Sms),
            [
                "msisdn",
                "reference",
                "status",
                "time_dr",
                "price",
                "currency"
            ]
        );
        assert_eq!(
            default_columns(Hlr),
            ["msisdn", "reference", "network", "status", "statusDatetime"]
        );
    }

    #[test]
    fn one_label_per_meaning() {
        let label = |key| find(Hlr, key).unwrap().label;
        assert_eq!(label("name_en"), label("country_name"));
        assert_eq!(label("name"), label("brand_name"));
        assert_ne!(label("brand"), label("brand_name"));
        assert_eq!(find(Hlr, "roaming").unwrap().ty, Flag);
        assert_eq!(synonyms(Hlr, "name").collect::<Vec<_>>(), ["brand_name"]);
        assert_eq!(synonyms(Hlr, "country_name").count(), 1);
        assert_eq!(synonyms(Hlr, "status").count(), 0);
    }

    #[test]
    fn keys_are_unique_per_kind() {
        for (i, a) in FIELDS.iter().enumerate() {
            let twice = FIELDS[i + 1..]
                .iter()
                .any(|b| a.kind == b.kind && a.key == b.key);
            assert!(!twice, "{} twice", a.key);
        }
    }
}
