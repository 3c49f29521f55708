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
use crate::http::resolve::{connect_within, resolve};
use crate::settings::config::HttpSettings;

fn target(base_url: &str) -> Option<(String, u16)> {
    let uri = base_url.parse::<Uri>().ok()?;
    let host = uri.host()?.trim_matches(['[', ']']).to_string();
    let https = uri.scheme_str() == Some("https");
    Some((host, uri.port_u16().unwrap_or(if https { 443 } else { 80 })))
}

/// Where lookups connect (the target or the proxy): its addresses, by the lookups'
/// resolver, then a TCP connection to the first that answers, each within `--timeout`.
pub(super) fn name_and_connect(http: &HttpSettings) -> Vec<Step> {
    let target = target(&http.base_url);
    let (hop, prefix) = match &http.proxy {
        Some(choice) => {
            let host = choice.proxy.host().trim_matches(['[', ']']).to_string();
            let (shown, reaches) = (&choice.shown, target.map_or_else(String::new, |(h, _)| h));
            let prefix =
                format!("via proxy {shown} (the proxy resolves and reaches {reaches}): proxy ");
            (Some((host, choice.proxy.port())), prefix)
        }
        None => (target, String::new()),
    };
    let Some((host, port)) = hop else {
        return vec![failed("name", "unreadable base URL", exit_codes::CONFIG)];
    };
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
    let detail = match connect_within(&addrs, http.timeout) {
        Ok(addr) => {
            let took = format_duration(started.elapsed());
            return vec![name, ok("connect", format!("{prefix}{addr} in {took}"))];
        }
        Err((_, error)) if error.kind() == ErrorKind::TimedOut => format!(
            "{prefix}no connection within {}",
            format_duration(http.timeout)
        ),
        Err((Some(addr), error)) => format!("{prefix}{addr}: {error}"),
        Err((None, _)) => format!("{prefix}no address to connect to"),
    };
    vec![name, failed("connect", detail, exit_codes::UNAVAILABLE)]
}

pub(super) fn proxy_step(http: &HttpSettings) -> Step {
    let detail = http.proxy.as_ref().map(ToString::to_string);
    ok("proxy", detail.unwrap_or_else(|| "none".into()))
}
