//! ML-DSA-65 certificates and TLS 1.3 `mldsa65` signatures between rustls with this provider
//! and rustls with aws-lc-rs (whose provider signs and verifies ML-DSA; ring's does not), both
//! directions and with itself, on the ML-DSA-65 test PKI of `crates/tls/tests/data` (the
//! LAMPS example root and a "localhost" leaf issued under it).

mod common;

use std::sync::Arc;

use common::{Side, exchange, handshake, provider};
use pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use rustls::client::WebPkiServerVerifier;
use rustls::version::TLS13;
use rustls::{ClientConfig, RootCertStore, ServerConfig, SignatureScheme};

const ROOT: &[u8] = include_bytes!("../../tls/tests/data/ca-mldsa65.der");
const LEAF: &[u8] = include_bytes!("../../tls/tests/data/server-mldsa65.der");
const KEY: &[u8] = include_bytes!("../../tls/tests/data/server-mldsa65.key.der");

/// A TLS 1.3 client of `side` trusting the ML-DSA-65 root, offering only the schemes
/// `offer` keeps of its provider's (so a server must sign with one of them).
fn client(side: Side, offer: fn(SignatureScheme) -> bool) -> Arc<ClientConfig> {
    let mut provider = provider(side);
    provider.signature_verification_algorithms.mapping = Vec::leak(
        provider
            .signature_verification_algorithms
            .mapping
            .iter()
            .filter(|(s, _)| offer(*s))
            .copied()
            .collect(),
    );
    let provider = Arc::new(provider);
    let mut roots = RootCertStore::empty();
    roots.add(CertificateDer::from(ROOT)).unwrap();
    let verifier = WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider.clone())
        .build()
        .unwrap();
    let config = ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&TLS13])
        .unwrap()
        .with_webpki_verifier(verifier)
        .with_no_client_auth();
    Arc::new(config)
}

/// A TLS 1.3 server of `side` with the ML-DSA-65 leaf and its PKCS#8 (seed form) key.
fn server(side: Side) -> Result<Arc<ServerConfig>, rustls::Error> {
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(KEY.to_vec()));
    let config = ServerConfig::builder_with_provider(Arc::new(provider(side)))
        .with_protocol_versions(&[&TLS13])?
        .with_no_client_auth()
        .with_single_cert(vec![CertificateDer::from(LEAF)], key)?;
    Ok(Arc::new(config))
}

fn only_mldsa(s: SignatureScheme) -> bool {
    s == SignatureScheme::ML_DSA_65
}

/// Halite signs, aws-lc-rs verifies the chain and the `CertificateVerify`, and Halite with
/// itself; the client offers only `mldsa65`, so nothing else could pass.
#[test]
fn halite_server_signs_mldsa65() {
    for client_side in [Side::AwsLc, Side::Halite] {
        let (mut c, mut s) =
            handshake(&client(client_side, only_mldsa), &server(Side::Halite).unwrap())
                .unwrap_or_else(|e| panic!("{client_side:?} client: {e}"));
        exchange(&mut c, &mut s).unwrap();
    }
}

/// aws-lc-rs signs, Halite verifies the ML-DSA-65 chain (webpki with this provider's
/// algorithms) and the `CertificateVerify`. aws-lc-rs must read the seed-form key first.
#[test]
fn halite_client_verifies_mldsa65() {
    let server = server(Side::AwsLc).expect("aws-lc-rs loads the seed-form ML-DSA-65 key");
    let (mut c, mut s) = handshake(&client(Side::Halite, only_mldsa), &server).unwrap();
    exchange(&mut c, &mut s).unwrap();
}

/// A client that offers no ML-DSA scheme gets no handshake from an ML-DSA-only server.
#[test]
fn no_mldsa_offered_no_handshake() {
    let config = client(Side::Halite, |s| !only_mldsa(s));
    assert!(handshake(&config, &server(Side::Halite).unwrap()).is_err());
}
