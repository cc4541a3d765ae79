//! Raw public keys (RFC 7250, TLS 1.3) between Halite peers in memory: the server's key
//! pinned by the client, mutual raw keys, a key that is not pinned (bad_certificate), no
//! certificate type in common (unsupported_certificate), and the fall back to X.509 where a
//! side allows it. The interop runs are in `rustls.rs` and `gnutls.rs`.

#![cfg(feature = "raw-public-keys")]

mod pair;

use core_hash::{OsRandom, Sha256};
use pair::{anchors, buffers, connect, handshake, leak, pump};
use tls::msgs::{AlertDescription, SignatureScheme};
use tls::rpk::{PinnedKeys, RawKey};
use tls::{
    ApiMisuse, CertificateError, ClientAuth, ClientConfig, Connection, Error, PeerIdentity,
    PeerIncompatible, ServerConfig, SigningKey,
};

macro_rules! data {
    ($name:literal) => {
        include_bytes!(concat!("data/", $name))
    };
}

/// A raw key: the SPKI and its PKCS#8 key, both DER.
fn raw_key(spki: &'static [u8], pkcs8: &'static [u8]) -> RawKey<'static> {
    RawKey { spki, key: leak(SigningKey::from_pkcs8_der(pkcs8).unwrap()) }
}

fn server_ed25519() -> RawKey<'static> {
    raw_key(data!("server.spki.der"), data!("server.key.der"))
}

fn client_ed25519() -> RawKey<'static> {
    raw_key(data!("client-ed25519.spki.der"), data!("client-ed25519.key.der"))
}

/// A client that pins `pins` and a server that has `raw` and no certificate.
fn rpk_configs(
    pins: PinnedKeys<'static>,
    raw: RawKey<'static>,
) -> (ClientConfig<'static>, ServerConfig<'static>) {
    let cc = ClientConfig { server_keys: Some(pins), ..ClientConfig::new(&[], &tls::SystemClock) };
    let sc = ServerConfig { raw_key: Some(raw), ..ServerConfig::new(&[]) };
    (cc, sc)
}

/// The end entity the peer authenticated with, as `peer_identity` keeps it.
fn peer_end_entity(conn: &Connection<'_, '_>) -> Vec<u8> {
    let Some(PeerIdentity::Certificate { end_entity_sha256, chain: Some(chain) }) =
        conn.peer_identity()
    else {
        panic!("{:?}", conn.peer_identity())
    };
    let ee = chain.end_entity().unwrap();
    assert_eq!(Sha256::digest(ee), end_entity_sha256);
    assert_eq!(chain.iter().count(), 1);
    ee.to_vec()
}

/// Runs the handshake; the side that failed, its error, and the alert the other side got.
fn refused<'a, 'b>(c: &mut Connection<'a, 'b>, s: &mut Connection<'a, 'b>) -> (bool, Error, Error) {
    let (client_failed, err) = handshake(c, s).unwrap_err();
    let (failed, other) = if client_failed { (c, s) } else { (s, c) };
    let got = pump(failed, other).and_then(|_| other.read(&mut [0; 16]).map(|_| ()));
    (client_failed, err, got.unwrap_err())
}

#[test]
fn server_raw_key_of_each_type_is_pinned_and_checked() {
    let keys = [
        (server_ed25519(), SignatureScheme::ED25519),
        (
            raw_key(data!("server-p256.spki.der"), data!("server-p256.key.der")),
            SignatureScheme::ECDSA_SECP256R1_SHA256,
        ),
        (
            raw_key(data!("server-rsa.spki.der"), data!("server-rsa.key.der")),
            SignatureScheme::RSA_PSS_RSAE_SHA256,
        ),
        (
            raw_key(data!("server-pss.spki.der"), data!("server-pss.key.der")),
            SignatureScheme::RSA_PSS_PSS_SHA256,
        ),
    ];
    for (raw, scheme) in keys {
        let (cc, sc) = rpk_configs(PinnedKeys::only(leak([raw.spki])), raw);
        let (mut c, mut s) = connect(cc, sc);
        handshake(&mut c, &mut s).unwrap();
        assert_eq!(c.negotiated().unwrap().scheme, scheme);
        assert_eq!(peer_end_entity(&c), raw.spki);
        c.write(b"pinned").unwrap();
        pump(&mut c, &mut s).unwrap();
        let mut buf = [0u8; 8];
        let n = s.read(&mut buf).unwrap();
        assert_eq!(&buf[..n], b"pinned");
    }
}

