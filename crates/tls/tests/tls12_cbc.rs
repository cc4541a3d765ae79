//! The TLS 1.2 CBC suites (`cbc` feature): refused without `enable_cbc`; every suite in
//! memory between Halite's client and server, with encrypt_then_mac (which both always take)
//! and without it (the server's `cbc_decline_etm` test knob: MAC-then-encrypt); tampered
//! records (a flipped MAC or ciphertext byte, a short record) ending in bad_record_mac in
//! both; and interop with `openssl s_server` / `s_client -tls1_2` in both roles,
//! with encrypt_then_mac and without it (`-no_etm`: MAC-then-encrypt, opened in constant
//! time). The OpenSSL rounds are skipped, with the reason printed, without `openssl`.
#![allow(clippy::doc_markdown)] // protocol names (encrypt_then_mac, bad_record_mac) are prose

mod pair;
mod peer;

use std::io::Write;
use std::process::Stdio;

use core_hash::OsRandom;
use pair::{anchors, buffers, certified, connect, handshake, leak, pump, pump_with};
use peer::{
    accept, connect_retrying, data, get_page, listen, openssl_available, read, s_client, s_server,
    serve_s_client,
};
use tls::msgs::{AlertDescription, NamedGroup, ProtocolVersion};
use tls::suites::tls12::{self as s12, Auth, Suite12};
use tls::ticket::{MemoryTicketStore, TicketKey, TicketStore};
use tls::{ApiMisuse, ClientConfig, Connection, Error, ServerConfig, ServerTickets, Stream};

const ONLY12: [ProtocolVersion; 1] = [ProtocolVersion::TLSV1_2];

/// The CA (DER) and the server's certificate and key for `auth`.
fn identity(auth: Auth) -> (&'static [u8], &'static str) {
    match auth {
        Auth::Ecdsa => (read("ca-p256.der"), "server-p256"),
        Auth::Rsa => (read("ca-rsa.der"), "server-rsa"),
    }
}

fn client(suite: Suite12) -> ClientConfig<'static> {
    let (ca, _) = identity(suite.auth);
    ClientConfig {
        versions: &ONLY12,
        suites12: leak([suite]),
        enable_cbc: true,
        ..ClientConfig::new(anchors(&[ca]), &tls::SystemClock)
    }
}

fn server(auth: Auth) -> ServerConfig<'static> {
    let (_, stem) = identity(auth);
    let cert = certified(read(&format!("{stem}.der")), read(&format!("{stem}.key.der")));
    ServerConfig {
        versions: &ONLY12,
        suites12: s12::CBC_SUITES12,
        enable_cbc: true,
        ..ServerConfig::new(leak([cert]))
    }
}

#[test]
fn cbc_suites_are_refused_without_enable_cbc() {
    let (ca, _) = identity(Auth::Ecdsa);
    let cc = ClientConfig {
        suites12: s12::CBC_SUITES12,
        ..ClientConfig::new(anchors(&[ca]), &tls::SystemClock)
    };
    let err = Connection::client(cc, "localhost", buffers(), &mut OsRandom).unwrap_err();
    assert_eq!(err, Error::ApiMisuse(ApiMisuse::CbcNotEnabled));
    let sc = ServerConfig { enable_cbc: false, ..server(Auth::Ecdsa) };
    let err = Connection::server(sc, buffers(), &mut OsRandom).unwrap_err();
    assert_eq!(err, Error::ApiMisuse(ApiMisuse::CbcNotEnabled));
    // Not in any default list.
    for s in s12::CBC_SUITES12 {
        assert!(!s12::DEFAULT_SUITES12.contains(s) && !s12::ALL_SUITES12.contains(s));
        assert_eq!(s12::by_name(s.openssl_name()), Some(*s));
    }
}

/// Application data both ways, one message longer than a record.
fn exchange(c: &mut Connection<'_, '_>, s: &mut Connection<'_, '_>, what: &str) {
    let big: Vec<u8> = (0..40_000u32).map(|i| i as u8).collect();
    let mut buf = vec![0u8; 20_000];
    for msg in [&b"ping"[..], &big[..100], &big] {
        let (mut at, mut got) = (0, Vec::new());
        while at < msg.len() {
            at += c.write(&msg[at..]).unwrap();
            pump(c, s).unwrap();
            while got.len() < at {
                let n = s.read(&mut buf).unwrap();
                got.extend_from_slice(&buf[..n]);
            }
        }
        assert_eq!(got, msg, "{what}");
    }
    s.write(b"pong").unwrap();
    pump(s, c).unwrap();
    let mut buf = [0u8; 8];
    assert_eq!(c.read(&mut buf).unwrap(), 4, "{what}");
}

