//! Process hygiene: a panic is one line and exit 70, not a backtrace full of data.

use std::io::Write;

use crate::domain::exit_codes;

pub fn install() {
    // As Rust itself reads it: unset, empty or "0" means no details.
    let details = std::env::var_os("RUST_BACKTRACE").is_some_and(|v| !v.is_empty() && v != "0");
    if details {
        // The developer asked for details: keep the default report, but still exit 70.
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            default(info);
            std::process::exit(exit_codes::INTERNAL.into());
        }));
        return;
    }
    std::panic::set_hook(Box::new(|info| {
        // The payload may hold data from a server answer: only the location is shown.
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        let _ = writeln!(
            std::io::stderr().lock(),
            "smsstat: internal error{place} (a bug; RUST_BACKTRACE=1 shows details)"
        );
        std::process::exit(exit_codes::INTERNAL.into());
    }));
}
