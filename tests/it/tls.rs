//! TLS: verification is always on, `--ca-cert` trusts a private CA, a bad CA file is
//! exit 78 naming it, and https never turns into http.

use std::io::{Read, Write};
use std::path::Path;

use crate::common::config_home::ConfigHome;
use crate::common::{smsstat_at, Canned, RawServer, TestServer, SMS};
use crate::tls_support::{http_json, Pki, TlsServer};
use predicates::prelude::*;

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn a_private_ca_is_trusted_only_with_ca_cert() {
    let pki = Pki::new();
    let server = TlsServer::start(&pki, http_json(SMS));
    let dir = tempfile::tempdir().unwrap();
    let ca = write(dir.path(), "ca.pem", &pki.ca_pem);

    smsstat_at(&server.base)
        .args(["--ca-cert", &ca, "--field", "status", "sms", "42"])
        .assert()
        .success()
        .stdout("delivered\n");
    // Also from the environment, for CI jobs.
    smsstat_at(&server.base)
        .env("SMSSTAT_CA_CERT", &ca)
        .args(["sms", "42"])
        .assert()
        .success();
    assert_eq!(server.requests(), 2);

    // Without it the certificate is not trusted: verification is on by default.
    smsstat_at(&server.base)
        .args(["sms", "42"])
        .assert()
        .code(69)
        .stderr(predicate::str::contains("TLS: invalid peer certificate"));
    assert_eq!(server.requests(), 2, "no request after a failed handshake");
}

#[test]
fn a_key_as_large_as_a_key_file_goes_out_over_tls() {
    let pki = Pki::new();
    let server = TlsServer::start(&pki, http_json(SMS));
    let dir = tempfile::tempdir().unwrap();
    let ca = write(dir.path(), "ca.pem", &pki.ca_pem);
    let key = crate::common::key_file(dir.path(), &crate::common::largest_key());
    smsstat_at(&server.base)
        .args(["--ca-cert", &ca, "--api-key-file"])
        .arg(&key)
        .args(["--field", "status", "sms", "42"])
        .assert()
        .success()
        .stdout("delivered\n");
    assert_eq!(server.requests(), 1);
}

#[test]
fn another_ca_does_not_vouch_for_the_server() {
    let server = TlsServer::start(&Pki::new(), http_json(SMS));
    let dir = tempfile::tempdir().unwrap();
    let other = write(dir.path(), "other.pem", &Pki::new().ca_pem);
    smsstat_at(&server.base)
        .args(["--ca-cert", &other, "sms", "42"])
        .assert()
        .code(69)
        .stderr(predicate::str::contains("TLS: invalid peer certificate"));
    assert_eq!(server.requests(), 0);
}

#[test]
fn unreadable_or_invalid_ca_files_are_78_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope.pem");
    let missing = missing.to_str().unwrap();
    let not_pem = write(dir.path(), "notes.txt", "just some text\n");
    let garbage = write(
        dir.path(),
        "garbage.pem",
        "-----BEGIN CERTIFICATE-----\nAAAAAAAA\n-----END CERTIFICATE-----\n",
    );
    let server = TestServer::fixed(Canned::json(200, SMS));
    for (path, why) in [
        (missing, "cannot read"),
        (not_pem.as_str(), "no PEM certificate"),
        (garbage.as_str(), "not usable as a CA"),
    ] {
        smsstat_at(&server.base)
            .args(["--ca-cert", path, "sms", "1"])
            .assert()
            .code(78)
            .stderr(predicate::str::contains(path).and(predicate::str::contains(why)));
    }
    assert!(
        server.urls().is_empty(),
        "nothing is sent with a bad CA file"
    );
}

/// A plain-HTTP server as nginx is one: whatever arrives, `400 Bad Request` comes back.
fn plain_http_server() -> RawServer {
    RawServer::on_connect(|mut stream| {
        let mut buf = [0u8; 1024];
        let _ = stream.read(&mut buf);
        let _ = stream.write_all(
            b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
        );
    })
}

#[test]
fn https_to_a_plain_http_port_is_69_with_a_tls_message() {
    let server = plain_http_server();
    smsstat_at(&server.base.replacen("http://", "https://", 1))
        .args(["--timeout", "5s", "sms", "1"])
        .assert()
        .code(69)
        .stderr(predicate::str::contains("TLS"));
}

#[test]
fn an_https_redirect_to_http_is_not_followed() {
    let target = TestServer::fixed(Canned::json(200, SMS));
    let location = format!("{}/sms/1", target.base);
    let pki = Pki::new();
    let answer = format!(
        "HTTP/1.1 302 Found\r\nLocation: {location}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    );
    let server = TlsServer::start(&pki, answer);
    let dir = tempfile::tempdir().unwrap();
    let ca = write(dir.path(), "ca.pem", &pki.ca_pem);
    smsstat_at(&server.base)
        .env("SMSSTAT_API_KEY", "acc-tls-secret-1")
        .args(["--ca-cert", &ca, "sms", "1"])
        .assert()
        .code(76)
        .stderr(predicate::str::contains(location.as_str()));
    assert_eq!(server.requests(), 1);
    assert!(target.seen().is_empty(), "the http target was contacted");
}

#[test]
fn a_profile_can_name_its_ca_relative_to_the_config_file() {
    let pki = Pki::new();
    let server = TlsServer::start(&pki, http_json(SMS));
    let profile = format!(
        "[profiles.staging]\nbase_url = \"{}\"\nca_cert = \"staging-ca.pem\"\n",
        server.base
    );
    let home = ConfigHome::new(&profile);
    write(
        &home.dir.path().join("smsstat"),
        "staging-ca.pem",
        &pki.ca_pem,
    );

    let run = |args: &[&str]| {
        let mut cmd = home.smsstat();
        cmd.args(["--profile", "staging"]).args(args);
        cmd
    };
    run(&["--field", "status", "sms", "42"])
        .assert()
        .success()
        .stdout("delivered\n");
    run(&["config", "show"]).assert().success().stdout(
        predicate::str::contains("staging-ca.pem").and(predicate::str::contains("profile staging")),
    );
    // A flag still wins over the profile.
    let other = Pki::new();
    let other_ca = write(home.dir.path(), "other.pem", &other.ca_pem);
    run(&["--ca-cert", &other_ca, "sms", "42"])
        .assert()
        .code(69);
}
