//! The clap definition of `smsstat sim`: the simulator's own flags.

use std::net::{Ipv4Addr, SocketAddr, ToSocketAddrs};
use std::time::Duration;

use clap::{Args, ValueEnum};

use super::values::parse_fraction;
use crate::domain::duration::parse_duration;

/// How often the simulator applies one of the field notes' oddities.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Oddity {
    /// Per record, decided by its ID (the default: realistic variety)
    Mixed,
    /// On every record
    Always,
    /// On no record
    Never,
}

#[derive(Debug, Args, Clone)]
#[command(next_help_heading = "Simulator")]
pub struct SimArgs {
    /// Address to listen on, HOST:PORT: an IP address or a host name (`localhost` is
    /// 127.0.0.1); port 0 picks a free port
    #[arg(long, value_name = "ADDR", value_parser = parse_listen, default_value = "127.0.0.1:8765")]
    pub listen: SocketAddr,

    /// Time after start by which every record has reached its final state (0: final at once)
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, default_value = "5s")]
    pub settle: Duration,

    /// Require this key in the X-API-KEY header (error 1 otherwise); by default any key or none is accepted
    #[arg(long, value_name = "KEY")]
    pub api_key: Option<String>,

    /// Delay added before every answer
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, default_value = "0")]
    pub latency: Duration,

    /// Fraction of requests answered with 503 and an HTML body (0.0 to 1.0)
    #[arg(long, value_name = "FRACTION", value_parser = parse_fraction, default_value_t = 0.0)]
    pub fail_rate: f64,

    /// Seed of the fault sequence (fail-rate decisions)
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,

    /// Send numeric fields as JSON strings ("price": "0.23")
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = Oddity::Mixed)]
    pub string_numbers: Oddity,

    /// Leave the `error` field out of successful answers
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = Oddity::Mixed)]
    pub omit_error: Oddity,

    /// Add fields the spec does not list (id on SMS; name_en, brand, name on HLR)
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = Oddity::Mixed)]
    pub extra_fields: Oddity,

    /// Add `"errorDescription": "No errors"` to successful answers that carry `error`
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = Oddity::Mixed)]
    pub no_errors_text: Oddity,

    /// Answer service errors with HTTP 200 and the JSON error body, as the live
    /// service does (unknown paths then answer error 4)
    #[arg(long)]
    pub errors_with_200: bool,

    /// Answer more than N requests a second with 429 and `Retry-After`
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub rate_limit: Option<u32>,

    /// Shape of task records: `spec` (sent is the total) or `v1` (adds total,
    /// queued, accepted, enroute)
    #[arg(long, value_enum, value_name = "SHAPE", default_value_t = TaskCounterShape::Spec)]
    pub task_counters: TaskCounterShape,
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
    let mut addrs = (host, port)
        .to_socket_addrs()
        .map_err(|err| format!("cannot resolve `{host}`: {err}"))?;
    addrs
        .next()
        .ok_or_else(|| format!("`{host}` resolves to no address"))
}

/// Which variant's task records the simulator serves.
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
