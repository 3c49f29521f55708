//! Nothing is lost under faults: a big batch against the simulator failing a fifth of
//! its requests still gives exactly one line per input, in input order, each with the
//! code its answer deserves.

use std::time::Duration;

use serde_json::Value;
use smsstat::testkit::{start_sim, SimOptions};

const LOOKUPS: u64 = 10_000;
/// IDs from here up do not exist in the simulator (404, error 20).
const MISSING_FROM: u64 = 1_000_000;

/// Every fifth value is an ID the simulator does not have.
fn values() -> Vec<u64> {
    (0..LOOKUPS)
        .map(|i| if i % 5 == 3 { MISSING_FROM + i } else { i + 1 })
        .collect()
}

/// What one output line must say about its value; returns the error code seen.
fn check_line(value: u64, line: &Value) -> i64 {
    assert_eq!(
        line["query"],
        value.to_string(),
        "out of order or lost: {line}"
    );
    let code = line["error"]
        .as_i64()
        .expect("error is a number with --normalize");
    match code {
        0 => {
            assert!(value < MISSING_FROM, "{value} found: {line}");
            assert_eq!(line["reference"], format!("ref-{value}"), "{line}");
        }
        20 => assert!(value >= MISSING_FROM, "{value} not found: {line}"),
        // The injected fault: 503 with an HTML page, a local failure of smsstat's own.
        69 => assert_eq!(line["source"], "smsstat", "{line}"),
        other => panic!("unexpected code {other}: {line}"),
    }
    code
}

#[test]
fn ten_thousand_lookups_under_a_20_percent_fault_rate_lose_nothing() {
    let sim = start_sim(SimOptions {
        fail_rate: 0.2,
        latency: Duration::from_millis(1),
        settle: Duration::ZERO,
        ..SimOptions::default()
    })
    .expect("simulator");
    let values = values();
    let (out, took) = crate::common::run_batch(
        &sim.base_url(),
        &["--json", "--normalize", "-j", "16", "sms", "-"],
        &values,
        Duration::from_secs(120),
    );
    let lines = crate::common::json_lines(&out.stdout);
    assert_eq!(lines.len(), values.len(), "one line per input");

    let codes: Vec<i64> = values
        .iter()
        .zip(&lines)
        .map(|(value, line)| check_line(*value, line))
        .collect();
    let count = |code| codes.iter().filter(|c| **c == code).count();
    let faults = count(69);
    // Seeded, so stable, but only the rate is the contract: 20 % ± a margin.
    assert!((1_500..=2_500).contains(&faults), "{faults} faults");
    assert!(count(20) > 1_000 && count(0) > 5_000);
    // The batch's code is the first failure's, in input order.
    let first = *codes.iter().find(|c| **c != 0).unwrap();
    assert_eq!(out.status.code(), Some(first as i32));
    assert!(took < Duration::from_secs(60), "took {took:?}");
}
