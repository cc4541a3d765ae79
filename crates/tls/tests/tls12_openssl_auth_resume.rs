//! The TLS 1.2 client's certificates and resumption against `openssl s_server -tls1_2` over
//! loopback TCP: client certificates (ECDSA P-256, ECDSA P-384, RSA-2048) required with
//! `-Verify 1`, under SHA-256 and SHA-384 suites; an Ed25519 client key, and a request whose
//! `-client_sigalgs` our key cannot sign, answered with an empty Certificate (taken with
//! `-verify 1`, refused with `-Verify 1`); resumption by RFC 5077 ticket (the default) and by
//! session id (`-no_ticket`), where the page `-www` serves says `Reused`; a server restarted
//! between the connections (it knows neither) gives a full handshake. Skipped, with the
//! reason printed, when `openssl` is not installed.

mod pair;
mod peer;

use std::process::Stdio;

use core_hash::OsRandom;
use pair::{anchors, buffers, certified};
use peer::{Killed, connect_retrying, data, get_page, openssl_available, read};
use tls::msgs::{NamedGroup, ProtocolVersion, SignatureScheme};
use tls::suites::tls12::{self as s12, Suite12};
use tls::ticket::MemoryTicketStore;
use tls::{CertifiedKey, ClientConfig, Connection, Negotiated, Stream};

/// `s_server -tls1_2 -www` with the P-256 server certificate and `args`, for `naccept`
/// connections.
fn serve(args: &[&str], naccept: u32) -> (Killed, u16) {
    let naccept = naccept.to_string();
    let all: Vec<&str> =
        ["-tls1_2", "-www", "-naccept", &naccept].into_iter().chain(args.iter().copied()).collect();
    peer::s_server("server-p256", &all, Stdio::null())
}

/// One connection to `port`: the handshake, a GET, and the page `-www` serves with what we
/// negotiated; or the handshake's error (`None`: the transport's).
fn get(
    port: u16,
    suite: Suite12,
    client_cert: Option<CertifiedKey<'_>>,
    store: Option<&MemoryTicketStore>,
) -> Result<(String, Negotiated), Option<tls::Error>> {
    let sock = connect_retrying(port);
    let versions = [ProtocolVersion::TLSV1_2];
    let suites12 = [suite];
    let groups = [NamedGroup::X25519, NamedGroup::SECP256R1, NamedGroup::SECP384R1];
    let config = ClientConfig {
        versions: &versions,
        suites12: &suites12,
        groups: &groups,
        client_cert,
        tickets: store.map(|s| s as &dyn tls::ticket::TicketStore),
        ..ClientConfig::new(anchors(&[read("ca-p256.der")]), &tls::SystemClock)
    };
    let mut conn = Connection::client(config, "localhost", buffers(), &mut OsRandom).unwrap();
    let mut stream = Stream { conn: &mut conn, sock };
    if stream.handshake().is_err() {
        return Err(stream.conn.error());
    }
    let page = get_page(&mut stream);
    Ok((page, conn.negotiated().unwrap()))
}

fn client_cert(name: &str) -> CertifiedKey<'static> {
    certified(read(&format!("client-{name}.der")), read(&format!("client-{name}.key.der")))
}

const SHA256_SUITE: Suite12 = s12::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256;
const SHA384_SUITE: Suite12 = s12::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384;