/// Sends the ClientHello and returns whether the ServerHello (the server's first record)
/// carries encrypt_then_mac (type 22, empty).
fn server_hello_has_etm(c: &mut Connection<'_, '_>, s: &mut Connection<'_, '_>) -> bool {
    pump(c, s).unwrap();
    let flight = s.pending_send();
    let len = usize::from(u16::from_be_bytes([flight[3], flight[4]]));
    assert_eq!(flight[5], 2, "a ServerHello");
    flight[5..5 + len].windows(4).any(|w| w == [0, 22, 0, 0])
}

/// A handshake of `suite` in memory, with encrypt_then_mac or with the server declining it.
fn connected(
    suite: Suite12,
    etm: bool,
) -> (Connection<'static, 'static>, Connection<'static, 'static>) {
    let sc = ServerConfig { cbc_decline_etm: !etm, ..server(suite.auth) };
    let (mut c, mut s) = connect(client(suite), sc);
    let what = format!("{} etm {etm}", suite.iana_name());
    assert_eq!(server_hello_has_etm(&mut c, &mut s), etm, "{what}");
    handshake(&mut c, &mut s).unwrap_or_else(|e| panic!("{what}: {e:?}"));
    (c, s)
}

#[test]
fn every_cbc_suite_in_memory_with_and_without_encrypt_then_mac() {
    for &suite in s12::CBC_SUITES12 {
        for etm in [true, false] {
            let (mut c, mut s) = connected(suite, etm);
            let (cn, sn) = (c.negotiated().unwrap(), s.negotiated().unwrap());
            assert_eq!((cn.suite, sn.suite), (suite.suite, suite.suite));
            assert_eq!(cn.version, ProtocolVersion::TLSV1_2);
            exchange(&mut c, &mut s, &format!("{} etm {etm}", suite.iana_name()));
        }
    }
}

/// A change to the records in flight.
type Tamper = dyn Fn(&mut Vec<u8>);

/// A record whose byte `at` (counted from the end) is flipped, or which is cut short, is
/// bad_record_mac, MAC-then-encrypt or encrypt-then-MAC, with each MAC length: the server
/// fails with `DecryptFailed`, stays failed, and tells the client so.
#[test]
fn tampered_records_are_bad_record_mac() {
    // From the end: the MAC's last byte (MAC-then-encrypt: the padding's), a ciphertext
    // byte, the IV's first byte.
    let flips: [&Tamper; 4] = [
        &|r| *r.last_mut().unwrap() ^= 1,
        &|r| {
            let n = r.len();
            r[n - 40] ^= 0x80;
        },
        &|r| r[5] ^= 1,
        // Cut to a block fewer: its length field too, so only the body is short.
        &|r| {
            let n = r.len() - 16;
            r.truncate(n);
            r[3..5].copy_from_slice(&((n - 5) as u16).to_be_bytes());
        },
    ];
    let suites = [
        s12::TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA,
        s12::TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256,
        s12::TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384,
    ];
    let cases = suites.into_iter().flat_map(|s| [(s, true), (s, false)]);
    for ((suite, etm), (i, flip)) in
        cases.flat_map(|c| flips.iter().enumerate().map(move |f| (c, f)))
    {
        let i = format!("{} etm {etm} case {i}", suite.iana_name());
        let (mut c, mut s) = connected(suite, etm);
        c.write(b"a secret that must not come out").unwrap();
        let err = pump_with(&mut c, &mut s, &mut |r| flip(r)).unwrap_err();
        assert_eq!(err, Error::DecryptFailed, "case {i}");
        let mut buf = [0u8; 64];
        assert!(s.read(&mut buf).is_err(), "case {i}: the error is sticky");
        // The alert goes out: bad_record_mac.
        let alert = s.pending_send().to_vec();
        assert_eq!(alert.first(), Some(&21), "case {i}: an alert record");
        let err = pump(&mut s, &mut c).unwrap_err();
        assert_eq!(err, Error::AlertReceived(AlertDescription::BAD_RECORD_MAC), "case {i}");
    }
}

