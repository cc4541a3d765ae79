//! In-process client ↔ server handshakes over memory for every suite, and the error paths:
//! unknown CA, wrong name, bad `CertificateVerify` signature, tampered record, truncated and
//! unexpected messages, and alerts reaching the peer as typed errors.

use core_ec::ed25519::SigningKey;
use core_hash::OsRandom;
use pki_types::{CertificateDer, TrustAnchor};
use tls::msgs::AlertDescription;
use tls::suites::{self, Suite};
use tls::{
    Buffers, CertificateError, ClientConfig, Connection, Error, PeerMisbehaved, ServerConfig, Want,
};

const CA: &[u8] = include_bytes!("data/ca.der");
const OTHER_CA: &[u8] = include_bytes!("data/other-ca.der");
const SERVER_CERT: &[u8] = include_bytes!("data/server.der");
const SERVER_SEED: &[u8; 32] = include_bytes!("data/server.seed");

fn anchor(der: &'static [u8]) -> TrustAnchor<'static> {
    let der: &'static CertificateDer<'static> = Box::leak(Box::new(CertificateDer::from(der)));
    webpki::anchor_from_trusted_cert(der).unwrap()
}

struct Bufs {
    rx: Vec<u8>,
    tx: Vec<u8>,
    hs: Vec<u8>,
}

impl Bufs {
    fn new() -> Self {
        Self { rx: vec![0; 17_000], tx: vec![0; 40_000], hs: vec![0; 8_000] }
    }
    fn get(&mut self) -> Buffers<'_> {
        Buffers { received: &mut self.rx, send: &mut self.tx, handshake: &mut self.hs }
    }
}

/// Moves everything `from` wants to send into `to`; returns `to`'s result.
fn pump(from: &mut Connection<'_, '_>, to: &mut Connection<'_, '_>) -> Result<bool, Error> {
    let mut moved = false;
    while !from.pending_send().is_empty() {
        let space = to.receive_space();
        let n = from.pending_send().len().min(space.len());
        if n == 0 {
            break;
        }
        space[..n].copy_from_slice(&from.pending_send()[..n]);
        from.sent(n);
        moved = true;
        to.received(n)?;
    }
    Ok(moved)
}

/// Runs the handshake to completion or the first error (which side, which error).
fn handshake(c: &mut Connection<'_, '_>, s: &mut Connection<'_, '_>) -> Result<(), (bool, Error)> {
    for _ in 0..10 {
        let a = pump(c, s).map_err(|e| (false, e))?;
        let b = pump(s, c).map_err(|e| (true, e))?;
        if !c.is_handshaking() && !s.is_handshaking() && c.pending_send().is_empty() {
            return Ok(());
        }
        if !a && !b {
            break;
        }
    }
    panic!("handshake stalled: client {:?} server {:?}", c.want(), s.want());
}

fn now() -> &'static tls::SystemClock {
    &tls::SystemClock
}

struct Setup {
    roots: Vec<TrustAnchor<'static>>,
    key: tls::SigningKey,
    chain: Vec<&'static [u8]>,
}

impl Setup {
    fn new() -> Self {
        Self {
            roots: vec![anchor(CA)],
            key: tls::SigningKey::Ed25519(SigningKey::from_seed(SERVER_SEED)),
            chain: vec![SERVER_CERT],
        }
    }
}

