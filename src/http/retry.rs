//! Exponential backoff with jitter, honouring the server's `Retry-After` up to a cap.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::time::{Duration, SystemTime};

const FIRST_DELAY: Duration = Duration::from_millis(200);
const MAX_DELAY: Duration = Duration::from_secs(10);
/// A server asking for a longer pause than this is not worth waiting for in a CLI.
pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(30);

/// The pauses after transient failures, for retries and `--wait` polls alike.
#[derive(Debug, Clone)]
pub struct Backoff {
    next: Duration,
    max: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff::between(FIRST_DELAY, MAX_DELAY)
    }
}

impl Backoff {
    /// Doubling from `first` up to `max`.
    pub fn between(first: Duration, max: Duration) -> Backoff {
        Backoff { next: first, max }
    }

    /// The pause before the next try: the server's wish when it stated one, else the
    /// doubling delay plus up to 50 % jitter (so that parallel workers spread out).
    pub fn next_delay(&mut self, retry_after: Option<Duration>) -> Duration {
        let base = self.next;
        self.next = (self.next * 2).min(self.max);
        match retry_after {
            Some(wish) => wish.min(MAX_RETRY_AFTER),
            None => base + base.mul_f64(jitter_fraction() * 0.5),
        }
    }
}

/// A random fraction in [0, 1) from the standard library's per-process random keys:
/// jitter needs no cryptographic quality and no extra crate.
fn jitter_fraction() -> f64 {
    (RandomState::new().hash_one(0u64) >> 11) as f64 / (1u64 << 53) as f64
}

/// `Retry-After` as seconds or as an HTTP date (a date in the past means now).
pub(crate) fn parse_retry_after(value: &str) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(SystemTime::now()).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_double_with_bounded_jitter() {
        let mut backoff = Backoff::default();
        let first = backoff.next_delay(None);
        assert!(first >= FIRST_DELAY && first <= FIRST_DELAY.mul_f64(1.5));
        let second = backoff.next_delay(None);
        assert!(second >= FIRST_DELAY * 2 && second <= (FIRST_DELAY * 2).mul_f64(1.5));
        for _ in 0..20 {
            assert!(backoff.next_delay(None) <= MAX_DELAY.mul_f64(1.5));
        }
    }

    #[test]
    fn retry_after_is_honoured_up_to_a_cap() {
        let mut backoff = Backoff::default();
        assert_eq!(
            backoff.next_delay(Some(Duration::from_secs(3))),
            Duration::from_secs(3)
        );
        assert_eq!(
            backoff.next_delay(Some(Duration::from_secs(3600))),
            MAX_RETRY_AFTER
        );
    }

    #[test]
    fn retry_after_seconds() {
        assert_eq!(parse_retry_after(" 3 "), Some(Duration::from_secs(3)));
        assert_eq!(parse_retry_after("soon"), None);
    }

    #[test]
    fn retry_after_dates() {
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"),
            Some(Duration::ZERO)
        );
        let later = std::time::SystemTime::now() + Duration::from_secs(120);
        let wait = parse_retry_after(&httpdate::fmt_http_date(later)).unwrap();
        assert!(
            wait > Duration::from_secs(100) && wait <= Duration::from_secs(120),
            "{wait:?}"
        );
    }
}
