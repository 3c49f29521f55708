//! The built-in simulator: a real HTTP server implementing the whole status API.
//! (Stub: the simulator issue fills this in.)

use std::net::SocketAddr;
use std::time::Duration;

use crate::cli::{Oddity, SimArgs};

/// Everything the simulator needs; built from `SimArgs` or by `SimOptions::demo`.
#[derive(Debug, Clone)]
pub struct SimOptions {
    pub listen: SocketAddr,
    pub settle: Duration,
    pub api_key: Option<String>,
    pub latency: Duration,
    pub fail_rate: f64,
    pub seed: u64,
    pub string_numbers: Oddity,
    pub omit_error: Oddity,
    pub extra_fields: Oddity,
    pub threads: usize,
}

impl SimOptions {
    pub fn from_args(args: &SimArgs) -> Self {
        SimOptions {
            listen: args.listen,
            settle: args.settle,
            api_key: args.api_key.clone(),
            latency: args.latency,
            fail_rate: args.fail_rate,
            seed: args.seed,
            string_numbers: args.string_numbers,
            omit_error: args.omit_error,
            extra_fields: args.extra_fields,
            threads: args.threads,
        }
    }

    /// The in-process simulator behind `--demo`: ephemeral loopback port, records final at once.
    pub fn demo() -> Self {
        SimOptions {
            listen: SocketAddr::from(([127, 0, 0, 1], 0)),
            settle: Duration::ZERO,
            api_key: None,
            latency: Duration::ZERO,
            fail_rate: 0.0,
            seed: 0,
            string_numbers: Oddity::Mixed,
            omit_error: Oddity::Mixed,
            extra_fields: Oddity::Mixed,
            threads: 2,
        }
    }
}

/// A running simulator; serves until dropped or until `wait` returns.
pub struct SimServer {
    addr: SocketAddr,
}

impl SimServer {
    pub fn start(options: SimOptions) -> std::io::Result<SimServer> {
        Ok(SimServer {
            addr: options.listen,
        })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Blocks, serving requests, until the process ends.
    pub fn wait(self) {}
}
