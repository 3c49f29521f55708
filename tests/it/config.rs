//! The config file and profiles, driven through the binary: precedence (flag > env >
//! profile > top level > default) and `config show` (tests/it/config_files.rs has the
//! exit-78 cases and key files).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::common::config_home::ConfigHome;
use crate::common::{sms_server, smsstat, stdout_of, Canned, TestServer, SMS};
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

/// What a command refused with exit 64 said (`check` says it in its checklist).
fn refusal(cmd: &mut assert_cmd::Command) -> String {
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(64), "{out:?}");
    let said = [out.stdout, out.stderr].concat();
    String::from_utf8_lossy(&said).into_owned()
}

/// An `sms-ref` answer that is the record asked for.
fn reference_record(url: &str) -> Canned {
    let reference = url.rsplit('/').next().unwrap();
    Canned::json(
        200,
        &format!(
            r#"{{"error":0,"msisdn":"380501234567","reference":"{reference}","status":"delivered"}}"#
        ),
    )
}

#[test]
fn a_profile_holds_a_gateways_paths_jobs_and_rate() {
    // A gateway that takes a while to answer: without the profile's `jobs`, eight
    // requests would be under way at once.
    let (now, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let (under_way, seen_most) = (Arc::clone(&now), Arc::clone(&most));
    let server = TestServer::start(move |url| {
        let n = under_way.fetch_add(1, Ordering::SeqCst) + 1;
        seen_most.fetch_max(n, Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(500)); // the gateway's latency
        under_way.fetch_sub(1, Ordering::SeqCst);
        reference_record(url)
    });
    let home = ConfigHome::new(&format!(
        "base_url = \"{}\"\n[profiles.legacy]\npaths = \"short\"\njobs = 2\nrate = \"5/s\"\n",
        server.base
    ));
    let refs = ["a1", "a2", "a3", "a4", "a5", "a6"];
    let started = Instant::now();
    home.smsstat()
        .args(["--profile", "legacy", "--json", "sms-ref"])
        .args(refs)
        .assert()
        .success();
    let mut urls = server.urls();
    urls.sort();
    assert_eq!(urls, refs.map(|r| format!("/sms/{r}")), "short paths only");
    assert!(most.load(Ordering::SeqCst) <= 2, "more than 2 in flight");
    // 5 a second: the (n + 1)-th request no sooner than n turns of 200 ms (a lower
    // bound: a loaded machine only sends later).
    assert!(started.elapsed() >= Duration::from_millis(200) * 5);
    let file = home.file().display().to_string();
    let output = stdout_of(
        home.smsstat()
            .args(["--profile", "legacy", "config", "show"]),
    );
    for (key, value) in [("paths", "short"), ("jobs", "2"), ("rate", "5/s")] {
        let line = show_line(&output, key);
        assert_eq!(line, format!("{key} {value} profile legacy in {file}"));
    }
}

#[test]
fn interval_and_wait_timeout_from_the_file_drive_wait() {
    let server = TestServer::start(|_| Canned::json(200, &SMS.replace("delivered", "sent")));
    let home = ConfigHome::new(&format!(
        "base_url = \"{}\"\ninterval = \"100ms\"\nwait_timeout = \"2s\"\n",
        server.base
    ));
    let started = Instant::now();
    home.smsstat()
        .args(["--wait", "sms", "1"])
        .assert()
        .code(81)
        .stderr(predicate::str::contains("still pending"));
    // Polls every 100ms for 2s: the default interval (2s) would poll twice at most,
    // and the default wait_timeout (10m) would still be waiting.
    assert!(server.urls().len() >= 3, "{:?}", server.urls());
    assert!(started.elapsed() < Duration::from_secs(60));
}

#[test]
fn mask_msisdn_in_a_profile_masks_and_a_flag_turns_it_off() {
    let server = sms_server();
    let home = ConfigHome::new(&format!(
        "base_url = \"{}\"\n[profiles.prod]\nmask_msisdn = true\n",
        server.base
    ));
    let masked = stdout_of(
        home.smsstat()
            .args(["--profile", "prod", "--json", "sms", "1"]),
    );
    assert!(masked.contains("380*******67"), "{masked}");
    let plain = stdout_of(home.smsstat().args([
        "--profile",
        "prod",
        "--mask-msisdn=false",
        "--json",
        "sms",
        "1",
    ]));
    assert!(plain.contains("380501234567"), "{plain}");
}

#[test]
fn max_body_in_the_file_refuses_a_larger_answer() {
    let server = sms_server();
    let home = ConfigHome::new(&format!("base_url = \"{}\"\nmax_body = 64\n", server.base));
    home.smsstat()
        .args(["sms", "1"])
        .assert()
        .code(65)
        .stderr(predicate::str::contains("larger than 64 bytes"));
}

#[test]
fn bad_values_are_78_in_the_file_and_64_in_the_environment() {
    for (key, value, why) in [
        ("jobs", "0", "expected a whole number from 1 to 256"),
        ("rate", "5/h", "the unit must be /s or /m"),
        ("interval", "10ms", "`10ms` is too short a poll interval"),
        (
            "paths",
            "long",
            "`long` is not one of auto, explicit, short",
        ),
        ("mask_msisdn", "maybe", "`maybe` is not true or false"),
    ] {
        let home = ConfigHome::new(&format!(
            "base_url = \"http://127.0.0.1:9\"\n\n[profiles.p]\n{key} = \"{value}\"\n"
        ));
        home.smsstat()
            .args(["--profile", "p", "sms", "1"])
            .assert()
            .code(78)
            .stderr(predicate::str::contains(format!(
                "line 4, key `profiles.p.{key}`: {why}"
            )));
        let variable = format!("SMSSTAT_{}", key.to_uppercase());
        smsstat()
            .args(["--base-url", "http://127.0.0.1:9", "sms", "1"])
            .env(&variable, value)
            .assert()
            .code(64)
            .stderr(predicate::str::contains(format!("{variable}: {why}")));
    }
}

#[test]
fn one_setting_at_four_layers_shows_the_origin_of_each() {
    let home =
        ConfigHome::new("base_url = \"http://127.0.0.1:9\"\njobs = 3\n[profiles.p]\njobs = 4\n");
    let file = home.file().display().to_string();
    let shown = |args: &[&str], variable: Option<&str>| {
        let mut cmd = home.smsstat();
        cmd.args(args).args(["config", "show"]);
        if let Some(value) = variable {
            cmd.env("SMSSTAT_JOBS", value);
        }
        show_line(&stdout_of(&mut cmd), "jobs")
    };
    assert_eq!(shown(&[], None), format!("jobs 3 file {file}"));
    assert_eq!(
        shown(&["--profile", "p"], None),
        format!("jobs 4 profile p in {file}")
    );
    let env = shown(&["--profile", "p"], Some("5"));
    assert_eq!(env, "jobs 5 env SMSSTAT_JOBS");
    let flag = shown(&["--profile", "p", "-j", "6"], Some("5"));
    assert_eq!(flag, "jobs 6 flag --jobs");
    let bare = ConfigHome::new("base_url = \"http://127.0.0.1:9\"\n");
    assert_eq!(
        show_line(&stdout_of(bare.smsstat().args(["config", "show"])), "jobs"),
        "jobs 8 default"
    );
}

#[test]
fn demo_wins_over_the_variable_and_the_file_but_not_a_base_url_flag() {
    let home = ConfigHome::new("base_url = \"http://127.0.0.1:9\"\n");
    for command in [&["sms", "1"][..], &["check"], &["config", "show"]] {
        home.smsstat()
            .arg("--demo")
            .args(command)
            .env("SMSSTAT_BASE_URL", "http://127.0.0.1:9")
            .assert()
            .success();
        let refused = refusal(
            home.smsstat()
                .args(["--demo", "--base-url", "http://127.0.0.1:9"])
                .args(command),
        );
        assert!(
            refused.contains("does not combine with --base-url"),
            "{refused}"
        );
    }
}

#[test]
fn a_key_and_a_key_file_at_one_level_are_refused_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let path = crate::common::key_file(dir.path(), "file-key-0123456789");
    let path = path.to_str().unwrap();
    for command in [&["sms", "1"][..], &["check"], &["config", "show"]] {
        let refused = refusal(
            smsstat()
                .args(["--base-url", "http://127.0.0.1:9", "--api-key", "k"])
                .args(["--api-key-file", path])
                .args(command),
        );
        assert!(refused.contains("keep one"), "{refused}");
    }
}

