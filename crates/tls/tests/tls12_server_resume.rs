//! The TLS 1.2 server's resumption, in memory, against Halite's own TLS 1.2 client: by
//! session ticket with a `pre_shared_key` in the hello too (BoGo's SendBothTickets), by
//! session id from an [`ArraySessionCache`] (hit, miss, evicted; a suite, SNI or ticket
//! change is a full handshake), and a rustls (ring) client resuming by session id.
#![allow(clippy::doc_markdown)] // protocol names (ClientHello, pre_shared_key) are prose

mod pair;

use core_hash::OsRandom;
use pair::{
    anchors, buffers, certified, handshake, leak, pump_rustls, pump_with, ring_provider,
    rustls_client12,
};
use tls::msgs::ProtocolVersion;
use tls::suites::tls12 as s12;
use tls::ticket::{ArraySessionCache, MemoryTicketStore, SessionCache, TicketKey, TicketStore};
use tls::{ClientConfig, Connection, Error, ServerConfig, ServerSessionCache, ServerTickets};

const CA: &[u8] = include_bytes!("data/ca-p256.der");
const CERT: &[u8] = include_bytes!("data/server-p256.der");
const KEY: &[u8] = include_bytes!("data/server-p256.key.der");
const ONLY12: [ProtocolVersion; 1] = [ProtocolVersion::TLSV1_2];
const BOTH: [ProtocolVersion; 2] = [ProtocolVersion::TLSV1_3, ProtocolVersion::TLSV1_2];

fn client(store: &'static MemoryTicketStore) -> ClientConfig<'static> {
    ClientConfig {
        versions: &ONLY12,
        tickets: Some(store as &dyn TicketStore),
        ..ClientConfig::new(anchors(&[CA]), &tls::SystemClock)
    }
}

fn server() -> ServerConfig<'static> {
    ServerConfig { versions: &BOTH, ..ServerConfig::new(leak([certified(CERT, KEY)])) }
}

