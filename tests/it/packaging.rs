//! What the release archive and the Debian package are made of, checked on the
//! files themselves (scripts/check-dist checks the built packages): the licence,
//! the MCC/MNC data's attribution, the changelog, cargo-deb's assets, and the
//! README's contents and package names.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn manifest() -> toml::Table {
    read("Cargo.toml").parse().unwrap()
}

#[test]
fn the_licence_file_is_the_one_cargo_toml_names() {
    assert_eq!(manifest()["package"]["license"].as_str(), Some("MIT"));
    let licence = read("LICENSE");
    assert!(
        licence.starts_with("MIT License\n\nCopyright (c) "),
        "{licence}"
    );
    assert!(licence.contains("THE SOFTWARE IS PROVIDED \"AS IS\""));
}

#[test]
fn the_data_attribution_names_the_source_the_table_was_made_from() {
    // The table's own header names the package and version it was generated from.
    let table = read("data/mcc-mnc.tsv");
    let header = table.lines().next().unwrap();
    let (_, package) = header.split_once("from npm ").unwrap();
    let (name, version) = package.split_once('@').unwrap();
    assert_eq!(name, "mcc-mnc-list", "{header}");
    let notice = read("NOTICE");
    let copyright = read("debian/copyright");
    for text in [&notice, &copyright] {
        for words in [
            name,
            version,
            "Peter Bakondy",
            "Wikipedia",
            "Mobile_country_code",
        ] {
            assert!(text.contains(words), "{words} missing:\n{text}");
        }
    }
    assert!(notice.contains("CC BY-SA 4.0") && notice.contains("licenses/by-sa/4.0"));
    // Machine-readable (DEP-5): the data's paragraph and both licences spelt out.
    assert!(copyright.starts_with(
        "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"
    ));
    assert!(copyright.contains("\nFiles: data/mcc-mnc.tsv\n"));
    assert!(copyright.contains("\nLicense: CC-BY-SA-4.0\n"));
    assert!(copyright.contains("\nLicense: MIT\n Permission is hereby granted"));
}

#[test]
fn the_changelog_is_keep_a_changelog() {
    let changelog = read("CHANGELOG.md");
    assert!(changelog.starts_with("# Changelog\n"));
    assert!(changelog.contains("keepachangelog.com"));
    let releases: Vec<&str> = changelog.lines().filter(|l| l.starts_with("## ")).collect();
    assert_eq!(releases.first(), Some(&"## [Unreleased]"), "{releases:?}");
    for section in changelog.lines().filter(|l| l.starts_with("### ")) {
        let kinds = [
            "Added",
            "Changed",
            "Deprecated",
            "Removed",
            "Fixed",
            "Security",
        ];
        assert!(kinds.contains(&&section[4..]), "{section}");
    }
}

