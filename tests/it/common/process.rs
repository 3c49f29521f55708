//! The binary as a running process, for tests that watch it (memory, signals,
//! pipes) rather than only its final output.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::{at, clean_command, json_lines};

/// Stdout and stderr of a finished run, as text.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Fails, showing stderr and stdout, unless the run exited with `code`; the run
    /// otherwise, for more checks.
    #[track_caller]
    pub fn assert_code(self, code: i32) -> Run {
        assert_eq!(
            self.code, code,
            "exit code\nstderr:\n{}\nstdout:\n{}",
            self.stderr, self.stdout
        );
        self
    }
}

pub fn run_cmd(mut cmd: assert_cmd::Command) -> Run {
    let out = cmd.output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `args` run against `base` with no retries, to the end.
pub fn run_at(base: &str, args: &[&str]) -> Run {
    let mut cmd = super::smsstat_at(base);
    cmd.args(args);
    run_cmd(cmd)
}

/// The binary with the clean environment of `common::clean_command`, pointed at `base`
/// with no retries, stdin empty, stdout and stderr piped: a std `Command`, so a test
/// can spawn it and watch it while it runs.
pub fn command(base: &str, args: &[&str]) -> Command {
    let mut cmd = clean_command();
    cmd.args(at(base))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

/// `inner` run by `sh -c script`, where `"$0" "$@"` is the command line of `inner`
/// and its environment is kept: for a pipeline or a limit around the binary.
pub fn in_shell(inner: &Command, script: &str) -> Command {
    let mut shell = Command::new("sh");
    shell
        .arg("-c")
        .arg(script)
        .arg(inner.get_program())
        .args(inner.get_args())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (name, value) in inner.get_envs() {
        match value {
            Some(value) => shell.env(name, value),
            None => shell.env_remove(name),
        };
    }
    shell
}

/// A spawned process killed (and reaped) however the test ends: a failed assertion
/// leaves no binary or simulator running behind it.
pub struct KillOnDrop(pub Child);

impl std::ops::Deref for KillOnDrop {
    type Target = Child;
    fn deref(&self) -> &Child {
        &self.0
    }
}

impl std::ops::DerefMut for KillOnDrop {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.0
    }
}

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub fn spawn(base: &str, args: &[&str]) -> Child {
    command(base, args).spawn().unwrap()
}

/// Spawns `cmd` with stdin piped and feeds it `ids`, one per line, on a thread of its
/// own; the thread ends early, quietly, once the process stops reading.
pub fn spawn_fed(
    mut cmd: Command,
    ids: std::ops::RangeInclusive<u64>,
) -> (Child, thread::JoinHandle<()>) {
    let mut child = cmd.stdin(Stdio::piped()).spawn().expect("spawn the binary");
    let mut stdin = child.stdin.take().unwrap();
    let feeder = thread::spawn(move || {
        for id in ids {
            if writeln!(stdin, "{id}").is_err() {
                return;
            }
        }
    });
    (child, feeder)
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

// ---------------------------------------------------------------- live output and signals

/// How long a live process may take to print what a test waits for, and to end.
pub const LIVE_BOUND: Duration = Duration::from_secs(30);

/// One of the binary's two outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    Stdout,
    Stderr,
}

/// A signal a test sends to the binary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    /// SIGINT, as Ctrl-C sends it.
    Int,
    Term,
    Hup,
}

impl Signal {
    /// The name `kill -s` takes.
    pub fn name(self) -> &'static str {
        match self {
            Signal::Int => "INT",
            Signal::Term => "TERM",
            Signal::Hup => "HUP",
        }
    }

    /// Its number, as `Ended::killed_by` shows a death by it.
    pub fn number(self) -> i32 {
        match self {
            Signal::Int => 2,
            Signal::Term => 15,
            Signal::Hup => 1,
        }
    }
}

