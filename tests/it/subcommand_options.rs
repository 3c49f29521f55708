//! Options that do nothing for a subcommand are usage errors (64), naming the option
//! and the subcommand, while lookup options keep working before or after the lookup
//! subcommand; and `sim --listen` takes host names.

use std::io::{BufRead, BufReader};
use std::process::Stdio;

use crate::common::process::KillOnDrop;
use crate::common::{smsstat, smsstat_at, Canned, TestServer, SMS};

#[test]
fn options_a_subcommand_does_not_use_are_usage_errors() {
    let cases: [(&[&str], &str, &str); 9] = [
        (&["sim", "--json"], "--json", "smsstat sim"),
        (&["sim", "--fields", "status"], "--fields", "smsstat sim"),
        (&["--json", "man"], "--json", "smsstat man"),
        (
            &["completions", "bash", "--wait"],
            "--wait",
            "smsstat completions",
        ),
        (
            &["config", "show", "--wait"],
            "--wait",
            "smsstat config show",
        ),
        (
            &["config", "show", "-o", "csv"],
            "-o/--output",
            "smsstat config show",
        ),
        (&["check", "-o", "csv"], "-o/--output", "smsstat check"),
        (&["check", "--fields", "x"], "--fields", "smsstat check"),
        (
            &["--keep-going", "config", "show"],
            "--keep-going",
            "smsstat config show",
        ),
    ];
    for (args, option, subcommand) in cases {
        let out = smsstat().args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(64), "{args:?}: {stderr}");
        let named = format!("{option} does nothing for `{subcommand}`");
        assert!(stderr.contains(&named), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?} printed something");
    }
}

#[test]
fn what_a_subcommand_uses_is_accepted_and_the_environment_is_not_refused() {
    smsstat()
        .args(["--demo", "config", "show", "--json"])
        .assert()
        .success();
    smsstat()
        .args(["config", "show", "--profile", "none"])
        .assert()
        .code(78);
    // Exported for the lookups, the variables do not break the other subcommands.
    smsstat()
        .args(["completions", "bash"])
        .env("SMSSTAT_TIMEOUT", "3s")
        .env("SMSSTAT_API_KEY", "k")
        .env("SMSSTAT_OUTPUT", "csv")
        .assert()
        .success();
    smsstat()
        .arg("man")
        .env("SMSSTAT_BASE_URL", "http://x")
        .assert()
        .success();
}

#[test]
fn lookup_options_work_before_or_after_the_lookup() {
    let server = TestServer::fixed(Canned::json(200, SMS));
    for args in [["--json", "sms", "42"], ["sms", "42", "--json"]] {
        let out = smsstat_at(&server.base).args(args).assert().success();
        let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
        assert_eq!(stdout.trim(), SMS, "{args:?}");
    }
}

#[test]
fn raw_cells_applies_to_csv_and_tsv_only() {
    let server = TestServer::fixed(Canned::json(200, SMS));
    for args in [
        &["--raw-cells", "--json"][..],
        &["--raw-cells"],
        &["--raw-cells", "--field", "status"],
    ] {
        let out = smsstat_at(&server.base)
            .args(args)
            .args(["sms", "1"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(64), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--raw-cells applies to"));
    }
    for format in ["csv", "tsv"] {
        smsstat_at(&server.base)
            .args(["--raw-cells", "-o", format, "sms", "1"])
            .assert()
            .success();
    }
}

#[test]
fn sim_listens_on_a_host_name() {
    let mut cmd = crate::common::clean_command();
    cmd.args(["sim", "--listen", "localhost:0", "--settle", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // Killed however the test ends.
    let mut sim = KillOnDrop(cmd.spawn().unwrap());
    let mut line = String::new();
    let stdout = sim.0.stdout.take().unwrap();
    BufReader::new(stdout).read_line(&mut line).unwrap();
    let base = line.trim().rsplit(' ').next().unwrap().to_string();
    assert!(base.starts_with("http://127.0.0.1:"), "{line}");
    smsstat_at(&base).args(["sms", "42"]).assert().success();
    drop(sim);
    let out = smsstat()
        .args(["sim", "--listen", "localhost"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
    assert!(String::from_utf8_lossy(&out.stderr).contains("HOST:PORT"));
}