/// RFC 7366 §3.1: a CBC session resumes with encrypt_then_mac as it was made; a client that
/// no longer offers it gets a full handshake from our server instead.
#[test]
fn a_cbc_session_resumes_only_with_encrypt_then_mac() {
    let suite = s12::TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA;
    let key = leak(TicketKey::new(&[7; 32]).unwrap());
    let sc = ServerConfig {
        tickets: Some(ServerTickets::new(key, &tls::SystemClock)),
        ..server(Auth::Rsa)
    };
    let store = leak(MemoryTicketStore::default());
    let cc = ClientConfig { tickets: Some(store as &dyn TicketStore), ..client(suite) };
    for resumed in [false, true] {
        let (mut c, mut s) = connect(cc, sc);
        handshake(&mut c, &mut s).unwrap();
        assert_eq!(s.negotiated().unwrap().resumed, resumed);
        exchange(&mut c, &mut s, "resumed");
    }
    // The same hello with encrypt_then_mac renamed to an unknown extension: the server's
    // answer is a full handshake (a Certificate, no ChangeCipherSpec).
    let mut c = Connection::client(cc, "localhost", buffers(), &mut OsRandom).unwrap();
    let mut s = Connection::server(sc, buffers(), &mut OsRandom).unwrap();
    pump_with(&mut c, &mut s, &mut |r| {
        let at = r.windows(4).rposition(|w| w == [0, 22, 0, 0]).expect("encrypt_then_mac");
        r[at] = 0xfe;
    })
    .unwrap();
    let flight = s.pending_send();
    assert!(!flight.windows(6).any(|w| w == [20, 3, 3, 0, 1, 1]), "no ChangeCipherSpec");
    assert!(s.error().is_none());
}

// ---- OpenSSL ----

/// Our client against `s_server -tls1_2` with `suite` (and `-no_etm` when `etm` is false).
fn openssl_server_round(suite: Suite12, etm: bool) {
    let id = if suite.auth == Auth::Ecdsa { "p256" } else { "rsa" };
    let cipher = suite.openssl_name();
    let mut args = vec!["-tls1_2", "-cipher", cipher, "-www", "-naccept", "1"];
    if !etm {
        args.push("-no_etm");
    }
    let (_server, port) = s_server(&format!("server-{id}"), &args, Stdio::null());
    let sock = connect_retrying(port);
    let groups = [NamedGroup::X25519, NamedGroup::SECP256R1];
    let config = ClientConfig { groups: &groups, ..client(suite) };
    let mut conn = Connection::client(config, "localhost", buffers(), &mut OsRandom).unwrap();
    let mut stream = Stream { conn: &mut conn, sock };
    let what = format!("{} etm {etm}", suite.iana_name());
    stream.handshake().unwrap_or_else(|e| panic!("{what}: {e}"));
    let page = get_page(&mut stream);
    assert!(page.contains(cipher), "{what}: s_server reports the suite: {page}");
    assert_eq!(conn.negotiated().unwrap().suite, suite.suite, "{what}");
}

/// `s_client -tls1_2` with `suite` (and `-no_etm`) against our server.
fn openssl_client_round(suite: Suite12, etm: bool) {
    let id = if suite.auth == Auth::Ecdsa { "p256" } else { "rsa" };
    let ca = data(&format!("ca-{id}.pem"));
    let (listener, port) = listen();
    let mut args = vec!["-tls1_2", "-cipher", suite.openssl_name(), "-ign_eof"];
    if !etm {
        args.push("-no_etm");
    }
    let mut client = s_client(port, &ca, &args, None);
    client.stdin.as_mut().unwrap().write_all(b"ping from s_client\n").unwrap();
    let sock = accept(&listener);
    let mut conn = Connection::server(server(suite.auth), buffers(), &mut OsRandom).unwrap();
    let what = format!("{} etm {etm}", suite.iana_name());
    let stdout = serve_s_client(&mut conn, sock, client, &what);
    assert!(stdout.contains("pong from halite"), "{what}: {stdout}");
    assert!(stdout.contains(&format!("Cipher    : {}", suite.openssl_name())), "{what}: {stdout}");
    assert_eq!(conn.negotiated().unwrap().suite, suite.suite, "{what}");
}

#[test]
fn openssl_in_both_roles_with_and_without_encrypt_then_mac() {
    if !openssl_available() {
        return;
    }
    for &suite in s12::CBC_SUITES12 {
        for etm in [true, false] {
            openssl_server_round(suite, etm);
            openssl_client_round(suite, etm);
        }
    }
}
