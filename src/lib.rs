//! smsstat: status inspector for an SMS gateway's read API.
#![forbid(unsafe_code)]

// Signals (exit 129/130/143), file modes and poll(2) on stdout are part of the
// contract; the release targets Linux.
#[cfg(not(unix))]
compile_error!("smsstat is built for Unix-like systems (Linux, macOS)");

mod cli;
mod domain;
mod http;
mod output;
mod run;
mod settings;
mod sim;
pub mod testkit;

pub use run::app::main;
