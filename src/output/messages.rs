//! One line on stderr, in one style: `smsstat: error: ...`, `smsstat: warning: ...`.

use std::io::{self, Write};

use crate::domain::sanitize::{escape_cut, MAX_LINE_CHARS};

/// One line on stderr, prefixed with the program name; a closed stderr is ignored.
/// Escaped and cut as a whole: messages quote arguments, paths, environment values
/// and server text, and one line must stay one line of readable length.
pub(crate) fn report(message: std::fmt::Arguments<'_>) {
    let message = message.to_string();
    let shown = escape_cut(&message, MAX_LINE_CHARS);
    let _ = writeln!(io::stderr().lock(), "smsstat: {shown}");
}

pub(crate) fn warn(message: &str) {
    report(format_args!("warning: {message}"));
}
