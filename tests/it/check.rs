//! `smsstat check` against real loopback servers: every step that can fail, and the
//! exit code of the first failing one.

use crate::common::{refused_base, smsstat, smsstat_at, Canned, TestServer};
use serde_json::Value;
use smsstat::testkit::{start_sim, SimOptions};

use crate::common::{check_json, check_step as step};

fn status(report: &Value, name: &str) -> String {
    step(report, name)["status"].as_str().unwrap().to_string()
}

#[test]
fn a_working_simulator_passes_every_step() {
    let sim = start_sim(SimOptions::default()).unwrap();
    let (report, code) = check_json(smsstat_at(&sim.base_url()));
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["ok"], true);
    let names: Vec<&str> = report["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["step"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["settings", "name", "connect", "tls", "key", "latency", "paths", "proxy"]
    );
    for name in ["settings", "name", "connect", "key", "latency", "paths"] {
        assert_eq!(status(&report, name), "ok", "{name}: {report}");
    }
    assert_eq!(status(&report, "tls"), "skipped");
    let key = step(&report, "key")["detail"].as_str().unwrap();
    assert!(key.contains("service error 20"), "{key}");
}

#[test]
fn demo_works_without_any_setting() {
    let out = smsstat().args(["--demo", "check"]).assert().code(0);
    let text = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(text.contains("--demo simulator"), "{text}");
    assert_eq!(text.lines().count(), 8, "{text}");
}

#[test]
fn no_base_url_is_a_configuration_error() {
    let (report, code) = check_json(smsstat());
    assert_eq!(code, 78);
    assert_eq!(status(&report, "settings"), "failed");
    assert_eq!(status(&report, "connect"), "skipped");
    assert_eq!(step(&report, "settings")["exit"], 78);
}

#[test]
fn a_refused_connection_fails_the_connect_step() {
    let (report, code) = check_json(smsstat_at(&refused_base()));
    assert_eq!(code, 69);
    assert_eq!(status(&report, "name"), "ok");
    assert_eq!(status(&report, "connect"), "failed");
    assert_eq!(status(&report, "key"), "skipped");
}

#[test]
fn tls_to_a_plain_http_server_fails_the_tls_step() {
    let sim = start_sim(SimOptions::default()).unwrap();
    let https = sim.base_url().replace("http://", "https://");
    let (report, code) = check_json(smsstat_at(&https));
    assert_eq!(code, 69, "{report}");
    assert_eq!(status(&report, "connect"), "ok");
    assert_eq!(status(&report, "tls"), "failed");
    assert_eq!(status(&report, "key"), "skipped");
}

#[test]
fn an_invalid_key_fails_with_the_service_code() {
    let sim = start_sim(SimOptions {
        api_key: Some("the-right-key-0123456789".into()),
        ..SimOptions::default()
    })
    .unwrap();
    let mut cmd = smsstat_at(&sim.base_url());
    cmd.env("SMSSTAT_API_KEY", "a-wrong-key-0123456789");
    let (report, code) = check_json(cmd);
    assert_eq!(code, 1, "{report}");
    assert_eq!(status(&report, "key"), "failed");
    let detail = step(&report, "key")["detail"].as_str().unwrap();
    assert!(detail.contains("service error 1"), "{detail}");
    // The key is set: the hint names where it came from, not how to set one.
    assert!(
        detail.contains("the API key from env SMSSTAT_API_KEY was refused"),
        "{detail}"
    );
    assert!(!detail.contains("set SMSSTAT_API_KEY"), "{detail}");
    assert!(
        !report.to_string().contains("a-wrong-key"),
        "the key is never shown"
    );
    // Without any key the hint says how to set one.
    let (report, code) = check_json(smsstat_at(&sim.base_url()));
    assert_eq!(code, 1, "{report}");
    let detail = step(&report, "key")["detail"].as_str().unwrap();
    assert!(
        detail.contains("no API key is set: set SMSSTAT_API_KEY"),
        "{detail}"
    );
}