fn client_config<'a>(s: &'a Setup, suites: &'a [Suite], alpn: &'a [&'a [u8]]) -> ClientConfig<'a> {
    ClientConfig { suites, alpn, ..ClientConfig::new(&s.roots, now()) }
}

fn server_config<'a>(s: &'a Setup, suites: &'a [Suite], alpn: &'a [&'a [u8]]) -> ServerConfig<'a> {
    ServerConfig {
        suites,
        alpn,
        ..ServerConfig::new(Box::leak(Box::new([tls::CertifiedKey {
            chain: &s.chain,
            key: &s.key,
        }])))
    }
}

fn exchange(c: &mut Connection<'_, '_>, s: &mut Connection<'_, '_>, msg: &[u8]) {
    assert_eq!(c.write(msg).unwrap(), msg.len());
    let mut got = Vec::new();
    let mut buf = [0u8; 700];
    loop {
        pump(c, s).unwrap();
        // `want()` says Send first when the reader also has records queued (a KeyUpdate
        // answer), so read until nothing is left rather than while it says Read.
        loop {
            let n = s.read(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            got.extend_from_slice(&buf[..n]);
        }
        if c.pending_send().is_empty() {
            break;
        }
    }
    assert!(got == msg, "received {} bytes of {}", got.len(), msg.len());
}

#[test]
fn every_suite_completes_and_carries_data() {
    let setup = Setup::new();
    for suite in suites::ALL_SUITES {
        let suites = [*suite];
        let (mut cb, mut sb) = (Bufs::new(), Bufs::new());
        let alpn: [&[u8]; 2] = [b"h2", b"http/1.1"];
        let server_alpn: [&[u8]; 1] = [b"http/1.1"];
        let mut c = Connection::client(
            client_config(&setup, &suites, &alpn),
            "localhost",
            cb.get(),
            &mut OsRandom,
        )
        .unwrap();
        let mut s = Connection::server(
            server_config(&setup, &suites, &server_alpn),
            sb.get(),
            &mut OsRandom,
        )
        .unwrap();
        handshake(&mut c, &mut s).unwrap();
        let (cn, sn) = (c.negotiated().unwrap(), s.negotiated().unwrap());
        assert_eq!(cn.suite, suite.suite);
        assert_eq!(sn.suite, suite.suite);
        assert_eq!(cn.alpn, Some(1), "client sees http/1.1");
        assert_eq!(sn.alpn, Some(0));
        assert_eq!(s.server_name(), Some("localhost"));
        exchange(&mut c, &mut s, b"hello from the client");
        exchange(&mut s, &mut c, &vec![0x5a; 30_000]);
        // KeyUpdate in both directions.
        c.key_update().unwrap();
        exchange(&mut c, &mut s, b"after client update");
        pump(&mut s, &mut c).unwrap(); // the server's answering KeyUpdate
        exchange(&mut s, &mut c, b"after server update");
        s.key_update().unwrap();
        exchange(&mut s, &mut c, b"again");
        pump(&mut c, &mut s).unwrap();
        exchange(&mut c, &mut s, b"and back");
        c.close();
        pump(&mut c, &mut s).unwrap();
        assert_eq!(s.want(), Want::Closed);
    }
}

#[cfg(all(feature = "aes-gcm", feature = "chacha20"))]
#[test]
fn suite_preference_is_the_servers() {
    let setup = Setup::new();
    let (mut cb, mut sb) = (Bufs::new(), Bufs::new());
    let client_suites = [suites::TLS13_AES_128_GCM_SHA256, suites::TLS13_CHACHA20_POLY1305_SHA256];
    let server_suites = [suites::TLS13_CHACHA20_POLY1305_SHA256, suites::TLS13_AES_128_GCM_SHA256];
    let mut c = Connection::client(
        client_config(&setup, &client_suites, &[]),
        "test.halite",
        cb.get(),
        &mut OsRandom,
    )
    .unwrap();
    let mut s =
        Connection::server(server_config(&setup, &server_suites, &[]), sb.get(), &mut OsRandom)
            .unwrap();
    handshake(&mut c, &mut s).unwrap();
    assert_eq!(c.negotiated().unwrap().suite, suites::TLS13_CHACHA20_POLY1305_SHA256.suite);
    assert_eq!(c.negotiated().unwrap().alpn, None);
}

fn failing(
    setup: &Setup,
    roots: &[TrustAnchor<'_>],
    name: &str,
) -> ((bool, Error), Connection<'static, 'static>) {
    let suites = suites::DEFAULT_SUITES;
    let cb: &'static mut Bufs = Box::leak(Box::new(Bufs::new()));
    let sb: &'static mut Bufs = Box::leak(Box::new(Bufs::new()));
    let setup: &'static Setup = Box::leak(Box::new(Setup {
        roots: setup.roots.clone(),
        key: match &setup.key {
            tls::SigningKey::Ed25519(k) => {
                tls::SigningKey::Ed25519(SigningKey::from_seed(k.seed()))
            }
            _ => unreachable!("the tests here use Ed25519"),
        },
        chain: setup.chain.clone(),
    }));
    let roots: &'static [TrustAnchor<'static>] = Box::leak(
        roots
            .iter()
            .map(|r| TrustAnchor {
                subject: r.subject.to_vec().into(),
                subject_public_key_info: r.subject_public_key_info.to_vec().into(),
                name_constraints: None,
            })
            .collect::<Vec<_>>()
            .into_boxed_slice(),
    );
    let name: &'static str = Box::leak(name.to_string().into_boxed_str());
    let mut c = Connection::client(
        ClientConfig { suites, ..ClientConfig::new(roots, now()) },
        name,
        cb.get(),
        &mut OsRandom,
    )
    .unwrap();
    let mut s =
        Connection::server(server_config(setup, suites, &[]), sb.get(), &mut OsRandom).unwrap();
    let e = handshake(&mut c, &mut s).unwrap_err();
    // The failing side's alert reaches the other side as a typed error.
    let _ = pump(&mut c, &mut s);
    (e, s)
}

