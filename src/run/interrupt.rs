//! Ctrl-C: the first press stops new lookups and lets the finished ones print; a
//! second press ends the process at once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use crate::domain::exit_codes;

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The flag raised by Ctrl-C, installing the handler on first use.
pub(crate) fn interrupt_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    Arc::clone(FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let handler_flag = Arc::clone(&flag);
        let _ = ctrlc::set_handler(move || {
            if INTERRUPTED.swap(true, Ordering::SeqCst) {
                std::process::exit(exit_codes::INTERRUPTED.into());
            }
            handler_flag.store(true, Ordering::SeqCst);
        });
        flag
    }))
}

/// Whether Ctrl-C was pressed.
pub(crate) fn was_interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}
