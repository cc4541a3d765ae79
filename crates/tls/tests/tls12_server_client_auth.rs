//! Client certificates on the TLS 1.2 server (RFC 5246 §7.4.4, §7.4.6, §7.4.8), in memory:
//! Halite's own TLS 1.2 client with ECDSA P-256, P-384 and RSA-2048 certificates under both
//! suite hashes (signing with the suite's hash or the other), optional authentication without a certificate, the refusals (no certificate when
//! one is required, a bad CertificateVerify signature, a scheme the CertificateRequest did
//! not offer) as typed errors and alerts, a resumed session keeping the client's identity, and
//! a rustls client speaking TLS 1.2 only with a certificate.
#![allow(clippy::doc_markdown)] // protocol names (CertificateVerify) are prose

mod pair;

use std::sync::Arc;

use core_hash::{OsRandom, Sha256};
use pair::{
    anchors, buffers, certified, connect, handshake, leak, pump, pump_rustls, pump_with,
    ring_provider, rustls_client12, rustls_roots,
};
use pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tls::msgs::{AlertDescription, ProtocolVersion, SignatureScheme};
use tls::suites::tls12::{self as s12, Suite12};
use tls::ticket::{MemoryTicketStore, TicketKey, TicketStore};
use tls::{
    CertificateError, ClientAuth, ClientConfig, Connection, Error, PeerIdentity, PeerMisbehaved,
    ServerConfig, ServerTickets,
};

macro_rules! data {
    ($f:literal) => {
        include_bytes!(concat!("data/", $f))
    };
}

const ONLY12: [ProtocolVersion; 1] = [ProtocolVersion::TLSV1_2];

/// A client identity: certificate, PKCS#8 key, the root that issued it.
struct Id {
    cert: &'static [u8],
    key: &'static [u8],
    ca: &'static [u8],
}

const P256: Id = Id {
    cert: data!("client-p256.der"),
    key: data!("client-p256.key.der"),
    ca: data!("ca-p256.der"),
};
const P384: Id = Id {
    cert: data!("client-p384.der"),
    key: data!("client-p384.key.der"),
    ca: data!("ca-p384.der"),
};
const RSA: Id =
    Id { cert: data!("client-rsa.der"), key: data!("client-rsa.key.der"), ca: data!("ca-rsa.der") };

/// Our server (a P-256 certificate, TLS 1.2 only) asking for client certificates under the
/// roots of `P256`, `P384` and `RSA`.
fn server_config(required: bool, suites12: &'static [Suite12]) -> ServerConfig<'static> {
    let server = certified(data!("server-p256.der"), data!("server-p256.key.der"));
    let roots = anchors(&[P256.ca, P384.ca, RSA.ca]);
    ServerConfig {
        versions: &ONLY12,
        suites12,
        client_auth: Some(ClientAuth { required, ..ClientAuth::new(roots, &tls::SystemClock) }),
        ..ServerConfig::new(leak([server]))
    }
}

fn client_config(id: Option<&Id>) -> ClientConfig<'static> {
    let roots = anchors(&[&data!("ca-p256.der")[..]]);
    ClientConfig {
        versions: &ONLY12,
        client_cert: id.map(|id| certified(id.cert, id.key)),
        ..ClientConfig::new(roots, &tls::SystemClock)
    }
}

/// The offset of the body of the first handshake message of type `typ` in the unprotected
/// records of `flight` (each message within one record, as Halite sends them).
fn find_message(flight: &[u8], typ: u8) -> Option<usize> {
    let mut at = 0;
    while at + 5 <= flight.len() {
        let len = usize::from(u16::from_be_bytes([flight[at + 3], flight[at + 4]]));
        if flight[at] == 20 {
            return None; // ChangeCipherSpec: what follows is protected
        }
        if flight[at] == 22 {
            let mut m = at + 5;
            while m + 4 <= at + 5 + len {
                let body = usize::from(flight[m + 1]) << 16
                    | usize::from(flight[m + 2]) << 8
                    | usize::from(flight[m + 3]);
                if flight[m] == typ {
                    return Some(m + 4);
                }
                m += 4 + body;
            }
        }
        at += 5 + len;
    }
    None
}

