//! Where a setting came from, for `smsstat config show` and for messages that must
//! name the place to fix.

use std::fmt;
use std::path::PathBuf;

/// Where one resolved setting came from. The layers come highest first, so that of
/// two origins in different layers the lesser is the higher layer.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd)]
pub enum Origin {
    Flag(String),
    Env(String),
    Profile {
        name: String,
        file: PathBuf,
    },
    File(PathBuf),
    Demo,
    #[default]
    Default,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Flag(flag) => write!(f, "flag {flag}"),
            Origin::Env(name) => write!(f, "env {name}"),
            Origin::Profile { name, file } => write!(f, "profile {name} in {}", file.display()),
            Origin::File(file) => write!(f, "file {}", file.display()),
            Origin::Demo => f.write_str("--demo simulator"),
            Origin::Default => f.write_str("default"),
        }
    }
}
