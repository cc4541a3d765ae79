//! In-memory rustls connections between providers: identities from the test PKIs, configs
//! narrowed to one suite and one group, and a pump that moves records until both sides rest.

#![allow(dead_code, unreachable_pub)]

use std::io::{Read, Write};
use std::sync::Arc;

use pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName};
use rustls::client::WebPkiServerVerifier;
use rustls::crypto::CryptoProvider;
use rustls::server::WebPkiClientVerifier;
use rustls::{
    CipherSuite, ClientConfig, ClientConnection, ConnectionCommon, NamedGroup, RootCertStore,
    ServerConfig, ServerConnection, SupportedProtocolVersion,
};

/// Whose cryptography a side uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// rustls-halite, with every suite and group it has (CCM and the NIST hybrids included).
    Halite,
    /// rustls's own ring provider.
    Ring,
    /// rustls's aws-lc-rs provider (its default suites and groups).
    AwsLc,
}

/// The provider of `side` with every suite it implements.
pub fn provider(side: Side) -> CryptoProvider {
    match side {
        Side::Halite => CryptoProvider {
            cipher_suites: rustls_halite::ALL_CIPHER_SUITES.to_vec(),
            kx_groups: rustls_halite::ALL_KX_GROUPS.to_vec(),
            ..rustls_halite::default_provider()
        },
        Side::Ring => rustls::crypto::ring::default_provider(),
        Side::AwsLc => rustls::crypto::aws_lc_rs::default_provider(),
    }
}

/// `side`'s provider reduced to one suite and one group, or `None` if it lacks either.
pub fn narrowed(side: Side, suite: CipherSuite, group: NamedGroup) -> Option<CryptoProvider> {
    let mut p = provider(side);
    p.cipher_suites.retain(|s| s.suite() == suite);
    p.kx_groups.retain(|g| g.name() == group);
    (!p.cipher_suites.is_empty() && !p.kx_groups.is_empty()).then_some(p)
}

/// A certificate type of the test PKIs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cert {
    /// ECDSA P-256 (SHA-256 chain).
    P256,
    /// ECDSA P-384 (SHA-384 chain).
    P384,
    /// ECDSA P-521 (SHA-512 chain; server only).
    P521,
    /// Ed25519.
    Ed25519,
    /// RSA-2048 (PKCS#1 v1.5 SHA-256 chain).
    Rsa,
    /// RSASSA-PSS-2048: an id-RSASSA-PSS key without parameters (RSASSA-PSS SHA-256 chain),
    /// which signs only with `rsa_pss_pss_*`: no rustls verifier offers those, OpenSSL does.
    RsaPss,
}

macro_rules! tls_data {
    ($f:literal) => {
        include_bytes!(concat!("../../../tls/tests/data/", $f)).as_slice()
    };
}
macro_rules! own_data {
    ($f:literal) => {
        include_bytes!(concat!("../data/", $f)).as_slice()
    };
}

/// A certificate chain (leaf only), its key and the root that issued it.
pub struct Identity {
    pub chain: Vec<CertificateDer<'static>>,
    pub key: PrivateKeyDer<'static>,
    pub root: CertificateDer<'static>,
}

fn ident(cert: &'static [u8], key: &'static [u8], root: &'static [u8]) -> Identity {
    Identity {
        chain: vec![CertificateDer::from(cert)],
        key: PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.to_vec())),
        root: CertificateDer::from(root),
    }
}

/// The "localhost" server identity of `cert`.
pub fn server_identity(cert: Cert) -> Identity {
    match cert {
        Cert::P256 => ident(
            tls_data!("server-p256.der"),
            tls_data!("server-p256.key.der"),
            tls_data!("ca-p256.der"),
        ),
        Cert::P384 => ident(
            tls_data!("server-p384.der"),
            tls_data!("server-p384.key.der"),
            tls_data!("ca-p384.der"),
        ),
        Cert::P521 => ident(
            own_data!("server-p521.der"),
            own_data!("server-p521.key.der"),
            own_data!("ca-p521.der"),
        ),
        Cert::Ed25519 => {
            ident(tls_data!("server.der"), tls_data!("server.key.der"), tls_data!("ca.der"))
        }
        Cert::Rsa => ident(
            tls_data!("server-rsa.der"),
            tls_data!("server-rsa.key.der"),
            tls_data!("ca-rsa.der"),
        ),
        Cert::RsaPss => ident(
            tls_data!("server-pss.der"),
            tls_data!("server-pss.key.der"),
            tls_data!("ca-pss.der"),
        ),
    }
}

/// The client identity of `cert` (no P-521 client exists; P-256 stands in).
pub fn client_identity(cert: Cert) -> Identity {
    match cert {
        Cert::P256 | Cert::P521 => ident(
            tls_data!("client-p256.der"),
            tls_data!("client-p256.key.der"),
            tls_data!("ca-p256.der"),
        ),
        Cert::P384 => ident(
            tls_data!("client-p384.der"),
            tls_data!("client-p384.key.der"),
            tls_data!("ca-p384.der"),
        ),
        Cert::Ed25519 => ident(
            tls_data!("client-ed25519.der"),
            tls_data!("client-ed25519.key.der"),
            tls_data!("ca.der"),
        ),
        Cert::Rsa => ident(
            tls_data!("client-rsa.der"),
            tls_data!("client-rsa.key.der"),
            tls_data!("ca-rsa.der"),
        ),
        Cert::RsaPss => ident(
            tls_data!("client-pss.der"),
            tls_data!("client-pss.key.der"),
            tls_data!("ca-pss.der"),
        ),
    }
}

