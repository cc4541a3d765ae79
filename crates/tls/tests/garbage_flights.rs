//! Corruptions of the flights the newer handshake paths add, one byte at a time: the client's
//! second flight with a certificate (Certificate, CertificateVerify, Finished) fed to a server
//! that requires one, a ClientHello offering a ticket fed to a server that issued it, and a
//! resumed server flight fed to the client. Nothing panics, and no corrupted flight completes
//! a handshake.

#![allow(clippy::doc_markdown)] // protocol message names are prose here

use core_hash::OsRandom;
use pki_types::{CertificateDer, TrustAnchor};
use tls::ticket::{MemoryTicketStore, TicketKey};
use tls::{
    Buffers, CertifiedKey, ClientAuth, ClientConfig, Connection, Error, ServerConfig,
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

fn anchor(der: &'static [u8]) -> &'static [TrustAnchor<'static>] {
    let der = leak(CertificateDer::from(der));
    leak([webpki::anchor_from_trusted_cert(der).unwrap()])
}

fn feed(to: &mut Connection<'_, '_>, data: &[u8]) -> Result<(), Error> {
    for chunk in data.chunks(4000) {
        to.receive_space()[..chunk.len()].copy_from_slice(chunk);
        to.received(chunk.len())?;
    }
    Ok(())
}

fn pump(from: &mut Connection<'_, '_>, to: &mut Connection<'_, '_>) -> Result<(), Error> {
    let data = from.pending_send().to_vec();
    from.sent(data.len());
    feed(to, &data)
}

struct World {
    store: &'static MemoryTicketStore,
    ticket_key: &'static TicketKey,
}

impl World {
    fn new() -> Self {
        Self {
            store: leak(MemoryTicketStore::default()),
            ticket_key: leak(TicketKey::new(&[1; 32]).unwrap()),
        }
    }

    fn pair(
        &self,
        client_auth: bool,
    ) -> (Connection<'static, 'static>, Connection<'static, 'static>) {
        let client_cert = client_auth.then(|| CertifiedKey {
            chain: leak([&include_bytes!("data/client-p256.der")[..]]),
            key: leak(
                SigningKey::from_pkcs8_der(include_bytes!("data/client-p256.key.der")).unwrap(),
            ),
        });
        // X25519 only: the corrupted flights are walked byte by byte.
        let config = ClientConfig {
            client_cert,
            tickets: Some(self.store),
            groups: tls::kx::CLASSICAL_GROUPS,
            ..ClientConfig::new(anchor(include_bytes!("data/ca.der")), &tls::SystemClock)
        };
        let c = Connection::client(config, "localhost", bufs(), &mut OsRandom).unwrap();
        let key = leak(SigningKey::from_pkcs8_der(include_bytes!("data/server.key.der")).unwrap());
        let config = ServerConfig {
            client_auth: client_auth.then(|| {
                ClientAuth::new(anchor(include_bytes!("data/ca-p256.der")), &tls::SystemClock)
            }),
            tickets: Some(ServerTickets {
                key: self.ticket_key,
                lifetime: 600,
                count: 1,
                clock: &tls::SystemClock,
                psk_ke: false,
                max_auth_age: 604_800,
            }),
            ..ServerConfig::new(leak([CertifiedKey {
                chain: leak([&include_bytes!("data/server.der")[..]]),
                key,
            }]))
        };
        let s = Connection::server(config, bufs(), &mut OsRandom).unwrap();
        (c, s)
    }

    /// A full handshake that leaves a ticket in the store.
    fn full(&self) {
        let (mut c, mut s) = self.pair(false);
        for _ in 0..4 {
            pump(&mut c, &mut s).unwrap();
            pump(&mut s, &mut c).unwrap();
        }
        assert!(!c.is_handshaking() && !s.is_handshaking());
    }
}

#[test]
fn corrupted_client_certificate_flights_never_complete() {
    let world = World::new();
    let (mut c, mut s) = world.pair(true);
    pump(&mut c, &mut s).unwrap();
    pump(&mut s, &mut c).unwrap();
    let len = c.pending_send().len();
    assert!(len > 400, "Certificate, CertificateVerify and Finished");
    for at in (0..len).step_by(5) {
        let (mut c, mut s) = world.pair(true);
        pump(&mut c, &mut s).unwrap();
        pump(&mut s, &mut c).unwrap();
        let mut flight = c.pending_send().to_vec();
        c.sent(flight.len());
        // ECDSA signatures vary in length by a byte or two between runs.
        if at >= flight.len() {
            continue;
        }
        flight[at] ^= 0x24;
        let r = feed(&mut s, &flight);
        assert!(s.is_handshaking(), "corruption at {at} completed");
        assert!(r.is_err() || s.error().is_none());
    }
}

#[test]
fn corrupted_resumption_hellos_never_panic() {
    let world = World::new();
    world.full();
    let (c, _) = world.pair(false);
    let len = c.pending_send().len();
    world.full(); // `pair` took the ticket; put one back
    for at in (0..len).step_by(3) {
        let (mut c, mut s) = world.pair(false);
        let mut hello = c.pending_send().to_vec();
        c.sent(hello.len());
        if at < hello.len() {
            hello[at] ^= 0x81;
        }
        // A typed error, a fallback to a full handshake or a retry: never a panic.
        let _ = feed(&mut s, &hello);
        assert!(s.is_handshaking());
        world.full();
    }
}

#[test]
fn corrupted_resumed_server_flights_never_complete() {
    let world = World::new();
    world.full();
    let (mut c, mut s) = world.pair(false);
    pump(&mut c, &mut s).unwrap();
    let flight = s.pending_send().to_vec();
    let len = flight.len();
    assert!(len < 600, "a resumed flight has no certificate");
    // The legacy_record_version bytes of the plaintext records (ServerHello and the
    // change_cipher_spec) are ignored by design (RFC 8446 §5.1); every other byte counts.
    let mut ignored = Vec::new();
    let mut o = 0;
    while o + 5 <= len {
        if matches!(flight[o], 20 | 22) {
            ignored.extend([o + 1, o + 2]);
        }
        o += 5 + (usize::from(flight[o + 3]) << 8 | usize::from(flight[o + 4]));
    }
    for at in (0..len).step_by(2).filter(|at| !ignored.contains(at)) {
        world.full();
        let (mut c, mut s) = world.pair(false);
        pump(&mut c, &mut s).unwrap();
        let mut flight = s.pending_send().to_vec();
        s.sent(flight.len());
        if at >= flight.len() {
            continue;
        }
        flight[at] ^= 0x10;
        let r = feed(&mut c, &flight);
        assert!(c.is_handshaking(), "corruption at {at} completed");
        assert!(r.is_err() || c.error().is_none());
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

    /// Arbitrary bytes, and arbitrary handshake records, to a server with every feature on
    /// (client authentication, tickets, psk_ke) never panic or complete a handshake.
    #[test]
    fn full_featured_server_survives_garbage(
        bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..2000),
        as_record in proptest::prelude::any::<bool>(),
    ) {
        let world = World::new();
        let (_, mut s) = world.pair(true);
        let mut input = Vec::new();
        if as_record {
            let n = bytes.len().min(0xffff);
            input.extend_from_slice(&[22, 3, 3, (n >> 8) as u8, n as u8]);
        }
        input.extend_from_slice(&bytes);
        let _ = feed(&mut s, &input);
        proptest::prop_assert!(s.is_handshaking());
    }

    /// Arbitrary bytes to a client that offered a ticket and holds a client certificate.
    #[test]
    fn full_featured_client_survives_garbage(
        bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..2000),
    ) {
        let world = World::new();
        world.full();
        let (mut c, _) = world.pair(true);
        c.sent(c.pending_send().len());
        let _ = feed(&mut c, &bytes);
        proptest::prop_assert!(c.is_handshaking());
    }
}
