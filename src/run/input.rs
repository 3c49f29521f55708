//! The values of a batch: command-line arguments and stdin's lines, read lazily (as
//! lookups proceed) so that memory stays flat whatever the input size.

use std::fs::File;
use std::io::{self, BufRead, Read, Seek};
use std::os::fd::AsFd;

use crate::output::progress::STDIN;

/// One value to look up, or a line of stdin that could not be read as one.
pub type Input = Result<String, BadInput>;

/// A stdin line that is not a usable value: how to show it, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadInput {
    pub shown: String,
    pub reason: String,
}

/// Longest stdin line read into memory; the rest of a longer line is skipped, so a
/// runaway input cannot grow memory (values over 1 KiB are refused anyway).
const MAX_LINE: usize = 4 * 1024;

/// What editors on Windows put before UTF-8 text; not part of the first value.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The values of the command line, `-` standing for stdin's lines (trimmed; blank
/// lines and `#` comments skipped). Stdin is read lazily, as lookups proceed; `STDIN`
/// counts the values taken, for the progress bar and the summary of an interrupt.
pub fn inputs(values: Vec<String>) -> impl Iterator<Item = Input> + Send + 'static {
    STDIN.arguments(values.iter().filter(|v| *v != "-").count() as u64);
    let end = std::iter::from_fn(|| {
        STDIN.ended();
        None
    });
    values
        .into_iter()
        .flat_map(|value| -> Box<dyn Iterator<Item = Input> + Send> {
            if value != "-" {
                return Box::new(std::iter::once(Ok(value)));
            }
            STDIN.opened(stdin_file_size());
            let reader = Consumed(io::BufReader::new(io::stdin()));
            Box::new(lines(reader).inspect(|_| STDIN.value()))
        })
        .chain(end)
}

/// The bytes stdin has left, when it is a regular file (only its metadata is read:
/// a read could block on a FIFO or a terminal).
fn stdin_file_size() -> Option<u64> {
    let file = File::from(io::stdin().as_fd().try_clone_to_owned().ok()?);
    let metadata = file.metadata().ok()?;
    if !metadata.is_file() {
        return None;
    }
    // A file already partly read by a command before this one: the rest is ours.
    let at = (&file).stream_position().ok()?;
    Some(metadata.len().saturating_sub(at))
}

/// Stdin, counting the bytes taken from its buffer (not those read ahead).
struct Consumed<R>(R);

impl<R: Read> Read for Consumed<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.0.read(buf)?;
        STDIN.consumed(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Consumed<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.0.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        STDIN.consumed(amount);
        self.0.consume(amount);
    }
}

/// The values of a line reader. A read error (stdin a directory, EIO) is one failure
/// and the end of the input: retrying a broken stream would fail forever.
pub fn lines(reader: impl BufRead + Send) -> impl Iterator<Item = Input> + Send {
    let (mut reader, mut line, mut first) = (Some(reader), Vec::new(), true);
    std::iter::from_fn(move || loop {
        line.clear();
        let cut = match read_line_bounded(reader.as_mut()?, &mut line, MAX_LINE) {
            Ok(None) => return None,
            Ok(Some(cut)) => cut,
            Err(err) => {
                reader = None;
                let (shown, reason) = ("-".into(), format!("cannot read stdin: {err}"));
                return Some(Err(BadInput { shown, reason }));
            }
        };
        if std::mem::take(&mut first) && line.starts_with(BOM) {
            line.drain(..BOM.len());
        }
        if let Some(input) = value_of(&line, cut) {
            return Some(input);
        }
    })
}

/// The value of one line, None for a blank line or a comment, whatever its length.
fn value_of(line: &[u8], cut: Cut) -> Option<Input> {
    let kept = line.trim_ascii_start();
    if kept.starts_with(b"#") || (kept.is_empty() && cut != Cut::Text) {
        return None;
    }
    let reason = match std::str::from_utf8(line) {
        _ if cut != Cut::Whole => format!("stdin line longer than {MAX_LINE} bytes"),
        Ok(text) => {
            let text = text.trim();
            return (!text.is_empty() && !text.starts_with('#')).then(|| Ok(text.to_string()));
        }
        Err(_) => "stdin line is not UTF-8".to_string(),
    };
    let shown = crate::domain::sanitize::preview(String::from_utf8_lossy(line).trim());
    Some(Err(BadInput { shown, reason }))
}

