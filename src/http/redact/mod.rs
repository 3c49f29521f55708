//! The one secret scrubber: a server may echo the key anywhere, and every echo becomes
//! `****` before any output (terminals, CI logs) sees it. It runs on parsed text, never
//! on the raw body, so a number or a field name smsstat reads is never changed (a key
//! `20` cannot turn `{"error":20}` into something else); other field names are
//! scrubbed, as `--json` prints them. An echo is found in any ASCII case, raw,
//! percent-encoded, JSON-escaped or any mix, and base64/base64url at any alignment.

use std::borrow::Cow;

use base64::engine::general_purpose::{STANDARD_NO_PAD, URL_SAFE_NO_PAD};
use base64::Engine as _;
use serde_json::{Map, Value};

use crate::domain::error::LookupError;
use crate::domain::record::Record;
use crate::settings::secret::ApiKey;

pub const MASK: &str = "****";

/// A base64 needle shorter than this would match ordinary text far too often.
const MIN_BASE64_NEEDLE: usize = 4;

/// The scrubber for one key (or for none: then it changes nothing).
#[derive(Debug, Clone, Default)]
pub struct Scrubber {
    key: Vec<u8>,
    /// The key's base64 and base64url forms at each of the three alignments.
    base64: Vec<String>,
}

impl Scrubber {
    pub fn new(key: Option<&ApiKey>) -> Scrubber {
        let key = key.map(ApiKey::expose).unwrap_or("").as_bytes().to_vec();
        let base64 = base64_needles(&key);
        Scrubber { key, base64 }
    }

    pub fn is_active(&self) -> bool {
        !self.key.is_empty()
    }

    pub fn scrub<'t>(&self, text: &'t str) -> Cow<'t, str> {
        if !self.is_active() {
            return Cow::Borrowed(text);
        }
        // Every echo spelled in any mix of raw bytes (any ASCII case), `%XX` and JSON
        // escapes, then every base64 one.
        let (bytes, mut spans, mut at) = (text.as_bytes(), Vec::new(), 0);
        while at < bytes.len() {
            let mut key = self.key.iter();
            match key.try_fold(at, |at, &want| Some(at + one_byte(&bytes[at..], want)?)) {
                Some(end) => {
                    spans.push((at, end));
                    at = end;
                }
                None => at += 1,
            }
        }
        for needle in &self.base64 {
            let found = text.match_indices(needle.as_str());
            spans.extend(found.map(|(at, _)| (at, at + needle.len())));
        }
        if spans.is_empty() {
            return Cow::Borrowed(text);
        }
        spans.sort_unstable();
        let mut out = String::with_capacity(text.len());
        let mut rest = 0;
        for (start, end) in spans {
            if end <= rest || !text.is_char_boundary(start) || !text.is_char_boundary(end) {
                continue;
            }
            // Overlapping echoes merge into one mask.
            if start >= rest {
                out.push_str(&text[rest..start]);
                out.push_str(MASK);
            }
            rest = end;
        }
        out.push_str(&text[rest..]);
        Cow::Owned(out)
    }

    pub fn scrub_string(&self, text: &mut String) {
        if let Cow::Owned(scrubbed) = self.scrub(text) {
            *text = scrubbed;
        }
    }

    /// Every string in a JSON value; numbers and known field names are left as sent.
    pub fn scrub_value(&self, value: &mut Value) {
        match value {
            Value::String(s) => self.scrub_string(s),
            Value::Array(items) => items.iter_mut().for_each(|v| self.scrub_value(v)),
            Value::Object(map) => self.scrub_map(map),
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }

    pub fn scrub_map(&self, map: &mut Map<String, Value>) {
        if !self.is_active() {
            return;
        }
        map.values_mut().for_each(|v| self.scrub_value(v));
        let echoes = |name: &String| !is_known_field(name) && self.scrub(name) != **name;
        if map.keys().any(echoes) {
            // Rebuilt rather than edited in place, so the order is kept.
            *map = std::mem::take(map)
                .into_iter()
                .map(|(name, value)| match is_known_field(&name) {
                    true => (name, value),
                    false => (self.scrub(&name).into_owned(), value),
                })
                .collect();
        }
    }

    pub fn scrub_result(&self, result: &mut Result<Record, LookupError>) {
        let error = match result {
            Ok(record) => return self.scrub_map(&mut record.fields),
            Err(error) => error,
        };
        match error {
            LookupError::Service {
                shown_code,
                description,
                body,
                ..
            } => {
                let texts = [Some(shown_code), description.as_mut()].into_iter();
                texts.flatten().for_each(|text| self.scrub_string(text));
                self.scrub_map(body);
            }
            LookupError::UnexpectedHttp {
                location, message, ..
            } => {
                let texts = [location, message].into_iter().flatten();
                texts.for_each(|text| self.scrub_string(text));
            }
            LookupError::WrongRecord { message, record } => {
                self.scrub_string(message);
                self.scrub_map(record);
            }
            LookupError::Usage(text)
            | LookupError::Unreadable(text)
            | LookupError::Unavailable(text)
            | LookupError::Refused(text)
            | LookupError::ServerFault(text)
            | LookupError::Unreachable(text)
            | LookupError::Tls(text)
            | LookupError::ProxyRefused(text)
            | LookupError::Internal(text)
            | LookupError::NotLookedUp { reason: text, .. } => self.scrub_string(text),
            LookupError::NotAuthorised { message, .. } => {
                message.iter_mut().for_each(|text| self.scrub_string(text))
            }
            LookupError::Timeout(_) | LookupError::WaitOver | LookupError::Interrupted { .. } => {}
        }
    }
}

