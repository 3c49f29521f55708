use super::*;
use crate::sim::{record, SimOptions};

/// The statuses a variant documents, which the simulator draws from.
fn documented(kind: RecordKind, phase: Phase, v1: bool) -> Vec<&'static str> {
    status::documented(kind, phase, v1).collect()
}

fn num(value: &Value) -> f64 {
    match value {
        Value::Number(n) => n.as_f64().unwrap(),
        Value::String(s) => s.parse().unwrap(),
        other => panic!("not a number: {other}"),
    }
}

fn always() -> SimOptions {
    SimOptions {
        string_numbers: Oddity::Always,
        omit_error: Oddity::Always,
        extra_fields: Oddity::Always,
        no_errors_text: Oddity::Always,
        ..SimOptions::default()
    }
}

#[test]
fn ids_and_references_in_and_out_of_range() {
    assert_eq!(parse_id("42"), Some(42));
    assert_eq!(parse_id("999999"), Some(999_999));
    assert_eq!(parse_id("1000000"), None);
    assert_eq!(parse_id("0"), None);
    assert_eq!(parse_id("+5"), None);
    assert_eq!(parse_id(""), None);
    assert_eq!(parse_id("99999999999999999999999"), None);
    assert_eq!(parse_reference("ref-42"), Some(42));
    assert_eq!(parse_reference("ref-042"), None);
    assert_eq!(parse_reference("ref-0"), None);
    assert_eq!(parse_reference("order-42"), None);
}

#[test]
fn records_are_deterministic() {
    for kind in [Sms, Task, Hlr] {
        for id in [1, 42, MAX_ID] {
            let a = record(kind, id, 1.0, &SimOptions::plain());
            let b = record(kind, id, 1.0, &SimOptions::plain());
            assert_eq!(a, b);
        }
    }
}

#[test]
fn sms_statuses_are_final_once_settled_and_pending_before() {
    let mut delivered = 0;
    for id in 1..=2000 {
        let done = record(Sms, id, 1.0, &SimOptions::plain());
        let status = done["status"].as_str().unwrap();
        assert!(
            documented(Sms, Phase::Final, false).contains(&status),
            "{status}"
        );
        delivered += usize::from(status == "delivered");
        assert_eq!(done["time_dr"].as_str().unwrap().len(), 19);
        assert_eq!(done["reference"], format!("ref-{id}"));
        assert_eq!(done["error"], 0);

        let early = record(Sms, id, 0.3, &SimOptions::plain());
        let status = early["status"].as_str().unwrap();
        assert!(
            documented(Sms, Phase::Pending, false).contains(&status),
            "{status}"
        );
        assert!(early.get("time_dr").is_none_or(|dr| dr == ""));
        assert_eq!(early["msisdn"], done["msisdn"]);
    }
    assert!(delivered > 1400, "delivered should dominate: {delivered}");
}

#[test]
fn sms_fields_look_real() {
    let rec = record(Sms, 42, 1.0, &SimOptions::plain());
    let keys: Vec<&str> = rec.keys().map(String::as_str).collect();
    assert_eq!(&keys[..2], ["error", "msisdn"].as_slice());
    let time_in = rec["time_in"].as_str().unwrap();
    assert_eq!(time_in.as_bytes()[10], b' ', "{time_in}");
    assert!(time_in.starts_with("202"));
    assert!(num(&rec["price"]) >= 0.0);
    assert_eq!(rec["currency"].as_str().unwrap().len(), 3);
}

#[test]
fn task_counters_are_consistent_at_every_stage() {
    for id in 1..=1000 {
        for progress in [0.0, 0.25, 0.5, 0.99, 1.0] {
            let rec = record(Task, id, progress, &SimOptions::plain());
            let sent = num(&rec["sent"]);
            let sum: f64 = ["delivered", "undeliverable", "expired", "unknown"]
                .iter()
                .map(|k| num(&rec[*k]))
                .sum();
            assert!(sum <= sent, "task {id} at {progress}: {sum} > {sent}");
            if progress >= 1.0 {
                assert_eq!(sum, sent, "task {id} settled with pending messages");
            }
            if progress == 0.0 {
                assert_eq!(sum, 0.0);
            }
            assert_eq!(rec["validity"], 72);
        }
    }
}

#[test]
fn settle_moments_spread_over_the_period() {
    let settle = Duration::from_secs(10);
    let fractions: Vec<f64> = (1..=1000).map(|id| settle_fraction(Sms, id)).collect();
    assert!(fractions.iter().all(|f| (0.0..1.0).contains(f)));
    assert!(fractions.iter().any(|f| *f < 0.1) && fractions.iter().any(|f| *f > 0.9));
    assert_eq!(progress(Sms, 1, Duration::ZERO, Duration::ZERO), 1.0);
    assert_eq!(progress(Sms, 1, settle, settle), 1.0);
    let late = (1..).find(|id| settle_fraction(Task, *id) > 0.5).unwrap();
    let half = progress(Task, late, Duration::from_secs(2), settle);
    assert!(half > 0.0 && half < 1.0, "{half}");
}

