//! Where the progress bar and the live view draw: stderr, every row stopping
//! `MARGIN` columns short of the terminal's edge. A row drawn to the last column
//! leaves the cursor there, the terminal's `^C` echo at Ctrl-C wraps to a new row,
//! and clearing the drawing then erases one row too low.

use console::{AnsiCodeIterator, Term};
use unicode_width::UnicodeWidthChar;

/// Columns left free at the end of every row: room for `^C` and then some.
const MARGIN: u16 = 4;

const ERASE_TO_END: &str = "\x1b[K";
const ERASE_BELOW: &str = "\x1b[J";

/// Lines drawn at the bottom of stderr and redrawn in place.
pub struct Rows {
    out: Term,
    /// Rows on screen now, the cursor on the last of them.
    drawn: usize,
}

impl Rows {
    /// Stderr, unless it is not a terminal or `TERM` is unset or `dumb` (no cursor
    /// movement known).
    pub fn stderr() -> Option<Rows> {
        let out = Term::buffered_stderr();
        let dumb = std::env::var_os("TERM").is_none_or(|t| t == "dumb");
        (out.is_term() && !dumb).then_some(Rows { out, drawn: 0 })
    }

    /// The columns a line may take, and the rows a drawing may.
    pub fn room(&self) -> (usize, usize) {
        room(self.out.size())
    }

    /// Draws `lines` over what was drawn before; no lines erase it, the cursor left
    /// where the drawing began.
    pub fn draw(&mut self, lines: &[String]) {
        let text = self.drawing(lines, self.room().0);
        // A terminal that cannot be written to only loses the drawing.
        let _ = self.out.write_str(&text).and_then(|()| self.out.flush());
    }

    /// What `draw` writes: up to the start of the drawing's first row, then the lines.
    fn drawing(&mut self, lines: &[String], width: usize) -> String {
        if lines.is_empty() && self.drawn == 0 {
            return String::new();
        }
        let mut text = match self.drawn {
            0 | 1 => "\r".to_string(),
            n => format!("\x1b[{}A\r", n - 1),
        };
        self.drawn = 0;
        for line in lines {
            if self.drawn > 0 {
                text.push_str("\r\n");
            }
            let (broken, taken) = rows_of(line, width);
            text.push_str(&broken);
            text.push_str(ERASE_TO_END);
            self.drawn += taken;
        }
        text + ERASE_BELOW
    }
}

/// The room in a terminal of `(rows, columns)`: one row is left for the cursor's,
/// or the top of the drawing would scroll out of reach.
fn room((rows, columns): (u16, u16)) -> (usize, usize) {
    let (width, height) = (columns.saturating_sub(MARGIN), rows.saturating_sub(1));
    (usize::from(width.max(1)), usize::from(height.max(1)))
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

#[cfg(test)]
mod tests {
    use super::*;

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
        // Not written: stderr may be the terminal running the tests.
        let mut rows = Rows {
            out: Term::buffered_stderr(),
            drawn: 0,
        };
        let (width, height) = room((24, 7));
        assert_eq!((width, height), (3, 23));
        let mut drawing = |lines: &[&str]| {
            let lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            rows.drawing(&lines, width)
        };
        assert_eq!(drawing(&[]), "");
        assert_eq!(
            drawing(&["abcd", "e"]),
            "\rabc\x1b[K\r\nd\x1b[K\r\ne\x1b[K\x1b[J"
        );
        assert_eq!(drawing(&["f"]), "\x1b[2A\rf\x1b[K\x1b[J");
        assert_eq!(drawing(&[]), "\r\x1b[J");
        assert_eq!(drawing(&[]), "");
        // A line as wide as the width still ends its row.
        let lines = ["0123456789abcdef".to_string(), "x".into()];
        assert_eq!(
            rows.drawing(&lines, room((24, 20)).0),
            "\r0123456789abcdef\x1b[K\r\nx\x1b[K\x1b[J"
        );
    }

    #[test]
    fn a_terminal_narrower_than_the_margin_still_draws() {
        assert_eq!(room((24, 3)).0, 1);
    }
}
