//! Request targets to lookups; the routes, short forms and base paths are told in
//! docs/simulator.md. One base path at most, so a wrong base URL still meets a 404.
//! Segments are split first and percent-decoded after, so `%2F` stays inside a
//! reference. The query string is ignored; a trailing slash or an empty value is an
//! unknown path.

use percent_encoding::percent_decode_str;

use crate::domain::record::RecordKind::{self, Hlr, Sms, Task};

use super::data::{id_in, is_digits, parse_id, parse_reference, TASK_ONLY_IDS};

/// What a request looks up: the value as sent, and the ID of the record it names
/// when one exists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lookup {
    pub kind: RecordKind,
    pub value: String,
    pub id: Option<u64>,
}

impl Lookup {
    /// An ID of every kind, or for a task a task-only one.
    fn id(kind: RecordKind, value: &str) -> Self {
        let task_only = || id_in(value, TASK_ONLY_IDS).filter(|_| kind == Task);
        let id = parse_id(value).or_else(task_only);
        let value = value.into();
        Lookup { kind, value, id }
    }

    fn reference(kind: RecordKind, value: &str) -> Self {
        let (value, id) = (value.into(), parse_reference(value));
        Lookup { kind, value, id }
    }
}

/// The lookup a request target asks for; `None` for an unknown path.
pub fn route(target: &str) -> Option<Lookup> {
    let path = target.split(['?', '#']).next().unwrap_or_default();
    let based = |prefix: &str| path.strip_prefix(prefix).filter(|r| r.starts_with('/'));
    let below_base = ["/rest", "/v1.0"].into_iter().find_map(based);
    let path = below_base.unwrap_or(path);
    let decode = |segment| percent_decode_str(segment).decode_utf8_lossy();
    let segments: Vec<_> = path.strip_prefix('/')?.split('/').map(decode).collect();
    let segments: Vec<&str> = segments.iter().map(AsRef::as_ref).collect();
    let task = |value: &str| Lookup::id(Task, value.strip_prefix("task-").unwrap_or(value));
    Some(match segments.as_slice() {
        [_, .., ""] => return None,
        ["sms", "reference", value] => Lookup::reference(Sms, value),
        ["sms", "task", value] => task(value),
        ["sms", value] if id_in(value, TASK_ONLY_IDS).is_some() => task(value),
        ["sms", value] if is_digits(value) => Lookup::id(Sms, value),
        ["sms", value] if value.starts_with("task-") => task(value),
        ["sms", value] => Lookup::reference(Sms, value),
        ["hlr", "reference", value] => Lookup::reference(Hlr, value),
        ["hlr", value] if is_digits(value) => Lookup::id(Hlr, value),
        ["hlr", value] => Lookup::reference(Hlr, value),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(kind: RecordKind, value: &str) -> Option<Lookup> {
        Some(Lookup::id(kind, value))
    }

    fn reference(kind: RecordKind, value: &str) -> Option<Lookup> {
        Some(Lookup::reference(kind, value))
    }

    #[test]
    fn explicit_routes() {
        assert_eq!(route("/sms/42"), id(Sms, "42"));
        assert_eq!(route("/sms/reference/r1"), reference(Sms, "r1"));
        assert_eq!(route("/sms/task/7"), id(Task, "7"));
        assert_eq!(route("/hlr/9"), id(Hlr, "9"));
        assert_eq!(route("/hlr/reference/x"), reference(Hlr, "x"));
    }

    #[test]
    fn short_forms() {
        assert_eq!(route("/sms/ref-3"), reference(Sms, "ref-3"));
        assert_eq!(route("/sms/task-7"), id(Task, "7"));
        assert_eq!(route("/sms/task/task-7"), id(Task, "7"));
        assert_eq!(route("/hlr/ref-9"), reference(Hlr, "ref-9"));
    }

    #[test]
    fn prefix_query_and_decoding() {
        assert_eq!(route("/rest/sms/42?x=1"), id(Sms, "42"));
        assert_eq!(route("/v1.0/hlr/7"), id(Hlr, "7"));
        assert_eq!(route("/sms/reference/a%2Fb%20c"), reference(Sms, "a/b c"));
        assert_eq!(route("/sms/reference/%D0%BA%D0%BB"), reference(Sms, "кл"));
        assert_eq!(route("/sms/%2E%2E"), reference(Sms, ".."));
        assert_eq!(route("/%73ms/42"), id(Sms, "42"));
    }

    #[test]
    fn unknown_paths() {
        for target in [
            "/",
            "",
            "/sms",
            "/sms/",
            "/sms/42/",
            "/restsms/42",
            "/api/sms/42",
            "/rest/rest/sms/1",
            "/rest/v1.0/sms/1",
            "/v1/sms/1",
            "/sms/task/7/x",
            "/mms/1",
            "/hlr/reference/",
        ] {
            assert_eq!(route(target), None, "{target}");
        }
    }

    #[test]
    fn resolution() {
        assert_eq!(route("/sms/42").unwrap().id, Some(42));
        assert_eq!(route("/sms/1000000").unwrap().id, None);
        assert_eq!(route("/hlr/ref-8").unwrap().id, Some(8));
        assert_eq!(route("/sms/task/abc").unwrap().id, None);
        // The spec's task short form finds the task-only IDs.
        assert_eq!(route("/sms/2000006"), id(Task, "2000006"));
        assert_eq!(route("/sms/2000006").unwrap().id, Some(2_000_006));
        assert_eq!(route("/sms/task/2999999").unwrap().id, Some(2_999_999));
        assert_eq!(route("/sms/3000000"), id(Sms, "3000000"));
        assert_eq!(route("/sms/1999999").unwrap().id, None);
        assert_eq!(route("/sms/task/2000000").unwrap().id, Some(2_000_000));
        assert_eq!(route("/sms/task/42").unwrap().id, Some(42));
        assert_eq!(route("/sms/task/1000000").unwrap().id, None);
        assert_eq!(route("/sms/task/3000000").unwrap().id, None);
        assert_eq!(route("/hlr/2000000").unwrap().id, None);
        assert_eq!(route("/sms/reference/x").unwrap().value, "x");
    }
}
