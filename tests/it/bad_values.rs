//! Bad values, one exit code per source: a flag or an `SMSSTAT_*` variable is a
//! usage error (64) whose message names the flag or the variable; the config file is
//! a configuration error (78) naming the file, line and key. Nothing is sent, and no
//! secret is echoed.

use std::fs;

use crate::common::{sms_server, smsstat};
use predicates::prelude::*;

#[test]
fn bad_flag_values_are_64_naming_the_flag() {
    let server = sms_server();
    for (flag, value) in [
        ("--jobs", "0"),
        ("--jobs", "257"),
        ("--timeout", "0"),
        ("--timeout", "abc"),
        ("--max-body", "0"),
        ("--api-key-header", "bad header"),
        ("--retries", "21"),
        ("--retries", "abc"),
    ] {
        smsstat()
            .args(["--base-url", &server.base, flag, value, "sms", "1"])
            .assert()
            .code(64)
            .stderr(predicate::str::contains(flag));
    }
    assert!(server.urls().is_empty(), "nothing is sent for a bad value");
}

#[test]
fn bad_variable_values_are_64_naming_the_variable() {
    let server = sms_server();
    for (name, value) in [
        ("SMSSTAT_TIMEOUT", "0"),
        ("SMSSTAT_TIMEOUT", "abc"),
        ("SMSSTAT_RETRIES", "abc"),
        ("SMSSTAT_RETRIES", "21"),
        ("SMSSTAT_API_KEY_HEADER", "bad header"),
        ("SMSSTAT_OUTPUT", "xml"),
    ] {
        let flag = format!("--{}", name["SMSSTAT_".len()..].to_lowercase());
        let flag = flag.replace('_', "-");
        smsstat()
            .args(["--base-url", &server.base, "sms", "1"])
            .env(name, value)
            .assert()
            .code(64)
            .stderr(predicate::str::starts_with(format!(
                "smsstat: error: {name}: `{value}`"
            )))
            .stderr(predicate::str::contains(flag).not());
    }
    assert!(server.urls().is_empty(), "nothing is sent for a bad value");
}

#[test]
fn a_bad_output_variable_lists_every_format() {
    let out = smsstat()
        .args(["--base-url", "http://127.0.0.1:9", "sms", "1"])
        .env("SMSSTAT_OUTPUT", "xml")
        .assert()
        .code(64)
        .get_output()
        .stderr
        .clone();
    let stderr = String::from_utf8(out).unwrap();
    for format in [
        "table",
        "json",
        "csv",
        "tsv",
        "report",
        "report-json",
        "report-md",
    ] {
        assert!(stderr.contains(format), "{format} missing: {stderr}");
    }
}

#[test]
fn a_flag_wins_over_a_bad_variable_and_other_commands_name_it_too() {
    let server = sms_server();
    smsstat()
        .args(["--base-url", &server.base, "--timeout", "5", "sms", "1"])
        .env("SMSSTAT_TIMEOUT", "abc")
        .assert()
        .success();
    smsstat()
        .args(["--base-url", &server.base, "config", "show"])
        .env("SMSSTAT_RETRIES", "abc")
        .assert()
        .code(64)
        .stderr(predicate::str::contains("SMSSTAT_RETRIES: `abc`"));
    // `check` reports it as its failed settings step.
    smsstat()
        .args(["--base-url", &server.base, "check"])
        .env("SMSSTAT_RETRIES", "abc")
        .assert()
        .code(64)
        .stdout(predicate::str::contains("SMSSTAT_RETRIES: `abc`"));
    assert_eq!(
        server.urls().len(),
        1,
        "only the lookup with --timeout is sent"
    );
}

#[test]
fn bad_values_in_the_file_are_78_with_file_line_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("config.toml");
    let path = file.display().to_string();
    for (text, at) in [
        (
            "base_url = \"http://127.0.0.1:9\"\nretries = 21\n",
            "line 2, key `retries`",
        ),
        (
            "[profiles.default]\napi_key_header = \"bad header\"\n",
            "line 2, key `profiles.default.api_key_header`",
        ),
        ("timeout = 0\n", "line 1, key `timeout`"),
        ("output = \"xml\"\n", "line 1, key `output`"),
    ] {
        fs::write(&file, text).unwrap();
        smsstat()
            .args([
                "--config",
                &path,
                "--base-url",
                "http://127.0.0.1:9",
                "sms",
                "1",
            ])
            .assert()
            .code(78)
            .stderr(predicate::str::contains(format!(
                "config file {path}, {at}: "
            )));
    }
}

#[test]
fn sim_options_are_64_with_a_plain_message() {
    for args in [
        &["--fail-rate", "2"][..],
        &["--fail-rate=-0.1"],
        &["--rate-limit", "0"],
        &["--settle", "soon"],
        &["--latency", "abc"],
        &["--listen", "not-an-address"],
    ] {
        smsstat()
            .arg("sim")
            .args(args)
            .timeout(std::time::Duration::from_secs(10))
            .assert()
            .code(64)
            .stderr(predicate::str::contains(args[0].split('=').next().unwrap()))
            .stderr(predicate::str::contains("cannot serve").not());
    }
}

#[test]
fn config_show_masks_credentials_in_the_base_url_and_is_78() {
    let url = "https://user:s3cretpw@gw.example/rest?api_key=s3cretpw";
    for json in [false, true] {
        let mut cmd = smsstat();
        cmd.args(["config", "show"]).env("SMSSTAT_BASE_URL", url);
        if json {
            cmd.arg("--json");
        }
        let out = cmd.assert().code(78).get_output().clone();
        let (stdout, stderr) = (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        );
        for text in [&stdout, &stderr] {
            assert!(!text.contains("s3cretpw"), "{text}");
            assert!(!text.contains("user:"), "{text}");
        }
        assert!(
            stdout.contains("https://****@gw.example/rest?**** (refused"),
            "{stdout}"
        );
        assert!(stderr.contains("credentials in the base URL"), "{stderr}");
    }
}

#[test]
fn a_blank_key_is_warned_about_and_no_key_is_sent() {
    let server = sms_server();
    smsstat()
        .args(["--base-url", &server.base, "sms", "1"])
        .env("SMSSTAT_API_KEY", "   ")
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "the API key from env SMSSTAT_API_KEY is empty once its spaces or line breaks \
             are removed; no key will be sent",
        ));
    assert_eq!(server.seen()[0].header("X-API-KEY"), None);
}

#[test]
fn a_key_a_header_cannot_carry_is_refused_without_being_shown() {
    let server = sms_server();
    smsstat()
        .args(["--base-url", &server.base, "sms", "1"])
        .env("SMSSTAT_API_KEY", "s3cret\u{1}key")
        .assert()
        .code(64)
        .stderr(predicate::str::starts_with(
            "smsstat: error: SMSSTAT_API_KEY: ",
        ))
        .stderr(predicate::str::contains("s3cret").not());
    assert!(server.urls().is_empty());
}
