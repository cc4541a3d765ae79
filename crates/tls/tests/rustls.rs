//! Interop with rustls (ring provider) in memory, in both roles: rustls client against our
//! server and our client against a rustls server, for each suite both implement.

mod pair;

use std::io::{Read, Write};
use std::sync::Arc;

use core_ec::ed25519::SigningKey;
use core_hash::OsRandom;
use pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName};
use tls::msgs::NamedGroup;
use tls::suites::{self, Suite};
use tls::{Buffers, ClientConfig, Connection, ServerConfig};

const CA: &[u8] = include_bytes!("data/ca.der");
const SERVER_CERT: &[u8] = include_bytes!("data/server.der");
const SERVER_SEED: &[u8; 32] = include_bytes!("data/server.seed");

const SHARED_SUITES: [Suite; 3] = [
    suites::TLS13_AES_128_GCM_SHA256,
    suites::TLS13_AES_256_GCM_SHA384,
    suites::TLS13_CHACHA20_POLY1305_SHA256,
];

fn provider(suite: Suite) -> Arc<rustls::crypto::CryptoProvider> {
    let mut p = rustls::crypto::ring::default_provider();
    p.cipher_suites.retain(|s| u16::from(s.suite()) == suite.suite.0);
    assert_eq!(p.cipher_suites.len(), 1);
    Arc::new(p)
}

fn pkcs8_key() -> PrivateKeyDer<'static> {
    // RFC 8410 PKCS#8 wrapping of an Ed25519 seed.
    let mut der = vec![
        0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04,
        0x20,
    ];
    der.extend_from_slice(SERVER_SEED);
    PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(der))
}

/// Moves our connection's records into rustls and back until neither has anything to say;
/// neither side may fail (rustls's failure reaches us as its alert).
fn pump<D>(ours: &mut Connection<'_, '_>, theirs: &mut rustls::ConnectionCommon<D>) {
    let (r, _) = pair::pump_rustls(ours, theirs);
    r.unwrap();
}

#[test]
fn rustls_client_against_our_server() {
    let key = tls::SigningKey::Ed25519(SigningKey::from_seed(SERVER_SEED));
    let chain: [&[u8]; 1] = [SERVER_CERT];
    for suite in SHARED_SUITES {
        let mut roots = rustls::RootCertStore::empty();
        roots.add(CertificateDer::from(CA)).unwrap();
        let mut config = rustls::ClientConfig::builder_with_provider(provider(suite))
            .with_protocol_versions(&[&rustls::version::TLS13])
            .unwrap()
            .with_root_certificates(roots)
            .with_no_client_auth();
        config.alpn_protocols = vec![b"h2".to_vec()];
        let name = ServerName::try_from("test.halite").unwrap();
        let mut theirs = rustls::ClientConnection::new(Arc::new(config), name).unwrap();

        let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
        let suites = [suite];
        let alpn: [&[u8]; 2] = [b"http/1.1", b"h2"];
        let certs = [tls::CertifiedKey { chain: &chain, key: &key }];
        let config = ServerConfig { suites: &suites, alpn: &alpn, ..ServerConfig::new(&certs) };
        let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
        let mut ours = Connection::server(config, bufs, &mut OsRandom).unwrap();
        pump(&mut ours, &mut theirs);
        assert!(!theirs.is_handshaking() && !ours.is_handshaking(), "{suite:?}");
        assert_eq!(u16::from(theirs.negotiated_cipher_suite().unwrap().suite()), suite.suite.0);
        assert_eq!(theirs.alpn_protocol(), Some(&b"h2"[..]));
        assert_eq!(ours.server_name(), Some("test.halite"));
        assert!(!ours.negotiated().unwrap().retried);

        theirs.writer().write_all(b"hello from rustls").unwrap();
        let mut out = Vec::new();
        theirs.write_tls(&mut out).unwrap();
        ours.receive_space()[..out.len()].copy_from_slice(&out);
        ours.received(out.len()).unwrap();
        let mut buf = [0u8; 64];
        let n = ours.read(&mut buf).unwrap();
        assert_eq!(&buf[..n], b"hello from rustls");

        ours.write(b"hello from halite").unwrap();
        let mut data = ours.pending_send();
        while !data.is_empty() {
            theirs.read_tls(&mut data).unwrap();
        }
        theirs.process_new_packets().unwrap();
        let mut got = [0u8; 64];
        let n = theirs.reader().read(&mut got).unwrap();
        assert_eq!(&got[..n], b"hello from halite");
    }
}

