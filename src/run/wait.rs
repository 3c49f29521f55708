//! `--wait`, `--until` and `--expect`: when a record is final, polling until it is,
//! and the verdict of an expectation (exit 80 not met, 81 still pending).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::domain::error::LookupError;
use crate::domain::lookup::LookupKind;
use crate::domain::record::Record;
use crate::domain::verdict::{stage, Stage, WaitSettings};
use crate::http::client::Client;

/// Longest pause between polls after repeated transient errors.
const MAX_INTERVAL: Duration = Duration::from_secs(30);
/// Granularity at which a pause notices Ctrl-C.
const STOP_CHECK: Duration = Duration::from_millis(50);

/// What a watch came to: the last result seen and how long it took.
pub struct Watched {
    pub result: Result<Record, LookupError>,
    pub waited: Duration,
    pub interrupted: bool,
}

/// Polls `query` until its record is final, a non-transient failure occurs,
/// `deadline` passes (shared by every lookup of a batch, and binding on requests in
/// flight too) or `stop` is raised. `observe` sees every successful poll.
pub fn watch(
    client: &Client,
    kind: LookupKind,
    query: &str,
    settings: &WaitSettings,
    deadline: Instant,
    stop: &AtomicBool,
    mut observe: impl FnMut(&Record, u32),
) -> Watched {
    let started = Instant::now();
    let mut interval = settings.interval;
    let mut polls = 0;
    let mut last: Option<Result<Record, LookupError>> = None;
    loop {
        polls += 1;
        let (result, retry_after) = client.lookup_until(kind, query, Some(deadline));
        match &result {
            Ok(record) => {
                // Judged as sent, shown protected (the key scrubbed, numbers masked).
                let mut shown = Ok(record.clone());
                client.protect(&mut shown);
                if let Ok(shown) = &shown {
                    observe(shown, polls);
                }
                interval = settings.interval;
                if stage(record, &settings.until) == Stage::Final {
                    return done(result, started, false);
                }
            }
            Err(error) if is_transient(error) => interval = (interval * 2).min(MAX_INTERVAL),
            // The deadline passed just before this poll: the record seen is the
            // answer (it was looked up), not "not looked up".
            Err(LookupError::WaitOver) if matches!(last, Some(Ok(_))) => {
                return done(last.expect("matched above"), started, false);
            }
            Err(_) => return done(result, started, false),
        }
        // A record seen earlier is more useful than a later transient error.
        if result.is_ok() || !matches!(last, Some(Ok(_))) {
            last = Some(result);
        }
        let now = Instant::now();
        if now >= deadline {
            return done(last.expect("set above"), started, false);
        }
        // The server's wish (Retry-After) is a floor, as long as the deadline allows.
        let wish = retry_after
            .unwrap_or_default()
            .min(crate::http::retry::MAX_RETRY_AFTER);
        let pause = interval.max(wish).min(deadline - now);
        if !sleep_unless(stop, pause) {
            return done(last.expect("set above"), started, true);
        }
        if Instant::now() >= deadline {
            // The pause used the time left: another poll would only time out.
            return done(last.expect("set above"), started, false);
        }
    }
}

fn done(result: Result<Record, LookupError>, started: Instant, interrupted: bool) -> Watched {
    Watched {
        result,
        waited: started.elapsed(),
        interrupted,
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

/// Sleeps `duration` unless `stop` is raised first; returns false when stopped.
pub fn sleep_unless(stop: &AtomicBool, duration: Duration) -> bool {
    let end = Instant::now() + duration;
    loop {
        if stop.load(Ordering::SeqCst) {
            return false;
        }
        let now = Instant::now();
        if now >= end {
            return true;
        }
        std::thread::sleep((end - now).min(STOP_CHECK));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sleep_unless_stops_early() {
        let stop = AtomicBool::new(true);
        let started = Instant::now();
        assert!(!sleep_unless(&stop, Duration::from_secs(5)));
        assert!(started.elapsed() < Duration::from_secs(1));
    }
}
