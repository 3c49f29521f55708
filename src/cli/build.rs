//! What the build script (`build.rs`) found: the line `--version` prints and the
//! facts of `smsstat version`. Constants compiled in, so nothing runs at start-up.

/// `0.1.0 (c23ae04e5f)`, `0.1.0 (c23ae04e5f-dirty)` or `0.1.0 (commit unknown)`.
pub const VERSION_LINE: &str = env!("BUILD_VERSION_LINE");

pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The UTC date of the build (`SOURCE_DATE_EPOCH`'s when set), YYYY-MM-DD.
pub const DATE: &str = env!("BUILD_DATE");
pub const TARGET: &str = env!("BUILD_TARGET");
/// `static` for a binary with the C library linked in (`+crt-static`), else `dynamic`.
pub const LINKING: &str = env!("BUILD_LINKING");
pub const RUSTC: &str = env!("BUILD_RUSTC");
/// The TLS library and its crypto provider, as locked: `rustls 0.23.31 (ring 0.17.14)`.
pub const TLS: &str = env!("BUILD_TLS");

/// The full commit hash; None when built without git's or cargo's record of it.
pub fn commit() -> Option<&'static str> {
    Some(env!("BUILD_COMMIT")).filter(|hash| !hash.is_empty())
}

/// Whether tracked files differed from the commit; None when not known.
pub fn dirty() -> Option<bool> {
    env!("BUILD_DIRTY").parse().ok()
}