#[test]
fn config_show_json_reports_the_output_setting_not_its_own_json() {
    let out = smsstat()
        .args([
            "--base-url",
            "http://127.0.0.1:9",
            "config",
            "show",
            "--json",
        ])
        .env("SMSSTAT_OUTPUT", "csv")
        .assert()
        .success();
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(doc["settings"]["output"]["value"], "csv");
    assert_eq!(doc["settings"]["output"]["from"], "env SMSSTAT_OUTPUT");
}

#[test]
fn an_empty_variable_is_named_by_every_command() {
    let names = [
        "SMSSTAT_CONFIG",
        "SMSSTAT_API_KEY_FILE",
        "SMSSTAT_CA_CERT",
        "SMSSTAT_PROFILE",
    ];
    for name in names {
        for command in [&["sms", "1"][..], &["config", "show"]] {
            smsstat()
                .args(["--base-url", "http://127.0.0.1:9"])
                .args(command)
                .env(name, "")
                .assert()
                .code(64)
                .stderr(predicate::str::contains(format!("{name}: an empty")))
                .stderr(predicate::str::contains("--").not());
        }
    }
}

#[test]
fn a_key_in_the_base_url_path_is_scrubbed_by_check_and_config_show() {
    let key = "acc-12345-secret-7f3";
    let server = sms_server();
    let base = format!("{}/{key}", server.base);
    for command in [
        &["check"][..],
        &["config", "show"],
        &["config", "show", "--json"],
    ] {
        let out = smsstat()
            .args(["--base-url", &base])
            .args(command)
            .env("SMSSTAT_API_KEY", key)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(!text.contains(key), "{command:?}: {text}");
        assert!(
            text.contains(&format!("{}/****", server.base)),
            "{command:?}: {text}"
        );
    }
}

