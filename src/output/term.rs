//! Where the progress bar and the live view draw: stderr, every row stopping a few
//! columns short of the terminal's edge.
//!
//! A row drawn to the last column leaves the cursor there: the terminal's own `^C`
//! echo at Ctrl-C then wraps to a new row, and clearing the drawing erases one row
//! too low, leaving its first row on screen. So no row reaches the last `MARGIN`
//! columns, whatever the width or the line (a longer line is broken into rows), and
//! the cursor stays after the last line's text: `^C` lands on the row the cursor is
//! on, inside the drawing, and clearing the drawing erases it.

use std::io;

use console::{AnsiCodeIterator, Term};
use unicode_width::UnicodeWidthChar;

/// Columns left free at the end of every row: room for `^C` and then some.
const MARGIN: u16 = 4;

/// Erase from the cursor to the end of the row (the cursor stays).
const ERASE_TO_END: &str = "\x1b[K";

/// Erase from the cursor to the end of the screen.
const ERASE_BELOW: &str = "\x1b[J";

/// Stderr, unless it is not a terminal or `TERM` is unset or `dumb` (no cursor
/// movement known).
fn drawable_stderr() -> Option<Term> {
    let term = Term::buffered_stderr();
    let dumb = std::env::var_os("TERM").is_none_or(|t| t == "dumb");
    (term.is_term() && !dumb).then_some(term)
}

/// Lines drawn at the bottom of stderr and redrawn in place: no row reaches the
/// margin, and the cursor stays after the last line's text.
pub struct Rows<W = Term> {
    out: W,
    /// Rows on screen now, the cursor on the last of them.
    drawn: usize,
}

impl Rows {
    /// Stderr, None when it cannot be drawn on.
    pub fn stderr() -> Option<Rows> {
        drawable_stderr().map(|out| Rows { out, drawn: 0 })
    }
}

impl<W: Out> Rows<W> {
    /// The columns a line may take, and the rows a drawing may: one row is left for
    /// the cursor's, or the top of the drawing would scroll out of reach.
    pub fn room(&self) -> (usize, usize) {
        let (columns, rows) = self.out.size();
        let width = columns.saturating_sub(MARGIN).max(1);
        (
            usize::from(width),
            usize::from(rows.saturating_sub(1).max(1)),
        )
    }

    /// Draws `lines` over what was drawn before (nothing for no lines).
    pub fn draw(&mut self, lines: &[String]) {
        if lines.is_empty() && self.drawn == 0 {
            return;
        }
        let width = self.room().0;
        let mut text = self.to_top();
        let mut rows = 0;
        for line in lines {
            if rows > 0 {
                text.push_str("\r\n");
            }
            let (broken, taken) = rows_of(line, width);
            text.push_str(&broken);
            text.push_str(ERASE_TO_END);
            rows += taken;
        }
        text.push_str(ERASE_BELOW);
        self.drawn = rows;
        self.write(&text);
    }

    /// Erases what was drawn; the cursor is left where the drawing began.
    pub fn clear(&mut self) {
        if self.drawn > 0 {
            let text = format!("{}{ERASE_BELOW}", self.to_top());
            self.drawn = 0;
            self.write(&text);
        }
    }

    /// The way to the start of the drawing's first row.
    fn to_top(&self) -> String {
        format!("{}\r", ansi_move(self.drawn.saturating_sub(1), 'A'))
    }

    /// A terminal that cannot be written to only loses the drawing.
    fn write(&self, text: &str) {
        let _ = self.out.write(text).and_then(|()| self.out.flush());
    }
}

/// What `Rows` writes to and measures: the terminal (a string in unit
/// tests).
pub trait Out: std::fmt::Debug + Send + Sync {
    /// Columns and rows.
    fn size(&self) -> (u16, u16);
    fn write(&self, s: &str) -> io::Result<()>;
    fn flush(&self) -> io::Result<()>;
}