/// A field smsstat reads or labels: renaming it would change what an answer means.
fn is_known_field(name: &str) -> bool {
    crate::domain::fields::ERROR_FIELDS.contains(&name)
        || crate::domain::fields::FIELDS.iter().any(|f| f.key == name)
}

/// How many bytes of `text` spell the key byte `want` at its start, if they do: the
/// byte itself, `%XX`, or a JSON escape (`\u00XX`, `\/`, `\\`, `\"`).
fn one_byte(text: &[u8], want: u8) -> Option<usize> {
    let first = *text.first()?;
    let escaped = match (first, text.get(1)) {
        (b'%', _) => text.get(1..3).and_then(hex_pair).map(|b| (b, 3)),
        (b'\\', Some(b'u')) if text.get(2..4) == Some(b"00") => {
            text.get(4..6).and_then(hex_pair).map(|b| (b, 6))
        }
        (b'\\', Some(&c @ (b'/' | b'\\' | b'"'))) => Some((c, 2)),
        _ => None,
    };
    let spelled = |(b, len): (u8, usize)| b.eq_ignore_ascii_case(&want).then_some(len);
    escaped.and_then(spelled).or_else(|| spelled((first, 1)))
}

fn hex_pair(pair: &[u8]) -> Option<u8> {
    let digit = |b: u8| (b as char).to_digit(16);
    Some((digit(pair[0])? * 16 + digit(pair[1])?) as u8)
}

/// The key's base64 (standard and URL-safe) as it appears at each of the three byte
/// alignments inside a longer encoded blob: only the characters that depend on the
/// key's bytes alone.
fn base64_needles(key: &[u8]) -> Vec<String> {
    let mut needles = Vec::new();
    for offset in 0..3 {
        let mut shifted = vec![0u8; offset];
        shifted.extend_from_slice(key);
        let first = (offset * 8).div_ceil(6);
        // A character is the key's alone when all its 6 bits are key bits; at
        // alignment 0 the last (partial) one is too when the blob ends there.
        let bits = shifted.len() * 8;
        let partial = usize::from(offset == 0 && bits % 6 != 0);
        let ends = [bits / 6, bits / 6 + partial];
        for engine in [&STANDARD_NO_PAD, &URL_SAFE_NO_PAD] {
            let encoded = engine.encode(&shifted);
            let cuts = ends.iter().filter_map(|&end| encoded.get(first..end));
            needles.extend(
                cuts.filter(|n| n.len() >= MIN_BASE64_NEEDLE)
                    .map(str::to_string),
            );
        }
    }
    needles.sort_unstable();
    needles.dedup();
    needles
}

#[cfg(test)]
mod tests;
