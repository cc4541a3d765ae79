//! Client certificate authentication in memory: every client key type, optional and required
//! modes, and the refusals — no certificate when one is required (`certificate_required`), a
//! chain from an unknown root (`unknown_ca`) and a key that does not match its certificate
//! (`decrypt_error`) — each as a typed error on the server and an alert at the client.

use core_hash::OsRandom;
use pki_types::{CertificateDer, TrustAnchor, UnixTime};
use tls::msgs::{AlertDescription, SignatureScheme};
use tls::ticket::{MemoryTicketStore, TicketKey, TicketStore};
use tls::{
    Buffers, CertificateError, CertifiedKey, ClientAuth, ClientConfig, Connection, Error,
    PeerIdentity, PeerMisbehaved, ServerConfig, ServerTickets, SigningKey, Want,
};

macro_rules! data {
    ($f:literal) => {
        include_bytes!(concat!("data/", $f))
    };
}

/// A client identity: its certificate, PKCS#8 key, the root that issued it, and the scheme it
/// signs with.
struct Id {
    cert: &'static [u8],
    key: &'static [u8],
    ca: &'static [u8],
    scheme: SignatureScheme,
}

const CLIENTS: [Id; 4] = [
    Id {
        cert: data!("client-ed25519.der"),
        key: data!("client-ed25519.key.der"),
        ca: data!("ca.der"),
        scheme: SignatureScheme::ED25519,
    },
    Id {
        cert: data!("client-p256.der"),
        key: data!("client-p256.key.der"),
        ca: data!("ca-p256.der"),
        scheme: SignatureScheme::ECDSA_SECP256R1_SHA256,
    },
    Id {
        cert: data!("client-p384.der"),
        key: data!("client-p384.key.der"),
        ca: data!("ca-p384.der"),
        scheme: SignatureScheme::ECDSA_SECP384R1_SHA384,
    },
    Id {
        cert: data!("client-rsa.der"),
        key: data!("client-rsa.key.der"),
        ca: data!("ca-rsa.der"),
        scheme: SignatureScheme::RSA_PSS_RSAE_SHA256,
    },
];

fn anchor(der: &'static [u8]) -> TrustAnchor<'static> {
    let der: &'static CertificateDer<'static> = Box::leak(Box::new(CertificateDer::from(der)));
    webpki::anchor_from_trusted_cert(der).unwrap()
}

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

fn pump(from: &mut Connection<'_, '_>, to: &mut Connection<'_, '_>) -> Result<bool, Error> {
    let data = from.pending_send().to_vec();
    from.sent(data.len());
    to.receive_space()[..data.len()].copy_from_slice(&data);
    to.received(data.len())?;
    Ok(!data.is_empty())
}

/// A client presenting `cert`/`key` (if any) to a server whose client roots are `client_ca`.
fn pair(
    cert: Option<(&'static [u8], &'static [u8])>,
    client_ca: &'static [u8],
    required: bool,
) -> (Connection<'static, 'static>, Connection<'static, 'static>) {
    let tickets =
        Tickets { store: None, lifetime: 600, clock: &tls::SystemClock, max_auth_age: 604_800 };
    pair_with_tickets(cert, leak([client_ca]), required, tickets)
}

/// The ticket side of a test: the client's store and the server's key (`None`: no tickets),
/// the lifetime, and the time both sides see.
#[derive(Clone, Copy)]
struct Tickets {
    store: Option<(&'static MemoryTicketStore, &'static TicketKey)>,
    lifetime: u32,
    clock: &'static dyn tls::Clock,
    max_auth_age: u32,
}

/// As [`pair`], with client roots `client_cas`, and tickets.
fn pair_with_tickets(
    cert: Option<(&'static [u8], &'static [u8])>,
    client_cas: &'static [&'static [u8]],
    required: bool,
    t: Tickets,
) -> (Connection<'static, 'static>, Connection<'static, 'static>) {
    let tickets = t.store;
    let client_cert = cert.map(|(c, k)| CertifiedKey {
        chain: leak([c]),
        key: leak(SigningKey::from_pkcs8_der(k).unwrap()),
    });
    let config = ClientConfig {
        client_cert,
        tickets: tickets.map(|(store, _)| store as &dyn TicketStore),
        ..ClientConfig::new(leak([anchor(data!("ca.der"))]), t.clock)
    };
    let c = Connection::client(config, "localhost", bufs(), &mut OsRandom).unwrap();
    let server_key = leak(SigningKey::from_pkcs8_der(data!("server.key.der")).unwrap());
    let config = ServerConfig {
        client_auth: Some(ClientAuth {
            required,
            ..ClientAuth::new(Vec::leak(client_cas.iter().map(|ca| anchor(ca)).collect()), t.clock)
        }),
        tickets: tickets.map(|(_, key)| ServerTickets {
            key,
            lifetime: t.lifetime,
            count: 1,
            clock: t.clock,
            psk_ke: false,
            max_auth_age: t.max_auth_age,
        }),
        ..ServerConfig::new(leak([CertifiedKey {
            chain: leak([&data!("server.der")[..]]),
            key: server_key,
        }]))
    };
    let s = Connection::server(config, bufs(), &mut OsRandom).unwrap();
    (c, s)
}

