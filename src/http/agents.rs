//! The ureq agents of a run: one per worker thread, so that workers never queue on
//! one pool's lock (ureq probes a pooled connection while holding it), and one
//! without a pool, for re-sending a GET whose pooled connection turned out closed.

use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ureq::tls::{RootCerts, TlsConfig};
use ureq::unversioned::transport::time::Duration::Exact;
use ureq::unversioned::transport::{
    Buffers, ConnectProxyConnector, ConnectionDetails, Connector, Either, NextTimeout,
    TcpConnector, Transport,
};
use ureq::{Agent, Error};

use crate::http::resolve::CachingResolver;
use crate::http::tls::{Tls, TlsConnector};
use crate::settings::config::HttpSettings;

/// Response headers larger than this are refused: a status answer needs a few hundred bytes.
const MAX_HEADER_BYTES: usize = 64 * 1024;

/// Room in the input buffer past the header limit, so that ureq sees a head that
/// passes the limit (and says so) instead of a full buffer that makes no progress.
const INPUT_SLACK: usize = 4 * 1024;

/// A request head without its key and base URL: a route, a value of at most
/// `MAX_VALUE_LEN` bytes percent-encoded, Host, User-Agent and Accept, with room.
const REQUEST_HEAD: usize = 8 * 1024 + 3 * crate::domain::lookup::MAX_VALUE_LEN;

pub(crate) const USER_AGENT: &str = concat!("smsstat/", env!("CARGO_PKG_VERSION"));

pub(crate) const ACCEPT: &str = "application/json";

/// Idle connections each worker's agent keeps: one is in use at a time.
const IDLE_PER_WORKER: usize = 2;

static NEXT_SLOT: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// This thread's agent, numbered on first use.
    static SLOT: usize = NEXT_SLOT.fetch_add(1, Ordering::Relaxed);
    /// Whether this thread's pool may hold a connection: its last request through
    /// the pooled agent got an answer.
    static MAY_REUSE: Cell<bool> = const { Cell::new(false) };
}

pub struct Agents {
    /// One per worker (or one for all: `SMSSTAT_BENCH_WITHOUT=agents`).
    pooled: Vec<Agent>,
    /// Without a pool: always a new connection.
    pub fresh: Agent,
}

impl Agents {
    pub fn new(http: &HttpSettings, jobs: usize) -> Agents {
        // The pieces of the request path that exist only for speed. A benchmark turns
        // each off (`SMSSTAT_BENCH_WITHOUT=resolver,agents,transport`, bench/run.sh)
        // to measure what it buys; every piece must earn its place there
        // (docs/speed.md). For developers only: not a setting, not in `--help`.
        let without = std::env::var("SMSSTAT_BENCH_WITHOUT").unwrap_or_default();
        let on = |piece: &str| !without.split(',').any(|p| p.trim() == piece);
        // Names are resolved once for all agents.
        let resolver = CachingResolver::new(on("resolver"));
        let lean = on("transport");
        let agent = |config| Agent::with_parts(config, connector(lean), resolver.clone());
        let pooled = agent_config(http, IDLE_PER_WORKER);
        let agents = if on("agents") { jobs.max(1) } else { 1 };
        Agents {
            pooled: (0..agents).map(|_| agent(pooled.clone())).collect(),
            fresh: agent(agent_config(http, 0)),
        }
    }

    pub fn pooled(&self) -> &Agent {
        &self.pooled[SLOT.with(|slot| *slot) % self.pooled.len()]
    }

    /// Notes whether this thread's pooled request got an answer; returns whether it
    /// may have gone out on a pooled connection (which the server may have closed).
    pub fn answered(&self, answered: bool) -> bool {
        MAY_REUSE.with(|may| may.replace(answered))
    }
}

