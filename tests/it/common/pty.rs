//! The binary on a pseudo-terminal, as a person runs it: stderr (and stdin, when a
//! test types the values, and stdout, when the test reads the whole screen) on the
//! terminal, stdout on a pipe otherwise. The test reads what the
//! terminal shows from the master side and types on it, Ctrl-C included: with
//! `controlling`, the terminal is the process's own, so `\x03` sends SIGINT and the
//! terminal echoes `^C` as it does for a person.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::{BorrowedFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::Instant;

use rustix::fs::{Mode, OFlags};
use rustix::pty::{grantpt, openpt, ptsname, unlockpt, OpenptFlags};
use rustix::termios::{tcsetwinsize, Winsize};

use super::process::LIVE_BOUND;
use super::screen::Screen;

/// Columns of the test terminal.
pub const COLS: u16 = 80;

/// Which of the binary's files are the terminal.
#[derive(Clone, Copy, Debug)]
pub struct Wiring {
    pub stdin: bool,
    pub stdout: bool,
    /// The terminal is the process's controlling terminal (Ctrl-C reaches it).
    pub controlling: bool,
}

/// What came out of a finished run.
pub struct Shown {
    /// Every byte written to the terminal.
    pub terminal: Vec<u8>,
    pub stdout: String,
    pub code: Option<i32>,
}

/// A running binary on a terminal (of `COLS` columns unless spawned with others).
pub struct OnTerminal {
    cols: u16,
    child: Option<Child>,
    /// Stdin, when `cmd` had it piped.
    stdin: Option<ChildStdin>,
    master: File,
    chunks: Receiver<Vec<u8>>,
    terminal: Vec<u8>,
    stdout_lines: Receiver<String>,
    stdout: String,
}

impl OnTerminal {
    /// Spawns `cmd` (from `process::command`) with stderr on a new terminal, and stdin
    /// too when `wiring.stdin`; stdout stays a pipe. Stdin is left as `cmd` says
    /// otherwise.
    pub fn spawn(cmd: Command, wiring: Wiring) -> OnTerminal {
        OnTerminal::spawn_sized(cmd, wiring, COLS)
    }