/// How a live process ended, and all it printed.
#[derive(Debug)]
pub struct Ended {
    /// The exit code; None when a signal killed the process.
    pub code: Option<i32>,
    /// The signal that killed the process, when one did (it did not exit by itself).
    pub killed_by: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Ended {
    /// Stdout as JSON lines.
    pub fn json_lines(&self) -> Vec<Value> {
        json_lines(&self.stdout)
    }
}

/// A spawned binary whose stdout and stderr are read line by line on threads of their
/// own, so that a test can wait until it prints something (bounded, never by
/// sleeping) and then act. Dropped unfinished (a failed assertion), it is killed.
pub struct Live {
    child: Option<Child>,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Stream, String)>,
    stdout: String,
    stderr: String,
}

impl Live {
    /// Spawns `cmd` (from `command`) with stdout and stderr piped. Its stdin is what
    /// `cmd` says: none from `command`; `Stdio::piped()` for `write_stdin`.
    pub fn spawn(mut cmd: Command) -> Live {
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn the binary");
        let (sender, lines) = mpsc::channel();
        read_lines(child.stdout.take().unwrap(), Stream::Stdout, sender.clone());
        read_lines(child.stderr.take().unwrap(), Stream::Stderr, sender);
        Live {
            stdin: child.stdin.take(),
            child: Some(child),
            lines,
            stdout: String::new(),
            stderr: String::new(),
        }
    }

    /// Writes `text` to stdin and flushes it. Stdin stays open until `close_stdin`, or
    /// until the process has ended. Small texts only (what a pipe holds, 64 KiB): the
    /// write is not on a thread of its own.
    pub fn write_stdin(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("spawned with stdin piped");
        stdin
            .write_all(text.as_bytes())
            .and_then(|()| stdin.flush())
            .expect("write to stdin");
    }

    /// End of input for the process.
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Waits (at most `LIVE_BOUND`) until a line on `stream` satisfies `ready`, and
    /// returns it without its newline. All printed meanwhile is kept for `finish`.
    pub fn wait_for(&mut self, stream: Stream, mut ready: impl FnMut(&str) -> bool) -> String {
        let deadline = Instant::now() + LIVE_BOUND;
        loop {
            match self.next_line(deadline) {
                Some((from, line)) => {
                    let line = line.trim_end_matches('\n');
                    if from == stream && ready(line) {
                        return line.to_string();
                    }
                }
                None => panic!(
                    "the process closed its output before what was awaited on {stream:?}\n{}",
                    self.so_far()
                ),
            }
        }
    }

    /// Sends `signal` to the process (not reaped yet, so the pid is still its own).
    pub fn signal(&mut self, signal: Signal) {
        let pid = self.child.as_ref().expect("still running").id();
        send(pid, signal.name());
    }

    /// Reads both outputs to their end and waits for the exit, within `LIVE_BOUND`.
    /// Stdin, if still open, is closed only once the process has ended.
    pub fn finish(mut self) -> Ended {
        let deadline = Instant::now() + LIVE_BOUND;
        while self.next_line(deadline).is_some() {}
        let status = self.exit_status(deadline);
        Ended {
            code: status.code(),
            killed_by: status.signal(),
            stdout: std::mem::take(&mut self.stdout),
            stderr: std::mem::take(&mut self.stderr),
        }
    }

