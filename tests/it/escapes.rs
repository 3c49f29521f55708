//! What smsstat prints cannot act on a terminal or a spreadsheet: formula cells are
//! neutralised in CSV/TSV, text from arguments and the environment is escaped like
//! server text, and a huge service text is cut. Through the built binary.

use crate::common::process::{run_at, run_cmd, Run};
use crate::common::{smsstat, Canned, TestServer};

#[test]
fn formula_cells_are_neutralised_in_csv_and_tsv_unless_raw_cells() {
    let body = r#"{"msisdn":"=HYPERLINK(\"http://evil.example\")","reference":"@SUM(A1)","status":"+delivered","price":-0.5,"currency":"-EUR"}"#;
    let server = TestServer::fixed(Canned::json(200, body));
    let csv = run_at(&server.base, &["-o", "csv", "sms", "=1+1"]);
    assert_eq!(csv.code, 64, "a query like that is refused: {}", csv.stderr);
    let csv = run_at(&server.base, &["-o", "csv", "sms", "1"]);
    assert_eq!(csv.code, 0, "{}", csv.stderr);
    let row = csv.stdout.lines().nth(1).unwrap();
    assert_eq!(
        row, r#"1,"'=HYPERLINK(""http://evil.example"")",'@SUM(A1),'+delivered,,-0.5,'-EUR,0,"#,
        "{}",
        csv.stdout
    );
    let tsv = run_at(&server.base, &["-o", "tsv", "sms", "1"]);
    assert!(
        tsv.stdout.contains("\t'@SUM(A1)\t'+delivered\t"),
        "{}",
        tsv.stdout
    );
    assert!(tsv.stdout.contains("\t-0.5\t'-EUR\t"), "{}", tsv.stdout);
    let raw = run_at(&server.base, &["-o", "csv", "--raw-cells", "sms", "1"]);
    assert!(
        raw.stdout.contains(",@SUM(A1),+delivered,"),
        "{}",
        raw.stdout
    );
    assert!(!raw.stdout.contains('\''), "{}", raw.stdout);
}

#[test]
fn a_formula_in_the_query_column_is_neutralised() {
    let server = TestServer::fixed(Canned::json(200, r#"{"status":"delivered"}"#));
    let run = run_at(&server.base, &["-o", "csv", "sms-ref", "--", "-cmd|calc"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .lines()
            .nth(1)
            .unwrap()
            .starts_with("'-cmd|calc,"),
        "{}",
        run.stdout
    );
}

/// Invisible and reordering characters a terminal would not show as such.
const HIDDEN: [char; 8] = [
    '\u{1b}',
    '\u{202e}',
    '\u{e0041}',
    '\u{3164}',
    '\u{115f}',
    '\u{034f}',
    '\u{fffb}',
    '\u{2064}',
];

fn assert_escaped(run: &Run, what: &str) {
    for c in HIDDEN {
        assert!(
            !run.stdout.contains(c) && !run.stderr.contains(c),
            "{what}: U+{:04X} printed raw:\n{}\n{}",
            c as u32,
            run.stdout,
            run.stderr
        );
    }
}

#[test]
fn text_from_arguments_and_the_environment_is_escaped() {
    let hidden: String = HIDDEN.iter().collect();
    let tricky = format!("x{hidden}y");
    let server = TestServer::fixed(Canned::json(200, r#"{"status":"delivered"}"#));
    let runs = [
        (
            "--profile",
            run_at(&server.base, &["--profile", &tricky, "sms", "1"]),
        ),
        (
            "--config",
            run_at(&server.base, &["--config", &tricky, "sms", "1"]),
        ),
        (
            "--fields",
            run_at(&server.base, &["--fields", &tricky, "sms", "1", "2"]),
        ),
        // clap itself drops an ESC sequence from the value it quotes; the rest is escaped.
        (
            "clap error",
            run_at(
                &server.base,
                &["--jobs", &tricky.replace('\u{1b}', ""), "sms", "1"],
            ),
        ),
        ("--base-url", {
            let mut cmd = smsstat();
            cmd.args(["--base-url", &format!("http://{tricky}:x/"), "sms", "1"]);
            run_cmd(cmd)
        }),
        ("SMSSTAT_BASE_URL", {
            let mut cmd = smsstat();
            cmd.env("SMSSTAT_BASE_URL", format!("ftp://{tricky}/"))
                .args(["sms", "1"]);
            run_cmd(cmd)
        }),
    ];
    for (what, run) in runs {
        assert_ne!(run.stdout.len() + run.stderr.len(), 0, "{what}: silent");
        assert!(
            run.stdout.contains("\\u{e0041}") || run.stderr.contains("\\u{e0041}"),
            "{what}: no escape shown:\n{}\n{}",
            run.stdout,
            run.stderr
        );
        assert_escaped(&run, what);
    }
}

#[test]
fn a_huge_service_text_is_cut_on_stderr_and_in_table_cells() {
    let description = "E".repeat(1 << 20);
    let body = format!(r#"{{"error":30,"errorDescription":"{description}"}}"#);
    let record = format!(r#"{{"status":"{description}"}}"#);
    let server = TestServer::start(move |url| {
        if url.ends_with("/2") {
            Canned::json(200, &record)
        } else {
            Canned::json(200, &body)
        }
    });
    let run = run_at(&server.base, &["sms", "1", "2"]);
    assert_eq!(run.code, 30, "{}", &run.stderr[..200.min(run.stderr.len())]);
    assert!(
        run.stderr.len() < 4000,
        "stderr is {} bytes",
        run.stderr.len()
    );
    assert!(run.stderr.contains("more characters"), "{}", run.stderr);
    assert!(
        run.stdout.len() < 20_000,
        "stdout is {} bytes",
        run.stdout.len()
    );
    assert!(run.stdout.contains("more characters"), "{}", run.stdout);
    // --json keeps the service's text whole.
    let json = run_at(&server.base, &["--json", "sms", "1"]);
    assert!(json.stdout.len() > 1 << 20, "{}", json.stdout.len());
}
