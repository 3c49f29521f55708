//! Stopping a batch early on account-level failures: after service error 1 (invalid
//! key) or 2 (account blocked), or a run of refused connections, every later value
//! would fail the same way. Lookups are no longer sent; each value still gets its
//! line ("not looked up: ...") with the failure's exit code. `--keep-going` turns
//! this off.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use crate::domain::error::LookupError;

/// Lookups in a row that found the service refusing connections (each after its
/// retries) before the rest of the batch is given up.
pub const REFUSED_STREAK: usize = 20;

#[derive(Debug, Default)]
pub struct Halt {
    enabled: bool,
    reason: OnceLock<(String, u8)>,
    refused_in_a_row: AtomicUsize,
}

impl Halt {
    pub fn new(enabled: bool) -> Halt {
        Halt {
            enabled,
            ..Halt::default()
        }
    }

    pub fn refusal(&self) -> Option<LookupError> {
        let (reason, code) = self.reason.get()?.clone();
        Some(LookupError::NotLookedUp { reason, code })
    }

    pub fn observe<T>(&self, result: &Result<T, LookupError>) {
        let Some(error) = result.as_ref().err().filter(|_| self.enabled) else {
            return self.refused_in_a_row.store(0, Ordering::Relaxed);
        };
        let reason = match error {
            // Service errors 1 and 2 concern the account, not the value looked up.
            LookupError::Service {
                code: Some(code @ (1 | 2)),
                description,
                ..
            } => {
                let what = description.as_deref().unwrap_or("no description");
                format!("stopped after service error {code} ({what})")
            }
            // 401 says the key is wrong for every lookup alike (403 may be about one
            // record); 407, that the proxy wants credentials.
            LookupError::NotAuthorised {
                status: status @ (401 | 407),
                ..
            } => format!("stopped after HTTP {status} (not authorised)"),
            LookupError::Refused(_) => {
                let streak = self.refused_in_a_row.fetch_add(1, Ordering::Relaxed) + 1;
                if streak < REFUSED_STREAK {
                    return;
                }
                format!("stopped after {REFUSED_STREAK} lookups in a row found connections refused")
            }
            _ => return self.refused_in_a_row.store(0, Ordering::Relaxed),
        };
        let _ = self.reason.set((reason, error.exit_code()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn service(code: i64) -> Result<(), LookupError> {
        Err(LookupError::Service {
            code: Some(code),
            shown_code: code.to_string(),
            description: Some("Invalid API key".into()),
            body: Box::default(),
        })
    }

    #[test]
    fn account_errors_stop_the_batch_with_their_code() {
        let halt = Halt::new(true);
        halt.observe(&service(20));
        assert!(halt.refusal().is_none());
        halt.observe(&service(1));
        let refusal = halt.refusal().unwrap();
        assert_eq!(refusal.exit_code(), 1);
        assert_eq!(
            refusal.to_string(),
            "not looked up: stopped after service error 1 (Invalid API key)"
        );
    }

    #[test]
    fn a_streak_of_refused_connections_stops_the_batch() {
        let halt = Halt::new(true);
        let refused = || Err::<(), _>(LookupError::Refused("Connection refused".into()));
        for _ in 1..REFUSED_STREAK {
            halt.observe(&refused());
        }
        halt.observe(&Ok(()));
        for _ in 1..REFUSED_STREAK {
            halt.observe(&refused());
        }
        assert!(halt.refusal().is_none(), "an answer breaks the streak");
        halt.observe(&refused());
        assert_eq!(halt.refusal().unwrap().exit_code(), 69);
    }

    #[test]
    fn keep_going_never_stops() {
        let halt = Halt::new(false);
        halt.observe(&service(1));
        assert!(halt.refusal().is_none());
    }
}
