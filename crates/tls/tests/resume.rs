//! Session tickets and PSK resumption in memory: a full handshake leaves tickets in the
//! client's store, the next connection resumes (`psk_dhe_ke`) for every suite, also through a
//! `HelloRetryRequest`; expired tickets, tickets under another key and a suite of another hash
//! fall back to a full handshake; a bad binder is refused with `decrypt_error`.

use core_hash::OsRandom;
use pki_types::{CertificateDer, TrustAnchor, UnixTime};
use tls::msgs::{AlertDescription, NamedGroup, PskKeyExchangeMode, SignatureScheme};
use tls::suites::{self, Suite};
use tls::ticket::{MemoryTicketStore, SliceTicketStore, TicketKey, TicketStore, TicketTooLong};
use tls::{
    Buffers, CertifiedKey, ClientConfig, Connection, Error, PeerMisbehaved, ServerConfig,
    ServerTickets, SigningKey,
};

fn leak<T>(v: T) -> &'static T {
    Box::leak(Box::new(v))
}

fn bufs() -> Buffers<'static> {
    Buffers {
        received: Vec::leak(vec![0; 17_000]),
        send: Vec::leak(vec![0; 40_000]),
        handshake: Vec::leak(vec![0; 8_000]),
    }
}

fn roots() -> &'static [TrustAnchor<'static>] {
    let der = leak(CertificateDer::from(&include_bytes!("data/ca-p256.der")[..]));
    leak([webpki::anchor_from_trusted_cert(der).unwrap()])
}

fn certs() -> &'static [CertifiedKey<'static>] {
    let key = leak(SigningKey::from_pkcs8_der(include_bytes!("data/server-p256.key.der")).unwrap());
    leak([CertifiedKey { chain: leak([&include_bytes!("data/server-p256.der")[..]]), key }])
}

struct Setup {
    store: &'static MemoryTicketStore,
    key: &'static TicketKey,
    client_suites: &'static [Suite],
    server_suites: &'static [Suite],
    client_groups: &'static [NamedGroup],
    server_groups: &'static [NamedGroup],
    server_now: UnixTime,
    psk_modes: &'static [PskKeyExchangeMode],
    psk_ke: bool,
}

impl Setup {
    fn new() -> Self {
        Self {
            store: leak(MemoryTicketStore::default()),
            key: leak(TicketKey::new(&[0x42; 32]).unwrap()),
            client_suites: suites::DEFAULT_SUITES,
            server_suites: suites::DEFAULT_SUITES,
            client_groups: tls::kx::DEFAULT_GROUPS,
            server_groups: tls::kx::DEFAULT_GROUPS,
            server_now: UnixTime::now(),
            psk_modes: &[],
            psk_ke: false,
        }
    }

    fn pair(&self) -> (Connection<'static, 'static>, Connection<'static, 'static>) {
        let config = ClientConfig {
            suites: self.client_suites,
            groups: self.client_groups,
            tickets: Some(self.store),
            psk_modes: self.psk_modes,
            ..ClientConfig::new(roots(), &tls::SystemClock)
        };
        let c = Connection::client(config, "localhost", bufs(), &mut OsRandom).unwrap();
        let config = ServerConfig {
            suites: self.server_suites,
            groups: self.server_groups,
            tickets: Some(ServerTickets {
                key: self.key,
                lifetime: 3600,
                count: 2,
                clock: leak(self.server_now),
                psk_ke: self.psk_ke,
                max_auth_age: 604_800,
            }),
            ..ServerConfig::new(certs())
        };
        let s = Connection::server(config, bufs(), &mut OsRandom).unwrap();
        (c, s)
    }
}

fn pump(from: &mut Connection<'_, '_>, to: &mut Connection<'_, '_>) -> Result<bool, Error> {
    let data = from.pending_send().to_vec();
    from.sent(data.len());
    to.receive_space()[..data.len()].copy_from_slice(&data);
    to.received(data.len())?;
    Ok(!data.is_empty())
}

