//! Arbitrary answers (status, Location, body) through `read_answer` and then every
//! renderer: nothing may panic, the exit code stays in the documented table, and
//! non-JSON output never carries a raw control or bidi character.
#![no_main]

use libfuzzer_sys::fuzz_target;

use smsstat::testkit::OutputFormat;
use smsstat::testkit::read_answer;
use smsstat::testkit::LookupKind;
use smsstat::testkit::{is_unsafe, Outcome, PrintStyle, Printer};

const KINDS: [LookupKind; 5] = [
    LookupKind::Sms,
    LookupKind::SmsRef,
    LookupKind::Task,
    LookupKind::Hlr,
    LookupKind::HlrRef,
];
const FORMATS: [OutputFormat; 4] = [
    OutputFormat::Table,
    OutputFormat::Json,
    OutputFormat::Csv,
    OutputFormat::Tsv,
];

fuzz_target!(|data: &[u8]| {
    // Layout: 2 bytes status, 1 byte kind and flags, 1 byte Location length, the
    // Location, then the body.
    if data.len() < 4 {
        return;
    }
    let status = 100 + u16::from_be_bytes([data[0], data[1]]) % 500;
    let kind = KINDS[usize::from(data[2] % 5)];
    let normalize = data[2] & 0x80 != 0;
    let location_len = usize::from(data[3]).min(data.len() - 4);
    let location = (location_len > 0)
        .then(|| String::from_utf8_lossy(&data[4..4 + location_len]).into_owned());
    let body = &data[4 + location_len..];

    let mut result = read_answer(status, location, body, kind.record_kind());
    smsstat::testkit::mask_result(&mut result, data[2] & 0x40 != 0);
    let outcome = Outcome::new(kind, "42".into(), result);
    let code = outcome.exit_code();
    assert!(
        matches!(code, 0..=63 | 65 | 69 | 70 | 75 | 76 | 77 | 79),
        "exit {code}"
    );

    for format in FORMATS {
        for single in [true, false] {
            let mut style = PrintStyle {
                format,
                normalize,
                single,
                ..PrintStyle::default()
            };
            style.table.utf8 = single;
            let mut out = Vec::new();
            let mut printer = Printer::new(&mut out, style, kind);
            printer.print(&outcome).unwrap();
            printer.finish().unwrap();
            drop(printer);
            let text = String::from_utf8(out).expect("output is UTF-8");
            if format == OutputFormat::Json {
                for line in text.lines() {
                    serde_json::from_str::<serde_json::Value>(line).expect("JSON line parses");
                }
            }
            let tab_ok = format == OutputFormat::Tsv;
            assert!(
                !text
                    .chars()
                    .any(|c| c != '\n' && !(tab_ok && c == '\t') && is_unsafe(c)),
                "raw control character in {format:?} output"
            );
        }
    }
});