#[test]
fn our_client_against_rustls_server() {
    let ca = CertificateDer::from(CA);
    let roots = [webpki::anchor_from_trusted_cert(&ca).unwrap()];
    for suite in SHARED_SUITES {
        let mut config = rustls::ServerConfig::builder_with_provider(provider(suite))
            .with_protocol_versions(&[&rustls::version::TLS13])
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(vec![CertificateDer::from(SERVER_CERT)], pkcs8_key())
            .unwrap();
        config.alpn_protocols = vec![b"h2".to_vec()];
        let mut theirs = rustls::ServerConnection::new(Arc::new(config)).unwrap();

        let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
        let suites = [suite];
        let alpn: [&[u8]; 1] = [b"h2"];
        let config = ClientConfig {
            suites: &suites,
            alpn: &alpn,
            ..ClientConfig::new(&roots, &tls::SystemClock)
        };
        let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
        let mut ours = Connection::client(config, "localhost", bufs, &mut OsRandom).unwrap();
        pump(&mut ours, &mut theirs);
        assert!(!ours.is_handshaking(), "{suite:?}: {:?}", ours.error());
        assert!(!theirs.is_handshaking());
        assert_eq!(ours.negotiated().unwrap().suite, suite.suite);
        assert_eq!(ours.negotiated().unwrap().alpn, Some(0));
        assert_eq!(theirs.server_name(), Some("localhost"));

        ours.write(b"ping").unwrap();
        let mut data = ours.pending_send();
        while !data.is_empty() {
            theirs.read_tls(&mut data).unwrap();
        }
        let n = ours.pending_send().len();
        ours.sent(n);
        theirs.process_new_packets().unwrap();
        let mut got = [0u8; 16];
        let n = theirs.reader().read(&mut got).unwrap();
        assert_eq!(&got[..n], b"ping");
        // rustls sends session tickets after the handshake; they must be accepted and skipped.
        theirs.writer().write_all(b"pong").unwrap();
        let mut out = Vec::new();
        while theirs.wants_write() {
            theirs.write_tls(&mut out).unwrap();
        }
        ours.receive_space()[..out.len()].copy_from_slice(&out);
        ours.received(out.len()).unwrap();
        let mut buf = [0u8; 16];
        let n = ours.read(&mut buf).unwrap();
        assert_eq!(&buf[..n], b"pong");
    }
}

/// A rustls client whose first key share is P-256 gets a `HelloRetryRequest` for x25519 and
/// completes on its second `ClientHello`.
#[test]
fn hello_retry_request_to_rustls_client() {
    let key = tls::SigningKey::Ed25519(SigningKey::from_seed(SERVER_SEED));
    let chain: [&[u8]; 1] = [SERVER_CERT];
    let suite = suites::TLS13_AES_256_GCM_SHA384;
    let mut p = (*provider(suite)).clone();
    p.kx_groups =
        vec![rustls::crypto::ring::kx_group::SECP256R1, rustls::crypto::ring::kx_group::X25519];
    let mut roots = rustls::RootCertStore::empty();
    roots.add(CertificateDer::from(CA)).unwrap();
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(p))
        .with_protocol_versions(&[&rustls::version::TLS13])
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let name = ServerName::try_from("localhost").unwrap();
    let mut theirs = rustls::ClientConnection::new(Arc::new(config), name).unwrap();
    let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
    let suites = [suite];
    let groups = [NamedGroup::X25519];
    let certs = [tls::CertifiedKey { chain: &chain, key: &key }];
    let config = ServerConfig { suites: &suites, groups: &groups, ..ServerConfig::new(&certs) };
    let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
    let mut ours = Connection::server(config, bufs, &mut OsRandom).unwrap();
    pump(&mut ours, &mut theirs);
    assert!(!ours.is_handshaking(), "{:?}", ours.error());
    assert!(!theirs.is_handshaking());
    assert!(ours.negotiated().unwrap().retried);
    assert_eq!(
        theirs.negotiated_key_exchange_group().map(rustls::crypto::SupportedKxGroup::name),
        Some(rustls::NamedGroup::X25519)
    );
}