/// Runs a handshake and moves the tickets to the client; returns (resumed, retried).
fn connect(setup: &Setup) -> (bool, bool) {
    let n = connect_negotiated(setup);
    (n.resumed, n.retried)
}

fn connect_negotiated(setup: &Setup) -> tls::Negotiated {
    let (mut c, mut s) = setup.pair();
    for _ in 0..6 {
        pump(&mut c, &mut s).unwrap();
        pump(&mut s, &mut c).unwrap();
    }
    assert!(!c.is_handshaking() && !s.is_handshaking());
    let (cn, sn) = (c.negotiated().unwrap(), s.negotiated().unwrap());
    assert_eq!((cn.resumed, cn.retried, cn.suite), (sn.resumed, sn.retried, sn.suite));
    assert_eq!(cn.scheme, SignatureScheme::ECDSA_SECP256R1_SHA256, "kept across resumption");
    // Data still flows both ways after a resumed handshake.
    c.write(b"after").unwrap();
    pump(&mut c, &mut s).unwrap();
    let mut buf = [0u8; 8];
    assert_eq!(s.read(&mut buf).unwrap(), 5);
    cn
}

#[test]
fn the_second_connection_resumes_for_every_suite() {
    for suite in suites::ALL_SUITES {
        let mut setup = Setup::new();
        let one: &'static [Suite] = leak([*suite]);
        setup.client_suites = one;
        setup.server_suites = one;
        assert_eq!(connect(&setup), (false, false), "{suite:?} full");
        assert_eq!(connect(&setup), (true, false), "{suite:?} resumed");
        // The resumed connection issued new tickets: a third resumes too.
        assert_eq!(connect(&setup), (true, false), "{suite:?} resumed again");
    }
}

#[cfg(feature = "p256")]
#[test]
fn resumption_through_a_hello_retry_request() {
    let mut setup = Setup::new();
    setup.client_groups = leak([NamedGroup::X25519, NamedGroup::SECP256R1]);
    setup.server_groups = leak([NamedGroup::SECP256R1]);
    assert_eq!(connect(&setup), (false, true));
    assert_eq!(connect(&setup), (true, true));
}

// Its server falls back to TLS_AES_256_GCM_SHA384, a hash other than the ticket's.
#[cfg(feature = "aes-gcm")]
#[test]
fn unusable_tickets_fall_back_to_a_full_handshake() {
    // Expired: the server's clock is past the lifetime.
    let mut setup = Setup::new();
    connect(&setup);
    setup.server_now = UnixTime::since_unix_epoch(std::time::Duration::from_secs(
        UnixTime::now().as_secs() + 7200,
    ));
    assert_eq!(connect(&setup), (false, false), "expired");

    // Sealed under another key.
    let mut setup = Setup::new();
    connect(&setup);
    setup.key = leak(TicketKey::new(&[0x43; 32]).unwrap());
    assert_eq!(connect(&setup), (false, false), "other key");

    // The server now only speaks a suite of another hash than the ticket's.
    let mut setup = Setup::new();
    connect(&setup);
    setup.server_suites = leak([suites::TLS13_AES_256_GCM_SHA384]);
    assert_eq!(connect(&setup), (false, false), "other hash");

    // No store: tickets are dropped, nothing to offer.
    let setup = Setup::new();
    assert!(setup.store.is_empty());
}

#[test]
fn a_bad_binder_is_decrypt_error() {
    let setup = Setup::new();
    connect(&setup);
    let (mut c, mut s) = setup.pair();
    let mut ch = c.pending_send().to_vec();
    c.sent(ch.len());
    // The binder is the last 32 bytes of the ClientHello (one SHA-256 binder).
    let last = ch.len() - 1;
    ch[last] ^= 1;
    s.receive_space()[..ch.len()].copy_from_slice(&ch);
    assert_eq!(s.received(ch.len()), Err(Error::PeerMisbehaved(PeerMisbehaved::BadPskBinder)));
    assert_eq!(s.pending_send(), [21, 3, 3, 0, 2, 2, AlertDescription::DECRYPT_ERROR.0]);
}

