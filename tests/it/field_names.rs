//! Field names of `--fields`/`--field`, through the built binary: names no record
//! knows are usage errors, dotted paths into `details` and table labels are names,
//! the always-present columns are neither duplicated nor warned about, and the
//! record view follows the order asked.

use crate::common::process::run_at;
use crate::common::{json_line, smsstat_at, Canned, TestServer, HLR, SMS};
use predicates::prelude::*;

/// The exit code, stdout and stderr of `args` run against `server`.
fn run(server: &TestServer, args: &[&str]) -> (i32, String, String) {
    let run = run_at(&server.base, args);
    (run.code, run.stdout, run.stderr)
}

#[test]
fn dotted_paths_into_details_are_names_and_their_typos_are_not() {
    let server = TestServer::fixed(Canned::json(200, HLR));
    let (code, out, err) = run(&server, &["--field", "details.roaming", "hlr", "174568"]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "1\n", ""));
    let (code, out, err) = run(
        &server,
        &[
            "-o",
            "csv",
            "--fields",
            "details.ported,details.imsi",
            "hlr",
            "1",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("query,details.ported,details.imsi,error,"),
        "{out}"
    );
    smsstat_at(&server.base)
        .args(["--fields", "detials.ported", "hlr", "1"])
        .assert()
        .code(64)
        .stdout("")
        .stderr(predicate::str::contains("did you mean `details.ported`?"));
}

#[test]
fn the_always_present_columns_are_not_repeated_or_warned_about() {
    let server = TestServer::fixed(Canned::json(200, SMS));
    let (code, out, err) = run(
        &server,
        &["-o", "csv", "--fields", "query,status,error", "sms", "1"],
    );
    assert_eq!(code, 0);
    assert_eq!(out, "query,status,error,errorDescription\n1,delivered,0,\n");
    assert_eq!(err, "");
    // `Error` is the table's label of the error column: one such column, shown
    // because a lookup failed.
    let server = TestServer::start(|url| match url.ends_with("/2") {
        true => Canned::json(404, r#"{"error":20,"errorDescription":"SMS not found"}"#),
        false => Canned::json(200, SMS),
    });
    let (code, out, err) = run(&server, &["--fields", "Status,Error", "sms", "1", "2"]);
    assert_eq!(code, 20, "{err}");
    assert!(out.contains("SMS not found"), "{out}");
    let header = out.lines().nth(1).unwrap();
    assert_eq!(header.matches("Error").count(), 1, "{out}");
    assert!(header.contains("Status"), "{out}");
    assert!(!err.contains("warning"), "{err}");
}

#[test]
fn normalized_json_names_kind_and_query_without_warnings() {
    let server = TestServer::fixed(Canned::json(200, SMS));
    let args = [
        "--json",
        "--normalize",
        "--fields",
        "kind,query,status",
        "sms",
        "7",
    ];
    let (code, out, err) = run(&server, &args);
    assert_eq!((code, err.as_str()), (0, ""));
    let line = json_line(&out);
    assert_eq!(line["kind"], "sms");
    assert_eq!(line["query"], "7");
    assert_eq!(line["status"], "delivered");
    // Without --normalize, the query is still text (leading zeros kept).
    let (_, out, err) = run(
        &server,
        &["--json", "--fields", "query,status", "sms", "007"],
    );
    assert_eq!(err, "");
    assert_eq!(out, "{\"query\":\"007\",\"status\":\"delivered\"}\n");
}

#[test]
fn the_record_view_follows_the_fields_order() {
    let server = TestServer::fixed(Canned::json(200, SMS));
    let (code, out, err) = run(&server, &["--fields", "status,msisdn,query", "sms", "1"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let at = |label: &str| out.find(label).unwrap_or_else(|| panic!("{label}: {out}"));
    assert!(at("Status") < at("Phone number"), "{out}");
    assert!(at("Phone number") < at("Query"), "{out}");
    assert!(!out.contains("Price"), "{out}");
}
