//! Operator ergonomics through the binary: completions and man page (committed and up
//! to date), help and the front door, colour rules, -v/-vv tracing, -q, and the
//! README as a guide whose examples run.

use std::fs::File;
use std::path::Path;
use std::process::Command;

use crate::common::process::Live;
use crate::common::{answering, clean_command, refused_base, smsstat, smsstat_at, stdout_of, SMS};
use clap::CommandFactory;
use predicates::prelude::*;

const KEY: &str = "acc-12345-secret-7f3";
const ESC: &str = "\u{1b}[";

#[test]
fn committed_completions_and_man_page_are_up_to_date() {
    let generated = [
        (vec!["completions", "bash"], "smsstat.bash"),
        (vec!["completions", "zsh"], "_smsstat"),
        (vec!["completions", "fish"], "smsstat.fish"),
        (vec!["completions", "powershell"], "_smsstat.ps1"),
        (vec!["completions", "elvish"], "smsstat.elv"),
        (vec!["man"], "smsstat.1"),
    ];
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("completions");
    for (args, file) in generated {
        let fresh = smsstat()
            .args(&args)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let committed = std::fs::read(dir.join(file)).unwrap_or_default();
        assert!(
            fresh == committed,
            "completions/{file} is stale (or missing): run completions/generate.sh and commit the result"
        );
    }
}

#[test]
fn completions_for_an_unknown_shell_are_a_usage_error() {
    smsstat().args(["completions", "cmd"]).assert().code(64);
}

/// The exit codes are in `--help` (and the man page); `-h` is the front door, short.
#[test]
fn long_help_shows_the_exit_codes_and_short_help_does_not() {
    smsstat()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("Exit codes:"))
        .stdout(predicate::str::contains("78     configuration error"));
    smsstat()
        .arg("-h")
        .assert()
        .success()
        .stdout(predicate::str::contains("Exit codes:").not());
}

/// Whether `help` ends with its examples: nothing but indented lines after them.
fn ends_with_examples(help: &str) -> bool {
    let tail = help.rsplit("Examples:").next().unwrap();
    help.contains("Examples:")
        && tail
            .lines()
            .skip(1)
            .all(|l| l.is_empty() || l.starts_with("  "))
}

/// The lookup subcommands.
const LOOKUPS: [&str; 5] = ["sms", "sms-ref", "task", "hlr", "hlr-ref"];

#[test]
fn every_subcommand_help_ends_with_examples() {
    let subcommands: [&[&str]; 6] = [
        &["sim"],
        &["config"],
        &["config", "show"],
        &["completions"],
        &["man"],
        &["version"],
    ];
    for path in LOOKUPS.iter().map(std::slice::from_ref).chain(subcommands) {
        for flag in ["-h", "--help"] {
            let help = stdout_of(smsstat().args(path).arg(flag));
            // A lookup's --help goes on with the exit codes (the next test).
            let help = match LOOKUPS.contains(&path[0]) && flag == "--help" {
                true => help.split("\nExit codes:\n").next().unwrap().to_string(),
                false => help,
            };
            assert!(ends_with_examples(&help), "{path:?} {flag}:\n{help}");
            assert!(!help.contains("Exit codes:"), "{path:?} {flag}:\n{help}");
        }
    }
}

/// Each lookup's `--help` ends with the exit codes, after its examples: the table of
/// `smsstat --help`, whole.
#[test]
fn each_lookup_help_ends_with_the_exit_codes() {
    let top = stdout_of(smsstat().arg("--help"));
    let at = top.find("\nExit codes:\n").expect("the exit codes");
    let codes = &top[at..];
    for lookup in LOOKUPS {
        let help = stdout_of(smsstat().args([lookup, "--help"]));
        assert!(help.ends_with(codes), "{lookup}:\n{help}");
        let before = &help[..help.len() - codes.len()];
        assert!(ends_with_examples(before), "{lookup}:\n{help}");
    }
}

