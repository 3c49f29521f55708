//! The config file and profiles, driven through the binary: precedence (flag > env >
//! profile > top level > default) and `config show` (tests/config_files.rs has the
//! exit-78 cases and key files).

mod common;

use common::config_home::ConfigHome;
use common::{sms_server, smsstat, stdout_of};
use predicates::prelude::*;

const KEY: &str = "acc-12345-secret-7f3";

/// The `config show` line of one setting, squeezed to single spaces.
fn show_line(output: &str, setting: &str) -> String {
    output
        .lines()
        .find(|l| l.starts_with(&format!("{setting} ")))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|| panic!("no {setting} line in:\n{output}"))
}

#[test]
fn precedence_flag_over_env_over_profile_over_top_level() {
    let (top, profile, env, flag) = (sms_server(), sms_server(), sms_server(), sms_server());
    let home = ConfigHome::new(&format!(
        "base_url = \"{}\"\nretries = 0\n\n[profiles.prod]\nbase_url = \"{}\"\n",
        top.base, profile.base
    ));
    home.smsstat().args(["sms", "1"]).assert().success();
    home.smsstat()
        .args(["--profile", "prod", "sms", "2"])
        .assert()
        .success();
    home.smsstat()
        .args(["--profile", "prod", "sms", "3"])
        .env("SMSSTAT_BASE_URL", &env.base)
        .assert()
        .success();
    home.smsstat()
        .args(["--profile", "prod", "sms", "4", "--base-url", &flag.base])
        .env("SMSSTAT_BASE_URL", &env.base)
        .assert()
        .success();
    assert_eq!(top.urls(), ["/sms/1"]);
    assert_eq!(profile.urls(), ["/sms/2"]);
    assert_eq!(env.urls(), ["/sms/3"]);
    assert_eq!(flag.urls(), ["/sms/4"]);
}

#[test]
fn config_show_names_every_source_and_masks_the_key() {
    let home = ConfigHome::new(&format!(
        "api_key = \"{KEY}\"\nretries = 1\noutput = \"csv\"\n\n\
         [profiles.prod]\nbase_url = \"https://gw.example/rest\"\nretries = 5\n"
    ));
    let file = home.file().display().to_string();
    let output = stdout_of(
        home.smsstat()
            .args([
                "--profile",
                "prod",
                "--api-key-header",
                "X-Key",
                "config",
                "show",
            ])
            .env("SMSSTAT_TIMEOUT", "3s"),
    );
    assert!(!output.contains(KEY), "{output}");
    assert_eq!(
        show_line(&output, "config file"),
        format!("config file {file} default")
    );
    assert_eq!(show_line(&output, "profile"), "profile prod flag --profile");
    assert_eq!(
        show_line(&output, "base_url"),
        format!("base_url https://gw.example/rest profile prod in {file}")
    );
    assert_eq!(
        show_line(&output, "api_key"),
        format!("api_key ****-7f3 file {file}")
    );
    assert_eq!(
        show_line(&output, "api_key_header"),
        "api_key_header X-Key flag --api-key-header"
    );
    assert_eq!(
        show_line(&output, "timeout"),
        "timeout 3s env SMSSTAT_TIMEOUT"
    );
    assert_eq!(
        show_line(&output, "retries"),
        format!("retries 5 profile prod in {file}")
    );
    assert_eq!(
        show_line(&output, "output"),
        format!("output csv file {file}")
    );
}

#[test]
fn config_show_tells_env_from_flag_for_the_key_and_profile() {
    let home = ConfigHome::new("[profiles.ci]\nbase_url = \"http://127.0.0.1:9\"\n");
    let output = stdout_of(
        home.smsstat()
            .args(["config", "show"])
            .env("SMSSTAT_PROFILE", "ci")
            .env("SMSSTAT_API_KEY", "short"),
    );
    assert_eq!(
        show_line(&output, "profile"),
        "profile ci env SMSSTAT_PROFILE"
    );
    assert_eq!(
        show_line(&output, "api_key"),
        "api_key **** env SMSSTAT_API_KEY"
    );
    let flagged = stdout_of(home.smsstat().args(["config", "show", "--profile", "ci"]));
    assert_eq!(show_line(&flagged, "profile"), "profile ci flag --profile");
}

#[test]
fn config_show_without_any_setting_is_exit_78_after_the_listing() {
    smsstat()
        .args(["config", "show"])
        .assert()
        .code(78)
        .stdout(predicate::str::contains("base_url"))
        .stdout(predicate::str::contains("(not found)"))
        .stderr(predicate::str::contains("no service address"));
}

