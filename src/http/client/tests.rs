//! `Attempts` with made-up answers and a made-up clock: the decisions of a lookup
//! without a network. Then the client against a real server on loopback.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::*;
use crate::domain::budget::MEMORY_BUDGET;
use crate::settings::config::HttpSettings;
use crate::settings::secret::ApiKey;
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

/// A client whose lookups have `retries` (it sends nothing here: the answers are
/// made up).
fn client(retries: u32) -> Client {
    let base_url = "http://127.0.0.1:9".to_string();
    Client::new(
        &settings(base_url, retries, PathStyle::Auto),
        1,
        Arc::new(Budget::new(MEMORY_BUDGET)),
    )
}

const SMS: LookupKind = LookupKind::Sms;
const SMS_REF: LookupKind = LookupKind::SmsRef;

const DELIVERED: &str = r#"{"error":0,"status":"delivered","sms_id":42}"#;

#[test]
fn a_record_ends_the_lookup_at_once() {
    let client = client(2);
    let mut attempts = Attempts::new(vec!["/sms/42".into()], 2);
    let now = Instant::now();
    let next = client.after(
        &mut attempts,
        answer(200, DELIVERED, None),
        now,
        SMS,
        "42",
        None,
    );
    assert!(
        matches!(next, Step::Done(Ok(ref r)) if r.fields["status"] == "delivered"),
        "{next:?}"
    );
}

/// A retry: the lookup comes back after a pause, with one retry more spent.
fn is_retry(next: &Step<Result<Record, LookupError>>, now: Instant) -> bool {
    matches!(next, Step::At(at) if *at > now)
}

#[test]
fn transient_failures_are_retried_until_the_retries_are_spent() {
    let client = client(2);
    let mut attempts = Attempts::new(vec!["/sms/42".into()], 2);
    let now = Instant::now();
    for spent in 1..=2 {
        let next = client.after(&mut attempts, answer(503, "", None), now, SMS, "42", None);
        assert!(is_retry(&next, now), "{next:?}");
        assert_eq!(attempts.retries, spent);
    }
    assert_eq!(client.pace.turn(), None, "a 503 does not pause the account");
    let next = client.after(&mut attempts, answer(503, "", None), now, SMS, "42", None);
    assert!(
        matches!(next, Step::Done(Err(LookupError::Unavailable(_)))),
        "{next:?}"
    );
    let timeout = Err(LookupError::Timeout(Duration::from_secs(1)));
    let mut fresh = Attempts::new(vec!["/sms/42".into()], 2);
    let next = client.after(&mut fresh, timeout, now, SMS, "42", None);
    assert!(is_retry(&next, now), "{next:?}");
}

#[test]
fn a_429_pauses_the_account_for_as_long_as_the_server_asks() {
    let client = client(1);
    let mut attempts = Attempts::new(vec!["/sms/42".into()], 1);
    let now = Instant::now();
    let next = client.after(
        &mut attempts,
        answer(429, "", Some(3)),
        now,
        SMS,
        "42",
        None,
    );
    assert!(
        matches!(next, Step::At(at) if at == now + Duration::from_secs(3)),
        "{next:?}"
    );
    let turn = client.pace.turn().expect("a 429 speaks of the account");
    assert!(turn >= now + Duration::from_secs(3), "{turn:?}");
    assert_eq!(attempts.retry_after, Some(Duration::from_secs(3)));
}

#[test]
fn no_retry_whose_pause_outlasts_the_deadline() {
    let now = Instant::now();
    let client = client(3);
    let mut attempts = Attempts::new(vec!["/sms/42".into()], 3);
    let deadline = Some(now + Duration::from_secs(2));
    let next = client.after(
        &mut attempts,
        answer(503, "", Some(5)),
        now,
        SMS,
        "42",
        deadline,
    );
    assert!(matches!(next, Step::Done(Err(_))), "{next:?}");
}

#[test]
fn a_missing_explicit_route_moves_on_to_the_short_form_with_fresh_retries() {
    let client = client(1);
    let now = Instant::now();
    let task = |attempts: &mut Attempts, status| {
        client.after(
            attempts,
            answer(status, "", None),
            now,
            LookupKind::Task,
            "6",
            None,
        )
    };
    let mut attempts = Attempts::new(LookupKind::Task.paths("6", PathStyle::Auto), 1);
    let next = task(&mut attempts, 503);
    assert!(is_retry(&next, now), "{next:?}");
    // The short form, at once.
    let next = task(&mut attempts, 404);
    assert!(matches!(next, Step::At(at) if at == now), "{next:?}");
    assert_eq!(attempts.paths[attempts.path], "/sms/6");
    assert_eq!(attempts.retries, 0);
    // The short path has its own retries.
    let next = task(&mut attempts, 503);
    assert!(is_retry(&next, now), "{next:?}");
    // The last path's 404 is the answer, not another fallback.
    let next = task(&mut attempts, 404);
    assert!(matches!(next, Step::Done(Err(_))), "{next:?}");
    assert!(
        !client.routes.explicit_missing(LookupKind::Task),
        "one answer is not evidence"
    );
}

#[test]
fn a_service_error_on_the_explicit_route_is_the_answer() {
    let client = client(0);
    let mut attempts = Attempts::new(LookupKind::SmsRef.paths("r1", PathStyle::Auto), 0);
    let body = r#"{"error":20,"errorDescription":"not found"}"#;
    let now = Instant::now();
    let next = client.after(
        &mut attempts,
        answer(200, body, None),
        now,
        SMS_REF,
        "r1",
        None,
    );
    assert!(
        matches!(
            next,
            Step::Done(Err(LookupError::Service { code: Some(20), .. }))
        ),
        "{next:?}"
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
    let server = httpcore::HttpServer::bind("127.0.0.1:0", handler, Default::default()).unwrap();
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
    let client = Client::new(
        &settings(base_url, 3, PathStyle::Short),
        1,
        Arc::new(Budget::new(MEMORY_BUDGET)),
    );
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
            Step::At(_) => continue,
            Step::Done(result) => break result,
        }
    };
    assert!(
        matches!(result, Err(LookupError::Unavailable(_))),
        "{result:?}"
    );
    let asked = asked.lock().unwrap();
    assert_eq!(asked[1..], ["/sms/r1"; 4]);
}

#[test]
fn the_key_never_appears() {
    let mut http = settings("http://127.0.0.1:9".to_string(), 0, PathStyle::Auto);
    http.api_key = Some(ApiKey::new("acc-secret-key-7f3"));
    let client = Client::new(&http, 1, Arc::new(Budget::new(MEMORY_BUDGET)));
    let lines: Vec<String> = [
        ("User-Agent", "smsstat/1"),
        ("x-api-key", "acc-secret-key-7f3"),
        ("x-echo", "you sent ACC-secret-key%2D7f3"),
        ("x-acc-secret-key-7f3", "1"),
        ("set-cookie", "s=1"),
        ("content-type", "application/json"),
    ]
    .iter()
    .map(|(name, value)| client.header_line(name, value.as_bytes()))
    .collect();
    assert_eq!(
        lines,
        [
            "User-Agent: smsstat/1",
            "x-api-key: ****-7f3",
            "x-echo: you sent ****",
            "x-****: 1",
            "set-cookie: ****",
            "content-type: application/json"
        ]
    );
}