/// A lookup's `-h` at 80 columns: its options under their headings, in this order,
/// each on one row of its own (name and summary); `--help`'s exit codes' table as
/// written, whatever the width.
#[test]
fn short_help_groups_the_options_one_row_each_at_80_columns() {
    let help = stdout_of(smsstat().env("COLUMNS", "80").args(["sms", "-h"]));
    let headings: Vec<&str> = help
        .lines()
        .filter(|l| !l.starts_with(' ') && l.ends_with(':'))
        .collect();
    assert_eq!(
        headings,
        [
            "Arguments:",
            "Options:",
            "Connection:",
            "Output:",
            "Batch:",
            "Waiting:",
            "Configuration:",
            "Examples:"
        ],
        "{help}"
    );
    let options = help
        .split_once("\nOptions:\n")
        .and_then(|(_, rest)| rest.split_once("\nExamples:\n"))
        .map(|(options, _)| options)
        .unwrap();
    for line in options.lines() {
        let heading = headings.contains(&line);
        let option = line.starts_with("  -") || line.starts_with("      --");
        assert!(
            line.is_empty() || heading || option && line.chars().count() <= 80,
            "not an option's one row: {line:?}\n{help}"
        );
        // Name and summary on the row.
        if option {
            let summary = line.trim_start().split_once("  ").map(|(_, s)| s.trim());
            assert!(summary.is_some_and(|s| !s.is_empty()), "{line:?}\n{help}");
        }
    }
    let codes = |columns: &str| {
        let help = stdout_of(smsstat().env("COLUMNS", columns).arg("--help"));
        help.split_once("\nExit codes:\n").unwrap().1.to_string()
    };
    assert_eq!(codes("80"), codes("1000"));
}

#[test]
fn every_flag_has_a_doc_comment() {
    fn check(cmd: &clap::Command, path: &str) {
        for arg in cmd.get_arguments() {
            let builtin = matches!(arg.get_id().as_str(), "help" | "version");
            assert!(
                builtin || arg.get_help().is_some(),
                "{path} --{} has no help text",
                arg.get_id()
            );
        }
        for sub in cmd.get_subcommands() {
            check(sub, &format!("{path} {}", sub.get_name()));
        }
    }
    check(&smsstat::testkit::Cli::command(), "smsstat");
}