#[test]
fn the_debian_package_installs_each_file_in_its_place() {
    let manifest = manifest();
    let deb = &manifest["package"]["metadata"]["deb"];
    for key in ["maintainer", "copyright", "extended-description", "section"] {
        assert!(deb.get(key).is_some(), "no {key}");
    }
    let description = manifest["package"]["description"].as_str().unwrap();
    assert!(!description.contains('\n') && description.len() < 100);
    assert_eq!(
        deb["license-file"].as_array().unwrap()[0].as_str(),
        Some("debian/copyright")
    );
    let assets: Vec<(&str, &str)> = deb["assets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a[0].as_str().unwrap(), a[1].as_str().unwrap()))
        .collect();
    for (source, _) in &assets {
        match source.strip_suffix("*.md") {
            // A glob (the docs the README links to): the folder holds some.
            Some(folder) => assert!(
                std::fs::read_dir(root().join(folder)).is_ok_and(|mut d| d.next().is_some()),
                "{source} matches nothing"
            ),
            // cargo-deb's stand-in for wherever the binary was built.
            None if source.starts_with("target/release/") => {}
            None => assert!(root().join(source).is_file(), "{source} is missing"),
        }
    }
    let destination = |source: &str| {
        let found = assets.iter().find(|(s, _)| *s == source);
        found.map(|(_, d)| *d).unwrap_or_default()
    };
    assert_eq!(destination("target/release/smsstat"), "usr/bin/");
    // The README's links into docs/ work from /usr/share/doc/smsstat.
    assert_eq!(destination("docs/*.md"), "usr/share/doc/smsstat/docs/");
    assert_eq!(
        destination("completions/smsstat.1"),
        "usr/share/man/man1/smsstat.1"
    );
    assert_eq!(
        destination("completions/smsstat.bash"),
        "usr/share/bash-completion/completions/smsstat"
    );
    assert_eq!(
        destination("completions/_smsstat"),
        "usr/share/zsh/vendor-completions/_smsstat"
    );
    assert_eq!(
        destination("completions/smsstat.fish"),
        "usr/share/fish/vendor_completions.d/smsstat.fish"
    );
    assert_eq!(destination("NOTICE"), "usr/share/doc/smsstat/NOTICE");
    // Where Debian wants an upstream changelog (cargo-deb gzips it: changelog.gz).
    assert_eq!(
        destination("CHANGELOG.md"),
        "usr/share/doc/smsstat/changelog"
    );
    assert_eq!(
        destination("debian/lintian-overrides"),
        "usr/share/lintian/overrides/smsstat"
    );
}

/// What lintian asks of the .deb that the sources decide (scripts/check-dist runs
/// lintian itself on the built package): a stripped binary, a Debian changelog for
/// this version, a Maintainer that can receive mail, no dependency on anything.
#[test]
fn the_debian_package_has_what_lintian_asks_for() {
    let manifest = manifest();
    assert_eq!(
        manifest["profile"]["release"]["strip"].as_bool(),
        Some(true)
    );
    assert!(!read("scripts/dist").contains("--no-strip"));
    let deb = &manifest["package"]["metadata"]["deb"];
    let maintainer = deb["maintainer"].as_str().unwrap();
    assert!(!maintainer.contains(".invalid>"), "{maintainer}");
    assert_eq!(deb["depends"].as_array().map(Vec::len), Some(0));
    assert_eq!(deb["changelog"].as_str(), Some("debian/changelog"));
    let changelog = read("debian/changelog");
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        changelog.starts_with(&format!("smsstat ({version}-1) unstable; urgency=")),
        "{changelog}"
    );
    let signed = changelog.lines().find(|l| l.starts_with(" -- ")).unwrap();
    assert!(
        signed.starts_with(&format!(" -- {maintainer}  ")),
        "{signed}"
    );
    // The overrides, each after the comment that explains it.
    let overrides = read("debian/lintian-overrides");
    let tags: Vec<&str> = overrides
        .lines()
        .filter(|l| l.starts_with("smsstat: "))
        .collect();
    assert_eq!(
        tags,
        [
            "smsstat: shared-library-lacks-prerequisites [usr/bin/smsstat]",
            "smsstat: initial-upload-closes-no-bugs [usr/share/doc/smsstat/changelog.Debian.gz:1]"
        ]
    );
    for tag in tags {
        let above = overrides.split(tag).next().unwrap().trim_end();
        assert!(above.lines().last().unwrap().starts_with("# "), "{tag}");
    }
    assert!(read("scripts/check-dist").contains("lintian"));
    assert!(read(".ci/run").contains("apt-get install -y -qq file lintian libxml2-utils"));
}

#[test]
fn the_dist_scripts_are_executable() {
    for script in ["scripts/dist", "scripts/check-dist"] {
        assert!(is_executable(&root().join(script)), "{script}");
    }
    assert!(read(".gitignore").lines().any(|l| l == "/dist"));
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path).map_or(0, |m| m.permissions().mode());
    mode & 0o111 == 0o111
}

/// GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens.
fn anchor(heading: &str) -> String {
    let kept = heading
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .collect::<String>();
    kept.replace(' ', "-")
}

/// The README's and the manual's lists of contents name every section.
#[test]
fn the_readme_contents_list_every_section() {
    for (file, sections) in [("README.md", 10), ("docs/manual.md", 15)] {
        contents_list_every_section(file, sections);
    }
}

fn contents_list_every_section(file: &str, at_least: usize) {
    let readme = read(file);
    let mut in_code = false;
    let mut headings = Vec::new();
    for line in readme.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if !in_code && line.starts_with("## ") {
            headings.push(&line[3..]);
        }
    }
    assert!(headings.len() >= at_least, "{file}: {headings:?}");
    let contents: Vec<&str> = readme
        .split_once("Contents:\n\n")
        .expect("a Contents list")
        .1
        .lines()
        .take_while(|l| l.starts_with("- ["))
        .collect();
    let expected: Vec<String> = headings
        .iter()
        .map(|h| format!("- [{h}](#{})", anchor(h)))
        .collect();
    assert_eq!(contents, expected, "{file}");
}

#[test]
fn the_readme_names_the_packages_of_this_version() {
    let readme = read("README.md");
    let version = env!("CARGO_PKG_VERSION");
    let archive = format!("smsstat-{version}-x86_64-unknown-linux-gnu.tar.gz");
    let deb = format!("smsstat_{version}-1_amd64.deb");
    assert!(readme.contains(&archive) && readme.contains(&deb));
    for (at, _) in readme.match_indices("smsstat-0.") {
        assert!(readme[at..].starts_with(&format!("smsstat-{version}-")));
    }
    for (at, _) in readme.match_indices("smsstat_0.") {
        assert!(readme[at..].starts_with(&deb));
    }
    assert!(readme.contains("cargo install --locked --path ."));
    assert!(!readme.contains("cargo install --path"));
}
