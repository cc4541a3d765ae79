//! The TLS 1.2 client's certificates and resumption against a rustls (ring) server speaking
//! TLS 1.2 only, in memory: client certificates (ECDSA P-256 and P-384, RSA) asked for and
//! given, under SHA-256 and SHA-384 suites (so the `CertificateVerify` hash is the suite's or
//! the other one); an Ed25519 key answered with an empty Certificate; resumption by session
//! ticket and by session id; a server that does not resume (full handshake); a server that
//! resumes with another suite or without the extended master secret (refused).

mod pair;

use std::sync::Arc;

use core_hash::OsRandom;
use pair::{
    anchors, buffers, certified, leak, pump_rustls, pump_rustls_with, ring_provider,
    rustls_server_config,
};
use tls::msgs::{ProtocolVersion, SignatureScheme};
use tls::suites::tls12::{self as s12, Suite12};
use tls::ticket::{MemoryTicketStore, TicketStore};
use tls::{
    Buffers, CertifiedKey, ClientConfig, Connection, Error, PeerIncompatible, PeerMisbehaved,
};

const CA: &[u8] = include_bytes!("data/ca-p256.der");
const CERT: &[u8] = include_bytes!("data/server-p256.der");
const KEY: &[u8] = include_bytes!("data/server-p256.key.der");
const ONLY12: [ProtocolVersion; 1] = [ProtocolVersion::TLSV1_2];

/// A client identity from `tests/data`: certificate, PKCS#8 key, issuing root.
struct ClientId {
    cert: &'static [u8],
    key: &'static [u8],
    ca: &'static [u8],
}

const P256_CLIENT: ClientId = ClientId {
    cert: include_bytes!("data/client-p256.der"),
    key: include_bytes!("data/client-p256.key.der"),
    ca: include_bytes!("data/ca-p256.der"),
};
const P384_CLIENT: ClientId = ClientId {
    cert: include_bytes!("data/client-p384.der"),
    key: include_bytes!("data/client-p384.key.der"),
    ca: include_bytes!("data/ca-p384.der"),
};
const RSA_CLIENT: ClientId = ClientId {
    cert: include_bytes!("data/client-rsa.der"),
    key: include_bytes!("data/client-rsa.key.der"),
    ca: include_bytes!("data/ca-rsa.der"),
};
const ED25519_CLIENT: ClientId = ClientId {
    cert: include_bytes!("data/client-ed25519.der"),
    key: include_bytes!("data/client-ed25519.key.der"),
    ca: include_bytes!("data/ca.der"),
};

fn client_cert(id: &ClientId) -> CertifiedKey<'static> {
    certified(id.cert, id.key)
}

