//! A deliberate panic in a lookup, to test the panic hook on the real binary.

/// For developers only (tests/it/hostile.rs uses it): `SMSSTAT_DEBUG_PANIC=1` makes every
/// lookup panic on its worker thread, `SMSSTAT_DEBUG_PANIC=VALUE` only the lookup of
/// VALUE, so the panic hook can be tested on the real binary. Not in `--help`: it is
/// no use to anyone else.
#[cfg(debug_assertions)]
pub fn requested() -> Option<String> {
    std::env::var("SMSSTAT_DEBUG_PANIC")
        .ok()
        .filter(|v| !v.is_empty())
}

/// Release builds ship no panic trigger.
#[cfg(not(debug_assertions))]
pub fn requested() -> Option<String> {
    None
}
