//! Process hygiene: a panic is one line and exit 70, not a backtrace full of data.
//! A panic inside one lookup of a batch (`catching`) fails only that lookup: the
//! others are still printed, and the line is written once for the whole run.

use std::cell::Cell;
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe, Location};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::domain::exit_codes;

thread_local! {
    /// Set while this thread runs code whose panic is caught (`catching`).
    static CAUGHT: Cell<bool> = const { Cell::new(false) };
}

/// Whether a caught panic was already told on stderr.
static TOLD: AtomicBool = AtomicBool::new(false);

pub fn install() {
    // As Rust itself reads it: unset, empty or "0" means no details.
    let details = std::env::var_os("RUST_BACKTRACE").is_some_and(|v| !v.is_empty() && v != "0");
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let caught = CAUGHT.with(Cell::get);
        if caught && TOLD.swap(true, Ordering::SeqCst) {
            // A panic of a lookup: one line for the whole run.
        } else if details {
            // The developer asked for details: the default report, but still exit 70.
            default(info);
        } else {
            // The payload may hold data from a server answer: only the location is shown.
            let at = |l: &Location| format!(" at {}:{}", l.file(), l.line());
            let place = info.location().map(at).unwrap_or_default();
            let _ = writeln!(
                std::io::stderr().lock(),
                "smsstat: internal error{place} (a bug; RUST_BACKTRACE=1 shows details)"
            );
        }
        if !caught {
            std::process::exit(exit_codes::INTERNAL.into());
        }
    }));
}

/// Runs `work`, turning a panic into `Err(())` (the hook has then told it on stderr,
/// once per run) instead of ending the process.
pub fn catching<R>(work: impl FnOnce() -> R) -> Result<R, ()> {
    let was = CAUGHT.with(|c| c.replace(true));
    // Unwind safety: a lookup's state is dropped with it; what it shares (the
    // engine's slots, the client's pool) is behind poison-tolerant locks.
    let result = catch_unwind(AssertUnwindSafe(work));
    CAUGHT.with(|c| c.set(was));
    result.map_err(|_| ())
}
