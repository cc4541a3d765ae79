//! RSASSA-PSS keys (SPKI and PKCS#8 algorithm id-RSASSA-PSS, RFC 4055), with and without
//! RSASSA-PSS-params: loaded, signing and verified with the `rsa_pss_pss_*` schemes (RFC 8446
//! §4.2.3) in both roles, and certificate chains whose keys and signatures are RSASSA-PSS
//! checked through our own verifiers. `gen-pss.sh` made the fixtures.

use core_hash::OsRandom;
use pki_types::{CertificateDer, TrustAnchor, UnixTime};
use tls::msgs::SignatureScheme;
use tls::provider::Signer;
use tls::{
    Buffers, CertifiedKey, ClientAuth, ClientConfig, Connection, Error, Negotiated, PeerMisbehaved,
    ServerConfig, SigningKey,
};

macro_rules! data {
    ($f:literal) => {
        include_bytes!(concat!("data/", $f)).as_slice()
    };
}

const PSS_PSS: [SignatureScheme; 3] = [
    SignatureScheme::RSA_PSS_PSS_SHA256,
    SignatureScheme::RSA_PSS_PSS_SHA384,
    SignatureScheme::RSA_PSS_PSS_SHA512,
];

fn anchor(der: &'static [u8]) -> TrustAnchor<'static> {
    let der: &'static CertificateDer<'static> = Box::leak(Box::new(CertificateDer::from(der)));
    webpki::anchor_from_trusted_cert(der).unwrap()
}

fn pump(from: &mut Connection<'_, '_>, to: &mut Connection<'_, '_>) -> Result<(), Error> {
    let n = from.pending_send().len();
    to.receive_space()[..n].copy_from_slice(from.pending_send());
    from.sent(n);
    to.received(n)
}

/// A handshake with the server's `(certificate, key, root)`, and the client's if given;
/// returns the client's and the server's view.
fn handshake(
    server: (&[u8], &[u8], &'static [u8]),
    client: Option<(&[u8], &[u8], &'static [u8])>,
) -> Result<(Negotiated, Negotiated), Error> {
    let server_key = SigningKey::from_pkcs8_der(server.1).unwrap();
    let server_chain = [server.0];
    let certs = [CertifiedKey { chain: &server_chain, key: &server_key }];
    let client_key = client.map(|c| SigningKey::from_pkcs8_der(c.1).unwrap());
    let client_chain = client.map(|c| [c.0]);
    let client_cert = client_key
        .as_ref()
        .zip(client_chain.as_ref())
        .map(|(key, chain)| CertifiedKey { chain, key });
    let roots = [anchor(server.2)];
    let client_roots = client.map(|c| [anchor(c.2)]);
    let (mut c_rx, mut c_tx, mut c_hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
    let (mut s_rx, mut s_tx, mut s_hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
    let cb = Buffers { received: &mut c_rx, send: &mut c_tx, handshake: &mut c_hs };
    let sb = Buffers { received: &mut s_rx, send: &mut s_tx, handshake: &mut s_hs };
    let config = ClientConfig { client_cert, ..ClientConfig::new(&roots, &tls::SystemClock) };
    let mut c = Connection::client(config, "localhost", cb, &mut OsRandom)?;
    let client_auth = client_roots.as_ref().map(|roots| ClientAuth::new(roots, &tls::SystemClock));
    let config = ServerConfig { client_auth, ..ServerConfig::new(&certs) };
    let mut s = Connection::server(config, sb, &mut OsRandom)?;
    while c.is_handshaking() || s.is_handshaking() {
        pump(&mut c, &mut s)?;
        pump(&mut s, &mut c)?;
    }
    Ok((c.negotiated().unwrap(), s.negotiated().unwrap()))
}

#[test]
fn rsa_pss_keys_load_and_sign_with_the_rsa_pss_pss_schemes() {
    let key = SigningKey::from_pkcs8_der(data!("server-pss.key.der")).unwrap();
    assert_eq!(key.schemes(), PSS_PSS);
    // RSASSA-PSS-params restricting the key to SHA-384 leave one scheme.
    let key = SigningKey::from_pkcs8_der(data!("server-pss-sha384.key.der")).unwrap();
    assert_eq!(key.schemes(), [SignatureScheme::RSA_PSS_PSS_SHA384]);
    let mut out = [0u8; tls::sign::MAX_SIGNATURE_LEN];
    let sha256 = SignatureScheme::RSA_PSS_PSS_SHA256;
    assert!(key.sign(sha256, b"msg", &mut OsRandom, &mut out).is_err());
    // The PEM form loads too.
    let pem = std::str::from_utf8(data!("client-pss.key")).unwrap();
    let key = SigningKey::from_pkcs8_pem(pem, &mut [0u8; 2048]).unwrap();
    assert_eq!(key.schemes(), PSS_PSS);
    // An rsaEncryption key keeps the rsae schemes.
    let key = SigningKey::from_pkcs8_der(data!("server-rsa.key.der")).unwrap();
    assert_eq!(key.schemes()[0], SignatureScheme::RSA_PSS_RSAE_SHA256);
}

#[test]
fn a_server_with_an_rsa_pss_certificate_handshakes_with_rsa_pss_pss() {
    let (c, s) = handshake(
        (data!("server-pss.der"), data!("server-pss.key.der"), data!("ca-pss.der")),
        None,
    )
    .unwrap();
    assert_eq!(c.scheme, SignatureScheme::RSA_PSS_PSS_SHA256);
    assert_eq!(s.scheme, SignatureScheme::RSA_PSS_PSS_SHA256);
    // A key restricted to SHA-384 (and a chain signed with RSASSA-PSS SHA-384).
    let id =
        (data!("server-pss-sha384.der"), data!("server-pss-sha384.key.der"), data!("ca-pss.der"));
    let (c, _) = handshake(id, None).unwrap();
    assert_eq!(c.scheme, SignatureScheme::RSA_PSS_PSS_SHA384);
}

#[test]
fn a_client_with_an_rsa_pss_certificate_authenticates() {
    let server = (data!("server-p256.der"), data!("server-p256.key.der"), data!("ca-p256.der"));
    let client = (data!("client-pss.der"), data!("client-pss.key.der"), data!("ca-pss.der"));
    let (c, s) = handshake(server, Some(client)).unwrap();
    assert_eq!(c.client_auth, Some(SignatureScheme::RSA_PSS_PSS_SHA256));
    assert_eq!(s.client_auth, Some(SignatureScheme::RSA_PSS_PSS_SHA256));
}

#[test]
fn a_key_restricted_to_sha384_does_not_verify_sha256_signatures() {
    // The same private key, signing with SHA-256 as an unrestricted key would.
    let Ok(SigningKey::RsaPss { key, .. }) =
        SigningKey::from_pkcs8_der(data!("server-pss-sha384.key.der"))
    else {
        panic!("not an RSA-PSS key");
    };
    let unrestricted = SigningKey::RsaPss { key, hash: None };
    let mut sig = [0u8; tls::sign::MAX_SIGNATURE_LEN];
    let scheme = SignatureScheme::RSA_PSS_PSS_SHA256;
    let n = unrestricted.sign(scheme, b"content", &mut OsRandom, &mut sig).unwrap();
    let roots = [anchor(data!("ca-pss.der"))];
    let verify = |scheme| {
        tls::verify::verify_server(
            data!("server-pss-sha384.der"),
            &[],
            &roots,
            "localhost",
            UnixTime::now(),
            scheme,
            b"content",
            &sig[..n],
        )
    };
    assert_eq!(verify(scheme), Err(Error::PeerMisbehaved(PeerMisbehaved::BadSignature)));
    // An rsae scheme is refused for an RSASSA-PSS key whatever the hash (RFC 8446 §4.2.3).
    let rsae = SignatureScheme::RSA_PSS_RSAE_SHA256;
    assert_eq!(verify(rsae), Err(Error::PeerMisbehaved(PeerMisbehaved::BadSignature)));
    // The right hash verifies.
    let key = SigningKey::from_pkcs8_der(data!("server-pss-sha384.key.der")).unwrap();
    let scheme = SignatureScheme::RSA_PSS_PSS_SHA384;
    let n = key.sign(scheme, b"content", &mut OsRandom, &mut sig).unwrap();
    let ok = tls::verify::verify_server(
        data!("server-pss-sha384.der"),
        &[],
        &roots,
        "localhost",
        UnixTime::now(),
        scheme,
        b"content",
        &sig[..n],
    );
    assert_eq!(ok, Ok(()));
}
