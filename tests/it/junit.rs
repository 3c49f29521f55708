//! `--junit PATH`: a test case per lookup, a failure per problem, valid and escaped
//! XML, never the key.

use std::time::Duration;

use crate::common::mixed::{answer, server, Answer};
use crate::common::{run_batch, smsstat_at, Canned, TestServer};
use smsstat::testkit::Kind;

fn junit_cases(path: &std::path::Path) -> (usize, usize, usize, String) {
    let xml = std::fs::read_to_string(path).unwrap();
    let document = roxmltree::Document::parse(&xml).expect("valid XML");
    let suite = document
        .descendants()
        .find(|n| n.has_tag_name("testsuite"))
        .unwrap();
    let cases = suite
        .children()
        .filter(|n| n.has_tag_name("testcase"))
        .count();
    let failures = suite
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .count();
    let declared: usize = suite.attribute("failures").unwrap().parse().unwrap();
    assert_eq!(suite.attribute("tests").unwrap(), cases.to_string());
    (cases, failures, declared, xml)
}

#[test]
fn junit_has_a_case_per_lookup_and_a_failure_per_problem() {
    let server = server(Kind::Sms);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("smoke.xml");
    let ids: Vec<u64> = (1..=200).collect();
    let path_text = path.to_str().unwrap();
    let (out, _) = run_batch(
        &server.base,
        &[
            "--json",
            "--junit",
            path_text,
            "--expect",
            "delivered",
            "sms",
            "-",
        ],
        &ids,
        Duration::from_secs(60),
    );
    let failing = |id: &u64| match answer(Kind::Sms, *id) {
        Answer::NotFound => Some(20),
        Answer::Unavailable => Some(69),
        Answer::Record(map) => (map["status"] != "delivered").then_some(80),
    };
    // The batch rule: the exit code of the first failure in input order.
    assert_eq!(out.status.code(), ids.iter().find_map(failing));
    let failed = ids
        .iter()
        .filter(|id| match answer(Kind::Sms, **id) {
            Answer::Record(map) => map["status"] != "delivered",
            _ => true,
        })
        .count();
    let (cases, failures, declared, xml) = junit_cases(&path);
    assert_eq!(cases, 200);
    assert_eq!((failures, declared), (failed, failed));
    assert!(xml.contains(r#"<testcase classname="smsstat.sms" name="sms 1" time=""#));
    assert!(xml.contains(r#"type="exit 80""#), "{xml}");
    assert!(xml.contains(r#"type="exit 20""#), "{xml}");
    // Only the document is left behind.
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(left.len(), 1);
}

/// Jenkins' xUnit plugin checks a JUnit file against its junit-10.xsd (its rules are
/// tests/data/junit.xsd; README.md there names the source) and skips a file that
/// fails; GitLab and GitHub reporters read the root's counts. A file with failures
/// of every kind.
#[test]
fn junit_validates_against_the_jenkins_xunit_schema() {
    let server = server(Kind::Sms);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("smoke.xml");
    let ids: Vec<u64> = (1..=40).collect();
    let path_text = path.to_str().unwrap();
    let args = ["--junit", path_text, "--expect", "delivered", "sms", "-"];
    let (out, _) = run_batch(&server.base, &args, &ids, Duration::from_secs(60));
    assert!(out.status.code().is_some_and(|code| code > 0), "{out:?}");
    let (cases, failures, _, xml) = junit_cases(&path);
    assert!(cases == 40 && failures > 0, "{xml}");
    let document = roxmltree::Document::parse(&xml).unwrap();
    let root = document.root_element();
    let names: Vec<&str> = root.attributes().map(|a| a.name()).collect();
    assert_eq!(names, ["name", "tests", "failures", "errors", "time"]);
    let schema = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/junit.xsd");
    let xmllint = std::process::Command::new("xmllint")
        .args(["--noout", "--schema", schema])
        .arg(&path)
        .output();
    match xmllint {
        Ok(run) => assert!(
            run.status.success(),
            "{}\n{xml}",
            String::from_utf8_lossy(&run.stderr)
        ),
        Err(e) => eprintln!("xmllint cannot be run ({e}): not validated against {schema}"),
    }
}

#[test]
fn junit_is_escaped_and_never_holds_the_key() {
    let key = "k3y-Zm9vYmFyYmF6cXV4";
    let server = TestServer::fixed(Canned::json(
        200,
        &format!(r#"{{"error":21,"errorDescription":"bad <x> & \"{key}\" \u0001 \u202e"}}"#),
    ));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.xml");
    let out = smsstat_at(&server.base)
        .env("SMSSTAT_API_KEY", key)
        .args(["--junit", path.to_str().unwrap(), "sms", "1", "2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(21));
    let (cases, failures, _, xml) = junit_cases(&path);
    assert_eq!((cases, failures), (2, 2));
    assert!(!xml.contains(key), "{xml}");
    assert!(!xml.contains('\u{202e}'), "{xml}");
}

#[test]
fn an_unwritable_junit_path_is_refused_before_any_lookup() {
    let server = server(Kind::Sms);
    let out = smsstat_at(&server.base)
        .args(["--junit", "/nonexistent-dir/out.xml", "sms", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(78));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write the JUnit file"));
    assert!(server.urls().is_empty());
}

/// Two runs writing the same `--junit` path at once, both under way together (the
/// server holds every answer until both have asked): both succeed, and the file
/// left is one whole document, with no side file behind.
#[test]
fn two_runs_writing_one_junit_path_leave_a_whole_document() {
    let gate = crate::common::Gate::new();
    let held = gate.clone();
    let server = TestServer::start(move |url| {
        held.wait();
        let id = crate::common::answers::value_of(url).to_string();
        Canned::json(
            200,
            &format!(r#"{{"error":0,"status":"delivered","id":"{id}"}}"#),
        )
    });
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("smoke.xml");
    let path_text = path.to_str().unwrap().to_string();
    let runs: Vec<_> = ["1", "2"]
        .iter()
        .map(|id| {
            let mut cmd = smsstat_at(&server.base);
            cmd.args(["--junit", &path_text, "--json", "sms", id, "10"]);
            std::thread::spawn(move || cmd.timeout(Duration::from_secs(60)).output().unwrap())
        })
        .collect();
    // Both runs have their side files open and all their requests out.
    server.wait_for_requests(4);
    gate.open();
    for run in runs {
        let out = run.join().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let (cases, failures, _, _) = junit_cases(&path);
    assert_eq!((cases, failures), (2, 0));
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(left.len(), 1, "{left:?}");
}
