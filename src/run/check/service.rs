//! The steps that talk to the service: TLS, the key, latency and routes, from
//! lookups of values that do not exist.

use std::sync::Arc;
use std::time::Instant;

use super::{cert, failed, ok, skipped, Setup, State, Step};
use crate::domain::budget::{Budget, MEMORY_BUDGET};
use crate::domain::duration::format_duration;
use crate::domain::error::LookupError;
use crate::domain::lookup::{LookupKind, PathStyle};
use crate::domain::record::Record;
use crate::http::client::Client;
use crate::settings::config::HttpSettings;
use crate::settings::origin::Origin;

/// An ID no deployment has.
const MISSING_ID: &str = "0";
const MISSING_REFERENCE: &str = "smsstat-check-no-such-reference";
const LATENCY_PROBES: usize = 3;
/// The service's code for a route it does not have ("Invalid request or API method
/// does not exists").
const NO_SUCH_METHOD: i64 = 4;

/// tls, key, latency and paths. The first probe decides tls and key; the others
/// follow only when those passed (a silent service costs one `--timeout`). A
/// proxy's refusal fails `proxy`: the gateway was never asked.
pub(super) fn service_steps(setup: &Setup, proxy: &mut Step) -> Vec<Step> {
    let http = &setup.http;
    let client = Client::new(http, 1, Arc::new(Budget::new(MEMORY_BUDGET)));
    let probe = || {
        let started = Instant::now();
        let result = client.probe(LookupKind::Sms, MISSING_ID);
        (result, started.elapsed())
    };
    let (first, took_first) = probe();
    if let (Some(_), Err(error)) = (&http.proxy, &first) {
        if let Some(why) = proxy_refusal(error) {
            let detail = format!("{} refused the request: {why}", proxy.detail);
            *proxy = failed("proxy", detail, error.exit_code());
            let not_asked = "not checked: the proxy refused the request";
            return vec![skipped("tls", not_asked), skipped("key", not_asked)];
        }
    }
    let mut steps = vec![tls_step(&first, http)];
    if steps[0].state != State::Failed {
        steps.push(key_step(&first, setup.key_origin.as_ref()));
    }
    if steps.iter().any(|s| s.state == State::Failed) {
        return steps;
    }
    let took: Vec<String> = std::iter::once(took_first)
        .chain((1..LATENCY_PROBES).map(|_| probe().1))
        .map(format_duration)
        .collect();
    let latency = format!("{LATENCY_PROBES} requests: {}", took.join(", "));
    steps.push(ok("latency", latency));
    steps.push(paths_step(&client, http.paths));
    steps
}

fn tls_step(first: &Result<Record, LookupError>, http: &HttpSettings) -> Step {
    if !http.base_url.starts_with("https:") {
        let detail = if http.key_in_clear_to().is_some() {
            "not used (http): the API key travels in clear"
        } else {
            "not used (http)"
        };
        return skipped("tls", detail);
    }
    if let Err(error @ LookupError::Tls(why)) = first {
        return failed("tls", format!("TLS: {why}"), error.exit_code());
    }
    let roots = match &http.ca_certs {
        Some(_) => "the --ca-cert certificates",
        None => "the built-in roots",
    };
    match cert::inspect(http) {
        Ok(seen) => ok("tls", format!("{seen}, verified against {roots}")),
        Err(cert::CertError::Connection(error @ LookupError::Timeout(limit))) => {
            let detail = format!("no TLS handshake within {}", format_duration(limit));
            failed("tls", detail, error.exit_code())
        }
        Err(why) => ok(
            "tls",
            format!("certificate verified against {roots} (its details unread: {why})"),
        ),
    }
}

/// A lookup of an ID that does not exist tells whether the key is accepted: the
/// service's "not found" says yes; error 1 or 401/403 says no.
fn key_step(first: &Result<Record, LookupError>, key_origin: Option<&Origin>) -> Step {
    match first {
        Ok(_) => ok(
            "key",
            format!("accepted (ID {MISSING_ID} answered a record)"),
        ),
        Err(LookupError::Service {
            code: Some(1),
            description,
            ..
        }) => {
            let said = description.as_deref().unwrap_or("invalid API key");
            let what = refused_key(key_origin);
            let detail = format!("refused: service error 1 ({said}); {what}");
            failed("key", detail, 1)
        }
        Err(error @ LookupError::Service { .. }) => {
            ok("key", format!("accepted: a missing SMS answers {error}"))
        }
        Err(error @ LookupError::NotAuthorised { .. }) => {
            let what = refused_key(key_origin);
            failed("key", format!("{error}; {what}"), error.exit_code())
        }
        Err(error) => failed("key", error.to_string(), error.exit_code()),
    }
}

/// Why a proxy refused the request itself: 407 (it wants credentials), or a
/// refused CONNECT (a 403 of the proxy's, say), which never reached the gateway.
fn proxy_refusal(error: &LookupError) -> Option<String> {
    match error {
        LookupError::NotAuthorised { status: 407, .. }
        | LookupError::UnexpectedHttp { status: 407, .. } => Some(
            "HTTP 407, it wants credentials (put them in the proxy URL: \
             http://user:password@proxy:port)"
                .into(),
        ),
        LookupError::ProxyRefused(why) => Some(format!("proxy: {why}")),
        _ => None,
    }
}

/// What to fix after error 1.
fn refused_key(key_origin: Option<&Origin>) -> String {
    match key_origin {
        None => "no API key is set: set SMSSTAT_API_KEY, --api-key or api_key in the \
                 config file"
            .into(),
        Some(Origin::Default) => "the configured API key was refused".into(),
        Some(origin) => format!("the API key from {origin} was refused"),
    }
}

/// Whether the explicit routes exist: a bare 404 or error 4 for a missing reference
/// says only the short forms do (`http::answer::is_missing_route`); then lookups
/// pinned to `--paths explicit` would fail, and so does this step.
fn paths_step(client: &Client, pinned: PathStyle) -> Step {
    let missing = match client.probe(LookupKind::SmsRef, MISSING_REFERENCE) {
        Err(
            error @ (LookupError::Service {
                code: Some(NO_SUCH_METHOD),
                ..
            }
            | LookupError::UnexpectedHttp { status: 404, .. }),
        ) => error,
        Ok(_) | Err(LookupError::Service { .. }) => {
            let short = match pinned {
                PathStyle::Short => "; --paths short uses the short forms",
                _ => "",
            };
            let answered = format!("explicit routes (/sms/reference/...) answered{short}");
            return ok("paths", answered);
        }
        Err(error) => return failed("paths", error.to_string(), error.exit_code()),
    };
    let short = match pinned {
        PathStyle::Explicit => {
            let detail = format!(
                "no explicit routes (/sms/reference/... answered {missing}), and \
                 --paths explicit uses only those: use --paths auto or short"
            );
            return failed("paths", detail, missing.exit_code());
        }
        PathStyle::Auto => "lookups use the short forms (/sms/R), as --paths auto does",
        PathStyle::Short => "--paths short uses the short forms (/sms/R)",
    };
    ok("paths", format!("no explicit routes: {short}"))
}
