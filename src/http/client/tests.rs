//! `Attempts` with made-up answers and a made-up clock: the decisions of a lookup
//! without a network. Then the client against a real server on loopback.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::*;
use crate::settings::config::HttpSettings;
use ureq::http::HeaderName;

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
        _permit: Permit(None),
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

    /// A lookup's requests on `paths`, with the run's retries.
    fn attempts(&self, paths: Vec<String>) -> Attempts {
        Attempts::new(paths, self.retries)
    }

    fn rules<'a>(&'a self, kind: LookupKind, value: &'a str) -> Rules<'a> {
        Rules {
            kind,
            value,
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
    let mut attempts = run.attempts(vec!["/sms/42".into()]);
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
    let mut attempts = run.attempts(vec!["/sms/42".into()]);
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
    let mut fresh = run.attempts(vec!["/sms/42".into()]);
    assert!(matches!(
        fresh.after(timeout, now, &rules),
        After::Retry { .. }
    ));
}

#[test]
fn a_429_pauses_the_account_for_as_long_as_the_server_asks() {
    let run = Run::new(1);
    let mut attempts = run.attempts(vec!["/sms/42".into()]);
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
    let mut attempts = run.attempts(vec!["/sms/42".into()]);
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
    let mut attempts = run.attempts(LookupKind::Task.paths("6", PathStyle::Auto));
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
    let mut attempts = run.attempts(LookupKind::SmsRef.paths("r1", PathStyle::Auto));
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

/// A server on loopback (the project's HTTP core) that answers every request with
/// `503`; the paths asked for, in order. Dropped, it stops.
fn always_503() -> (httpcore::HttpServer, Arc<Mutex<Vec<String>>>) {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&asked);
    let handler: httpcore::Handler = Arc::new(move |request: &httpcore::HttpRequest| {
        seen.lock().unwrap().push(request.target.clone());
        httpcore::HttpResponse::new(503, "text/plain", "busy")
    });
    let server = httpcore::HttpServer::bind("127.0.0.1:0", handler).unwrap();
    (server, asked)
}

fn settings(base_url: String, retries: u32, paths: PathStyle) -> HttpSettings {
    HttpSettings {
        base_url,
        api_key: None,
        api_key_header: HeaderName::from_static("x-api-key"),
        timeout: Duration::from_secs(10),
        retries,
        paths,
        max_body: 1024 * 1024,
        ca_certs: None,
        proxy: None,
        rate_interval: None,
        verbose: 0,
        mask_msisdn: false,
    }
}

#[test]
fn a_probe_makes_one_request_on_the_explicit_path_whatever_the_settings() {
    let (server, asked) = always_503();
    let base_url = format!("http://{}", server.addr());
    let client = Client::new(&settings(base_url, 3, PathStyle::Short), 1);
    let result = client.probe(LookupKind::SmsRef, "r1");
    assert!(
        matches!(result, Err(LookupError::Unavailable(_))),
        "{result:?}"
    );
    assert_eq!(*asked.lock().unwrap(), ["/sms/reference/r1"]);
    // A lookup with the same settings is retried, on the path --paths chose (its
    // pauses not waited for here: the steps are taken at once).
    let mut attempts = client.attempts(LookupKind::SmsRef, "r1");
    let result = loop {
        match client.step(LookupKind::SmsRef, "r1", &mut attempts, None) {
            Next::At(_) => continue,
            Next::Done(result) => break result,
        }
    };
    assert!(
        matches!(result, Err(LookupError::Unavailable(_))),
        "{result:?}"
    );
    let asked = asked.lock().unwrap();
    assert_eq!(asked[1..], ["/sms/r1"; 4]);
}