/// Runs the handshake; returns the server's error, if any, and the client's error after the
/// server's answer reached it.
fn run(c: &mut Connection<'_, '_>, s: &mut Connection<'_, '_>) -> Result<(), (Error, Error)> {
    for _ in 0..6 {
        pump(c, s).map_err(|e| (e, pump(s, c).unwrap_err()))?;
        pump(s, c).unwrap();
    }
    assert!(!c.is_handshaking() && !s.is_handshaking());
    Ok(())
}

#[test]
fn every_client_key_type_authenticates() {
    for id in &CLIENTS {
        let (mut c, mut s) = pair(Some((id.cert, id.key)), id.ca, true);
        run(&mut c, &mut s).unwrap();
        assert_eq!(s.negotiated().unwrap().client_auth, Some(id.scheme));
        assert_eq!(c.negotiated().unwrap().client_auth, Some(id.scheme));
        c.write(b"authenticated").unwrap();
        pump(&mut c, &mut s).unwrap();
        let mut buf = [0u8; 32];
        assert_eq!(s.read(&mut buf).unwrap(), 13);
    }
}

#[test]
fn optional_client_auth_lets_a_client_without_certificate_through() {
    let (mut c, mut s) = pair(None, data!("ca.der"), false);
    run(&mut c, &mut s).unwrap();
    assert_eq!(s.negotiated().unwrap().client_auth, None);
    assert_eq!(c.negotiated().unwrap().client_auth, None);
}

#[test]
fn required_client_auth_without_certificate_is_certificate_required() {
    let (mut c, mut s) = pair(None, data!("ca.der"), true);
    assert_eq!(
        run(&mut c, &mut s),
        Err((
            Error::InvalidCertificate(CertificateError::NoCertificate),
            Error::AlertReceived(AlertDescription::CERTIFICATE_REQUIRED)
        ))
    );
    assert_eq!(s.want(), Want::Failed);
    assert!(s.negotiated().is_none(), "the server never completed");
}

#[test]
fn client_certificate_from_an_unknown_root_is_unknown_ca() {
    let id = &CLIENTS[1];
    let (mut c, mut s) = pair(Some((id.cert, id.key)), data!("ca-rsa.der"), true);
    assert_eq!(
        run(&mut c, &mut s),
        Err((
            Error::InvalidCertificate(CertificateError::UnknownIssuer),
            Error::AlertReceived(AlertDescription::UNKNOWN_CA)
        ))
    );
}

#[test]
fn client_key_not_matching_its_certificate_is_decrypt_error() {
    let (cert, ca) = (CLIENTS[1].cert, CLIENTS[1].ca);
    let wrong_key = data!("server-p256.key.der");
    let (mut c, mut s) = pair(Some((cert, wrong_key)), ca, true);
    assert_eq!(
        run(&mut c, &mut s),
        Err((
            Error::PeerMisbehaved(PeerMisbehaved::BadSignature),
            Error::AlertReceived(AlertDescription::DECRYPT_ERROR)
        ))
    );
}

