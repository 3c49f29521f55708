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
use crate::domain::record::Record;

/// Country calling codes of one and two digits (zones 1 and 7, and the 2-digit codes).
const SHORT_CODES: &[&str] = &[
    "1", "7", "20", "27", "30", "31", "32", "33", "34", "36", "39", "40", "41", "43", "44", "45",
    "46", "47", "48", "49", "51", "52", "53", "54", "55", "56", "57", "58", "60", "61", "62", "63",
    "64", "65", "66", "81", "82", "84", "86", "90", "91", "92", "93", "94", "95", "98",
];

/// Assigned three-digit country calling codes (including the global services such as
/// 800, 870, 881-883, 888).
const LONG_CODES: &[u16] = &[
    211, 212, 213, 216, 218, 220, 221, 222, 223, 224, 225, 226, 227, 228, 229, 230, 231, 232, 233,
    234, 235, 236, 237, 238, 239, 240, 241, 242, 243, 244, 245, 246, 247, 248, 249, 250, 251, 252,
    253, 254, 255, 256, 257, 258, 260, 261, 262, 263, 264, 265, 266, 267, 268, 269, 290, 291, 297,
    298, 299, 350, 351, 352, 353, 354, 355, 356, 357, 358, 359, 370, 371, 372, 373, 374, 375, 376,
    377, 378, 379, 380, 381, 382, 383, 385, 386, 387, 389, 420, 421, 423, 500, 501, 502, 503, 504,
    505, 506, 507, 508, 509, 590, 591, 592, 593, 594, 595, 596, 597, 598, 599, 670, 672, 673, 674,
    675, 676, 677, 678, 679, 680, 681, 682, 683, 685, 686, 687, 688, 689, 690, 691, 692, 800, 808,
    850, 852, 853, 855, 856, 870, 878, 880, 881, 882, 883, 886, 888, 960, 961, 962, 963, 964, 965,
    966, 967, 968, 970, 971, 972, 973, 974, 975, 976, 977, 979, 992, 993, 994, 995, 996, 998,
];

/// Digits left visible at the end.
const KEEP_LAST: usize = 2;
/// A country code is kept only when at least this many digits are still masked.
const MIN_MASKED: usize = 4;

/// The country calling code a number starts with, if any.
pub fn country_code(digits: &str) -> Option<&str> {
    (1..=3).filter_map(|n| digits.get(..n)).find(|prefix| {
        if prefix.len() < 3 {
            SHORT_CODES.contains(prefix)
        } else {
            prefix
                .parse::<u16>()
                .is_ok_and(|code| LONG_CODES.binary_search(&code).is_ok())
        }
    })
}

/// One phone number masked by the rule in the module comment.
pub fn mask_msisdn(value: &str) -> String {
    let (plus, digits) = match value.strip_prefix('+') {
        Some(rest) => ("+", rest),
        None => ("", value),
    };
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
    let chars: Vec<char> = value.chars().collect();
    if chars.len() <= KEEP_LAST {
        return "*".repeat(chars.len());
    }
    let tail = chars.len() - KEEP_LAST;
    chars
        .iter()
        .enumerate()
        .map(|(i, c)| if i < keep_front || i >= tail { *c } else { '*' })
        .collect()
}

/// Masks `msisdn` in a record's fields. The masked value is a string: a number sent
/// as a JSON number cannot carry stars.
fn mask_fields(fields: &mut Map<String, Value>) {
    if let Some(value) = fields.get_mut("msisdn") {
        let text = match value {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            _ => return,
        };
        *value = Value::String(mask_msisdn(&text));
    }
}

/// Masks every `msisdn` of a lookup's result: in the record, and in a service
/// error's body (printed as is by `--json`). Applied where the answer is read, so
/// every output (tables, JSON, CSV/TSV, `--field`, `--follow`) shows the same value.
pub fn mask_result(result: &mut Result<Record, LookupError>, enabled: bool) {
    if !enabled {
        return;
    }
    match result {
        Ok(record) => mask_fields(&mut record.fields),
        Err(LookupError::Service { body, .. }) => mask_fields(body),
        Err(LookupError::WrongRecord { record, .. }) => mask_fields(record),
        Err(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_lists_are_sorted_for_binary_search() {
        assert!(LONG_CODES.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn country_codes_of_one_two_and_three_digits() {
        assert_eq!(country_code("380501234567"), Some("380"));
        assert_eq!(country_code("4915112345678"), Some("49"));
        assert_eq!(country_code("12025550123"), Some("1"));
        assert_eq!(country_code("79161234567"), Some("7"));
        assert_eq!(country_code("0501234567"), None);
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