#[test]
fn unknown_ca_is_refused_and_alerted() {
    let setup = Setup::new();
    let (e, s) = failing(&setup, &[anchor(OTHER_CA)], "localhost");
    assert_eq!(e, (true, Error::InvalidCertificate(CertificateError::UnknownIssuer)));
    assert_eq!(s.error(), Some(Error::AlertReceived(AlertDescription::UNKNOWN_CA)));
}

#[test]
fn wrong_name_is_refused() {
    let setup = Setup::new();
    let (e, s) = failing(&setup, &setup.roots, "example.com");
    assert_eq!(e, (true, Error::InvalidCertificate(CertificateError::NotValidForName)));
    assert_eq!(s.error(), Some(Error::AlertReceived(AlertDescription::BAD_CERTIFICATE)));
}

#[test]
fn bad_certificate_verify_signature_is_refused() {
    let mut setup = Setup::new();
    setup.key = tls::SigningKey::Ed25519(SigningKey::from_seed(&[7; 32]));
    let (e, s) = failing(&setup, &Setup::new().roots, "localhost");
    assert_eq!(e, (true, Error::PeerMisbehaved(PeerMisbehaved::BadSignature)));
    assert_eq!(s.error(), Some(Error::AlertReceived(AlertDescription::DECRYPT_ERROR)));
}

#[test]
fn tampered_record_releases_nothing() {
    let setup = Setup::new();
    let suites = suites::DEFAULT_SUITES;
    let (mut cb, mut sb) = (Bufs::new(), Bufs::new());
    let mut c = Connection::client(
        client_config(&setup, suites, &[]),
        "localhost",
        cb.get(),
        &mut OsRandom,
    )
    .unwrap();
    let mut s =
        Connection::server(server_config(&setup, suites, &[]), sb.get(), &mut OsRandom).unwrap();
    handshake(&mut c, &mut s).unwrap();
    c.write(b"attack at dawn").unwrap();
    let mut rec = c.pending_send().to_vec();
    c.sent(rec.len());
    rec[10] ^= 1;
    let space = s.receive_space();
    space[..rec.len()].copy_from_slice(&rec);
    assert_eq!(s.received(rec.len()), Err(Error::DecryptFailed));
    let mut out = [0u8; 64];
    assert_eq!(s.read(&mut out), Err(Error::DecryptFailed), "sticky");
    assert_eq!(s.want(), Want::Send, "the bad_record_mac alert is queued");
    pump(&mut s, &mut c).unwrap_err();
    assert_eq!(c.error(), Some(Error::AlertReceived(AlertDescription::BAD_RECORD_MAC)));
}