    /// The next line of either output, kept; None once both are closed. Panics at
    /// `deadline`.
    fn next_line(&mut self, deadline: Instant) -> Option<(Stream, String)> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok((from, line)) => {
                match from {
                    Stream::Stdout => self.stdout.push_str(&line),
                    Stream::Stderr => self.stderr.push_str(&line),
                }
                Some((from, line))
            }
            Err(RecvTimeoutError::Disconnected) => None,
            Err(RecvTimeoutError::Timeout) => {
                panic!(
                    "{LIVE_BOUND:?} passed while reading the output\n{}",
                    self.so_far()
                )
            }
        }
    }

    /// Waits for the exit on a thread of its own, so that the wait is bounded.
    fn exit_status(&mut self, deadline: Instant) -> ExitStatus {
        let mut child = self.child.take().expect("still running");
        let pid = child.id();
        let (sender, exited) = mpsc::channel();
        thread::spawn(move || {
            let _ = sender.send(child.wait());
        });
        match exited.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(status) => status.expect("wait for the binary"),
            Err(_) => {
                send(pid, "KILL");
                panic!("no exit within {LIVE_BOUND:?}\n{}", self.so_far())
            }
        }
    }

    fn so_far(&self) -> String {
        format!(
            "stdout so far:\n{}\nstderr so far:\n{}",
            self.stdout, self.stderr
        )
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Sends each line of `source` (newline kept) to `lines`, on a thread of its own.
fn read_lines(source: impl Read + Send + 'static, stream: Stream, lines: Sender<(Stream, String)>) {
    thread::spawn(move || {
        let mut reader = BufReader::new(source);
        let mut line = Vec::new();
        while matches!(reader.read_until(b'\n', &mut line), Ok(n) if n > 0) {
            let text = String::from_utf8_lossy(&line).into_owned();
            if lines.send((stream, text)).is_err() {
                return;
            }
            line.clear();
        }
    });
}

/// `kill -s NAME pid`.
fn send(pid: u32, signal: &str) {
    let status = std::process::Command::new("kill")
        .args(["-s", signal, &pid.to_string()])
        .status()
        .expect("run kill");
    assert!(status.success(), "kill -s {signal} {pid} failed");
}

/// Waits (at most `LIVE_BOUND`, else kills it and fails) for a spawned child to exit,
/// reading what is left of its stdout and stderr (those not taken) on threads of
/// their own: how it ended. For children a test drives by hand (`spawn_fed`).
pub fn finish(mut child: Child) -> Ended {
    fn read_all(source: Option<impl Read + Send + 'static>) -> thread::JoinHandle<String> {
        thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut source) = source {
                let _ = source.read_to_end(&mut bytes);
            }
            String::from_utf8_lossy(&bytes).into_owned()
        })
    }
    let stdout = read_all(child.stdout.take());
    let stderr = read_all(child.stderr.take());
    let pid = child.id();
    let (sender, exited) = mpsc::channel();
    thread::spawn(move || {
        let _ = sender.send(child.wait());
    });
    let status = match exited.recv_timeout(LIVE_BOUND) {
        Ok(status) => status.expect("wait for the binary"),
        Err(_) => {
            send(pid, "KILL");
            panic!("no exit within {LIVE_BOUND:?}");
        }
    };
    Ended {
        code: status.code(),
        killed_by: status.signal(),
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    }
}

/// The signal harness: spawns `cmd` (from `command`), writes `stdin` to it when given
/// (and holds it open, so a batch reading it never ends by itself), waits until a line
/// on `stream` satisfies `ready`, sends `signal`, and returns how the process ended.
/// Every wait is bounded by `LIVE_BOUND`; nothing sleeps.
pub fn signal_when(
    mut cmd: Command,
    stdin: Option<&str>,
    stream: Stream,
    ready: impl FnMut(&str) -> bool,
    signal: Signal,
) -> Ended {
    if stdin.is_some() {
        cmd.stdin(Stdio::piped());
    }
    let mut live = Live::spawn(cmd);
    if let Some(text) = stdin {
        live.write_stdin(text);
    }
    live.wait_for(stream, ready);
    live.signal(signal);
    live.finish()
}

/// A `smsstat sim -q` process, killed however the test ends.
pub struct Running(pub KillOnDrop);

impl Running {
    /// `smsstat sim` on an ephemeral port, settled at once, with `args` and the clean
    /// environment of `crate::common::clean_command` changed by `env`.
    pub fn start(args: &[&str], env: &[(&str, &str)]) -> Running {
        let mut cmd = clean_command();
        cmd.args(["sim", "-q", "--listen", "127.0.0.1:0", "--settle", "0"])
            .args(args)
            .envs(env.iter().copied())
            .stdout(Stdio::piped());
        Running(KillOnDrop(cmd.spawn().expect("smsstat sim starts")))
    }

    /// The base URL from the first line, as a script would read it.
    pub fn base_url(&mut self) -> String {
        let stdout = self.0.stdout.as_mut().unwrap();
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).unwrap();
        line.trim_end()
            .strip_prefix(smsstat::testkit::LISTENING_PREFIX)
            .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
            .to_string()
    }
}
