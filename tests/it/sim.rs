//! The simulator's answers over real HTTP, in-process through `start_sim`: endpoints,
//! errors, settling, the API key, faults, latency and the oddities it can force.

use std::time::{Duration, Instant};

use crate::common::sim::PENDING_SMS_STATUSES as PENDING_SMS;
use crate::common::sim::{sim, Reply};
use crate::common::sim::{FINAL_HLR_STATUSES as FINAL_HLR, FINAL_SMS_STATUSES as FINAL_SMS};
use serde_json::Value;
use smsstat::testkit::{settle_fraction, Kind, Oddity, SimOptions};

const COUNTERS: [&str; 4] = ["delivered", "undeliverable", "expired", "unknown"];

/// A JSON number or numeric string, as the field notes allow.
fn number(value: &Value) -> f64 {
    match value {
        Value::Number(n) => n.as_f64().unwrap(),
        Value::String(s) => s.parse().unwrap_or_else(|_| panic!("{s:?}")),
        other => panic!("not numeric: {other}"),
    }
}

fn assert_error(reply: &Reply, status: u16, code: f64) {
    assert_eq!(reply.status, status, "{}", reply.body);
    assert_eq!(reply.content_type, "application/json");
    let body = reply.json();
    assert_eq!(number(&body["error"]), code, "{body}");
    assert!(body["errorDescription"].is_string());
}

/// An ID whose record settles late in the period, so it is surely pending at start.
fn late_id(kind: Kind) -> u64 {
    (1..).find(|id| settle_fraction(kind, *id) > 0.6).unwrap()
}

#[test]
fn every_endpoint_and_short_form() {
    let sim = sim(|_| {});
    let sms = sim.record("/sms/42");
    assert_eq!(sms["reference"], "ref-42");
    assert!(FINAL_SMS.contains(&sms["status"].as_str().unwrap()));
    for path in [
        "/sms/reference/ref-42",
        "/sms/ref-42",
        "/rest/sms/42",
        "/rest/sms/reference/ref-42",
        "/sms/reference/ref%2D42",
        "/sms/42?verbose=1",
    ] {
        assert_eq!(sim.record(path), sms, "{path}");
    }

    let task = sim.record("/sms/task/7");
    assert_eq!(number(&task["validity"]), 72.0);
    assert!(task["originator"].is_string() && task["body"].is_string());
    for path in ["/sms/task-7", "/sms/task/task-7", "/rest/sms/task-7"] {
        assert_eq!(sim.record(path), task, "{path}");
    }

    let hlr = sim.record("/hlr/5");
    assert_eq!(hlr["id"], "5");
    assert!(FINAL_HLR.contains(&hlr["status"].as_str().unwrap()));
    for path in ["/hlr/reference/ref-5", "/hlr/ref-5", "/rest/hlr/5"] {
        assert_eq!(sim.record(path), hlr, "{path}");
    }
}

#[test]
fn missing_records_answer_404_with_the_spec_codes() {
    let sim = sim(|o| o.string_numbers = Oddity::Mixed);
    for (path, code) in [
        ("/sms/1000000", 20.0),
        ("/sms/0", 20.0),
        ("/sms/reference/order-17", 20.0),
        ("/sms/reference/ext%20id%2F17", 20.0),
        ("/sms/nope", 20.0),
        ("/sms/task/1000000", 30.0),
        ("/sms/task-0", 30.0),
        ("/sms/task/abc", 30.0),
        ("/hlr/1000000", 10.0),
        ("/hlr/reference/ref-0", 10.0),
        ("/hlr/nope", 10.0),
    ] {
        assert_error(&sim.get(path), 404, code);
    }
}

#[test]
fn unknown_paths_and_methods() {
    let sim = sim(|_| {});
    for path in [
        "/",
        "/nope",
        "/sms",
        "/sms/42/",
        "/api/sms/42",
        "/sms/task/1/2",
    ] {
        let reply = sim.get(path);
        assert_eq!(reply.status, 404, "{path}");
        assert_eq!(reply.body, "Not Found");
        assert!(serde_json::from_str::<Value>(&reply.body).is_err());
    }
    let url = format!("{}/sms/42", sim.server.base_url());
    let mut reply = sim.agent.post(&url).send("").unwrap();
    assert_eq!(reply.status().as_u16(), 405);
    let body: Value = serde_json::from_str(&reply.body_mut().read_to_string().unwrap()).unwrap();
    assert_eq!(body["error"], 4);
}

