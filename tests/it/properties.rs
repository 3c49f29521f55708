//! Property tests: request paths always stay under their endpoint whatever the value,
//! and whatever a server answers (arbitrary bytes, arbitrary JSON, any status) the
//! reading and every renderer neither panic nor leave the documented exit codes, and
//! non-JSON output never carries a raw control or bidi character.

use std::io::Write;
use std::time::Duration;

use percent_encoding::percent_decode_str;
use proptest::prelude::*;
use serde_json::{Map, Value};

use smsstat::testkit::json_line;
use smsstat::testkit::read_answer;
use smsstat::testkit::ApiKey;
use smsstat::testkit::LookupError;
use smsstat::testkit::LookupKind;
use smsstat::testkit::{is_unsafe, Outcome, PrintStyle, Printer};
use smsstat::testkit::{OutputFormat, PathStyle};

const KINDS: [LookupKind; 5] = [
    LookupKind::Sms,
    LookupKind::SmsRef,
    LookupKind::Task,
    LookupKind::Hlr,
    LookupKind::HlrRef,
];
const STYLES: [PathStyle; 3] = [PathStyle::Auto, PathStyle::Explicit, PathStyle::Short];

/// The endpoint prefixes of the spec each lookup may use (explicit and short forms).
fn prefixes(kind: LookupKind) -> &'static [&'static str] {
    match kind {
        LookupKind::Sms => &["/sms/"],
        LookupKind::SmsRef => &["/sms/reference/", "/sms/"],
        LookupKind::Task => &["/sms/task/", "/sms/"],
        LookupKind::Hlr => &["/hlr/"],
        LookupKind::HlrRef => &["/hlr/reference/", "/hlr/"],
    }
}

/// The exit codes a lookup's answer can lead to (README's table, less the ones only
/// the command line or configuration give: 64, 78, 80, 81, 130).
fn is_documented(code: u8) -> bool {
    matches!(code, 0..=63 | 65 | 69 | 70 | 75 | 76 | 77 | 79)
}

/// Strings heavy in what breaks paths and terminals, plus anything at all.
fn awkward_string() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[./?#%&;=+ a-zA-Z0-9\\\\]{0,12}",
        "(\\.|%2[eE]|%2[fF]|/|\\.\\.){0,6}",
        "[\u{0}-\u{1f}\u{7f}-\u{9f}\u{202a}-\u{202e}\u{2066}-\u{2069}a-z]{0,12}",
    ]
}

fn check_path(kind: LookupKind, value: &str, path: &str) -> Result<(), TestCaseError> {
    let prefix = prefixes(kind)
        .iter()
        .filter(|p| path.starts_with(**p))
        .max_by_key(|p| p.len())
        .ok_or_else(|| TestCaseError::fail(format!("{path} is under no endpoint")))?;
    let segment = &path[prefix.len()..];
    // Exactly one more segment, nothing that ends the path or starts a query.
    prop_assert!(!segment.contains(['/', '?', '#']), "{path}");
    prop_assert!(segment.chars().all(|c| c.is_ascii_graphic()), "{path}");
    prop_assert!(segment != "." && segment != "..", "{path}");
    prop_assert_eq!(path.matches('/').count(), prefix.matches('/').count());
    // Every % starts an escape, so decoding gives the value back exactly.
    let decoded = percent_decode_str(segment).decode_utf8();
    prop_assert_eq!(decoded.as_deref().ok(), Some(value), "{}", path);
    // And an HTTP client sees the same path.
    let uri: ureq::http::Uri = format!("http://h.example{path}").parse().unwrap();
    prop_assert_eq!(uri.path(), path);
    Ok(())
}

proptest! {
    #[test]
    fn paths_stay_under_their_endpoint(value in awkward_string()) {
        for kind in KINDS {
            for style in STYLES {
                let paths = kind.paths(&value, style);
                prop_assert!(!paths.is_empty());
                for path in &paths {
                    check_path(kind, &value, path)?;
                }
            }
        }
    }
}

// ------------------------------------------------------------------ answers

