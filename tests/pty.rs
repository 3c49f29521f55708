//! The progress bar, the live view, Ctrl-C and typed values on a real terminal (a
//! pseudo-terminal): what a person sees, byte for byte and as the screen shows it.

mod common;

use common::screen::Screen;

#[test]
fn the_screen_follows_wraps_moves_and_erasures() {
    let screen = Screen::after(b"abcd^C\r\n\x1b[1Axy\x1b[2K\r12\nz", 4);
    assert_eq!(screen.lines(), ["abcd", "12", "  z"]);
}
