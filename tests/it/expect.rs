//! `--expect` and `--expect-delivered` against the simulator: the gates with and
//! without `--wait`, a batch's first failure, and statuses refused or warned about.

use std::time::Duration;

use crate::common::settling::{final_statuses, late_ids, sim};
use crate::common::{json_line, smsstat_at, stdout_of};
use predicates::prelude::*;
use serde_json::Value;

/// The first ID whose final status satisfies `wanted`.
fn first_id(finals: &[(u64, String)], wanted: impl Fn(&str) -> bool) -> String {
    finals
        .iter()
        .find(|(_, s)| wanted(s))
        .expect("such an SMS")
        .0
        .to_string()
}

#[test]
fn expect_without_wait() {
    let finals = final_statuses();
    let delivered = first_id(&finals, |s| s == "delivered");
    let settled = sim(Duration::ZERO);
    let base = settled.base_url();
    smsstat_at(&base)
        .args(["--expect", "delivered", "sms", &delivered])
        .assert()
        .success();
    smsstat_at(&base)
        .args(["--expect", "expired,undeliverable", "sms", &delivered])
        .assert()
        .code(80)
        .stderr(predicate::str::contains(
            "expected expired or undeliverable",
        ));

    let (id, _) = late_ids(|_| true).into_iter().next().unwrap();
    let pending_sim = sim(Duration::from_secs(3600));
    smsstat_at(&pending_sim.base_url())
        .args(["--expect", "delivered", "sms", &id])
        .assert()
        .code(81)
        .stderr(predicate::str::contains("--wait"));
}

#[test]
fn task_delivered_ratio_gate() {
    let server = sim(Duration::ZERO);
    let task = json_line(stdout_of(
        smsstat_at(&server.base_url()).args(["--json", "task", "7"]),
    ));
    let number = |name: &str| match &task[name] {
        Value::String(s) => s.parse::<f64>().unwrap(),
        other => other.as_f64().unwrap(),
    };
    let ratio = number("delivered") / number("sent");
    let at = format!("{:.4}", (ratio - 0.0001).max(0.0));
    smsstat_at(&server.base_url())
        .args(["--expect-delivered", &at, "task", "7"])
        .assert()
        .success();
    // The simulator's data is fixed: task 7 is not all delivered, so a gate just
    // above its rate is unmet.
    assert!(ratio < 0.99, "task 7 delivers everything: {task}");
    let above = format!("{:.4}", ratio + 0.01);
    smsstat_at(&server.base_url())
        .args(["--expect-delivered", &above, "task", "7"])
        .assert()
        .code(80)
        .stderr(predicate::str::contains("expected at least"));
    smsstat_at(&server.base_url())
        .args(["--expect-delivered", "1.5", "task", "7"])
        .assert()
        .code(64);
    smsstat_at(&server.base_url())
        .args(["--expect", "delivered", "task", "7"])
        .assert()
        .code(64);
}

#[test]
fn batch_wait_exit_code_is_the_first_failure_in_input_order() {
    let finals = final_statuses();
    let delivered = first_id(&finals, |s| s == "delivered");
    let other = first_id(&finals, |s| s != "delivered" && s != "unknown");
    let server = sim(Duration::ZERO);
    let base = server.base_url();
    smsstat_at(&base)
        .args([
            "--wait",
            "--expect",
            "delivered",
            "sms",
            &delivered,
            "1000000",
            &other,
        ])
        .assert()
        .code(20);
    smsstat_at(&base)
        .args([
            "--wait",
            "--expect",
            "delivered",
            "sms",
            &delivered,
            &other,
            "1000000",
        ])
        .assert()
        .code(80);
}

#[test]
fn empty_statuses_and_a_zero_wait_are_usage_errors() {
    // `--expect "$UNSET"` must not turn a CI gate off.
    for args in [
        &["--expect", "", "sms", "1"][..],
        &["--expect", ",", "sms", "1"],
        &["--until", "", "sms", "1"],
        &["--wait", "--wait-timeout", "0", "sms", "1"],
    ] {
        smsstat_at("http://127.0.0.1:9")
            .args(args)
            .assert()
            .code(64);
    }
}

#[test]
fn a_mistyped_expected_status_is_64_with_the_status_meant() {
    let delivered = first_id(&final_statuses(), |s| s == "delivered");
    let server = sim(Duration::ZERO);
    // One slip from a known status: refused before any request, as --fields is.
    for (flag, typed, meant) in [
        ("--expect", "deliverd", "delivered"),
        ("--expect", "delivered,udneliverable", "undeliverable"),
        ("--until", "expird", "expired"),
    ] {
        smsstat_at(&server.base_url())
            .args([flag, typed, "sms", &delivered])
            .assert()
            .code(64)
            .stderr(predicate::str::contains(format!(
                "{flag}: no sms record has the status `{}`; did you mean `{meant}`?",
                typed.rsplit(',').next().unwrap()
            )));
    }
    // A word far from every known status is the gateway's own: warned about, and
    // still a gate (no record has it, so it is unmet).
    smsstat_at(&server.base_url())
        .args(["--expect", "delivrd-ok", "sms", &delivered])
        .assert()
        .code(80)
        .stderr(predicate::str::contains(
            "smsstat: warning: `delivrd-ok` is not a status smsstat knows",
        ));
    smsstat_at(&server.base_url())
        .args(["--expect", "delivered,undeliverable", "sms", &delivered])
        .assert()
        .success()
        .stderr(predicate::str::contains("not a status").not());
}
