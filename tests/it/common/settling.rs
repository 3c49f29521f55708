//! The simulator with records that settle within `settle` of its start, and the SMS
//! IDs still pending when a test starts: for the `--wait` and `--expect` tests.

use std::time::Duration;

use httpcore::HttpServer;
use serde_json::Value;
use smsstat::testkit::{settle_fraction, start_sim, Kind, SimOptions};

use super::{json_lines, smsstat_at};

pub fn sim(settle: Duration) -> HttpServer {
    start_sim(SimOptions {
        settle,
        ..SimOptions::default()
    })
    .expect("simulator")
}

pub fn status(record: &Value) -> String {
    record["status"].as_str().unwrap_or_default().to_string()
}

/// Final statuses of SMS 1..=100, from a settled simulator (the data is deterministic).
pub fn final_statuses() -> Vec<(u64, String)> {
    let settled = sim(Duration::ZERO);
    let ids: Vec<String> = (1..=100).map(|id: u64| id.to_string()).collect();
    let out = smsstat_at(&settled.base_url())
        .args(["--json", "sms"])
        .args(&ids)
        .output()
        .unwrap();
    json_lines(&out.stdout)
        .iter()
        .enumerate()
        .map(|(i, r)| (i as u64 + 1, status(r)))
        .collect()
}

/// SMS IDs that settle in the second half of the settle period (so they are still
/// pending when a test starts) and whose final status satisfies `wanted`. `unknown`
/// is left out: it counts as pending (README), so a wait on it would only time out.
pub fn late_ids(wanted: impl Fn(&str) -> bool) -> Vec<(String, String)> {
    final_statuses()
        .into_iter()
        .filter(|(id, fin)| {
            settle_fraction(Kind::Sms, *id) > 0.5 && fin != "unknown" && wanted(fin)
        })
        .map(|(id, fin)| (id.to_string(), fin))
        .collect()
}
