//! Text from servers, arguments and the environment made safe for a terminal: the
//! one place that decides which characters are shown as escapes.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Shows control characters (C0, DEL, C1) and bidirectional-override characters as
/// escapes, so a server cannot retitle, clear or rearrange the terminal.
pub fn escape_control(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            c if !is_unsafe(c) => out.push(c),
            c if (c as u32) < 0x100 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => out.extend(c.escape_unicode()),
        }
    }
    Cow::Owned(out)
}

/// The most of one text a stderr line shows: a 1 MB description must not flood a log.
pub const MAX_LINE_CHARS: usize = 1000;
/// The most of one value a table cell shows (`--json` and CSV/TSV keep it whole).
pub const MAX_CELL_CHARS: usize = 300;

/// Escaped, and cut after `max` characters with a note of how much was left out
/// (cut first: a huge text is never copied whole).
pub fn escape_cut(text: &str, max: usize) -> Cow<'_, str> {
    let Some((cut_at, _)) = text.char_indices().nth(max) else {
        return escape_control(text);
    };
    let left_out = text[cut_at..].chars().count();
    let shown = escape_control(&text[..cut_at]);
    Cow::Owned(format!("{shown}… ({left_out} more characters)"))
}

/// A value as shown in messages: escaped, and cut so a pasted file cannot flood them.
pub fn preview(text: &str) -> String {
    const MAX_CHARS: usize = 64;
    match text.char_indices().nth(MAX_CHARS) {
        Some((at, _)) => format!("{}…", escape_control(&text[..at])),
        None => escape_control(text).into_owned(),
    }
}

/// Characters shown as escapes: anything a terminal may act on, reorder, or render as
/// nothing (so that two different texts look the same).
pub fn is_unsafe(c: char) -> bool {
    c.is_control() || is_format(c) || is_invisible(c)
}

/// Every Unicode format character (general category Cf, Unicode 15.1).
fn is_format(c: char) -> bool {
    matches!(
        c,
        '\u{00ad}'
            | '\u{0600}'..='\u{0605}'
            | '\u{061c}'
            | '\u{06dd}'
            | '\u{070f}'
            | '\u{0890}'..='\u{0891}'
            | '\u{08e2}'
            | '\u{180e}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}'
            | '\u{feff}'
            | '\u{fff9}'..='\u{fffb}'
            | '\u{110bd}'
            | '\u{110cd}'
            | '\u{13430}'..='\u{1343f}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0000}'..='\u{e007f}'
    )
}

/// Not format characters, but drawn as nothing or as a line break.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{2028}' | '\u{2029}' | '\u{034f}' | '\u{115f}' | '\u{1160}' | '\u{3164}' | '\u{ffa0}'
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_texts_are_cut_with_a_note() {
        assert_eq!(escape_cut("abc", 3), "abc");
        assert_eq!(escape_cut("abcd\u{1b}", 3), "abc… (2 more characters)");
        assert_eq!(escape_cut("я\u{1b}яя", 2), "я\\x1b… (2 more characters)");
        let huge = "x".repeat(1 << 20);
        assert!(escape_cut(&huge, MAX_LINE_CHARS).len() < MAX_LINE_CHARS + 40);
    }

    #[test]
    fn previews_cut_at_64_characters_and_escape_what_they_keep() {
        assert_eq!(preview("42"), "42");
        let exact = "я".repeat(64);
        assert_eq!(preview(&exact), exact);
        assert_eq!(preview(&format!("{exact}x")), format!("{exact}…"));
        // Escapes count as the one character they stand for.
        let controls = "\u{1b}".repeat(65);
        assert_eq!(preview(&controls), format!("{}…", "\\x1b".repeat(64)));
    }

    #[test]
    fn every_invisible_or_reordering_character_is_escaped() {
        for c in [
            '\u{1b}',
            '\u{7f}',
            '\u{85}',
            '\u{9b}',
            '\u{ad}',
            '\u{200b}',
            '\u{200e}',
            '\u{202e}',
            '\u{2066}',
            '\u{2069}',
            '\u{2064}',
            '\u{feff}',
            '\u{fffb}',
            '\u{e0001}',
            '\u{e0041}',
            '\u{e007f}',
            '\u{115f}',
            '\u{3164}',
            '\u{034f}',
            '\u{2028}',
            '\u{180e}',
            '\u{1d173}',
        ] {
            assert!(is_unsafe(c), "{:x}", c as u32);
            assert!(!escape_control(&format!("a{c}b")).contains(c));
        }
        for c in ['a', 'é', 'я', '中', '😀', '\u{fe0f}', '\u{05d0}'] {
            assert!(!is_unsafe(c), "{:x}", c as u32);
        }
        assert_eq!(escape_control("x\u{e0041}"), "x\\u{e0041}");
    }
}
