//! `--follow`: every line names its lookup, and a failure is printed when it happens,
//! not when the lookups before it in the input are done.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::common::answers::value_of;
use crate::common::process::{command, Live, Stream};
use crate::common::{Canned, TestServer};

#[test]
fn a_failure_is_printed_at_once_and_every_line_names_its_lookup() {
    // 5 and 6 stay pending until the test has seen 7's failure; 7 is not found.
    let seen_failure = Arc::new(AtomicBool::new(false));
    let settle = Arc::clone(&seen_failure);
    let server = TestServer::start(move |url| {
        let id = value_of(url);
        if id == "7" {
            return Canned::json(404, r#"{"error":20,"errorDescription":"SMS not found"}"#);
        }
        let status = match settle.load(Ordering::SeqCst) {
            true => "delivered",
            false => "enroute",
        };
        Canned::json(200, &format!(r#"{{"id":"{id}","status":"{status}"}}"#))
    });
    let args = [
        "--wait",
        "--follow",
        "--interval",
        "100ms",
        "sms",
        "5",
        "7",
        "6",
    ];
    let mut live = Live::spawn(command(&server.base, &args));
    // Before the fix this waits in vain: 7's line came only after 5 was final.
    live.wait_for(Stream::Stdout, |line| line.contains(r#""query":"7""#));
    seen_failure.store(true, Ordering::SeqCst);
    let ended = live.finish();
    assert_eq!(ended.code, Some(20), "{}", ended.stderr);
    let lines = ended.json_lines();
    let failures: Vec<_> = lines.iter().filter(|l| l["query"] == "7").collect();
    assert_eq!(failures.len(), 1, "printed once: {}", ended.stdout);
    assert_eq!(failures[0]["error"], 20);
    assert!(
        lines
            .iter()
            .all(|l| l["kind"] == "sms" && l["query"].is_string()),
        "{}",
        ended.stdout
    );
    for id in ["5", "6"] {
        let last = lines.iter().rev().find(|l| l["query"] == id).unwrap();
        assert_eq!(last["status"], "delivered", "{}", ended.stdout);
    }
}
