//! `record_size_limit` (RFC 8449) and raw public keys (RFC 7250) against a real peer that
//! implements them (OpenSSL 3.0 has neither): GnuTLS's `gnutls-serv` and `gnutls-cli` with
//! `--recordsize`, and with `--rawpkfile`/`--rawpkkeyfile`. For the limits our side runs in
//! a receive buffer sized for its own limit. Skipped, with the reason printed, when GnuTLS's
//! tools are not installed (`apt-get install gnutls-bin`).

// Product and message names (GnuTLS, ServerHello) are prose here, not code.
#![allow(clippy::doc_markdown)]

mod peer;

use std::io::{Read, Write};
use std::process::{Command, Stdio};

use core_hash::OsRandom;
use peer::{Killed, accept, connect_retrying, data, free_port, gnutls_available, listen};
use pki_types::CertificateDer;
use tls::{Buffers, ClientConfig, Connection, RecordLimits, ServerConfig, Stream};

const PRIORITY: &str = "NORMAL:-VERS-ALL:+VERS-TLS1.3";

/// Our client advertising a limit of 128 against `gnutls-serv --echo --recordsize 512`
/// (GnuTLS 3.7 takes 512 to 4096 for its own): both limits are negotiated, and 3000 bytes
/// echo back through a 200-byte receive buffer (one 5 + 128 + 16-byte record, or the
/// ServerHello).
#[test]
fn our_client_record_size_limit_against_gnutls_serv() {
    if !gnutls_available() {
        return;
    }
    let ca = CertificateDer::from(&include_bytes!("data/ca.der")[..]);
    let roots = [webpki::anchor_from_trusted_cert(&ca).unwrap()];
    let port = free_port();
    let _server = Killed(
        Command::new("gnutls-serv")
            .args(["--echo", "--quiet", "--disable-client-cert", "--recordsize", "512"])
            // GnuTLS ignores limits below 512 unless told to allow small records.
            .args(["--priority", &format!("{PRIORITY}:%ALLOW_SMALL_RECORDS")])
            .args(["--port", &port.to_string()])
            .args(["--x509certfile", &data("server.pem"), "--x509keyfile", &data("server.key")])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let sock = connect_retrying(port);
    let (mut rx, mut tx, mut hs) = (vec![0; 200], vec![0; 17_000], vec![0; 8_000]);
    let config = ClientConfig {
        record_size_limit: Some(128),
        ..ClientConfig::new(&roots, &tls::SystemClock)
    };
    let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
    let mut conn = Connection::client(config, "localhost", bufs, &mut OsRandom).unwrap();
    let mut stream = Stream { conn: &mut conn, sock };
    stream.handshake().unwrap_or_else(|e| panic!("handshake: {e}"));
    // Lines, which the echo server answers one by one.
    let line: Vec<u8> = (0..99u32).map(|i| b'a' + (i % 26) as u8).chain(*b"\n").collect();
    let msg = line.repeat(30);
    stream.write_all(&msg).unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 512];
    while got.len() < msg.len() {
        let n = stream.read(&mut buf).unwrap();
        assert!(n > 0, "gnutls-serv closed early");
        got.extend_from_slice(&buf[..n]);
    }
    assert_eq!(got, msg);
    stream.close().unwrap();
    let limits = conn.record_limits();
    assert_eq!(limits.receive, 128, "{limits:?}");
    assert!(limits.send <= 512, "gnutls-serv's limit is in force: {limits:?}");
}

