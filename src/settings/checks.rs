//! The checks of the settings, one function each, so that a flag, a variable and the
//! config file refuse the same values (`Layers::pick` says which one was wrong).

use std::ops::RangeInclusive;
use std::str::FromStr;
use std::time::Duration;

use clap::ValueEnum;
use ureq::http::{HeaderName, HeaderValue, Uri};

use crate::domain::duration::parse_duration;
use crate::domain::error::ConfigError;
use crate::domain::format::OutputFormat;
use crate::domain::sanitize::preview;

/// With backoff capped at 10 s, more retries would only stretch a failing run.
pub const MAX_RETRIES: u32 = 20;

/// `--timeout`: a duration, and not zero (every request would time out at once).
pub fn timeout(text: &str) -> Result<Duration, String> {
    let zero = refused(text, "is no time: the timeout must be more than 0");
    at_least(text, Duration::from_nanos(1), zero)
}

/// A duration of at least `least`, else `why`.
fn at_least(text: &str, least: Duration, why: String) -> Result<Duration, String> {
    let duration = parse_duration(text)?;
    (duration >= least).then_some(duration).ok_or(why)
}

/// A value refused, quoted as much as is safe to show.
fn refused(text: &str, why: &str) -> String {
    format!("`{}` {why}", preview(text))
}

/// A number within `range`, spaces around it allowed.
pub(crate) fn within<T: FromStr + PartialOrd>(text: &str, range: RangeInclusive<T>) -> Option<T> {
    text.trim().parse().ok().filter(|n| range.contains(n))
}

pub fn retries(text: &str) -> Result<u32, String> {
    let why = format!("is not a whole number from 0 to {MAX_RETRIES}");
    within(text, 0..=MAX_RETRIES).ok_or_else(|| refused(text, &why))
}

/// `--api-key-header`: a name a request header can have, checked before anything
/// is sent rather than failing every request.
pub fn key_header(text: &str) -> Result<String, String> {
    let why = |_| refused(text, "is not a valid header name (e.g. X-API-KEY)");
    HeaderName::from_bytes(text.as_bytes()).map_err(why)?;
    Ok(text.to_string())
}

/// The API key (already trimmed): it must fit in a header. The key is not quoted:
/// a message must never show it.
pub fn api_key(key: &str) -> Result<(), String> {
    let why = |_| "the API key holds characters a header cannot carry (not shown)".into();
    HeaderValue::from_str(key).map(drop).map_err(why)
}

/// A path: any text but an empty one (an unset shell variable, most likely).
pub fn path(text: &str) -> Result<std::path::PathBuf, String> {
    let empty = || "an empty path: name a file, or leave the setting out".into();
    (!text.is_empty()).then(|| text.into()).ok_or_else(empty)
}

/// A profile's name (checked against the file's profiles once it is read).
pub fn name(text: &str) -> Result<String, String> {
    let empty = || "an empty name: name a profile, or leave the setting out".into();
    (!text.is_empty()).then(|| text.into()).ok_or_else(empty)
}

/// `true` or `false` (also yes/no, on/off, 1/0), as a file or a variable says it.
pub fn parse_bool(text: &str) -> Result<bool, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "1" => Ok(true),
        "false" | "no" | "off" | "0" => Ok(false),
        _ => Err(refused(text, "is not true or false")),
    }
}

/// One of a flag's named values (`--paths`, `--color`), in any case.
pub fn value_enum<T: ValueEnum>(text: &str) -> Result<T, String> {
    one_of(text, "is not one of")
}

/// `-o`'s names, as `SMSSTAT_OUTPUT` and the file's `output` take them too.
pub fn output(text: &str) -> Result<OutputFormat, String> {
    one_of(text, "is not an output format: expected")
}

/// A refusal lists every name from the enum itself: a new one is listed at once.
fn one_of<T: ValueEnum>(text: &str, refusal: &str) -> Result<T, String> {
    let values = T::value_variants().iter().filter_map(T::to_possible_value);
    let names: Vec<String> = values.map(|v| v.get_name().to_string()).collect();
    let why = format!("{refusal} {}", names.join(", "));
    T::from_str(text.trim(), true).map_err(|_| refused(text, &why))
}

