//! Times as servers send them (`YYYY-MM-DD HH:MM:SS`, or ISO 8601 with an offset), as
//! seconds since 1970 for latencies.

use std::time::UNIX_EPOCH;

use serde_json::Value;

use crate::domain::record::Record;

/// Seconds from one time field of a record to another; None when either is missing or
/// the end is before the start (a clock problem, not a latency).
pub fn seconds_between(record: &Record, from: &str, to: &str) -> Option<i64> {
    let start = timestamp(record.get(from)?)?;
    let end = timestamp(record.get(to)?)?;
    (end >= start).then_some(end - start)
}

/// Seconds since 1970 of a `YYYY-MM-DD HH:MM:SS` time (none before 1970, nor
/// `0000-00-00 00:00:00`, "not yet"). Without a zone both ends of a latency share the
/// same unknown zone, so the difference is right; an ISO 8601 offset is taken to UTC.
pub fn timestamp(value: &Value) -> Option<i64> {
    let text = value.as_str()?.trim();
    let local = humantime::parse_rfc3339_weak(text.get(..19)?).ok()?;
    let seconds = local.duration_since(UNIX_EPOCH).ok()?.as_secs() as i64;
    Some(seconds - zone_offset(text.get(19..)?)?)
}

/// The seconds east of UTC of what follows `HH:MM:SS`: nothing (no zone, taken as
/// is), optional fractional seconds, then `Z`, `±HH:MM`, `±HHMM` or `±HH`.
fn zone_offset(rest: &str) -> Option<i64> {
    let rest = match rest.strip_prefix(['.', ',']) {
        Some(fraction) => {
            let digits = fraction.bytes().take_while(u8::is_ascii_digit).count();
            (digits > 0).then(|| &fraction[digits..])?
        }
        None => rest,
    };
    let (sign, zone) = match rest.split_at_checked(1) {
        _ if rest.is_empty() || rest.eq_ignore_ascii_case("z") => return Some(0),
        Some(("+", zone)) => (1, zone.replace(':', "")),
        Some(("-", zone)) => (-1, zone.replace(':', "")),
        _ => return None,
    };
    if !matches!(zone.len(), 2 | 4) || !zone.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let hours: i64 = zone[..2].parse().ok()?;
    // Empty when the zone is hours alone.
    let minutes: i64 = zone[2..].parse().unwrap_or(0);
    (hours <= 23 && minutes <= 59).then_some(sign * (hours * 3600 + minutes * 60))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn timestamps_are_parsed() {
        assert_eq!(timestamp(&json!("1970-01-01 00:00:00")), Some(0));
        assert_eq!(timestamp(&json!("2000-03-01 00:00:01")), Some(951_868_801));
        assert_eq!(
            timestamp(&json!("2024-02-29T12:00:00")),
            Some(1_709_208_000)
        );
        for bad in [
            "",
            "0000-00-00 00:00:00",
            "2024-13-01 00:00:00",
            "2024-01-01",
            "x",
        ] {
            assert_eq!(timestamp(&json!(bad)), None, "{bad}");
        }
        assert_eq!(timestamp(&json!(17)), None);
    }

    #[test]
    fn iso_times_with_offsets_are_taken_to_utc() {
        assert_eq!(timestamp(&json!("1970-01-01T00:00:00Z")), Some(0));
        assert_eq!(timestamp(&json!("1970-01-01T02:00:00+02:00")), Some(0));
        assert_eq!(timestamp(&json!("1970-01-01T00:00:00-0130")), Some(5400));
        assert_eq!(timestamp(&json!("1970-01-01T03:00:00.250+03")), Some(0));
        for bad in [
            "1970-01-01T00:00:00+",
            "1970-01-01T00:00:00+2",
            "1970-01-01T00:00:00 UTC",
            "1970-01-01T00:00:00.",
            "1970-01-01T00:00:00+25:00",
        ] {
            assert_eq!(timestamp(&json!(bad)), None, "{bad}");
        }
    }
}
