//! Ctrl-C, SIGTERM and SIGHUP (what `timeout`, CI cancellation and `docker stop`
//! send): the first one stops new lookups and lets the finished ones print; a second
//! one ends the process at once. The exit code tells which signal came: 128 + its
//! number (130 SIGINT, 143 SIGTERM, 129 SIGHUP).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::flag;

use crate::domain::exit_codes;

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
/// The number of the signal that stopped the run (0: none).
static SIGNAL: AtomicUsize = AtomicUsize::new(0);

const SIGNALS: &[i32] = &[SIGINT, SIGTERM, SIGHUP];

/// The flag raised by a stopping signal, installing the handlers on first use.
pub(crate) fn interrupt_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    Arc::clone(FLAG.get_or_init(|| {
        let stop = Arc::new(AtomicBool::new(false));
        for &signal in SIGNALS {
            // Order matters: the shutdown action sees the state before this signal's
            // own flag is set, so only a second signal ends the process at once.
            let _ = flag::register_conditional_shutdown(signal, 128 + signal, &INTERRUPTED);
            let first = flag::register_usize(signal, &SIGNAL, signal as usize);
            let _ = first.and_then(|_| flag::register(signal, &INTERRUPTED));
            let _ = flag::register(signal, Arc::clone(&stop));
        }
        stop
    }))
}

pub(crate) fn was_interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

pub(crate) fn exit_code() -> u8 {
    match SIGNAL.load(Ordering::SeqCst) {
        signal @ 1..=127 => 128 + signal as u8,
        _ => exit_codes::INTERRUPTED,
    }
}