#[test]
fn colour_rules() {
    let server = answering(SMS);
    let run = |args: &[&str], env: &[(&str, &str)]| {
        let mut cmd = smsstat_at(&server.base);
        cmd.args(args).args(["sms", "1"]);
        for (name, value) in env {
            cmd.env(name, value);
        }
        stdout_of(&mut cmd).contains(ESC)
    };
    assert!(run(&["--color", "always"], &[]), "--color always");
    assert!(
        run(&["--color", "always"], &[("NO_COLOR", "1")]),
        "the flag wins"
    );
    assert!(!run(&["--color", "never"], &[("CLICOLOR_FORCE", "1")]));
    assert!(!run(&[], &[]), "a pipe gets no colour");
    assert!(
        run(&[], &[("CLICOLOR_FORCE", "1")]),
        "CLICOLOR_FORCE forces it"
    );
    assert!(!run(&[], &[("CLICOLOR_FORCE", "0")]));
    assert!(!run(&[], &[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")]));
    assert!(
        !run(&[], &[("NO_COLOR", "0"), ("CLICOLOR_FORCE", "1")]),
        "any NO_COLOR"
    );
    // Observable without a terminal only against CLICOLOR_FORCE: both win over it.
    assert!(!run(&[], &[("CLICOLOR", "0"), ("CLICOLOR_FORCE", "1")]));
    assert!(!run(&[], &[("TERM", "dumb"), ("CLICOLOR_FORCE", "1")]));
    assert!(run(&[], &[("CLICOLOR", "1"), ("CLICOLOR_FORCE", "1")]));
}

#[test]
fn colour_paints_status_by_meaning() {
    let server = answering(SMS);
    let out = stdout_of(smsstat_at(&server.base).args(["--color", "always", "sms", "1"]));
    // comfy-table writes green as SGR 38;5;10 or 32: either way the value is wrapped.
    assert!(out.contains("delivered"), "{out}");
    let before = out.split("delivered").next().unwrap();
    assert!(
        before.rfind(ESC) > before.rfind('┆'),
        "status not coloured: {out}"
    );
}

#[test]
fn verbose_levels_never_print_the_key() {
    let server = answering(SMS);
    let trace = |level: &str| {
        let assert = smsstat_at(&server.base)
            .args([level, "sms", "1"])
            .env("SMSSTAT_API_KEY", KEY)
            .assert()
            .success();
        let output = assert.get_output();
        let stderr = String::from_utf8(output.stderr.clone()).unwrap();
        let stdout = String::from_utf8(output.stdout.clone()).unwrap();
        assert!(
            !stderr.contains(KEY) && !stdout.contains(KEY),
            "{level}:\n{stderr}"
        );
        stderr
    };
    let v = trace("-v");
    assert!(v.contains("GET ") && v.contains("200 OK"), "{v}");
    assert!(!v.contains("< "), "-v shows no headers:\n{v}");
    let vv = trace("-vv");
    assert!(vv.contains("> x-api-key: ****-7f3"), "{vv}");
    assert!(vv.contains("> user-agent: smsstat/"), "{vv}");
    assert!(
        vv.to_ascii_lowercase()
            .contains("< content-type: application/json"),
        "{vv}"
    );
    assert!(vv.contains("bytes)"), "{vv}");
    assert_eq!(server.seen()[0].header("x-api-key"), Some(KEY));
}

#[test]
fn each_command_lists_only_the_options_it_uses() {
    let help = |args: &[&str]| -> String {
        let out = smsstat().args(args).arg("--help").assert().success();
        String::from_utf8_lossy(&out.get_output().stdout).into_owned()
    };
    for sub in [&["sim"][..], &["man"], &["completions"]] {
        let text = help(sub);
        for lookup_flag in ["--wait", "--fields", "--base-url", "--jobs"] {
            assert!(!text.contains(lookup_flag), "{sub:?} lists {lookup_flag}");
        }
    }
    let config = help(&["config", "show"]);
    assert!(config.contains("--base-url") && config.contains("--profile"));
    // Settings (--wait-timeout, --jobs) are listed there; run options are not.
    let lists = |flag: &str| config.lines().any(|l| l.trim_start().starts_with(flag));
    assert!(!lists("--wait ") && !lists("--fields"));
    assert!(config.contains("--wait-timeout") && config.contains("--jobs"));
    let lookup = help(&["sms"]);
    assert!(lookup.contains("--wait") && lookup.contains("--fields"));
    // `config` only leads to `show`; -o is a lookup option (show and check take --json).
    let parent = help(&["config"]);
    assert!(!parent.contains("--base-url") && !parent.contains("--json"));
    assert!(!config.contains("--output") && !help(&["check"]).contains("--output"));
    // Lookup options still work before or after the lookup (tests/it/subcommand_options.rs
    // has the refusals, tests/it/completion.rs what completion offers).
    let sim = crate::common::refused_base();
    smsstat()
        .args(["sms", "--base-url", &sim, "--retries", "0", "1"])
        .assert()
        .code(69);
}

#[test]
fn quiet_drops_warnings_lines_and_summary_but_not_the_exit_code() {
    let server = crate::common::TestServer::start(|url| {
        if url.ends_with("/2") {
            crate::common::Canned::json(404, r#"{"error":20,"errorDescription":"SMS not found"}"#)
        } else {
            crate::common::Canned::json(200, SMS)
        }
    });
    let loud = smsstat_at(&server.base)
        .args(["-v", "--expect", "arrived", "--json", "sms", "1", "2"])
        .assert()
        .code(80);
    let loud = String::from_utf8_lossy(&loud.get_output().stderr).into_owned();
    assert!(
        loud.contains("SMS not found") && loud.contains("warning"),
        "{loud}"
    );
    // The first failure in input order: sms 1's unmet expectation.
    smsstat_at(&server.base)
        .args(["-q", "--expect", "arrived", "--json", "sms", "1", "2"])
        .assert()
        .code(80)
        .stderr("");
}

#[test]
fn every_trace_line_of_a_batch_names_its_lookup() {
    let server = answering(SMS);
    let out = smsstat_at(&server.base)
        .args(["-vv", "-j", "4", "--json", "sms", "11", "12", "13", "14"])
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    let traces: Vec<&str> = stderr
        .lines()
        .filter(|l| !l.contains(" ok") && !l.trim().is_empty())
        .collect();
    assert!(traces.len() > 8, "{stderr}");
    for line in &traces {
        let labelled = ["11", "12", "13", "14"]
            .iter()
            .any(|id| line.starts_with(&format!("smsstat: sms {id}: ")));
        assert!(labelled, "an anonymous trace line: {line}");
    }
    for id in ["11", "12", "13", "14"] {
        let exchange = format!(
            "smsstat: sms {id}: GET {}/sms/{id} -> 200 OK in ",
            server.base
        );
        assert_eq!(stderr.matches(&exchange).count(), 1, "{stderr}");
    }
}

/// `COMPLETE` set to anything but a shell's name (left over in an environment) is
/// not a completion request: the command runs, and never ends with clap's exit 2,
/// which scripts read as a service code.
#[test]
fn a_complete_variable_that_names_no_shell_is_ignored() {
    for value in ["1", "yes", ""] {
        crate::common::clean_command()
            .env("COMPLETE", value)
            .args(["--demo", "--json", "sms", "42"])
            .output()
            .map(|out| {
                assert_eq!(out.status.code(), Some(0), "COMPLETE={value}: {out:?}");
                assert!(String::from_utf8_lossy(&out.stdout).contains("\"status\""));
            })
            .unwrap();
    }
}

/// A mistyped subcommand suggests the nearest one, a swap of two letters included
/// (clap's own measure offered `help` for `hrl`).
#[test]
fn a_mistyped_subcommand_suggests_the_nearest() {
    let mistakes = [
        ("hrl", "hlr"),
        ("tsk", "task"),
        ("chekc", "check"),
        ("sho", "show"),
    ];
    for (typed, meant) in mistakes {
        // A subcommand of `config` is named among config's, not the top level's.
        let args = match typed {
            "sho" => ["config", typed],
            _ => [typed, "1"],
        };
        let out = smsstat().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(64));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!("a similar subcommand exists: '{meant}'")),
            "{typed}: {stderr}"
        );
        assert!(stderr.contains("Usage: smsstat"), "{stderr}");
    }
}

/// A missing value is shown with the subcommand's own usage, never with the key of
/// the environment spelled out as a flag to type.
#[test]
fn a_missing_value_shows_the_plain_usage() {
    let out = crate::common::clean_command()
        .env("SMSSTAT_BASE_URL", "http://127.0.0.1:9")
        .env("SMSSTAT_API_KEY", "k")
        .arg("sms")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(64));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("Usage: smsstat sms [OPTIONS] <VALUE>..."),
        "{stderr}"
    );
    assert!(!stderr.contains("--api-key"), "{stderr}");
}