#[test]
fn a_deployment_without_explicit_routes_still_passes() {
    let server = TestServer::start(|url| {
        if url.starts_with("/sms/reference/") {
            Canned::text(404, "Not Found")
        } else {
            Canned::json(404, r#"{"error":20,"errorDescription":"SMS not found"}"#)
        }
    });
    let (report, code) = check_json(smsstat_at(&server.base));
    assert_eq!(code, 0, "{report}");
    let paths = step(&report, "paths")["detail"].as_str().unwrap();
    assert!(paths.contains("short forms"), "{paths}");
}

#[test]
fn a_401_fails_the_key_step_with_77() {
    let server = TestServer::fixed(Canned::text(401, "Unauthorized"));
    let (report, code) = check_json(smsstat_at(&server.base));
    assert_eq!(code, 77, "{report}");
    assert_eq!(status(&report, "key"), "failed");
}

/// A deployment whose explicit route answers the service's error 4 (no such method)
/// with `status`, and "not found" elsewhere.
fn without_explicit_routes(status: u16) -> TestServer {
    TestServer::start(move |url| {
        if url.starts_with("/sms/reference/") {
            Canned::json(
                status,
                r#"{"error":4,"errorDescription":"Invalid request or API method does not exists"}"#,
            )
        } else {
            Canned::json(404, r#"{"error":20,"errorDescription":"SMS not found"}"#)
        }
    })
}

#[test]
fn error_4_on_the_explicit_route_means_no_explicit_routes() {
    for status in [200, 404] {
        let server = without_explicit_routes(status);
        let (report, code) = check_json(smsstat_at(&server.base));
        assert_eq!(code, 0, "{report}");
        let paths = step(&report, "paths")["detail"].as_str().unwrap();
        assert!(paths.contains("no explicit routes"), "{status}: {paths}");
    }
}

#[test]
fn paths_explicit_without_explicit_routes_fails_as_a_lookup_would() {
    // Error 4 passes through as a lookup's exit code would.
    let server = without_explicit_routes(200);
    let mut cmd = smsstat_at(&server.base);
    cmd.args(["--paths", "explicit"]);
    let (report, code) = check_json(cmd);
    assert_eq!(code, 4, "{report}");
    assert_eq!(status(&report, "paths"), "failed");
    let paths = step(&report, "paths")["detail"].as_str().unwrap();
    assert!(paths.contains("--paths explicit"), "{paths}");
    assert!(!paths.contains("as --paths auto does"), "{paths}");
    // A bare 404 is 76, as `smsstat --paths explicit sms-ref R` would exit.
    let server = TestServer::start(|url| {
        if url.starts_with("/sms/reference/") {
            Canned::text(404, "Not Found")
        } else {
            Canned::json(404, r#"{"error":20,"errorDescription":"SMS not found"}"#)
        }
    });
    let mut cmd = smsstat_at(&server.base);
    cmd.args(["--paths", "explicit"]);
    let (report, code) = check_json(cmd);
    assert_eq!(code, 76, "{report}");
    assert_eq!(step(&report, "paths")["exit"], 76);
}

/// `check --json` writes the service's text with the escapes of every lookup's
/// line: C1 controls, U+0085, U+2028 and bidi overrides never reach a terminal raw.
#[test]
fn check_json_escapes_what_a_terminal_would_obey() {
    let said = "bad\u{202e}key\u{2028}x\u{85}y\u{9b}z";
    let body = serde_json::json!({"error": 1, "errorDescription": said}).to_string();
    let server = crate::common::TestServer::fixed(crate::common::Canned::json(200, &body));
    let out = smsstat_at(&server.base)
        .args(["--json", "check"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    for raw in ['\u{202e}', '\u{2028}', '\u{85}', '\u{9b}'] {
        assert!(!text.contains(raw), "{raw:?} raw in {text:?}");
    }
    let report: Value = serde_json::from_str(&text).expect("one JSON document");
    assert!(
        step(&report, "key")["detail"]
            .as_str()
            .unwrap()
            .contains("bad"),
        "{report}"
    );
}

/// The checklist at 80 columns (COLUMNS, as a terminal's width) with a long config
/// path in the settings step: every line fits (a path longer than a line could not),
/// the path whole, each step on its line, and the settings step's details complete.
#[test]
fn the_checklist_fits_80_columns_with_a_long_config_path() {
    let sim = start_sim(SimOptions::default()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("operator-settings");
    let base_len = base.to_str().unwrap().len();
    let name = format!(
        "{}.toml",
        "x".repeat(72usize.saturating_sub(base_len + 6).max(8))
    );
    std::fs::create_dir_all(&base).unwrap();
    let path = base.join(name);
    std::fs::write(&path, format!("base_url = \"{}\"\n", sim.base_url())).unwrap();
    let path = path.to_str().unwrap().to_string();
    let out = smsstat()
        .env("COLUMNS", "80")
        .args(["--config", &path, "check"])
        .assert()
        .code(0);
    let output = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    for line in output.lines() {
        let lone_word = !line.trim().contains(' ');
        assert!(
            line.chars().count() <= 80 || (lone_word && path.len() > 78),
            "{line:?} in:\n{output}"
        );
    }
    assert_eq!(output.matches(&path).count(), 1, "{output}");
    let steps: Vec<&str> = output
        .lines()
        .filter_map(|l| l.strip_prefix("   ✓ ").or(l.strip_prefix("   - ")))
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(
        steps,
        ["settings", "name", "connect", "tls", "key", "latency", "paths", "proxy"],
        "{output}"
    );
    let squeezed = output.split_whitespace().collect::<Vec<_>>().join(" ");
    let settings = format!("settings {} (file {path}); no API key", sim.base_url());
    assert!(squeezed.contains(&settings), "{settings}:\n{output}");
}

#[test]
fn a_refused_key_is_named_by_where_it_came_from() {
    let server = TestServer::fixed(Canned::text(401, "Unauthorized"));
    let mut keyed = smsstat_at(&server.base);
    keyed.env("SMSSTAT_API_KEY", "k-123");
    let (report, code) = check_json(keyed);
    assert_eq!(code, 77, "{report}");
    let detail = step(&report, "key")["detail"].as_str().unwrap().to_string();
    assert!(detail.contains("HTTP 401"), "{detail}");
    assert!(
        detail.contains("the API key from env SMSSTAT_API_KEY was refused"),
        "{detail}"
    );
    let (report, _) = check_json(smsstat_at(&server.base));
    let detail = step(&report, "key")["detail"].as_str().unwrap().to_string();
    assert!(
        detail.contains("no API key is set: set SMSSTAT_API_KEY"),
        "{detail}"
    );
}

#[test]
fn a_proxys_refusal_fails_the_proxy_step_not_the_key() {
    let sim = start_sim(SimOptions::default()).unwrap();
    let addr = sim.addr();
    let proxy = crate::common::proxy::Proxy::start(addr, true);
    let far = format!("http://{}:8080", crate::common::UNRESOLVABLE_HOST);
    let mut cmd = smsstat();
    cmd.args(["--base-url", &far])
        .env("http_proxy", proxy.url());
    let (report, code) = check_json(cmd);
    assert_eq!(code, 77, "{report}");
    assert_eq!(status(&report, "proxy"), "failed", "{report}");
    let detail = step(&report, "proxy")["detail"].as_str().unwrap();
    assert!(detail.contains("refused the request: HTTP 407"), "{report}");
    assert_eq!(status(&report, "key"), "skipped", "{report}");
    assert!(!proxy.asked().is_empty(), "the proxy was asked");
}

#[test]
fn a_proxys_403_fails_the_proxy_step_by_its_own_words() {
    let sim = start_sim(SimOptions::default()).unwrap();
    let addr = sim.addr();
    let proxy = crate::common::proxy::Proxy::answering(addr, Some(crate::common::proxy::FORBIDDEN));
    let far = format!("http://{}:8080", crate::common::UNRESOLVABLE_HOST);
    let mut cmd = smsstat();
    cmd.args(["--base-url", &far, "--retries", "0"])
        .env("http_proxy", proxy.url());
    let (report, code) = check_json(cmd);
    assert_eq!(code, 69, "{report}");
    assert_eq!(status(&report, "proxy"), "failed", "{report}");
    let detail = step(&report, "proxy")["detail"].as_str().unwrap();
    assert!(
        detail.contains("proxy: ") && detail.contains("403"),
        "{report}"
    );
    assert_eq!(status(&report, "key"), "skipped", "{report}");
}