#[test]
fn forced_oddities_apply_to_every_record() {
    for id in 1..=200 {
        let sms = record(Sms, id, 1.0, &always());
        assert!(sms.get("error").is_none());
        assert!(sms["price"].is_string());
        // The ID, or the phone number as BSG-style answers have it.
        assert!(
            sms["id"].as_str() == Some(id.to_string().as_str()) || sms["id"] == sms["msisdn"],
            "{sms:?}"
        );
        let task = record(Task, id, 1.0, &always());
        assert!(task["sent"].is_string() && task["totalprice"].is_string());
        let hlr = record(Hlr, id, 1.0, &always());
        if hlr["status"] == "active" {
            assert!(hlr["brand"].is_string() && hlr["details"]["imsi"].is_string());
        }
        let plain = record(Sms, id, 1.0, &SimOptions::plain());
        assert!(plain["price"].is_number() && plain.get("id").is_none());
    }
}

#[test]
fn mixed_oddities_vary_between_records() {
    let mixed = SimOptions::default();
    let records: Vec<_> = (1..=200).map(|id| record(Sms, id, 1.0, &mixed)).collect();
    let without_error = records.iter().filter(|r| r.get("error").is_none()).count();
    let string_price = records.iter().filter(|r| r["price"].is_string()).count();
    let with_id = records.iter().filter(|r| r.get("id").is_some()).count();
    for count in [without_error, string_price, with_id] {
        assert!(count > 20 && count < 180, "{count}");
    }
}

#[test]
fn some_records_with_extra_fields_carry_the_msisdn_as_id() {
    let as_msisdn = |kind: RecordKind| {
        (1..=300)
            .map(|id| record(kind, id, 1.0, &always()))
            .filter(|r| r["id"] == r["msisdn"])
            .count()
    };
    for kind in [Sms, Hlr] {
        let count = as_msisdn(kind);
        assert!(count > 30 && count < 200, "{kind:?}: {count}");
    }
    let plain = (1..=300).map(|id| record(Hlr, id, 1.0, &SimOptions::plain()));
    assert!(plain.into_iter().all(|r| r["id"] != r["msisdn"]));
}

#[test]
fn v1_task_records_add_total_and_in_flight_counters() {
    let v1 = SimOptions {
        task_v1: true,
        ..SimOptions::plain()
    };
    let counter = |r: &Map<String, Value>, name: &str| num(&r[name]) as u64;
    for id in 1..=100 {
        for progress in [0.0, 0.5, 1.0] {
            let task = record(Task, id, progress, &v1);
            let finals: u64 = ["delivered", "undeliverable", "expired", "unknown"]
                .iter()
                .map(|n| counter(&task, n))
                .sum();
            // `accepted` is cumulative: the delivered and undeliverable ones and
            // those awaiting a report (the v1 document's own example counts so).
            let reported = counter(&task, "delivered") + counter(&task, "undeliverable");
            let awaiting = counter(&task, "accepted") - reported;
            let in_flight = counter(&task, "queued") + counter(&task, "enroute") + awaiting;
            assert_eq!(finals + in_flight, counter(&task, "total"), "{task:?}");
            assert_eq!(
                counter(&task, "sent"),
                counter(&task, "total") - counter(&task, "queued")
            );
            if progress == 1.0 {
                assert_eq!(in_flight, 0);
            }
        }
    }
    let spec = record(Task, 1, 1.0, &SimOptions::plain());
    assert!(spec.get("total").is_none() && spec.get("queued").is_none());
}

#[test]
fn error_bodies_follow_the_spec() {
    assert_eq!(
        error_body(20, "SMS not found", false),
        r#"{"error":20,"errorDescription":"SMS not found"}"#
    );
    assert_eq!(
        error_body(30, "Task not found", true),
        r#"{"error":"30","errorDescription":"Task not found"}"#
    );
}

fn v1_record(kind: RecordKind, id: u64, progress: f64) -> Map<String, Value> {
    record(kind, id, progress, &v1_options())
}

/// The v1 variant without extra fields.
fn v1_options() -> SimOptions {
    SimOptions {
        extra_fields: Oddity::Never,
        ..SimOptions::default().with_variant(Variant::V1)
    }
}