#[test]
fn unexpected_and_truncated_messages_are_refused() {
    let setup = Setup::new();
    let suites = suites::DEFAULT_SUITES;
    // A Finished where a ClientHello belongs.
    let mut sb = Bufs::new();
    let mut s =
        Connection::server(server_config(&setup, suites, &[]), sb.get(), &mut OsRandom).unwrap();
    let rec = [22, 3, 3, 0, 8, 20, 0, 0, 4, 1, 2, 3, 4];
    s.receive_space()[..rec.len()].copy_from_slice(&rec);
    assert_eq!(
        s.received(rec.len()),
        Err(Error::PeerMisbehaved(PeerMisbehaved::UnexpectedMessage))
    );
    assert_eq!(s.pending_send(), [21, 3, 3, 0, 2, 2, 10], "unexpected_message alert");

    // A ClientHello whose body is cut short (its own length says more than it holds).
    let mut cb = Bufs::new();
    let c = Connection::client(
        client_config(&setup, suites, &[]),
        "localhost",
        cb.get(),
        &mut OsRandom,
    )
    .unwrap();
    let mut ch = c.pending_send()[5..].to_vec();
    ch.truncate(ch.len() - 3);
    ch[3] -= 3; // handshake length now matches, the extensions block does not
    let mut rec = vec![22, 3, 3, (ch.len() >> 8) as u8, ch.len() as u8];
    rec.extend_from_slice(&ch);
    let mut sb = Bufs::new();
    let mut s =
        Connection::server(server_config(&setup, suites, &[]), sb.get(), &mut OsRandom).unwrap();
    s.receive_space()[..rec.len()].copy_from_slice(&rec);
    assert!(matches!(s.received(rec.len()), Err(Error::InvalidMessage(_))));
    assert_eq!(s.pending_send(), [21, 3, 3, 0, 2, 2, 50], "decode_error alert");

    // Application data before the handshake.
    let mut sb = Bufs::new();
    let mut s =
        Connection::server(server_config(&setup, suites, &[]), sb.get(), &mut OsRandom).unwrap();
    let rec = [23, 3, 3, 0, 1, 0];
    s.receive_space()[..rec.len()].copy_from_slice(&rec);
    assert_eq!(
        s.received(rec.len()),
        Err(Error::PeerMisbehaved(PeerMisbehaved::UnexpectedMessage))
    );
}

#[test]
fn writing_before_the_handshake_is_api_misuse() {
    let setup = Setup::new();
    let mut cb = Bufs::new();
    let mut c = Connection::client(
        client_config(&setup, suites::DEFAULT_SUITES, &[]),
        "localhost",
        cb.get(),
        &mut OsRandom,
    )
    .unwrap();
    assert_eq!(c.want(), Want::Send);
    assert_eq!(c.write(b"x"), Err(Error::ApiMisuse(tls::ApiMisuse::HandshakeNotComplete)));
}

#[cfg(all(feature = "aes-gcm", feature = "chacha20"))]
#[test]
fn incompatible_peers_get_the_right_alert() {
    let setup = Setup::new();
    // No common suite.
    let (mut cb, mut sb) = (Bufs::new(), Bufs::new());
    let cs = [suites::TLS13_AES_128_GCM_SHA256];
    let ss = [suites::TLS13_CHACHA20_POLY1305_SHA256];
    let mut c =
        Connection::client(client_config(&setup, &cs, &[]), "localhost", cb.get(), &mut OsRandom)
            .unwrap();
    let mut s =
        Connection::server(server_config(&setup, &ss, &[]), sb.get(), &mut OsRandom).unwrap();
    assert_eq!(
        handshake(&mut c, &mut s),
        Err((false, Error::PeerIncompatible(tls::PeerIncompatible::NoCommonSuite)))
    );
    assert_eq!(
        pump(&mut s, &mut c),
        Err(Error::AlertReceived(AlertDescription::HANDSHAKE_FAILURE))
    );

    // No common ALPN protocol.
    let (mut cb, mut sb) = (Bufs::new(), Bufs::new());
    let ca: [&[u8]; 1] = [b"h2"];
    let sa: [&[u8]; 1] = [b"http/1.1"];
    let ds = suites::DEFAULT_SUITES;
    let mut c =
        Connection::client(client_config(&setup, ds, &ca), "localhost", cb.get(), &mut OsRandom)
            .unwrap();
    let mut s =
        Connection::server(server_config(&setup, ds, &sa), sb.get(), &mut OsRandom).unwrap();
    assert_eq!(
        handshake(&mut c, &mut s),
        Err((false, Error::PeerIncompatible(tls::PeerIncompatible::NoCommonAlpn)))
    );
    assert_eq!(
        pump(&mut s, &mut c),
        Err(Error::AlertReceived(AlertDescription::NO_APPLICATION_PROTOCOL))
    );
}