/// `check` and `config show` print one JSON document, and their help says so.
#[test]
fn one_document_commands_describe_their_json_as_one_document() {
    for args in [&["check", "--help"][..], &["config", "show", "--help"]] {
        let help = stdout_of(smsstat().args(args));
        // --help puts each option's text under it.
        let text = help
            .split_once("      --json\n")
            .map(|(_, rest)| rest.split("\n\n").next().unwrap())
            .unwrap();
        assert!(text.contains("one JSON document"), "{args:?}: {text}");
        assert!(!text.contains("line per lookup"), "{args:?}: {text}");
    }
    let help = stdout_of(smsstat().args(["sms", "--help"]));
    assert!(help.contains("one compact line per lookup"), "{help}");
}

/// `-vv` traces in curl's order: the request line, its headers, the status, the
/// answer's headers.
#[test]
fn a_double_verbose_trace_starts_with_the_request_line() {
    let server = answering(SMS);
    let out = smsstat_at(&server.base)
        .args(["-vv", "sms", "42"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("smsstat: sms 42: "))
        .collect();
    let at = |needle: &str| {
        lines
            .iter()
            .position(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no {needle} in {stderr}"))
    };
    assert!(at("> GET ") < at("> user-agent:"), "{stderr}");
    assert!(at("> user-agent:") < at("< 200 OK"), "{stderr}");
    assert!(at("< 200 OK") < at("< content-type:"), "{stderr}");
}

/// One message style for every usage error: clap's and smsstat's own both start
/// with `smsstat: error:` (exit 64).
#[test]
fn every_usage_error_speaks_in_one_style() {
    let runs: [&[&str]; 3] = [
        &["--jobs", "0", "sms", "1"],
        &["hrl", "1"],
        &["--demo", "--normalize", "sms", "1"],
    ];
    for args in runs {
        let out = smsstat().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(64), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.starts_with("smsstat: error: "), "{args:?}: {stderr}");
    }
}

// The first screens a new user sees: bare `smsstat`, `-h`, a lookup's `-h` and
// `help -h`, each short enough for a 24-row terminal; help and version written to a
// full disk (exit 74); the wording of a few first mistakes.

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

// The README is a guide a new user follows step by step: short enough to read
// (at most 3,500 words, counted as `wc -w` counts), and every example it shows
// as runnable works as printed.
//
// Runnable means a ```` ```sh ```` block: each is run whole, as a script (`sh -e`),
// in an empty directory, with the built binary first on PATH and a clean
// environment, and must exit 0 (the simulator's recipe included, which must also
// stop the simulator it starts: the script's output has to close). Blocks that
// need root, a network, a toolchain or a real gateway (install, build, a
// gateway's URL, a CI template) are ```` ```text ````, shown and not run; any
// other fence is refused, so an example cannot slip out of the test by its tag.

fn readme() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn the_readme_is_at_most_3500_words() {
    let words = readme().split_whitespace().count();
    assert!(words <= 3500, "README.md has {words} words");
}

/// The fenced blocks of `text`: (info string, body).
fn blocks(text: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in text.lines() {
        match (line.strip_prefix("```"), open.take()) {
            (Some(_), Some(block)) => found.push(block),
            (Some(info), None) => open = Some((info.trim().to_string(), String::new())),
            (None, Some((info, mut body))) => {
                body.push_str(line);
                body.push('\n');
                open = Some((info, body));
            }
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "a fenced block is not closed");
    found
}

#[test]
fn every_runnable_readme_example_runs_as_printed() {
    let blocks = blocks(&readme());
    let kinds = ["sh", "text", "toml", "yaml"];
    for (info, body) in &blocks {
        assert!(kinds.contains(&info.as_str()), "```{info} block:\n{body}");
    }
    let runnable: Vec<&String> = blocks
        .iter()
        .filter(|(info, _)| info == "sh")
        .map(|(_, body)| body)
        .collect();
    assert!(runnable.len() >= 6, "{} runnable blocks", runnable.len());
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_smsstat")).parent().unwrap();
    let path = format!("{}:/usr/bin:/bin", bin_dir.display());
    for (n, script) in runnable.iter().enumerate() {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("readme-{n}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut cmd = Command::new("sh");
        cmd.args(["-e", "-c", script])
            .current_dir(&dir)
            .env_clear()
            .env("PATH", &path)
            .env("HOME", &dir)
            .env("LANG", "C.UTF-8")
            .env("XDG_CONFIG_HOME", crate::common::empty_config_home());
        // Live bounds the run: a simulator left running would hold the output open,
        // and the test fails instead of hanging.
        cmd.stdin(std::process::Stdio::null());
        let ended = Live::spawn(cmd).finish();
        assert_eq!(ended.code, Some(0), "{script}\n{ended:?}");
    }
}
