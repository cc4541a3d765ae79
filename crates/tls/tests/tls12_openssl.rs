//! The TLS 1.2 client against `openssl s_server -tls1_2` over loopback TCP: every ECDHE suite
//! Halite implements (the CCM ones too, which rustls lacks) with the P-256 and RSA-2048 test
//! certificates, over the groups OpenSSL and Halite share. Skipped, with the reason printed,
//! when `openssl` is not installed.

mod pair;
mod peer;

use std::io::{Read, Write};
use std::process::Stdio;

use core_hash::OsRandom;
use pair::{anchors, buffers};
use peer::{connect_retrying, get_page, openssl_available, read, s_server};
use tls::msgs::{NamedGroup, ProtocolVersion};
use tls::suites::tls12::{self as s12, Suite12};
use tls::{ClientConfig, Connection, Stream};

/// One connection to `s_server -tls1_2` holding the `id` certificate, with `suite` and
/// `group`: the page `-www` serves names the suite, and ours says TLS 1.2.
fn round(id: &str, suite: Suite12, group: NamedGroup, server_group: &str) {
    // The CCM_8 suites are below OpenSSL's default security level.
    let cipher = format!("{}:@SECLEVEL=0", suite.openssl_name());
    let args = ["-tls1_2", "-cipher", &cipher, "-groups", server_group, "-www", "-naccept", "1"];
    let (_server, port) = s_server(&format!("server-{id}"), &args, Stdio::null());
    let sock = connect_retrying(port);
    let suites12 = [suite];
    // Every group: in TLS 1.2 an ECDSA certificate's curve must be among the client's groups
    // (RFC 8422 §5.1), and `-groups` picks the one the key exchange uses.
    let groups =
        [NamedGroup::X25519, NamedGroup::SECP256R1, NamedGroup::SECP384R1, NamedGroup::SECP521R1];
    let versions = [ProtocolVersion::TLSV1_3, ProtocolVersion::TLSV1_2];
    let config = ClientConfig {
        versions: &versions,
        suites12: &suites12,
        groups: &groups,
        ..ClientConfig::new(anchors(&[read(&format!("ca-{id}.der"))]), &tls::SystemClock)
    };
    let mut conn = Connection::client(config, "localhost", buffers(), &mut OsRandom).unwrap();
    let mut stream = Stream { conn: &mut conn, sock };
    let what = format!("{} {server_group} {id}", suite.iana_name());
    stream.handshake().unwrap_or_else(|e| panic!("{what}: {e}"));
    let page = get_page(&mut stream);
    assert!(page.contains(suite.openssl_name()), "{what}: s_server reports the suite: {page}");
    assert!(page.contains("TLSv1.2"), "{what}: {page}");
    let n = conn.negotiated().unwrap();
    assert_eq!((n.version, n.suite, n.group), (ProtocolVersion::TLSV1_2, suite.suite, group));
}

/// A TLS 1.2-only client trusting the P-256 root, offering X25519 and P-256 (the
/// certificate's curve, which it must list).
fn p256_client12() -> ClientConfig<'static> {
    ClientConfig {
        versions: &[ProtocolVersion::TLSV1_2],
        groups: &[NamedGroup::X25519, NamedGroup::SECP256R1],
        ..ClientConfig::new(anchors(&[read("ca-p256.der")]), &tls::SystemClock)
    }
}

#[test]
fn our_client_against_openssl_s_server_tls12() {
    if !openssl_available() {
        return;
    }
    // Every suite Halite implements: five ECDSA ones (with the CCM ones), three RSA ones.
    let with = |auth| s12::ALL_SUITES12.iter().copied().filter(move |s| s.auth == auth);
    for suite in with(s12::Auth::Ecdsa) {
        round("p256", suite, NamedGroup::X25519, "X25519");
    }
    for suite in with(s12::Auth::Rsa) {
        round("rsa", suite, NamedGroup::X25519, "X25519");
    }
    for (g, name) in [
        (NamedGroup::SECP256R1, "P-256"),
        (NamedGroup::SECP384R1, "P-384"),
        (NamedGroup::SECP521R1, "P-521"),
    ] {
        round("p256", s12::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, g, name);
        round("rsa", s12::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, g, name);
    }
}

/// `s_server`'s `R` command sends a `HelloRequest`: the client refuses to renegotiate and ends
/// the connection with a `no_renegotiation` alert (RFC 5746 §4.2 lets it refuse).
#[test]
fn a_hello_request_from_openssl_is_refused() {
    if !openssl_available() {
        return;
    }
    let (mut server, port) = s_server("server-p256", &["-tls1_2", "-naccept", "1"], Stdio::piped());
    let sock = connect_retrying(port);
    let config = p256_client12();
    let mut conn = Connection::client(config, "localhost", buffers(), &mut OsRandom).unwrap();
    let mut stream = Stream { conn: &mut conn, sock };
    stream.handshake().unwrap();
    let mut sock = stream.sock;
    server.0.stdin.as_mut().unwrap().write_all(b"R\n").unwrap();
    let got = loop {
        let space = conn.receive_space();
        let n = sock.read(space).unwrap();
        assert!(n > 0, "the server closed before a HelloRequest");
        if let Err(e) = conn.received(n) {
            break e;
        }
    };
    assert_eq!(got, tls::Error::PeerIncompatible(tls::PeerIncompatible::Renegotiation));
    assert_eq!(got.alert(), Some(tls::msgs::AlertDescription::NO_RENEGOTIATION));
    // The alert goes out (protected: 5 + 8 + 2 + 16 bytes under AES-GCM).
    assert_eq!(conn.pending_send().len(), 31);
    sock.write_all(conn.pending_send()).unwrap();
}

/// `max_fragment_length` on TLS 1.2: `s_server` takes our 512 and sends its page in records
/// of at most 512 bytes, which our client reads; we send no more than 512 per record either.
#[test]
fn max_fragment_length_with_openssl_tls12() {
    if !openssl_available() {
        return;
    }
    let args = ["-tls1_2", "-www", "-naccept", "1"];
    let (_server, port) = s_server("server-p256", &args, Stdio::null());
    let sock = connect_retrying(port);
    let config = ClientConfig {
        max_fragment_length: Some(tls::msgs::MaxFragmentLength::LEN_512),
        ..p256_client12()
    };
    // Records of 512 content bytes fit a small receive buffer.
    let bufs = tls::Buffers { received: Vec::leak(vec![0; 1_000]), ..buffers() };
    let mut conn = Connection::client(config, "localhost", bufs, &mut OsRandom).unwrap();
    let mut stream = Stream { conn: &mut conn, sock };
    stream.handshake().unwrap();
    let page = get_page(&mut stream);
    assert!(page.len() > 2_000, "the page spans several records: {}", page.len());
    assert_eq!(conn.record_limits().send, 512);
    assert_eq!(conn.negotiated().unwrap().version, ProtocolVersion::TLSV1_2);
}