#[test]
fn a_server_certificate_is_not_a_client_certificate() {
    // serverAuth only: refused by the extended key usage check.
    let (mut c, mut s) = pair(
        Some((data!("server-p256.der"), data!("server-p256.key.der"))),
        data!("ca-p256.der"),
        true,
    );
    let (server_err, client_err) = run(&mut c, &mut s).unwrap_err();
    assert_eq!(server_err, Error::InvalidCertificate(CertificateError::InvalidPurpose));
    assert_eq!(client_err, Error::AlertReceived(AlertDescription::UNSUPPORTED_CERTIFICATE));
}

/// A resumed session keeps the client identity of the handshake that issued its ticket; with
/// client authentication required, a ticket from a session without one is not resumed.
#[test]
fn resumption_keeps_the_client_identity() {
    let id = &CLIENTS[1];
    let store: &'static MemoryTicketStore = leak(MemoryTicketStore::default());
    let key: &'static TicketKey = leak(TicketKey::new(&[8; 32]).unwrap());
    let run_tickets = |cert, required| {
        let t = Tickets {
            store: Some((store, key)),
            lifetime: 600,
            clock: &tls::SystemClock,
            max_auth_age: 604_800,
        };
        let (mut c, mut s) = pair_with_tickets(cert, leak([id.ca]), required, t);
        run(&mut c, &mut s).unwrap();
        pump(&mut s, &mut c).unwrap(); // the ticket
        let n = s.negotiated().unwrap();
        (n.resumed, n.client_auth)
    };
    let with_cert = Some((id.cert, id.key));
    assert_eq!(run_tickets(with_cert, true), (false, Some(id.scheme)));
    assert_eq!(run_tickets(with_cert, true), (true, Some(id.scheme)));
    // A session without a client certificate (optional auth) leaves an anonymous ticket,
    // which a server requiring authentication does not resume.
    store.forget("localhost");
    assert_eq!(run_tickets(None, false), (false, None));
    assert_eq!(run_tickets(None, false), (true, None));
    assert_eq!(run_tickets(with_cert, true), (false, Some(id.scheme)));
}

/// RFC 8446 §4.6.1: a client's certificate authentication does not outlive seven days
/// (or the configured bound) through resumption. Each resumption issues fresh tickets, but
/// they carry the time of the handshake that checked the certificate: resuming a day at a
/// time, the seventh day needs a full handshake again, which starts a new seven days.
#[test]
fn client_authentication_expires_through_resumption() {
    for (max_auth_age, full_on) in [(604_800, &[0, 7][..]), (2 * 86_400, &[0, 2, 4, 6, 8][..])] {
        let resumed = resume_daily(max_auth_age);
        let full: Vec<u64> = (0..=8).filter(|d| !resumed[*d as usize]).collect();
        assert_eq!(full, full_on, "max_auth_age {max_auth_age}");
    }
}

/// Connects once a day for eight days with a client certificate and tickets living longer
/// than a day; returns for each day whether the server resumed.
fn resume_daily(max_auth_age: u32) -> Vec<bool> {
    let id = &CLIENTS[1];
    let store: &'static MemoryTicketStore = leak(MemoryTicketStore::default());
    let key: &'static TicketKey = leak(TicketKey::new(&[8; 32]).unwrap());
    let start = UnixTime::now().as_secs();
    let run_at = |secs: u64| {
        let now = UnixTime::since_unix_epoch(std::time::Duration::from_secs(start + secs));
        let t = Tickets {
            store: Some((store, key)),
            lifetime: 100_000,
            clock: leak(now),
            max_auth_age,
        };
        let (mut c, mut s) = pair_with_tickets(Some((id.cert, id.key)), leak([id.ca]), true, t);
        run(&mut c, &mut s).unwrap();
        pump(&mut s, &mut c).unwrap(); // the ticket
        let n = s.negotiated().unwrap();
        assert_eq!(n.client_auth, Some(id.scheme));
        n.resumed
    };
    (0..=8).map(|day| run_at(day * 86_400)).collect()
}

