//! The name and connect steps, and the proxy step. Through a proxy the target's name
//! is the proxy's to resolve (lookups send `CONNECT host:port`), so these steps check
//! the proxy's own name and a connection to it instead of the target's.

use std::io::ErrorKind;
use std::net::SocketAddr;
use std::time::Instant;

use ureq::http::Uri;

use super::{failed, ok, Step};
use crate::domain::duration::format_duration;
use crate::domain::exit_codes;
use crate::http::agents::resolve;
use crate::http::resolve::{connect_within, Unconnected};
use crate::settings::config::HttpSettings;
use crate::settings::proxy::ProxyChoice;

/// Where lookups open their connections: the target itself, or the proxy.
struct Hop {
    host: String,
    port: u16,
    /// `via proxy URL: ` in front of every detail when the hop is a proxy.
    prefix: String,
}

/// The host and port of the base URL, with the scheme's default port.
pub(super) fn target(base_url: &str) -> Option<(String, u16)> {
    let uri = base_url.parse::<Uri>().ok()?;
    let host = uri.host()?.trim_matches(['[', ']']).to_string();
    let https = uri.scheme_str() == Some("https");
    Some((host, uri.port_u16().unwrap_or(if https { 443 } else { 80 })))
}

fn hop(http: &HttpSettings) -> Option<Hop> {
    match &http.proxy {
        Some(choice) => Some(Hop {
            host: choice.proxy.host().trim_matches(['[', ']']).to_string(),
            port: choice.proxy.port(),
            prefix: format!(
                "via proxy {} (the proxy resolves and reaches {}): proxy ",
                choice.shown,
                target(&http.base_url).map_or_else(String::new, |(h, _)| h)
            ),
        }),
        None => target(&http.base_url).map(|(host, port)| Hop {
            host,
            port,
            prefix: String::new(),
        }),
    }
}

/// The host's addresses (by the resolver lookups use), then a TCP connection to the
/// first one that answers; each step within `--timeout`.
pub(super) fn name_and_connect(http: &HttpSettings) -> Vec<Step> {
    let Some(hop) = hop(http) else {
        let detail = "unreadable base URL".into();
        return vec![failed("name", detail, exit_codes::CONFIG)];
    };
    let Hop { host, port, prefix } = hop;
    let addrs: Vec<SocketAddr> = match resolve(&host, port, http.timeout) {
        Ok(addrs) => addrs,
        Err(err) => {
            let detail = format!("{prefix}{host} does not resolve: {err}");
            return vec![failed("name", detail, exit_codes::UNAVAILABLE)];
        }
    };
    let shown: Vec<String> = addrs.iter().map(|a| a.ip().to_string()).collect();
    let name = ok("name", format!("{prefix}{host} -> {}", shown.join(", ")));
    let started = Instant::now();
    let detail = match connect_within(&addrs, Some(http.timeout)) {
        Ok((_, addr)) => {
            let took = format_duration(started.elapsed());
            return vec![name, ok("connect", format!("{prefix}{addr} in {took}"))];
        }
        Err(Unconnected { error, .. }) if error.kind() == ErrorKind::TimedOut => format!(
            "{prefix}no connection within {}",
            format_duration(http.timeout)
        ),
        Err(Unconnected {
            addr: Some(addr),
            error,
        }) => format!("{prefix}{addr}: {error}"),
        Err(Unconnected { addr: None, .. }) => format!("{prefix}no address to connect to"),
    };
    vec![name, failed("connect", detail, exit_codes::UNAVAILABLE)]
}

/// The proxy the run goes through (curl's rules: the scheme's variable, NO_PROXY,
/// never for loopback), credentials masked.
pub(super) fn proxy_step(http: &HttpSettings) -> Step {
    match &http.proxy {
        Some(ProxyChoice {
            shown, variable, ..
        }) => ok("proxy", format!("{shown} (from {variable})")),
        None => ok("proxy", "none".into()),
    }
}