#[test]
fn v1_sms_records_follow_the_v1_document() {
    let mut seen = std::collections::BTreeSet::new();
    for id in 1..=3000 {
        for (progress, statuses) in [
            (1.0, documented(Sms, Phase::Final, true)),
            (0.2, documented(Sms, Phase::Pending, true)),
        ] {
            let sms = v1_record(Sms, id, progress);
            let status = sms["status"].as_str().unwrap();
            assert!(statuses.contains(&status), "{status}");
            seen.insert(status.to_string());
            assert_eq!(sms["error"], 0);
            assert_eq!(sms["errorDescription"], "No errors");
            assert_eq!(sms["id"], id.to_string());
            assert!(sms["price"].is_number());
            // date-time: RFC 3339, as its Go client decodes it.
            let time_in = sms["time_in"].as_str().unwrap();
            assert!(
                humantime::parse_rfc3339_weak(&time_in[..19]).is_ok(),
                "{time_in}"
            );
            assert!(time_in.ends_with("+00:00"));
            match status {
                "new" | "waiting" | "deleted" => assert!(sms["time_sent"].is_null()),
                _ => assert!(sms["time_sent"].is_string()),
            }
            if progress < 1.0 {
                assert!(sms["time_dr"].is_null());
            }
        }
    }
    let mut every = documented(Sms, Phase::Final, true);
    every.extend(documented(Sms, Phase::Pending, true));
    for status in every {
        assert!(seen.contains(status), "{status} never sent");
    }
    assert!(!seen.contains("pending") && !seen.contains("undeliverable"));
}

#[test]
fn v1_hlr_records_follow_the_v1_document() {
    let mut seen = std::collections::BTreeSet::new();
    for id in 1..=2000 {
        // No pending HLR status in v1: final from the start.
        let hlr = v1_record(Hlr, id, 0.0);
        let status = hlr["status"].as_str().unwrap();
        assert!(
            documented(Hlr, Phase::Final, true).contains(&status),
            "{status}"
        );
        seen.insert(status.to_string());
        assert_eq!(hlr["errorDescription"], "No errors");
        match status {
            "delivered" => {
                let details = hlr["details"].as_object().unwrap();
                assert!([0, 1].contains(&details["ported"].as_i64().unwrap()));
                assert!([0, 1].contains(&details["roaming"].as_i64().unwrap()));
                assert!(details["imsi"].as_str().unwrap().ends_with("XXXXXXXX"));
                let network = hlr["network"].as_str().unwrap();
                assert!(!network.bytes().all(|b| b.is_ascii_digit()), "{network}");
                assert!(hlr["brand_name"].is_string() && hlr["country_name"].is_string());
            }
            "failed" | "undeliverable" => assert!(hlr["details"].is_null()),
            _ => {}
        }
        // Never the classic fields, and no top-level flags without extra fields.
        for classic in ["name_en", "name_ru", "name", "ported", "roaming"] {
            assert!(hlr.get(classic).is_none(), "{classic}: {hlr:?}");
        }
    }
    assert_eq!(
        seen.len(),
        documented(Hlr, Phase::Final, true).len(),
        "{seen:?}"
    );
    assert!(!seen.contains("active") && !seen.contains("sent"));
}

#[test]
fn extra_fields_add_the_documents_unlisted_ones() {
    let extras = SimOptions {
        extra_fields: Oddity::Always,
        ..v1_options()
    };
    let delivered = (1..)
        .map(|id| record(Hlr, id, 1.0, &extras))
        .find(|r| r["status"] == "delivered")
        .unwrap();
    assert!(delivered["ported"].is_boolean() && delivered["roaming"].is_boolean());
    let active = (1..)
        .map(|id| record(Hlr, id, 1.0, &always()))
        .find(|r| r["status"] == "active")
        .unwrap();
    let details = active["details"].as_object().unwrap();
    for key in ["imsi", "location_msc", "ported", "roaming"] {
        assert!(details.contains_key(key), "{key}: {details:?}");
    }
}

#[test]
fn task_only_ids_exist_for_tasks_alone() {
    // Which values name them: routes' `resolution` test.
    assert_eq!(parse_id("2000000"), None);
    let task = record(Task, 2_000_006, 1.0, &SimOptions::plain());
    assert!(task.contains_key("sent"));
}

#[test]
fn vendor_codes() {
    use crate::sim::Codes::{Spec, Vendor};
    assert_eq!(Hlr.not_found_in(Spec, "-=__").0, 10);
    assert_eq!(Hlr.not_found_in(Vendor, "-=__").0, 65);
    assert_eq!(Hlr.not_found_in(Vendor, "order-7").0, 60);
    assert_eq!(Hlr.not_found_in(Vendor, "1000000").0, 60);
    assert_eq!(Task.not_found_in(Vendor, "wrong status").0, 29);
    assert_eq!(Task.not_found_in(Vendor, "1000000").0, 30);
    assert_eq!(Task.not_found_in(Spec, "x").0, 30);
    assert_eq!(Sms.not_found_in(Vendor, "x").0, 20);
}
