//! The exit-code contract scripts rely on (documented in README.md and `--help`).

pub const SUCCESS: u8 = 0;
pub const USAGE: u8 = 64;
pub const UNREADABLE: u8 = 65;
pub const UNAVAILABLE: u8 = 69;
pub const INTERNAL: u8 = 70;
/// Stdout could not be written (a full disk, a file past its size limit); a reader
/// that went away is not this: that run ends as if the reader had read it all.
pub const IO_ERROR: u8 = 74;
pub const TIMEOUT: u8 = 75;
pub const UNEXPECTED_HTTP: u8 = 76;
pub const NOT_AUTHORISED: u8 = 77;
pub const CONFIG: u8 = 78;
pub const SERVICE_CODE_OUT_OF_RANGE: u8 = 79;
pub const EXPECTATION_NOT_MET: u8 = 80;
pub const STILL_PENDING: u8 = 81;
pub const INTERRUPTED: u8 = 130;
pub const HANGUP: u8 = 129;
pub const TERMINATED: u8 = 143;

/// A service error code passes through when it fits the range reserved for it;
/// anything else would be mistaken for one of smsstat's own codes.
pub fn for_service_code(code: Option<i64>) -> u8 {
    match code {
        Some(code @ 1..=63) => code as u8,
        _ => SERVICE_CODE_OUT_OF_RANGE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn service_codes_in_range_pass_through() {
        assert_eq!(for_service_code(Some(1)), 1);
        assert_eq!(for_service_code(Some(20)), 20);
        assert_eq!(for_service_code(Some(63)), 63);
    }

    #[test]
    fn service_codes_out_of_range_are_79() {
        assert_eq!(for_service_code(Some(64)), 79);
        assert_eq!(for_service_code(Some(-3)), 79);
        assert_eq!(for_service_code(Some(1000)), 79);
        assert_eq!(for_service_code(None), 79);
    }
}
