//! The key never appears in any output, and scrubbing it never changes what an answer
//! means: through the built binary, against real loopback servers.

use std::io::Write;

use crate::common::process::{run_cmd, Run};
use crate::common::{smsstat_at, Canned, RawServer, TestServer, SMS};
use serde_json::Value;

fn run_with_key(base: &str, key: &str, args: &[&str]) -> Run {
    let mut cmd = smsstat_at(base);
    cmd.env("SMSSTAT_API_KEY", key).args(args);
    run_cmd(cmd)
}

fn assert_absent(run: &Run, needle: &str, what: &str) {
    assert!(
        !run.stdout.contains(needle) && !run.stderr.contains(needle),
        "{needle} printed ({what}):\nstdout: {}\nstderr: {}",
        run.stdout,
        run.stderr
    );
}

const MODES: [&[&str]; 6] = [
    &[],
    &["-vv"],
    &["--json"],
    &["-o", "csv"],
    &["-o", "tsv"],
    &["-vv", "--field", "status"],
];

#[test]
fn a_percent_encoded_key_with_unreserved_characters_raw_is_never_printed() {
    let key = "Zm9v-YmFy_ZQ+x/y==";
    let echo = "Zm9v-YmFy_ZQ%2Bx%2Fy%3D%3D";
    let body = format!(r#"{{"error":30,"errorDescription":"bad key {echo}"}}"#);
    let server = TestServer::fixed(
        Canned::json(200, &body)
            .header("Location", &format!("https://x/?k={echo}"))
            .header("X-Echo", &echo.to_lowercase())
            .header(&format!("x-{}", "zm9v-ymfy_zq"), "1"),
    );
    for mode in MODES {
        let args: Vec<&str> = mode.iter().copied().chain(["sms", "1"]).collect();
        let run = run_with_key(&server.base, key, &args);
        assert_eq!(run.code, 30, "{args:?}: {}", run.stderr);
        for needle in [echo, &echo.to_lowercase(), key, "Zm9v-YmFy"] {
            assert_absent(&run, needle, &format!("{args:?}"));
        }
    }
}

#[test]
fn a_key_echoed_in_other_cases_and_encodings_in_headers_is_never_printed() {
    let key = "acc-header-echo-5q1";
    let server = TestServer::fixed(
        Canned::json(200, SMS)
            .header("X-Upper", "ACC-HEADER-ECHO-5Q1")
            .header("X-Pct", "acc%2Dheader%2decho%2D5q1")
            .header("X-B64", "Basic dXNlcjphY2MtaGVhZGVyLWVjaG8tNXEx")
            .header("acc-header-echo-5q1", "as a name"),
    );
    let run = run_with_key(&server.base, key, &["-vv", "sms", "1"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("< x-upper: ****"), "{}", run.stderr);
    assert!(run.stderr.contains("< ****: as a name"), "{}", run.stderr);
    for needle in [
        "header-echo",
        "HEADER-ECHO",
        "header%2decho",
        "dXNlcjphY2MtaGVhZGVy",
    ] {
        assert_absent(&run, needle, "-vv");
    }
}

#[test]
fn a_key_equal_to_an_error_code_keeps_the_code() {
    let server = TestServer::fixed(Canned::json(200, r#"{"error":20}"#));
    let run = run_with_key(&server.base, "20", &["sms", "1"]);
    assert_eq!(run.code, 20, "{}", run.stderr);
    let run = run_with_key(&server.base, "20", &["--json", "sms", "1"]);
    assert_eq!(run.code, 20, "{}", run.stderr);
    let json: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["error"], 20, "{}", run.stdout);
}

#[test]
fn a_key_equal_to_a_number_or_a_field_name_changes_neither() {
    let body = r#"{"id":1234567890,"status":"delivered","price":0.2}"#;
    let server = TestServer::fixed(Canned::json(200, body));
    let run = run_with_key(&server.base, "1234567890", &["--json", "sms", "1"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["id"], 1234567890_u64, "{}", run.stdout);
    let run = run_with_key(&server.base, "status", &["--json", "sms", "1"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["status"], "delivered", "{}", run.stdout);
}

#[test]
fn a_key_inside_a_status_is_masked_in_output_but_the_verdict_reads_the_status_sent() {
    // A short key such as `ivere` is masked inside `delivered` everywhere it is shown,
    // but whether the SMS was delivered is read from what the server said.
    let server = TestServer::fixed(Canned::json(200, SMS));
    let run = run_with_key(
        &server.base,
        "ivere",
        &["--expect", "delivered", "--json", "sms", "1"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_absent(&run, "ivere", "--json");
    let waited = run_with_key(&server.base, "ivere", &["--wait", "--json", "sms", "1"]);
    assert_eq!(waited.code, 0, "{}", waited.stderr);
    let unmet = run_with_key(&server.base, "ivere", &["--expect", "expired", "sms", "1"]);
    assert_eq!(unmet.code, 80, "{}", unmet.stderr);
    assert_absent(&unmet, "ivere", "the verdict's message");
}

#[test]
fn invalid_utf8_is_unreadable_with_or_without_a_key() {
    let server = RawServer::start(|mut stream| {
        let body = b"{\"status\":\"d\xffne\"}";
        let head = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        );
        let _ = stream.write_all(head.as_bytes());
        let _ = stream.write_all(body);
    });
    let without = run_cmd({
        let mut cmd = smsstat_at(&server.base);
        cmd.args(["sms", "1"]);
        cmd
    });
    assert_eq!(without.code, 65, "{}", without.stderr);
    let with = run_with_key(&server.base, "acc-some-key-123", &["sms", "1"]);
    assert_eq!(with.code, 65, "{}", with.stderr);
}

#[test]
fn a_non_json_body_quoting_the_key_shows_none_of_it() {
    let key = "acc-preview-secret-77";
    // The key straddles the 40 characters a message quotes.
    let body = format!("<html>oops, you sent: 12345{key} and more</html>");
    let server = TestServer::fixed(Canned::text(200, &body));
    let run = run_with_key(&server.base, key, &["sms", "1"]);
    assert_eq!(run.code, 65, "{}", run.stderr);
    assert!(run.stderr.contains("****"), "{}", run.stderr);
    assert_absent(&run, "acc-preview", "a cut preview");
}

// ---------------------------------------------------------------- key settings

#[test]
fn a_key_with_spaces_around_it_is_trimmed_with_a_warning_from_every_source() {
    let key = "acc-trimmed-secret-42";
    let server = TestServer::fixed(Canned::json(200, SMS));
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(&config, format!("api_key = \"  {key}\\n\"\n")).unwrap();
    let config = config.to_str().unwrap().to_string();
    let spaced = format!(" {key}\t\n");
    let runs = [
        ("env", {
            let mut cmd = smsstat_at(&server.base);
            cmd.env("SMSSTAT_API_KEY", &spaced).args(["sms", "1"]);
            run_cmd(cmd)
        }),
        ("flag", {
            let mut cmd = smsstat_at(&server.base);
            cmd.args(["--api-key", &spaced, "sms", "1"]);
            run_cmd(cmd)
        }),
        ("file", {
            let mut cmd = smsstat_at(&server.base);
            cmd.args(["--config", &config, "sms", "1"]);
            run_cmd(cmd)
        }),
    ];
    for (source, run) in runs {
        assert_eq!(run.code, 0, "{source}: {}", run.stderr);
        assert!(
            run.stderr.contains("spaces or line breaks around it"),
            "{source}: {}",
            run.stderr
        );
        assert_absent(&run, key, source);
    }
    assert!(server
        .seen()
        .iter()
        .all(|seen| seen.header("X-API-KEY") == Some(key)));
}

#[test]
fn a_base_url_with_credentials_is_refused_without_echoing_them() {
    for url in [
        "https://user:pw-s3cr3t@gw.example/rest",
        "https://gw.example/rest?api_key=s3cr3t-in-query",
        "http://tok-s3cr3t@127.0.0.1:8080",
    ] {
        let run = run_cmd({
            let mut cmd = crate::common::smsstat();
            cmd.args(["--base-url", url, "sms", "1"]);
            cmd
        });
        assert_eq!(run.code, 78, "{url}: {}", run.stderr);
        assert!(
            run.stderr
                .contains("credentials in the base URL are not supported"),
            "{url}: {}",
            run.stderr
        );
        assert_absent(&run, "s3cr3t", url);
        assert!(!run.stderr.contains("the port"), "{}", run.stderr);
    }
}

#[test]
fn config_show_and_traces_show_at_most_the_last_four_characters() {
    let server = TestServer::fixed(Canned::json(200, SMS));
    for (key, shown) in [
        ("acc-long-enough-key-9xyz", "****9xyz"),
        ("short-key-abc12", "****"),
    ] {
        let run = run_with_key(&server.base, key, &["config", "show"]);
        let line = run
            .stdout
            .lines()
            .find(|l| l.starts_with("api_key "))
            .unwrap_or_else(|| panic!("no api_key line: {}", run.stdout));
        assert_eq!(line.split_whitespace().nth(1), Some(shown), "{line}");
        let run = run_with_key(&server.base, key, &["-vv", "sms", "1"]);
        assert!(
            run.stderr.contains(&format!("> x-api-key: {shown}\n")),
            "{}",
            run.stderr
        );
        assert_absent(&run, &key[..key.len() - 1], "-vv");
    }
}

// ---------------------------------------------------------------- privacy

#[test]
fn mask_msisdn_leaves_no_copy_of_the_number_in_any_format() {
    let record = r#"{"id":"380501234567","msisdn":["380501234567",4915112345678],"network":"25503","status":"active","details":{"msisdn":"79161234567","ported":"0"},"createdDatetime":"2017-03-03T13:04:56+00:00"}"#;
    let failure =
        r#"{"error":31,"errorDescription":"unknown number 79161234567","msisdn":79161234567}"#;
    let server = TestServer::start(move |url| {
        if url.ends_with("/2") {
            Canned::json(200, failure)
        } else {
            Canned::json(200, record)
        }
    });
    let modes: [&[&str]; 6] = [
        &[],
        &["--json"],
        &["--json", "--normalize"],
        &["-o", "csv"],
        &["-o", "tsv"],
        &["--field", "id"],
    ];
    for mode in modes {
        for (query, code) in [("1", 0), ("2", 31)] {
            let mut cmd = smsstat_at(&server.base);
            cmd.arg("--mask-msisdn").args(mode).args(["hlr", query]);
            let run = run_cmd(cmd);
            assert_eq!(run.code, code, "{mode:?} {query}: {}", run.stderr);
            for number in ["380501234567", "4915112345678", "79161234567", "9161234567"] {
                assert_absent(&run, number, &format!("{mode:?} {query}"));
            }
        }
    }
}