impl Out for Term {
    fn size(&self) -> (u16, u16) {
        let (rows, columns) = Term::size(self);
        (columns, rows)
    }

    fn write(&self, s: &str) -> io::Result<()> {
        self.write_str(s)
    }

    fn flush(&self) -> io::Result<()> {
        Term::flush(self)
    }
}

/// `line` broken into rows of at most `width` columns, each row's rest erased, and
/// how many rows: a character that does not fit goes to the next row, a wide one
/// included; control characters take no room.
pub fn rows_of(line: &str, width: usize) -> (String, usize) {
    let mut out = String::with_capacity(line.len());
    let mut column = 0;
    let mut rows = 1;
    for (part, is_ansi) in AnsiCodeIterator::new(line) {
        if is_ansi {
            out.push_str(part);
            continue;
        }
        for c in part.chars() {
            let Some(taken) = c.width() else {
                out.push(c);
                continue;
            };
            column += taken;
            if column > width {
                out.push_str(ERASE_TO_END);
                out.push_str("\r\n");
                column = taken;
                rows += 1;
            }
            out.push(c);
        }
    }
    (out, rows)
}

/// A cursor movement by `n` (nothing for 0), as console writes it.
fn ansi_move(n: usize, direction: char) -> String {
    match n {
        0 => String::new(),
        n => format!("\x1b[{n}{direction}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// A terminal of `columns` that keeps what is written.
    #[derive(Debug)]
    struct Written {
        columns: u16,
        text: Mutex<String>,
    }

    impl Out for Written {
        fn size(&self) -> (u16, u16) {
            (self.columns, 24)
        }

        fn write(&self, s: &str) -> io::Result<()> {
            self.text.lock().unwrap().push_str(s);
            Ok(())
        }

        fn flush(&self) -> io::Result<()> {
            Ok(())
        }
    }

    fn rows(columns: u16) -> Rows<Written> {
        let out = Written {
            columns,
            text: Mutex::default(),
        };
        Rows { out, drawn: 0 }
    }

    #[test]
    fn a_long_line_breaks_where_the_terminal_wraps() {
        let rows = |line| rows_of(line, 3);
        assert_eq!(rows("abcdefgh"), ("abc\x1b[K\r\ndef\x1b[K\r\ngh".into(), 3));
        assert_eq!(rows("abc"), ("abc".into(), 1));
        // A wide character that does not fit goes whole to the next row.
        assert_eq!(rows("ab漢c"), ("ab\x1b[K\r\n漢c".into(), 2));
        // Colours take no room.
        assert_eq!(
            rows("\x1b[31mabcd\x1b[0m"),
            ("\x1b[31mabc\x1b[K\r\nd\x1b[0m".into(), 2)
        );
    }

    #[test]
    fn rows_are_drawn_over_the_last_drawing_and_cleared() {
        let mut rows = rows(7);
        let taken = |rows: &Rows<Written>| std::mem::take(&mut *rows.out.text.lock().unwrap());
        assert_eq!(rows.room(), (3, 23));
        rows.draw(&[]);
        assert_eq!(taken(&rows), "");
        rows.draw(&["abcd".into(), "e".into()]);
        assert_eq!(taken(&rows), "\rabc\x1b[K\r\nd\x1b[K\r\ne\x1b[K\x1b[J");
        rows.draw(&["f".into()]);
        assert_eq!(taken(&rows), "\x1b[2A\rf\x1b[K\x1b[J");
        rows.clear();
        assert_eq!(taken(&rows), "\r\x1b[J");
        rows.clear();
        assert_eq!(taken(&rows), "");
        // A line as wide as the width still ends its row.
        let mut rows = self::rows(20);
        rows.draw(&["0123456789abcdef".into(), "x".into()]);
        assert_eq!(taken(&rows), "\r0123456789abcdef\x1b[K\r\nx\x1b[K\x1b[J");
    }

    #[test]
    fn a_terminal_narrower_than_the_margin_still_draws() {
        assert_eq!(rows(3).room().0, 1);
    }
}
