//! `smsstat check`: is this setup able to work? Step by step, like `gh auth status`:
//! settings, name, connection, TLS, the key, latency, routes, proxy. A checklist on a
//! terminal, `--json` for scripts; exit 0 when a lookup could work, else the code of
//! the first failing step.

use std::io::{self, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Instant;

use ureq::http::Uri;

use crate::cli::parse::CliSources;
use crate::cli::settings::{API_KEY, BASE_URL};
use crate::cli::GlobalArgs;
use crate::domain::duration::format_duration;
use crate::domain::error::LookupError;
use crate::domain::exit_codes;
use crate::domain::lookup::{LookupKind, PathStyle};
use crate::http::client::Client;
use crate::output::messages::error;
use crate::settings::config::{construct_config, Config};
use crate::settings::layers::{self, Resolution};
use crate::settings::origin::Origin;
use crate::sim::{SimOptions, SimServer};

mod report;
use report::{as_checklist, as_json};

/// An ID no deployment has: its lookup must answer the service's "not found".
const MISSING_ID: &str = "0";
/// A reference nobody sends, for the explicit route.
const MISSING_REFERENCE: &str = "smsstat-check-no-such-reference";
/// Requests timed for the latency line.
const LATENCY_PROBES: usize = 3;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Ok,
    Failed,
    /// Not applicable (TLS on http) or not reached after a failure.
    Skipped,
}

struct Step {
    name: &'static str,
    state: State,
    detail: String,
    code: u8,
}

fn ok(name: &'static str, detail: String) -> Step {
    Step {
        name,
        state: State::Ok,
        detail,
        code: exit_codes::SUCCESS,
    }
}

fn failed(name: &'static str, detail: String, code: u8) -> Step {
    Step {
        name,
        state: State::Failed,
        detail,
        code,
    }
}

fn skipped(name: &'static str, detail: &str) -> Step {
    Step {
        name,
        state: State::Skipped,
        detail: detail.into(),
        code: exit_codes::SUCCESS,
    }
}

pub fn run(args: GlobalArgs, sources: CliSources) -> u8 {
    let demo = match args.demo.then(|| SimServer::start(SimOptions::demo())) {
        Some(Err(err)) => {
            error(format_args!("cannot start the demo simulator: {err}"));
            return exit_codes::INTERNAL;
        }
        Some(Ok(server)) => Some(server),
        None => None,
    };
    let steps = steps(&args, &sources, demo.as_ref());
    let json = args.json;
    let text = if json {
        format!("{}\n", as_json(&steps))
    } else {
        as_checklist(&steps, crate::settings::config::locale_is_utf8())
    };
    // A reader that went away is not an error.
    let _ = io::stdout().lock().write_all(text.as_bytes());
    first_failure(&steps)
}

fn first_failure(steps: &[Step]) -> u8 {
    steps
        .iter()
        .find(|s| s.state == State::Failed)
        .map_or(exit_codes::SUCCESS, |s| s.code)
}

/// Every step, in order; after a failure the steps that needed it are skipped.
fn steps(args: &GlobalArgs, sources: &CliSources, demo: Option<&SimServer>) -> Vec<Step> {
    let mut steps = Vec::new();
    let config = match settings_step(args, sources, demo) {
        Ok((step, config)) => {
            steps.push(step);
            config
        }
        Err(step) => {
            steps.push(step);
            return with_rest_skipped(steps);
        }
    };
    let network = [name_and_connect(&config)];
    for step in network.into_iter().flatten() {
        let stop = step.state == State::Failed;
        steps.push(step);
        if stop {
            return with_rest_skipped(steps);
        }
    }
    steps.extend(service_steps(&config));
    steps.push(proxy_step(&config));
    steps
}

const ALL_STEPS: [&str; 8] = [
    "settings", "name", "connect", "tls", "key", "latency", "paths", "proxy",
];

fn with_rest_skipped(mut steps: Vec<Step>) -> Vec<Step> {
    for name in ALL_STEPS.iter().skip(steps.len()) {
        steps.push(skipped(name, "not checked: an earlier step failed"));
    }
    steps
}

fn settings_step(
    args: &GlobalArgs,
    sources: &CliSources,
    demo: Option<&SimServer>,
) -> Result<(Step, Config), Step> {
    let resolution = layers::apply(args, sources)
        .map_err(|err| failed("settings", err.to_string(), err.exit_code()))?;
    let mut config = construct_config(args, &resolution.values, demo.map(SimServer::base_url))
        .map_err(|err| failed("settings", err.to_string(), exit_codes::CONFIG))?;
    // One answer per probe: a retry would hide what the service said.
    config.retries = 0;
    config.paths = PathStyle::Explicit;
    let detail = settings_detail(&config, &resolution, demo.is_some());
    Ok((ok("settings", detail), config))
}

fn settings_detail(config: &Config, resolution: &Resolution, demo: bool) -> String {
    let base_origin = if demo {
        Origin::Demo
    } else {
        resolution.origins.of(&BASE_URL)
    };
    let key = match &config.api_key {
        Some(_) => format!("an API key ({})", resolution.origins.of(&API_KEY)),
        None => "no API key".into(),
    };
    format!("{} ({base_origin}); {key}", config.base_url)
}

