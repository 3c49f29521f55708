//! `--ca-cert PATH`: the certificates of a private CA, read and checked once, to
//! replace the built-in roots (verification itself stays on: see `http::tls`).

use std::path::Path;
use std::sync::Arc;

use rustls::pki_types::CertificateDer;
use ureq::tls::{parse_pem, Certificate, PemItem};

use crate::domain::error::ConfigError;

/// Checked once: a bad file is exit 78 before any request, not a puzzling TLS failure.
#[derive(Debug, Clone)]
pub struct CaCerts(pub Arc<Vec<Certificate<'static>>>);

impl CaCerts {
    pub fn load(path: &Path) -> Result<CaCerts, ConfigError> {
        let invalid = |why: String| ConfigError(format!("--ca-cert {}: {why}", path.display()));
        let pem = crate::settings::read::read_bounded(path)
            .map_err(|e| invalid(format!("cannot read it: {e}")))?;
        Ok(CaCerts(Arc::new(certificates_in(&pem).map_err(invalid)?)))
    }
}

/// Every certificate of a PEM text, each checked the way rustls will use it as a
/// trust anchor: ureq would silently skip one it cannot parse.
fn certificates_in(pem: &[u8]) -> Result<Vec<Certificate<'static>>, String> {
    let mut certs = Vec::new();
    for item in parse_pem(pem) {
        // Anything else (a private key next to the certificate) is not ours to use.
        if let PemItem::Certificate(cert) = item.map_err(|e| format!("not valid PEM ({e})"))? {
            certs.push(cert);
        }
    }
    if certs.is_empty() {
        return Err("no PEM certificate (-----BEGIN CERTIFICATE-----) in it".into());
    }
    for (n, cert) in certs.iter().enumerate() {
        let mut store = rustls::RootCertStore::empty();
        store
            .add(CertificateDer::from(cert.der()))
            .map_err(|e| format!("certificate {} is not usable as a CA: {e}", n + 1))?;
    }
    Ok(certs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_without_certificates_is_refused() {
        assert!(certificates_in(b"hello").unwrap_err().contains("no PEM"));
        assert!(certificates_in(b"").is_err());
    }

    #[test]
    fn a_certificate_block_with_garbage_is_refused() {
        let pem = b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n";
        assert!(certificates_in(pem).unwrap_err().contains("certificate 1"));
        let broken = b"-----BEGIN CERTIFICATE-----\n!!!\n-----END CERTIFICATE-----\n";
        assert!(certificates_in(broken).is_err());
    }
}
