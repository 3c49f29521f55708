//! Subcommand handlers, the batch engine, waiting and interrupts: the only layer
//! that sees every other one.

pub(crate) mod app;
pub(crate) mod batch;
pub(crate) mod check;
pub(crate) mod complete;
pub(crate) mod config_show;
pub(crate) mod error;
pub(crate) mod halt;
pub(crate) mod input;
pub(crate) mod interrupt;
pub(crate) mod junit;
pub(crate) mod lookups;
pub(crate) mod panic_hook;
pub(crate) mod problems;
pub(crate) mod side_file;
pub(crate) mod version;
pub(crate) mod wait;
pub(crate) mod worker;