fn roots(root: &CertificateDer<'static>) -> Result<RootCertStore, String> {
    let mut store = RootCertStore::empty();
    store.add(root.clone()).map_err(|e| format!("root: {e}"))?;
    Ok(store)
}

/// A client config: `provider`, one version, trusting the root of `server`, and presenting
/// `client_auth` if given.
pub fn client_config(
    provider: CryptoProvider,
    version: &'static SupportedProtocolVersion,
    server: Cert,
    client_auth: Option<Cert>,
) -> Result<ClientConfig, String> {
    let provider = Arc::new(provider);
    let verifier = WebPkiServerVerifier::builder_with_provider(
        Arc::new(roots(&server_identity(server).root)?),
        provider.clone(),
    )
    .build()
    .map_err(|e| format!("server verifier: {e}"))?;
    let builder = ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[version])
        .map_err(|e| format!("client versions: {e}"))?
        .with_webpki_verifier(verifier);
    match client_auth {
        None => Ok(builder.with_no_client_auth()),
        Some(cert) => {
            let id = client_identity(cert);
            builder.with_client_auth_cert(id.chain, id.key).map_err(|e| format!("client cert: {e}"))
        }
    }
}

/// A server config: `provider`, one version, the identity of `cert`, and client
/// authentication against the root of `client_auth` if given.
pub fn server_config(
    provider: CryptoProvider,
    version: &'static SupportedProtocolVersion,
    cert: Cert,
    client_auth: Option<Cert>,
) -> Result<ServerConfig, String> {
    let provider = Arc::new(provider);
    let builder = ServerConfig::builder_with_provider(provider.clone())
        .with_protocol_versions(&[version])
        .map_err(|e| format!("server versions: {e}"))?;
    let builder = match client_auth {
        None => builder.with_no_client_auth(),
        Some(c) => {
            let verifier = WebPkiClientVerifier::builder_with_provider(
                Arc::new(roots(&client_identity(c).root)?),
                provider,
            )
            .build()
            .map_err(|e| format!("client verifier: {e}"))?;
            builder.with_client_cert_verifier(verifier)
        }
    };
    let id = server_identity(cert);
    builder.with_single_cert(id.chain, id.key).map_err(|e| format!("server cert: {e}"))
}

/// Moves every pending record from `from` to `to` and lets `to` process them.
pub fn transfer<A, B>(
    from: &mut ConnectionCommon<A>,
    to: &mut ConnectionCommon<B>,
) -> Result<usize, String> {
    let mut buf = Vec::new();
    while from.wants_write() {
        from.write_tls(&mut buf).map_err(|e| format!("write_tls: {e}"))?;
    }
    let mut rd = buf.as_slice();
    while !rd.is_empty() {
        to.read_tls(&mut rd).map_err(|e| format!("read_tls: {e}"))?;
        to.process_new_packets().map_err(|e| format!("process: {e}"))?;
    }
    Ok(buf.len())
}

/// A completed handshake between fresh connections of the two configs.
pub fn handshake(
    client: &Arc<ClientConfig>,
    server: &Arc<ServerConfig>,
) -> Result<(ClientConnection, ServerConnection), String> {
    let name = ServerName::try_from("localhost").map_err(|e| e.to_string())?;
    let mut c = ClientConnection::new(client.clone(), name).map_err(|e| format!("client: {e}"))?;
    let mut s = ServerConnection::new(server.clone()).map_err(|e| format!("server: {e}"))?;
    for _ in 0..16 {
        if !c.is_handshaking() && !s.is_handshaking() {
            // Deliver anything still in flight (TLS 1.3 tickets) so each side is at rest.
            transfer(&mut s, &mut c)?;
            transfer(&mut c, &mut s)?;
            return Ok((c, s));
        }
        transfer(&mut c, &mut s)?;
        transfer(&mut s, &mut c)?;
    }
    Err("handshake did not finish".into())
}

/// Moves `from`'s pending records to `to`, draining `to`'s plaintext as it arrives (its
/// buffer is bounded), and returns that plaintext.
fn deliver<A, B>(
    from: &mut ConnectionCommon<A>,
    to: &mut ConnectionCommon<B>,
) -> Result<Vec<u8>, String> {
    let mut wire = Vec::new();
    while from.wants_write() {
        from.write_tls(&mut wire).map_err(|e| format!("write_tls: {e}"))?;
    }
    let mut rd = wire.as_slice();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    while !rd.is_empty() {
        to.read_tls(&mut rd).map_err(|e| format!("read_tls: {e}"))?;
        to.process_new_packets().map_err(|e| format!("process: {e}"))?;
        loop {
            match to.reader().read(&mut buf) {
                Ok(0) => break,
                Ok(n) => got.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(e) => return Err(format!("read: {e}")),
            }
        }
    }
    Ok(got)
}

/// Sends a short message and a multi-record one each way and checks they arrive intact.
pub fn exchange(c: &mut ClientConnection, s: &mut ServerConnection) -> Result<(), String> {
    let long: Vec<u8> = (0..40_000u32).map(|i| (i * 7 + 3) as u8).collect();
    for msg in [&b"hello from the client"[..], &long] {
        c.writer().write_all(msg).map_err(|e| e.to_string())?;
        if deliver(c, s)? != msg {
            return Err(format!("client to server: {} bytes garbled", msg.len()));
        }
        s.writer().write_all(msg).map_err(|e| e.to_string())?;
        if deliver(s, c)? != msg {
            return Err(format!("server to client: {} bytes garbled", msg.len()));
        }
    }
    Ok(())
}
