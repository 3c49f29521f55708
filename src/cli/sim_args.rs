//! The clap definition of `smsstat sim`: the simulator's own flags.

use std::net::{Ipv4Addr, SocketAddr, ToSocketAddrs};
use std::time::Duration;

use clap::{Args, ValueEnum};

use crate::domain::duration::parse_duration;
use crate::sim::{Codes, Oddity, Variant};

#[derive(Debug, Args, Clone)]
#[command(next_help_heading = "Simulator")]
pub struct SimArgs {
    /// Address to listen on, HOST:PORT (port 0 picks a free one)
    ///
    /// HOST is an IP address or a host name (`localhost` is 127.0.0.1); port 0 picks a
    /// free port.
    #[arg(long, value_name = "ADDR", value_parser = parse_listen, default_value = "127.0.0.1:8765")]
    pub listen: SocketAddr,

    /// When every record has reached its final state (0: at once)
    ///
    /// Time after start by which every record has reached its final state.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, default_value = "5s")]
    pub settle: Duration,

    /// Require this key in the X-API-KEY header (error 1 otherwise)
    ///
    /// By default any key or none is accepted.
    #[arg(long, value_name = "KEY")]
    pub api_key: Option<String>,

    /// Delay added before every answer
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, default_value = "0")]
    pub latency: Duration,

    /// Fraction of requests answered with 503 (0.0 to 1.0)
    ///
    /// Each with an HTML body, as a proxy in trouble answers.
    #[arg(long, value_name = "FRACTION", value_parser = parse_fraction, default_value_t = 0.0)]
    pub fail_rate: f64,

    /// Seed of the fault sequence (fail-rate decisions)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,

    /// Answer like this variant of the service: spec or v1
    ///
    /// See docs/variants.md: `spec` (the spec
    /// and field notes) or `v1` (the vendor's v1 API document: its statuses, fields,
    /// types and error shapes; numbers as numbers, `error` and "No errors" on every
    /// success, v1 task counters, vendor codes, service errors with HTTP 200; the
    /// flags below still change each of these)
    #[arg(long, value_enum, value_name = "VARIANT", default_value_t = Variant::Spec)]
    pub variant: Variant,

    /// Error codes of lookups that find nothing: spec or vendor
    ///
    /// `spec` (10 HLR, 20 SMS, 30 task) or
    /// `vendor` (60 HLR, 65 HLR reference it cannot take, 20 SMS, 29 task ID not a
    /// number, 30 task) [default: the variant's: spec, v1 vendor]
    #[arg(long, value_enum, value_name = "CODES")]
    pub codes: Option<Codes>,

    /// Numeric fields as JSON numbers, strings or either
    ///
    /// As JSON numbers (`integers`), as JSON strings (`strings`:
    /// "price": "0.23"), or either, per record and field (`mixed`) [default: the
    /// variant's: spec mixed, v1 integers]
    #[arg(
        long,
        value_enum,
        value_name = "HOW",
        conflicts_with = "string_numbers"
    )]
    pub numbers: Option<Numbers>,

    /// The older spelling of --numbers: always is strings, never integers
    #[arg(long, value_enum, value_name = "WHEN", hide = true)]
    pub string_numbers: Option<Oddity>,

    /// Leave the `error` field out of successful answers
    ///
    /// [default: the variant's: spec mixed, v1 never]
    #[arg(long, value_enum, value_name = "WHEN")]
    pub omit_error: Option<Oddity>,

    /// Add fields the documents do not list
    ///
    /// The spec variant: `id` on SMS, `name_en`, `name_ru`,
    /// `brand`, `name`, `details.imsi`, `details.location_msc` on HLR; v1 `ported`
    /// and `roaming` at the top of HLR records (as its examples)
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = Oddity::Mixed)]
    pub extra_fields: Oddity,

    /// Add "No errors" to successful answers that carry `error`
    ///
    /// As `"errorDescription": "No errors"`. [default: the variant's: spec mixed, v1
    /// always]
    #[arg(long, value_enum, value_name = "WHEN")]
    pub no_errors_text: Option<Oddity>,

    /// Answer service errors with HTTP 200, as the live service does
    ///
    /// With the JSON error body; unknown paths then answer error 4. The v1 variant
    /// always does.
    #[arg(long)]
    pub errors_with_200: bool,

    /// Answer more than N requests a second with 429
    ///
    /// With `Retry-After` and `{"code":429,"message":...}`.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub rate_limit: Option<u32>,

    /// Shape of task records: spec or v1
    ///
    /// `spec` (sent is the total) or `v1` (adds total, queued, accepted, enroute)
    /// [default: the variant's]
    #[arg(long, value_enum, value_name = "SHAPE")]
    pub task_counters: Option<TaskCounterShape>,

    /// No line per request on stderr
    ///
    /// By default each request is shown on stderr as it is answered: the time (UTC),
    /// method, path, HTTP status and how long the answer took.
    #[arg(short, long)]
    pub quiet: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Numbers {
    /// Numbers or strings, per record and field
    Mixed,
    /// JSON numbers only (what typed clients such as the Go SDKs decode)
    Integers,
    /// JSON strings only
    Strings,
}

/// `--listen`: `127.0.0.1:0`, `[::1]:0`, or a host name and port. `localhost` is
/// loopback by definition (RFC 6761), so it is not looked up (a hosts file may map
/// it elsewhere); another name is resolved and its first address taken, and the
/// simulator warns when that is beyond loopback.
fn parse_listen(text: &str) -> Result<SocketAddr, String> {
    if let Ok(addr) = text.parse() {
        return Ok(addr);
    }
    let Some((host, port)) = text.rsplit_once(':') else {
        return Err("expected HOST:PORT, e.g. 127.0.0.1:8765 or localhost:0".into());
    };
    let port: u16 = port
        .parse()
        .map_err(|_| format!("`{port}` is not a port number (0 to 65535)"))?;
    if host.eq_ignore_ascii_case("localhost") {
        return Ok(SocketAddr::from((Ipv4Addr::LOCALHOST, port)));
    }
    let resolved = (host, port).to_socket_addrs();
    let mut addrs = resolved.map_err(|err| format!("cannot resolve `{host}`: {err}"))?;
    let none = || format!("`{host}` resolves to no address");
    addrs.next().ok_or_else(none)
}

fn parse_fraction(text: &str) -> Result<f64, String> {
    let why = || "expected a fraction from 0.0 to 1.0 (e.g. 0.2)".into();
    crate::settings::checks::within(text, 0.0..=1.0).ok_or_else(why)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TaskCounterShape {
    /// The spec's counters: sent, delivered, undeliverable, expired, unknown
    Spec,
    /// The v1 variant's: total and the in-flight queued, accepted, enroute too
    V1,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listen_addresses_and_names() {
        assert_eq!(
            parse_listen("127.0.0.1:0").unwrap().to_string(),
            "127.0.0.1:0"
        );
        assert_eq!(parse_listen("[::1]:80").unwrap().to_string(), "[::1]:80");
        assert_eq!(
            parse_listen("LocalHost:9").unwrap().to_string(),
            "127.0.0.1:9"
        );
        assert!(parse_listen("localhost").unwrap_err().contains("HOST:PORT"));
        assert!(parse_listen("localhost:x")
            .unwrap_err()
            .contains("port number"));
    }
}
