//! smsstat: status inspector for an SMS gateway's read API.

pub mod app;
pub mod batch;
pub mod cli;
pub mod client;
pub mod config;
pub mod delimited;
pub mod display;
pub mod duration;
pub mod endpoint;
pub mod error;
pub mod exit_codes;
pub mod hygiene;
pub mod json_out;
pub mod model;
pub mod parse;
pub mod printer;
pub mod retry;
pub mod sim;
pub mod summary;
pub mod table;