/// The server's view of the client it authenticated: the scheme, and the end-entity
/// certificate both as a SHA-256 and in the chain kept.
fn check_client_identity(s: &Connection<'_, '_>, id: &Id, scheme: SignatureScheme, what: &str) {
    let n = s.negotiated().unwrap();
    assert_eq!((n.version, n.client_auth), (ProtocolVersion::TLSV1_2, Some(scheme)), "{what}");
    let Some(PeerIdentity::Certificate { end_entity_sha256, chain }) = s.peer_identity() else {
        panic!("{what}: no client certificate");
    };
    assert_eq!(end_entity_sha256, Sha256::digest(id.cert), "{what}");
    let chain = chain.expect("the chain is kept");
    assert_eq!(chain.iter().collect::<Vec<_>>(), [id.cert], "{what}");
}

#[test]
fn client_certificates_authenticate() {
    // The server keeps the transcript under both hashes: a signature with the suite's hash
    // and one with the other (P-256 under a SHA-384 suite, P-384 under a SHA-256 one).
    let (p256, p384) =
        (SignatureScheme::ECDSA_SECP256R1_SHA256, SignatureScheme::ECDSA_SECP384R1_SHA384);
    let (sha256, sha384) = (
        s12::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
        s12::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
    );
    let cases = [
        (&P256, sha256, Some(p256), "p256 sha256"),
        (&P256, sha384, Some(p256), "p256 sha384"),
        (&P384, sha256, Some(p384), "p384 sha256"),
        (&P384, sha384, Some(p384), "p384 sha384"),
        (&RSA, sha256, None, "rsa sha256"),
        (&RSA, sha384, None, "rsa sha384"),
    ];
    for (id, suite, want, what) in cases {
        let (mut c, mut s) = connect(client_config(Some(id)), server_config(true, leak([suite])));
        handshake(&mut c, &mut s).unwrap_or_else(|e| panic!("{what}: {e:?}"));
        let scheme = c.negotiated().unwrap().client_auth.expect("the client signed");
        if let Some(want) = want {
            assert_eq!(scheme, want, "{what}");
        }
        check_client_identity(&s, id, scheme, what);
        assert_eq!(c.negotiated(), s.negotiated(), "{what}");
        assert_eq!(c.write(b"ping").unwrap(), 4);
        pump(&mut c, &mut s).unwrap();
        let mut buf = [0u8; 16];
        assert_eq!(s.read(&mut buf).unwrap(), 4, "{what}");
    }
}

#[test]
fn optional_authentication_takes_a_client_without_a_certificate() {
    let suites = leak([s12::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256]);
    let (mut c, mut s) = connect(client_config(None), server_config(false, suites));
    handshake(&mut c, &mut s).unwrap();
    assert_eq!(s.negotiated().unwrap().client_auth, None);
    assert!(s.peer_identity().is_none());
}

#[test]
fn required_authentication_refuses_a_client_without_a_certificate() {
    let suites = leak([s12::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256]);
    let (mut c, mut s) = connect(client_config(None), server_config(true, suites));
    pump(&mut c, &mut s).unwrap();
    pump(&mut s, &mut c).unwrap();
    let want = Error::InvalidCertificate(CertificateError::NoCertificate);
    assert_eq!(pump(&mut c, &mut s), Err(want));
    // TLS 1.2 has no certificate_required (RFC 5246 §7.4.6).
    assert_eq!(
        pump(&mut s, &mut c),
        Err(Error::AlertReceived(AlertDescription::HANDSHAKE_FAILURE))
    );
    assert!(s.negotiated().is_none());
}

/// The client's flight with its CertificateVerify changed by `patch` (given the message body:
/// scheme, signature length, signature): the server's error and the alert the client gets.
fn tampered_verify(id: &Id, patch: impl Fn(&mut [u8])) -> (Error, Error) {
    let suites = leak([s12::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256]);
    let (mut c, mut s) = connect(client_config(Some(id)), server_config(true, suites));
    pump(&mut c, &mut s).unwrap();
    pump(&mut s, &mut c).unwrap();
    let mut found = false;
    let server = pump_with(&mut c, &mut s, &mut |f| {
        if let Some(at) = find_message(f, 15) {
            patch(&mut f[at..]);
            found = true;
        }
    })
    .unwrap_err();
    assert!(found, "a CertificateVerify");
    let client = pump(&mut s, &mut c).unwrap_err();
    assert!(s.negotiated().is_none() && s.peer_identity().is_none());
    (server, client)
}

