//! Which proxy, if any, a run goes through: curl's rules, decided once per run so
//! that `-v`, `check` and the agents agree. ureq's own reading of the environment is
//! never used: it takes `HTTPS_PROXY` for http URLs, ignores a malformed value
//! silently and would proxy loopback, where the key must not cross a proxy in clear.

use std::net::IpAddr;

use ureq::http::Uri;

use crate::domain::error::ConfigError;
use crate::domain::sanitize::preview;
use crate::settings::checks::{http_url, mask_credentials};

/// The proxy a run uses: the URL (with any credentials, for the agents), the variable
/// it came from and how it may be shown.
#[derive(Debug, Clone)]
pub struct ProxyChoice {
    pub proxy: ureq::Proxy,
    pub variable: &'static str,
    /// The proxy's URL with any user and password replaced by `****`.
    pub shown: String,
}

/// As `-v` and `check` show it: `http://proxy:3128 (from HTTPS_PROXY)`.
impl std::fmt::Display for ProxyChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (from {})", self.shown, self.variable)
    }
}

/// The proxy for `base_url` under the environment `env` (a variable's value, None
/// when unset). `--demo` and loopback hosts never go through a proxy.
pub fn resolve(
    base_url: &str,
    demo: bool,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Option<ProxyChoice>, ConfigError> {
    let Ok(uri) = base_url.parse::<Uri>() else {
        return Ok(None);
    };
    let host = uri.host().unwrap_or("").trim_matches(['[', ']']);
    if demo || is_loopback_host(host) {
        return Ok(None);
    }
    let names = match uri.scheme_str() {
        Some("https") => ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"],
        _ => ["http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"],
    };
    let set = |name: &str| env(name).filter(|value| !value.trim().is_empty());
    let Some((variable, value)) = names.into_iter().find_map(|n| Some((n, set(n)?))) else {
        return Ok(None);
    };
    let no_proxy = ["no_proxy", "NO_PROXY"].into_iter().find_map(set);
    if no_proxy.is_some_and(|list| bypasses(&list, host)) {
        return Ok(None);
    }
    let value = value.trim();
    let shown = mask_credentials(value);
    let invalid = |why| format!("{variable}: invalid proxy `{}`: {why}", preview(&shown));
    let proxy = parse(value).map_err(|why| ConfigError(invalid(why)))?;
    Ok(Some(ProxyChoice {
        proxy,
        variable,
        shown,
    }))
}

/// `localhost`, `*.localhost`, 127.0.0.0/8 and `::1`.
pub fn is_loopback_host(host: &str) -> bool {
    let host = host.trim_matches(['[', ']']).trim_end_matches('.');
    host.eq_ignore_ascii_case("localhost")
        || host.to_ascii_lowercase().ends_with(".localhost")
        || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// An http or https (CONNECT) proxy, `scheme://[user:password@]host[:port]`; a value
/// without a scheme is http, as in curl.
fn parse(value: &str) -> Result<ureq::Proxy, &'static str> {
    let url = match value.contains("://") {
        true => value.to_string(),
        false => format!("http://{value}"),
    };
    if url.to_ascii_lowercase().starts_with("socks") {
        return Err("SOCKS proxies are not supported (use an http:// proxy)");
    }
    http_url(&url)?;
    ureq::Proxy::new(&url).map_err(|_| "not a URL")
}

/// curl's `NO_PROXY`: `*`, or a comma-separated list of host names (each also
/// covering its subdomains, a leading dot optional), IP addresses and CIDR ranges.
fn bypasses(list: &str, host: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    let ip = host.parse::<IpAddr>().ok();
    list.split([',', ' ']).map(str::trim).any(|entry| {
        if entry == "*" {
            return true;
        }
        let entry = entry.trim_matches('.').to_ascii_lowercase();
        let entry = entry.trim_matches(['[', ']']);
        if entry.is_empty() {
            return false;
        }
        match (ip, entry.split_once('/')) {
            (Some(ip), Some((net, bits))) => in_range(ip, net, bits),
            (Some(ip), None) => entry.parse::<IpAddr>().is_ok_and(|e| e == ip),
            (None, _) => host
                .strip_suffix(entry)
                .is_some_and(|head| head.is_empty() || head.ends_with('.')),
        }
    })
}

fn in_range(ip: IpAddr, net: &str, bits: &str) -> bool {
    let (Ok(net), Ok(bits)) = (net.parse::<IpAddr>(), bits.parse::<u32>()) else {
        return false;
    };
    let (ip, net, width) = match (ip, net) {
        (IpAddr::V4(a), IpAddr::V4(b)) => (u32::from(a) as u128, u32::from(b) as u128, 32u32),
        (IpAddr::V6(a), IpAddr::V6(b)) => (u128::from(a), u128::from(b), 128),
        _ => return false,
    };
    let shift = width.checked_sub(bits);
    shift.is_some_and(|shift| shift >= 128 || (ip >> shift) == (net >> shift))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            pairs
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        }
    }

    fn chosen(url: &str, pairs: &[(&str, &str)]) -> Option<(&'static str, String)> {
        resolve(url, false, env(pairs))
            .unwrap()
            .map(|c| (c.variable, c.shown))
    }

    #[test]
    fn the_variable_follows_the_scheme() {
        let vars = [
            ("HTTPS_PROXY", "http://tls-proxy:3128"),
            ("http_proxy", "http://plain-proxy:3128"),
        ];
        assert_eq!(
            chosen("https://gw.example/rest", &vars),
            Some(("HTTPS_PROXY", "http://tls-proxy:3128".into()))
        );
        assert_eq!(
            chosen("http://gw.example/rest", &vars),
            Some(("http_proxy", "http://plain-proxy:3128".into()))
        );
        assert_eq!(
            chosen("http://gw.example", &[("ALL_PROXY", "proxy:8080")]),
            Some(("ALL_PROXY", "proxy:8080".into()))
        );
        assert_eq!(chosen("http://gw.example", &[("HTTPS_PROXY", "p:1")]), None);
        assert_eq!(chosen("http://gw.example", &[("http_proxy", "  ")]), None);
    }

    #[test]
    fn loopback_and_demo_are_never_proxied() {
        let vars = [
            ("http_proxy", "http://p:3128"),
            ("https_proxy", "http://p:3128"),
        ];
        for url in [
            "http://127.0.0.1:8080",
            "http://127.9.9.9",
            "http://[::1]:80/rest",
            "https://localhost/rest",
            "http://api.localhost",
        ] {
            assert_eq!(chosen(url, &vars), None, "{url}");
        }
        assert!(resolve("http://gw.example", true, env(&vars))
            .unwrap()
            .is_none());
    }

    #[test]
    fn no_proxy_hosts_domains_ranges_and_star() {
        let with = |no_proxy: &str, url: &str| {
            chosen(url, &[("https_proxy", "p:3128"), ("NO_PROXY", no_proxy)]).is_none()
        };
        assert!(with("*", "https://gw.example"));
        assert!(with("gw.example", "https://gw.example"));
        assert!(with("example", "https://gw.example"));
        assert!(with("other, .example", "https://api.gw.example"));
        assert!(with("10.0.0.0/8", "https://10.1.2.3"));
        assert!(with("192.0.2.7", "https://192.0.2.7:8443"));
        assert!(with("GW.Example", "https://gw.example"));
        assert!(!with("w.example", "https://gw.example"));
        assert!(!with("10.0.0.0/8", "https://11.1.2.3"));
        assert!(!with("other.example", "https://gw.example"));
    }

    #[test]
    fn malformed_proxies_are_refused_without_their_credentials() {
        for value in [
            "socks5://u:s3cr3t@p:1080",
            "ftp://p",
            "http://u:s3cr3t@:3128",
            "http://u:s3cr3t@p:99999",
            "http://p:port",
        ] {
            let error = resolve("https://gw.example", false, env(&[("HTTPS_PROXY", value)]))
                .unwrap_err()
                .0;
            assert!(error.starts_with("HTTPS_PROXY: invalid proxy"), "{error}");
            assert!(!error.contains("s3cr3t"), "{error}");
        }
    }

    #[test]
    fn credentials_are_masked_when_shown() {
        assert_eq!(
            mask_credentials("http://user:pw@proxy:3128"),
            "http://****@proxy:3128"
        );
        assert_eq!(mask_credentials("u:p@proxy:1/"), "****@proxy:1/");
        assert_eq!(mask_credentials("http://proxy:3128"), "http://proxy:3128");
    }
}