/// ureq's default chain with pieces of ours: a CONNECT proxy first when one applies,
/// then ureq's TCP with the first exchange bounded ([`BoundedTcpConnector`]), then
/// TLS for https (`http/tls.rs`, whose transport shows `check` the server's
/// certificate). SOCKS is refused by the settings, so it has no place here.
pub(crate) fn connector(lean: bool) -> impl Connector<Out = Either<impl Transport, Tls>> {
    ().chain(ConnectProxyConnector::default())
        .chain(BoundedTcpConnector(TcpConnector::default(), lean))
        .chain(TlsConnector::default())
}

/// ureq's TCP connector, whose transport bounds the exchange that opened the
/// connection by its timeout: ureq hands every wait of a proxy's CONNECT answer the
/// whole timeout, so a proxy dripping it would restart the clock on each.
#[derive(Debug)]
struct BoundedTcpConnector(TcpConnector, bool);

impl<In: Transport> Connector<In> for BoundedTcpConnector {
    type Out = Either<In, BoundedTcp>;

    fn connect(
        &self,
        details: &ConnectionDetails,
        chained: Option<In>,
    ) -> Result<Option<Self::Out>, Error> {
        let until = details.timeout.not_zero().map(|t| Instant::now() + *t);
        let tcp = self.0.connect(details, chained)?;
        Ok(tcp.map(|tcp| match tcp {
            // A connection already made (through a proxy) is used as it is.
            Either::A(chained) => Either::A(chained),
            Either::B(tcp) => Either::B(BoundedTcp {
                tcp: Box::new(tcp),
                until,
                lean: self.1,
                stands_until: None,
            }),
        }))
    }
}

#[derive(Debug)]
struct BoundedTcp {
    tcp: Box<dyn Transport>,
    /// No wait passes this until the connection is first pooled.
    until: Option<Instant>,
    /// The speed piece `transport`: fewer system calls per request (`bound`, `is_open`).
    lean: bool,
    /// Until when the last probe, which found the connection open, stands.
    stands_until: Option<Instant>,
}

impl BoundedTcp {
    fn bound(&self, mut timeout: NextTimeout) -> NextTimeout {
        if let Some(until) = self.until {
            let left = until.saturating_duration_since(Instant::now());
            // Zero left: ureq's transport fails with Error::Timeout(reason).
            timeout.after = timeout.after.min(left.into());
        }
        // In whole milliseconds (up to 1 ms sooner): ureq sets a socket's timeouts
        // again only when they change, and counted from each request's start they
        // change every time, two setsockopt(2) calls per request.
        if let (true, Exact(after)) = (self.lean, timeout.after) {
            timeout.after = Exact(Duration::from_millis(after.as_millis() as u64));
        }
        timeout
    }
}

impl Transport for BoundedTcp {
    fn buffers(&mut self) -> &mut dyn Buffers {
        self.tcp.buffers()
    }

    fn transmit_output(&mut self, amount: usize, timeout: NextTimeout) -> Result<(), Error> {
        self.tcp.transmit_output(amount, self.bound(timeout))
    }

    fn await_input(&mut self, timeout: NextTimeout) -> Result<bool, Error> {
        self.tcp.await_input(self.bound(timeout))
    }

    /// ureq probes a connection (three system calls) when it is pooled and again when a
    /// worker takes it for its next request, at once: a probe under 1 ms old stands. One
    /// closed in between fails before its answer, and the client sends it again.
    fn is_open(&mut self) -> bool {
        // The first exchange is over: later requests bring timeouts of their own.
        self.until = None;
        if self.lean && matches!(self.stands_until.take(), Some(until) if Instant::now() < until) {
            return true;
        }
        let open = self.tcp.is_open();
        self.stands_until = open.then(|| Instant::now() + Duration::from_millis(1));
        open
    }
}