#[test]
fn client_certificates_required_by_openssl() {
    if !openssl_available() {
        return;
    }
    let cases = [
        ("p256", SignatureScheme::ECDSA_SECP256R1_SHA256),
        ("p384", SignatureScheme::ECDSA_SECP384R1_SHA384),
        ("rsa", SignatureScheme::RSA_PSS_RSAE_SHA256),
    ];
    for (name, scheme) in cases {
        for suite in [SHA256_SUITE, SHA384_SUITE] {
            let ca = data(&format!("ca-{name}.pem"));
            let (_server, port) = serve(&["-Verify", "1", "-CAfile", &ca], 1);
            let what = format!("{name} {}", suite.iana_name());
            let (page, n) = get(port, suite, Some(client_cert(name)), None)
                .unwrap_or_else(|e| panic!("{what}: {e:?}"));
            assert_eq!(n.client_auth, Some(scheme), "{what}");
            assert!(page.contains(suite.openssl_name()), "{what}: {page}");
        }
    }
    // RSA PKCS#1 v1.5 when the server asks for nothing else.
    let ca = data("ca-rsa.pem");
    let (_server, port) =
        serve(&["-Verify", "1", "-CAfile", &ca, "-client_sigalgs", "RSA+SHA384"], 1);
    let (_, n) = get(port, SHA256_SUITE, Some(client_cert("rsa")), None).unwrap();
    assert_eq!(n.client_auth, Some(SignatureScheme::RSA_PKCS1_SHA384));
}

/// A key that cannot answer the request (Ed25519 in TLS 1.2; a P-256 key asked for RSA-PSS
/// only) sends an empty Certificate (RFC 5246 §7.4.6): an optional request goes on without
/// client authentication, a required one fails with the server's alert.
#[test]
fn a_request_we_cannot_sign_for_gets_an_empty_certificate() {
    if !openssl_available() {
        return;
    }
    let cases = [("ed25519", "ca.pem", None), ("p256", "ca-p256.pem", Some("RSA-PSS+SHA256"))];
    for (name, ca, sigalgs) in cases {
        for (flag, ok) in [("-verify", true), ("-Verify", false)] {
            let ca = data(ca);
            let mut args = vec![flag, "1", "-CAfile", &ca];
            if let Some(s) = sigalgs {
                args.extend(["-client_sigalgs", s]);
            }
            let (_server, port) = serve(&args, 1);
            let r = get(port, SHA256_SUITE, Some(client_cert(name)), None);
            if ok {
                assert_eq!(r.unwrap().1.client_auth, None, "{name}");
            } else {
                assert!(matches!(r, Err(Some(tls::Error::AlertReceived(_)))), "{name}: {r:?}");
            }
        }
    }
}

/// Two connections to one `s_server`: the second resumes (`Reused` on the page).
fn resumes(args: &[&str], suite: Suite12) {
    let store = MemoryTicketStore::default();
    let (_server, port) = serve(args, 2);
    let (page, n) = get(port, suite, None, Some(&store)).unwrap();
    assert!(page.contains("New, TLSv1.2"), "{args:?}: {page}");
    assert!(!n.resumed);
    assert!(!store.is_empty(), "{args:?}: a session is kept");
    let (page, n) = get(port, suite, None, Some(&store)).unwrap();
    assert!(page.contains("Reused, TLSv1.2"), "{args:?}: {page}");
    assert!(n.resumed, "{args:?}");
    assert_eq!(n.suite, suite.suite);
}

#[test]
fn resumption_with_openssl_by_ticket_and_by_session_id() {
    if !openssl_available() {
        return;
    }
    for suite in [SHA256_SUITE, SHA384_SUITE] {
        resumes(&[], suite);
        resumes(&["-no_ticket"], suite);
    }
}

/// A server that does not know the session (restarted, so it has another ticket key and an
/// empty cache) answers with a full handshake.
#[test]
fn a_restarted_openssl_does_not_resume() {
    if !openssl_available() {
        return;
    }
    for args in [&[][..], &["-no_ticket"]] {
        let store = MemoryTicketStore::default();
        let (server, port) = serve(args, 1);
        get(port, SHA256_SUITE, None, Some(&store)).unwrap();
        drop(server);
        let (_server, port) = serve(args, 1);
        let (page, n) = get(port, SHA256_SUITE, None, Some(&store)).unwrap();
        assert!(page.contains("New, TLSv1.2"), "{page}");
        assert!(!n.resumed);
    }
}