/// A rustls client offering only one NIST group gets it from our server without a retry.
#[test]
fn rustls_client_nist_groups() {
    use rustls::crypto::ring::kx_group;
    let key = tls::SigningKey::Ed25519(SigningKey::from_seed(SERVER_SEED));
    let chain: [&[u8]; 1] = [SERVER_CERT];
    let suite = suites::TLS13_AES_128_GCM_SHA256;
    for (theirs_group, ours_group) in
        [(kx_group::SECP256R1, NamedGroup::SECP256R1), (kx_group::SECP384R1, NamedGroup::SECP384R1)]
    {
        let mut p = (*provider(suite)).clone();
        p.kx_groups = vec![theirs_group];
        let mut roots = rustls::RootCertStore::empty();
        roots.add(CertificateDer::from(CA)).unwrap();
        let config = rustls::ClientConfig::builder_with_provider(Arc::new(p))
            .with_protocol_versions(&[&rustls::version::TLS13])
            .unwrap()
            .with_root_certificates(roots)
            .with_no_client_auth();
        let name = ServerName::try_from("localhost").unwrap();
        let mut theirs = rustls::ClientConnection::new(Arc::new(config), name).unwrap();
        let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
        let suites = [suite];
        let certs = [tls::CertifiedKey { chain: &chain, key: &key }];
        let config = ServerConfig { suites: &suites, ..ServerConfig::new(&certs) };
        let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
        let mut ours = Connection::server(config, bufs, &mut OsRandom).unwrap();
        pump(&mut ours, &mut theirs);
        assert!(!ours.is_handshaking(), "{:?}", ours.error());
        assert!(!theirs.is_handshaking());
        let n = ours.negotiated().unwrap();
        assert_eq!((n.group, n.retried), (ours_group, false));
    }
}

/// Our client, whose first share is x25519, against a rustls server that takes only P-256 or
/// P-384: the server's `HelloRetryRequest` is followed and the handshake completes.
#[test]
fn our_client_follows_rustls_hello_retry_request() {
    use rustls::crypto::ring::kx_group;
    let ca = CertificateDer::from(CA);
    let roots = [webpki::anchor_from_trusted_cert(&ca).unwrap()];
    let suite = suites::TLS13_CHACHA20_POLY1305_SHA256;
    for (theirs_group, ours_group) in
        [(kx_group::SECP256R1, NamedGroup::SECP256R1), (kx_group::SECP384R1, NamedGroup::SECP384R1)]
    {
        let mut p = (*provider(suite)).clone();
        p.kx_groups = vec![theirs_group];
        let config = rustls::ServerConfig::builder_with_provider(Arc::new(p))
            .with_protocol_versions(&[&rustls::version::TLS13])
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(vec![CertificateDer::from(SERVER_CERT)], pkcs8_key())
            .unwrap();
        let mut theirs = rustls::ServerConnection::new(Arc::new(config)).unwrap();
        let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
        let suites = [suite];
        let config =
            ClientConfig { suites: &suites, ..ClientConfig::new(&roots, &tls::SystemClock) };
        let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
        let mut ours = Connection::client(config, "localhost", bufs, &mut OsRandom).unwrap();
        pump(&mut ours, &mut theirs);
        assert!(!ours.is_handshaking(), "{:?}", ours.error());
        assert!(!theirs.is_handshaking());
        let n = ours.negotiated().unwrap();
        assert_eq!((n.group, n.retried), (ours_group, true));
    }
}

/// The ECDSA P-256, P-384 and RSA-2048 identities in `tests/data`: (certificate, PKCS#8 key,
/// root), all DER.
type Identity = (&'static str, &'static [u8], &'static [u8], &'static [u8]);

fn identities() -> [Identity; 3] {
    [
        (
            "p256",
            include_bytes!("data/server-p256.der"),
            include_bytes!("data/server-p256.key.der"),
            include_bytes!("data/ca-p256.der"),
        ),
        (
            "p384",
            include_bytes!("data/server-p384.der"),
            include_bytes!("data/server-p384.key.der"),
            include_bytes!("data/ca-p384.der"),
        ),
        (
            "rsa",
            include_bytes!("data/server-rsa.der"),
            include_bytes!("data/server-rsa.key.der"),
            include_bytes!("data/ca-rsa.der"),
        ),
    ]
}

