//! Raw public keys (RFC 7250, TLS 1.3) between Halite peers in memory: the server's key
//! pinned by the client, mutual raw keys, a key that is not pinned (`bad_certificate`),
//! no certificate type in common (`unsupported_certificate`), and the fall back to X.509 where a
//! side allows it. And the same against rustls in process; the `gnutls-serv` and `gnutls-cli` runs are in `gnutls.rs`.

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
    let cc =
        ClientConfig { server_keys: Some(leak(pins)), ..ClientConfig::new(&[], &tls::SystemClock) };
    let sc = ServerConfig { raw_key: Some(leak(raw)), ..ServerConfig::new(&[]) };
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
    let cc = ClientConfig { client_raw_key: Some(leak(client)), ..cc };
    let auth = ClientAuth {
        raw_keys: Some(leak(PinnedKeys::only(leak([client.spki])))),
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
    let cc = ClientConfig { client_raw_key: Some(leak(client)), ..cc };
    let auth = ClientAuth {
        raw_keys: Some(leak(PinnedKeys::only(leak([server.spki])))),
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
        server_keys: Some(leak(PinnedKeys::or_x509(leak([server.spki])))),
        ..ClientConfig::new(roots, &tls::SystemClock)
    };
    let (mut c, mut s) = connect(cc, x509_server);
    handshake(&mut c, &mut s).unwrap();
    assert_eq!(peer_end_entity(&c), data!("server.der"));
    // ... and the raw key from a server that has both.
    let both = ServerConfig { raw_key: Some(leak(server)), ..ServerConfig::new(leak([chain])) };
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
    let cc =
        ClientConfig { client_raw_key: Some(leak(client)), client_cert: Some(client_cert), ..cc };
    // A server that pins no client keys asks for the certificate.
    let auth = ClientAuth::new(anchors(&[data!("ca.der")]), &tls::SystemClock);
    let (mut c, mut s) = connect(cc, ServerConfig { client_auth: Some(auth), ..sc });
    handshake(&mut c, &mut s).unwrap();
    assert_eq!(peer_end_entity(&s), data!("client-ed25519.der"));
    // One that pins raw keys only refuses a client that has none.
    let auth = ClientAuth {
        raw_keys: Some(leak(PinnedKeys::only(leak([client.spki])))),
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
    assert_eq!(bad(ClientConfig { server_keys: Some(leak(PinnedKeys::only(&[]))), ..cc }), misuse);
    assert_eq!(
        bad(ClientConfig { server_keys: Some(leak(PinnedKeys::only(leak([&[][..]])))), ..cc }),
        misuse
    );
    // Raw keys only is TLS 1.3 only.
    let tls12 = [tls::msgs::ProtocolVersion::TLSV1_2];
    assert_eq!(bad(ClientConfig { versions: leak(tls12), ..cc }), misuse);
    let empty_key = RawKey { spki: &[], ..server };
    let s = Connection::server(
        ServerConfig { raw_key: Some(leak(empty_key)), ..sc },
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

// ---- rustls (ring) as the peer: it does RFC 7250 in TLS 1.3 ----

mod rustls_peer {
    use std::sync::Arc;

    use pki_types::SubjectPublicKeyInfoDer;
    use pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName, UnixTime};
    use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
    use rustls::server::danger::{ClientCertVerified, ClientCertVerifier};
    use rustls::{DigitallySignedStruct, DistinguishedName, SignatureScheme};

    /// A rustls verifier of either role that takes one pinned raw public key.
    #[derive(Debug)]
    pub(super) struct Pinned(pub(super) &'static [u8]);

    impl Pinned {
        fn check(&self, spki: &CertificateDer<'_>) -> Result<(), rustls::Error> {
            if spki.as_ref() == self.0 {
                Ok(())
            } else {
                Err(rustls::Error::InvalidCertificate(rustls::CertificateError::UnknownIssuer))
            }
        }

        fn signature(
            message: &[u8],
            spki: &CertificateDer<'_>,
            dss: &DigitallySignedStruct,
        ) -> Result<HandshakeSignatureValid, rustls::Error> {
            rustls::crypto::verify_tls13_signature_with_raw_key(
                message,
                &SubjectPublicKeyInfoDer::from(spki.as_ref()),
                dss,
                &rustls::crypto::ring::default_provider().signature_verification_algorithms,
            )
        }

        fn schemes() -> Vec<SignatureScheme> {
            let p = rustls::crypto::ring::default_provider();
            p.signature_verification_algorithms.supported_schemes()
        }
    }

    impl ServerCertVerifier for Pinned {
        fn verify_server_cert(
            &self,
            end_entity: &CertificateDer<'_>,
            _: &[CertificateDer<'_>],
            _: &ServerName<'_>,
            _: &[u8],
            _: UnixTime,
        ) -> Result<ServerCertVerified, rustls::Error> {
            self.check(end_entity).map(|()| ServerCertVerified::assertion())
        }
        fn verify_tls12_signature(
            &self,
            _: &[u8],
            _: &CertificateDer<'_>,
            _: &DigitallySignedStruct,
        ) -> Result<HandshakeSignatureValid, rustls::Error> {
            Err(rustls::Error::General("no raw keys in TLS 1.2".into()))
        }
        fn verify_tls13_signature(
            &self,
            message: &[u8],
            spki: &CertificateDer<'_>,
            dss: &DigitallySignedStruct,
        ) -> Result<HandshakeSignatureValid, rustls::Error> {
            Self::signature(message, spki, dss)
        }
        fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
            Self::schemes()
        }
        fn requires_raw_public_keys(&self) -> bool {
            true
        }
    }

    impl ClientCertVerifier for Pinned {
        fn root_hint_subjects(&self) -> &[DistinguishedName] {
            &[]
        }
        fn verify_client_cert(
            &self,
            end_entity: &CertificateDer<'_>,
            _: &[CertificateDer<'_>],
            _: UnixTime,
        ) -> Result<ClientCertVerified, rustls::Error> {
            self.check(end_entity).map(|()| ClientCertVerified::assertion())
        }
        fn verify_tls12_signature(
            &self,
            _: &[u8],
            _: &CertificateDer<'_>,
            _: &DigitallySignedStruct,
        ) -> Result<HandshakeSignatureValid, rustls::Error> {
            Err(rustls::Error::General("no raw keys in TLS 1.2".into()))
        }
        fn verify_tls13_signature(
            &self,
            message: &[u8],
            spki: &CertificateDer<'_>,
            dss: &DigitallySignedStruct,
        ) -> Result<HandshakeSignatureValid, rustls::Error> {
            Self::signature(message, spki, dss)
        }
        fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
            Self::schemes()
        }
        fn requires_raw_public_keys(&self) -> bool {
            true
        }
    }

    /// rustls's key for a raw public key `spki` with its PKCS#8 `key`.
    pub(super) fn certified(spki: &[u8], key: &[u8]) -> Arc<rustls::sign::CertifiedKey> {
        let der = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.to_vec()));
        let provider = rustls::crypto::ring::default_provider();
        let key = provider.key_provider.load_private_key(der).unwrap();
        Arc::new(rustls::sign::CertifiedKey::new(vec![CertificateDer::from(spki.to_vec())], key))
    }

    fn provider() -> Arc<rustls::crypto::CryptoProvider> {
        Arc::new(rustls::crypto::ring::default_provider())
    }

    /// A rustls client that pins `server` and authenticates with the raw key `client`.
    pub(super) fn client(
        server: &'static [u8],
        client: (&[u8], &[u8]),
    ) -> rustls::ClientConnection {
        let config = rustls::ClientConfig::builder_with_provider(provider())
            .with_protocol_versions(&[&rustls::version::TLS13])
            .unwrap()
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(Pinned(server)))
            .with_client_cert_resolver(Arc::new(
                rustls::client::AlwaysResolvesClientRawPublicKeys::new(certified(
                    client.0, client.1,
                )),
            ));
        let name = ServerName::try_from("localhost").unwrap();
        rustls::ClientConnection::new(Arc::new(config), name).unwrap()
    }

    /// A rustls server with the raw key `server` that pins the client key `client`.
    pub(super) fn server(
        server: (&[u8], &[u8]),
        client: &'static [u8],
    ) -> rustls::ServerConnection {
        let config = rustls::ServerConfig::builder_with_provider(provider())
            .with_protocol_versions(&[&rustls::version::TLS13])
            .unwrap()
            .with_client_cert_verifier(Arc::new(Pinned(client)))
            .with_cert_resolver(Arc::new(rustls::server::AlwaysResolvesServerRawPublicKeys::new(
                certified(server.0, server.1),
            )));
        rustls::ServerConnection::new(Arc::new(config)).unwrap()
    }
}

