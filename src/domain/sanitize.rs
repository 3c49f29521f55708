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
        if is_unsafe(c) {
            if (c as u32) < 0x100 {
                let _ = write!(out, "\\x{:02x}", c as u32);
            } else {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A value as shown in messages: escaped, and cut to a readable length (a pasted
/// file must not flood the terminal).
pub fn preview(text: &str) -> String {
    const MAX_CHARS: usize = 64;
    let mut shown: String = text.chars().take(MAX_CHARS).collect();
    if text.chars().nth(MAX_CHARS).is_some() {
        shown.push('…');
    }
    escape_control(&shown).into_owned()
}

pub fn is_unsafe(c: char) -> bool {
    c.is_control() || is_bidi_control(c)
}

/// Bidirectional controls, and invisible characters that can hide or split text
/// (zero-width space and joiners, line/paragraph separators, byte-order mark).
fn is_bidi_control(c: char) -> bool {
    is_invisible(c) || is_direction_control(c)
}

fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{200b}'..='\u{200d}' | '\u{2028}' | '\u{2029}' | '\u{2060}' | '\u{feff}'
    )
}

fn is_direction_control(c: char) -> bool {
    matches!(c, '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}
