//! The `--junit` file: test cases go to an unnamed temporary file as lookups finish
//! (memory stays flat), and the document is put together at the end and written
//! through `SideFile`, so a reader never sees half a file.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Seek};
use std::path::Path;
use std::time::Instant;

use crate::domain::outcome::Outcome;
use crate::output::junit_xml::{write_document, write_testcase, SuiteCounts};
use crate::run::error::Error;
use crate::run::side_file::SideFile;

pub(crate) struct JunitFile {
    target: SideFile,
    cases: BufWriter<File>,
    counts: SuiteCounts,
    suite: String,
    started: Instant,
    /// The first write that failed; reported at the end, the lookups go on.
    failed: Option<io::Error>,
}

impl JunitFile {
    /// Opens `path` at once: an unwritable path is known before any lookup.
    pub(crate) fn create(path: &Path, suite: String) -> Result<JunitFile, Error> {
        let target = SideFile::open(path, "JUnit file")?;
        // Unnamed: removed by the system however the run ends.
        let cases = BufWriter::new(tempfile::tempfile().map_err(|err| target.failed(err))?);
        Ok(JunitFile {
            target,
            cases,
            counts: SuiteCounts::default(),
            suite,
            started: Instant::now(),
            failed: None,
        })
    }

    pub(crate) fn add(&mut self, outcome: &Outcome) {
        if self.failed.is_none() {
            self.failed = write_testcase(&mut self.cases, outcome, &mut self.counts).err();
        }
    }

    pub(crate) fn finish(self) -> Result<(), Error> {
        let cases = match self.failed {
            Some(err) => Err(err),
            None => self.cases.into_inner().map_err(|e| e.into_error()),
        };
        let rewound = cases.and_then(|mut cases| cases.rewind().map(|()| cases));
        let mut cases = rewound.map_err(|err| self.target.failed(err))?;
        let elapsed = self.started.elapsed();
        let (suite, counts) = (&self.suite, self.counts);
        self.target.write(|mut out| {
            let mut reader = BufReader::new(&mut cases);
            write_document(&mut out, suite, counts, elapsed, &mut reader)
        })
    }
}
