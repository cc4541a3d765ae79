//! `record_size_limit` (RFC 8449): a client that advertises a small limit gets application
//! data from the server in records no longer than it, and a bad limit is refused with the
//! right alert.

use core_hash::OsRandom;
use pki_types::{CertificateDer, TrustAnchor, UnixTime};
use tls::msgs::{AlertDescription, ContentType};
use tls::record::HEADER_LEN;
use tls::{
    Buffers, CertifiedKey, ClientConfig, Connection, Error, ServerConfig, SigningKey, suites,
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

fn pump(from: &mut Connection<'_, '_>, to: &mut Connection<'_, '_>) -> Result<(), Error> {
    let data = from.pending_send().to_vec();
    from.sent(data.len());
    for chunk in data.chunks(4000) {
        to.receive_space()[..chunk.len()].copy_from_slice(chunk);
        to.received(chunk.len())?;
    }
    Ok(())
}

fn pair(limit: Option<u16>) -> (Connection<'static, 'static>, Connection<'static, 'static>) {
    let config = ClientConfig {
        suites: suites::DEFAULT_SUITES,
        roots: anchor(include_bytes!("data/ca.der")),
        alpn: &[],
        groups: tls::kx::DEFAULT_GROUPS,
        now: UnixTime::now(),
        client_cert: None,
        tickets: None,
        psk_modes: &[],
        record_size_limit: limit,
    };
    let c = Connection::client(config, "localhost", bufs(), &mut OsRandom).unwrap();
    let key = leak(SigningKey::from_pkcs8_der(include_bytes!("data/server.key.der")).unwrap());
    let config = ServerConfig {
        suites: suites::DEFAULT_SUITES,
        certs: leak([CertifiedKey { chain: leak([&include_bytes!("data/server.der")[..]]), key }]),
        alpn: &[],
        groups: tls::kx::DEFAULT_GROUPS,
        client_auth: None,
        tickets: None,
    };
    let s = Connection::server(config, bufs(), &mut OsRandom).unwrap();
    (c, s)
}

/// The body lengths of the whole protected records in `data` (plaintext ones skipped).
fn record_lengths(data: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut at = 0;
    while at + HEADER_LEN <= data.len() {
        let protected = data[at] == ContentType::APPLICATION_DATA.0;
        let len = usize::from(u16::from_be_bytes([data[at + 3], data[at + 4]]));
        if !protected {
            at += HEADER_LEN + len;
            continue;
        }
        out.push(len);
        at += HEADER_LEN + len;
    }
    assert_eq!(at, data.len());
    out
}

#[test]
fn server_fragments_to_the_clients_limit() {
    let (mut c, mut s) = pair(Some(64));
    let mut server_records = Vec::new();
    for _ in 0..3 {
        pump(&mut c, &mut s).unwrap();
        server_records.extend(record_lengths(s.pending_send()));
        pump(&mut s, &mut c).unwrap();
    }
    assert!(!c.is_handshaking() && !s.is_handshaking());
    // The server's flight (its certificate is far over 63 bytes) arrived split, every
    // protected record within the limit, and the client reassembled it.
    assert!(server_records.len() > 10, "{server_records:?}");
    assert!(server_records.iter().all(|&l| l <= 64 + 16), "{server_records:?}");
    let msg: Vec<u8> = (0..1000u32).map(|i| i as u8).collect();
    assert_eq!(s.write(&msg).unwrap(), msg.len());
    let lens = record_lengths(s.pending_send());
    // 63 content bytes + type byte + 16-byte tag per full record.
    assert_eq!(lens.len(), msg.len().div_ceil(63));
    assert!(lens.iter().all(|&l| l <= 64 + 16), "{lens:?}");
    pump(&mut s, &mut c).unwrap();
    let mut got = vec![0; 2000];
    let mut n = 0;
    while n < msg.len() {
        let k = c.read(&mut got[n..]).unwrap();
        assert!(k > 0);
        n += k;
    }
    assert_eq!(&got[..n], &msg[..]);
}

#[test]
fn without_a_limit_records_are_full_size() {
    let (mut c, mut s) = pair(None);
    for _ in 0..3 {
        pump(&mut c, &mut s).unwrap();
        pump(&mut s, &mut c).unwrap();
    }
    let msg = vec![7u8; 1000];
    assert_eq!(s.write(&msg).unwrap(), msg.len());
    assert_eq!(record_lengths(s.pending_send()).len(), 1);
}

#[test]
fn a_limit_below_64_is_illegal_parameter() {
    let (mut c, mut s) = pair(Some(63));
    let err = pump(&mut c, &mut s).unwrap_err();
    assert_eq!(err.alert(), Some(AlertDescription::ILLEGAL_PARAMETER));
}