/// What of a line was left out past the bound: nothing, only whitespace, or text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cut {
    Whole,
    Blank,
    Text,
}

/// Reads one line (newline included) into `line`, keeping at most `max` bytes and
/// skipping the rest. `None` at the end of input, else what was left out.
fn read_line_bounded(
    reader: &mut impl BufRead,
    line: &mut Vec<u8>,
    max: usize,
) -> io::Result<Option<Cut>> {
    let room = max.saturating_sub(line.len()) as u64;
    if reader.by_ref().take(room).read_until(b'\n', line)? == 0 {
        return Ok(None);
    }
    let mut cut = Cut::Whole;
    while !line.ends_with(b"\n") {
        let buffer = reader.fill_buf()?;
        if buffer.is_empty() {
            break;
        }
        let end = buffer.iter().position(|&b| b == b'\n');
        let left = &buffer[..end.map_or(buffer.len(), |i| i + 1)];
        cut = match (cut, left.iter().all(u8::is_ascii_whitespace)) {
            (Cut::Text, _) | (_, false) => Cut::Text,
            _ => Cut::Blank,
        };
        let used = left.len();
        reader.consume(used);
        if end.is_some() {
            break;
        }
    }
    Ok(Some(cut))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_and_the_rest_skipped() {
        let mut input = io::Cursor::new(format!("{}\nnext\nlast", "x".repeat(100)));
        let mut line = Vec::new();
        assert_eq!(
            read_line_bounded(&mut input, &mut line, 10).unwrap(),
            Some(Cut::Text)
        );
        assert_eq!(line, b"xxxxxxxxxx");
        line.clear();
        assert_eq!(
            read_line_bounded(&mut input, &mut line, 10).unwrap(),
            Some(Cut::Whole)
        );
        assert_eq!(line, b"next\n");
        line.clear();
        assert_eq!(
            read_line_bounded(&mut input, &mut line, 10).unwrap(),
            Some(Cut::Whole)
        );
        assert_eq!(line, b"last");
        line.clear();
        assert_eq!(read_line_bounded(&mut input, &mut line, 10).unwrap(), None);
    }

    #[test]
    fn comments_and_blank_lines_are_skipped_whatever_their_length() {
        let long = "x".repeat(3 * MAX_LINE);
        let blank = " ".repeat(3 * MAX_LINE);
        let text = format!("# {long}\n   #{long}\n{blank}\n42\n{blank}7\n");
        let read: Vec<Input> = lines(io::Cursor::new(text)).collect();
        assert_eq!(read.len(), 2, "{read:?}");
        assert_eq!(read[0], Ok("42".to_string()));
        // Spaces past the bound, then text: a value too long, not a blank line.
        assert!(read[1].as_ref().unwrap_err().reason.contains("longer than"));
    }

    #[test]
    fn a_bom_before_the_first_value_is_skipped() {
        let read: Vec<Input> =
            lines(io::Cursor::new(b"\xEF\xBB\xBFabc\n\xEF\xBB\xBFdef\n")).collect();
        assert_eq!(read[0], Ok("abc".to_string()));
        // Only at the start of the stream: elsewhere it is part of the line.
        assert_eq!(read[1], Ok("\u{feff}def".to_string()));
    }

    /// A reader failing for ever, as stdin does when it is a directory.
    struct Broken;

    impl io::Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::from_raw_os_error(5))
        }
    }

    #[test]
    fn a_read_error_is_one_failure_and_the_end() {
        let read: Vec<Input> = lines(io::BufReader::new(Broken)).take(10).collect();
        assert_eq!(read.len(), 1, "{read:?}");
        assert!(read[0]
            .as_ref()
            .unwrap_err()
            .reason
            .contains("cannot read stdin"));
    }
}
