//! `--version` and `smsstat version [--json]`: the version, the commit the binary was
//! built from (marked `-dirty` with uncommitted changes), the build date, target,
//! linking and TLS library, all found at build time.

use std::path::Path;
use std::process::Command;

use crate::common::{smsstat, stdout_of};
use serde_json::Value;

/// The checkout's HEAD, when the tests run in a git checkout (not a crate tarball).
fn head() -> Option<String> {
    let out = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .output()
        .ok()?;
    let hash = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && hash.len() == 40).then_some(hash)
}

/// Whether `commit` is in the history of `head`.
fn is_ancestor(commit: &str, head: &str) -> bool {
    Command::new("git")
        .args(["merge-base", "--is-ancestor", commit, head])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .status()
        .is_ok_and(|status| status.success())
}

fn version_json() -> Value {
    let text = stdout_of(smsstat().args(["version", "--json"]));
    assert_eq!(text.lines().count(), 1, "{text}");
    serde_json::from_str(&text).unwrap()
}

#[test]
fn version_flag_names_the_version_and_the_commit() {
    let line = stdout_of(smsstat().arg("--version"));
    assert_eq!(stdout_of(smsstat().arg("-V")), line);
    let json = version_json();
    let expected = match json["commit"].as_str() {
        Some(hash) => {
            let dirty = if json["dirty"] == true { "-dirty" } else { "" };
            format!("({}{dirty})", &hash[..10])
        }
        None => "(commit unknown)".to_string(),
    };
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(line, format!("smsstat {version} {expected}\n"));
    if let Some(head) = head() {
        // HEAD itself, or one before it: a commit made while the suite runs moves HEAD
        // past the commit the binary was built from.
        let commit = json["commit"].as_str().expect("a commit in a checkout");
        assert!(
            commit == head || is_ancestor(commit, &head),
            "built from this checkout: {commit}, HEAD {head}"
        );
        assert!(json["dirty"].is_boolean(), "{json}");
    }
}

#[test]
fn version_json_has_every_build_fact() {
    let json = version_json();
    let keys: Vec<&str> = json
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "version",
            "commit",
            "dirty",
            "build_date",
            "target",
            "linking",
            "rustc",
            "tls"
        ]
    );
    assert_eq!(json["version"], env!("CARGO_PKG_VERSION"));
    let date = json["build_date"].as_str().unwrap();
    let digits = date.chars().filter(char::is_ascii_digit).count();
    assert!(
        date.len() == 10 && digits == 8 && &date[4..5] == "-",
        "{date}"
    );
    assert!(date.as_bytes()[7] == b'-' && date > "2026-", "{date}");
    let target = json["target"].as_str().unwrap();
    assert!(target.starts_with(std::env::consts::ARCH), "{target}");
    assert!(target.contains(std::env::consts::OS), "{target}");
    assert!(["static", "dynamic"].contains(&json["linking"].as_str().unwrap()));
    let rustc = json["rustc"].as_str().unwrap();
    assert!(
        rustc.split('.').count() >= 3 && rustc.starts_with("1."),
        "{rustc}"
    );
    let tls = json["tls"].as_str().unwrap();
    assert!(
        tls.starts_with("rustls 0.") && tls.contains("(ring 0."),
        "{tls}"
    );
    // The global --json before the subcommand says the same.
    let before = stdout_of(smsstat().args(["--json", "version"]));
    assert_eq!(serde_json::from_str::<Value>(&before).unwrap(), json);
}

#[test]
fn version_text_lists_the_same_facts() {
    let json = version_json();
    let text = stdout_of(smsstat().arg("version"));
    let mut lines = text.lines();
    let version = json["version"].as_str().unwrap();
    assert_eq!(lines.next(), Some(format!("smsstat {version}").as_str()));
    let row = |name: &str| {
        let line = text.lines().find(|l| l.starts_with(name));
        let line = line.unwrap_or_else(|| panic!("no {name} row: {text}"));
        line[name.len()..].trim().to_string()
    };
    let commit = row("commit");
    match json["commit"].as_str() {
        Some(hash) => assert!(commit.starts_with(hash), "{commit}"),
        None => assert_eq!(commit, "unknown"),
    }
    assert_eq!(
        commit.ends_with("(with uncommitted changes)"),
        json["dirty"] == true
    );
    assert_eq!(row("build date"), json["build_date"].as_str().unwrap());
    let target = format!("{} ({})", json["target"], json["linking"]).replace('"', "");
    assert_eq!(row("target"), target);
    assert_eq!(row("rustc"), json["rustc"].as_str().unwrap());
    assert_eq!(row("TLS"), json["tls"].as_str().unwrap());
}

#[test]
fn version_takes_only_its_own_json_flag() {
    let help = stdout_of(smsstat().args(["version", "--help"]));
    assert!(
        help.contains("--json") && help.contains("Examples:"),
        "{help}"
    );
    for lookup_flag in ["--wait", "--base-url", "--output", "--demo"] {
        assert!(!help.contains(lookup_flag), "version lists {lookup_flag}");
    }
    smsstat().args(["version", "--wait"]).assert().code(64);
    smsstat().args(["-o", "json", "version"]).assert().code(64);
    smsstat().args(["version", "extra"]).assert().code(64);
}

#[test]
fn the_man_page_keeps_the_plain_version() {
    // The page is committed (completions/smsstat.1): no commit in it, or it would be
    // stale after every commit.
    let page = stdout_of(smsstat().arg("man"));
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        page.ends_with(&format!(".SH VERSION\nv{version}\n")),
        "{page}"
    );
    assert!(
        page.contains(&format!("\"smsstat {version}\"")),
        "title line"
    );
}