#[test]
fn a_bad_certificate_verify_signature_is_refused() {
    for id in [&P256, &RSA] {
        let (server, client) = tampered_verify(id, |cv| {
            let len = usize::from(u16::from_be_bytes([cv[2], cv[3]]));
            cv[4 + len - 1] ^= 1;
        });
        assert_eq!(server, Error::PeerMisbehaved(PeerMisbehaved::BadSignature));
        assert_eq!(client, Error::AlertReceived(AlertDescription::DECRYPT_ERROR));
    }
}

#[test]
fn a_certificate_verify_scheme_not_offered_is_refused() {
    // Ed25519 is never offered (the server keeps no messages to verify it over), nor SHA-1
    // schemes, nor ECDSA with SHA-512 (its scheme names P-521, which is not verified).
    for scheme in [
        SignatureScheme::ECDSA_SECP521R1_SHA512,
        SignatureScheme::ED25519,
        SignatureScheme(0x0201), // rsa_pkcs1_sha1
        SignatureScheme(0x0101),
    ] {
        let (server, client) =
            tampered_verify(&P256, |cv| cv[..2].copy_from_slice(&scheme.0.to_be_bytes()));
        assert_eq!(
            server,
            Error::PeerMisbehaved(PeerMisbehaved::SelectedUnofferedParameter),
            "{scheme:?}"
        );
        assert_eq!(client, Error::AlertReceived(AlertDescription::ILLEGAL_PARAMETER));
    }
}

/// A verifier that does not check chains apart from signatures takes no TLS 1.2 client
/// certificate: the connection fails as misconfigured rather than skip the chain.
#[test]
fn a_verifier_without_chain_checks_refuses_tls12_certificates() {
    #[derive(Debug)]
    struct SignatureOnly;
    impl tls::verify::CertVerifier for SignatureOnly {
        fn verify(
            &self,
            _: &[u8],
            _: &[&[u8]],
            _: tls::verify::Peer<'_>,
            _: pki_types::UnixTime,
            _: SignatureScheme,
            _: &[u8],
            _: &[u8],
        ) -> Result<[u8; 32], Error> {
            Ok([0; 32])
        }
    }
    let suites = leak([s12::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256]);
    let mut sc = server_config(true, suites);
    sc.client_auth = sc.client_auth.map(|a| ClientAuth { verifier: Some(&SignatureOnly), ..a });
    let (mut c, mut s) = connect(client_config(Some(&P256)), sc);
    pump(&mut c, &mut s).unwrap();
    pump(&mut s, &mut c).unwrap();
    assert_eq!(pump(&mut c, &mut s), Err(Error::ApiMisuse(tls::ApiMisuse::BadConfig)));
}

/// A resumed session asks for no certificate and keeps the client identity of the one it
/// came from (as TLS 1.3 does).
#[test]
fn a_resumed_session_keeps_the_client_identity() {
    let suites = leak([s12::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256]);
    let key = leak(TicketKey::new(&[7; 32]).unwrap());
    let sc = ServerConfig {
        tickets: Some(ServerTickets::new(key, &tls::SystemClock)),
        ..server_config(true, suites)
    };
    let store: &'static MemoryTicketStore = Box::leak(Box::default());
    let cc =
        ClientConfig { tickets: Some(store as &dyn TicketStore), ..client_config(Some(&P256)) };
    let (mut c, mut s) = connect(cc, sc);
    handshake(&mut c, &mut s).unwrap();
    let scheme = s.negotiated().unwrap().client_auth.unwrap();
    assert!(!s.negotiated().unwrap().resumed);

    let (mut c, mut s) = connect(cc, sc);
    handshake(&mut c, &mut s).unwrap();
    let n = s.negotiated().unwrap();
    assert!(n.resumed, "resumed");
    assert_eq!(n.client_auth, Some(scheme));
    let Some(PeerIdentity::Certificate { end_entity_sha256, chain: None }) = s.peer_identity()
    else {
        panic!("the ticket's client identity");
    };
    assert_eq!(end_entity_sha256, Sha256::digest(P256.cert));
}

