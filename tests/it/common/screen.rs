//! What a terminal shows after some bytes: enough of a VT100 to tell what the
//! progress bar, the live view and Ctrl-C leave on screen. Printing wraps as xterm
//! does (a character in the last column leaves the cursor there until the next one),
//! and the cursor moves and erasures the progress bar and live view use are followed.

/// A screen `cols` wide with no bottom (nothing scrolls away).
pub struct Screen {
    cols: usize,
    lines: Vec<Vec<char>>,
    row: usize,
    col: usize,
    /// The last column was written: the next character goes to the next line.
    wrap_pending: bool,
}

impl Screen {
    /// The screen after `bytes` (UTF-8, as the binary writes), starting empty.
    pub fn after(bytes: &[u8], cols: usize) -> Screen {
        let mut screen = Screen {
            cols,
            lines: vec![Vec::new()],
            row: 0,
            col: 0,
            wrap_pending: false,
        };
        let text = String::from_utf8_lossy(bytes);
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\x1b' => screen.escape(&mut chars),
                '\r' => screen.move_to_column(0),
                '\n' => screen.move_to_row(screen.row + 1),
                '\x08' => screen.move_to_column(screen.col.saturating_sub(1)),
                c if c.is_control() => {}
                c => screen.put(c),
            }
        }
        screen
    }

    /// The lines shown, trailing spaces and trailing empty lines left out.
    pub fn lines(&self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .lines
            .iter()
            .map(|l| l.iter().collect::<String>().trim_end().to_string())
            .collect();
        while lines.last().is_some_and(|l| l.is_empty()) {
            lines.pop();
        }
        lines
    }

    fn put(&mut self, c: char) {
        if self.wrap_pending {
            self.move_to_row(self.row + 1);
            self.col = 0;
        }
        let line = &mut self.lines[self.row];
        if line.len() <= self.col {
            line.resize(self.col + 1, ' ');
        }
        line[self.col] = c;
        if self.col + 1 == self.cols {
            self.wrap_pending = true;
        } else {
            self.col += 1;
        }
    }

    fn move_to_row(&mut self, row: usize) {
        self.row = row;
        if self.lines.len() <= row {
            self.lines.resize(row + 1, Vec::new());
        }
        self.wrap_pending = false;
    }

    fn move_to_column(&mut self, col: usize) {
        self.col = col.min(self.cols - 1);
        self.wrap_pending = false;
    }

    /// An escape sequence: CSI ones are followed, others (ESC 7, ESC 8, ...) skipped.
    fn escape(&mut self, chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
        if chars.next_if_eq(&'[').is_none() {
            chars.next();
            return;
        }
        let mut params = String::new();
        let Some(last) = chars.find(|c| {
            let done = ('@'..='~').contains(c);
            if !done {
                params.push(*c);
            }
            done
        }) else {
            return;
        };
        let n = params.parse::<usize>().unwrap_or(0);
        let count = n.max(1);
        match last {
            'A' => self.move_to_row(self.row.saturating_sub(count)),
            'B' => self.move_to_row(self.row + count),
            'C' => self.move_to_column(self.col + count),
            'D' => self.move_to_column(self.col.saturating_sub(count)),
            'G' => self.move_to_column(count - 1),
            'K' => self.erase_in_line(n),
            'J' if n == 0 => {
                self.erase_in_line(0);
                self.lines.truncate(self.row + 1);
            }
            // Colours, cursor visibility and the rest change nothing shown here.
            _ => {}
        }
    }

    fn erase_in_line(&mut self, mode: usize) {
        let col = self.col;
        let line = &mut self.lines[self.row];
        match mode {
            0 => line.truncate(col),
            1 => line.iter_mut().take(col + 1).for_each(|c| *c = ' '),
            _ => line.clear(),
        }
    }
}
