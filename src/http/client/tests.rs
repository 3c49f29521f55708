//! `Attempts` with made-up answers and a made-up clock: the decisions of a lookup
//! without a network.

use std::time::{Duration, Instant};

use super::*;

fn answer(
    status: u16,
    body: &str,
    retry_after: Option<u64>,
) -> Result<Answer<'static>, LookupError> {
    Ok(Answer {
        status,
        retry_after: retry_after.map(Duration::from_secs),
        location: None,
        body: body.as_bytes().to_vec(),
        _permit: Permit::none(),
    })
}

struct Run {
    routes: RouteEvidence,
    scrubber: Scrubber,
    retries: u32,
    deadline: Option<Instant>,
}

impl Run {
    fn new(retries: u32) -> Run {
        Run {
            routes: RouteEvidence::default(),
            scrubber: Scrubber::default(),
            retries,
            deadline: None,
        }
    }

    fn rules<'a>(&'a self, kind: LookupKind, value: &'a str) -> Rules<'a> {
        Rules {
            kind,
            value,
            retries: self.retries,
            deadline: self.deadline,
            routes: &self.routes,
            scrubber: &self.scrubber,
        }
    }
}

const DELIVERED: &str = r#"{"error":0,"status":"delivered","sms_id":42}"#;

#[test]
fn a_record_ends_the_lookup_at_once() {
    let run = Run::new(2);
    let mut attempts = Attempts::new(vec!["/sms/42".into()]);
    let after = attempts.after(
        answer(200, DELIVERED, None),
        Instant::now(),
        &run.rules(LookupKind::Sms, "42"),
    );
    assert!(
        matches!(after, After::Done(Ok(ref r)) if r.fields["status"] == "delivered"),
        "{after:?}"
    );
}

#[test]
fn transient_failures_are_retried_until_the_retries_are_spent() {
    let run = Run::new(2);
    let rules = run.rules(LookupKind::Sms, "42");
    let mut attempts = Attempts::new(vec!["/sms/42".into()]);
    let now = Instant::now();
    for _ in 0..2 {
        let after = attempts.after(answer(503, "", None), now, &rules);
        assert!(
            matches!(after, After::Retry { all: false, .. }),
            "{after:?}"
        );
    }
    let after = attempts.after(answer(503, "", None), now, &rules);
    assert!(
        matches!(after, After::Done(Err(LookupError::Unavailable(_)))),
        "{after:?}"
    );
    let timeout = Err(LookupError::Timeout(Duration::from_secs(1)));
    let mut fresh = Attempts::new(vec!["/sms/42".into()]);
    assert!(matches!(
        fresh.after(timeout, now, &rules),
        After::Retry { .. }
    ));
}

#[test]
fn a_429_pauses_the_account_for_as_long_as_the_server_asks() {
    let run = Run::new(1);
    let mut attempts = Attempts::new(vec!["/sms/42".into()]);
    let after = attempts.after(
        answer(429, "", Some(3)),
        Instant::now(),
        &run.rules(LookupKind::Sms, "42"),
    );
    match after {
        After::Retry { delay, all, .. } => {
            assert_eq!(delay, Duration::from_secs(3));
            assert!(all, "a 429 speaks of the account");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(attempts.retry_after, Some(Duration::from_secs(3)));
}

#[test]
fn no_retry_whose_pause_outlasts_the_deadline() {
    let now = Instant::now();
    let mut run = Run::new(3);
    run.deadline = Some(now + Duration::from_secs(2));
    let mut attempts = Attempts::new(vec!["/sms/42".into()]);
    let after = attempts.after(
        answer(503, "", Some(5)),
        now,
        &run.rules(LookupKind::Sms, "42"),
    );
    assert!(matches!(after, After::Done(Err(_))), "{after:?}");
}

#[test]
fn a_missing_explicit_route_moves_on_to_the_short_form_with_fresh_retries() {
    let run = Run::new(1);
    let rules = run.rules(LookupKind::Task, "6");
    let mut attempts = Attempts::new(LookupKind::Task.paths("6", PathStyle::Auto));
    let now = Instant::now();
    assert!(matches!(
        attempts.after(answer(503, "", None), now, &rules),
        After::Retry { .. }
    ));
    assert!(matches!(
        attempts.after(answer(404, "", None), now, &rules),
        After::ShortForm
    ));
    assert_eq!(attempts.path(), "/sms/6");
    // The short path has its own retries.
    assert!(matches!(
        attempts.after(answer(503, "", None), now, &rules),
        After::Retry { .. }
    ));
    // The last path's 404 is the answer, not another fallback.
    let after = attempts.after(answer(404, "", None), now, &rules);
    assert!(matches!(after, After::Done(Err(_))), "{after:?}");
    assert!(
        !run.routes.explicit_missing(LookupKind::Task),
        "one answer is not evidence"
    );
}

#[test]
fn a_service_error_on_the_explicit_route_is_the_answer() {
    let run = Run::new(0);
    let mut attempts = Attempts::new(LookupKind::SmsRef.paths("r1", PathStyle::Auto));
    let body = r#"{"error":20,"errorDescription":"not found"}"#;
    let after = attempts.after(
        answer(200, body, None),
        Instant::now(),
        &run.rules(LookupKind::SmsRef, "r1"),
    );
    assert!(
        matches!(
            after,
            After::Done(Err(LookupError::Service { code: Some(20), .. }))
        ),
        "{after:?}"
    );
}
