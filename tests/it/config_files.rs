//! The config file's own troubles and key files, driven through the binary: the
//! exit-78 cases, --config, and api_key_file (its permissions, flag and environment).

use crate::common::config_home::{set_mode, write_private, ConfigHome};
use crate::common::{sms_server, smsstat};
use predicates::prelude::*;
use tempfile::TempDir;

const KEY: &str = "acc-12345-secret-7f3";

#[test]
fn the_key_from_api_key_file_is_sent() {
    let server = sms_server();
    let home = ConfigHome::new(&format!(
        "base_url = \"{}\"\napi_key_file = \"key.txt\"\n",
        server.base
    ));
    write_private(
        &home.dir.path().join("smsstat").join("key.txt"),
        &format!("{KEY}\n"),
    );
    home.smsstat()
        .args(["sms", "1"])
        .assert()
        .success()
        .stderr(predicate::str::contains("warning").not());
    assert_eq!(server.seen()[0].header("x-api-key"), Some(KEY));
}

#[test]
fn a_key_readable_by_others_warns_without_showing_it() {
    let home = ConfigHome::new(&format!(
        "api_key = \"{KEY}\"\nbase_url = \"http://127.0.0.1:9\"\n"
    ));
    set_mode(&home.file(), 0o644);
    home.smsstat()
        .args(["config", "show"])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "can be read by other users (mode 0644)",
        ))
        .stderr(predicate::str::contains("chmod 600"))
        .stderr(predicate::str::contains(KEY).not())
        .stdout(predicate::str::contains(KEY).not());
}

#[test]
fn an_invalid_value_is_78_naming_file_line_and_key() {
    let home = ConfigHome::new("retries = 1\n[profiles.prod]\ntimeout = \"soon\"\n");
    let file = home.file().display().to_string();
    home.smsstat()
        .args(["--profile", "prod", "sms", "1"])
        .assert()
        .code(78)
        .stderr(predicate::str::contains(format!(
            "config file {file}, line 3, key `profiles.prod.timeout`"
        )));
}

#[test]
fn an_unknown_key_is_78_with_a_hint() {
    let home = ConfigHome::new("base_url = \"http://127.0.0.1:9\"\napikey = \"x\"\n");
    home.smsstat()
        .args(["sms", "1"])
        .assert()
        .code(78)
        .stderr(predicate::str::contains("line 2, key `apikey`"))
        .stderr(predicate::str::contains("unknown field"))
        .stderr(predicate::str::contains("valid keys are"));
}

#[test]
fn a_syntax_error_is_78_with_its_line() {
    let home = ConfigHome::new("retries = 1\n\nbase_url = \"unterminated\n");
    home.smsstat()
        .args(["config", "show"])
        .assert()
        .code(78)
        .stderr(predicate::str::contains("line 3"));
}

#[test]
fn an_unknown_profile_lists_the_available_ones() {
    let home = ConfigHome::new("[profiles.prod]\nretries = 1\n[profiles.staging]\nretries = 2\n");
    home.smsstat()
        .args(["--profile", "prd", "sms", "1"])
        .assert()
        .code(78)
        .stderr(predicate::str::contains("no profile `prd`"))
        .stderr(predicate::str::contains("available: prod, staging"));
}

#[test]
fn a_missing_file_given_by_config_is_78_but_a_missing_default_is_fine() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope.toml");
    smsstat()
        .args(["--config", missing.to_str().unwrap(), "config", "show"])
        .assert()
        .code(78)
        .stderr(predicate::str::contains(
            "does not exist (given by --config)",
        ));
    let server = sms_server();
    smsstat()
        .args(["--base-url", &server.base, "sms", "1"])
        .env("XDG_CONFIG_HOME", dir.path())
        .assert()
        .success();
}

#[test]
fn config_flag_reads_that_file() {
    let server = sms_server();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ci.toml");
    write_private(&path, &format!("base_url = \"{}\"\n", server.base));
    smsstat()
        .args(["sms", "5"])
        .env("SMSSTAT_CONFIG", &path)
        .assert()
        .success();
    assert_eq!(server.urls(), ["/sms/5"]);
}

#[test]
fn an_invalid_base_url_in_the_file_names_where_it_came_from() {
    let home = ConfigHome::new("[profiles.x]\nbase_url = \"ftp://h/\"\n");
    home.smsstat()
        .args(["--profile", "x", "sms", "1"])
        .assert()
        .code(78)
        .stderr(
            predicate::str::contains("line 2")
                .and(predicate::str::contains("profiles.x.base_url"))
                .and(predicate::str::contains("ftp://h/")),
        );
}

#[test]
fn api_key_file_from_flag_or_environment_is_sent_trimmed() {
    let dir = TempDir::new().unwrap();
    let path = crate::common::key_file(dir.path(), "  from-the-file-0123456789\n");
    let path = path.to_str().unwrap();
    let server = sms_server();
    smsstat()
        .args([
            "--base-url",
            &server.base,
            "--api-key-file",
            path,
            "sms",
            "1",
        ])
        .assert()
        .success()
        .stderr("");
    smsstat()
        .args(["--base-url", &server.base, "sms", "2"])
        .env("SMSSTAT_API_KEY_FILE", path)
        .assert()
        .success();
    // A key on the command line wins over a key file in the environment.
    smsstat()
        .args([
            "--base-url",
            &server.base,
            "--api-key",
            "flag-key-0123456789",
            "sms",
            "3",
        ])
        .env("SMSSTAT_API_KEY_FILE", path)
        .assert()
        .success();
    let keys: Vec<String> = server
        .seen()
        .iter()
        .map(|s| s.header("X-API-KEY").unwrap_or("").to_string())
        .collect();
    assert_eq!(
        keys,
        [
            "from-the-file-0123456789",
            "from-the-file-0123456789",
            "flag-key-0123456789"
        ]
    );
    // Both at the same level: which one was meant would be a guess.
    smsstat()
        .args([
            "--base-url",
            &server.base,
            "--api-key",
            "k",
            "--api-key-file",
            path,
            "sms",
            "1",
        ])
        .assert()
        .code(64)
        .stderr(predicate::str::contains("keep one"));
    smsstat()
        .args([
            "--base-url",
            &server.base,
            "--api-key-file",
            "/dev/zero",
            "sms",
            "1",
        ])
        .assert()
        .code(78)
        .stderr(predicate::str::contains("not a regular file"));
    assert_eq!(server.seen().len(), 3, "nothing sent after a refusal");
}
