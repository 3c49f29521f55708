//! Usage mistakes caught before any request (exit 64): options that would do nothing
//! together, and field names no record of the kind knows. A script must not be
//! misled by a silently ignored option or an empty column.

use crate::cli::parse::{ArgSource, CliSources};
use crate::cli::settings::{API_KEY, API_KEY_FILE, BASE_URL};
use crate::cli::GlobalArgs;
use crate::domain::fields::{self, ERROR_FIELDS, FIELDS};
use crate::domain::format::OutputFormat;
use crate::domain::record::RecordKind;
use crate::domain::sanitize::preview;

/// Options that make no sense together, as typed.
pub(crate) fn check_options(args: &GlobalArgs, sources: &CliSources) -> Result<(), String> {
    if args.demo && sources.of(&BASE_URL) != ArgSource::Unset {
        return Err(
            "--demo runs against the built-in simulator; it does not combine with \
                    --base-url or SMSSTAT_BASE_URL"
                .into(),
        );
    }
    let key_source = sources.of(&API_KEY);
    if key_source != ArgSource::Unset && key_source == sources.of(&API_KEY_FILE) {
        return Err(
            "a key and a key file are both given (--api-key and --api-key-file, or \
                    SMSSTAT_API_KEY and SMSSTAT_API_KEY_FILE); keep one"
                .into(),
        );
    }
    if args.field.is_some() && (args.json || args.output.is_some()) {
        return Err(
            "--field prints one bare value per lookup; it does not combine with \
                    --json or -o (use --fields to pick columns or keys)"
                .into(),
        );
    }
    Ok(())
}

/// `--normalize` shapes JSON records: with any other output it would do nothing.
pub(crate) fn check_normalize(
    normalize: bool,
    format: OutputFormat,
    follow: bool,
) -> Result<(), String> {
    if normalize && format != OutputFormat::Json && !follow {
        // report-json is JSON too, but of the batch, not of records: named as well.
        return Err(
            "--normalize shapes JSON records; it does nothing with table, csv, \
                    tsv or report output (report, report-json, report-md; add --json)"
                .into(),
        );
    }
    Ok(())
}

/// `--no-headers` leaves out the header line of table, CSV and TSV; JSON lines and
/// bare `--field` values have none to leave out.
pub(crate) fn check_no_headers(
    no_headers: bool,
    format: OutputFormat,
    field: bool,
) -> Result<(), String> {
    if no_headers && (format == OutputFormat::Json || field) {
        return Err(
            "--no-headers applies to table, csv and tsv output; JSON lines and \
                    --field values have no header"
                .into(),
        );
    }
    Ok(())
}

/// `--raw-cells` only turns off the guard of CSV/TSV cells; other outputs have no
/// such guard to turn off. The report forms refuse it in their own words
/// (`lookups::check_combinations`), so they are left to that check.
pub(crate) fn check_raw_cells(
    raw_cells: bool,
    format: OutputFormat,
    field: bool,
) -> Result<(), String> {
    let delimited = matches!(format, OutputFormat::Csv | OutputFormat::Tsv);
    if raw_cells && (field || !delimited) && !format.is_report() {
        return Err(
            "--raw-cells applies to -o csv and -o tsv; table, JSON and --field output \
                    print no formula guard to leave out"
                .into(),
        );
    }
    Ok(())
}

/// The names of `--fields`/`--field` as keys: a key of the kind's schema (dotted
/// names by their head, as `details.ported`), an error field, or a table label in
/// any case (`Status`, `Delivery latency`). A name close to a known one but not it
/// (`stauts`) is a typo, refused with the nearest name and the valid ones; a name
/// far from all of them is a field of the service's own (`note`), kept.
pub(crate) fn resolve_names(kind: RecordKind, names: &[String]) -> Result<Vec<String>, String> {
    names.iter().map(|name| resolve_name(kind, name)).collect()
}

/// Jaro-Winkler similarity above which an unknown name is taken for a typo of a
/// known one (`stauts`/`status` is 0.95; `note`/`status` is 0.5).
const TYPO_SIMILARITY: f64 = 0.85;

fn resolve_name(kind: RecordKind, name: &str) -> Result<String, String> {
    let name = name.trim();
    if fields::is_known(kind, name) {
        return Ok(name.to_string());
    }
    let by_label = FIELDS
        .iter()
        .find(|f| f.kind == kind && f.label.eq_ignore_ascii_case(name));
    if let Some(field) = by_label {
        return Ok(field.key.to_string());
    }
    let valid = valid_names(kind);
    let nearest = valid
        .iter()
        .map(|v| (strsim::jaro_winkler(&name.to_ascii_lowercase(), v), v))
        .filter(|(score, _)| *score > TYPO_SIMILARITY)
        .max_by(|a, b| a.0.total_cmp(&b.0));
    match nearest {
        Some((_, nearest)) => Err(format!(
            "no {} record has a field `{}`; did you mean `{nearest}`? (valid names: {})",
            kind.name(),
            preview(name),
            valid.join(", ")
        )),
        None => Ok(name.to_string()),
    }
}

fn valid_names(kind: RecordKind) -> Vec<&'static str> {
    FIELDS
        .iter()
        .filter(|f| f.kind == kind)
        .map(|f| f.key)
        .chain(ERROR_FIELDS)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let own = resolve_names(RecordKind::Sms, &["note".to_string()]).unwrap();
        assert_eq!(own, ["note"], "a field of the service's own is kept");
    }
}