/// A ticket remembers the root the client's chain was verified to: a server that no longer
/// trusts that root does not resume the session (and the full handshake then refuses the
/// certificate); one that still trusts it, among other roots, does.
#[test]
fn a_server_that_dropped_the_clients_root_does_not_resume_its_session() {
    let id = &CLIENTS[1];
    let store: &'static MemoryTicketStore = leak(MemoryTicketStore::default());
    let key: &'static TicketKey = leak(TicketKey::new(&[8; 32]).unwrap());
    let connect = |roots: &'static [&'static [u8]]| {
        let t = Tickets {
            store: Some((store, key)),
            lifetime: 600,
            clock: &tls::SystemClock,
            max_auth_age: 604_800,
        };
        let (mut c, mut s) = pair_with_tickets(Some((id.cert, id.key)), roots, false, t);
        run(&mut c, &mut s)?;
        pump(&mut s, &mut c).unwrap(); // the ticket
        let n = s.negotiated().unwrap();
        Ok((n.resumed, n.client_auth))
    };
    assert_eq!(connect(leak([id.ca])), Ok((false, Some(id.scheme))));
    let more: &'static [&'static [u8]] = leak([data!("ca-rsa.der"), id.ca]);
    assert_eq!(connect(more), Ok((true, Some(id.scheme))), "the root is still trusted");
    let other: &'static [&'static [u8]] = leak([data!("ca-rsa.der"), data!("ca.der")]);
    assert_eq!(
        connect(other),
        Err((
            Error::InvalidCertificate(CertificateError::UnknownIssuer),
            Error::AlertReceived(AlertDescription::UNKNOWN_CA)
        ))
    );
}

/// A server can tell clients apart: after a full handshake it has the client's chain as
/// received (end-entity first) and the end-entity's SHA-256, and the client has the server's;
/// a resumed session gives each side the SHA-256 from its ticket (no chain was sent).
#[test]
fn each_side_sees_the_peers_certificate_and_a_resumed_session_its_digest() {
    let id = &CLIENTS[1];
    let store: &'static MemoryTicketStore = leak(MemoryTicketStore::default());
    let key: &'static TicketKey = leak(TicketKey::new(&[8; 32]).unwrap());
    let t = Tickets {
        store: Some((store, key)),
        lifetime: 600,
        clock: &tls::SystemClock,
        max_auth_age: 604_800,
    };
    let sha = |der: &[u8]| core_hash::Sha256::digest(der);
    let (mut c, mut s) = pair_with_tickets(Some((id.cert, id.key)), leak([id.ca]), true, t);
    assert_eq!(s.peer_identity(), None, "not before the handshake");
    run(&mut c, &mut s).unwrap();
    pump(&mut s, &mut c).unwrap(); // the ticket
    let Some(PeerIdentity::Certificate { end_entity_sha256, chain: Some(chain) }) =
        s.peer_identity()
    else {
        panic!("{:?}", s.peer_identity())
    };
    assert_eq!(end_entity_sha256, sha(id.cert));
    assert_eq!(chain.end_entity(), Some(id.cert));
    assert_eq!(chain.iter().collect::<Vec<_>>(), [id.cert]);
    let server_cert = data!("server.der");
    let Some(PeerIdentity::Certificate { end_entity_sha256, chain: Some(chain) }) =
        c.peer_identity()
    else {
        panic!("{:?}", c.peer_identity())
    };
    assert_eq!((end_entity_sha256, chain.end_entity()), (sha(server_cert), Some(&server_cert[..])));
    // Data (and a KeyUpdate) still flow with the chain kept in the handshake buffer.
    c.key_update().unwrap();
    c.write(b"still here").unwrap();
    pump(&mut c, &mut s).unwrap();
    assert_eq!(s.read(&mut [0; 32]).unwrap(), 10);

    let (mut c, mut s) = pair_with_tickets(Some((id.cert, id.key)), leak([id.ca]), true, t);
    run(&mut c, &mut s).unwrap();
    assert!(s.negotiated().unwrap().resumed);
    assert_eq!(
        s.peer_identity(),
        Some(PeerIdentity::Certificate { end_entity_sha256: sha(id.cert), chain: None })
    );
    // The client's ticket remembers the server's certificate the same way.
    assert_eq!(
        c.peer_identity(),
        Some(PeerIdentity::Certificate { end_entity_sha256: sha(server_cert), chain: None })
    );
}