/// rustls verifies our ECDSA and RSA-PSS `CertificateVerify` signatures and OpenSSL-made chains.
#[test]
fn rustls_client_against_our_ecdsa_and_rsa_certificates() {
    let suite = suites::TLS13_AES_128_GCM_SHA256;
    for (id, cert, key_der, ca) in identities() {
        let key = tls::SigningKey::from_pkcs8_der(key_der).unwrap();
        let chain: [&[u8]; 1] = [cert];
        let mut roots = rustls::RootCertStore::empty();
        roots.add(CertificateDer::from(ca)).unwrap();
        let config = rustls::ClientConfig::builder_with_provider(provider(suite))
            .with_protocol_versions(&[&rustls::version::TLS13])
            .unwrap()
            .with_root_certificates(roots)
            .with_no_client_auth();
        let name = ServerName::try_from("localhost").unwrap();
        let mut theirs = rustls::ClientConnection::new(Arc::new(config), name).unwrap();
        let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
        let suites = [suite];
        let certs = [tls::CertifiedKey { chain: &chain, key: &key }];
        let config = ServerConfig { suites: &suites, ..ServerConfig::new(&certs) };
        let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
        let mut ours = Connection::server(config, bufs, &mut OsRandom).unwrap();
        pump(&mut ours, &mut theirs);
        assert!(!ours.is_handshaking(), "{id}: {:?}", ours.error());
        assert!(!theirs.is_handshaking(), "{id}");
        let scheme = ours.negotiated().unwrap().scheme;
        assert_eq!(theirs.peer_certificates().unwrap()[0].as_ref(), cert);
        let expected = match id {
            "p256" => tls::msgs::SignatureScheme::ECDSA_SECP256R1_SHA256,
            "p384" => tls::msgs::SignatureScheme::ECDSA_SECP384R1_SHA384,
            _ => tls::msgs::SignatureScheme::RSA_PSS_RSAE_SHA256,
        };
        assert_eq!(scheme, expected, "{id}");
    }
}

/// Our client verifies rustls's ECDSA and RSA-PSS signatures (rustls picks the scheme from
/// our list: for RSA its first choice, PSS with SHA-512 under ring).
#[test]
fn our_client_against_rustls_ecdsa_and_rsa_certificates() {
    let suite = suites::TLS13_AES_256_GCM_SHA384;
    for (id, cert, key_der, ca) in identities() {
        let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key_der.to_vec()));
        let config = rustls::ServerConfig::builder_with_provider(provider(suite))
            .with_protocol_versions(&[&rustls::version::TLS13])
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(vec![CertificateDer::from(cert)], key)
            .unwrap();
        let mut theirs = rustls::ServerConnection::new(Arc::new(config)).unwrap();
        let ca = CertificateDer::from(ca);
        let roots = [webpki::anchor_from_trusted_cert(&ca).unwrap()];
        let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
        let suites = [suite];
        let config =
            ClientConfig { suites: &suites, ..ClientConfig::new(&roots, &tls::SystemClock) };
        let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
        let mut ours = Connection::client(config, "localhost", bufs, &mut OsRandom).unwrap();
        pump(&mut ours, &mut theirs);
        assert!(!ours.is_handshaking(), "{id}: {:?}", ours.error());
        assert!(!theirs.is_handshaking());
        let scheme = ours.negotiated().unwrap().scheme;
        let expected = match id {
            "p256" => tls::msgs::SignatureScheme::ECDSA_SECP256R1_SHA256,
            "p384" => tls::msgs::SignatureScheme::ECDSA_SECP384R1_SHA384,
            _ => scheme,
        };
        assert_eq!(scheme, expected, "{id}");
        if id == "rsa" {
            assert!(matches!(scheme.0, 0x0804..=0x0806), "an RSA-PSS rsae scheme, got {scheme:?}");
        }
    }
}