#[test]
fn the_default_profile_is_used_when_none_is_named() {
    let server = sms_server();
    let home = ConfigHome::new(&format!(
        "[profiles.default]\nbase_url = \"{}\"\nretries = 0\n",
        server.base
    ));
    home.smsstat().args(["sms", "7"]).assert().success();
    assert_eq!(server.urls(), ["/sms/7"]);
}

#[test]
fn output_from_the_profile_and_from_the_environment() {
    let server = sms_server();
    let home = ConfigHome::new(&format!(
        "base_url = \"{}\"\noutput = \"json\"\n",
        server.base
    ));
    home.smsstat()
        .args(["sms", "1"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("{\"error\":0"));
    home.smsstat()
        .args(["sms", "1"])
        .env("SMSSTAT_OUTPUT", "csv")
        .assert()
        .success()
        .stdout(predicate::str::starts_with("query,msisdn"));
    // --json beside SMSSTAT_OUTPUT is not a conflict: the flag wins.
    home.smsstat()
        .args(["--json", "sms", "1"])
        .env("SMSSTAT_OUTPUT", "csv")
        .assert()
        .success()
        .stdout(predicate::str::starts_with("{"));
}

#[test]
fn config_show_json_names_every_setting_with_its_origin() {
    let out = smsstat()
        .args([
            "--base-url",
            "http://gw.example:8080",
            "config",
            "show",
            "--json",
        ])
        .env("SMSSTAT_TIMEOUT", "3s")
        .env("SMSSTAT_API_KEY", "acc-0123456789-abcdef")
        .assert()
        .success();
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(doc["ok"], true);
    let settings = &doc["settings"];
    assert_eq!(settings["base_url"]["value"], "http://gw.example:8080");
    assert_eq!(settings["base_url"]["from"], "flag --base-url");
    assert_eq!(settings["timeout"]["from"], "env SMSSTAT_TIMEOUT");
    assert_eq!(settings["api_key"]["value"], "****cdef");
    assert!(!doc.to_string().contains("0123456789"), "the key is masked");
    // Settings that could not run a lookup: still the document, with the problem.
    let out = smsstat()
        .args(["config", "show", "--json"])
        .assert()
        .code(78);
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(doc["ok"], false);
    assert!(doc["problem"]
        .as_str()
        .unwrap()
        .contains("no service address"));
}

/// A copy of `home`'s config file at a path of 72 characters (longer when the
/// temporary directory's own path is): too long to follow a 16-column name at 80
/// columns, short enough for a line of its own.
fn long_config_path(home: &ConfigHome) -> String {
    let base = home.dir.path().join("operator-settings");
    let base_len = base.to_str().unwrap().len();
    let name = format!(
        "{}.toml",
        "x".repeat(72usize.saturating_sub(base_len + 6).max(8))
    );
    let path = base.join(name);
    std::fs::create_dir_all(&base).unwrap();
    std::fs::copy(home.file(), &path).unwrap();
    path.to_str().unwrap().to_string()
}

/// `config show` at 80 columns (COLUMNS, as a terminal's width) with a long config
/// path: every line fits (a path longer than a line could not), each path whole,
/// and every setting with its value and where it came from.
#[test]
fn config_show_fits_80_columns_with_a_long_config_path() {
    let home = ConfigHome::new(
        "base_url = \"http://127.0.0.1:9/rest\"\n\n[profiles.staging]\nretries = 3\n",
    );
    let path = long_config_path(&home);
    let output = stdout_of(home.smsstat().env("COLUMNS", "80").args([
        "--config",
        &path,
        "--profile",
        "staging",
        "config",
        "show",
    ]));
    for line in output.lines() {
        let lone_word = !line.trim().contains(' ');
        assert!(
            line.chars().count() <= 80 || (lone_word && path.len() > 78),
            "{line:?} in:\n{output}"
        );
    }
    // The config file itself, base_url's file and retries' profile: never split.
    assert_eq!(output.matches(&path).count(), 3, "{output}");
    let squeezed = output.split_whitespace().collect::<Vec<_>>().join(" ");
    for setting in [
        format!("config file {path} from flag --config"),
        "profile staging from flag --profile".to_string(),
        format!("base_url http://127.0.0.1:9/rest from file {path}"),
        format!("retries 3 from profile staging in {path}"),
        "api_key_header X-API-KEY from default".to_string(),
    ] {
        assert!(squeezed.contains(&setting), "{setting}:\n{output}");
    }
}
