//! TLS trust: certificate verification is always on (ureq's default, Mozilla's roots);
//! `--ca-cert PATH` replaces those roots with the certificates of a private CA.

use std::sync::Arc;

use rustls::pki_types::CertificateDer;
use rustls::{ClientConfig, RootCertStore};
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

/// The same trust for rustls used directly (`check`'s handshake)
/// as ureq builds from `tls_config`: TLS 1.2 and 1.3 with ring, the webpki roots or
/// exactly the `--ca-cert` ones, SNI on, no client certificate.
pub fn rustls_config(ca: Option<&CaCerts>) -> Arc<ClientConfig> {
    let roots = match ca {
        Some(ca) => {
            let mut roots = RootCertStore::empty();
            let certs = ca.certs();
            roots.add_parsable_certificates(certs.iter().map(|c| CertificateDer::from(c.der())));
            roots
        }
        None => RootCertStore {
            roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
        },
    };
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(rustls::ALL_VERSIONS)
        .expect("ring supports every TLS version rustls has")
        .with_root_certificates(roots)
        .with_no_client_auth();
    Arc::new(config)
}
