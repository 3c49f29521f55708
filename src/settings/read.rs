//! Local files (`--config`, `api_key_file`, `--ca-cert`) read with bounds: a regular
//! file of at most 1 MiB. A path to `/dev/zero` would otherwise grow until memory
//! runs out, and a FIFO would block the run forever before any lookup.

use std::fs::{self, File};
use std::io::{self, Read};
use std::path::Path;

use thiserror::Error;

/// Far more than any config file, key or CA bundle needs.
pub const MAX_LOCAL_FILE: u64 = 1024 * 1024;

#[derive(Debug, Error)]
pub enum LocalFileError {
    #[error("{0}")]
    Io(#[from] io::Error),
    #[error("not a regular file")]
    NotRegular,
    #[error("larger than 1 MiB")]
    TooLarge,
    #[error("not UTF-8 text")]
    NotText,
}

impl LocalFileError {
    pub fn is_not_found(&self) -> bool {
        matches!(self, LocalFileError::Io(e) if e.kind() == io::ErrorKind::NotFound)
    }
}

/// The bytes of a regular file of at most `MAX_LOCAL_FILE` bytes.
pub fn read_bounded(path: &Path) -> Result<Vec<u8>, LocalFileError> {
    // Checked before opening: opening a FIFO for reading blocks until a writer comes.
    if !fs::metadata(path)?.is_file() {
        return Err(LocalFileError::NotRegular);
    }
    let file = File::open(path)?;
    // Checked again on what was opened, in case the path was swapped in between.
    if !file.metadata()?.is_file() {
        return Err(LocalFileError::NotRegular);
    }
    let mut bytes = Vec::new();
    file.take(MAX_LOCAL_FILE + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_LOCAL_FILE {
        return Err(LocalFileError::TooLarge);
    }
    Ok(bytes)
}

/// `read_bounded`, as UTF-8 text.
pub fn read_bounded_text(path: &Path) -> Result<String, LocalFileError> {
    String::from_utf8(read_bounded(path)?).map_err(|_| LocalFileError::NotText)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regular_files_within_the_bound_only() {
        let dir = tempfile::tempdir().unwrap();
        let small = dir.path().join("small");
        fs::write(&small, "abc").unwrap();
        assert_eq!(read_bounded_text(&small).unwrap(), "abc");
        let exact = dir.path().join("exact");
        fs::write(&exact, vec![b'a'; MAX_LOCAL_FILE as usize]).unwrap();
        assert_eq!(read_bounded(&exact).unwrap().len() as u64, MAX_LOCAL_FILE);
        let big = dir.path().join("big");
        fs::write(&big, vec![b'a'; MAX_LOCAL_FILE as usize + 1]).unwrap();
        assert!(matches!(read_bounded(&big), Err(LocalFileError::TooLarge)));
        assert!(matches!(
            read_bounded(dir.path()),
            Err(LocalFileError::NotRegular)
        ));
        assert!(read_bounded(&dir.path().join("none"))
            .unwrap_err()
            .is_not_found());
        fs::write(&small, b"\xff").unwrap();
        assert!(matches!(
            read_bounded_text(&small),
            Err(LocalFileError::NotText)
        ));
    }
}
