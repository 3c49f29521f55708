//! The README is a guide a new user follows step by step: short enough to read
//! (at most 3,500 words, counted as `wc -w` counts), and every example it shows
//! as runnable works as printed.
//!
//! Runnable means a ```` ```sh ```` block: each is run whole, as a script (`sh -e`),
//! in an empty directory, with the built binary first on PATH and a clean
//! environment, and must exit 0 (the simulator's recipe included, which must also
//! stop the simulator it starts: the script's output has to close). Blocks that
//! need root, a network, a toolchain or a real gateway (install, build, a
//! gateway's URL, a CI template) are ```` ```text ````, shown and not run; any
//! other fence is refused, so an example cannot slip out of the test by its tag.

mod common;

use std::path::Path;
use std::process::Command;

use common::process::Live;

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
            .env("XDG_CONFIG_HOME", common::empty_config_home());
        // Live bounds the run: a simulator left running would hold the output open,
        // and the test fails instead of hanging.
        cmd.stdin(std::process::Stdio::null());
        let ended = Live::spawn(cmd).finish();
        assert_eq!(ended.code, Some(0), "{script}\n{ended:?}");
    }
}