    /// `spawn` on a terminal of `cols` columns.
    pub fn spawn_sized(mut cmd: Command, wiring: Wiring, cols: u16) -> OnTerminal {
        let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY | OpenptFlags::CLOEXEC)
            .expect("open a pseudo-terminal");
        grantpt(&master).and_then(|()| unlockpt(&master)).unwrap();
        let size = Winsize {
            ws_row: 24,
            ws_col: cols,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        tcsetwinsize(&master, size).expect("set the terminal's size");
        let path = ptsname(&master, Vec::new()).unwrap();
        let slave = || -> OwnedFd {
            let flags = OFlags::RDWR | OFlags::NOCTTY | OFlags::CLOEXEC;
            rustix::fs::open(path.as_c_str(), flags, Mode::empty()).expect("open the terminal")
        };
        // A terminal that knows cursor movement (with TERM unset, nothing is drawn).
        cmd.env("TERM", "xterm-256color")
            .stderr(Stdio::from(slave()));
        match wiring.stdout {
            true => cmd.stdout(Stdio::from(slave())),
            false => cmd.stdout(Stdio::piped()),
        };
        if wiring.stdin {
            cmd.stdin(Stdio::from(slave()));
        }
        if wiring.controlling {
            // SAFETY: setsid and the TIOCSCTTY ioctl are plain system calls, safe
            // between fork and exec; stderr (fd 2) is the terminal by then.
            unsafe {
                cmd.pre_exec(|| {
                    rustix::process::setsid()?;
                    rustix::process::ioctl_tiocsctty(BorrowedFd::borrow_raw(2))?;
                    Ok(())
                });
            }
        }
        let mut child = cmd.spawn().expect("spawn the binary");
        // The command holds the terminal's other side open: the master reads EIO,
        // the end, only once the process (and nothing else) has closed it.
        drop(cmd);
        let master = File::from(master);
        let chunks = read_chunks(master.try_clone().unwrap());
        // Stdout on the terminal: no line ever comes on this channel.
        let stdout_lines = match child.stdout.take() {
            Some(stdout) => read_lines(stdout),
            None => mpsc::channel().1,
        };
        OnTerminal {
            cols,
            stdin: child.stdin.take(),
            child: Some(child),
            master,
            chunks,
            terminal: Vec::new(),
            stdout_lines,
            stdout: String::new(),
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("not finished").id()
    }

    /// Writes `text` to the piped stdin.
    pub fn write_stdin(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("spawned with stdin piped");
        stdin.write_all(text.as_bytes()).expect("write to stdin");
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Types `bytes` on the terminal (`\x03` is Ctrl-C, `\x04` Ctrl-D).
    pub fn type_in(&mut self, bytes: &[u8]) {
        self.master.write_all(bytes).expect("type on the terminal");
    }

    /// Waits (at most `LIVE_BOUND`) until what the terminal got satisfies `ready`.
    pub fn wait_for_terminal(&mut self, ready: impl Fn(&str) -> bool) {
        let deadline = Instant::now() + LIVE_BOUND;
        while !ready(&String::from_utf8_lossy(&self.terminal)) {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.chunks.recv_timeout(left) {
                Ok(chunk) => self.terminal.extend(chunk),
                Err(_) => panic!("not shown on the terminal:\n{}", self.so_far()),
            }
        }
    }

    /// The lines the terminal shows now, from what it got so far.
    pub fn screen(&self) -> Vec<String> {
        Screen::after(&self.terminal, usize::from(self.cols)).lines()
    }

    /// Waits (at most `LIVE_BOUND`) for a line on stdout that satisfies `ready`.
    pub fn wait_for_stdout(&mut self, ready: impl Fn(&str) -> bool) {
        let deadline = Instant::now() + LIVE_BOUND;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.stdout_lines.recv_timeout(left) {
                Ok(line) => {
                    self.stdout.push_str(&line);
                    if ready(line.trim_end()) {
                        return;
                    }
                }
                Err(_) => panic!("not printed on stdout:\n{}", self.so_far()),
            }
        }
    }

    /// Reads both outputs to their end and the exit code, within `LIVE_BOUND`.
    pub fn finish(mut self) -> Shown {
        let deadline = Instant::now() + LIVE_BOUND;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.chunks.recv_timeout(left) {
                Ok(chunk) => self.terminal.extend(chunk),
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => panic!("no end:\n{}", self.so_far()),
            }
        }
        while let Ok(line) = self.stdout_lines.recv_timeout(LIVE_BOUND) {
            self.stdout.push_str(&line);
        }
        let status = self
            .child
            .take()
            .unwrap()
            .wait()
            .expect("wait for the binary");
        Shown {
            terminal: std::mem::take(&mut self.terminal),
            stdout: std::mem::take(&mut self.stdout),
            code: status.code(),
        }
    }

    fn so_far(&self) -> String {
        format!(
            "terminal so far: {:?}\nstdout so far:\n{}",
            String::from_utf8_lossy(&self.terminal),
            self.stdout
        )
    }
}

impl Drop for OnTerminal {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// What the master reads, chunk by chunk, on a thread of its own; the channel closes
/// when every writer of the terminal is gone (EIO).
fn read_chunks(mut master: File) -> Receiver<Vec<u8>> {
    let (sender, chunks) = mpsc::channel();
    thread::spawn(move || {
        let mut buffer = [0u8; 4096];
        while let Ok(n @ 1..) = master.read(&mut buffer) {
            if sender.send(buffer[..n].to_vec()).is_err() {
                return;
            }
        }
    });
    chunks
}

/// Stdout's lines (newline kept), on a thread of their own.
fn read_lines(stdout: impl Read + Send + 'static) -> Receiver<String> {
    let (sender, lines) = mpsc::channel();
    thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        let mut line = String::new();
        while matches!(reader.read_line(&mut line), Ok(n) if n > 0) {
            if sender.send(std::mem::take(&mut line)).is_err() {
                return;
            }
        }
    });
    lines
}
