//! Text fitted to a terminal's width for people: broken at spaces only, never inside a
//! word, so a path or a URL stays whole (and can be copied) wherever it falls.

use unicode_width::UnicodeWidthStr;

/// Where a word too long to follow the indent goes: a line of its own, this far in
/// (clear of a first column of names, with the most room for the word).
const LONG_WORD_INDENT: usize = 2;

/// `text` continued from column `indent` (the caller writes the first line's indent)
/// and broken at spaces so that no line passes `width`, further lines `indent` in.
/// A word too long for that gets a line of its own, `LONG_WORD_INDENT` in.
pub fn hanging(text: &str, indent: usize, width: usize) -> String {
    let mut out = String::with_capacity(text.len());
    // The column the current line reaches: `width` after a long word, which nothing
    // follows; None before the first word.
    let mut column: Option<usize> = None;
    for word in text.split(' ') {
        let taken = word.width();
        if let Some(at) = column.filter(|at| at + 1 + taken <= width) {
            out.push(' ');
            column = Some(at + 1 + taken);
        } else if indent + taken <= width {
            // The first line's indent is the caller's.
            if column.is_some() {
                out.push('\n');
                out.push_str(&" ".repeat(indent));
            }
            column = Some(indent + taken);
        } else {
            // A line of its own (the caller's first line is left with its name alone).
            out.push('\n');
            out.push_str(&" ".repeat(LONG_WORD_INDENT));
            column = Some(width);
        }
        out.push_str(word);
    }
    out
}

/// `hanging` for a list (`a, b, c`): broken only between its items, each kept whole (an
/// item holds spaces); one too long for a line of its own is broken as `hanging` does.
pub fn hanging_list(text: &str, indent: usize, width: usize) -> String {
    let items: Vec<&str> = text.split(", ").collect();
    let mut out = String::with_capacity(text.len());
    let mut column = indent;
    for (i, item) in items.iter().enumerate() {
        let item = match i + 1 < items.len() {
            true => format!("{item},"),
            false => item.to_string(),
        };
        let taken = item.width();
        if i > 0 && column + 1 + taken <= width {
            out.push(' ');
            column += 1;
        } else if i > 0 {
            out.push('\n');
            out.push_str(&" ".repeat(indent));
            column = indent;
        }
        match column + taken <= width {
            true => out.push_str(&item),
            false => out.push_str(&hanging(&item, indent, width)),
        }
        // After an item broken over lines, the next one starts a line.
        column = (column + taken).min(width);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_left_alone() {
        assert_eq!(hanging("flag --config", 16, 80), "flag --config");
    }

    #[test]
    fn text_breaks_at_spaces_under_the_indent() {
        assert_eq!(
            hanging("one two three four", 4, 14),
            "one two\n    three four"
        );
    }

    #[test]
    fn a_word_too_long_for_the_indent_gets_a_line_of_its_own() {
        let path = "/a/very/long/path/to/config.toml";
        assert_eq!(
            hanging(&format!("file {path} here"), 10, 36),
            format!("file\n  {path}\n          here")
        );
        // First, it leaves the caller's line with its name alone.
        assert_eq!(hanging(path, 10, 36), format!("\n  {path}"));
        // Longer than the whole width: still whole.
        assert_eq!(hanging(path, 10, 20), format!("\n  {path}"));
    }

    #[test]
    fn a_list_breaks_between_its_items_only() {
        let list = "3 (enroute since 2026-11-01 10:00:00), 7 (enroute since 2026-11-01 10:05:00)";
        assert_eq!(
            hanging_list(list, 22, 80),
            "3 (enroute since 2026-11-01 10:00:00),\n                      \
             7 (enroute since 2026-11-01 10:05:00)"
        );
        assert_eq!(hanging_list("a, b, c", 2, 80), "a, b, c");
        assert_eq!(hanging_list("aa, bb, cc", 2, 9), "aa, bb,\n  cc");
        // An item longer than a line: at its spaces.
        assert_eq!(hanging_list("x, aaa bbb ccc", 2, 9), "x,\n  aaa bbb\n  ccc");
    }

    #[test]
    fn wide_characters_count_twice() {
        assert_eq!(hanging("日本 語", 0, 5), "日本\n語");
    }
}
