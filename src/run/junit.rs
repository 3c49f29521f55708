//! The `--junit` file: test cases go to a side file as lookups finish (memory stays
//! flat), and the document is put together and moved into place at the end, so a
//! reader never sees half a file.

use std::fs::{self, File};
use std::io::{self, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::domain::outcome::Outcome;
use crate::output::junit_xml::{write_document, write_testcase, SuiteCounts};

pub(crate) struct JunitFile {
    path: PathBuf,
    cases_path: PathBuf,
    cases: BufWriter<File>,
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
        let cases_path = sibling(path, "cases");
        let cases = BufWriter::new(File::create(&cases_path)?);
        Ok(JunitFile {
            path: path.to_path_buf(),
            cases_path,
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

    /// Writes the document to a temporary sibling and renames it over `path`.
    pub(crate) fn finish(mut self) -> io::Result<()> {
        let result = self.assemble();
        let _ = fs::remove_file(&self.cases_path);
        result
    }

    fn assemble(&mut self) -> io::Result<()> {
        if let Some(err) = self.failed.take() {
            return Err(err);
        }
        self.cases.flush()?;
        let mut cases = BufReader::new(File::open(&self.cases_path)?);
        let temporary = sibling(&self.path, "tmp");
        let mut out = BufWriter::new(File::create(&temporary)?);
        let elapsed = self.started.elapsed();
        write_document(&mut out, &self.suite, self.counts, elapsed, &mut cases)?;
        drop(out);
        fs::rename(&temporary, &self.path)
    }
}

/// `report.xml` -> `.report.xml.cases` in the same directory.
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(Default::default, |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.{suffix}"))
}
