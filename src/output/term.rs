//! Where the progress bar and the live view draw: stderr, every row stopping a few
//! columns short of the terminal's edge.
//!
//! indicatif ends each line it draws with spaces up to the width, which leaves the
//! cursor in the last column: the next line's first character wraps to the next row,
//! and that is how a multi-line view (the live view) gets one row per line. The same
//! full rows hurt at Ctrl-C: the terminal's own `^C` echo wraps to a new row, and
//! clearing the drawing then erases one row too low, leaving its first row on screen.
//!
//! So this terminal tells indicatif a width `MARGIN` columns short of the real one,
//! and draws each line itself: a line's padding becomes "erase to the end of the row",
//! the next line starts after an explicit `\r\n`, and a line longer than the width is
//! broken where indicatif counts its rows to break (its own rule, character widths
//! included), so the rows drawn are the rows indicatif moves the cursor over. No row
//! reaches the last columns, whatever the width or the line: `^C` lands on the row the
//! cursor is on, inside the drawing, and clearing the drawing erases it.
//!
//! The live view draws without indicatif (`Rows`), by the same rules.

use std::io;
use std::sync::Mutex;

use console::{AnsiCodeIterator, Term};
use indicatif::{ProgressDrawTarget, TermLike};
use unicode_width::UnicodeWidthChar;

/// Columns left free at the end of every row: room for `^C` and then some.
const MARGIN: u16 = 4;

/// Redraws per second, indicatif's own default for stderr.
const REFRESH_HZ: u8 = 20;

/// Erase from the cursor to the end of the row (the cursor stays).
const ERASE_TO_END: &str = "\x1b[K";

/// Erase from the cursor to the end of the screen.
const ERASE_BELOW: &str = "\x1b[J";

/// Stderr as a draw target, hidden when it cannot be drawn on.
pub fn stderr_target() -> ProgressDrawTarget {
    match drawable_stderr() {
        Some(term) => {
            ProgressDrawTarget::term_like_with_hz(Box::new(Margined::new(term)), REFRESH_HZ)
        }
        None => ProgressDrawTarget::hidden(),
    }
}

/// Stderr, unless it is not a terminal or `TERM` is unset or `dumb` (no cursor
/// movement known), as indicatif's own stderr target decides.
fn drawable_stderr() -> Option<Term> {
    let term = Term::buffered_stderr();
    let dumb = std::env::var_os("TERM").is_none_or(|t| t == "dumb");
    (term.is_term() && !dumb).then_some(term)
}

/// The columns a line drawn on stderr may take: the width less the margin.
pub fn stderr_line_width() -> usize {
    usize::from(Term::stderr().size().1.saturating_sub(MARGIN).max(1))
}

/// Lines drawn at the bottom of stderr and redrawn in place, as `Margined` draws
/// them: no row reaches the margin, and the cursor stays after the last line's text.
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

/// Where indicatif is in a draw: it writes, after moving the cursor to the drawing's
/// first row (and perhaps a `\r`), each line's text and then that line's padding.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Step {
    /// At the start of a row: the drawing's first, or one cleared.
    RowStart,
    /// A line's text was written; its padding comes next.
    Text,
    /// A line is done, the cursor after its text: another line goes on the next row.
    LineDone,
}

/// A terminal whose rows stop `MARGIN` columns short of the edge.
#[derive(Debug)]
struct Margined<W = Term> {
    out: W,
    step: Mutex<Step>,
}

/// What `Margined` and `Rows` write to and measure: the terminal (a string in unit
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

impl<W: Out> Margined<W> {
    fn new(out: W) -> Margined<W> {
        Margined {
            out,
            step: Mutex::new(Step::RowStart),
        }
    }

    /// The width a line may take: the terminal's, less the margin (one at least).
    fn line_width(&self) -> u16 {
        self.out.size().0.saturating_sub(MARGIN).max(1)
    }

    fn set_step(&self, step: Step) {
        *self.step.lock().unwrap_or_else(|e| e.into_inner()) = step;
    }

    /// Writes a cursor movement or an erasure: the cursor is no longer after a line.
    fn moving(&self, ansi: &str) -> io::Result<()> {
        self.set_step(Step::RowStart);
        self.out.write(ansi)
    }
}

/// `line` broken into rows of at most `width` columns, each row's rest erased, and
/// how many rows: where indicatif's own count of a line's rows breaks it (a character
/// that does not fit goes to the next row, a wide one included; control characters
/// take no room).
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

