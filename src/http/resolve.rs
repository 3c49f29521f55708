//! Reaching a host. Names resolved once per host (all lookups of a run go to one):
//! ureq's resolver spawns a thread per request to bound the lookup by the timeout,
//! dearer than the request itself on a keep-alive connection. And the one "connect
//! within a deadline".

use std::io;
use std::net::{SocketAddr, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ureq::http::Uri;
use ureq::unversioned::resolver::{DefaultResolver, ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::NextTimeout;

/// Shared by the agents of a run (a clone shares the cache).
#[derive(Debug, Clone)]
pub struct CachingResolver {
    /// Off (`SMSSTAT_BENCH_WITHOUT=resolver`): ureq's resolver on every new connection.
    on: bool,
    /// The last URI resolved, and its addresses (never a failure).
    cache: Arc<Mutex<Option<(Uri, ResolvedSocketAddrs)>>>,
}

impl CachingResolver {
    pub fn new(on: bool) -> CachingResolver {
        let cache = Arc::default();
        CachingResolver { on, cache }
    }
}

impl Resolver for CachingResolver {
    fn resolve(
        &self,
        uri: &Uri,
        config: &ureq::config::Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        if !self.on {
            return DefaultResolver::default().resolve(uri, config, timeout);
        }
        // Compared part by part: every request asks, and building a key to compare
        // cost an allocation each time.
        if let Some((seen, addrs)) = &*self.cache.lock().unwrap_or_else(|e| e.into_inner()) {
            if seen.scheme() == uri.scheme() && seen.authority() == uri.authority() {
                return Ok(addrs.clone());
            }
        }
        // A name that does not resolve will not resolve on a retry either: told
        // apart from connection failures, which are retried.
        let addrs = DefaultResolver::default()
            .resolve(uri, config, timeout)
            .map_err(|e| match e {
                ureq::Error::Io(_) => ureq::Error::HostNotFound,
                other => other,
            })?;
        *self.cache.lock().unwrap_or_else(|e| e.into_inner()) = Some((uri.clone(), addrs.clone()));
        Ok(addrs)
    }
}

/// The addresses of `host:port` as lookups find them (ureq's resolver, which bounds
/// the system's lookup by a thread of its own), within `timeout`: for `check`'s
/// steps, which open connections of their own.
pub fn resolve(host: &str, port: u16, timeout: Duration) -> Result<Vec<SocketAddr>, ureq::Error> {
    let authority = match host.contains(':') {
        true => format!("[{host}]:{port}"),
        false => format!("{host}:{port}"),
    };
    let uri: Uri = format!("http://{authority}/")
        .parse()
        .map_err(|_| ureq::Error::HostNotFound)?;
    let timeout = NextTimeout {
        after: timeout.into(),
        reason: ureq::Timeout::Resolve,
        ..NextTimeout::default()
    };
    let addrs =
        DefaultResolver::default().resolve(&uri, &ureq::config::Config::default(), timeout)?;
    Ok(addrs.iter().copied().collect())
}

/// For `check`'s connect step: the first of `addrs` that accepts a TCP connection,
/// each tried within what is left of `limit`; else the last address tried (None:
/// there was none) and its error (`TimedOut` when the time ran out).
pub fn connect_within(
    addrs: &[SocketAddr],
    limit: Duration,
) -> Result<SocketAddr, (Option<SocketAddr>, io::Error)> {
    let deadline = Instant::now() + limit;
    let mut last = (None, io::Error::from(io::ErrorKind::ConnectionRefused));
    for &addr in addrs {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            last.1 = io::ErrorKind::TimedOut.into();
            break;
        }
        match TcpStream::connect_timeout(&addr, left) {
            Ok(_) => return Ok(addr),
            Err(error) => last = (Some(addr), error),
        }
    }
    Err(last)
}
