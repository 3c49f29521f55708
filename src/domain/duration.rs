//! Durations as users type them: plain seconds (`10`, `0.5`) or humantime (`500ms`, `2s`, `2m`).

use std::time::Duration;

/// Longer durations are surely typos, and would overflow clock arithmetic.
const MAX_DURATION: Duration = Duration::from_secs(366 * 24 * 3600);

/// Parses `10` (seconds), `1.5` (seconds), `500ms`, `2s`, `1m 30s`; at most a year.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("empty duration (try 10, 500ms or 2s)".into());
    }
    let duration = match text.parse::<f64>() {
        Ok(seconds) => Duration::try_from_secs_f64(seconds)
            .map_err(|_| format!("`{text}` is not a valid number of seconds"))?,
        Err(_) => humantime::parse_duration(text)
            .map_err(|err| format!("`{text}` is not a duration ({err}); try 10, 500ms or 2s"))?,
    };
    if duration > MAX_DURATION {
        return Err(format!("`{text}` is longer than a year"));
    }
    Ok(duration)
}

/// Short human form for messages: `250ms`, `2s`, `1m 30s`.
pub fn format_duration(duration: Duration) -> String {
    if duration < Duration::from_secs(1) {
        return format!("{}ms", duration.as_millis());
    }
    let rounded = if duration < Duration::from_secs(10) {
        Duration::from_millis(duration.as_millis() as u64 / 100 * 100)
    } else {
        Duration::from_secs(duration.as_secs())
    };
    humantime::format_duration(rounded).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_numbers_are_seconds() {
        assert_eq!(parse_duration("10"), Ok(Duration::from_secs(10)));
        assert_eq!(parse_duration("0.5"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("0"), Ok(Duration::ZERO));
    }

    #[test]
    fn units_are_understood() {
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("2s"), Ok(Duration::from_secs(2)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
    }

    #[test]
    fn nonsense_is_rejected() {
        assert!(parse_duration("").is_err());
        assert!(parse_duration("-1").is_err());
        assert!(parse_duration("soon").is_err());
        assert!(parse_duration("1e19").is_err());
        assert!(parse_duration("400days").is_err());
    }

    #[test]
    fn formats_compactly() {
        assert_eq!(format_duration(Duration::from_millis(250)), "250ms");
        assert_eq!(format_duration(Duration::from_millis(2345)), "2s 300ms");
        assert_eq!(format_duration(Duration::from_secs(90)), "1m 30s");
    }
}
