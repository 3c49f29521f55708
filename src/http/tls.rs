//! TLS trust: certificate verification is always on (ureq's default, Mozilla's roots);
//! `--ca-cert PATH` replaces those roots with the certificates of a private CA.

use ureq::tls::{RootCerts, TlsConfig};

use crate::settings::ca::CaCerts;

/// The agent's TLS settings: the default roots, or exactly the `--ca-cert` ones.
/// Verification is never turned off.
pub fn tls_config(ca: Option<&CaCerts>) -> TlsConfig {
    let builder = TlsConfig::builder();
    match ca {
        Some(ca) => builder.root_certs(RootCerts::Specific(ca.certs())).build(),
        None => builder.build(),
    }
}
