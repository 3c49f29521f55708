//! TLS: certificate verification is always on (ureq's default, Mozilla's roots);
//! `--ca-cert PATH` replaces those roots with the certificates of a private CA. The
//! TLS connector is ours only because ureq's hides the server's certificate, which
//! `check` shows; it does what ureq's `RustlsConnector` does.

use std::fmt;
use std::io::{Read, Write};
use std::sync::{Arc, OnceLock};

use rustls::pki_types::{CertificateDer, ServerName};
use rustls::{ClientConfig, ClientConnection, RootCertStore, StreamOwned};
use ureq::tls::{RootCerts, TlsConfig};
use ureq::unversioned::transport::{
    Buffers, ConnectionDetails, Connector, Either, LazyBuffers, NextTimeout, Transport,
    TransportAdapter,
};
use ureq::Error;

/// rustls's side of the agent's `TlsConfig`, as ureq builds it: TLS 1.2 and 1.3 with
/// ring, the webpki roots or exactly the `--ca-cert` ones, SNI on, no client certificate.
fn rustls_config(tls: &TlsConfig) -> Arc<ClientConfig> {
    let roots = match tls.root_certs() {
        RootCerts::Specific(certs) => {
            let mut roots = RootCertStore::empty();
            roots.add_parsable_certificates(certs.iter().map(|c| CertificateDer::from(c.der())));
            roots
        }
        _ => webpki_roots::TLS_SERVER_ROOTS.iter().cloned().collect(),
    };
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(rustls::ALL_VERSIONS)
        .expect("ring supports every TLS version rustls has")
        .with_root_certificates(roots)
        .with_no_client_auth()
        .into()
}

/// Wraps the chained transport in TLS for https, the handshake done before it is
/// handed on (as ureq's connector does).
#[derive(Debug, Default)]
pub struct TlsConnector {
    config: OnceLock<Arc<ClientConfig>>,
}

impl<In: Transport> Connector<In> for TlsConnector {
    type Out = Either<In, Tls>;

    fn connect(
        &self,
        details: &ConnectionDetails,
        chained: Option<In>,
    ) -> Result<Option<Self::Out>, Error> {
        let Some(transport) = chained else {
            return Ok(None);
        };
        if !details.needs_tls() || transport.is_tls() {
            return Ok(Some(Either::A(transport)));
        }
        let config = self
            .config
            .get_or_init(|| rustls_config(details.config.tls_config()));
        let host = details.uri.host().unwrap_or_default();
        let name = ServerName::try_from(host.trim_matches(['[', ']']).to_string())
            .map_err(|_| Error::Tls("Rustls invalid dns name error"))?;
        let mut conn = ClientConnection::new(Arc::clone(config), name)?;
        let mut sock = TransportAdapter::new(transport.boxed(), details.current_time.clone());
        sock.set_timeout(details.timeout);
        conn.complete_io(&mut sock)?;
        let config = details.config;
        Ok(Some(Either::B(Tls {
            buffers: LazyBuffers::new(config.input_buffer_size(), config.output_buffer_size()),
            stream: StreamOwned::new(conn, sock),
        })))
    }
}

pub struct Tls {
    buffers: LazyBuffers,
    stream: StreamOwned<ClientConnection, TransportAdapter>,
}

impl Tls {
    /// The server's own certificate (DER), verified in the handshake.
    pub fn peer_certificate(&self) -> Option<&CertificateDer<'static>> {
        self.stream.conn.peer_certificates()?.first()
    }
}

impl fmt::Debug for Tls {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tls").finish_non_exhaustive()
    }
}

impl Transport for Tls {
    fn buffers(&mut self) -> &mut dyn Buffers {
        &mut self.buffers
    }

    fn transmit_output(&mut self, amount: usize, timeout: NextTimeout) -> Result<(), Error> {
        self.stream.sock.set_timeout(timeout);
        self.stream.write_all(&self.buffers.output()[..amount])?;
        Ok(())
    }

    fn await_input(&mut self, timeout: NextTimeout) -> Result<bool, Error> {
        self.stream.sock.set_timeout(timeout);
        let amount = self.stream.read(self.buffers.input_append_buf())?;
        self.buffers.input_appended(amount);
        Ok(amount > 0)
    }

    fn is_open(&mut self) -> bool {
        self.stream.sock.get_mut().is_open()
    }

    fn is_tls(&self) -> bool {
        true
    }
}
