//! The run's own failure, which `app::main` alone tells (one stderr line) and ends
//! with (its exit code). A lookup that fails is not one: a batch's failed lookups are
//! lines of its output, and the batch's exit code says them (`Ok`).

use std::io;
use std::net::SocketAddr;
use std::path::PathBuf;

use thiserror::Error;

use crate::domain::error::SettingsError;
use crate::domain::exit_codes;

#[derive(Debug, Error)]
pub(crate) enum Error {
    /// Settings that cannot be resolved: a bad flag or variable (64), the rest (78).
    #[error(transparent)]
    Settings(#[from] SettingsError),

    #[error("cannot start the demo simulator: {0}")]
    Demo(io::Error),

    /// The `--junit` or `--metrics` file (`what`) could not be opened (78). One
    /// that cannot be finished is a line of the batch's output instead: the
    /// lookups' exit code stands.
    #[error("cannot write the {what} {}: {source}", path.display())]
    SideFile {
        what: &'static str,
        path: PathBuf,
        source: io::Error,
    },

    #[error("cannot write the output: {0}")]
    Output(io::Error),

    #[error("cannot render the man page: {0}")]
    ManPage(io::Error),

    #[error("sim: cannot serve on {listen}: {source}")]
    SimServe {
        listen: SocketAddr,
        source: io::Error,
    },
}

/// A whole document to stdout. A reader gone away is no error (`| head`); any other
/// failure is (74): a document lost to a full disk must not read as a success.
pub(crate) fn print_document(bytes: &[u8]) -> Result<(), Error> {
    use std::io::Write;
    let mut out = io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(err) if err.kind() != io::ErrorKind::BrokenPipe => Err(Error::Output(err)),
        _ => Ok(()),
    }
}

impl Error {
    pub(crate) fn exit_code(&self) -> u8 {
        match self {
            Error::Settings(err) => err.exit_code(),
            Error::SideFile { .. } | Error::SimServe { .. } => exit_codes::CONFIG,
            Error::Demo(_) | Error::ManPage(_) => exit_codes::INTERNAL,
            Error::Output(_) => exit_codes::IO_ERROR,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::path::Path;

    use super::*;
    use crate::domain::error::ConfigError;

    #[test]
    fn each_error_has_the_code_and_text_it_had_when_its_handler_told_it() {
        let io = || io::Error::other("denied");
        let cases = [
            (
                SettingsError::Usage("--x and --y".into()).into(),
                64,
                "--x and --y",
            ),
            (
                SettingsError::Usage("--timeout: no".into()).into(),
                64,
                "--timeout: no",
            ),
            (
                SettingsError::Config(ConfigError("no base URL".into())).into(),
                78,
                "no base URL",
            ),
            (
                Error::Demo(io()),
                70,
                "cannot start the demo simulator: denied",
            ),
            (
                Error::SideFile {
                    what: "JUnit file",
                    path: "/j.xml".into(),
                    source: io(),
                },
                78,
                "cannot write the JUnit file /j.xml: denied",
            ),
            (
                Error::ManPage(io()),
                70,
                "cannot render the man page: denied",
            ),
            (Error::Output(io()), 74, "cannot write the output: denied"),
            (
                Error::SimServe {
                    listen: "127.0.0.1:8765".parse().unwrap(),
                    source: io(),
                },
                78,
                "sim: cannot serve on 127.0.0.1:8765: denied",
            ),
        ];
        for (error, code, text) in cases {
            assert_eq!(
                (error.exit_code(), error.to_string().as_str()),
                (code, text)
            );
        }
    }

    /// Calls of `output::messages::error` in a file's code (comments left out): by
    /// path, or by name where the file imports it. The needles are built in pieces
    /// so that this file's own text does not count.
    fn error_calls(text: &str) -> usize {
        let code: Vec<&str> = text
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"))
            .collect();
        let code = code.join("\n");
        let by_path = code.matches(concat!("messages::", "error(")).count();
        let imported = code.match_indices("use ").any(|(at, _)| {
            let statement = code[..at].ends_with(|c: char| c.is_whitespace()) || at == 0;
            let rest = &code[at..];
            let item = &rest[..rest.find(';').unwrap_or(rest.len())];
            statement
                && item.contains("messages")
                && item
                    .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '*'))
                    .any(|word| word == "error" || word == "*")
        });
        if !imported {
            return by_path;
        }
        let by_name = code
            .match_indices(concat!("error", "("))
            .filter(|(at, _)| {
                let before = &code[..*at];
                let joined = before
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_alphanumeric() || "_.:[\"".contains(c));
                !joined && !before.trim_end().ends_with("fn")
            })
            .count();
        by_path + by_name
    }

    fn count_in(dir: &Path, root: &Path, found: &mut Vec<(String, usize)>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                count_in(&path, root, found);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let calls = error_calls(&fs::read_to_string(&path).unwrap());
                if calls > 0 {
                    let name = path.strip_prefix(root).unwrap().display().to_string();
                    found.push((name, calls));
                }
            }
        }
    }

    /// A handler that told its own error could tell it twice, or tell it and go on;
    /// it returns `Err` instead, and `app::main` tells it. Error-style lines that are
    /// a batch's output go through `messages::batch_error`.
    #[test]
    fn only_main_tells_the_run_s_error() {
        let run = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/run");
        let mut found = Vec::new();
        count_in(&run, &run, &mut found);
        found.sort();
        assert_eq!(
            found,
            [("app.rs".to_string(), 1)],
            "calls of messages::error by file of src/run/: return run::Error instead"
        );
    }

    #[test]
    fn calls_are_found_by_path_and_by_imported_name() {
        let import = concat!("use crate::output::", "messages::{error, warn};\n");
        let call = concat!("    error", "(x);\n");
        assert_eq!(error_calls(&format!("{import}fn f() {{\n{call}}}")), 1);
        let grouped = concat!("use crate::output::{", "messages::error, printer};\n");
        assert_eq!(error_calls(&format!("{grouped}fn f() {{\n{call}}}")), 1);
        let by_path = concat!("crate::output::", "messages::error", "(x);");
        assert_eq!(error_calls(by_path), 1);
        let other = concat!(
            "fn error",
            "(&self) {}\ndeadline.error",
            "(e);\n#[error",
            "(\"x\")]"
        );
        assert_eq!(error_calls(&format!("{import}{other}")), 0);
        assert_eq!(error_calls(call), 0, "not imported: another function");
    }
}
