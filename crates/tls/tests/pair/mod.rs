//! An in-memory client and server pair for the key-exchange group tests (`groups.rs`,
//! `hybrid.rs`): the Ed25519 test identity, buffers, record pumping, a full handshake, and
//! the hand-made HelloRetryRequest and ServerHello records those tests feed the client.

#![allow(dead_code)] // each test binary uses its own part of this module

use core_ec::ed25519::SigningKey;
use core_hash::OsRandom;
use pki_types::{CertificateDer, TrustAnchor};
use tls::msgs::{
    AlertDescription, Codec, HELLO_RETRY_REQUEST_RANDOM, HandshakeMessage, NamedGroup,
    ProtocolVersion, ServerHello, ServerHelloExtensions, Writer,
};
use tls::suites;
use tls::{Buffers, ClientConfig, Connection, Error, ServerConfig};

pub(crate) const CA: &[u8] = include_bytes!("../data/ca.der");
pub(crate) const SERVER_CERT: &[u8] = include_bytes!("../data/server.der");
pub(crate) const SERVER_SEED: &[u8; 32] = include_bytes!("../data/server.seed");

pub(crate) struct Bufs([Vec<u8>; 3]);

impl Bufs {
    pub(crate) fn new() -> Self {
        Self([vec![0; 17_000], vec![0; 40_000], vec![0; 8_000]])
    }
    pub(crate) fn get(&mut self) -> Buffers<'_> {
        let [a, b, c] = &mut self.0;
        Buffers { received: a, send: b, handshake: c }
    }
}

pub(crate) fn roots() -> Vec<TrustAnchor<'static>> {
    let der: &'static CertificateDer<'static> = Box::leak(Box::new(CertificateDer::from(CA)));
    vec![webpki::anchor_from_trusted_cert(der).unwrap()]
}

pub(crate) fn key() -> tls::SigningKey {
    tls::SigningKey::Ed25519(SigningKey::from_seed(SERVER_SEED))
}

pub(crate) fn client<'a, 'b>(
    roots: &'a [TrustAnchor<'a>],
    groups: &'a [NamedGroup],
    bufs: &'b mut Bufs,
) -> Connection<'a, 'b> {
    let config = ClientConfig { groups, ..ClientConfig::new(roots, &tls::SystemClock) };
    Connection::client(config, "localhost", bufs.get(), &mut OsRandom).unwrap()
}

pub(crate) fn server<'a, 'b>(
    key: &'a tls::SigningKey,
    chain: &'a [&'a [u8]],
    groups: &'a [NamedGroup],
    bufs: &'b mut Bufs,
) -> Connection<'a, 'b> {
    let config = ServerConfig {
        groups,
        ..ServerConfig::new(Box::leak(Box::new([tls::CertifiedKey { chain, key }])))
    };
    Connection::server(config, bufs.get(), &mut OsRandom).unwrap()
}

/// Moves `from`'s pending records into `to`.
pub(crate) fn pump(
    from: &mut Connection<'_, '_>,
    to: &mut Connection<'_, '_>,
) -> Result<bool, Error> {
    let data = from.pending_send().to_vec();
    from.sent(data.len());
    feed(to, &data)?;
    Ok(!data.is_empty())
}

pub(crate) fn feed(to: &mut Connection<'_, '_>, data: &[u8]) -> Result<(), Error> {
    to.receive_space()[..data.len()].copy_from_slice(data);
    to.received(data.len())
}

pub(crate) fn handshake(
    c: &mut Connection<'_, '_>,
    s: &mut Connection<'_, '_>,
) -> Result<(), (bool, Error)> {
    for _ in 0..10 {
        let a = pump(c, s).map_err(|e| (false, e))?;
        let b = pump(s, c).map_err(|e| (true, e))?;
        if !a && !b {
            break;
        }
    }
    assert!(!c.is_handshaking() && !s.is_handshaking(), "stalled");
    Ok(())
}

pub(crate) fn run(
    client_groups: &[NamedGroup],
    server_groups: &[NamedGroup],
) -> (NamedGroup, bool) {
    let (roots, key, chain) = (roots(), key(), [SERVER_CERT]);
    let (mut cb, mut sb) = (Bufs::new(), Bufs::new());
    let mut c = client(&roots, client_groups, &mut cb);
    let mut s = server(&key, &chain, server_groups, &mut sb);
    handshake(&mut c, &mut s).unwrap();
    let (cn, sn) = (c.negotiated().unwrap(), s.negotiated().unwrap());
    assert_eq!(cn.group, sn.group);
    assert_eq!(cn.retried, sn.retried);
    c.write(b"ping").unwrap();
    pump(&mut c, &mut s).unwrap();
    let mut buf = [0u8; 8];
    assert_eq!(s.read(&mut buf).unwrap(), 4);
    assert_eq!(&buf[..4], b"ping");
    (cn.group, cn.retried)
}

/// A plaintext HelloRetryRequest record.
pub(crate) fn hrr_record(
    session_id: &[u8],
    group: Option<NamedGroup>,
    cookie: Option<&[u8]>,
) -> Vec<u8> {
    let msg = HandshakeMessage::ServerHello(ServerHello {
        legacy_version: ProtocolVersion::TLSV1_2,
        random: HELLO_RETRY_REQUEST_RANDOM,
        session_id,
        cipher_suite: suites::TLS13_AES_128_GCM_SHA256.suite,
        extensions: ServerHelloExtensions {
            supported_version: Some(ProtocolVersion::TLSV1_3),
            selected_group: group,
            cookie,
            ..ServerHelloExtensions::default()
        },
    });
    let mut buf = [0u8; 512];
    let mut w = Writer::new(&mut buf);
    msg.encode(&mut w).unwrap();
    let n = w.len();
    let mut rec = vec![22, 3, 3, (n >> 8) as u8, n as u8];
    rec.extend_from_slice(&buf[..n]);
    rec
}

pub(crate) fn assert_refused(
    c: &mut Connection<'_, '_>,
    rec: &[u8],
    err: Error,
    alert: AlertDescription,
) {
    assert_eq!(feed(c, rec), Err(err));
    let out = c.pending_send();
    assert_eq!(out[out.len() - 7..], [21, 3, 3, 0, 2, 2, alert.0], "alert for {err:?}");
}

/// A real first server record (the ServerHello) for client `c` offering `group`, and where
/// the server's key share starts in it.
pub(crate) fn server_hello_for(c: &mut Connection<'_, '_>, group: NamedGroup) -> (Vec<u8>, usize) {
    let (key, chain) = (key(), [SERVER_CERT]);
    let mut sb = Bufs::new();
    let groups = [group];
    let mut s = server(&key, &chain, &groups, &mut sb);
    pump(c, &mut s).unwrap();
    let flight = s.pending_send().to_vec();
    let len = usize::from(flight[3]) << 8 | usize::from(flight[4]);
    let sh = flight[..5 + len].to_vec();
    let HandshakeMessage::ServerHello(parsed) = HandshakeMessage::decode(&sh[5..]).unwrap() else {
        panic!()
    };
    let share = parsed.extensions.key_share.unwrap().key;
    let at = share.as_ptr() as usize - parsed.session_id.as_ptr() as usize;
    // Offset of the share in `sh`: the session id sits at 5 + 4 + 2 + 32 + 1.
    (sh, 5 + 4 + 2 + 32 + 1 + at)
}
