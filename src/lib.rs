//! smsstat: status inspector for an SMS gateway's read API.
#![forbid(unsafe_code)]

mod cli;
mod domain;
mod http;
mod output;
mod run;
mod settings;
mod sim;
pub mod testkit;

pub use run::app::main;
