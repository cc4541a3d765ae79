//! The TLS 1.2 server asking for client certificates, against `openssl s_client -tls1_2
//! -cert … -key …` over loopback TCP: ECDSA P-256 and RSA-2048 client certificates under a
//! SHA-256 and a SHA-384 suite, the client identity seen on our side. Skipped, with the reason
//! printed, when `openssl` is not installed.

mod pair;
mod peer;

use std::io::Write;

use core_hash::{OsRandom, Sha256};
use pair::{anchors, buffers, certified, leak};
use peer::{accept, data, listen, openssl_available, read, s_client, serve_s_client};
use tls::msgs::ProtocolVersion;
use tls::suites::tls12::{self as s12, Suite12};
use tls::{ClientAuth, Connection, PeerIdentity, ServerConfig};

/// One `s_client` connection with the client identity `client` (`p256`, `rsa`) under `suite`:
/// a line each way, and our server saw the client's certificate.
fn round(client: &str, suite: Suite12) {
    let what = format!("{client} {}", suite.iana_name());
    let server = certified(read("server-p256.der"), read("server-p256.key.der"));
    let client_der = read(&format!("client-{client}.der"));
    let roots = anchors(&[read("ca-p256.der"), read("ca-rsa.der")]);

    let (listener, port) = listen();
    let (cert, key) =
        (data(&format!("client-{client}.pem")), data(&format!("client-{client}.key")));
    let args =
        ["-tls1_2", "-cipher", suite.openssl_name(), "-ign_eof", "-cert", &cert, "-key", &key];
    let mut child = s_client(port, &data("ca-p256.pem"), &args, None);
    child.stdin.as_mut().unwrap().write_all(b"ping from s_client\n").unwrap();
    let sock = accept(&listener);
    let config = ServerConfig {
        versions: &[ProtocolVersion::TLSV1_2],
        suites12: s12::ALL_SUITES12,
        client_auth: Some(ClientAuth::new(roots, &tls::SystemClock)),
        ..ServerConfig::new(leak([server]))
    };
    let mut conn = Connection::server(config, buffers(), &mut OsRandom).unwrap();
    let stdout = serve_s_client(&mut conn, sock, child, &what);
    assert!(stdout.contains("pong from halite"), "{what}: {stdout}");
    assert!(stdout.contains("Protocol  : TLSv1.2"), "{what}: {stdout}");
    let n = conn.negotiated().unwrap();
    assert_eq!((n.version, n.suite), (ProtocolVersion::TLSV1_2, suite.suite), "{what}");
    assert!(n.client_auth.is_some(), "{what}");
    let Some(PeerIdentity::Certificate { end_entity_sha256, chain: Some(chain) }) =
        conn.peer_identity()
    else {
        panic!("{what}: no client certificate");
    };
    assert_eq!(end_entity_sha256, Sha256::digest(client_der), "{what}");
    assert_eq!(chain.end_entity(), Some(client_der), "{what}");
}

#[test]
fn openssl_s_client_with_a_certificate() {
    if !openssl_available() {
        return;
    }
    for client in ["p256", "rsa"] {
        for suite in [
            s12::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
            s12::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
        ] {
            round(client, suite);
        }
    }
}