#[test]
fn mutual_raw_keys() {
    let (server, client) = (server_ed25519(), client_ed25519());
    let (cc, sc) = rpk_configs(PinnedKeys::only(leak([server.spki])), server);
    let cc = ClientConfig { client_raw_key: Some(client), ..cc };
    let auth = ClientAuth {
        raw_keys: Some(PinnedKeys::only(leak([client.spki]))),
        ..ClientAuth::new(&[], &tls::SystemClock)
    };
    let sc = ServerConfig { client_auth: Some(auth), ..sc };
    let (mut c, mut s) = connect(cc, sc);
    handshake(&mut c, &mut s).unwrap();
    assert_eq!(s.negotiated().unwrap().client_auth, Some(SignatureScheme::ED25519));
    assert_eq!(peer_end_entity(&s), client.spki);
    assert_eq!(peer_end_entity(&c), server.spki);
}

#[test]
fn a_key_that_is_not_pinned_is_bad_certificate() {
    // The client pins another key than the server's.
    let other: &[u8] = data!("client-ed25519.spki.der");
    let (cc, sc) = rpk_configs(PinnedKeys::only(leak([other])), server_ed25519());
    let (mut c, mut s) = connect(cc, sc);
    let (client_failed, err, alert) = refused(&mut c, &mut s);
    assert!(client_failed);
    assert_eq!(err, Error::InvalidCertificate(CertificateError::UnknownRawKey));
    assert_eq!(alert, Error::AlertReceived(AlertDescription::BAD_CERTIFICATE));

    // The server pins another client key than the client's.
    let (server, client) = (server_ed25519(), client_ed25519());
    let (cc, sc) = rpk_configs(PinnedKeys::only(leak([server.spki])), server);
    let cc = ClientConfig { client_raw_key: Some(client), ..cc };
    let auth = ClientAuth {
        raw_keys: Some(PinnedKeys::only(leak([server.spki]))),
        ..ClientAuth::new(&[], &tls::SystemClock)
    };
    let (mut c, mut s) = connect(cc, ServerConfig { client_auth: Some(auth), ..sc });
    let (client_failed, err, alert) = refused(&mut c, &mut s);
    assert!(!client_failed);
    assert_eq!(err, Error::InvalidCertificate(CertificateError::UnknownRawKey));
    assert_eq!(alert, Error::AlertReceived(AlertDescription::BAD_CERTIFICATE));
}

#[test]
fn x509_is_the_fallback_only_where_allowed() {
    let chain = pair::certified(data!("server.der"), data!("server.key.der"));
    let roots = anchors(&[data!("ca.der")]);
    let server = server_ed25519();
    let x509_server = ServerConfig::new(leak([chain]));
    // A client that also takes X.509 gets the chain from a server without a raw key.
    let cc = ClientConfig {
        server_keys: Some(PinnedKeys::or_x509(leak([server.spki]))),
        ..ClientConfig::new(roots, &tls::SystemClock)
    };
    let (mut c, mut s) = connect(cc, x509_server);
    handshake(&mut c, &mut s).unwrap();
    assert_eq!(peer_end_entity(&c), data!("server.der"));
    // ... and the raw key from a server that has both.
    let both = ServerConfig { raw_key: Some(server), ..ServerConfig::new(leak([chain])) };
    let (mut c, mut s) = connect(cc, both);
    handshake(&mut c, &mut s).unwrap();
    assert_eq!(peer_end_entity(&c), server.spki);
    // A client without RFC 7250 gets the chain from a server that has both.
    let (mut c, mut s) = connect(ClientConfig::new(roots, &tls::SystemClock), both);
    handshake(&mut c, &mut s).unwrap();
    assert_eq!(peer_end_entity(&c), data!("server.der"));

    // Raw keys only, to a server with a chain only: no type in common.
    let (cc, _) = rpk_configs(PinnedKeys::only(leak([server.spki])), server);
    let (mut c, mut s) = connect(cc, x509_server);
    let (client_failed, err, alert) = refused(&mut c, &mut s);
    assert!(!client_failed);
    assert_eq!(err, Error::PeerIncompatible(PeerIncompatible::NoCommonCertificateType));
    assert_eq!(alert, Error::AlertReceived(AlertDescription::UNSUPPORTED_CERTIFICATE));
    // A client without RFC 7250, to a server with a raw key only: the same.
    let (_, sc) = rpk_configs(PinnedKeys::only(leak([server.spki])), server);
    let (mut c, mut s) = connect(ClientConfig::new(roots, &tls::SystemClock), sc);
    let (client_failed, err, alert) = refused(&mut c, &mut s);
    assert!(!client_failed);
    assert_eq!(err, Error::PeerIncompatible(PeerIncompatible::NoCommonCertificateType));
    assert_eq!(alert, Error::AlertReceived(AlertDescription::UNSUPPORTED_CERTIFICATE));
}

