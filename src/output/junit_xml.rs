//! The XML of `--junit PATH`: one JUnit test case per lookup, so that CI systems show
//! a smoke check as tests. The suite's counts, which the XML puts first, are written
//! around the test cases at the end (`write_document`).

use std::io::{self, Read, Write};
use std::time::Duration;

use crate::domain::outcome::Outcome;
use crate::domain::sanitize::{escape_cut, MAX_LINE_CHARS};
use crate::output::summary::failure_label;

/// The counts of a suite, kept while its test cases are written.
#[derive(Debug, Default, Clone, Copy)]
pub struct SuiteCounts {
    pub tests: u64,
    pub failures: u64,
}

/// One `<testcase>`; a failed lookup or an unmet expectation carries a `<failure>`
/// with the message shown on stderr and the exit code it asks for.
pub fn write_testcase(
    out: &mut impl Write,
    outcome: &Outcome,
    counts: &mut SuiteCounts,
) -> io::Result<()> {
    counts.tests += 1;
    let kind = outcome.kind.name();
    write!(
        out,
        "    <testcase classname=\"smsstat.{kind}\" name=\"{}\" time=\"{}\"",
        xml(&format!("{kind} {}", outcome.query)),
        seconds(outcome.elapsed)
    )?;
    let problem = match (&outcome.result, &outcome.verdict) {
        (Err(error), _) => error.to_string(),
        (Ok(_), Some(verdict)) => verdict.message.clone(),
        (Ok(_), None) => return writeln!(out, "/>"),
    };
    counts.failures += 1;
    let code = outcome.exit_code();
    let label = failure_label(outcome).unwrap_or_default();
    let message = escape_cut(&problem, MAX_LINE_CHARS);
    writeln!(
        out,
        ">\n      <failure message=\"{}\" type=\"exit {code}\">{} (exit code {code})</failure>\n    </testcase>",
        xml(&escape_cut(&label, MAX_LINE_CHARS)),
        xml(&message)
    )
}

/// The whole document: the suite's head with its counts, the test cases written
/// so far (`cases`), and the closing tags.
pub fn write_document(
    out: &mut impl Write,
    suite: &str,
    counts: SuiteCounts,
    elapsed: Duration,
    cases: &mut impl Read,
) -> io::Result<()> {
    // No `skipped` (nothing is skipped): Jenkins' xUnit (junit-10.xsd) refuses it
    // on the root, and readers take a missing count for 0.
    let head = format!(
        "tests=\"{}\" failures=\"{}\" errors=\"0\" time=\"{}\"",
        counts.tests,
        counts.failures,
        seconds(elapsed)
    );
    writeln!(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>")?;
    writeln!(out, "<testsuites name=\"smsstat\" {head}>")?;
    writeln!(out, "  <testsuite name=\"{}\" {head}>", xml(suite))?;
    io::copy(cases, out)?;
    writeln!(out, "  </testsuite>\n</testsuites>")?;
    out.flush()
}

fn seconds(elapsed: Duration) -> String {
    format!("{:.3}", elapsed.as_secs_f64())
}

/// Text for an XML attribute or element: markup escaped, and characters XML 1.0
/// cannot carry at all (most C0 controls, U+FFFE, U+FFFF) replaced, so that a
/// hostile answer cannot break the file (controls are escaped visibly before).
fn xml(text: &str) -> String {
    let carried = |c: char| {
        matches!(c, '\t' | '\n' | '\r') || (c >= ' ' && c != '\u{FFFE}' && c != '\u{FFFF}')
    };
    let text: String = text
        .chars()
        .map(|c| if carried(c) { c } else { '\u{FFFD}' })
        .collect();
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::error::LookupError;
    use crate::domain::lookup::LookupKind;

    #[test]
    fn markup_and_controls_cannot_break_the_file() {
        assert_eq!(xml("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&apos;");
        assert_eq!(xml("x\u{0}y\u{FFFF}"), "x\u{FFFD}y\u{FFFD}");
    }

    #[test]
    fn a_failure_carries_its_message_and_exit_code() {
        let outcome = Outcome::new(
            LookupKind::Sms,
            "4<2".into(),
            Err(LookupError::Timeout(Duration::from_secs(2))),
        );
        let mut counts = SuiteCounts::default();
        let mut out = Vec::new();
        write_testcase(&mut out, &outcome, &mut counts).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("name=\"sms 4&lt;2\""), "{text}");
        assert!(text.contains("type=\"exit 75\""), "{text}");
        assert_eq!((counts.tests, counts.failures), (1, 1));
    }
}