/// Accepts `http(s)://host[:port][/prefix][/]`; returns it without the trailing slash.
pub fn validate_base_url(url: &str) -> Result<String, ConfigError> {
    let hint = "set SMSSTAT_BASE_URL or --base-url to e.g. https://gateway.example/rest";
    if has_credentials(url) {
        // Not echoed: the point is that they must not end up in a log.
        let why = "credentials in the base URL are not supported; use SMSSTAT_API_KEY \
                   (the URL is not shown: it holds a user, a password or a query)";
        return Err(ConfigError(why.into()));
    }
    let shown = preview(url);
    let invalid = |why: &str| ConfigError(format!("invalid base URL `{shown}`: {why}; {hint}"));
    http_url(url).map_err(invalid)?;
    if url.contains('#') {
        return Err(invalid("a fragment cannot be a base"));
    }
    Ok(url.trim_end_matches('/').to_string())
}

/// An http or https URL with a host, and a port from 1 to 65535 if it has one: the
/// base URL and a proxy alike.
pub(crate) fn http_url(url: &str) -> Result<Uri, &'static str> {
    let uri: Uri = url.parse().map_err(|_| "not a URL")?;
    if !matches!(uri.scheme_str(), Some("http" | "https")) {
        return Err("only http:// and https:// are supported");
    }
    let authority = uri.authority().filter(|a| !a.host().is_empty());
    let authority = authority.ok_or("no host")?;
    // Anything after the host is a port.
    let host_port = authority.as_str().rsplit('@').next();
    if host_port != Some(authority.host()) && !matches!(authority.port_u16(), Some(1..)) {
        return Err("the port must be a number from 1 to 65535");
    }
    Ok(uri)
}

/// A user or password (`user:pw@host`) or a query (`?api_key=...`), found on the
/// raw text so that a URL too odd to parse is not echoed either.
pub(crate) fn has_credentials(url: &str) -> bool {
    let (_, authority, _) = url_parts(url);
    authority.contains('@') || url.contains('?')
}

/// The URL with its user, password and query replaced by `****`
/// (`https://****@gw.example/rest?****`): what `config show` may print of a URL
/// that lookups refuse, found on the raw text as `has_credentials` does.
pub(crate) fn mask_credentials(url: &str) -> String {
    let (scheme, authority, rest) = url_parts(url);
    let host = authority
        .rsplit_once('@')
        .map_or(authority.to_string(), |(_, host)| format!("****@{host}"));
    let rest = match rest.split_once('?') {
        Some((path, query)) => {
            let fragment = query.find('#').map_or("", |i| &query[i..]);
            format!("{path}?****{fragment}")
        }
        None => rest.to_string(),
    };
    format!("{scheme}{host}{rest}")
}

/// `scheme://`, the authority, and the rest (path, query, fragment) of a URL's text.
fn url_parts(url: &str) -> (&str, &str, &str) {
    let start = url.find("://").map_or(0, |i| i + 3);
    let rest = &url[start..];
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    (&url[..start], &rest[..end], &rest[end..])
}

/// A wait that cannot poll even once is a mistake, not a check.
pub fn parse_wait_timeout(text: &str) -> Result<Duration, String> {
    let zero = "the wait timeout must be more than 0".into();
    at_least(text, Duration::from_nanos(1), zero)
}

/// A status, in lower case as they are compared; an empty one (`--expect "$UNSET"`)
/// would silently turn a CI gate off.
pub fn parse_status(text: &str) -> Result<String, String> {
    let empty = || "an empty status: name at least one (e.g. delivered)".into();
    let status = text.trim().to_ascii_lowercase();
    (!status.is_empty()).then_some(status).ok_or_else(empty)
}

/// Polling faster than this only loads the gateway.
pub fn parse_interval(text: &str) -> Result<Duration, String> {
    let short = format!("`{text}` is too short a poll interval; at least 100ms");
    at_least(text, Duration::from_millis(100), short)
}

/// More workers than this only add open connections, not speed.
pub const MAX_JOBS: usize = 256;

/// `--jobs`: no worker would look anything up; too many only open connections.
pub fn parse_jobs(text: &str) -> Result<usize, String> {
    let why = || format!("expected a whole number from 1 to {MAX_JOBS}");
    within(text, 1..=MAX_JOBS).ok_or_else(why)
}

/// `--max-body`: a limit of 0 bytes would refuse every answer.
pub fn parse_max_body(text: &str) -> Result<u64, String> {
    let why = || "expected a number of bytes from 1".into();
    within(text, 1..=u64::MAX).ok_or_else(why)
}

