//! `smsstat completions SHELL` and `smsstat man`: generated in memory by `cli::docs`,
//! then written out.

use std::io::{self, Write};

use clap_complete::Shell;

use crate::cli::docs::{completion_script, man_page};
use crate::domain::exit_codes;
use crate::output::messages::error;

pub fn completions(shell: Shell) -> u8 {
    emit(Ok(completion_script(shell)))
}

pub fn man() -> u8 {
    emit(man_page())
}

/// Generated into memory first: the generators panic on a write error, and a reader
/// that goes away (`| head`) must not become exit 70.
fn emit(generated: io::Result<Vec<u8>>) -> u8 {
    match generated {
        Ok(bytes) => {
            let _ = io::stdout().lock().write_all(&bytes);
            exit_codes::SUCCESS
        }
        Err(err) => {
            error(format_args!("cannot render the man page: {err}"));
            exit_codes::INTERNAL
        }
    }
}
