//! `--wait`: polling a value until its record is final, as a state the batch engine
//! keeps between polls (no thread waits for a poll's time), and when the wait is
//! over. Plain code with no I/O.

use std::time::{Duration, Instant};

use crate::domain::error::LookupError;
use crate::domain::record::Record;
use crate::domain::verdict::{stage, Stage, WaitSettings};
use crate::http::retry::MAX_RETRY_AFTER;

/// Longest pause between polls after repeated transient errors.
const MAX_INTERVAL: Duration = Duration::from_secs(30);

/// One value being watched.
#[derive(Debug)]
pub struct Watch {
    pub started: Instant,
    /// The pause before the next poll: the setting, doubled after transient errors.
    interval: Duration,
    /// Polls answered so far.
    pub polls: u32,
    /// The most useful result so far: a record seen beats a later transient error.
    last: Option<Result<Record, LookupError>>,
}

/// What a poll's result means for the watch.
#[derive(Debug)]
pub enum Polled {
    /// The watch is over: the final record, the last one seen when time ran out, or
    /// a failure that polling will not cure.
    Over(Result<Record, LookupError>),
    /// Poll again at this time.
    Again(Instant),
}

impl Watch {
    pub fn new(settings: &WaitSettings, now: Instant) -> Watch {
        Watch {
            started: now,
            interval: settings.interval,
            polls: 0,
            last: None,
        }
    }

    /// Before a poll other than the first: the watch is over when `deadline`
    /// (shared by every lookup of a batch) has passed, with the result seen last.
    pub fn expired(
        &mut self,
        now: Instant,
        deadline: Instant,
    ) -> Option<Result<Record, LookupError>> {
        match self.polls > 0 && now >= deadline {
            true => self.last.take(),
            false => None,
        }
    }

    /// The result of a poll (`retry_after`: the pause the server asked for).
    pub fn polled(
        &mut self,
        result: Result<Record, LookupError>,
        retry_after: Option<Duration>,
        settings: &WaitSettings,
        now: Instant,
        deadline: Instant,
    ) -> Polled {
        self.polls += 1;
        match &result {
            Ok(record) => {
                self.interval = settings.interval;
                if stage(record, &settings.until) == Stage::Final {
                    return Polled::Over(result);
                }
            }
            Err(error) if is_transient(error) => {
                self.interval = (self.interval * 2).min(MAX_INTERVAL)
            }
            // The deadline passed just before this poll: the record seen is the
            // answer (it was looked up), not "not looked up".
            Err(LookupError::WaitOver) if matches!(self.last, Some(Ok(_))) => {
                return Polled::Over(self.last.take().expect("matched above"));
            }
            Err(_) => return Polled::Over(result),
        }
        // A record seen earlier is more useful than a later transient error.
        if result.is_ok() || !matches!(self.last, Some(Ok(_))) {
            self.last = Some(result);
        }
        if now >= deadline {
            return Polled::Over(self.last.take().expect("set above"));
        }
        // The server's wish (Retry-After) is a floor, as long as the deadline allows.
        let wish = retry_after.unwrap_or_default().min(MAX_RETRY_AFTER);
        let pause = self.interval.max(wish).min(deadline - now);
        Polled::Again(now + pause)
    }
}

/// Failures worth polling through: the service may be back on the next poll.
fn is_transient(error: &LookupError) -> bool {
    matches!(
        error,
        LookupError::Timeout(_)
            | LookupError::Unavailable(_)
            | LookupError::UnexpectedHttp { status: 429, .. }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::record::RecordKind;

    fn settings() -> WaitSettings {
        WaitSettings {
            interval: Duration::from_secs(2),
            timeout: Duration::from_secs(60),
            until: Vec::new(),
        }
    }

    fn record(status: &str) -> Result<Record, LookupError> {
        let body = format!(r#"{{"error":0,"status":"{status}","sms_id":1}}"#);
        crate::http::answer::read_answer(200, None, body.as_bytes(), RecordKind::Sms)
    }

    #[test]
    fn a_pending_record_is_polled_again_after_the_interval() {
        let (now, settings) = (Instant::now(), settings());
        let mut watch = Watch::new(&settings, now);
        let polled = watch.polled(
            record("queued"),
            None,
            &settings,
            now,
            now + settings.timeout,
        );
        assert!(
            matches!(polled, Polled::Again(at) if at == now + settings.interval),
            "{polled:?}"
        );
        let polled = watch.polled(
            record("delivered"),
            None,
            &settings,
            now,
            now + settings.timeout,
        );
        assert!(matches!(polled, Polled::Over(Ok(_))), "{polled:?}");
        assert_eq!(watch.polls, 2);
    }

    #[test]
    fn transient_errors_double_the_interval_and_keep_the_record_seen() {
        let (now, settings) = (Instant::now(), settings());
        let deadline = now + settings.timeout;
        let mut watch = Watch::new(&settings, now);
        watch.polled(record("queued"), None, &settings, now, deadline);
        let timeout = Err(LookupError::Timeout(Duration::from_secs(1)));
        let polled = watch.polled(timeout, None, &settings, now, deadline);
        assert!(matches!(polled, Polled::Again(at) if at == now + settings.interval * 2));
        let later = now + Duration::from_secs(61);
        let over = watch.expired(later, deadline).expect("the deadline passed");
        assert_eq!(over.expect("the record seen").fields["status"], "queued");
    }

    #[test]
    fn the_server_s_retry_after_is_a_floor_within_the_deadline() {
        let (now, settings) = (Instant::now(), settings());
        let mut watch = Watch::new(&settings, now);
        let polled = watch.polled(
            record("queued"),
            Some(Duration::from_secs(10)),
            &settings,
            now,
            now + Duration::from_secs(5),
        );
        assert!(
            matches!(polled, Polled::Again(at) if at == now + Duration::from_secs(5)),
            "{polled:?}"
        );
    }

    #[test]
    fn a_failure_that_polling_cannot_cure_ends_the_watch() {
        let (now, settings) = (Instant::now(), settings());
        let mut watch = Watch::new(&settings, now);
        let refused = Err(LookupError::Usage("bad".into()));
        assert!(matches!(
            watch.polled(refused, None, &settings, now, now + settings.timeout),
            Polled::Over(Err(_))
        ));
        assert!(
            watch.expired(now, now).is_none(),
            "the first poll is always made"
        );
    }
}
