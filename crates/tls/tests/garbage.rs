//! No input panics a connection: arbitrary bytes fed to a fresh server or to a client after
//! its `ClientHello`, and every single-byte corruption of a real server flight, end in a typed
//! error (or a wait for more bytes), never a panic and never a finished handshake.

use core_ec::ed25519::SigningKey;
use core_hash::OsRandom;
use pki_types::CertificateDer;
use proptest::prelude::*;
use tls::{Buffers, ClientConfig, Connection, ServerConfig};

const CA: &[u8] = include_bytes!("data/ca.der");
const SERVER_CERT: &[u8] = include_bytes!("data/server.der");
const SERVER_SEED: &[u8; 32] = include_bytes!("data/server.seed");

fn feed(conn: &mut Connection<'_, '_>, bytes: &[u8]) -> Result<(), tls::Error> {
    for chunk in bytes.chunks(997) {
        let space = conn.receive_space();
        let n = chunk.len().min(space.len());
        space[..n].copy_from_slice(&chunk[..n]);
        conn.received(n)?;
    }
    Ok(())
}

/// A real server flight for a fresh client, and the client.
fn with_client(f: impl FnOnce(&mut Connection<'_, '_>, &[u8])) {
    let ca = CertificateDer::from(CA);
    let roots = [webpki::anchor_from_trusted_cert(&ca).unwrap()];
    let key = tls::SigningKey::Ed25519(SigningKey::from_seed(SERVER_SEED));
    let chain: [&[u8]; 1] = [SERVER_CERT];
    let (mut a, mut b, mut c) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
    let (mut d, mut e, mut g) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
    let config = ClientConfig::new(&roots, &tls::SystemClock);
    let mut client = Connection::client(
        config,
        "localhost",
        Buffers { received: &mut a, send: &mut b, handshake: &mut c },
        &mut OsRandom,
    )
    .unwrap();
    let certs = [tls::CertifiedKey { chain: &chain, key: &key }];
    let sconfig = ServerConfig::new(&certs);
    let mut server = Connection::server(
        sconfig,
        Buffers { received: &mut d, send: &mut e, handshake: &mut g },
        &mut OsRandom,
    )
    .unwrap();
    feed(&mut server, client.pending_send()).unwrap();
    let n = client.pending_send().len();
    client.sent(n);
    let flight = server.pending_send().to_vec();
    f(&mut client, &flight);
}

#[test]
fn every_byte_of_the_server_flight_matters() {
    // Corrupt position `at` of a flight made for the same client.
    let mut positions = 0;
    with_client(|_, flight| positions = flight.len());
    assert!(positions > 500, "the flight holds the whole first server flight");
    for at in (0..positions).step_by(7) {
        with_client(|client, flight| {
            let mut bad = flight.to_vec();
            if at < bad.len() {
                bad[at] ^= 0x41;
            }
            let r = feed(client, &bad);
            assert!(client.is_handshaking(), "corruption at {at} still completed");
            if r.is_ok() {
                // A corrupted length can leave the client waiting for bytes that never come.
                assert!(client.error().is_none());
            }
        });
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn server_survives_garbage(bytes in proptest::collection::vec(any::<u8>(), 0..3000)) {
        let key = tls::SigningKey::Ed25519(SigningKey::from_seed(SERVER_SEED));
        let chain: [&[u8]; 1] = [SERVER_CERT];
        let (mut d, mut e, mut g) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
        let certs = [tls::CertifiedKey { chain: &chain, key: &key }];
        let sconfig = ServerConfig::new(&certs);
        let mut server = Connection::server(sconfig, Buffers { received: &mut d, send: &mut e, handshake: &mut g }, &mut OsRandom).unwrap();
        let _ = feed(&mut server, &bytes);
        prop_assert!(server.is_handshaking());
    }

    #[test]
    fn server_survives_garbage_in_handshake_records(body in proptest::collection::vec(any::<u8>(), 0..600)) {
        let key = tls::SigningKey::Ed25519(SigningKey::from_seed(SERVER_SEED));
        let chain: [&[u8]; 1] = [SERVER_CERT];
        let (mut d, mut e, mut g) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
        let certs = [tls::CertifiedKey { chain: &chain, key: &key }];
        let sconfig = ServerConfig::new(&certs);
        let mut server = Connection::server(sconfig, Buffers { received: &mut d, send: &mut e, handshake: &mut g }, &mut OsRandom).unwrap();
        let mut rec = vec![22, 3, 3, (body.len() >> 8) as u8, body.len() as u8];
        rec.extend_from_slice(&body);
        let _ = feed(&mut server, &rec);
        prop_assert!(server.is_handshaking());
    }

    #[test]
    fn client_survives_garbage(bytes in proptest::collection::vec(any::<u8>(), 0..3000)) {
        with_client(|client, _| {
            let _ = feed(client, &bytes);
            assert!(client.is_handshaking());
        });
    }
}
