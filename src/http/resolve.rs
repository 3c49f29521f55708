//! Name resolution once per host: ureq's default resolver spawns a thread for every
//! request when a timeout is set (to bound the lookup), which costs more than the
//! request itself on a keep-alive connection. All lookups of a run go to one host.

use std::sync::Mutex;

use ureq::http::Uri;
use ureq::unversioned::resolver::{DefaultResolver, ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::NextTimeout;

#[derive(Debug, Default)]
pub struct CachingResolver {
    inner: DefaultResolver,
    /// The last `host:port` resolved and its addresses; failures are not kept.
    cache: Mutex<Option<(String, ResolvedSocketAddrs)>>,
}

impl Resolver for CachingResolver {
    fn resolve(
        &self,
        uri: &Uri,
        config: &ureq::config::Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let key = format!(
            "{}://{}",
            uri.scheme_str().unwrap_or(""),
            uri.authority().map(|a| a.as_str()).unwrap_or("")
        );
        if let Some((cached, addrs)) = &*self.cache.lock().unwrap_or_else(|e| e.into_inner()) {
            if *cached == key {
                return Ok(addrs.clone());
            }
        }
        // A name that does not resolve will not resolve on a retry either: told
        // apart from connection failures, which are retried.
        let addrs = self
            .inner
            .resolve(uri, config, timeout)
            .map_err(|e| match e {
                ureq::Error::Io(_) => ureq::Error::HostNotFound,
                other => other,
            })?;
        *self.cache.lock().unwrap_or_else(|e| e.into_inner()) = Some((key, addrs.clone()));
        Ok(addrs)
    }
}
