//! The TLS server configuration of `openSecurePort(port, key)` (§19.8),
//! with rustls and its ring provider: one PEM blob holding the
//! certificate chain (leaf first) and the unencrypted private key (PKCS#8,
//! PKCS#1 or SEC1). No client certificates, no ALPN, no SNI; TLS 1.2 and
//! 1.3 with rustls' safe defaults.

use rustls::crypto::ring::default_provider;
use rustls::ServerConfig;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use std::sync::Arc;

/// The server configuration for `pem`, or why it cannot be one: no
/// certificate, no (or an encrypted) private key, a key that does not
/// match the certificate, a certificate rustls cannot use. The message
/// is what the runtime failure says (§14.2).
pub fn server_config(pem: &[u8]) -> Result<Arc<ServerConfig>, String> {
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(pem)
        .collect::<Result<_, _>>()
        .map_err(|e| format!("the certificate is not valid PEM: {e}"))?;
    if certs.is_empty() {
        return Err("the key blob holds no PEM certificate".into());
    }
    let key = PrivateKeyDer::from_pem_slice(pem).map_err(|e| match e {
        rustls_pki_types::pem::Error::NoItemsFound => {
            "the key blob holds no unencrypted PEM private key".to_string()
        }
        e => format!("the private key is not valid PEM: {e}"),
    })?;
    let config = ServerConfig::builder_with_provider(Arc::new(default_provider()))
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS is not available: {e}"))?
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .map_err(|e| format!("the certificate and key cannot be used: {e}"))?;
    Ok(Arc::new(config))
}