#[test]
fn client_x509_or_raw_key_as_the_server_asks() {
    let server = server_ed25519();
    let client = client_ed25519();
    let client_cert = pair::certified(data!("client-ed25519.der"), data!("client-ed25519.key.der"));
    let (cc, sc) = rpk_configs(PinnedKeys::only(leak([server.spki])), server);
    let cc = ClientConfig { client_raw_key: Some(client), client_cert: Some(client_cert), ..cc };
    // A server that pins no client keys asks for the certificate.
    let auth = ClientAuth::new(anchors(&[data!("ca.der")]), &tls::SystemClock);
    let (mut c, mut s) = connect(cc, ServerConfig { client_auth: Some(auth), ..sc });
    handshake(&mut c, &mut s).unwrap();
    assert_eq!(peer_end_entity(&s), data!("client-ed25519.der"));
    // One that pins raw keys only refuses a client that has none.
    let auth = ClientAuth {
        raw_keys: Some(PinnedKeys::only(leak([client.spki]))),
        ..ClientAuth::new(&[], &tls::SystemClock)
    };
    let cc = ClientConfig { client_raw_key: None, ..cc };
    let (mut c, mut s) = connect(cc, ServerConfig { client_auth: Some(auth), ..sc });
    let (client_failed, err, alert) = refused(&mut c, &mut s);
    assert!(!client_failed);
    assert_eq!(err, Error::PeerIncompatible(PeerIncompatible::NoCommonCertificateType));
    assert_eq!(alert, Error::AlertReceived(AlertDescription::UNSUPPORTED_CERTIFICATE));
}

#[test]
fn raw_key_configurations_are_checked() {
    let server = server_ed25519();
    let bad = |cc: ClientConfig<'static>| {
        Connection::client(cc, "localhost", buffers(), &mut OsRandom).map(|_| ()).unwrap_err()
    };
    let misuse = Error::ApiMisuse(ApiMisuse::BadConfig);
    let (cc, sc) = rpk_configs(PinnedKeys::only(leak([server.spki])), server);
    assert_eq!(bad(ClientConfig { server_keys: Some(PinnedKeys::only(&[])), ..cc }), misuse);
    assert_eq!(
        bad(ClientConfig { server_keys: Some(PinnedKeys::only(leak([&[][..]]))), ..cc }),
        misuse
    );
    // Raw keys only is TLS 1.3 only.
    let tls12 = [tls::msgs::ProtocolVersion::TLSV1_2];
    assert_eq!(bad(ClientConfig { versions: leak(tls12), ..cc }), misuse);
    let empty_key = RawKey { spki: &[], ..server };
    let s = Connection::server(
        ServerConfig { raw_key: Some(empty_key), ..sc },
        buffers(),
        &mut OsRandom,
    );
    assert_eq!(s.map(|_| ()).unwrap_err(), misuse);
}

#[test]
fn spki_signatures_are_checked_by_the_key_type() {
    use tls::rpk::verify_signature;
    let spki: &[u8] = data!("server.spki.der");
    let bad_sig = Error::PeerMisbehaved(tls::PeerMisbehaved::BadSignature);
    // A zero signature, a scheme of another key type, a scheme not verified at all.
    assert_eq!(verify_signature(spki, SignatureScheme::ED25519, b"m", &[0; 64]), Err(bad_sig));
    assert_eq!(
        verify_signature(spki, SignatureScheme::ECDSA_SECP256R1_SHA256, b"m", &[0; 64]),
        Err(bad_sig)
    );
    assert_eq!(
        verify_signature(spki, SignatureScheme::RSA_PKCS1_SHA256, b"m", &[0; 64]),
        Err(Error::PeerMisbehaved(tls::PeerMisbehaved::SelectedUnofferedParameter))
    );
    // Every truncation and a trailing byte are not DER.
    let bad_der = Error::InvalidCertificate(CertificateError::BadEncoding);
    for n in 0..spki.len() {
        assert_eq!(
            verify_signature(&spki[..n], SignatureScheme::ED25519, b"m", &[0; 64]),
            Err(bad_der)
        );
    }
    let mut longer = spki.to_vec();
    longer.push(0);
    assert_eq!(verify_signature(&longer, SignatureScheme::ED25519, b"m", &[0; 64]), Err(bad_der));
    // A good signature verifies.
    let key = SigningKey::from_pkcs8_der(data!("server.key.der")).unwrap();
    let mut sig = [0u8; tls::sign::MAX_SIGNATURE_LEN];
    let n =
        tls::provider::Signer::sign(&key, SignatureScheme::ED25519, b"m", &mut OsRandom, &mut sig)
            .unwrap();
    assert_eq!(verify_signature(spki, SignatureScheme::ED25519, b"m", &sig[..n]), Ok(()));
    assert_eq!(verify_signature(spki, SignatureScheme::ED25519, b"n", &sig[..n]), Err(bad_sig));
}
