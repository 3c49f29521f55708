//! Tests of the settings layers.

use super::*;
use crate::settings::table::{API_KEY_HEADER, RETRIES, TIMEOUT};

#[test]
fn key_file_paths_are_relative_to_the_config_file() {
    let origin = Origin::File(PathBuf::from("/etc/smsstat/config.toml"));
    assert_eq!(
        file_setting_path(Path::new("key.txt"), &origin),
        PathBuf::from("/etc/smsstat/key.txt")
    );
    assert_eq!(
        file_setting_path(Path::new("/run/secrets/k"), &origin),
        PathBuf::from("/run/secrets/k")
    );
}

#[test]
fn the_first_layer_with_a_value_wins() {
    let profile = FileSettings {
        retries: Some(5),
        ..FileSettings::default()
    };
    let top = FileSettings {
        retries: Some(1),
        timeout: Some(std::time::Duration::from_secs(3)),
        ..FileSettings::default()
    };
    let p = Origin::Profile {
        name: "p".into(),
        file: "f".into(),
    };
    let sources = CliSources::default();
    let mut filler = Filler {
        sources: &sources,
        layers: vec![(&profile, p.clone()), (&top, Origin::File("f".into()))],
        origins: Origins::default(),
        warnings: Vec::new(),
    };
    assert_eq!(filler.fill(&RETRIES, None, |l| l.retries), Some(5));
    assert_eq!(filler.origins.of(&RETRIES), p);
    assert_eq!(filler.fill(&RETRIES, Some(9), |l| l.retries), Some(9));
    let timeout = filler.fill(&TIMEOUT, None, |l| l.timeout);
    assert_eq!(timeout, Some(std::time::Duration::from_secs(3)));
    assert_eq!(filler.origins.of(&TIMEOUT), Origin::File("f".into()));
    let header = filler.fill(&API_KEY_HEADER, None, |l| l.api_key_header.clone());
    assert_eq!(header, None);
    assert_eq!(filler.origins.of(&API_KEY_HEADER), Origin::Default);
}
