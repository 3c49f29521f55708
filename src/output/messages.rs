//! One line on stderr, in one style: `smsstat: error: ...`, `smsstat: warning: ...`.

use std::io::{self, Write};

/// One line on stderr, prefixed with the program name; a closed stderr is ignored.
pub(crate) fn report(message: std::fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr().lock(), "smsstat: {message}");
}

pub(crate) fn warn(message: &str) {
    report(format_args!("warning: {message}"));
}