/// Client certificates both ways: a rustls client authenticating to our server, and our
/// client authenticating to a rustls server (ECDSA P-256 and RSA client keys).
#[test]
fn client_certificates_with_rustls_both_ways() {
    let suite = suites::TLS13_AES_128_GCM_SHA256;
    let clients: [Identity; 2] = [
        (
            "p256",
            include_bytes!("data/client-p256.der"),
            include_bytes!("data/client-p256.key.der"),
            include_bytes!("data/ca-p256.der"),
        ),
        (
            "rsa",
            include_bytes!("data/client-rsa.der"),
            include_bytes!("data/client-rsa.key.der"),
            include_bytes!("data/ca-rsa.der"),
        ),
    ];
    let server_cert: &[u8] = SERVER_CERT;
    for (id, cert, key_der, client_ca) in clients {
        // rustls client -> our server.
        let mut roots = rustls::RootCertStore::empty();
        roots.add(CertificateDer::from(CA)).unwrap();
        let config = rustls::ClientConfig::builder_with_provider(provider(suite))
            .with_protocol_versions(&[&rustls::version::TLS13])
            .unwrap()
            .with_root_certificates(roots)
            .with_client_auth_cert(
                vec![CertificateDer::from(cert)],
                PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key_der.to_vec())),
            )
            .unwrap();
        let name = ServerName::try_from("localhost").unwrap();
        let mut theirs = rustls::ClientConnection::new(Arc::new(config), name).unwrap();
        let key = tls::SigningKey::Ed25519(SigningKey::from_seed(SERVER_SEED));
        let chain: [&[u8]; 1] = [server_cert];
        let ca = CertificateDer::from(client_ca);
        let client_roots = [webpki::anchor_from_trusted_cert(&ca).unwrap()];
        let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
        let suites = [suite];
        let certs = [tls::CertifiedKey { chain: &chain, key: &key }];
        let config = ServerConfig {
            suites: &suites,
            client_auth: Some(tls::ClientAuth::new(&client_roots, &tls::SystemClock)),
            ..ServerConfig::new(&certs)
        };
        let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
        let mut ours = Connection::server(config, bufs, &mut OsRandom).unwrap();
        pump(&mut ours, &mut theirs);
        assert!(!ours.is_handshaking(), "{id}: {:?}", ours.error());
        assert!(!theirs.is_handshaking());
        assert!(ours.negotiated().unwrap().client_auth.is_some(), "{id}");

        // Our client -> rustls server requiring a client certificate.
        let mut client_store = rustls::RootCertStore::empty();
        client_store.add(CertificateDer::from(client_ca)).unwrap();
        let verifier = rustls::server::WebPkiClientVerifier::builder_with_provider(
            Arc::new(client_store),
            provider(suite),
        )
        .build()
        .unwrap();
        let config = rustls::ServerConfig::builder_with_provider(provider(suite))
            .with_protocol_versions(&[&rustls::version::TLS13])
            .unwrap()
            .with_client_cert_verifier(verifier)
            .with_single_cert(vec![CertificateDer::from(SERVER_CERT)], pkcs8_key())
            .unwrap();
        let mut theirs = rustls::ServerConnection::new(Arc::new(config)).unwrap();
        let ca = CertificateDer::from(CA);
        let roots = [webpki::anchor_from_trusted_cert(&ca).unwrap()];
        let client_key = tls::SigningKey::from_pkcs8_der(key_der).unwrap();
        let client_chain: [&[u8]; 1] = [cert];
        let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
        let config = ClientConfig {
            suites: &suites,
            client_cert: Some(tls::CertifiedKey { chain: &client_chain, key: &client_key }),
            ..ClientConfig::new(&roots, &tls::SystemClock)
        };
        let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
        let mut ours = Connection::client(config, "localhost", bufs, &mut OsRandom).unwrap();
        pump(&mut ours, &mut theirs);
        assert!(!ours.is_handshaking(), "{id}: {:?}", ours.error());
        assert!(!theirs.is_handshaking(), "{id}");
        assert_eq!(theirs.peer_certificates().unwrap()[0].as_ref(), cert, "{id}");
        assert!(ours.negotiated().unwrap().client_auth.is_some(), "{id}");
    }
}

