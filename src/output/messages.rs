//! One line on stderr, in one style: `smsstat: error: ...`, `smsstat: warning: ...`.

use std::fmt::Display;
use std::io::{self, Write};

use crate::domain::sanitize::{escape_cut, MAX_LINE_CHARS};

/// One line on stderr, prefixed with the program name; a closed stderr is ignored.
/// Escaped and cut as a whole: messages quote arguments, paths, environment values
/// and server text, and one line must stay one line of readable length.
pub(crate) fn report(message: impl Display) {
    let message = message.to_string();
    let shown = escape_cut(&message, MAX_LINE_CHARS);
    let _ = writeln!(io::stderr().lock(), "smsstat: {shown}");
}

/// `smsstat: error: ...`: the run failed (a setting, a file, the simulator). Told
/// once, by `run::app::main`, from the error a handler returns: a handler that told
/// its own could tell it twice, or tell it and go on. A test in `run/error.rs`
/// fails on any other caller in `run/`.
pub(crate) fn error(message: impl Display) {
    report(format_args!("error: {message}"));
}

/// `smsstat: error: ...` as a line of a batch's output: a lookup that failed, or the
/// `--junit` file that could not be finished. Not the run's error: the batch goes on
/// to its summary, and the lookups' exit code stands.
pub(crate) fn batch_error(message: impl Display) {
    error(message);
}

/// `smsstat: warning: ...`: the run goes on, but the user should know.
pub(crate) fn warn(message: impl Display) {
    report(format_args!("warning: {message}"));
}