#[test]
fn rustls_server_with_mutual_raw_keys() {
    let (server, client) = (server_ed25519(), client_ed25519());
    for (server_spki, server_key) in [
        (&data!("server.spki.der")[..], &data!("server.key.der")[..]),
        (data!("server-p256.spki.der"), data!("server-p256.key.der")),
    ] {
        let cc = ClientConfig {
            server_keys: Some(leak(PinnedKeys::only(leak([server_spki])))),
            client_raw_key: Some(leak(client)),
            ..ClientConfig::new(&[], &tls::SystemClock)
        };
        let mut c = Connection::client(cc, "localhost", buffers(), &mut OsRandom).unwrap();
        let mut theirs = rustls_peer::server((server_spki, server_key), client.spki);
        let (got, _) = pair::pump_rustls(&mut c, &mut theirs);
        got.unwrap();
        assert!(!c.is_handshaking());
        assert_eq!(peer_end_entity(&c), server_spki);
        c.write(b"to rustls").unwrap();
        pair::pump_rustls(&mut c, &mut theirs).0.unwrap();
        let mut buf = [0u8; 16];
        let n = std::io::Read::read(&mut theirs.reader(), &mut buf).unwrap();
        assert_eq!(&buf[..n], b"to rustls");
        let certs = theirs.peer_certificates().unwrap();
        assert_eq!(certs[0].as_ref(), client.spki);
    }
    // A pin rustls's key does not match: bad_certificate to rustls.
    let cc = ClientConfig {
        server_keys: Some(leak(PinnedKeys::only(leak([client.spki])))),
        client_raw_key: Some(leak(client)),
        ..ClientConfig::new(&[], &tls::SystemClock)
    };
    let mut c = Connection::client(cc, "localhost", buffers(), &mut OsRandom).unwrap();
    let mut theirs = rustls_peer::server((server.spki, data!("server.key.der")), client.spki);
    let (got, _) = pair::pump_rustls(&mut c, &mut theirs);
    assert_eq!(got, Err(Error::InvalidCertificate(CertificateError::UnknownRawKey)));
    let _ = pair::pump_rustls(&mut c, &mut theirs);
    assert_eq!(
        theirs.process_new_packets().unwrap_err(),
        rustls::Error::AlertReceived(rustls::AlertDescription::BadCertificate)
    );
}