/// Field names the readers and renderers treat specially, and some others.
fn field_name() -> impl Strategy<Value = String> {
    const KNOWN: [&str; 26] = [
        "error",
        "errorDescription",
        "status",
        "msisdn",
        "reference",
        "time_in",
        "time_sent",
        "time_dr",
        "price",
        "currency",
        "sent",
        "delivered",
        "undeliverable",
        "expired",
        "unknown",
        "totalprice",
        "originator",
        "network",
        "details",
        "ported",
        "roaming",
        "name_en",
        "brand",
        "createdDatetime",
        "statusDatetime",
        "id",
    ];
    prop_oneof![
        3 => prop::sample::select(&KNOWN[..]).prop_map(str::to_string),
        1 => awkward_string(),
    ]
}

fn json_leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        (-100i64..100).prop_map(Value::from),
        any::<f64>().prop_filter_map("finite", |f| serde_json::Number::from_f64(f)
            .map(Value::Number)),
        awkward_string().prop_map(Value::String),
        "-?[0-9]{1,3}(\\.[0-9]{1,3})?".prop_map(Value::String),
        "20[0-9]{2}-[01][0-9]-[0-3][0-9] [0-2][0-9]:[0-5][0-9]:[0-5][0-9]".prop_map(Value::String),
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    json_leaf().prop_recursive(3, 48, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((field_name(), inner), 0..8)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// Mostly objects with the spec's field names: that is where the interesting paths are.
fn json_body() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => prop::collection::vec((field_name(), json_value()), 0..12)
            .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        1 => json_value(),
    ]
    .prop_map(|v| v.to_string().into_bytes())
}

fn any_body() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        json_body(),
        prop::collection::vec(any::<u8>(), 0..256),
        awkward_string().prop_map(String::into_bytes),
    ]
}

fn status() -> impl Strategy<Value = u16> {
    prop_oneof![
        Just(200u16),
        prop::sample::select(vec![
            201u16, 204, 301, 302, 400, 401, 403, 404, 429, 500, 502, 503
        ]),
        100u16..=599,
    ]
}

fn every_style() -> Vec<PrintStyle> {
    let mut styles = Vec::new();
    let field_sets: [&[&str]; 3] = [
        &[],
        &["status", "details.ported", "nope"],
        &["pending", "delivery_rate", "send_latency"],
    ];
    for format in [
        OutputFormat::Table,
        OutputFormat::Json,
        OutputFormat::Csv,
        OutputFormat::Tsv,
    ] {
        for single in [true, false] {
            for fields in field_sets {
                for normalize in [false, true] {
                    let mut style = PrintStyle {
                        format,
                        fields: fields.iter().map(|f| f.to_string()).collect(),
                        normalize,
                        single,
                        ..PrintStyle::default()
                    };
                    style.table.utf8 = single;
                    styles.push(style);
                }
            }
        }
    }
    for field in ["status", "details.ported", "x.y.z"] {
        styles.push(PrintStyle {
            field: Some(field.into()),
            ..PrintStyle::default()
        });
    }
    styles
}

/// Prints the outcome twice (as a batch would) in every style; the text of each.
fn render_everywhere(outcome: &Outcome) -> Vec<(PrintStyle, String)> {
    every_style()
        .into_iter()
        .map(|style| {
            let mut out = Vec::new();
            let mut printer = Printer::new(&mut out, style.clone(), outcome.kind);
            printer.print(outcome).unwrap();
            printer.print(outcome).unwrap();
            printer.finish().unwrap();
            drop(printer);
            (style, String::from_utf8(out).expect("output is UTF-8"))
        })
        .collect()
}

fn check_terminal_safe(style: &PrintStyle, text: &str) -> Result<(), TestCaseError> {
    // A tab is a cell's own in CSV (kept, so the value comes back) and the separator
    // in TSV; harmless on a terminal either way.
    let tab_ok =
        matches!(style.format, OutputFormat::Csv | OutputFormat::Tsv) && style.field.is_none();
    let raw: Vec<char> = text
        .chars()
        .filter(|&c| c != '\n' && !(tab_ok && c == '\t') && is_unsafe(c))
        .collect();
    prop_assert!(
        raw.is_empty(),
        "raw {:?} in {:?} output:\n{}",
        raw,
        style.format,
        text
    );
    Ok(())
}

