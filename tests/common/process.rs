//! The binary as a running process, for tests that watch it (memory, signals,
//! pipes) rather than only its final output.

use std::io::Read;
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use super::empty_config_home;

/// Stdout and stderr of a finished run, as text.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

pub fn run_cmd(mut cmd: assert_cmd::Command) -> Run {
    let out = cmd.output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The binary with the same clean environment as `common::smsstat`, as a std
/// `Command`, so a test can spawn it and watch it while it runs.
pub fn command(base: &str, args: &[&str]) -> Command {
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("smsstat"));
    for (name, _) in std::env::vars_os() {
        let name = name.to_string_lossy().into_owned();
        if name.starts_with("SMSSTAT_") || name == "RUST_BACKTRACE" {
            cmd.env_remove(name);
        }
    }
    cmd.env("XDG_CONFIG_HOME", empty_config_home())
        .env("LANG", "C.UTF-8")
        .args(["--base-url", base, "--retries", "0"])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

pub fn spawn(base: &str, args: &[&str]) -> Child {
    command(base, args).spawn().unwrap()
}

/// The peak resident memory of a running process, in KiB (Linux), 0 once it is gone.
pub fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// Waits for the child, sampling its memory; returns (exit code, stderr, peak KiB, time).
pub fn watch(mut child: Child) -> (i32, String, u64, Duration) {
    let started = Instant::now();
    let mut peak = 0;
    let code = loop {
        peak = peak.max(peak_rss_kib(child.id()));
        if let Some(status) = child.try_wait().unwrap() {
            break status.code().unwrap_or(-1);
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "still running after 30 s"
        );
        thread::sleep(Duration::from_millis(1));
    };
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    (code, stderr, peak, started.elapsed())
}
