//! The command line: clap definitions, argv parsing, and the help, man page and
//! completions generated from them. Imports nothing of the crate but `domain`.

pub(crate) mod args;
pub(crate) mod docs;
pub(crate) mod parse;
pub(crate) mod settings;
pub(crate) mod sim_args;
mod values;

pub(crate) use args::*;
