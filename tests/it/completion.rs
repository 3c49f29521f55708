//! Dynamic completion through its entry point: the binary run as the registration
//! scripts run it (`COMPLETE=SHELL smsstat -- WORDS`, the word index in
//! `_CLAP_COMPLETE_INDEX` for bash and zsh, the last word for fish), and once
//! through bash itself with the script `smsstat completions bash` prints.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use crate::common::config_home::ConfigHome;
use crate::common::process::Live;
use crate::common::smsstat;

/// A config home holding `smsstat/config.toml` with these profiles.
fn config_home(profiles: &[&str]) -> ConfigHome {
    let tables: String = profiles
        .iter()
        .map(|p| format!("[profiles.{p}]\n"))
        .collect();
    ConfigHome::new(&tables)
}

/// The candidates bash would get for the last word of `words` (after `smsstat`).
fn bash(words: &[&str], env: &[(&str, &Path)]) -> Vec<String> {
    let out = smsstat()
        .env("COMPLETE", "bash")
        .env("_CLAP_COMPLETE_INDEX", words.len().to_string())
        .env("_CLAP_IFS", "\n")
        .envs(env.iter().copied())
        .args(["--", "smsstat"])
        .args(words)
        .timeout(Duration::from_secs(20))
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    text.lines().map(str::to_string).collect()
}

#[test]
fn profile_names_come_from_the_config_file() {
    let home = config_home(&["prod", "staging"]);
    let env = [("XDG_CONFIG_HOME", home.dir.path())];
    assert_eq!(bash(&["--profile", ""], &env), ["prod", "staging"]);
    assert_eq!(bash(&["sms", "--profile", "st"], &env), ["staging"]);
    assert_eq!(bash(&["config", "show", "--profile", ""], &env).len(), 2);
    // --config on the line, or SMSSTAT_CONFIG, names another file.
    let other = config_home(&["ci"]);
    let path = other.file();
    let flag = path.to_str().unwrap();
    assert_eq!(bash(&["--config", flag, "--profile", ""], &env), ["ci"]);
    let by_env = [
        ("XDG_CONFIG_HOME", home.dir.path()),
        ("SMSSTAT_CONFIG", path.as_path()),
    ];
    assert_eq!(bash(&["--profile", ""], &by_env), ["ci"]);
    // No file, no candidates, and no error either.
    assert!(bash(&["--profile", ""], &[]).is_empty());
}

#[test]
fn statuses_come_from_the_status_table() {
    let all = bash(&["--expect", ""], &[]);
    for status in ["delivered", "enroute", "active", "absent"] {
        assert!(all.contains(&status.to_string()), "{status}: {all:?}");
    }
    assert_eq!(
        bash(&["hlr", "1", "--until", ""], &[]),
        [
            "active",
            "delivered",
            "undeliverable",
            "absent",
            "unknown",
            "failed",
            "sent"
        ]
    );
    assert_eq!(bash(&["sms", "1", "--expect", "deliv"], &[]), ["delivered"]);
    // After a comma, the next status of the list.
    let listed = bash(&["sms", "1", "--expect", "delivered,un"], &[]);
    assert_eq!(listed, ["delivered,undeliverable", "delivered,unknown"]);
    assert!(bash(&["task", "1", "--expect", ""], &[]).is_empty());
}

#[test]
fn field_names_come_from_the_field_schema_of_the_record_kind() {
    let task = bash(&["task", "7", "--fields", ""], &[]);
    assert!(task.contains(&"delivery_rate".into()), "{task:?}");
    assert!(!task.contains(&"msisdn".into()), "{task:?}");
    // Before the subcommand the kind is not known yet: every field, once.
    let all = bash(&["--field", ""], &[]);
    assert!(all.contains(&"delivery_rate".into()) && all.contains(&"statusDatetime".into()));
    assert_eq!(all.iter().filter(|f| *f == "msisdn").count(), 1);
    let next = bash(&["sms", "1", "--fields", "status,time_"], &[]);
    let expected = ["status,time_in", "status,time_sent", "status,time_dr"];
    assert_eq!(next, expected);
}

#[test]
fn each_command_offers_only_its_own_options() {
    let config = bash(&["config", ""], &[]);
    assert_eq!(config[0], "show", "{config:?}");
    assert!(
        !config.iter().any(|c| c.starts_with("--") && c != "--help"),
        "{config:?}"
    );
    let show = bash(&["config", "show", "--"], &[]);
    assert!(show.contains(&"--profile".into()) && show.contains(&"--json".into()));
    assert!(!show.contains(&"--wait".into()) && !show.contains(&"--output".into()));
    let sim = bash(&["sim", "--"], &[]);
    assert!(sim.contains(&"--listen".into()), "{sim:?}");
    for lookup in ["--base-url", "--wait", "--json", "--fields"] {
        assert!(!sim.contains(&lookup.into()), "sim offers {lookup}");
    }
    let man = bash(&["man", "--"], &[]);
    assert_eq!(man, ["--help"]);
    let sms = bash(&["sms", "1", "--"], &[]);
    assert!(sms.contains(&"--wait".into()) && sms.contains(&"--profile".into()));
}