/// The host's addresses, then a TCP connection to the first one that answers.
fn name_and_connect(config: &Config) -> Vec<Step> {
    let Ok(uri) = config.base_url.parse::<Uri>() else {
        return vec![failed(
            "name",
            "unreadable base URL".into(),
            exit_codes::CONFIG,
        )];
    };
    let host = uri
        .host()
        .unwrap_or("")
        .trim_matches(['[', ']'])
        .to_string();
    let https = uri.scheme_str() == Some("https");
    let port = uri.port_u16().unwrap_or(if https { 443 } else { 80 });
    let addrs: Vec<_> = match (host.as_str(), port).to_socket_addrs() {
        Ok(addrs) => addrs.collect(),
        Err(err) => {
            let detail = format!("{host} does not resolve: {err}");
            return vec![failed("name", detail, exit_codes::UNAVAILABLE)];
        }
    };
    let shown: Vec<String> = addrs.iter().map(|a| a.ip().to_string()).collect();
    let name = ok("name", format!("{host} -> {}", shown.join(", ")));
    let started = Instant::now();
    let mut last_error = None;
    for addr in &addrs {
        match TcpStream::connect_timeout(addr, config.timeout) {
            Ok(_) => {
                let detail = format!("{addr} in {}", format_duration(started.elapsed()));
                return vec![name, ok("connect", detail)];
            }
            Err(err) => last_error = Some(format!("{addr}: {err}")),
        }
    }
    let detail = last_error.unwrap_or_else(|| "no address to connect to".into());
    vec![name, failed("connect", detail, exit_codes::UNAVAILABLE)]
}

/// TLS, the key, latency and routes, from lookups of values that do not exist.
fn service_steps(config: &Config) -> Vec<Step> {
    let client = Client::new(config);
    let https = config.base_url.starts_with("https:");
    let mut took = Vec::new();
    let mut first = None;
    for _ in 0..LATENCY_PROBES {
        let started = Instant::now();
        let result = client.lookup(LookupKind::Sms, MISSING_ID);
        took.push(started.elapsed());
        if first.is_none() {
            first = Some(result);
        }
    }
    let first = first.expect("at least one probe");
    let tls = tls_step(https, &first, config);
    if tls.state == State::Failed {
        return with_rest_skipped_from(vec![tls], 1);
    }
    let key = key_step(&first);
    let stop = key.state == State::Failed;
    let mut steps = vec![tls, key];
    if stop {
        return with_rest_skipped_from(steps, 2);
    }
    let shown: Vec<String> = took.iter().map(|d| format_duration(*d)).collect();
    steps.push(ok(
        "latency",
        format!("{LATENCY_PROBES} requests: {}", shown.join(", ")),
    ));
    steps.push(paths_step(&client));
    steps
}

/// `steps` (the first `done` of tls, key, latency, paths) and the rest skipped.
fn with_rest_skipped_from(mut steps: Vec<Step>, done: usize) -> Vec<Step> {
    for name in ["tls", "key", "latency", "paths"].iter().skip(done) {
        steps.push(skipped(name, "not checked: an earlier step failed"));
    }
    steps
}

fn tls_step(
    https: bool,
    first: &Result<crate::domain::record::Record, LookupError>,
    config: &Config,
) -> Step {
    if !https {
        let in_clear = config.api_key.is_some() && !is_loopback(&config.base_url);
        let detail = if in_clear {
            "not used (http): the API key travels in clear"
        } else {
            "not used (http)"
        };
        return skipped("tls", detail);
    }
    match first {
        Err(LookupError::Unreachable(why)) if why.starts_with("TLS") => {
            failed("tls", why.clone(), exit_codes::UNAVAILABLE)
        }
        _ => {
            let roots = match &config.ca_certs {
                Some(_) => "the --ca-cert certificates",
                None => "the built-in roots",
            };
            ok("tls", format!("certificate verified against {roots}"))
        }
    }
}

fn is_loopback(base_url: &str) -> bool {
    base_url
        .parse::<Uri>()
        .is_ok_and(|uri| crate::settings::proxy::is_loopback_host(uri.host().unwrap_or("")))
}

/// A lookup of an ID that does not exist tells whether the key is accepted: the
/// service's "not found" says yes; error 1 or 401/403 says no.
fn key_step(first: &Result<crate::domain::record::Record, LookupError>) -> Step {
    match first {
        Ok(_) => ok(
            "key",
            format!("accepted (ID {MISSING_ID} answered a record)"),
        ),
        Err(LookupError::Service {
            code: Some(1),
            description,
            ..
        }) => failed(
            "key",
            format!(
                "refused: service error 1 ({}); set SMSSTAT_API_KEY",
                description.as_deref().unwrap_or("invalid API key")
            ),
            1,
        ),
        Err(error @ LookupError::Service { .. }) => {
            ok("key", format!("accepted: a missing SMS answers {}", error))
        }
        Err(error) => failed("key", error.to_string(), error.exit_code()),
    }
}

/// Whether the explicit routes exist: a missing reference answers the service's
/// "not found" there, or the deployment has only the short forms.
fn paths_step(client: &Client) -> Step {
    match client.lookup(LookupKind::SmsRef, MISSING_REFERENCE) {
        Ok(_) | Err(LookupError::Service { .. }) => ok(
            "paths",
            "explicit routes (/sms/reference/...) answered".into(),
        ),
        Err(LookupError::UnexpectedHttp { status: 404, .. }) => ok(
            "paths",
            "no explicit routes: lookups use the short forms (/sms/R), as --paths auto does".into(),
        ),
        Err(error) => failed("paths", error.to_string(), error.exit_code()),
    }
}

/// The proxy the run goes through (curl's rules: the scheme's variable, NO_PROXY,
/// never for loopback), credentials masked.
fn proxy_step(config: &Config) -> Step {
    match &config.proxy {
        Some(proxy) => ok(
            "proxy",
            format!("{} (from {})", proxy.shown, proxy.variable),
        ),
        None => ok("proxy", "none".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_failure_decides_the_exit_code() {
        let steps = vec![
            ok("settings", String::new()),
            failed("connect", String::new(), 69),
            failed("key", String::new(), 1),
        ];
        assert_eq!(first_failure(&steps), 69);
        assert_eq!(as_json(&steps)["ok"], false);
    }
}
