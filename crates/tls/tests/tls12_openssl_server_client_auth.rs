//! The TLS 1.2 server asking for client certificates, against `openssl s_client -tls1_2
//! -cert … -key …` over loopback TCP: ECDSA P-256 and RSA-2048 client certificates under a
//! SHA-256 and a SHA-384 suite, the client identity seen on our side. Skipped, with the reason
//! printed, when `openssl` is not installed.
#![cfg(feature = "tls12")]

mod peer;

use std::io::Write;
use std::net::TcpListener;
use std::process::{Command, Stdio};
use std::time::Duration;

use core_hash::{OsRandom, Sha256};
use peer::{data, openssl_available, serve_s_client};
use pki_types::CertificateDer;
use tls::msgs::ProtocolVersion;
use tls::suites::tls12::{self as s12, Suite12};
use tls::{Buffers, CertifiedKey, ClientAuth, Connection, PeerIdentity, ServerConfig, SigningKey};

/// One `s_client` connection with the client identity `client` (`p256`, `rsa`) under `suite`:
/// a line each way, and our server saw the client's certificate.
fn round(client: &str, suite: Suite12) {
    let what = format!("{client} {}", suite.iana_name());
    let cert = std::fs::read(data("server-p256.der")).unwrap();
    let key =
        SigningKey::from_pkcs8_der(&std::fs::read(data("server-p256.key.der")).unwrap()).unwrap();
    let chain: [&[u8]; 1] = [&cert];
    let client_der = std::fs::read(data(&format!("client-{client}.der"))).unwrap();
    let cas =
        [std::fs::read(data("ca-p256.der")).unwrap(), std::fs::read(data("ca-rsa.der")).unwrap()];
    let cas: Vec<CertificateDer<'_>> = cas.iter().map(|c| CertificateDer::from(&c[..])).collect();
    let roots: Vec<_> = cas.iter().map(|c| webpki::anchor_from_trusted_cert(c).unwrap()).collect();

    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let mut child = Command::new("openssl")
        .args(["s_client", "-connect", &format!("127.0.0.1:{port}")])
        .args(["-CAfile", &data("ca-p256.pem"), "-verify_return_error", "-servername", "localhost"])
        .args(["-tls1_2", "-cipher", suite.openssl_name(), "-ign_eof"])
        .args(["-cert", &data(&format!("client-{client}.pem"))])
        .args(["-key", &data(&format!("client-{client}.key"))])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.as_mut().unwrap().write_all(b"ping from s_client\n").unwrap();
    let (sock, _) = listener.accept().unwrap();
    sock.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let (mut rx, mut tx, mut hs) = (vec![0; 18_500], vec![0; 18_500], vec![0; 8_000]);
    let certs = [CertifiedKey { chain: &chain, key: &key }];
    let config = ServerConfig {
        versions: &[ProtocolVersion::TLSV1_2],
        suites12: s12::ALL_SUITES12,
        client_auth: Some(ClientAuth::new(&roots, &tls::SystemClock)),
        ..ServerConfig::new(&certs)
    };
    let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
    let mut conn = Connection::server(config, bufs, &mut OsRandom).unwrap();
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
    assert_eq!(end_entity_sha256, Sha256::digest(&client_der), "{what}");
    assert_eq!(chain.end_entity(), Some(&client_der[..]), "{what}");
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
