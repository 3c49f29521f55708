//! The config file and profiles, driven through the binary: precedence (flag > env >
//! profile > top level > default), `config show`, and the exit-78 cases.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{smsstat, Canned, TestServer, SMS};
use predicates::prelude::*;
use tempfile::TempDir;

const KEY: &str = "acc-12345-secret-7f3";

/// A config home holding `smsstat/config.toml` with `text`, readable by its owner only.
struct ConfigHome {
    dir: TempDir,
}

impl ConfigHome {
    fn new(text: &str) -> ConfigHome {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("smsstat")).unwrap();
        let home = ConfigHome { dir };
        write_private(&home.file(), text);
        home
    }

    fn file(&self) -> PathBuf {
        self.dir.path().join("smsstat").join("config.toml")
    }

    /// The binary with this config home as its platform config dir.
    fn smsstat(&self) -> assert_cmd::Command {
        let mut cmd = smsstat();
        cmd.env("XDG_CONFIG_HOME", self.dir.path());
        cmd
    }
}

fn write_private(path: &Path, text: &str) {
    fs::write(path, text).unwrap();
    set_mode(path, 0o600);
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

#[cfg(not(unix))]
fn set_mode(_: &Path, _: u32) {}

fn sms_server() -> TestServer {
    TestServer::fixed(Canned::json(200, SMS))
}

fn stdout_of(cmd: &mut assert_cmd::Command) -> String {
    String::from_utf8(cmd.assert().get_output().stdout.clone()).unwrap()
}

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

#[cfg(unix)]
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

#[test]
fn api_key_file_from_flag_or_environment_is_sent_trimmed() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("key");
    fs::write(&path, "  from-the-file-0123456789\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
    }
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
