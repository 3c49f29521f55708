//! A mixed batch for report and JUnit tests: a test server answering each ID as
//! not found, unavailable, or the simulator's record (pending or final), and the
//! same answers computed here, so that tests can count independently of the binary.

use super::sim::PENDING_SMS_STATUSES;
use serde_json::{Map, Value};
use smsstat::testkit::{sim_record, Codes, Kind, SimOptions};

use super::answers::value_of;
use super::{Canned, TestServer};

/// The batch's IDs are 1..=IDS.
pub const IDS: u64 = 1200;

/// What the test server answers for an ID: not found (every 10th), unavailable
/// (every 37th), else the simulator's record, pending for every 4th ID.
pub enum Answer {
    NotFound,
    Unavailable,
    Record(Map<String, Value>),
}

pub fn answer(kind: Kind, id: u64) -> Answer {
    if id.is_multiple_of(10) {
        Answer::NotFound
    } else if id.is_multiple_of(37) {
        Answer::Unavailable
    } else {
        let progress = if id.is_multiple_of(4) { 0.0 } else { 1.0 };
        Answer::Record(sim_record(kind, id, progress, &SimOptions::default()))
    }
}

pub fn server(kind: Kind) -> TestServer {
    TestServer::start(move |url| {
        let id: u64 = value_of(url).parse().unwrap();
        match answer(kind, id) {
            Answer::NotFound => {
                let (code, text) = kind.not_found_in(Codes::Spec, "");
                Canned::json(
                    404,
                    &format!(r#"{{"error":{code},"errorDescription":"{text}"}}"#),
                )
            }
            Answer::Unavailable => Canned::text(503, "<html>busy</html>"),
            Answer::Record(map) => Canned::json(200, &Value::Object(map).to_string()),
        }
    })
}

pub fn records(kind: Kind) -> Vec<(u64, Map<String, Value>)> {
    (1..=IDS)
        .filter_map(|id| match answer(kind, id) {
            Answer::Record(map) => Some((id, map)),
            _ => None,
        })
        .collect()
}

pub fn text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// An SMS record not final yet (the built-in list; no status is pending too).
pub fn is_pending(map: &Map<String, Value>) -> bool {
    let status = text(&map["status"]);
    status.is_empty() || PENDING_SMS_STATUSES.contains(&status.as_str())
}