/// How the rustls server is set up.
struct Server {
    suites: Vec<Suite12>,
    /// Client certificates from this root, required or optional.
    client_ca: Option<(&'static [u8], bool)>,
    /// A session-id cache.
    cache: bool,
    /// A ticketer.
    tickets: bool,
}

impl Server {
    fn config(&self) -> Arc<rustls::ServerConfig> {
        let suites: Vec<_> = self.suites.iter().map(|s| s.suite).collect();
        let provider = ring_provider(&suites, &[]);
        let tls12 = [&rustls::version::TLS12];
        let mut config = rustls_server_config(provider, &tls12, (CERT, KEY), self.client_ca);
        config.session_storage = if self.cache {
            rustls::server::ServerSessionMemoryCache::new(16)
        } else {
            Arc::new(rustls::server::NoServerSessionStorage {})
        };
        if self.tickets {
            config.ticketer = rustls::crypto::ring::Ticketer::new().unwrap();
        }
        Arc::new(config)
    }
}

fn client(
    suites12: &'static [Suite12],
    cert: Option<CertifiedKey<'static>>,
    store: Option<&'static MemoryTicketStore>,
) -> Connection<'static, 'static> {
    let config = ClientConfig {
        versions: &ONLY12,
        suites12,
        client_cert: cert,
        tickets: store.map(|s| s as &dyn TicketStore),
        ..ClientConfig::new(anchors(&[CA]), &tls::SystemClock)
    };
    Connection::client(config, "localhost", buffers(), &mut OsRandom).unwrap()
}

/// One handshake of `ours` with a new rustls connection on `config`, then a byte each way.
fn handshake(
    ours: &mut Connection<'_, '_>,
    config: &Arc<rustls::ServerConfig>,
) -> rustls::ServerConnection {
    let mut theirs = rustls::ServerConnection::new(config.clone()).unwrap();
    pump_rustls(ours, &mut theirs).0.unwrap();
    assert!(!ours.is_handshaking() && !theirs.is_handshaking());
    assert_eq!(ours.write(b"a").unwrap(), 1);
    pump_rustls(ours, &mut theirs).0.unwrap();
    let mut buf = [0u8; 4];
    assert_eq!(std::io::Read::read(&mut theirs.reader(), &mut buf).unwrap(), 1);
    theirs
}

const SHA256_SUITE: Suite12 = s12::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256;
const SHA384_SUITE: Suite12 = s12::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384;

#[test]
fn client_certificates_are_given_when_asked() {
    let cases = [
        (&P256_CLIENT, SignatureScheme::ECDSA_SECP256R1_SHA256),
        (&P384_CLIENT, SignatureScheme::ECDSA_SECP384R1_SHA384),
        (&RSA_CLIENT, SignatureScheme::RSA_PSS_RSAE_SHA256),
    ];
    let mut count = 0;
    for (id, scheme) in cases {
        for suite in [SHA256_SUITE, SHA384_SUITE] {
            let server = Server {
                suites: vec![suite],
                client_ca: Some((id.ca, true)),
                cache: false,
                tickets: false,
            };
            let mut ours = client(leak([suite]), Some(client_cert(id)), None);
            let theirs = handshake(&mut ours, &server.config());
            let n = ours.negotiated().unwrap();
            assert_eq!((n.suite, n.client_auth), (suite.suite, Some(scheme)), "{scheme:?}");
            let peer = theirs.peer_certificates().unwrap();
            assert_eq!(peer[0].as_ref(), id.cert);
            count += 1;
        }
    }
    assert_eq!(count, 6);
}

/// An Ed25519 key cannot sign the TLS 1.2 `CertificateVerify` from running hashes: the client
/// answers with an empty Certificate, which a server that requires one refuses, and one that
/// does not takes.
#[test]
fn an_ed25519_client_key_sends_no_certificate_in_tls12() {
    let id = &ED25519_CLIENT;
    let server = Server {
        suites: vec![SHA256_SUITE],
        client_ca: Some((id.ca, false)),
        cache: false,
        tickets: false,
    };
    let mut ours = client(leak([SHA256_SUITE]), Some(client_cert(id)), None);
    let theirs = handshake(&mut ours, &server.config());
    assert!(theirs.peer_certificates().is_none());
    assert_eq!(ours.negotiated().unwrap().client_auth, None);

    let server = Server { client_ca: Some((id.ca, true)), ..server };
    let mut ours = client(leak([SHA256_SUITE]), Some(client_cert(id)), None);
    let mut theirs = rustls::ServerConnection::new(server.config()).unwrap();
    let (r, _) = pump_rustls(&mut ours, &mut theirs);
    assert!(matches!(r, Err(Error::AlertReceived(_))), "{r:?}");
}

fn resumption(server: &Server, suites: &'static [Suite12]) -> (bool, bool) {
    let store = leak(MemoryTicketStore::default());
    let config = server.config();
    let mut first = client(suites, None, Some(store));
    handshake(&mut first, &config);
    assert!(!first.negotiated().unwrap().resumed);
    let kept = !store.is_empty();
    let mut second = client(suites, None, Some(store));
    let theirs = handshake(&mut second, &config);
    let resumed = second.negotiated().unwrap().resumed;
    assert_eq!(resumed, theirs.handshake_kind() == Some(rustls::HandshakeKind::Resumed));
    (kept, resumed)
}

#[test]
fn sessions_resume_by_ticket_and_by_session_id() {
    for suite in [SHA256_SUITE, SHA384_SUITE] {
        let suites = leak([suite]);
        // By ticket (no cache), by id (no ticketer), with both.
        for (cache, tickets) in [(false, true), (true, false), (true, true)] {
            let server = Server { suites: vec![suite], client_ca: None, cache, tickets };
            assert_eq!(resumption(&server, suites), (true, true), "{cache} {tickets}");
        }
        // A server with neither gives nothing to keep.
        let server = Server { suites: vec![suite], client_ca: None, cache: false, tickets: false };
        assert_eq!(resumption(&server, suites), (false, false));
    }
}

/// Resumed sessions keep the server's identity and scheme; the exporter works.
#[test]
fn a_resumed_session_keeps_what_the_full_handshake_learnt() {
    let store = leak(MemoryTicketStore::default());
    let server = Server { suites: vec![SHA256_SUITE], client_ca: None, cache: true, tickets: true };
    let config = server.config();
    let suites = leak([SHA256_SUITE]);
    let mut first = client(suites, None, Some(store));
    handshake(&mut first, &config);
    let full = first.negotiated().unwrap();
    let mut second = client(suites, None, Some(store));
    let mut theirs = handshake(&mut second, &config);
    let n = second.negotiated().unwrap();
    assert!(n.resumed);
    assert_eq!((n.suite, n.scheme), (full.suite, full.scheme));
    assert_eq!(
        second.peer_identity(),
        first.peer_identity().map(|p| match p {
            tls::PeerIdentity::Certificate { end_entity_sha256, .. } => {
                tls::PeerIdentity::Certificate { end_entity_sha256, chain: None }
            }
            other @ tls::PeerIdentity::ExternalPsk(_) => other,
        })
    );
    let (mut a, mut b) = ([0u8; 32], [0u8; 32]);
    second.export_keying_material(b"EXPORTER-x", b"", &mut a).unwrap();
    theirs.export_keying_material(&mut b, b"EXPORTER-x", Some(b"")).unwrap();
    assert_eq!(a, b);
    // And data from the server.
    std::io::Write::write_all(&mut theirs.writer(), b"pong").unwrap();
    let (r, app) = pump_rustls(&mut second, &mut theirs);
    r.unwrap();
    assert_eq!(app, b"pong");
    // The resumed session was kept again: a third connection resumes too.
    let mut third = client(suites, None, Some(store));
    handshake(&mut third, &config);
    assert!(third.negotiated().unwrap().resumed);
}

/// A server that does not know the session (another ticket key, another cache) answers with
/// a full handshake, which the client takes; so does one that no longer has the suite.
#[test]
fn a_server_that_does_not_resume_gets_a_full_handshake() {
    let store = leak(MemoryTicketStore::default());
    let server = Server { suites: vec![SHA256_SUITE], client_ca: None, cache: true, tickets: true };
    let suites = leak([SHA256_SUITE, SHA384_SUITE]);
    let mut first = client(suites, None, Some(store));
    handshake(&mut first, &server.config());
    for other in [
        Server { suites: vec![SHA256_SUITE], ..server },
        Server { suites: vec![SHA384_SUITE], client_ca: None, cache: true, tickets: true },
    ] {
        let mut ours = client(suites, None, Some(store));
        handshake(&mut ours, &other.config());
        assert!(!ours.negotiated().unwrap().resumed);
        assert!(!store.is_empty(), "the new session is kept");
    }
}

/// Rewrites the `ServerHello` at the start of `flight`: its cipher suite, or without an
/// empty extension (`extended_master_secret`, `session_ticket`).
fn patch_hello(flight: &mut Vec<u8>, suite: Option<u16>, drop_ext: Option<u16>) {
    if flight.len() < 9 || flight[0] != 22 || flight[5] != 2 {
        return;
    }
    let body = 9;
    let sid_len = usize::from(flight[body + 34]);
    let at = body + 35 + sid_len;
    if let Some(s) = suite {
        flight[at..at + 2].copy_from_slice(&s.to_be_bytes());
    }
    if let Some(drop) = drop_ext {
        // Find the (empty) extension and cut its four bytes, fixing three lengths.
        let ext_start = at + 3 + 2;
        let mut p = ext_start;
        let hs_len =
            usize::from(flight[6]) << 16 | usize::from(flight[7]) << 8 | usize::from(flight[8]);
        while p < body + hs_len {
            let typ = u16::from_be_bytes([flight[p], flight[p + 1]]);
            let len = usize::from(u16::from_be_bytes([flight[p + 2], flight[p + 3]]));
            if typ == drop {
                flight.drain(p..p + 4);
                let dec16 = |f: &mut Vec<u8>, i: usize| {
                    let v = u16::from_be_bytes([f[i], f[i + 1]]) - 4;
                    f[i..i + 2].copy_from_slice(&v.to_be_bytes());
                };
                dec16(flight, 3);
                dec16(flight, ext_start - 2);
                flight[8] -= 4; // short messages: the low byte does not borrow
                break;
            }
            p += 4 + len;
        }
    }
}

/// A server that echoes the session id but picks another suite, or leaves out the extended
/// master secret (RFC 7627 §5.3), is refused.
#[test]
fn a_resumption_with_another_suite_or_without_ems_is_refused() {
    let chacha = s12::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256;
    let cases: [(Option<u16>, Option<u16>, Error); 2] = [
        (Some(chacha.suite.0), None, PeerMisbehaved::SelectedUnofferedParameter.into()),
        (None, Some(0x0017), PeerIncompatible::NoExtendedMasterSecret.into()),
    ];
    for (suite, drop_ext, want) in cases {
        let store = leak(MemoryTicketStore::default());
        let server =
            Server { suites: vec![SHA256_SUITE], client_ca: None, cache: true, tickets: false };
        let config = server.config();
        let suites = leak([SHA256_SUITE, chacha]);
        let mut first = client(suites, None, Some(store));
        handshake(&mut first, &config);
        let mut ours = client(suites, None, Some(store));
        let mut theirs = rustls::ServerConnection::new(config.clone()).unwrap();
        let (r, _) =
            pump_rustls_with(&mut ours, &mut theirs, &mut |f| patch_hello(f, suite, drop_ext));
        assert_eq!(r, Err(want));
        assert!(theirs.handshake_kind() == Some(rustls::HandshakeKind::Resumed));
    }
}

#[test]
fn the_first_handshake_keeps_a_tls12_session() {
    let store = leak(MemoryTicketStore::default());
    let server =
        Server { suites: vec![SHA256_SUITE], client_ca: None, cache: false, tickets: true };
    let mut ours = client(leak([SHA256_SUITE]), None, Some(store));
    handshake(&mut ours, &server.config());
    let mut out = [0u8; 4096];
    let t = store.take("localhost", &mut out).unwrap().unwrap();
    assert!(t.session().is_tls12());
    assert_eq!(t.session().suite(), SHA256_SUITE.suite);
    assert!(!t.ticket().is_empty());
}

/// A ticket that does not fit at the end of the handshake buffer (with the server's
/// certificate kept at its start) is dropped and said so; the handshake completes and the
/// session is kept by its id instead.
#[test]
fn a_ticket_too_long_for_the_handshake_buffer_is_dropped() {
    let store = leak(MemoryTicketStore::default());
    let server = Server { suites: vec![SHA256_SUITE], client_ca: None, cache: true, tickets: true };
    let config = ClientConfig {
        versions: &ONLY12,
        suites12: leak([SHA256_SUITE]),
        tickets: Some(store),
        ..ClientConfig::new(anchors(&[CA]), &tls::SystemClock)
    };
    let bufs = Buffers { handshake: Vec::leak(vec![0; 700]), ..buffers() };
    let mut ours = Connection::client(config, "localhost", bufs, &mut OsRandom).unwrap();
    handshake(&mut ours, &server.config());
    let refused = ours.refused_ticket().expect("the ticket did not fit");
    assert!(refused.len > refused.capacity, "{refused:?}");
    let mut out = [0u8; 64];
    let t = store.take("localhost", &mut out).unwrap().unwrap();
    assert!(t.session().is_tls12());
    assert_eq!(t.ticket().len(), 32, "kept by its session id");
}

/// RFC 5077 §3.3: a `NewSessionTicket` comes only after a `ServerHello` with `session_ticket`;
/// one the `ServerHello` did not announce (here put before the server's `ChangeCipherSpec` by
/// a server with no ticketer) is an unexpected message.
#[test]
fn an_unannounced_new_session_ticket_is_refused() {
    let server =
        Server { suites: vec![SHA256_SUITE], client_ca: None, cache: true, tickets: false };
    let store = leak(MemoryTicketStore::default());
    let mut ours = client(leak([SHA256_SUITE]), None, Some(store));
    let mut theirs = rustls::ServerConnection::new(server.config()).unwrap();
    let (r, _) = pump_rustls_with(&mut ours, &mut theirs, &mut |f| {
        if f.first() == Some(&20) {
            let nst = [22, 3, 3, 0, 11, 4, 0, 0, 7, 0, 0, 0, 0, 0, 1, 0xaa];
            f.splice(0..0, nst);
        }
    });
    assert_eq!(r, Err(PeerMisbehaved::UnexpectedMessage.into()));
    assert!(store.is_empty());
}