#[test]
fn rustls_client_with_mutual_raw_keys() {
    let (server, client) = (server_ed25519(), client_ed25519());
    let auth = ClientAuth {
        raw_keys: Some(leak(PinnedKeys::only(leak([client.spki])))),
        ..ClientAuth::new(&[], &tls::SystemClock)
    };
    let sc = ServerConfig {
        raw_key: Some(leak(server)),
        client_auth: Some(auth),
        ..ServerConfig::new(&[])
    };
    let mut s = Connection::server(sc, buffers(), &mut OsRandom).unwrap();
    let mut theirs =
        rustls_peer::client(server.spki, (client.spki, data!("client-ed25519.key.der")));
    let (got, _) = pair::pump_rustls(&mut s, &mut theirs);
    got.unwrap();
    assert!(!s.is_handshaking() && !theirs.is_handshaking());
    assert_eq!(peer_end_entity(&s), client.spki);
    assert_eq!(s.negotiated().unwrap().client_auth, Some(SignatureScheme::ED25519));
    std::io::Write::write_all(&mut theirs.writer(), b"from rustls").unwrap();
    let (got, app) = pair::pump_rustls(&mut s, &mut theirs);
    got.unwrap();
    assert_eq!(app, b"from rustls");
}

#[test]
fn rustls_without_raw_keys_gets_x509_or_the_alert() {
    let server = server_ed25519();
    let provider = pair::ring_provider(&[], &[]);
    let versions = [&rustls::version::TLS13];
    let plain_server = || {
        pair::rustls_server_config(
            provider.clone(),
            &versions,
            (data!("server.der"), data!("server.key.der")),
            None,
        )
    };
    // A client that falls back to X.509 gets rustls's chain.
    let cc = ClientConfig {
        server_keys: Some(leak(PinnedKeys::or_x509(leak([server.spki])))),
        ..ClientConfig::new(anchors(&[data!("ca.der")]), &tls::SystemClock)
    };
    let mut c = Connection::client(cc, "localhost", buffers(), &mut OsRandom).unwrap();
    let mut theirs = rustls::ServerConnection::new(std::sync::Arc::new(plain_server())).unwrap();
    pair::pump_rustls(&mut c, &mut theirs).0.unwrap();
    assert!(!c.is_handshaking());
    assert_eq!(peer_end_entity(&c), data!("server.der"));
    // One with raw keys only is refused: rustls answers handshake_failure where RFC 7250
    // §4.2 says unsupported_certificate (our server's answer, and our client's to a server
    // that ignores the extension: `gnutls.rs`).
    let cc = ClientConfig { server_keys: Some(leak(PinnedKeys::only(leak([server.spki])))), ..cc };
    let mut c = Connection::client(cc, "localhost", buffers(), &mut OsRandom).unwrap();
    let mut theirs = rustls::ServerConnection::new(std::sync::Arc::new(plain_server())).unwrap();
    let (got, _) = pair::pump_rustls(&mut c, &mut theirs);
    assert_eq!(got, Err(Error::AlertReceived(AlertDescription::HANDSHAKE_FAILURE)));
}