/// Resumption both ways: a rustls client resumes with our server's ticket, and our client
/// resumes with a rustls server's.
#[test]
fn resumption_with_rustls_both_ways() {
    let suite = suites::TLS13_AES_256_GCM_SHA384;
    let suites = [suite];

    // rustls client -> our server, twice with one client config (its in-memory cache).
    let mut roots = rustls::RootCertStore::empty();
    roots.add(CertificateDer::from(CA)).unwrap();
    let config = Arc::new(
        rustls::ClientConfig::builder_with_provider(provider(suite))
            .with_protocol_versions(&[&rustls::version::TLS13])
            .unwrap()
            .with_root_certificates(roots)
            .with_no_client_auth(),
    );
    let key = tls::SigningKey::Ed25519(SigningKey::from_seed(SERVER_SEED));
    let chain: [&[u8]; 1] = [SERVER_CERT];
    let ticket_key = tls::ticket::TicketKey::new(&[5; 32]).unwrap();
    for round in 0..2 {
        let name = ServerName::try_from("localhost").unwrap();
        let mut theirs = rustls::ClientConnection::new(config.clone(), name).unwrap();
        let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
        let certs = [tls::CertifiedKey { chain: &chain, key: &key }];
        let sconfig = ServerConfig {
            suites: &suites,
            tickets: Some(tls::ServerTickets {
                key: &ticket_key,
                lifetime: 3600,
                count: 2,
                clock: &tls::SystemClock,
                psk_ke: false,
                max_auth_age: 604_800,
            }),
            ..ServerConfig::new(&certs)
        };
        let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
        let mut ours = Connection::server(sconfig, bufs, &mut OsRandom).unwrap();
        pump(&mut ours, &mut theirs);
        assert!(!ours.is_handshaking() && !theirs.is_handshaking(), "{:?}", ours.error());
        assert_eq!(ours.negotiated().unwrap().resumed, round == 1, "round {round}");
        let kind = theirs.handshake_kind().unwrap();
        assert_eq!(kind == rustls::HandshakeKind::Resumed, round == 1, "{kind:?}");
    }

    // Our client -> rustls server (its stateful session cache), twice with one store.
    let sconfig = Arc::new(
        rustls::ServerConfig::builder_with_provider(provider(suite))
            .with_protocol_versions(&[&rustls::version::TLS13])
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(vec![CertificateDer::from(SERVER_CERT)], pkcs8_key())
            .unwrap(),
    );
    let ca = CertificateDer::from(CA);
    let roots = [webpki::anchor_from_trusted_cert(&ca).unwrap()];
    let store = tls::ticket::MemoryTicketStore::default();
    for round in 0..2 {
        let mut theirs = rustls::ServerConnection::new(sconfig.clone()).unwrap();
        let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
        let config = ClientConfig {
            suites: &suites,
            tickets: Some(&store),
            ..ClientConfig::new(&roots, &tls::SystemClock)
        };
        let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
        let mut ours = Connection::client(config, "localhost", bufs, &mut OsRandom).unwrap();
        pump(&mut ours, &mut theirs);
        assert!(!ours.is_handshaking() && !theirs.is_handshaking(), "{:?}", ours.error());
        assert_eq!(ours.negotiated().unwrap().resumed, round == 1, "round {round}");
        let kind = theirs.handshake_kind().unwrap();
        assert_eq!(kind == rustls::HandshakeKind::Resumed, round == 1, "{kind:?}");
    }
}