pub fn parse_ratio(text: &str) -> Result<f64, String> {
    let why = || format!("`{text}` is not a ratio between 0 and 1 (e.g. 0.95)");
    within(text, 0.0..=1.0).ok_or_else(why)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    pub requests: u32,
    pub per: Duration,
}

/// `N`, `N/s` or `N/m`, N from 1 (like curl's --rate; per second when no unit is given).
pub fn parse_rate(text: &str) -> Result<Rate, String> {
    let (count, unit) = text.split_once('/').unwrap_or((text, "s"));
    let per = match unit.trim() {
        "s" | "sec" | "second" => Duration::from_secs(1),
        "m" | "min" | "minute" => Duration::from_secs(60),
        _ => return Err("the unit must be /s or /m (e.g. 50/s, 600/m)".into()),
    };
    let Some(requests) = within(count, 1..=u32::MAX) else {
        return Err("expected a whole number of requests from 1, e.g. 50/s or 600/m".into());
    };
    Ok(Rate { requests, per })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checks_refuse_what_no_request_could_use() {
        assert_eq!(timeout("2s"), Ok(Duration::from_secs(2)));
        assert!(timeout("0").unwrap_err().contains("more than 0"));
        assert!(timeout("abc").unwrap_err().contains("`abc`"));
        assert_eq!(retries(" 20 "), Ok(20));
        assert!(retries("21").unwrap_err().contains("0 to 20"));
        assert!(retries("-1").is_err());
        assert!(key_header("X-Key").is_ok());
        assert!(key_header("bad header").is_err());
        assert!(api_key("k\u{1}ey").unwrap_err().contains("not shown"));
    }

    #[test]
    fn every_output_format_is_listed() {
        let message = output("xml").unwrap_err();
        for name in [
            "table",
            "json",
            "csv",
            "tsv",
            "report",
            "report-json",
            "report-md",
        ] {
            assert!(message.contains(name), "{message}");
        }
        assert!(output("Report-MD").unwrap().is_report());
        assert_eq!(parse_bool(" Yes"), Ok(true));
        assert!(parse_bool("maybe").unwrap_err().contains("`maybe`"));
        assert!(path("").is_err());
    }

    #[test]
    fn base_urls_with_prefix_and_slash() {
        assert_eq!(
            validate_base_url("https://h.example/rest/").unwrap(),
            "https://h.example/rest"
        );
        assert_eq!(
            validate_base_url("http://127.0.0.1:8080").unwrap(),
            "http://127.0.0.1:8080"
        );
        assert!(validate_base_url("http://[::1]:8080/rest").is_ok());
        assert!(validate_base_url("HTTPS://H.example/rest").is_ok());
    }

    #[test]
    fn bad_base_urls_are_refused() {
        for url in [
            "http://127.0.0.1:0",
            "http://127.0.0.1:99999",
            "http://h:/x",
            "HTTP://h:notaport/",
            "ftp://h/x",
            "h.example/rest",
            "",
            "https://",
            "http://u:p@h/",
            "http://h/?a=1",
            "http://h/#x",
        ] {
            assert!(validate_base_url(url).is_err(), "{url} accepted");
        }
    }

    #[test]
    fn credentials_are_refused_without_being_echoed() {
        for url in [
            "https://user:s3cr3t@h.example/rest",
            "https://s3cr3t@h.example",
            "https://h.example/rest?api_key=s3cr3t",
            "https://us er:s3cr3t@h.example:port/",
        ] {
            let message = validate_base_url(url).unwrap_err().0;
            assert!(!message.contains("s3cr3t"), "{message}");
            assert!(message.contains("credentials in the base URL"), "{message}");
            assert!(!message.contains("the port"), "{message}");
            assert!(!mask_credentials(url).contains("s3cr3t"), "{url}");
        }
    }

    #[test]
    fn credentials_are_masked_for_display() {
        assert_eq!(
            mask_credentials("https://user:s3cretpw@gw.example/rest?api_key=s3cretpw"),
            "https://****@gw.example/rest?****"
        );
        assert_eq!(mask_credentials("http://h/x?k=v#f"), "http://h/x?****#f");
        assert_eq!(mask_credentials("http://h:8/x"), "http://h:8/x");
    }
}
