//! Typed errors; `run::app` turns each into one stderr line and an exit code.

use std::time::Duration;

use serde_json::{Map, Value};
use thiserror::Error;

use crate::domain::duration::format_duration;
use crate::domain::exit_codes;

/// Why one lookup did not produce a record.
#[derive(Debug, Error)]
pub enum LookupError {
    /// The service answered with a non-zero `error` in a JSON body.
    #[error("{} (service error {shown_code})", description.as_deref().unwrap_or("no description"))]
    Service {
        code: Option<i64>,
        /// The code as the service sent it, for messages.
        shown_code: String,
        description: Option<String>,
        /// The whole body, printed as is by `--json` (boxed: it is rare and large).
        body: Box<Map<String, Value>>,
    },

    #[error("{0}")]
    Usage(String),

    #[error("unreadable answer: {0}")]
    Unreadable(String),

    /// A failure that may pass: reset, 502, 503, 504. Retried.
    #[error("service unavailable: {0}")]
    Unavailable(String),

    /// Nothing listens there (connection refused): retried, and a run of them
    /// stops a batch early.
    #[error("service unavailable: {0}")]
    Refused(String),

    /// The service failed on this request (500 and the other 5xx): sent again, it
    /// would most likely fail again, so it is not retried.
    #[error("service unavailable: {0}")]
    ServerFault(String),

    /// A failure that will not pass by retrying: unknown host, TLS refused.
    #[error("service unreachable: {0}")]
    Unreachable(String),

    /// The TLS handshake failed: like `Unreachable`, but `check`'s tls step names it.
    #[error("service unreachable: TLS: {0}")]
    Tls(String),

    /// A proxy refused to open the tunnel (a 403 or 502 of its own): the request
    /// never reached the service.
    #[error("service unavailable: proxy: {0}")]
    ProxyRefused(String),

    #[error("timed out after {}", format_duration(*.0))]
    Timeout(Duration),

    /// The run's `--wait` timeout passed before this lookup could be sent.
    #[error("not looked up: the --wait timeout had passed")]
    WaitOver,

    /// A 429 that outlived the retries is a temporary failure (exit 75), not an
    /// unexpected answer: the same call later will likely succeed.
    #[error("{}{}{}", if *status == 429 { "rate limited: HTTP 429 (still after the retries; try again later)".to_string() } else { format!("unexpected HTTP answer: {status}") }, location.as_deref().map(|l| format!(" redirecting to {l} (redirects are not followed)")).unwrap_or_default(), said(message))]
    UnexpectedHttp {
        status: u16,
        location: Option<String>,
        /// The service's own words from a body not in the spec's shape
        /// (`message`, `errors`), already escaped and cut.
        message: Option<String>,
    },

    #[error("not authorised: HTTP {status} ({}){}", auth_hint(*status), said(message))]
    NotAuthorised {
        status: u16,
        message: Option<String>,
    },

    /// The answer is another record than the one asked for (short forms overlap);
    /// kept whole so `--json` still shows what came back.
    #[error("{message}")]
    WrongRecord {
        message: String,
        record: Box<Map<String, Value>>,
    },

    /// Still running when a signal ended the run; `code` is the run's (130 for
    /// SIGINT, 143 for SIGTERM, 129 for SIGHUP), so every line agrees with it.
    #[error("interrupted")]
    Interrupted { code: u8 },

    #[error("internal error: {0}")]
    Internal(String),

    /// Not sent: the batch stopped starting lookups after an account-level failure
    /// (`reason`); the value still gets its line, with that failure's exit code.
    #[error("not looked up: {reason}")]
    NotLookedUp { reason: String, code: u8 },
}

impl LookupError {
    /// The exit code and the short category for summaries (`timed out`), in one row
    /// per variant; a service error's category names its code.
    fn class(&self) -> (u8, &'static str) {
        use exit_codes::*;
        use LookupError::*;
        match self {
            Service { code, .. } => (for_service_code(*code), "service error"),
            Usage(_) => (USAGE, "invalid"),
            Unreadable(_) => (UNREADABLE, "unreadable"),
            Unavailable(_) | Refused(_) | ServerFault(_) => (UNAVAILABLE, "unavailable"),
            ProxyRefused(_) => (UNAVAILABLE, "unavailable"),
            Unreachable(_) | Tls(_) => (UNAVAILABLE, "unreachable"),
            Timeout(_) => (TIMEOUT, "timed out"),
            // Never sent (the batch's --wait time was up before its turn): it did
            // not time out, and a report or summary should not say it did.
            WaitOver => (TIMEOUT, "not looked up"),
            UnexpectedHttp { status: 429, .. } => (TIMEOUT, "rate limited"),
            UnexpectedHttp { .. } => (UNEXPECTED_HTTP, "unexpected HTTP answer"),
            NotAuthorised { .. } => (NOT_AUTHORISED, "not authorised"),
            WrongRecord { .. } => (UNREADABLE, "another record"),
            Interrupted { code } => (*code, "interrupted"),
            Internal(_) => (INTERNAL, "internal error"),
            NotLookedUp { code, .. } => (*code, "not looked up"),
        }
    }

    pub fn exit_code(&self) -> u8 {
        self.class().0
    }

    /// The one rule of what may pass by asking again, for retries and `--wait`
    /// polls alike: a timeout, the service unavailable (refused, reset, 502, 503,
    /// 504) or its proxy refusing, or rate limited (429).
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            LookupError::Timeout(_)
                | LookupError::Unavailable(_)
                | LookupError::Refused(_)
                | LookupError::ProxyRefused(_)
                | LookupError::UnexpectedHttp { status: 429, .. }
        )
    }

    /// Short category for summaries: `service error 20`, `timed out`.
    pub fn category(&self) -> String {
        match self {
            LookupError::Service { shown_code, .. } => format!("service error {shown_code}"),
            other => other.class().1.into(),
        }
    }
}

/// 407 comes from a proxy on the way, not from the service.
fn auth_hint(status: u16) -> &'static str {
    match status {
        407 => "proxy authentication required: put user:password@ in the proxy URL",
        _ => "check the API key",
    }
}

/// `: the service said "..."`, when it said something.
fn said(message: &Option<String>) -> String {
    message
        .as_deref()
        .map(|m| format!(": the service said \"{m}\""))
        .unwrap_or_default()
}

/// A setting that cannot be used (exit 78).
#[derive(Debug, Error)]
#[error("{0}")]
pub struct ConfigError(pub String);

/// Why the settings cannot run a lookup: a bad value typed or exported is a usage
/// error (64), the fix being where the message says; the rest is a configuration
/// error (78).
#[derive(Debug, Error)]
pub enum SettingsError {
    /// A flag's or `SMSSTAT_*` variable's unusable value (named first in the message),
    /// options that do nothing together, or a field name no record has (64).
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    Config(#[from] ConfigError),
}

impl SettingsError {
    pub fn exit_code(&self) -> u8 {
        match self {
            SettingsError::Usage(_) => exit_codes::USAGE,
            SettingsError::Config(_) => exit_codes::CONFIG,
        }
    }
}