/// Keying material exported on our end (RFC 8446 §7.5) equals rustls's for the same label and
/// context, in both roles and with both hashes; a different label or context gives another.
#[test]
fn exported_keying_material_matches_rustls() {
    let ca = CertificateDer::from(CA);
    let anchors = [webpki::anchor_from_trusted_cert(&ca).unwrap()];
    let key = tls::SigningKey::Ed25519(SigningKey::from_seed(SERVER_SEED));
    let chain: [&[u8]; 1] = [SERVER_CERT];
    let certs = [tls::CertifiedKey { chain: &chain, key: &key }];
    for suite in [suites::TLS13_AES_128_GCM_SHA256, suites::TLS13_AES_256_GCM_SHA384] {
        for our_role_is_server in [false, true] {
            let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
            let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
            let suites = [suite];
            let (ours, theirs): (Connection<'_, '_>, Box<dyn Exporter>) = if our_role_is_server {
                let mut roots = rustls::RootCertStore::empty();
                roots.add(CertificateDer::from(CA)).unwrap();
                let config = rustls::ClientConfig::builder_with_provider(provider(suite))
                    .with_protocol_versions(&[&rustls::version::TLS13])
                    .unwrap()
                    .with_root_certificates(roots)
                    .with_no_client_auth();
                let name = ServerName::try_from("test.halite").unwrap();
                let mut theirs = rustls::ClientConnection::new(Arc::new(config), name).unwrap();
                let config = ServerConfig { suites: &suites, ..ServerConfig::new(&certs) };
                let mut ours = Connection::server(config, bufs, &mut OsRandom).unwrap();
                pump(&mut ours, &mut theirs);
                (ours, Box::new(theirs))
            } else {
                let config = rustls::ServerConfig::builder_with_provider(provider(suite))
                    .with_protocol_versions(&[&rustls::version::TLS13])
                    .unwrap()
                    .with_no_client_auth()
                    .with_single_cert(vec![CertificateDer::from(SERVER_CERT)], pkcs8_key())
                    .unwrap();
                let mut theirs = rustls::ServerConnection::new(Arc::new(config)).unwrap();
                let config = ClientConfig {
                    suites: &suites,
                    ..ClientConfig::new(&anchors, &tls::SystemClock)
                };
                let mut ours =
                    Connection::client(config, "localhost", bufs, &mut OsRandom).unwrap();
                pump(&mut ours, &mut theirs);
                (ours, Box::new(theirs))
            };
            assert!(!ours.is_handshaking(), "{suite:?}: {:?}", ours.error());
            for (label, context, len) in
                [(&b"EXPORTER-test"[..], &b"context"[..], 32), (b"other label", b"", 100)]
            {
                let mut mine = vec![0u8; len];
                ours.export_keying_material(label, context, &mut mine).unwrap();
                let expected = theirs.export(label, context, len);
                assert_eq!(mine, expected, "{suite:?}, our server: {our_role_is_server}");
            }
            let mut a = [0u8; 32];
            let mut b = [0u8; 32];
            ours.export_keying_material(b"EXPORTER-test", b"context", &mut a).unwrap();
            ours.export_keying_material(b"EXPORTER-test", b"context2", &mut b).unwrap();
            assert_ne!(a, b);
            ours.export_keying_material(b"EXPORTER-tesu", b"context", &mut b).unwrap();
            assert_ne!(a, b);
        }
    }
}

/// Exporting is refused before the handshake is done, and for a label or length beyond
/// HKDF-Expand-Label's limits, with typed errors rather than a panic.
#[test]
fn exporting_keying_material_is_refused_when_it_cannot_be_done() {
    let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
    let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
    let ca = CertificateDer::from(CA);
    let anchors = [webpki::anchor_from_trusted_cert(&ca).unwrap()];
    let config = ClientConfig {
        suites: &[suites::TLS13_AES_128_GCM_SHA256],
        ..ClientConfig::new(&anchors, &tls::SystemClock)
    };
    let mut ours = Connection::client(config, "localhost", bufs, &mut OsRandom).unwrap();
    let mut out = [0u8; 32];
    assert_eq!(
        ours.export_keying_material(b"label", b"", &mut out),
        Err(tls::Error::ApiMisuse(tls::ApiMisuse::HandshakeNotComplete))
    );
    let server =
        rustls::ServerConfig::builder_with_provider(provider(suites::TLS13_AES_128_GCM_SHA256))
            .with_protocol_versions(&[&rustls::version::TLS13])
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(vec![CertificateDer::from(SERVER_CERT)], pkcs8_key())
            .unwrap();
    let mut theirs = rustls::ServerConnection::new(Arc::new(server)).unwrap();
    pump(&mut ours, &mut theirs);
    assert!(!ours.is_handshaking());
    let misuse = Err(tls::Error::ApiMisuse(tls::ApiMisuse::BadConfig));
    assert_eq!(ours.export_keying_material(&[b'x'; 250], b"", &mut out), misuse);
    assert_eq!(ours.export_keying_material(b"label", b"", &mut [0u8; 255 * 32 + 1]), misuse);
    assert!(ours.export_keying_material(&[b'x'; 249], b"", &mut [0u8; 255 * 32]).is_ok());
}

/// Either rustls role, for its exporter.
trait Exporter {
    fn export(&self, label: &[u8], context: &[u8], len: usize) -> Vec<u8>;
}

macro_rules! exporter {
    ($t:ty) => {
        impl Exporter for $t {
            fn export(&self, label: &[u8], context: &[u8], len: usize) -> Vec<u8> {
                self.export_keying_material(vec![0u8; len], label, Some(context)).unwrap()
            }
        }
    };
}
exporter!(rustls::ClientConnection);
exporter!(rustls::ServerConnection);
