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
    /// The last scheme and authority resolved, and their addresses; failures are
    /// not kept.
    cache: Mutex<Option<(String, String, ResolvedSocketAddrs)>>,
}

impl Resolver for CachingResolver {
    fn resolve(
        &self,
        uri: &Uri,
        config: &ureq::config::Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        // Compared as they are: every request asks, and building a key to compare
        // cost an allocation each time.
        let scheme = uri.scheme_str().unwrap_or("");
        let authority = uri.authority().map(|a| a.as_str()).unwrap_or("");
        if let Some((cached_scheme, cached_authority, addrs)) =
            &*self.cache.lock().unwrap_or_else(|e| e.into_inner())
        {
            if cached_scheme == scheme && cached_authority == authority {
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
        *self.cache.lock().unwrap_or_else(|e| e.into_inner()) =
            Some((scheme.to_string(), authority.to_string(), addrs.clone()));
        Ok(addrs)
    }
}
