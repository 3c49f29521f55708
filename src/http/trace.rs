//! `-vv`: request and response headers on stderr, curl-style (`> ` sent, `< `
//! received). The key header is masked, credentials in other headers are hidden, and
//! the key is scrubbed from any value that echoes it: the key never appears.

use ureq::http::HeaderName;

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

/// One header as `-vv` shows it: `name: value`, safe to print.
pub fn line(name: &str, value: &[u8], key_header: &HeaderName, scrubber: &Scrubber) -> String {
    let value = String::from_utf8_lossy(value);
    let shown = if name.eq_ignore_ascii_case(key_header.as_str()) {
        mask_key(&value)
    } else if SECRET_HEADERS.iter().any(|s| name.eq_ignore_ascii_case(s)) {
        "****".to_string()
    } else {
        scrubber.scrub(&value).into_owned()
    };
    let name = scrubber.scrub(name);
    format!("{}: {}", escape_control(&name), escape_control(&shown))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::secret::ApiKey;

    #[test]
    fn the_key_never_appears() {
        let scrubber = Scrubber::new(Some(&ApiKey::new("acc-secret-key-7f3")));
        let key_header = HeaderName::from_static("x-api-key");
        let lines: Vec<String> = [
            ("User-Agent", "smsstat/1"),
            ("x-api-key", "acc-secret-key-7f3"),
            ("x-echo", "you sent ACC-secret-key%2D7f3"),
            ("x-acc-secret-key-7f3", "1"),
            ("set-cookie", "s=1"),
            ("content-type", "application/json"),
        ]
        .iter()
        .map(|(name, value)| line(name, value.as_bytes(), &key_header, &scrubber))
        .collect();
        assert_eq!(
            lines,
            [
                "User-Agent: smsstat/1",
                "x-api-key: ****-7f3",
                "x-echo: you sent ****",
                "x-****: 1",
                "set-cookie: ****",
                "content-type: application/json"
            ]
        );
    }
}