fn with_cache(cache: &'static dyn SessionCache) -> ServerConfig<'static> {
    ServerConfig {
        session_cache: Some(leak(ServerSessionCache::new(cache, &tls::SystemClock))),
        ..server()
    }
}

/// A handshake of `cc` (to `name`) with `sc`, the client's first flight changed by `patch`;
/// whether the server resumed, and the session id of its ServerHello.
fn connect_patched(
    cc: ClientConfig<'static>,
    sc: ServerConfig<'static>,
    name: &str,
    patch: &mut dyn FnMut(&mut Vec<u8>),
) -> Result<(bool, Vec<u8>), Error> {
    let mut c = Connection::client(cc, name, buffers(), &mut OsRandom).unwrap();
    let mut s = Connection::server(sc, buffers(), &mut OsRandom).unwrap();
    pump_with(&mut c, &mut s, patch)?;
    let flight = s.pending_send().to_vec();
    // Record header 5, handshake header 4, version 2, random 32: the session id.
    let sid = flight[44..44 + usize::from(flight[43])].to_vec();
    handshake(&mut c, &mut s).map_err(|(_, e)| e)?;
    let (cn, sn) = (c.negotiated().unwrap(), s.negotiated().unwrap());
    assert_eq!(cn, sn);
    assert_eq!(cn.version, ProtocolVersion::TLSV1_2);
    Ok((sn.resumed, sid))
}

fn connect(cc: ClientConfig<'static>, sc: ServerConfig<'static>) -> Result<(bool, Vec<u8>), Error> {
    connect_patched(cc, sc, "localhost", &mut |_| {})
}

/// Appends a `pre_shared_key` extension (one identity, one 12-byte binder, as BoGo's
/// client sends beside a TLS 1.2 session ticket: its "binder" is a TLS 1.2 Finished) to the
/// ClientHello record `flight`, fixing up the lengths.
fn add_pre_shared_key(flight: &mut Vec<u8>) {
    assert_eq!((flight[0], flight[5]), (22, 1), "a ClientHello record");
    let mut ext = vec![0, 41];
    let mut body = Vec::new();
    body.extend(15u16.to_be_bytes()); // identities
    body.extend(9u16.to_be_bytes());
    body.extend(b"ticket-id");
    body.extend(7u32.to_be_bytes());
    body.extend(13u16.to_be_bytes()); // binders
    body.push(12);
    body.extend([0x42; 12]);
    ext.extend((body.len() as u16).to_be_bytes());
    ext.extend(body);
    let add = ext.len();
    flight.extend(ext);
    let grow = |b: &mut [u8], at: usize, width: usize| {
        let mut v = 0usize;
        for i in 0..width {
            v = v << 8 | usize::from(b[at + i]);
        }
        v += add;
        for i in 0..width {
            b[at + i] = (v >> (8 * (width - 1 - i))) as u8;
        }
    };
    grow(flight, 3, 2);
    grow(flight, 6, 3);
    // The extensions block length: after version, random, session id, suites, compression.
    let mut p = 9 + 2 + 32;
    p += 1 + usize::from(flight[p]);
    p += 2 + usize::from(u16::from_be_bytes([flight[p], flight[p + 1]]));
    p += 1 + usize::from(flight[p]);
    grow(flight, p, 2);
}

/// Issue 22 (BoGo Resume-Server-TLS12-TLS12-TLS): a resuming ClientHello with a session
/// ticket and a `pre_shared_key` that is not a TLS 1.3 one (a 12-byte binder) resumes by
/// the ticket; TLS 1.2 ignores the extension. (The patch is not in the client's
/// transcript, so only the server's answer is checked: an abbreviated flight, which has
/// our ChangeCipherSpec.) A TLS 1.3 server still refuses the malformed extension.
#[test]
fn a_ticket_resumes_beside_a_malformed_pre_shared_key() {
    let key = leak(TicketKey::new(&[7; 32]).unwrap());
    let sc = ServerConfig { tickets: Some(ServerTickets::new(key, &tls::SystemClock)), ..server() };
    let store = leak(MemoryTicketStore::default());
    assert!(!connect(client(store), sc).unwrap().0);
    let mut c = Connection::client(client(store), "localhost", buffers(), &mut OsRandom).unwrap();
    let mut s = Connection::server(sc, buffers(), &mut OsRandom).unwrap();
    pump_with(&mut c, &mut s, &mut add_pre_shared_key).unwrap();
    assert!(s.error().is_none());
    let flight = s.pending_send();
    assert!(flight.windows(6).any(|w| w == [20, 3, 3, 0, 1, 1]), "a ChangeCipherSpec");
    // TLS 1.3: decode_error, as before.
    let cc =
        ClientConfig { versions: &BOTH, ..ClientConfig::new(anchors(&[CA]), &tls::SystemClock) };
    let mut c = Connection::client(cc, "localhost", buffers(), &mut OsRandom).unwrap();
    let mut s = Connection::server(server(), buffers(), &mut OsRandom).unwrap();
    let r = pump_with(&mut c, &mut s, &mut add_pre_shared_key);
    assert_eq!(r, Err(Error::InvalidMessage(tls::msgs::InvalidMessage::BadLength)));
}

/// Whether the server's answer to a hello (its SNI name patched to another, when `patch`) is
/// an abbreviated handshake: its flight has our ChangeCipherSpec. The client's store gives
/// up its session.
fn answers_abbreviated(
    sc: ServerConfig<'static>,
    store: &'static MemoryTicketStore,
    patch: bool,
) -> bool {
    let mut c = Connection::client(client(store), "localhost", buffers(), &mut OsRandom).unwrap();
    let mut s = Connection::server(sc, buffers(), &mut OsRandom).unwrap();
    // The same length: "localhost" becomes "localhosu".
    let sni = |f: &mut Vec<u8>| {
        let at = f.windows(9).position(|w| w == b"localhost").unwrap();
        if patch {
            f[at + 8] = b'u';
        }
    };
    pump_with(&mut c, &mut s, &mut { sni }).unwrap();
    assert!(s.error().is_none());
    s.pending_send().windows(6).any(|w| w == [20, 3, 3, 0, 1, 1])
}

/// RFC 5246 §7.4.1.2: with a cache and no ticket, a full handshake gives a fresh 32-byte
/// session id and caches the session; offering it resumes (the id echoed) while the cache
/// keeps it. A miss (another cache), an evicted entry, a suite the server no longer takes,
/// another SNI name: each a full handshake.
#[test]
fn a_cached_session_resumes_by_id_and_only_while_cached() {
    let cache = leak(ArraySessionCache::<1>::new());
    let sc = with_cache(cache);
    let store = leak(MemoryTicketStore::default());
    let (resumed, sid) = connect(client(store), sc).unwrap();
    assert!(!resumed);
    assert_eq!(sid.len(), 32);
    assert_eq!(cache.len(), 1);
    let (resumed, echoed) = connect(client(store), sc).unwrap();
    assert!(resumed, "hit");
    assert_eq!(echoed, sid);
    assert_eq!(cache.len(), 1, "a resumption caches nothing new");
    // Again: the session stays as long as its entry.
    assert!(connect(client(store), sc).unwrap().0);
    // A miss: another (empty) cache.
    let other = leak(ArraySessionCache::<4>::new());
    assert!(!connect(client(store), with_cache(other)).unwrap().0, "miss");
    // Another SNI name (patched: only the server's answer counts), after the same unpatched.
    assert!(!connect(client(store), sc).unwrap().0);
    assert!(answers_abbreviated(sc, store, false));
    assert!(!connect(client(store), sc).unwrap().0);
    assert!(!answers_abbreviated(sc, store, true), "SNI mismatch");
    // A suite this server no longer takes.
    let store = leak(MemoryTicketStore::default());
    assert!(!connect(client(store), sc).unwrap().0);
    let only256 = leak([s12::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384]);
    let n = connect(client(store), ServerConfig { suites12: only256, ..sc });
    assert!(!n.unwrap().0, "suite mismatch");
    // Evicted: another client's session takes the only slot.
    let (a, b) = (leak(MemoryTicketStore::default()), leak(MemoryTicketStore::default()));
    assert!(!connect(client(a), sc).unwrap().0);
    assert!(!connect(client(b), sc).unwrap().0);
    assert!(!connect(client(a), sc).unwrap().0, "evicted");
    // a's new session took the slot from b's.
    assert!(!connect(client(b), sc).unwrap().0, "evicted in turn");
    assert!(connect(client(b), sc).unwrap().0, "b's newest session is the one kept");
    cache.clear();
    assert!(!connect(client(b), sc).unwrap().0, "cleared");
}

/// RFC 5077 §3.4: a server that issues a ticket sends no session id and caches nothing; a
/// client that takes no ticket gets a session id and resumes by it.
#[test]
fn tickets_and_the_cache_together() {
    let key = leak(TicketKey::new(&[9; 32]).unwrap());
    let cache = leak(ArraySessionCache::<4>::new());
    let sc = ServerConfig {
        tickets: Some(ServerTickets::new(key, &tls::SystemClock)),
        ..with_cache(cache)
    };
    let store = leak(MemoryTicketStore::default());
    let (resumed, sid) = connect(client(store), sc).unwrap();
    assert!(!resumed && sid.is_empty() && cache.is_empty());
    assert!(connect(client(store), sc).unwrap().0, "by ticket");
    // A client with a store takes tickets; without one it offers none, and the rustls
    // client below resumes by id against this same configuration.
    let rustls_config = rustls_client12(ring_provider(&[], &[]), CA, None);
    for round in 0..2 {
        let name = pki_types::ServerName::try_from("localhost").unwrap();
        let mut theirs = rustls::ClientConnection::new(rustls_config.clone(), name).unwrap();
        let mut ours = Connection::server(with_cache(cache), buffers(), &mut OsRandom).unwrap();
        let (r, _) = pump_rustls(&mut ours, &mut theirs);
        r.unwrap();
        assert!(!ours.is_handshaking() && !theirs.is_handshaking(), "rustls round {round}");
        let kind =
            if round == 0 { rustls::HandshakeKind::Full } else { rustls::HandshakeKind::Resumed };
        assert_eq!(theirs.handshake_kind(), Some(kind), "rustls round {round}");
        assert_eq!(ours.negotiated().unwrap().resumed, round == 1);
    }
}

/// A cached session older than the cache's lifetime does not resume (here a lifetime of
/// zero: none ever does), though the cache still has it.
#[test]
fn an_expired_cached_session_is_a_full_handshake() {
    let cache = leak(ArraySessionCache::<2>::new());
    let sessions =
        ServerSessionCache { lifetime: 0, ..ServerSessionCache::new(cache, &tls::SystemClock) };
    let sc = ServerConfig { session_cache: Some(leak(sessions)), ..server() };
    let store = leak(MemoryTicketStore::default());
    assert!(!connect(client(store), sc).unwrap().0);
    assert_eq!(cache.len(), 1);
    let (resumed, sid) = connect(client(store), sc).unwrap();
    assert!(!resumed, "expired");
    assert_eq!(sid.len(), 32, "a fresh id");
}