/// The `--json` line of an answer (no masking asked for, no key to scrub) is what the
/// service sent, exactly: a record or a service error is the service's JSON with its
/// keys in their order, its numbers' digits and its strings, however smsstat escapes
/// what could act on a terminal; any other failure is smsstat's own object.
fn check_json_exact(
    status: u16,
    location: Option<String>,
    body: &[u8],
    kind: LookupKind,
) -> Result<(), TestCaseError> {
    let result = read_answer(status, location, body, kind.record_kind());
    let outcome = Outcome::new(kind, "42".into(), result);
    let mut line = Vec::new();
    json_line(&mut line, &outcome, &[], false).unwrap();
    let text = String::from_utf8(line).unwrap();
    prop_assert!(!text.trim_end().chars().any(is_unsafe), "{}", text);
    let back = crate::common::json_line(&text);
    match &outcome.result {
        Ok(_) | Err(LookupError::Service { .. }) => {
            let sent: Value = serde_json::from_slice(body).map_err(|e| {
                TestCaseError::fail(format!("a record or service error from non-JSON ({e})"))
            })?;
            prop_assert_eq!(back, sent);
        }
        Err(_) => prop_assert_eq!(&back["source"], "smsstat"),
    }
    Ok(())
}

fn check_answer(
    status: u16,
    location: Option<String>,
    body: &[u8],
    kind: LookupKind,
    query: String,
) -> Result<(), TestCaseError> {
    let mut result = read_answer(status, location.clone(), body, kind.record_kind());
    // What `Client::lookup` does next, before any output.
    smsstat::testkit::mask_result(&mut result, true);
    let key = ApiKey::new("acc-0123456789");
    smsstat::testkit::Scrubber::new(Some(&key)).scrub_result(&mut result);
    let outcome = Outcome::new(kind, query, result);
    prop_assert!(
        is_documented(outcome.exit_code()),
        "exit {}",
        outcome.exit_code()
    );
    for (style, text) in render_everywhere(&outcome) {
        if style.format != OutputFormat::Json || style.field.is_some() {
            check_terminal_safe(&style, &text)?;
        } else {
            // Fails naming any line that is not JSON.
            crate::common::json_lines(&text);
        }
    }
    check_json_exact(status, location, body, kind)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn any_answer_reads_and_renders_within_the_contract(
        status in status(),
        location in prop::option::of(awkward_string()),
        body in any_body(),
        kind in prop::sample::select(&KINDS[..]),
        query in awkward_string(),
    ) {
        check_answer(status, location, &body, kind, query)?;
    }

    #[test]
    fn json_records_read_and_render_within_the_contract(
        body in json_body(),
        kind in prop::sample::select(&KINDS[..]),
    ) {
        check_answer(200, None, &body, kind, "42".into())?;
    }
}

// ------------------------------------------------------------------ the binary

/// A few arbitrary byte strings served raw, as the whole answer or as the body of a
/// well-formed one, through the real binary and its HTTP client.
fn serve_raw(bytes: Vec<u8>, as_body: bool) -> crate::common::RawServer {
    let answer = if as_body {
        let mut answer = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            bytes.len()
        )
        .into_bytes();
        answer.extend_from_slice(&bytes);
        answer
    } else {
        bytes
    };
    crate::common::RawServer::start(move |mut stream| {
        let _ = stream.write_all(&answer);
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    #[test]
    fn the_binary_survives_arbitrary_bytes(
        bytes in prop_oneof![
            prop::collection::vec(any::<u8>(), 0..512),
            json_body(),
        ],
        as_body in any::<bool>(),
    ) {
        let server = serve_raw(bytes, as_body);
        let mut codes = Vec::new();
        for args in [&["sms", "1"][..], &["--json", "sms", "1"], &["-vv", "-o", "csv", "sms", "1"]] {
            let out = crate::common::smsstat_at(&server.base)
                .args(["--timeout", "5s"])
                .args(args)
                .timeout(Duration::from_secs(20))
                .output()
                .unwrap();
            let code = out.status.code().expect("exited, not killed");
            let documented = u8::try_from(code).is_ok_and(is_documented);
            prop_assert!(documented, "exit {} for {:?}", code, args);
            codes.push(code);
            let stdout = String::from_utf8_lossy(&out.stdout);
            let stderr = String::from_utf8_lossy(&out.stderr);
            prop_assert!(!stdout.chars().any(|c| c != '\n' && is_unsafe(c)), "{}", stdout);
            prop_assert!(!stderr.chars().any(|c| c != '\n' && is_unsafe(c)), "{}", stderr);
            prop_assert!(!stderr.contains("panicked"), "{}", stderr);
        }
        // The same answer means the same exit code, whatever the output format.
        prop_assert!(codes.iter().all(|c| *c == codes[0]), "exit codes {:?}", codes);
    }
}
