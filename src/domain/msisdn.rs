//! `--mask-msisdn`: phone numbers hidden for screenshots and shared CI logs, except
//! the country calling code and the last 2 digits (`380501234567` → `380*******67`).
//!
//! The rule: the country code is the longest prefix of the digits that is an ITU-T
//! E.164 country calling code (1 to 3 digits, the list below; the codes are prefix
//! free, so at most one matches). It is kept only when at least 4 digits would still
//! be masked; otherwise, and when no code matches, all but the last 2 digits are
//! masked. A value that is not a string of digits (an optional leading `+` allowed)
//! is masked whole except its last 2 characters. Nothing is ever left unmasked.

use serde_json::{Map, Value};

use crate::domain::error::LookupError;
use crate::domain::record::{error_description, Record};

/// Assigned country calling codes of one to three digits (zones 1 and 7, the 2-digit
/// codes, and the 3-digit ones including global services such as 800, 870, 881-883).
const CODES: &[u16] = &[
    1, 7, 20, 27, 30, 31, 32, 33, 34, 36, 39, 40, 41, 43, 44, 45, 46, 47, 48, 49, 51, 52, 53, 54,
    55, 56, 57, 58, 60, 61, 62, 63, 64, 65, 66, 81, 82, 84, 86, 90, 91, 92, 93, 94, 95, 98, 211,
    212, 213, 216, 218, 220, 221, 222, 223, 224, 225, 226, 227, 228, 229, 230, 231, 232, 233, 234,
    235, 236, 237, 238, 239, 240, 241, 242, 243, 244, 245, 246, 247, 248, 249, 250, 251, 252, 253,
    254, 255, 256, 257, 258, 260, 261, 262, 263, 264, 265, 266, 267, 268, 269, 290, 291, 297, 298,
    299, 350, 351, 352, 353, 354, 355, 356, 357, 358, 359, 370, 371, 372, 373, 374, 375, 376, 377,
    378, 379, 380, 381, 382, 383, 385, 386, 387, 389, 420, 421, 423, 500, 501, 502, 503, 504, 505,
    506, 507, 508, 509, 590, 591, 592, 593, 594, 595, 596, 597, 598, 599, 670, 672, 673, 674, 675,
    676, 677, 678, 679, 680, 681, 682, 683, 685, 686, 687, 688, 689, 690, 691, 692, 800, 808, 850,
    852, 853, 855, 856, 870, 878, 880, 881, 882, 883, 886, 888, 960, 961, 962, 963, 964, 965, 966,
    967, 968, 970, 971, 972, 973, 974, 975, 976, 977, 979, 992, 993, 994, 995, 996, 998,
];

const KEEP_LAST: usize = 2;
/// A country code is kept only when at least this many digits are still masked.
const MIN_MASKED: usize = 4;

fn country_code(digits: &str) -> Option<&str> {
    // No code starts with 0: `07` is not 7.
    let listed =
        |p: &&str| !p.starts_with('0') && p.parse().is_ok_and(|c| CODES.binary_search(&c).is_ok());
    (1..=3).filter_map(|n| digits.get(..n)).find(listed)
}

/// One phone number masked by the rule in the module comment.
pub fn mask_msisdn(value: &str) -> String {
    let digits = value.strip_prefix('+').unwrap_or(value);
    let plus = &value[..value.len() - digits.len()];
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return mask_tail(value, 0);
    }
    let keep_front = country_code(digits)
        .map(str::len)
        .filter(|cc| digits.len() >= cc + MIN_MASKED + KEEP_LAST)
        .unwrap_or(0);
    format!("{plus}{}", mask_tail(digits, keep_front))
}

/// Keeps `keep_front` characters and the last 2, stars in between (a value of 2
/// characters or fewer is all stars: showing it would show all of it).
fn mask_tail(value: &str, keep_front: usize) -> String {
    let len = value.chars().count();
    let shown = |i: usize| len > KEEP_LAST && (i < keep_front || i >= len - KEEP_LAST);
    let masked = |(i, c): (usize, char)| if shown(i) { c } else { '*' };
    value.chars().enumerate().map(masked).collect()
}

/// Shorter numbers are not masked inside a longer value: they would hit dates.
const MIN_FOUND_INSIDE: usize = 6;

/// Masks every value under a field named `msisdn` at any depth, and every other value
/// that is or contains one of those numbers (gateways repeat it in `id` or in an error
/// description), as strings: a JSON number cannot carry stars.
fn mask_fields(fields: &mut Map<String, Value>) {
    let mut numbers = Vec::new();
    let mut collect = |leaf: &mut Value, is_msisdn: bool| match leaf {
        Value::String(s) if is_msisdn && !s.is_empty() => numbers.push(s.clone()),
        Value::Number(n) if is_msisdn => numbers.push(n.to_string()),
        _ => {}
    };
    for (name, value) in fields.iter_mut() {
        leaves(value, name == "msisdn", &mut collect);
    }
    numbers.sort_by_key(|n: &String| std::cmp::Reverse(n.len()));
    numbers.dedup();
    let mut mask = |leaf: &mut Value, is_msisdn: bool| {
        let is_one = |text: &str| is_msisdn || numbers.iter().any(|m| is_same_number(m, text));
        match leaf {
            Value::Number(n) if is_one(&n.to_string()) => {
                *leaf = Value::String(mask_msisdn(&n.to_string()))
            }
            Value::String(text) if is_one(text) => *text = mask_msisdn(text),
            Value::String(text) => mask_inside(text, &numbers),
            _ => {}
        }
    };
    for (name, value) in fields.iter_mut() {
        leaves(value, name == "msisdn", &mut mask);
    }
}

