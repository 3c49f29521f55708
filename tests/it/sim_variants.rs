//! The simulator's flags for answering like the deployed service: errors with HTTP
//! 200, rate limiting, v1 task counters and ids equal to the MSISDN; over real HTTP.

use std::time::Duration;

use crate::common::sim::{sim, Sim};
use crate::common::{smsstat, smsstat_at};
use serde_json::Value;
use smsstat::testkit::Oddity;

/// A GET through the shared client (no proxy, whatever the environment says): the
/// status, the Retry-After header and the body as JSON.
struct Reply {
    status: u16,
    retry_after: Option<String>,
    body: Value,
}

fn get(sim: &Sim, path: &str) -> Reply {
    let reply = sim.get(path);
    Reply {
        status: reply.status,
        retry_after: reply.header("retry-after").map(str::to_owned),
        body: reply.json(),
    }
}

#[test]
fn errors_with_200_answer_the_json_error_with_http_200() {
    let server = sim(|o| o.errors_with_200 = true);
    let missing = get(&server, "/sms/0");
    assert_eq!(missing.status, 200);
    assert_eq!(missing.body["error"], 20);
    let no_route = get(&server, "/mms/1");
    assert_eq!(no_route.status, 200);
    assert_eq!(no_route.body["error"], 4);
    // smsstat reads the code from the body, whatever the HTTP status.
    let out = smsstat_at(&server.server.base_url())
        .args(["sms", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(20));
    let plain = sim(|_| {});
    assert_eq!(get(&plain, "/sms/0").status, 404);
}

#[test]
fn rate_limit_answers_429_with_retry_after() {
    let server = sim(|o| o.rate_limit = Some(1));
    // At most one request a second is served: of many in a row, some are refused.
    let replies: Vec<Reply> = (0..50).map(|_| get(&server, "/sms/1")).collect();
    let refused = replies
        .iter()
        .find(|r| r.status == 429)
        .expect("a 429 among 50 quick requests");
    assert_eq!(refused.retry_after.as_deref(), Some("1"));
    assert!(refused.body["message"].is_string());
    assert!(replies.iter().any(|r| r.status == 200));
    let out = smsstat_at(&server.server.base_url())
        .args(["-j", "1", "--json", "sms"])
        .args((1..=20).map(|i| i.to_string()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(75));
    let unlimited = sim(|_| {});
    assert!((0..20).all(|_| get(&unlimited, "/sms/1").status == 200));
}

#[test]
fn rate_limit_zero_is_refused() {
    smsstat()
        .args(["sim", "--rate-limit", "0"])
        .assert()
        .code(64);
}

#[test]
fn v1_task_counters_add_total_and_in_flight() {
    let pending = sim(|o| {
        o.task_v1 = true;
        o.settle = Duration::from_secs(3600);
    });
    let task = get(&pending, "/sms/task/7").body;
    let count = |name: &str| task[name].as_u64().unwrap();
    // `accepted` is cumulative (docs/variants.md): of it, those not yet delivered
    // or undeliverable await a report.
    let awaiting = count("accepted") - count("delivered") - count("undeliverable");
    let in_flight = count("queued") + awaiting + count("enroute");
    assert!(in_flight > 0, "{task}");
    let finals: u64 = ["delivered", "undeliverable", "expired", "unknown"]
        .iter()
        .map(|name| count(name))
        .sum();
    assert_eq!(finals + in_flight, count("total"), "{task}");
    assert_eq!(count("sent"), count("total") - count("queued"), "{task}");
    let out = smsstat_at(&pending.server.base_url())
        .args(["--expect-delivered", "0.5", "task", "7"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(81));
    let table = smsstat_at(&pending.server.base_url())
        .args(["task", "7"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(table.stdout).unwrap();
    assert!(
        stdout.contains("En route") && stdout.contains("(queued "),
        "{stdout}"
    );
    let spec = sim(|_| {});
    assert!(get(&spec, "/sms/task/7").body.get("total").is_none());
}

#[test]
fn extra_fields_give_some_records_the_msisdn_as_id() {
    let server = sim(|o| o.extra_fields = Oddity::Always);
    for kind in ["sms", "hlr"] {
        let records: Vec<Value> = (1..=30)
            .map(|id| get(&server, &format!("/{kind}/{id}")).body)
            .collect();
        assert!(
            records.iter().any(|r| r["id"] == r["msisdn"]),
            "{kind}: no id equal to the msisdn"
        );
        assert!(records.iter().any(|r| r["id"] != r["msisdn"]));
    }
}
