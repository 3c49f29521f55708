//! A config home for the config tests: a temporary directory holding
//! `smsstat/config.toml`, readable by its owner only, and the binary pointed at it.

use std::fs;
use std::path::{Path, PathBuf};

use tempfile::TempDir;

use super::smsstat;

/// A config home holding `smsstat/config.toml` with `text`, readable by its owner only.
pub struct ConfigHome {
    pub dir: TempDir,
}

impl ConfigHome {
    pub fn new(text: &str) -> ConfigHome {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("smsstat")).unwrap();
        let home = ConfigHome { dir };
        write_private(&home.file(), text);
        home
    }

    pub fn file(&self) -> PathBuf {
        self.dir.path().join("smsstat").join("config.toml")
    }

    /// The binary with this config home as its platform config dir.
    pub fn smsstat(&self) -> assert_cmd::Command {
        let mut cmd = smsstat();
        cmd.env("XDG_CONFIG_HOME", self.dir.path());
        cmd
    }
}

pub fn write_private(path: &Path, text: &str) {
    fs::write(path, text).unwrap();
    set_mode(path, 0o600);
}

pub fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}
