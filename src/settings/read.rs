//! Local files (`--config`, `api_key_file`, `--ca-cert`) read with bounds: a regular
//! file of at most 1 MiB. A path to `/dev/zero` would otherwise grow until memory
//! runs out, and a FIFO would block the run forever before any lookup.

use std::fs::{self, File};
use std::io::{self, Read};
use std::path::Path;

/// Far more than any config file, key or CA bundle needs.
pub const MAX_LOCAL_FILE: u64 = 1024 * 1024;

pub fn read_bounded(path: &Path) -> io::Result<Vec<u8>> {
    let not_regular = || io::Error::other("not a regular file");
    // Checked before opening: opening a FIFO for reading blocks until a writer comes.
    if !fs::metadata(path)?.is_file() {
        return Err(not_regular());
    }
    let file = File::open(path)?;
    // Checked again on what was opened, in case the path was swapped in between.
    if !file.metadata()?.is_file() {
        return Err(not_regular());
    }
    let mut bytes = Vec::new();
    file.take(MAX_LOCAL_FILE + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_LOCAL_FILE {
        return Err(io::Error::other("larger than 1 MiB"));
    }
    Ok(bytes)
}

pub fn read_bounded_text(path: &Path) -> io::Result<String> {
    String::from_utf8(read_bounded(path)?).map_err(|_| io::Error::other("not UTF-8 text"))
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
        let error = |result: io::Result<()>| result.unwrap_err().to_string();
        assert_eq!(error(read_bounded(&big).map(drop)), "larger than 1 MiB");
        assert_eq!(
            error(read_bounded(dir.path()).map(drop)),
            "not a regular file"
        );
        let none = read_bounded(&dir.path().join("none")).unwrap_err();
        assert_eq!(none.kind(), io::ErrorKind::NotFound);
        fs::write(&small, b"\xff").unwrap();
        assert_eq!(error(read_bounded_text(&small).map(drop)), "not UTF-8 text");
    }
}
