//! The first screens a new user sees: bare `smsstat`, `-h`, a lookup's `-h` and
//! `help -h`, each short enough for a 24-row terminal; help and version written to a
//! full disk (exit 74); the wording of a few first mistakes.

mod common;

use std::fs::File;

use common::{clean_command, refused_base, smsstat, stdout_of};
use predicates::prelude::*;

const LOOKUPS: [&str; 5] = ["sms", "sms-ref", "task", "hlr", "hlr-ref"];

/// Bare `smsstat` is a usage error (64, as since the start: no command given), and
/// what it prints on stderr is the front door: what the tool is, its commands, a
/// first example to try, where to read more, in at most 40 lines.
#[test]
fn bare_smsstat_is_a_short_front_door() {
    let out = smsstat().assert().code(64);
    let text = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        text.lines().count() <= 40,
        "{} lines:\n{text}",
        text.lines().count()
    );
    assert!(
        text.starts_with("Status inspector for an SMS gateway"),
        "{text}"
    );
    for lookup in LOOKUPS {
        assert!(
            text.contains(&format!("\n  {lookup} ")),
            "{lookup}:\n{text}"
        );
    }
    let examples = text.split_once("\nExamples:\n").expect("examples").1;
    let first = examples.lines().next().unwrap().trim_start();
    assert!(first.starts_with("smsstat --demo sms 42 "), "{text}");
    assert!(text.contains("smsstat --help"), "{text}");
    assert!(text.contains("README.md"), "{text}");
}

#[test]
fn short_help_has_the_commands_and_examples_in_50_lines() {
    let help = stdout_of(smsstat().arg("-h"));
    assert!(help.lines().count() <= 50, "{help}");
    assert!(help.contains("\nCommands:\n"), "{help}");
    assert!(
        help.contains("\nExamples:\n  smsstat --demo sms 42"),
        "{help}"
    );
    // The details are in --help.
    assert!(!help.contains("--base-url"), "{help}");
    let long = stdout_of(smsstat().arg("--help"));
    assert!(long.contains("--base-url") && long.contains("\nExit codes:\n"));
}

/// Each lookup's `-h` fits 45 lines and ends with its examples (all of them).
#[test]
fn each_lookup_short_help_shows_its_examples_in_45_lines() {
    for lookup in LOOKUPS {
        let help = stdout_of(smsstat().env("COLUMNS", "80").args([lookup, "-h"]));
        assert!(help.lines().count() <= 45, "{lookup}: {help}");
        let examples = help.split_once("\nExamples:\n").expect("examples").1;
        assert!(
            examples.contains(&format!("smsstat {lookup} ")),
            "{lookup}: {help}"
        );
    }
}

#[test]
fn help_dash_h_is_the_short_help() {
    let help = stdout_of(smsstat().args(["help", "-h"]));
    assert_eq!(help, stdout_of(smsstat().arg("-h")));
    let sms = stdout_of(smsstat().args(["help", "sms", "--help"]));
    assert_eq!(sms, stdout_of(smsstat().args(["sms", "--help"])));
}

/// Help and version are documents like the others: not written is exit 74, with one
/// line on stderr. /dev/full is the child's stdout here, never an argument.
#[test]
fn help_and_version_to_a_full_disk_are_exit_74() {
    for args in [
        &["--version"][..],
        &["--help"],
        &["-h"],
        &["sms", "--help"],
        &["sms", "-h"],
    ] {
        let full = File::options().write(true).open("/dev/full").unwrap();
        let out = clean_command().args(args).stdout(full).output().unwrap();
        assert_eq!(out.status.code(), Some(74), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("smsstat: error: cannot write"),
            "{stderr}"
        );
    }
}

#[test]
fn an_empty_value_is_named_as_the_shell_writes_it() {
    smsstat()
        .args(["--demo", "sms", ""])
        .assert()
        .code(64)
        .stderr(predicate::eq("smsstat: error: sms '': empty value\n"));
}

/// `check`'s marks in the tool's colours: green ✓, red ✗, with colour on only.
#[test]
fn check_marks_are_coloured_when_colour_is_on() {
    const GREEN_TICK: &str = "\x1b[32m   ✓\x1b[0m settings";
    const RED_CROSS: &str = "\x1b[31m   ✗\x1b[0m connect";
    let checklist = |args: &[&str], env: &[(&str, &str)]| {
        let mut cmd = smsstat();
        cmd.args(["--base-url", &refused_base(), "--retries", "0"])
            .args(args)
            .arg("check")
            .envs(env.iter().copied());
        let out = cmd.assert().code(69);
        String::from_utf8_lossy(&out.get_output().stdout).into_owned()
    };
    let on = checklist(&["--color", "always"], &[]);
    assert!(on.contains(GREEN_TICK) && on.contains(RED_CROSS), "{on:?}");
    let forced = checklist(&[], &[("CLICOLOR_FORCE", "1")]);
    assert!(forced.contains(GREEN_TICK), "{forced:?}");
    for off in [
        checklist(&[], &[]),
        checklist(&["--color", "never"], &[("CLICOLOR_FORCE", "1")]),
        checklist(&[], &[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")]),
    ] {
        assert!(
            !off.contains('\x1b') && off.contains("   ✓ settings"),
            "{off:?}"
        );
    }
}