pub(crate) fn agent_config(http: &HttpSettings, idle: usize) -> ureq::config::Config {
    // Verification always on; --ca-cert only changes which roots are trusted.
    let ca = http.ca_certs.as_ref();
    let roots = ca.map_or(RootCerts::WebPki, |ca| {
        RootCerts::Specific(Arc::clone(&ca.0))
    });
    let tls = TlsConfig::builder().root_certs(roots);
    let key = http.api_key.as_ref().map_or(0, |key| {
        http.api_key_header.as_str().len() + ": \r\n".len() + key.expose().len()
    });
    Agent::config_builder()
        .http_status_as_error(false)
        // Redirects are refused, never followed: a redirect could carry the key to
        // another origin or downgrade https to http (exit 76 shows the Location).
        .max_redirects(0)
        .timeout_global(Some(http.timeout))
        .max_response_header_size(MAX_HEADER_BYTES)
        // ureq's 128 KiB buffers, zero-filled per connection, cost 64 jobs 4,000
        // page faults for answers of a few hundred bytes. The output buffer must
        // hold the whole request head (key included), so it is sized to this run's.
        .input_buffer_size(MAX_HEADER_BYTES + INPUT_SLACK)
        .output_buffer_size(REQUEST_HEAD + http.base_url.len() + key)
        .max_idle_connections(idle)
        .max_idle_connections_per_host(idle)
        .user_agent(USER_AGENT)
        .accept(ACCEPT)
        .tls_config(tls.build())
        // Always set: ureq would otherwise read the environment its own way.
        .proxy(http.proxy.as_ref().map(|choice| choice.proxy.clone()))
        .build()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ureq::unversioned::transport::LazyBuffers;

    /// A transport that counts the probes it is asked for, and is always open.
    #[derive(Debug)]
    struct Counted(LazyBuffers, Arc<AtomicUsize>);

    impl Transport for Counted {
        fn buffers(&mut self) -> &mut dyn Buffers {
            &mut self.0
        }

        fn transmit_output(&mut self, _: usize, _: NextTimeout) -> Result<(), Error> {
            Ok(())
        }

        fn await_input(&mut self, _: NextTimeout) -> Result<bool, Error> {
            Ok(false)
        }

        fn is_open(&mut self) -> bool {
            self.1.fetch_add(1, Ordering::Relaxed);
            true
        }
    }

    fn bounded(lean: bool) -> (BoundedTcp, Arc<AtomicUsize>) {
        let probes = Arc::new(AtomicUsize::new(0));
        let tcp = Box::new(Counted(LazyBuffers::new(64, 64), Arc::clone(&probes)));
        let (until, stands_until) = (None, None);
        (
            BoundedTcp {
                tcp,
                until,
                lean,
                stands_until,
            },
            probes,
        )
    }

    #[test]
    fn the_lean_transport_waits_in_whole_milliseconds() {
        let timeout = NextTimeout {
            after: Duration::from_micros(2_999_700).into(),
            ..NextTimeout::default()
        };
        let (lean, _) = bounded(true);
        assert_eq!(*lean.bound(timeout).after, Duration::from_millis(2_999));
        let (exact, _) = bounded(false);
        assert_eq!(
            *exact.bound(timeout).after,
            Duration::from_micros(2_999_700)
        );
    }

    #[test]
    fn a_fresh_probe_stands_once_and_only_for_the_lean_transport() {
        // Standing for a minute: fresh however loaded the machine is.
        let fresh = || Some(Instant::now() + Duration::from_secs(60));
        let (mut lean, probes) = bounded(true);
        assert!(lean.is_open());
        assert_eq!(probes.load(Ordering::Relaxed), 1);
        lean.stands_until = fresh();
        assert!(lean.is_open());
        assert_eq!(probes.load(Ordering::Relaxed), 1, "the fresh probe stood");
        assert!(lean.is_open());
        assert_eq!(probes.load(Ordering::Relaxed), 2, "it stands once");
        lean.stands_until = Instant::now().checked_sub(Duration::from_secs(1));
        assert!(lean.is_open());
        assert_eq!(
            probes.load(Ordering::Relaxed),
            3,
            "a stale probe does not stand"
        );
        let (mut exact, probes) = bounded(false);
        exact.stands_until = fresh();
        assert!(exact.is_open());
        assert_eq!(
            probes.load(Ordering::Relaxed),
            1,
            "without the piece, every time"
        );
    }
}
