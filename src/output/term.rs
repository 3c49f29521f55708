//! Where the progress bar and the live view draw: stderr, with the last columns of
//! each line left free.
//!
//! indicatif pads every line it draws with spaces up to the terminal's width, which
//! leaves the cursor past the last column. The terminal's own `^C` echo then wraps
//! to a new line, and clearing the bar after Ctrl-C erases only that new line: the
//! bar stays on screen above the summary. Stopping the padding a few columns short
//! keeps the echo on the bar's line, where clearing erases it. The width reported to
//! indicatif stays the real one, so its count of wrapped lines (what it moves the
//! cursor by) stays right whatever the line's length.

use std::io;

use console::Term;
use indicatif::{ProgressDrawTarget, TermLike};

/// Columns left free at the end of a drawn line: room for `^C` and then some.
const MARGIN: usize = 4;

/// Redraws per second, indicatif's own default for stderr.
const REFRESH_HZ: u8 = 20;

/// Stderr as a draw target, hidden when it is not a terminal or `TERM` is unset or
/// `dumb` (no cursor movement known), as indicatif's own stderr target does.
pub fn stderr_target() -> ProgressDrawTarget {
    let term = Term::buffered_stderr();
    let dumb = std::env::var_os("TERM").is_none_or(|t| t == "dumb");
    if !term.is_term() || dumb {
        return ProgressDrawTarget::hidden();
    }
    ProgressDrawTarget::term_like_with_hz(Box::new(Margined(term)), REFRESH_HZ)
}

/// A terminal whose line padding stops `MARGIN` columns short of the edge.
#[derive(Debug)]
struct Margined(Term);

/// indicatif writes a line's padding as one string of spaces after the line; that
/// string is shortened. A line longer than the width is written whole.
fn padding_kept(text: &str) -> &str {
    let is_padding = !text.is_empty() && text.bytes().all(|b| b == b' ');
    match is_padding {
        true => &text[..text.len().saturating_sub(MARGIN)],
        false => text,
    }
}

impl TermLike for Margined {
    fn width(&self) -> u16 {
        self.0.size().1
    }

    fn height(&self) -> u16 {
        self.0.size().0
    }

    fn move_cursor_up(&self, n: usize) -> io::Result<()> {
        self.0.move_cursor_up(n)
    }

    fn move_cursor_down(&self, n: usize) -> io::Result<()> {
        self.0.move_cursor_down(n)
    }

    fn move_cursor_right(&self, n: usize) -> io::Result<()> {
        self.0.move_cursor_right(n)
    }

    fn move_cursor_left(&self, n: usize) -> io::Result<()> {
        self.0.move_cursor_left(n)
    }

    fn write_line(&self, s: &str) -> io::Result<()> {
        self.0.write_line(s)
    }

    fn write_str(&self, s: &str) -> io::Result<()> {
        self.0.write_str(padding_kept(s))
    }

    fn clear_line(&self) -> io::Result<()> {
        self.0.clear_line()
    }

    fn flush(&self) -> io::Result<()> {
        self.0.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_padding_is_shortened() {
        assert_eq!(padding_kept("          ").len(), 10 - MARGIN);
        assert_eq!(padding_kept("  "), "");
        assert_eq!(padding_kept("3/8 lookups  "), "3/8 lookups  ");
        assert_eq!(padding_kept(""), "");
    }
}
