//! `-vv`: request and response headers on stderr, curl-style (`> ` sent, `< `
//! received). The key header is masked, credentials in other headers are hidden, and
//! the key is scrubbed from any value that echoes it: the key never appears.

use ureq::http::{HeaderMap, HeaderName, HeaderValue};

use crate::domain::sanitize::escape_control;
use crate::http::redact::Scrubber;
use crate::settings::secret::mask_key;

/// Headers that carry credentials of some kind, whatever the key header is called.
const SECRET_HEADERS: [&str; 4] = [
    "authorization",
    "proxy-authorization",
    "cookie",
    "set-cookie",
];

/// The headers the agent adds to every request (set in `Client::new`), shown first.
pub const AGENT_HEADERS: [(&str, &str); 2] = [
    ("user-agent", concat!("smsstat/", env!("CARGO_PKG_VERSION"))),
    ("accept", "application/json"),
];

/// What masking needs to know.
#[derive(Debug, Clone, Copy)]
pub struct Secrets<'a> {
    pub key_header: &'a HeaderName,
    pub scrubber: &'a Scrubber,
}

/// The lines for the headers smsstat sends: the agent's defaults, then the request's own.
pub fn request_lines(
    defaults: &[(&str, &str)],
    headers: Option<&HeaderMap<HeaderValue>>,
    secrets: Secrets<'_>,
) -> Vec<String> {
    let own = headers.into_iter().flatten().map(|(name, value)| {
        (
            name.as_str().to_string(),
            String::from_utf8_lossy(value.as_bytes()).into_owned(),
        )
    });
    defaults
        .iter()
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .chain(own)
        .map(|(name, value)| format!("> {}", line(&name, &value, secrets)))
        .collect()
}

/// The lines for the headers of an answer.
pub fn response_lines(headers: &HeaderMap<HeaderValue>, secrets: Secrets<'_>) -> Vec<String> {
    headers
        .iter()
        .map(|(name, value)| {
            let value = String::from_utf8_lossy(value.as_bytes());
            format!("< {}", line(name.as_str(), &value, secrets))
        })
        .collect()
}

fn line(name: &str, value: &str, secrets: Secrets<'_>) -> String {
    let shown = if name.eq_ignore_ascii_case(secrets.key_header.as_str()) {
        mask_key(value)
    } else if SECRET_HEADERS.iter().any(|s| name.eq_ignore_ascii_case(s)) {
        "****".to_string()
    } else {
        secrets.scrubber.scrub(value).into_owned()
    };
    let name = secrets.scrubber.scrub(name);
    format!("{}: {}", escape_control(&name), escape_control(&shown))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::secret::ApiKey;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap<HeaderValue> {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn the_key_never_appears() {
        let scrubber = Scrubber::new(Some(&ApiKey::new("acc-secret-key-7f3")));
        let name = HeaderName::from_static("x-api-key");
        let secrets = Secrets {
            key_header: &name,
            scrubber: &scrubber,
        };
        let sent = headers(&[("x-api-key", "acc-secret-key-7f3")]);
        let lines = request_lines(&[("User-Agent", "smsstat/1")], Some(&sent), secrets);
        assert_eq!(lines, ["> User-Agent: smsstat/1", "> x-api-key: ****-7f3"]);
        let got = headers(&[
            ("x-echo", "you sent ACC-secret-key%2D7f3"),
            ("x-acc-secret-key-7f3", "1"),
            ("set-cookie", "s=1"),
            ("content-type", "application/json"),
        ]);
        let lines = response_lines(&got, secrets);
        assert_eq!(
            lines,
            [
                "< x-echo: you sent ****",
                "< x-****: 1",
                "< set-cookie: ****",
                "< content-type: application/json"
            ]
        );
    }
}
