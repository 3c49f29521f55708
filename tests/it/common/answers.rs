//! Answers by the value looked up, for the batch tests: an SMS record that names the
//! ID it was asked for, and a server whose fault depends on the ID.

use super::Canned;

/// The last path segment of a request URL: the value looked up (still
/// percent-encoded).
pub fn value_of(url: &str) -> String {
    url.rsplit('/').next().unwrap().to_string()
}

/// An SMS record that names the ID it was asked for.
pub fn record_for(url: &str) -> Canned {
    let id = value_of(url);
    Canned::json(
        200,
        &format!(r#"{{"id":"{id}","status":"delivered","price":"0.1","currency":"EUR"}}"#),
    )
}

/// IDs by what the fault server does with them.
pub fn faulty(url: &str) -> Canned {
    let id: u64 = value_of(url).parse().unwrap();
    match id % 5 {
        0 => Canned::json(404, r#"{"error":20,"errorDescription":"SMS not found"}"#),
        1 => Canned::text(503, "<html>down</html>"),
        2 => Canned::json(200, "{broken"),
        _ => record_for(url),
    }
}
