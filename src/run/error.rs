//! The run's own failure, which `app::main` alone tells (one stderr line) and ends
//! with (its exit code). A lookup that fails is not one: a batch's failed lookups are
//! lines of its output, and the batch's exit code says them (`Ok`).

use std::io;
use std::net::SocketAddr;
use std::path::PathBuf;

use thiserror::Error;

use crate::domain::error::{ConfigError, SettingsError};
use crate::domain::exit_codes;

#[derive(Debug, Error)]
pub(crate) enum Error {
    /// Options that do not go together, or a field name no record has (64).
    #[error("{0}")]
    Usage(String),

    /// Settings that cannot be resolved: a bad flag or variable (64), the rest (78).
    #[error(transparent)]
    Settings(#[from] SettingsError),

    /// Resolved settings that could not run a lookup, as `config show` finds them.
    #[error(transparent)]
    Config(#[from] ConfigError),

    /// `--demo` serves from this process; without its simulator there is nothing
    /// to look up (70).
    #[error("cannot start the demo simulator: {0}")]
    Demo(io::Error),

    /// The `--junit` file could not be created (78). One that cannot be finished is
    /// a line of the batch's output instead: the lookups' exit code stands.
    #[error("cannot write the JUnit file {}: {source}", path.display())]
    Junit { path: PathBuf, source: io::Error },

    #[error("cannot render the man page: {0}")]
    ManPage(io::Error),

    /// clap checks every `sim` option already; this is the simulator's own guard (64).
    #[error("sim: {0}")]
    SimOption(io::Error),

    #[error("sim: cannot serve on {listen}: {source}")]
    SimServe {
        listen: SocketAddr,
        source: io::Error,
    },
}

impl Error {
    pub(crate) fn exit_code(&self) -> u8 {
        match self {
            Error::Usage(_) | Error::SimOption(_) => exit_codes::USAGE,
            Error::Settings(err) => err.exit_code(),
            Error::Config(_) | Error::Junit { .. } | Error::SimServe { .. } => exit_codes::CONFIG,
            Error::Demo(_) | Error::ManPage(_) => exit_codes::INTERNAL,
        }
    }
}