impl<W: Out> TermLike for Margined<W> {
    fn width(&self) -> u16 {
        self.line_width()
    }

    fn height(&self) -> u16 {
        self.out.size().1
    }

    fn move_cursor_up(&self, n: usize) -> io::Result<()> {
        self.moving(&ansi_move(n, 'A'))
    }

    fn move_cursor_down(&self, n: usize) -> io::Result<()> {
        self.moving(&ansi_move(n, 'B'))
    }

    fn move_cursor_right(&self, n: usize) -> io::Result<()> {
        self.moving(&ansi_move(n, 'C'))
    }

    fn move_cursor_left(&self, n: usize) -> io::Result<()> {
        self.moving(&ansi_move(n, 'D'))
    }

    fn write_line(&self, s: &str) -> io::Result<()> {
        self.set_step(Step::RowStart);
        self.out.write(&format!("{s}\n"))
    }

    fn write_str(&self, s: &str) -> io::Result<()> {
        let mut step = self.step.lock().unwrap_or_else(|e| e.into_inner());
        match *step {
            // The padding of the line just written: the rest of its row erased,
            // the cursor left after the text.
            Step::Text => {
                *step = Step::LineDone;
                self.out.write(ERASE_TO_END)
            }
            // The `\r` written after moving to the drawing's first row.
            Step::RowStart if s == "\r" => self.out.write(s),
            Step::RowStart => {
                *step = Step::Text;
                self.out
                    .write(&rows_of(s, usize::from(self.line_width())).0)
            }
            Step::LineDone => {
                *step = Step::Text;
                let (rows, _) = rows_of(s, usize::from(self.line_width()));
                self.out.write(&format!("\r\n{rows}"))
            }
        }
    }

    fn clear_line(&self) -> io::Result<()> {
        self.moving("\r\x1b[2K")
    }

    fn flush(&self) -> io::Result<()> {
        self.out.flush()
    }
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

    fn margined(columns: u16) -> Margined<Written> {
        Margined::new(Written {
            columns,
            text: Mutex::default(),
        })
    }

    fn written(term: &Margined<Written>) -> String {
        std::mem::take(&mut term.out.text.lock().unwrap())
    }

    /// What indicatif writes for a draw of `lines`: the move to the first row of the
    /// last draw's `rows`, then each line and its padding.
    fn draw(term: &Margined<Written>, rows: usize, lines: &[&str]) {
        term.move_cursor_up(rows.saturating_sub(1)).unwrap();
        term.write_str("\r").unwrap();
        let width = usize::from(term.width());
        for line in lines {
            term.write_str(line).unwrap();
            // The columns taken on the line's last row: the padding fills the rest.
            let last = match line.chars().count() {
                0 => 0,
                n => (n - 1) % width + 1,
            };
            term.write_str(&" ".repeat(width - last)).unwrap();
        }
    }

    #[test]
    fn lines_go_on_rows_of_their_own_with_the_rest_erased() {
        let term = margined(20);
        assert_eq!(term.width(), 16);
        draw(&term, 0, &["a", "bb", "ccc"]);
        assert_eq!(written(&term), "\ra\x1b[K\r\nbb\x1b[K\r\nccc\x1b[K");
        draw(&term, 3, &["a", "bb"]);
        assert_eq!(written(&term), "\x1b[2A\ra\x1b[K\r\nbb\x1b[K");
    }

    #[test]
    fn a_line_as_wide_as_the_width_still_ends_its_row() {
        let term = margined(20);
        draw(&term, 0, &["0123456789abcdef", "x"]);
        assert_eq!(written(&term), "\r0123456789abcdef\x1b[K\r\nx\x1b[K");
    }

    #[test]
    fn a_long_line_breaks_where_indicatif_counts_its_rows() {
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
        let mut rows = Rows {
            out: Written {
                columns: 7,
                text: Mutex::default(),
            },
            drawn: 0,
        };
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
    }

    #[test]
    fn a_cleared_row_starts_over() {
        let term = margined(20);
        draw(&term, 0, &["a"]);
        written(&term);
        term.clear_line().unwrap();
        term.write_str("b").unwrap();
        term.write_str("  ").unwrap();
        assert_eq!(written(&term), "\r\x1b[2Kb\x1b[K");
    }

    #[test]
    fn a_terminal_narrower_than_the_margin_still_draws() {
        assert_eq!(margined(3).width(), 1);
    }
}
