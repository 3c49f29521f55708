//! The `--junit` file: test cases go to a side file as lookups finish (memory stays
//! flat), and the document is put together and moved into place at the end, so a
//! reader never sees half a file. Both side files have names of their own
//! (`tempfile`), so two runs writing the same path at once never share one: the
//! last to finish leaves a whole document.

use std::io::{self, BufReader, BufWriter, Seek};
use std::path::{Path, PathBuf};
use std::time::Instant;

use tempfile::NamedTempFile;

use crate::domain::outcome::Outcome;
use crate::output::junit_xml::{write_document, write_testcase, SuiteCounts};

pub(crate) struct JunitFile {
    path: PathBuf,
    cases: BufWriter<NamedTempFile>,
    counts: SuiteCounts,
    suite: String,
    started: Instant,
    /// The first write that failed; reported at the end, the lookups go on.
    failed: Option<io::Error>,
}

impl JunitFile {
    /// Opens the side file next to `path` at once, so that an unwritable path is
    /// known before any lookup is sent.
    pub(crate) fn create(path: &Path, suite: String) -> io::Result<JunitFile> {
        let cases = BufWriter::new(side_file(path, "cases")?);
        Ok(JunitFile {
            path: path.to_path_buf(),
            cases,
            counts: SuiteCounts::default(),
            suite,
            started: Instant::now(),
            failed: None,
        })
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    pub(crate) fn add(&mut self, outcome: &Outcome) {
        if self.failed.is_none() {
            if let Err(err) = write_testcase(&mut self.cases, outcome, &mut self.counts) {
                self.failed = Some(err);
            }
        }
    }

    /// Writes the document to a side file and renames it over `path` (the side file
    /// of the cases is removed when dropped, whatever happens).
    pub(crate) fn finish(mut self) -> io::Result<()> {
        if let Some(err) = self.failed.take() {
            return Err(err);
        }
        let mut cases = self.cases.into_inner().map_err(|e| e.into_error())?;
        cases.rewind()?;
        let mut out = BufWriter::new(side_file(&self.path, "tmp")?);
        let elapsed = self.started.elapsed();
        let mut reader = BufReader::new(cases.as_file_mut());
        write_document(&mut out, &self.suite, self.counts, elapsed, &mut reader)?;
        let document = out.into_inner().map_err(|e| e.into_error())?;
        document.persist(&self.path).map_err(|e| e.error)?;
        Ok(())
    }
}

/// A new file beside `path` (`report.xml` -> `.report.xml.XXXXXX.cases`): the same
/// directory, so that the rename at the end is atomic. Readable as files made by
/// `File::create` are: a report is for a CI job to pick up.
fn side_file(path: &Path, suffix: &str) -> io::Result<NamedTempFile> {
    let name = path
        .file_name()
        .map_or_else(Default::default, |n| n.to_string_lossy().into_owned());
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let (prefix, suffix) = (format!(".{name}."), format!(".{suffix}"));
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(&suffix);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o644));
    }
    builder.tempfile_in(dir)
}
