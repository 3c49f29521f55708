//! smsstat: status inspector for an SMS gateway's read API.

pub mod cli;
pub mod config;
pub mod duration;
pub mod endpoint;
pub mod error;
pub mod exit_codes;
pub mod model;
pub mod printer;
pub mod sim;
