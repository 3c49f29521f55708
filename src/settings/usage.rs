//! Usage mistakes caught before any request (exit 64): options that would do nothing
//! together, and field names no record of the kind knows. A script must not be
//! misled by a silently ignored option or an empty column.

use crate::domain::fields::{self, FieldType, COLUMN_LABELS, ERROR_FIELDS, OUTCOME_FIELDS};
use crate::domain::record::RecordKind;
use crate::domain::sanitize::preview;
use crate::domain::status::{self, Phase};
use crate::settings::given::Given;

/// Options that make no sense together, as typed: refused by every command alike.
pub(crate) fn check_options(args: &Given) -> Result<(), String> {
    if args.demo && args.base_url.is_some() {
        let why = "--demo runs against the built-in simulator; it does not combine with --base-url";
        return Err(why.into());
    }
    if args.field.is_some() && (args.json || args.output.is_some()) {
        let why = "--field prints one bare value per lookup; it does not combine with \
                   --json or -o (use --fields to pick columns or keys)";
        return Err(why.into());
    }
    Ok(())
}

/// An unknown status one slip (Damerau) from a known one of the kind is refused as a
/// typo: a gate waiting for `deliverd` would stay red. Other words are the gateway's
/// own (the run warns of them); short statuses (`sent`, `new`) are left out: one slip
/// from them is too often another word.
pub(crate) fn check_statuses(
    kind: RecordKind,
    flag: &str,
    statuses: &[String],
) -> Result<(), String> {
    for typed in statuses.iter().filter(|s| !status::is_known(kind, s)) {
        let meant = status::names(kind, Phase::Final)
            .chain(status::names(kind, Phase::Pending))
            .filter(|known| known.len() >= 5)
            .find(|known| strsim::damerau_levenshtein(typed, known) == 1);
        if let Some(meant) = meant {
            return Err(format!(
                "{flag}: no {} record has the status `{}`; did you mean `{meant}`?",
                kind.name(),
                preview(typed)
            ));
        }
    }
    Ok(())
}

/// Jaro-Winkler similarity above which an unknown name is taken for a typo of a
/// known one (`stauts`/`status` is 0.95; `note`/`status` is 0.5).
const TYPO_SIMILARITY: f64 = 0.85;

/// A name of `--fields`/`--field` as a key: a key of the kind's schema, a dotted
/// path into its `details` object (`details.ported`), an error field, `query` or
/// `kind`, or a table label in any case (`Status`, `Delivery latency`, `Error`).
/// Anything else is refused (exit 64), with the nearest name when one is close and
/// the valid ones: a script must not get an empty column or line for a typo.
pub(crate) fn resolve_name(kind: RecordKind, name: &str) -> Result<String, String> {
    let name = name.trim();
    if fields::is_known(kind, name) {
        return Ok(name.to_string());
    }
    let field_labels = fields::of(kind).map(|f| (f.label, f.key));
    let by_label = field_labels
        .chain(COLUMN_LABELS)
        .find(|(label, _)| label.eq_ignore_ascii_case(name));
    if let Some((_, key)) = by_label {
        return Ok(key.to_string());
    }
    // `detials.ported`: the head is the typo; the path after it is kept.
    let (head, tail) = name.split_at(name.find('.').unwrap_or(name.len()));
    let keys = fields::of(kind).map(|f| f.key);
    let nearest = keys
        .chain(ERROR_FIELDS)
        .chain(OUTCOME_FIELDS)
        .filter(|v| tail.is_empty() || fields::is_known(kind, &format!("{v}{tail}")))
        .map(|v| (strsim::jaro_winkler(&head.to_ascii_lowercase(), v), v))
        .filter(|(score, _)| *score > TYPO_SIMILARITY)
        .max_by(|a, b| a.0.total_cmp(&b.0));
    let hint = nearest.map(|(_, nearest)| format!("; did you mean `{nearest}{tail}`?"));
    let hint = hint.unwrap_or_default();
    Err(format!(
        "no {} record has a field `{}`{hint} (valid names: {}; table labels such as \
         `Status` are accepted too)",
        kind.name(),
        preview(name),
        valid_names(kind).join(", ")
    ))
}

/// The names a kind accepts, in the schema's order, then the names of every line.
fn valid_names(kind: RecordKind) -> Vec<String> {
    let keys = fields::of(kind).map(|field| match field.ty {
        FieldType::Details => format!("{}.NAME", field.key),
        _ => field.key.to_string(),
    });
    let common = ERROR_FIELDS.iter().chain(&OUTCOME_FIELDS);
    keys.chain(common.map(|n| n.to_string())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve_names(kind: RecordKind, names: &[String]) -> Result<Vec<String>, String> {
        names.iter().map(|name| resolve_name(kind, name)).collect()
    }

    #[test]
    fn labels_are_names_of_their_fields() {
        let names = ["Status".to_string(), "delivery LATENCY".to_string()];
        assert_eq!(
            resolve_names(RecordKind::Sms, &names).unwrap(),
            ["status", "delivery_latency"]
        );
        let details = ["details.ported".to_string()];
        assert!(resolve_names(RecordKind::Hlr, &details).is_ok());
    }

    #[test]
    fn typos_get_the_nearest_name() {
        let err = resolve_names(RecordKind::Sms, &["stauts".to_string()]).unwrap_err();
        assert!(err.contains("did you mean `status`?"), "{err}");
        assert!(err.contains("valid names: id, msisdn"), "{err}");
        for far in ["note", "phone"] {
            let err = resolve_names(RecordKind::Sms, &[far.to_string()]).unwrap_err();
            assert!(!err.contains("did you mean"), "{err}");
            assert!(err.contains("valid names: id, msisdn"), "{err}");
        }
        let err = resolve_names(RecordKind::Hlr, &["detials.ported".into()]).unwrap_err();
        assert!(err.contains("did you mean `details.ported`?"), "{err}");
        assert!(err.contains("details.NAME"), "{err}");
    }

    #[test]
    fn paths_only_into_details_and_names_of_every_line() {
        let names = ["details.imsi", "query", "kind", "errorDescription"].map(String::from);
        assert!(resolve_names(RecordKind::Hlr, &names).is_ok());
        for bad in ["status.x", "details.", "details.ported"] {
            let kind = if bad == "details.ported" {
                RecordKind::Sms
            } else {
                RecordKind::Hlr
            };
            assert!(resolve_names(kind, &[bad.to_string()]).is_err(), "{bad}");
        }
        let error = resolve_names(RecordKind::Sms, &["Error".into(), "QUERY".into()]);
        assert_eq!(error.unwrap(), ["error", "query"]);
    }

    #[test]
    fn one_slip_from_a_known_status_is_a_typo() {
        let typo = |word: &str| check_statuses(RecordKind::Sms, "--expect", &[word.into()]);
        assert!(typo("deliverd")
            .unwrap_err()
            .contains("did you mean `delivered`?"));
        assert!(typo("delivred").unwrap_err().contains("`delivered`"));
        // Two slips, a short status's neighbour, a known one: the gateway's own.
        for taken in ["delivrd", "snet", "delivered", "DELIVERED", "arrived"] {
            assert!(typo(taken).is_ok(), "{taken}");
        }
        let hlr = check_statuses(RecordKind::Hlr, "--until", &["actve".into()]);
        assert!(hlr.unwrap_err().contains("--until: no hlr record"));
    }
}