#[test]
fn an_empty_or_blank_key_is_no_key_in_config_show_too() {
    for key in ["", "   "] {
        let output = stdout_of(
            smsstat()
                .args(["--base-url", "http://127.0.0.1:9", "config", "show"])
                .env("SMSSTAT_API_KEY", key),
        );
        assert_eq!(
            show_line(&output, "api_key"),
            "api_key (none: no key is sent) env SMSSTAT_API_KEY"
        );
    }
    // An empty key in a file readable by others holds no secret: no warning.
    let home = ConfigHome::new("base_url = \"http://127.0.0.1:9\"\napi_key = \"\"\n");
    crate::common::config_home::set_mode(&home.file(), 0o644);
    home.smsstat()
        .args(["config", "show"])
        .assert()
        .success()
        .stdout(predicate::str::contains("(none: no key is sent)"))
        .stderr(predicate::str::is_empty());
}

#[test]
fn long_help_names_each_settings_variable_and_key() {
    let help = stdout_of(smsstat().args(["sms", "--help"]));
    for key in ["base_url", "jobs", "rate", "mask_msisdn", "wait_timeout"] {
        let line = format!("[env: SMSSTAT_{}] [config key: {key}]", key.to_uppercase());
        assert!(help.contains(&line), "{line} missing:\n{help}");
    }
    assert!(help.contains("[env: SMSSTAT_PROFILE]\n"), "{help}");
}

#[test]
fn the_simulators_own_key_flag_names_no_setting() {
    // `sim --api-key` is the key the simulator requires, not the `api_key` setting:
    // SMSSTAT_API_KEY and the config file do not set it.
    let help = stdout_of(smsstat().args(["sim", "--help"]));
    assert!(help.contains("--api-key <KEY>"), "{help}");
    assert!(!help.contains("SMSSTAT_API_KEY"), "{help}");
    assert!(!help.contains("[config key:"), "{help}");
}
