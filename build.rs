//! Build facts for `smsstat --version` and `smsstat version`, found once here so the
//! binary does nothing for them at start-up: the commit and whether the tree had
//! uncommitted changes, the build date, the target, whether the C runtime is linked
//! statically, rustc's version and the TLS library's (from Cargo.lock).
//!
//! Without git or a `.git` of this crate (building from the crate tarball), the
//! commit comes from cargo's `.cargo_vcs_info.json` when there is one, else it is
//! unknown. `SOURCE_DATE_EPOCH` fixes the build date (reproducible builds).

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

fn main() {
    let root = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=SOURCE_DATE_EPOCH");
    println!("cargo:rerun-if-changed=Cargo.lock");

    let commit = from_git(&root).or_else(|| from_vcs_info(&root));
    let (hash, dirty) = match &commit {
        Some(commit) => (commit.hash.clone(), commit.dirty),
        None => (String::new(), None),
    };
    let short = match (hash.get(..10), dirty) {
        (None, _) => "commit unknown".to_string(),
        (Some(short), Some(true)) => format!("{short}-dirty"),
        (Some(short), _) => short.to_string(),
    };
    let version = env::var("CARGO_PKG_VERSION").expect("set by cargo");
    let features = env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let linking = if features.split(',').any(|f| f == "crt-static") {
        "static"
    } else {
        "dynamic"
    };
    let dirty = dirty.map_or(String::new(), |d| d.to_string());

    env_var("BUILD_VERSION_LINE", &format!("{version} ({short})"));
    env_var("BUILD_COMMIT", &hash);
    env_var("BUILD_DIRTY", &dirty);
    env_var("BUILD_DATE", &build_date());
    env_var("BUILD_TARGET", &env::var("TARGET").expect("set by cargo"));
    env_var("BUILD_LINKING", linking);
    env_var("BUILD_RUSTC", &rustc_version());
    env_var("BUILD_TLS", &tls_backend(&root));
}

fn env_var(name: &str, value: &str) {
    println!("cargo:rustc-env={name}={value}");
}

struct Commit {
    hash: String,
    /// Uncommitted changes to tracked files; None when not known.
    dirty: Option<bool>,
}

/// `git` itself, only when this crate's directory is the top of the work tree (a
/// crate unpacked inside some other repository must not take that one's commit).
/// Cargo runs this script again when HEAD moves, the branch's ref changes or a
/// compiled file changes, so the commit and `-dirty` follow the tree.
fn from_git(root: &Path) -> Option<Commit> {
    let top = git(root, &["rev-parse", "--show-toplevel"])?;
    if fs::canonicalize(&top).ok()? != fs::canonicalize(root).ok()? {
        return None;
    }
    let hash = git(root, &["rev-parse", "HEAD"])?;
    // --no-optional-locks: status must not rewrite the index it is watched through.
    let status = git(
        root,
        &[
            "--no-optional-locks",
            "status",
            "--porcelain",
            "--untracked-files=no",
        ],
    );
    let mut watched = vec![git_path(root, "HEAD"), git_path(root, "packed-refs")];
    if let Some(branch) = git(root, &["symbolic-ref", "-q", "HEAD"]) {
        watched.push(git_path(root, &branch));
    }
    let compiled = ["src", "crates", "data", "Cargo.toml"];
    watched.extend(compiled.iter().map(|p| Some(root.join(p))));
    // A path that does not exist would make cargo run this script on every build.
    for path in watched.into_iter().flatten().filter(|p| p.exists()) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    Some(Commit {
        hash,
        dirty: status.map(|s| !s.is_empty()),
    })
}

/// Where git keeps `name` (HEAD, a ref, packed-refs), also from a linked worktree.
fn git_path(root: &Path, name: &str) -> Option<PathBuf> {
    let path = PathBuf::from(git(root, &["rev-parse", "--git-path", name])?);
    Some(if path.is_absolute() {
        path
    } else {
        root.join(path)
    })
}

/// One line of git's output, trimmed; None when git is missing or fails.
fn git(root: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(root)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// `cargo package` records the commit in `.cargo_vcs_info.json` ("dirty": true only
/// when packaged with uncommitted changes).
fn from_vcs_info(root: &Path) -> Option<Commit> {
    let text = fs::read_to_string(root.join(".cargo_vcs_info.json")).ok()?;
    let after = text.split_once("\"sha1\"")?.1;
    let hash: String = after
        .trim_start_matches([' ', ':', '"'])
        .chars()
        .take_while(char::is_ascii_hexdigit)
        .collect();
    let dirty = text.contains("\"dirty\": true") || text.contains("\"dirty\":true");
    (hash.len() == 40).then_some(Commit {
        hash,
        dirty: Some(dirty),
    })
}

/// The UTC date of `SOURCE_DATE_EPOCH`, or of now.
fn build_date() -> String {
    let seconds = env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .unwrap_or_else(|| {
            let now = SystemTime::now().duration_since(UNIX_EPOCH);
            now.map_or(0, |d| d.as_secs() as i64)
        });
    let (year, month, day) = civil_from_days(seconds.div_euclid(86_400));
    format!("{year:04}-{month:02}-{day:02}")
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// `1.95.0` from `rustc 1.95.0 (59807616e 2026-04-14)`.
fn rustc_version() -> String {
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(rustc).arg("-V").output();
    let text = out.map_or(String::new(), |o| String::from_utf8_lossy(&o.stdout).into());
    text.split_whitespace()
        .nth(1)
        .unwrap_or("unknown")
        .to_string()
}

/// `rustls 0.23.31 (ring 0.17.14)`: the versions locked in Cargo.lock.
fn tls_backend(root: &Path) -> String {
    let lock = fs::read_to_string(root.join("Cargo.lock")).unwrap_or_default();
    let locked = |name: &str| {
        let entry = format!("name = \"{name}\"\nversion = \"");
        let version = lock.split_once(&entry)?.1.split('"').next()?;
        Some(format!("{name} {version}"))
    };
    let rustls = locked("rustls").unwrap_or_else(|| "rustls".into());
    let ring = locked("ring").unwrap_or_else(|| "ring".into());
    format!("{rustls} ({ring})")
}
