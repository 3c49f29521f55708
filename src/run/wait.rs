//! `--wait`: polling a value until its record is final, as a state the batch engine
//! keeps between polls (no thread waits for a poll's time), and when the wait is
//! over. Plain code with no I/O.

use std::time::{Duration, Instant};

use crate::domain::error::LookupError;
use crate::domain::record::{Record, RecordKind};
use crate::domain::step::Step;
use crate::domain::verdict::{stage, Stage, WaitSettings};
use crate::http::retry::{Backoff, MAX_RETRY_AFTER};

/// Longest pause between polls after repeated transient errors, unless the
/// interval asked for is longer: that one is never shortened.
const MAX_INTERVAL: Duration = Duration::from_secs(30);

/// One value being watched; the last record seen is the lookup's (a stop reads it).
#[derive(Debug)]
pub struct Watch {
    backoff: Backoff,
    /// Polls answered so far.
    pub polls: u32,
    /// A transient failure since the last record: the result when no record came.
    failure: Option<LookupError>,
}

impl Watch {
    pub fn new(settings: &WaitSettings) -> Watch {
        Watch {
            backoff: poll_backoff(settings),
            polls: 0,
            failure: None,
        }
    }

    /// A poll's result, with `last`, the record seen before it (a pending record
    /// replaces it). Done with the final record, the last one seen when time ran
    /// out (a poll the deadline cut off is `WaitOver`), or a failure that polling
    /// will not cure.
    pub fn polled(
        &mut self,
        result: Result<Record, LookupError>,
        retry_after: Option<Duration>,
        settings: &WaitSettings,
        last: &mut Option<Kept>,
        now: Instant,
        deadline: Instant,
    ) -> Step<Result<Record, LookupError>> {
        match result {
            Ok(record) => {
                self.polls += 1;
                self.backoff = poll_backoff(settings);
                self.failure = None;
                if stage(&record, &settings.until) == Stage::Final {
                    return Step::Done(Ok(record));
                }
                *last = Some(Kept::of(&record));
            }
            Err(error) if error.is_transient() => {
                self.polls += 1;
                self.failure = Some(error);
            }
            Err(LookupError::WaitOver) => return Step::Done(self.seen(last)),
            Err(error) => return Step::Done(Err(error)),
        }
        if now >= deadline {
            return Step::Done(self.seen(last));
        }
        let pause = match self.failure.is_some() {
            true => self.backoff.next_delay(None),
            false => settings.interval,
        };
        // The server's wish (Retry-After) is a floor, as long as the deadline allows.
        let wish = retry_after.unwrap_or_default().min(MAX_RETRY_AFTER);
        let pause = pause.max(wish).min(deadline - now);
        Step::At(now + pause)
    }

    /// What the watch comes to when time is up: the last record seen beats a later
    /// transient failure; with neither, the value was never looked up.
    fn seen(&mut self, last: &Option<Kept>) -> Result<Record, LookupError> {
        match (last, self.failure.take()) {
            (Some(kept), _) => Ok(kept.record()),
            (None, Some(failure)) => Err(failure),
            (None, None) => Err(LookupError::WaitOver),
        }
    }
}

/// A watched value's last record while it waits for its next poll: its fields as
/// compact JSON, read back when needed (the deadline, a stop). A parsed map of a
/// 200-byte record holds about 2 KiB; 20,000 watched values held 68 MiB that way.
#[derive(Debug, PartialEq)]
pub struct Kept {
    kind: RecordKind,
    json: Box<[u8]>,
}

impl Kept {
    pub fn of(record: &Record) -> Kept {
        let json = serde_json::to_vec(&record.fields).unwrap_or_default();
        Kept {
            kind: record.kind,
            json: json.into_boxed_slice(),
        }
    }

    pub fn record(&self) -> Record {
        Record {
            kind: self.kind,
            fields: serde_json::from_slice(&self.json).unwrap_or_default(),
        }
    }
}

/// After a transient error the next poll waits longer, as a retry does: the
/// interval doubled, up to `MAX_INTERVAL` (or the interval, when it is longer).
fn poll_backoff(settings: &WaitSettings) -> Backoff {
    let mut backoff = Backoff::between(settings.interval, MAX_INTERVAL.max(settings.interval));
    // The first pause after an error is already twice the interval.
    backoff.next_delay(None);
    backoff
}

#[cfg(test)]
mod tests {
    use super::*;

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

