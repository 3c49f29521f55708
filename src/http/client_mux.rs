//! The client's side of a multiplexed batch (`http/mux.rs`): whether a run can go
//! that way, and the rest of a lookup once the multiplexer has its first answer.
//! The rest is the blocking client's own code, given that answer as its first try,
//! so that retries, the short path and every verdict stay as they are.

use std::time::Instant;

use rustls::pki_types::ServerName;
use ureq::http::header::{ACCEPT, USER_AGENT};
use ureq::http::{HeaderValue, Uri};

use super::{Answer, Client};
use crate::domain::error::LookupError;
use crate::domain::lookup::LookupKind;
use crate::domain::record::Record;
use crate::http::agents;
use crate::http::answer::{is_missing_route, parse_object_scrubbed};
use crate::http::budget::Permit;
use crate::http::mux::{Mux, Reply, Target};
use crate::http::retry::is_transient_status;
use crate::http::tls::rustls_config;
use crate::settings::config::Config;

/// A lookup's first answer from the multiplexer, parsed once.
pub struct First {
    answer: Result<Answer<'static>, LookupError>,
    paths: Vec<String>,
}

impl Client {
    /// The multiplexer for this run, when every first request can go through it:
    /// http or https straight to the origin (no proxy), no `-v` trace (it belongs
    /// to the blocking path), a name that resolves.
    pub fn multiplexer(&self, config: &Config) -> Option<Mux> {
        if self.verbose > 0 || config.proxy.is_some() || self.debug_panic.is_some() {
            return None;
        }
        let uri: Uri = self.base_url.parse().ok()?;
        let host = uri.host()?.trim_start_matches('[').trim_end_matches(']');
        let tls = match uri.scheme_str() {
            Some("http") => None,
            Some("https") => {
                let name = ServerName::try_from(host.to_string()).ok()?;
                Some((rustls_config(config.ca_certs.as_ref()), name))
            }
            _ => return None,
        };
        // The agent's own headers, as ureq sends them on the thread engine.
        let mut headers = vec![
            (USER_AGENT, HeaderValue::from_static(agents::USER_AGENT)),
            (ACCEPT, HeaderValue::from_static(agents::ACCEPT)),
        ];
        if let Some(key) = &self.api_key {
            let mut value = HeaderValue::from_str(key.expose()).ok()?;
            value.set_sensitive(true);
            headers.push((self.api_key_header.clone(), value));
        }
        let addrs = self.agents.resolve(&uri, self.timeout)?;
        Some(Mux::new(Target {
            addrs,
            base_url: self.base_url.clone(),
            headers,
            timeout: self.timeout,
            max_body: self.max_body,
            tls,
        }))
    }

    /// When a new request may go (`--rate`, a 429's pause): None for now.
    pub fn turn(&self) -> Option<Instant> {
        self.pace.turn()
    }

    /// Whether a pause that began after `turn` was taken holds it.
    pub fn held_past(&self, turn: Instant) -> bool {
        self.pace.held_past(turn)
    }

    /// The first answer of a lookup whose requests go to `paths` in order, and
    /// whether it settles the lookup: no retry due and no other path to try, so
    /// that the rest is reading it, with no waiting.
    pub fn first_answer(
        &self,
        paths: Vec<String>,
        reply: Result<Reply, LookupError>,
    ) -> (First, bool) {
        let answer = reply.map(|reply| {
            let (retry_after, location) = Answer::head(&reply.headers);
            Answer {
                status: reply.status,
                retry_after,
                location,
                parsed: Some(parse_object_scrubbed(&reply.body, &self.scrubber)),
                body: reply.body,
                _permit: Permit::none(),
            }
        });
        let settles = match &answer {
            Ok(answer) if self.retries > 0 && is_transient_status(answer.status) => false,
            Ok(answer) => {
                let parsed = answer.parsed.as_ref().expect("parsed above");
                paths.len() < 2 || !is_missing_route(answer.status, parsed)
            }
            Err(LookupError::Timeout(_) | LookupError::Unavailable(_)) => self.retries == 0,
            Err(_) => true,
        };
        (First { answer, paths }, settles)
    }

    /// The lookup, its first try being `first`: its result as sent (`protect` it
    /// before showing it). Blocks only when `first_answer` said it does not settle.
    pub fn lookup_after(
        &self,
        kind: LookupKind,
        value: &str,
        first: First,
    ) -> Result<Record, LookupError> {
        let mut retry_after = None;
        self.lookup_inner(
            kind,
            value,
            None,
            &mut retry_after,
            first.paths,
            Some(first.answer),
        )
    }
}