/// `gnutls-cli --recordsize 512` against our server answering with a limit of 1000: the
/// server splits its 3000-byte reply to the client's limit, and takes the client's records
/// in a receive buffer of 5 + 1000 + 16 bytes.
#[test]
fn gnutls_cli_record_size_limit_against_our_server() {
    if !gnutls_available() {
        return;
    }
    let key = tls::SigningKey::from_pkcs8_der(include_bytes!("data/server.key.der")).unwrap();
    let chain: [&[u8]; 1] = [include_bytes!("data/server.der")];
    let (listener, port) = listen();
    let mut client = Command::new("gnutls-cli")
        .args(["127.0.0.1", "--port", &port.to_string(), "--recordsize", "512"])
        .args(["--priority", PRIORITY, "--x509cafile", &data("ca.pem")])
        .args(["--sni-hostname", "localhost", "--verify-hostname", "localhost"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = client.stdin.take().unwrap();
    stdin.write_all(&[b'q'; 300]).unwrap();
    stdin.write_all(b"\n").unwrap();
    let sock = accept(&listener);
    let (mut rx, mut tx, mut hs) = (vec![0; 5 + 1000 + 16], vec![0; 17_000], vec![0; 8_000]);
    let certs = [tls::CertifiedKey { chain: &chain, key: &key }];
    let config = ServerConfig { record_size_limit: Some(1000), ..ServerConfig::new(&certs) };
    let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
    let mut conn = Connection::server(config, bufs, &mut OsRandom).unwrap();
    let mut stream = Stream { conn: &mut conn, sock };
    stream.handshake().unwrap_or_else(|e| panic!("handshake: {e}"));
    let got = peer::read_line(&mut stream, "gnutls-cli");
    assert_eq!(got.len(), 301);
    let reply: Vec<u8> = (0..3000u32).map(|i| b'a' + (i % 26) as u8).chain(*b"\n").collect();
    stream.write_all(&reply).unwrap();
    stream.close().unwrap();
    drop(stream);
    drop(stdin);
    let out = client.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let reply = String::from_utf8_lossy(&reply);
    assert!(stdout.contains(&*reply), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let limits = conn.record_limits();
    assert_eq!(limits, RecordLimits { send: limits.send, receive: 1000 });
    assert!(limits.send <= 512, "gnutls-cli's limit is in force: {limits:?}");
}

/// GnuTLS's TLS 1.3 with raw public keys allowed for both sides (they are off by default).
#[cfg(feature = "raw-public-keys")]
const RAWPK_PRIORITY: &str = "NORMAL:-VERS-ALL:+VERS-TLS1.3:+CTYPE-SRV-RAWPK:+CTYPE-CLI-RAWPK";

/// Our client, pinning `server.spki.der` only, against `gnutls-serv --echo` with `priority`
/// and the credential options `credential`: `then` is given the stream once the handshake
/// ended (with its result).
#[cfg(feature = "raw-public-keys")]
fn pinning_client_against_gnutls_serv(
    priority: &str,
    credential: [&str; 4],
    then: impl FnOnce(&mut Stream<'_, '_, '_, std::net::TcpStream>, std::io::Result<()>),
) {
    let port = free_port();
    let _server = Killed(
        Command::new("gnutls-serv")
            .args(["--echo", "--quiet", "--disable-client-cert", "--priority", priority])
            .args(["--port", &port.to_string()])
            .args(credential)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let sock = connect_retrying(port);
    let pins: [&[u8]; 1] = [include_bytes!("data/server.spki.der")];
    let config = ClientConfig {
        server_keys: Some(&tls::rpk::PinnedKeys::only(&pins)),
        ..ClientConfig::new(&[], &tls::SystemClock)
    };
    let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
    let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
    let mut conn = Connection::client(config, "localhost", bufs, &mut OsRandom).unwrap();
    let mut stream = Stream { conn: &mut conn, sock };
    let done = stream.handshake();
    then(&mut stream, done);
}

/// Our client, pinning the server's raw public key only, against `gnutls-serv --rawpkfile`:
/// GnuTLS sends the SPKI, which we check and then exchange an echoed line.
#[cfg(feature = "raw-public-keys")]
#[test]
fn our_client_pins_gnutls_serv_raw_key() {
    if !gnutls_available() {
        return;
    }
    let (key, spki) = (data("server.key"), data("server.spki.pem"));
    let credential = ["--rawpkkeyfile", &key, "--rawpkfile", &spki];
    pinning_client_against_gnutls_serv(RAWPK_PRIORITY, credential, |stream, done| {
        done.unwrap_or_else(|e| panic!("handshake: {e}"));
        stream.write_all(b"pinned\n").unwrap();
        assert_eq!(peer::read_line(stream, "gnutls-serv"), b"pinned\n");
        stream.close().unwrap();
        let Some(tls::PeerIdentity::Certificate { chain: Some(chain), .. }) =
            stream.conn.peer_identity()
        else {
            panic!("{:?}", stream.conn.peer_identity())
        };
        assert_eq!(chain.end_entity(), Some(&include_bytes!("data/server.spki.der")[..]));
    });
}

/// `gnutls-cli` with raw public keys on both sides (its own key from `--rawpkfile`, ours not
/// verified by it: `--insecure`) against our server, which has a raw key only and pins the
/// client's.
#[cfg(feature = "raw-public-keys")]
#[test]
fn gnutls_cli_mutual_raw_keys_against_our_server() {
    if !gnutls_available() {
        return;
    }
    let key = tls::SigningKey::from_pkcs8_der(include_bytes!("data/server.key.der")).unwrap();
    let client_spki: &[u8] = include_bytes!("data/client-ed25519.spki.der");
    let (listener, port) = listen();
    let mut client = Command::new("gnutls-cli")
        .args(["127.0.0.1", "--port", &port.to_string(), "--priority", RAWPK_PRIORITY])
        .args(["--insecure", "--rawpkkeyfile", &data("client-ed25519.key")])
        .args(["--rawpkfile", &data("client-ed25519.spki.pem")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = client.stdin.take().unwrap();
    stdin.write_all(b"raw\n").unwrap();
    let sock = accept(&listener);
    let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
    let pins = [client_spki];
    let auth = tls::ClientAuth {
        raw_keys: Some(&tls::rpk::PinnedKeys::only(&pins)),
        ..tls::ClientAuth::new(&[], &tls::SystemClock)
    };
    let raw = tls::rpk::RawKey { spki: include_bytes!("data/server.spki.der"), key: &key };
    let config =
        ServerConfig { raw_key: Some(&raw), client_auth: Some(auth), ..ServerConfig::new(&[]) };
    let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
    let mut conn = Connection::server(config, bufs, &mut OsRandom).unwrap();
    let mut stream = Stream { conn: &mut conn, sock };
    stream.handshake().unwrap_or_else(|e| panic!("handshake: {e}"));
    assert_eq!(peer::read_line(&mut stream, "gnutls-cli"), b"raw\n");
    stream.write_all(b"back\n").unwrap();
    stream.close().unwrap();
    drop(stream);
    drop(stdin);
    let out = client.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("back"), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(conn.negotiated().unwrap().client_auth, Some(tls::msgs::SignatureScheme::ED25519));
}

/// Our client, pinning raw keys only, against `gnutls-serv` with an X.509 chain and raw
/// keys not enabled: no certificate type in common, and GnuTLS says so with
/// `unsupported_certificate` (RFC 7250 §4.2), as our server does.
#[cfg(feature = "raw-public-keys")]
#[test]
fn our_raw_key_only_client_against_gnutls_serv_x509() {
    if !gnutls_available() {
        return;
    }
    let (cert, key) = (data("server.pem"), data("server.key"));
    let credential = ["--x509certfile", &cert, "--x509keyfile", &key];
    pinning_client_against_gnutls_serv(PRIORITY, credential, |stream, done| {
        done.unwrap_err();
        let alert = tls::msgs::AlertDescription::UNSUPPORTED_CERTIFICATE;
        assert_eq!(stream.conn.error(), Some(tls::Error::AlertReceived(alert)));
    });
}
