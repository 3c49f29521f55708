//! `smsstat completions SHELL` and `smsstat man`: generated in memory by `cli::docs`,
//! then written out.

use std::io;

use clap_complete::Shell;

use crate::cli::docs::{completion_script, man_page};
use crate::domain::exit_codes;
use crate::run::error::{print_document, Error};

pub fn completions(shell: Shell) -> Result<u8, Error> {
    emit(Ok(completion_script(shell)))
}

pub fn man() -> Result<u8, Error> {
    emit(man_page())
}

/// Generated into memory first: the generators panic on a write error, and a reader
/// that goes away (`| head`) must not become exit 70.
fn emit(generated: io::Result<Vec<u8>>) -> Result<u8, Error> {
    let bytes = generated.map_err(Error::ManPage)?;
    print_document(&bytes)?;
    Ok(exit_codes::SUCCESS)
}