#[test]
fn same_id_same_answer_across_servers() {
    let quirky = |o: &mut SimOptions| {
        o.string_numbers = Oddity::Mixed;
        o.omit_error = Oddity::Mixed;
        o.extra_fields = Oddity::Mixed;
    };
    let (a, b) = (sim(quirky), sim(quirky));
    for id in [1, 42, 4711, 999_999] {
        for kind in ["sms", "sms/task", "hlr"] {
            let path = format!("/{kind}/{id}");
            let first = a.get(&path).body;
            assert_eq!(first, a.get(&path).body, "{path}");
            assert_eq!(first, b.get(&path).body, "{path}");
        }
    }
}

#[test]
fn records_evolve_until_settled() {
    let (sms_id, task_id, hlr_id) = (late_id(Kind::Sms), late_id(Kind::Task), late_id(Kind::Hlr));
    let sim = sim(|o| o.settle = Duration::from_secs(2));

    let sms = sim.record(&format!("/sms/{sms_id}"));
    assert!(
        PENDING_SMS.contains(&sms["status"].as_str().unwrap()),
        "{sms}"
    );
    assert!(sms.get("time_dr").is_none_or(|dr| dr == ""), "{sms}");
    let task = sim.record(&format!("/sms/task/{task_id}"));
    let sum = |t: &Value| COUNTERS.iter().map(|c| number(&t[*c])).sum::<f64>();
    assert!(sum(&task) < number(&task["sent"]), "{task}");
    let hlr = sim.record(&format!("/hlr/{hlr_id}"));
    assert_eq!(hlr["status"], "sent");
    assert!(hlr["details"].is_null());

    let deadline = Instant::now() + Duration::from_secs(15);
    let mut last_sum = sum(&task);
    loop {
        let sms = sim.record(&format!("/sms/{sms_id}"));
        let task = sim.record(&format!("/sms/task/{task_id}"));
        let hlr = sim.record(&format!("/hlr/{hlr_id}"));
        assert!(sum(&task) >= last_sum, "counters never shrink");
        last_sum = sum(&task);
        let sms_done = FINAL_SMS.contains(&sms["status"].as_str().unwrap());
        let task_done = last_sum == number(&task["sent"]);
        let hlr_done = FINAL_HLR.contains(&hlr["status"].as_str().unwrap());
        if sms_done && task_done && hlr_done {
            assert_eq!(sms["time_dr"].as_str().unwrap().len(), 19);
            break;
        }
        assert!(Instant::now() < deadline, "not settled: {sms} {task} {hlr}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn api_key_is_enforced_when_set() {
    let sim = sim(|o| o.api_key = Some("s3cret".into()));
    assert_error(&sim.get("/sms/42"), 401, 1.0);
    assert_error(&sim.get_with_key("/sms/42", Some("wrong")), 401, 1.0);
    assert_error(&sim.get_with_key("/nope", None), 401, 1.0);
    assert_eq!(sim.get_with_key("/sms/42", Some("s3cret")).status, 200);
    assert_eq!(sim.get_with_key("/hlr/ref-3", Some("s3cret")).status, 200);

    let open = self::sim(|_| {});
    assert_eq!(open.get_with_key("/sms/42", Some("anything")).status, 200);
    assert_eq!(open.get("/sms/42").status, 200);
}

#[test]
fn fail_rate_one_fails_everything_with_html() {
    let sim = sim(|o| o.fail_rate = 1.0);
    for path in ["/sms/42", "/hlr/1", "/nope"] {
        let reply = sim.get(path);
        assert_eq!(reply.status, 503);
        assert!(reply.content_type.starts_with("text/html"));
        assert!(reply.body.contains("503 Service Temporarily Unavailable"));
    }
}

#[test]
fn fail_rate_zero_fails_nothing_and_a_seed_repeats_its_faults() {
    let sim = self::sim(|o| o.fail_rate = 0.0);
    assert!((0..50).all(|id| sim.get(&format!("/sms/{}", id + 1)).status == 200));

    let faults = |seed| {
        let sim = self::sim(|o| {
            o.fail_rate = 0.5;
            o.seed = seed;
        });
        (0..40)
            .map(|_| sim.get("/sms/1").status)
            .collect::<Vec<_>>()
    };
    let first = faults(7);
    assert!(first.contains(&503) && first.contains(&200), "{first:?}");
    assert_eq!(first, faults(7));
    assert_ne!(first, faults(8));
}

#[test]
fn latency_delays_every_answer() {
    let latency = Duration::from_millis(150);
    let sim = sim(|o| o.latency = latency);
    for path in ["/sms/42", "/nope"] {
        let started = Instant::now();
        sim.get(path);
        assert!(
            started.elapsed() >= latency,
            "{path}: {:?}",
            started.elapsed()
        );
    }
}

#[test]
fn string_numbers_can_be_forced_either_way() {
    let always = sim(|o| o.string_numbers = Oddity::Always);
    let never = sim(|o| o.string_numbers = Oddity::Never);
    for id in 1..=20 {
        let sms = always.record(&format!("/sms/{id}"));
        assert!(
            sms["price"].is_string() && sms["error"].is_string(),
            "{sms}"
        );
        let task = always.record(&format!("/sms/task/{id}"));
        assert!(task["sent"].is_string() && task["totalprice"].is_string());
        let sms = never.record(&format!("/sms/{id}"));
        assert!(
            sms["price"].is_number() && sms["error"].is_number(),
            "{sms}"
        );
        let task = never.record(&format!("/sms/task/{id}"));
        assert!(task["validity"].is_number() && task["delivered"].is_number());
    }
    assert!(always.get("/sms/0").json()["error"].is_string());
}

#[test]
fn omit_error_can_be_forced_either_way() {
    let always = sim(|o| o.omit_error = Oddity::Always);
    let never = sim(|o| o.omit_error = Oddity::Never);
    for path in ["/sms/3", "/sms/task/3", "/hlr/3", "/sms/8", "/hlr/9"] {
        assert!(always.record(path).get("error").is_none(), "{path}");
        assert_eq!(number(&never.record(path)["error"]), 0.0, "{path}");
    }
    assert_error(&always.get("/sms/0"), 404, 20.0);
}

#[test]
fn no_errors_text_can_be_forced_either_way() {
    let always = sim(|o| {
        o.no_errors_text = Oddity::Always;
        o.omit_error = Oddity::Never;
    });
    let never = sim(|o| o.no_errors_text = Oddity::Never);
    for path in ["/sms/3", "/sms/task/3", "/hlr/3"] {
        assert_eq!(
            always.record(path)["errorDescription"],
            "No errors",
            "{path}"
        );
        assert!(
            never.record(path).get("errorDescription").is_none(),
            "{path}"
        );
    }
}

#[test]
fn extra_fields_can_be_forced_either_way() {
    let always = sim(|o| o.extra_fields = Oddity::Always);
    let never = sim(|o| o.extra_fields = Oddity::Never);
    let mut active_seen = false;
    for id in 1..=20 {
        let sms = always.record(&format!("/sms/{id}"));
        // The ID, or the phone number as BSG-style answers have it.
        assert!(
            sms["id"].as_str() == Some(id.to_string().as_str()) || sms["id"] == sms["msisdn"],
            "{sms}"
        );
        assert!(never.record(&format!("/sms/{id}")).get("id").is_none());
        let hlr = always.record(&format!("/hlr/{id}"));
        if hlr["status"] == "active" {
            active_seen = true;
            for field in ["name_en", "name_ru", "brand", "name"] {
                assert!(hlr[field].is_string(), "{field}: {hlr}");
            }
            assert!(hlr["details"]["imsi"].is_string());
        }
        let hlr = never.record(&format!("/hlr/{id}"));
        assert!(hlr.get("brand").is_none() && hlr["details"].get("imsi").is_none());
    }
    assert!(active_seen);
}