#[test]
fn zsh_and_fish_get_the_same_candidates_in_their_forms() {
    let home = config_home(&["prod"]);
    let zsh = smsstat()
        .env("COMPLETE", "zsh")
        .env("_CLAP_COMPLETE_INDEX", "3")
        .env("XDG_CONFIG_HOME", home.dir.path())
        .args(["--", "smsstat", "hlr", "--profile"])
        .assert()
        .success();
    // zsh adds the empty word being completed itself.
    assert_eq!(String::from_utf8_lossy(&zsh.get_output().stdout), "prod");
    let fish = smsstat()
        .env("COMPLETE", "fish")
        .args(["--", "smsstat", "hlr", "1", "--expect", "ab"])
        .assert()
        .success();
    let fish = String::from_utf8_lossy(&fish.get_output().stdout).into_owned();
    assert_eq!(fish, "absent\thlr final\n", "value, tab, help");
}

#[test]
fn registration_scripts_call_back_into_smsstat() {
    let script = |shell: &str| {
        let out = smsstat().args(["completions", shell]).assert().success();
        String::from_utf8_lossy(&out.get_output().stdout).into_owned()
    };
    assert!(script("bash").contains("COMPLETE=\"bash\" \\\n        \"smsstat\" -- "));
    assert!(script("zsh").starts_with("#compdef smsstat"));
    assert!(script("fish").contains("(COMPLETE=fish smsstat -- "));
    assert!(script("powershell").contains("$env:COMPLETE = \"powershell\""));
    assert!(script("elvish").contains("COMPLETE=\"elvish\" smsstat -- "));
}

/// The completion runs at every TAB: it must answer without waiting for stdin, even
/// when stdin is a terminal or pipe that never ends.
#[test]
fn completion_never_reads_stdin() {
    let mut cmd = crate::common::clean_command();
    cmd.env("COMPLETE", "bash")
        .env("_CLAP_COMPLETE_INDEX", "2")
        .args(["--", "smsstat", "sms", "-"])
        .stdin(Stdio::piped());
    // Stdin stays open (never written, never closed) until the process has ended;
    // `finish` fails the test if it has not within its bound.
    let ended = Live::spawn(cmd).finish();
    assert_eq!(ended.code, Some(0), "{ended:?}");
}

/// The whole way, where bash is installed: the script from `smsstat completions
/// bash`, sourced, its function called as bash calls it on TAB.
#[test]
fn bash_completes_profiles_with_the_printed_script() {
    let Ok(bash_path) = which("bash") else {
        eprintln!("no bash: skipped");
        return;
    };
    let home = config_home(&["prod", "staging"]);
    let script = smsstat().args(["completions", "bash"]).assert().success();
    let script = String::from_utf8_lossy(&script.get_output().stdout).into_owned();
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_smsstat")).parent().unwrap();
    let path = std::env::join_paths(std::iter::once(bin_dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let program = format!(
        "{script}\nCOMP_WORDS=(smsstat --profile st); COMP_CWORD=2; COMP_TYPE=9\n\
         _clap_complete_smsstat smsstat st --profile\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n"
    );
    // Bash and the smsstat it runs get a clean environment too: the PATH to find the
    // binary, the config home and the locale, nothing of the developer's.
    let out = std::process::Command::new(bash_path)
        .args(["--norc", "--noprofile", "-c", &program])
        .env_clear()
        .env("PATH", path)
        .env("LANG", "C.UTF-8")
        .env("XDG_CONFIG_HOME", home.dir.path())
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "staging\n", "{out:?}");
}

/// The whole way, where zsh is installed: `_smsstat` autoloaded from a directory on
/// `$fpath`, as compinit does at the first TAB (zsh's `_describe` and `compdef`
/// stand-ins print what they are given), completes at that first call.
#[test]
fn zsh_completes_at_the_first_tab_from_fpath() {
    let Ok(zsh_path) = which("zsh") else {
        eprintln!("no zsh: skipped");
        return;
    };
    let home = config_home(&["prod", "staging"]);
    let functions = tempfile::tempdir().unwrap();
    let script = smsstat().args(["completions", "zsh"]).assert().success();
    std::fs::write(
        functions.path().join("_smsstat"),
        &script.get_output().stdout,
    )
    .unwrap();
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_smsstat")).parent().unwrap();
    let path = std::env::join_paths(std::iter::once(bin_dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let program = "fpath=(\"$FUNCTIONS\" $fpath)\n\
         _describe() { local name=${@[-1]}; print -l -- ${(P)name} }\n\
         compdef() { print -- \"compdef $*\" }\n\
         autoload -Uz _smsstat\n\
         words=(smsstat --profile st); CURRENT=3\n\
         _smsstat\n";
    let out = std::process::Command::new(&zsh_path)
        .args(["-f", "-c", program])
        .env("FUNCTIONS", functions.path())
        .env("PATH", path)
        .env("XDG_CONFIG_HOME", home.dir.path())
        .env_remove("SMSSTAT_CONFIG")
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "staging\n", "{out:?}");
    // Sourced (`source <(smsstat completions zsh)`), it registers the completer.
    let sourced = "compdef() { print -- \"compdef $*\" }\nsource \"$FUNCTIONS/_smsstat\"\n";
    let out = std::process::Command::new(&zsh_path)
        .args(["-f", "-c", sourced])
        .env("FUNCTIONS", functions.path())
        .output()
        .unwrap();
    let registered = "compdef _clap_dynamic_completer_smsstat smsstat\n";
    assert_eq!(String::from_utf8_lossy(&out.stdout), registered, "{out:?}");
}

fn which(program: &str) -> Result<PathBuf, ()> {
    let path = std::env::var_os("PATH").ok_or(())?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
        .ok_or(())
}