/// Visits every value that is not an array or an object, at any depth, with whether
/// it is under a field named `msisdn`.
fn leaves(value: &mut Value, is_msisdn: bool, visit: &mut impl FnMut(&mut Value, bool)) {
    match value {
        Value::Array(items) => items.iter_mut().for_each(|v| leaves(v, is_msisdn, visit)),
        Value::Object(map) => {
            for (name, v) in map.iter_mut() {
                leaves(v, is_msisdn || name == "msisdn", visit);
            }
        }
        leaf => visit(leaf, is_msisdn),
    }
}

/// The same number, with or without a leading `+` (`+380...` and `380...`).
fn is_same_number(a: &str, b: &str) -> bool {
    let bare = |s: &str| s.trim().trim_start_matches('+').to_string();
    a.trim() == b.trim() || (!bare(a).is_empty() && bare(a) == bare(b))
}

/// Each long enough number where it appears inside a longer text.
fn mask_inside(text: &mut String, numbers: &[String]) {
    for number in numbers {
        let number = number.trim().trim_start_matches('+');
        if number.chars().count() >= MIN_FOUND_INSIDE && text.contains(number) {
            *text = text.replace(number, &mask_msisdn(number));
        }
    }
}

/// Masks every `msisdn` of a lookup's result, a service error's body included, where
/// the answer is read: every output shows the same value.
pub fn mask_result(result: &mut Result<Record, LookupError>, enabled: bool) {
    if !enabled {
        return;
    }
    match result {
        Ok(record) => mask_fields(&mut record.fields),
        Err(LookupError::Service {
            body, description, ..
        }) => {
            mask_fields(body);
            // The description shown on stderr and in tables is the body's, masked.
            *description = error_description(body).or(description.take());
        }
        Err(LookupError::WrongRecord { record, .. }) => mask_fields(record),
        Err(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_lists_are_sorted_for_binary_search() {
        assert!(CODES.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn country_codes_of_one_two_and_three_digits() {
        assert_eq!(country_code("380501234567"), Some("380"));
        assert_eq!(country_code("4915112345678"), Some("49"));
        assert_eq!(country_code("12025550123"), Some("1"));
        assert_eq!(country_code("79161234567"), Some("7"));
        assert_eq!(country_code("0501234567"), None);
        assert_eq!(country_code("07916123456"), None);
        assert_eq!(country_code("28012345"), None);
    }

    #[test]
    fn keeps_country_code_and_last_two_digits() {
        assert_eq!(mask_msisdn("380501234567"), "380*******67");
        assert_eq!(mask_msisdn("4915112345678"), "49*********78");
        assert_eq!(mask_msisdn("12025550123"), "1********23");
        assert_eq!(mask_msisdn("+380501234567"), "+380*******67");
    }

    #[test]
    fn short_unknown_and_odd_values_keep_only_the_tail() {
        assert_eq!(mask_msisdn("0501234567"), "********67");
        assert_eq!(mask_msisdn("380123"), "****23");
        assert_eq!(mask_msisdn("12"), "**");
        assert_eq!(mask_msisdn("abc-12345"), "*******45");
        assert_eq!(mask_msisdn(""), "");
    }

    #[test]
    fn every_shape_and_every_copy_of_the_number() {
        let mut fields = serde_json::json!({
            "id": "380501234567",
            "msisdn": ["380501234567", 4915112345678u64],
            "other": {"msisdn": {"e164": "+12025550123"}},
            "details": {"msisdn": "79161234567", "ported": "0"},
            "note": "sent to 12025550123 at 10:00",
            "copy": 79161234567u64,
            "status": "delivered"
        })
        .as_object()
        .cloned()
        .unwrap();
        mask_fields(&mut fields);
        let text = serde_json::to_string(&fields).unwrap();
        for number in [
            "380501234567",
            "4915112345678",
            "12025550123",
            "79161234567",
        ] {
            assert!(!text.contains(number), "{number} in {text}");
        }
        assert_eq!(fields["id"], "380*******67");
        assert_eq!(fields["msisdn"][1], "49*********78");
        assert_eq!(fields["other"]["msisdn"]["e164"], "+1********23");
        assert_eq!(fields["note"], "sent to 1********23 at 10:00");
        assert_eq!(fields["details"]["ported"], "0");
        assert_eq!(fields["status"], "delivered");
    }

    #[test]
    fn numbers_become_masked_strings() {
        let mut fields = serde_json::json!({"msisdn": 380501234567u64, "status": "x"})
            .as_object()
            .cloned()
            .unwrap();
        mask_fields(&mut fields);
        assert_eq!(fields["msisdn"], "380*******67");
        assert_eq!(fields["status"], "x");
    }
}