    fn unavailable() -> Result<Record, LookupError> {
        Err(LookupError::Unavailable("HTTP 503".into()))
    }

    #[test]
    fn a_pending_record_is_kept_and_polled_again_after_the_interval() {
        let (now, settings) = (Instant::now(), settings());
        let deadline = now + settings.timeout;
        let (mut watch, mut last) = (Watch::new(&settings), None);
        let polled = watch.polled(record("queued"), None, &settings, &mut last, now, deadline);
        assert!(
            matches!(polled, Step::At(at) if at == now + settings.interval),
            "{polled:?}"
        );
        assert_eq!(last.as_ref().unwrap().record().status(), Some("queued"));
        let polled = watch.polled(
            record("delivered"),
            None,
            &settings,
            &mut last,
            now,
            deadline,
        );
        assert!(matches!(polled, Step::Done(Ok(_))), "{polled:?}");
        assert_eq!(watch.polls, 2);
    }

    #[test]
    fn transient_errors_lengthen_the_pause_and_keep_the_record_seen() {
        let (now, settings) = (Instant::now(), settings());
        let deadline = now + settings.timeout;
        let (mut watch, mut last) = (Watch::new(&settings), None);
        watch.polled(record("queued"), None, &settings, &mut last, now, deadline);
        let polled = watch.polled(unavailable(), None, &settings, &mut last, now, deadline);
        let twice = settings.interval * 2;
        assert!(
            matches!(polled, Step::At(at) if at >= now + twice && at <= now + twice.mul_f64(1.5)),
            "{polled:?}"
        );
        // The deadline cut the next poll off: the record seen is the answer.
        let cut = watch.polled(
            Err(LookupError::WaitOver),
            None,
            &settings,
            &mut last,
            now,
            deadline,
        );
        let Step::Done(Ok(record)) = cut else {
            panic!("{cut:?}")
        };
        assert_eq!(record.status(), Some("queued"));
    }

    #[test]
    fn a_long_interval_is_never_shortened_after_an_error() {
        let settings = WaitSettings {
            interval: Duration::from_secs(45),
            ..settings()
        };
        let now = Instant::now();
        let deadline = now + Duration::from_secs(3600);
        let (mut watch, mut last) = (Watch::new(&settings), None);
        for _ in 0..5 {
            let polled = watch.polled(unavailable(), None, &settings, &mut last, now, deadline);
            assert!(
                matches!(polled, Step::At(at) if at >= now + settings.interval),
                "{polled:?}"
            );
        }
    }

    #[test]
    fn with_no_record_the_last_failure_or_not_looked_up_is_the_answer() {
        let (now, settings) = (Instant::now(), settings());
        let deadline = now + settings.timeout;
        let (mut watch, mut last) = (Watch::new(&settings), None);
        let over = watch.polled(
            Err(LookupError::WaitOver),
            None,
            &settings,
            &mut last,
            now,
            deadline,
        );
        assert!(
            matches!(over, Step::Done(Err(LookupError::WaitOver))),
            "{over:?}"
        );
        watch.polled(unavailable(), None, &settings, &mut last, now, deadline);
        let over = watch.polled(
            Err(LookupError::WaitOver),
            None,
            &settings,
            &mut last,
            now,
            deadline,
        );
        assert!(
            matches!(over, Step::Done(Err(LookupError::Unavailable(_)))),
            "{over:?}"
        );
    }

    #[test]
    fn the_server_s_retry_after_is_a_floor_within_the_deadline() {
        let (now, settings) = (Instant::now(), settings());
        let mut watch = Watch::new(&settings);
        let polled = watch.polled(
            record("queued"),
            Some(Duration::from_secs(10)),
            &settings,
            &mut None,
            now,
            now + Duration::from_secs(5),
        );
        assert!(
            matches!(polled, Step::At(at) if at == now + Duration::from_secs(5)),
            "{polled:?}"
        );
    }

    #[test]
    fn a_failure_that_polling_cannot_cure_ends_the_watch() {
        let (now, settings) = (Instant::now(), settings());
        let mut watch = Watch::new(&settings);
        let refused = Err(LookupError::Usage("bad".into()));
        assert!(matches!(
            watch.polled(
                refused,
                None,
                &settings,
                &mut None,
                now,
                now + settings.timeout
            ),
            Step::Done(Err(_))
        ));
    }
}
