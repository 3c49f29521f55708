//! The files written beside the output (`--junit`, `--metrics`). Links are followed
//! to what they name. A regular file there, or a new path, is replaced atomically
//! (a temporary file of its own in the same folder, renamed over it), so a reader
//! (node_exporter, a CI job) never sees half a document, and two runs writing the
//! same path leave a whole one. Anything else (a FIFO, a device, `/dev/stdout`) is
//! written in place, never renamed over.

use std::fs::{self, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

use crate::run::error::Error;

/// As the kernel does (ELOOP past it).
const MAX_LINKS: usize = 40;

pub(crate) struct SideFile {
    /// What it is and the path as given, for messages.
    what: &'static str,
    path: PathBuf,
    /// What the path names, links followed.
    target: PathBuf,
    /// Made at the start (an unwritable folder is known before any lookup); None
    /// for a FIFO or device.
    temp: Option<NamedTempFile>,
}

impl SideFile {
    /// `what` names it in messages: "JUnit file".
    pub(crate) fn open(path: &Path, what: &'static str) -> Result<SideFile, Error> {
        let mut file = SideFile {
            what,
            path: path.to_path_buf(),
            target: resolve(path),
            temp: None,
        };
        file.temp = match fs::metadata(&file.target) {
            Ok(meta) if !meta.is_file() => None,
            Err(err) if err.kind() != io::ErrorKind::NotFound => return Err(file.failed(err)),
            _ => Some(temp_beside(&file.target).map_err(|err| file.failed(err))?),
        };
        Ok(file)
    }

    pub(crate) fn failed(&self, source: io::Error) -> Error {
        let (what, path) = (self.what, self.path.clone());
        Error::SideFile { what, path, source }
    }

    pub(crate) fn write(
        mut self,
        write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> Result<(), Error> {
        let written = || {
            let Some(temp) = self.temp.take() else {
                // Opened now, not at the start: a FIFO's open waits for its reader.
                let file = OpenOptions::new().write(true).open(&self.target)?;
                let mut out = BufWriter::new(file);
                write(&mut out)?;
                return out.flush();
            };
            let mut out = BufWriter::new(temp);
            write(&mut out)?;
            let temp = out.into_inner().map_err(|e| e.into_error())?;
            temp.persist(&self.target).map(drop).map_err(|e| e.error)
        };
        written().map_err(|err| self.failed(err))
    }
}

/// What `path` names, links followed (a link's relative target is taken from the
/// link's folder). A link to nothing yet names the file it will make.
fn resolve(path: &Path) -> PathBuf {
    let mut path = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        let Ok(to) = fs::read_link(&path) else {
            break;
        };
        path = path.parent().unwrap_or(Path::new("")).join(to);
    }
    path
}

/// A new file beside `path` (`.report.xml.XXXXXX.tmp`), so the rename is atomic;
/// readable as `File::create` makes it, for a CI job or a collector to pick up.
fn temp_beside(path: &Path) -> io::Result<NamedTempFile> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let dir = path.parent().filter(|dir| !dir.as_os_str().is_empty());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    builder.permissions(fs::Permissions::from_mode(0o644));
    builder.tempfile_in(dir.unwrap_or(Path::new(".")))
}