#[test]
fn rustls_client_certificates_in_tls12() {
    for (id, what) in [(&P256, "p256"), (&RSA, "rsa")] {
        for suite in [
            s12::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
            s12::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
        ] {
            let what = format!("{what} {}", suite.iana_name());
            let provider = ring_provider(&[], &[]);
            let config = rustls_client12(provider, data!("ca-p256.der"), Some((id.cert, id.key)));
            let name = pki_types::ServerName::try_from("localhost").unwrap();
            let mut theirs = rustls::ClientConnection::new(config, name).unwrap();
            let sc = server_config(true, leak([suite]));
            let mut ours = Connection::server(sc, buffers(), &mut OsRandom).unwrap();
            let (r, _) = pump_rustls(&mut ours, &mut theirs);
            r.unwrap_or_else(|e| panic!("{what}: {e}"));
            assert!(!ours.is_handshaking() && !theirs.is_handshaking(), "{what}");
            let scheme = ours.negotiated().unwrap().client_auth.expect("authenticated");
            // rustls's RSA keys prefer RSA-PSS with SHA-512: the server's third transcript.
            if what.starts_with("rsa") {
                assert_eq!(scheme, SignatureScheme::RSA_PSS_RSAE_SHA512, "{what}");
            }
            check_client_identity(&ours, id, scheme, &what);
        }
    }
}

/// A rustls signing key that signs with one scheme only, when it is offered.
#[derive(Debug)]
struct OnlyScheme(Arc<dyn rustls::sign::SigningKey>, rustls::SignatureScheme);

impl rustls::sign::SigningKey for OnlyScheme {
    fn choose_scheme(
        &self,
        offered: &[rustls::SignatureScheme],
    ) -> Option<Box<dyn rustls::sign::Signer>> {
        offered.contains(&self.1).then(|| self.0.choose_scheme(&[self.1])).flatten()
    }

    fn algorithm(&self) -> rustls::SignatureAlgorithm {
        self.0.algorithm()
    }
}

/// Always the one certificate.
#[derive(Debug)]
struct OneCert(Arc<rustls::sign::CertifiedKey>);

impl rustls::client::ResolvesClientCert for OneCert {
    fn resolve(
        &self,
        _: &[&[u8]],
        _: &[rustls::SignatureScheme],
    ) -> Option<Arc<rustls::sign::CertifiedKey>> {
        Some(Arc::clone(&self.0))
    }

    fn has_certs(&self) -> bool {
        true
    }
}

/// RFC 5246 §7.4.8 with each scheme the server offers, SHA-512 ones among them, under a
/// SHA-256 and a SHA-384 suite: a rustls client whose RSA key signs with that scheme only is
/// authenticated with it (the server checks the transcript under the scheme's hash, whichever
/// of the three it is).
#[test]
fn rustls_client_signs_with_each_rsa_scheme_in_tls12() {
    use rustls::SignatureScheme as R;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(RSA.key.to_vec()));
    let key = provider.key_provider.load_private_key(key).unwrap();
    for (theirs_scheme, ours_scheme) in [
        (R::RSA_PKCS1_SHA256, SignatureScheme::RSA_PKCS1_SHA256),
        (R::RSA_PKCS1_SHA384, SignatureScheme::RSA_PKCS1_SHA384),
        (R::RSA_PKCS1_SHA512, SignatureScheme::RSA_PKCS1_SHA512),
        (R::RSA_PSS_SHA256, SignatureScheme::RSA_PSS_RSAE_SHA256),
        (R::RSA_PSS_SHA384, SignatureScheme::RSA_PSS_RSAE_SHA384),
        (R::RSA_PSS_SHA512, SignatureScheme::RSA_PSS_RSAE_SHA512),
    ] {
        for suite in [
            s12::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
            s12::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
        ] {
            let what = format!("{theirs_scheme:?} {}", suite.iana_name());
            let roots = rustls_roots(&[data!("ca-p256.der")]);
            let only = Arc::new(OnlyScheme(Arc::clone(&key), theirs_scheme));
            let certified = rustls::sign::CertifiedKey::new(
                vec![CertificateDer::from(RSA.cert.to_vec())],
                only,
            );
            let config = rustls::ClientConfig::builder_with_provider(Arc::clone(&provider))
                .with_protocol_versions(&[&rustls::version::TLS12])
                .unwrap()
                .with_root_certificates(roots)
                .with_client_cert_resolver(Arc::new(OneCert(Arc::new(certified))));
            let name = pki_types::ServerName::try_from("localhost").unwrap();
            let mut theirs = rustls::ClientConnection::new(Arc::new(config), name).unwrap();
            let sc = server_config(true, leak([suite]));
            let mut ours = Connection::server(sc, buffers(), &mut OsRandom).unwrap();
            pump_rustls(&mut ours, &mut theirs).0.unwrap_or_else(|e| panic!("{what}: {e}"));
            assert!(!ours.is_handshaking() && !theirs.is_handshaking(), "{what}");
            check_client_identity(&ours, &RSA, ours_scheme, &what);
        }
    }
}