/// `psk_ke`: a server that allows it resumes without a key exchange when the client lists the
/// mode; otherwise `psk_dhe_ke` is used, and with no mode in common nothing resumes.
#[test]
fn psk_ke_is_used_only_when_both_sides_allow_it() {
    const KE: PskKeyExchangeMode = PskKeyExchangeMode::PSK_KE;
    const DHE: PskKeyExchangeMode = PskKeyExchangeMode::PSK_DHE_KE;
    for (client, server_allows, resumed, key_exchange) in [
        (&[KE, DHE][..], true, true, false),
        (&[KE][..], true, true, false),
        (&[DHE][..], true, true, true),
        (&[KE, DHE][..], false, true, true),
        (&[KE][..], false, false, true),
    ] {
        let mut setup = Setup::new();
        setup.psk_modes = leak(client.to_vec()).as_slice();
        setup.psk_ke = server_allows;
        let first = connect_negotiated(&setup);
        assert!(!first.resumed);
        let n = connect_negotiated(&setup);
        assert_eq!(n.resumed, resumed, "{client:?} {server_allows}");
        assert_eq!(n.group != NamedGroup(0), key_exchange, "{client:?} {server_allows}");
    }
}

/// A rustls server whose tickets are `TICKET_LEN` bytes (Java's default server sends 668):
/// the plaintext state, length-prefixed and zero-padded (a test ticketer; nothing is secret).
#[derive(Debug)]
struct PaddedTickets;

const TICKET_LEN: usize = 668;

impl rustls::server::ProducesTickets for PaddedTickets {
    fn enabled(&self) -> bool {
        true
    }
    fn lifetime(&self) -> u32 {
        3600
    }
    fn encrypt(&self, plain: &[u8]) -> Option<Vec<u8>> {
        let mut t = u16::try_from(plain.len()).ok()?.to_be_bytes().to_vec();
        t.extend_from_slice(plain);
        (t.len() <= TICKET_LEN).then(|| {
            t.resize(TICKET_LEN, 0);
            t
        })
    }
    fn decrypt(&self, cipher: &[u8]) -> Option<Vec<u8>> {
        let len = usize::from(u16::from_be_bytes(cipher.get(..2)?.try_into().ok()?));
        Some(cipher.get(2..2 + len)?.to_vec())
    }
}

/// Our client against a rustls server, records moved in memory until neither side has more.
fn rustls_round(
    server: &std::sync::Arc<rustls::ServerConfig>,
    config: ClientConfig<'static>,
) -> (Connection<'static, 'static>, rustls::ServerConnection) {
    use std::io::{Read, Write};
    let mut theirs = rustls::ServerConnection::new(server.clone()).unwrap();
    let mut ours = Connection::client(config, "localhost", bufs(), &mut OsRandom).unwrap();
    for _ in 0..20 {
        let mut data = ours.pending_send().to_vec();
        ours.sent(data.len());
        let mut r: &[u8] = &data;
        while !r.is_empty() {
            theirs.read_tls(&mut r as &mut dyn Read).unwrap();
            theirs.process_new_packets().unwrap();
        }
        data.clear();
        while theirs.wants_write() {
            theirs.write_tls(&mut data as &mut dyn Write).unwrap();
        }
        if data.is_empty() && ours.pending_send().is_empty() {
            break;
        }
        ours.receive_space()[..data.len()].copy_from_slice(&data);
        ours.received(data.len()).unwrap();
    }
    assert!(!ours.is_handshaking() && !theirs.is_handshaking(), "{:?}", ours.error());
    (ours, theirs)
}

/// A rustls server with P-256 certificates and `PaddedTickets`.
fn padded_ticket_server() -> std::sync::Arc<rustls::ServerConfig> {
    let key = pki_types::PrivateKeyDer::Pkcs8(pki_types::PrivatePkcs8KeyDer::from(
        include_bytes!("data/server-p256.key.der").to_vec(),
    ));
    let cert = CertificateDer::from(include_bytes!("data/server-p256.der").to_vec());
    let mut config = rustls::ServerConfig::builder_with_provider(std::sync::Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_protocol_versions(&[&rustls::version::TLS13])
    .unwrap()
    .with_no_client_auth()
    .with_single_cert(vec![cert], key)
    .unwrap();
    config.ticketer = std::sync::Arc::new(PaddedTickets);
    config.send_tls13_tickets = 1;
    std::sync::Arc::new(config)
}

/// RFC 8446 §4.6.1 allows tickets up to 2^16-1 bytes: a 668-byte ticket (Java's) is kept and
/// the next connection resumes with it.
#[test]
fn a_668_byte_ticket_is_kept_and_resumes() {
    let server = padded_ticket_server();
    let store = leak(MemoryTicketStore::default());
    let config =
        ClientConfig { tickets: Some(store), ..ClientConfig::new(roots(), &tls::SystemClock) };
    let (first, _) = rustls_round(&server, config);
    assert!(!first.negotiated().unwrap().resumed);
    assert!(!store.is_empty(), "the 668-byte ticket was kept");
    let (second, theirs) = rustls_round(&server, config);
    assert!(second.negotiated().unwrap().resumed);
    assert_eq!(theirs.handshake_kind(), Some(rustls::HandshakeKind::Resumed));
}

/// Without an allocator the caller's buffer holds the ticket: one that fits resumes, one that
/// does not is reported with both sizes and the next connection is a full handshake.
#[test]
fn a_ticket_longer_than_the_callers_storage_is_reported_with_both_sizes() {
    let server = padded_ticket_server();
    let store = leak(SliceTicketStore::new(Vec::leak(vec![0; 600])));
    let config =
        ClientConfig { tickets: Some(store), ..ClientConfig::new(roots(), &tls::SystemClock) };
    let (first, _) = rustls_round(&server, config);
    // "localhost" takes 9 of the 600 bytes.
    assert_eq!(first.refused_ticket(), Some(TicketTooLong { len: TICKET_LEN, capacity: 591 }));
    assert!(store.is_empty());
    let (second, _) = rustls_round(&server, config);
    assert!(!second.negotiated().unwrap().resumed);

    let store = leak(SliceTicketStore::new(Vec::leak(vec![0; 9 + TICKET_LEN])));
    let config =
        ClientConfig { tickets: Some(store), ..ClientConfig::new(roots(), &tls::SystemClock) };
    let (first, _) = rustls_round(&server, config);
    assert_eq!(first.refused_ticket(), None);
    let (second, _) = rustls_round(&server, config);
    assert!(second.negotiated().unwrap().resumed);
}

/// The server's chain stays in the client's handshake buffer after the handshake until a
/// message needs the room: a buffer that fits the Certificate and `CertificateVerify` but not
/// the Certificate and a `NewSessionTicket` gives the chain up for the ticket (no error), and
/// the end-entity digest stays.
#[test]
fn the_kept_peer_chain_gives_its_room_to_later_messages() {
    use tls::PeerIdentity;
    let cert_msg = include_bytes!("data/server-p256.der").len() + 13;
    // ECDSA P-256 CertificateVerify: 8 bytes and a DER signature of at most 72.
    for (hs_len, kept) in [(cert_msg + 80, false), (cert_msg + 400, true)] {
        let setup = Setup::new();
        let (c, s) = setup.pair();
        drop(c);
        // An X25519 ServerHello: these handshake buffers have no room for a hybrid's.
        let config = ClientConfig {
            tickets: Some(setup.store),
            groups: tls::kx::CLASSICAL_GROUPS,
            ..ClientConfig::new(roots(), &tls::SystemClock)
        };
        let bufs = Buffers {
            received: Vec::leak(vec![0; 17_000]),
            send: Vec::leak(vec![0; 40_000]),
            handshake: Vec::leak(vec![0; hs_len]),
        };
        let mut c = Connection::client(config, "localhost", bufs, &mut OsRandom).unwrap();
        let mut s = s;
        for _ in 0..4 {
            pump(&mut c, &mut s).unwrap();
            pump(&mut s, &mut c).unwrap();
        }
        assert!(!setup.store.is_empty(), "the tickets arrived");
        let Some(PeerIdentity::Certificate { end_entity_sha256, chain }) = c.peer_identity() else {
            panic!()
        };
        assert_eq!(
            end_entity_sha256,
            core_hash::Sha256::digest(include_bytes!("data/server-p256.der"))
        );
        assert_eq!(chain.is_some(), kept, "{hs_len}");
    }
}

/// A clock that moves only when told to.
#[derive(Debug)]
struct FakeClock(std::sync::atomic::AtomicU64);

impl tls::Clock for FakeClock {
    fn now(&self) -> UnixTime {
        let secs = self.0.load(std::sync::atomic::Ordering::Relaxed);
        UnixTime::since_unix_epoch(std::time::Duration::from_secs(secs))
    }
}

impl FakeClock {
    fn advance(&self, secs: u64) {
        self.0.fetch_add(secs, std::sync::atomic::Ordering::Relaxed);
    }
}

/// The configurations read their clock at each use, not once: one pair of configurations
/// made at the start serves a connection whose ticket is stamped with the time it arrived,
/// and refuses that ticket once the server's clock is past its lifetime.
#[test]
fn configurations_read_the_clock_at_each_use() {
    let start = UnixTime::now().as_secs();
    let clock = leak(FakeClock(std::sync::atomic::AtomicU64::new(start)));
    let store = leak(MemoryTicketStore::default());
    let key = leak(TicketKey::new(&[0x42; 32]).unwrap());
    let client = ClientConfig { tickets: Some(store), ..ClientConfig::new(roots(), clock) };
    let tickets = ServerTickets { lifetime: 3600, ..ServerTickets::new(key, clock) };
    let server = ServerConfig { tickets: Some(tickets), ..ServerConfig::new(certs()) };
    let connect = || {
        let mut c = Connection::client(client, "localhost", bufs(), &mut OsRandom).unwrap();
        let mut s = Connection::server(server, bufs(), &mut OsRandom).unwrap();
        for _ in 0..4 {
            pump(&mut c, &mut s).unwrap();
            pump(&mut s, &mut c).unwrap();
        }
        s.negotiated().unwrap().resumed
    };
    clock.advance(1000);
    assert!(!connect());
    let mut out = vec![0; 1000];
    let ticket = store.take("localhost", &mut out).unwrap().unwrap();
    assert_eq!(ticket.session().received_at(), start + 1000, "stamped when it arrived");
    store.put("localhost", &ticket).unwrap();
    clock.advance(3599);
    assert!(connect(), "within the lifetime");
    clock.advance(3600);
    assert!(!connect(), "past the lifetime");
}

// RFC 8446 §4.2.11 and §4.6.1: a ticket resumes with a suite of its hash that the client
// offers in this ClientHello, the ticket's own first: offered after another suite the
// server would pick for a full handshake, it is still the one resumed with (BoGo's
// Resume-Server-CipherNotPreferred-TLS13, where BoringSSL declines to resume: a policy
// difference, disabled in the BoGo config).
#[cfg(all(feature = "aes-gcm", feature = "chacha20"))]
#[test]
fn a_ticket_resumes_with_its_own_suite_when_offered() {
    let mut setup = Setup::new();
    setup.client_suites = leak([suites::TLS13_AES_256_GCM_SHA384]);
    assert_eq!(connect(&setup), (false, false));
    setup.client_suites =
        leak([suites::TLS13_CHACHA20_POLY1305_SHA256, suites::TLS13_AES_256_GCM_SHA384]);
    let n = connect_negotiated(&setup);
    assert!(n.resumed);
    assert_eq!(n.suite, suites::TLS13_AES_256_GCM_SHA384.suite);
}
