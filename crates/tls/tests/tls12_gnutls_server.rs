//! The TLS 1.2 server against `gnutls-cli` restricted to TLS 1.2 by `--priority`: each suite
//! with the P-256 and RSA certificates, each group, and `--recordsize 512` (RFC 8449 on TLS
//! 1.2). Skipped, with the reason printed, when GnuTLS's tools are not installed
//! (`apt-get install gnutls-bin`).
// Product and message names (GnuTLS) are prose here, not code.
#![allow(clippy::doc_markdown)]

mod pair;
mod peer;

use std::io::Write;
use std::process::{Command, Stdio};

use core_hash::OsRandom;
use pair::{buffers, certified, leak};
use peer::{accept, data, gnutls_available, listen, read};
use tls::msgs::{NamedGroup, ProtocolVersion};
use tls::suites::tls12::{self as s12, Suite12};
use tls::{Connection, ServerConfig, Stream};

/// One `gnutls-cli` connection with `priority` (TLS 1.2 only) to our server holding `id`
/// and taking `group` only; with `recordsize`, the client's RFC 8449 limit. A line each way.
fn round(id: &str, suite: Suite12, group: NamedGroup, priority: &str, recordsize: Option<u16>) {
    let cert = certified(read(&format!("server-{id}.der")), read(&format!("server-{id}.key.der")));
    let (listener, port) = listen();
    let priority = format!("NORMAL:-VERS-ALL:+VERS-TLS1.2:{priority}");
    let size = recordsize.map(|n| n.to_string());
    let mut client = Command::new("gnutls-cli")
        .args(["127.0.0.1", "--port", &port.to_string(), "--priority", &priority])
        .args(["--x509cafile", &data(&format!("ca-{id}.pem"))])
        .args(["--sni-hostname", "localhost", "--verify-hostname", "localhost"])
        .args(size.iter().flat_map(|s| ["--recordsize", s.as_str()]))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = client.stdin.take().unwrap();
    stdin.write_all(b"ping from gnutls\n").unwrap();
    let sock = accept(&listener);
    let versions = [ProtocolVersion::TLSV1_3, ProtocolVersion::TLSV1_2];
    let groups = [group];
    let config = ServerConfig {
        versions: &versions,
        suites12: s12::ALL_SUITES12,
        groups: &groups,
        ..ServerConfig::new(leak([cert]))
    };
    let mut conn = Connection::server(config, buffers(), &mut OsRandom).unwrap();
    let what = format!("{id} {} {priority}", suite.iana_name());
    let mut stream = Stream { conn: &mut conn, sock };
    if let Err(e) = stream.handshake() {
        drop(stream);
        drop(stdin);
        let _ = client.kill();
        let out = client.wait_with_output().unwrap();
        panic!("{what}: {e}\n{}", String::from_utf8_lossy(&out.stderr));
    }
    let got = peer::read_line(&mut stream, &format!("{what}: gnutls-cli"));
    assert_eq!(got, b"ping from gnutls\n", "{what}");
    let reply: Vec<u8> = (0..3000u32).map(|i| b'a' + (i % 26) as u8).chain(*b"\n").collect();
    stream.write_all(&reply).unwrap();
    stream.close().unwrap();
    drop(stream);
    drop(stdin);
    let out = client.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stdout.contains(&*String::from_utf8_lossy(&reply)), "{what}: {stdout}\n{stderr}");
    let n = conn.negotiated().unwrap();
    assert_eq!((n.version, n.suite, n.group), (ProtocolVersion::TLSV1_2, suite.suite, group));
    if let Some(limit) = recordsize {
        assert!(
            conn.record_limits().send < usize::from(limit),
            "{what}: {:?}",
            conn.record_limits()
        );
    }
}

#[test]
fn gnutls_cli_tls12_against_our_server() {
    if !gnutls_available() {
        return;
    }
    let x25519 = "-GROUP-ALL:+GROUP-X25519";
    for (suite, cipher) in [
        (s12::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, "AES-128-GCM"),
        (s12::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, "AES-256-GCM"),
        (s12::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256, "CHACHA20-POLY1305"),
        (s12::TLS_ECDHE_ECDSA_WITH_AES_128_CCM, "AES-128-CCM"),
        (s12::TLS_ECDHE_ECDSA_WITH_AES_128_CCM_8, "AES-128-CCM-8"),
    ] {
        let p = format!("-CIPHER-ALL:+{cipher}:{x25519}:+GROUP-SECP256R1");
        round("p256", suite, NamedGroup::X25519, &p, None);
    }
    for (suite, cipher) in [
        (s12::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, "AES-128-GCM"),
        (s12::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, "AES-256-GCM"),
        (s12::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256, "CHACHA20-POLY1305"),
    ] {
        round("rsa", suite, NamedGroup::X25519, &format!("-CIPHER-ALL:+{cipher}:{x25519}"), None);
    }
    for (group, name) in [
        (NamedGroup::SECP256R1, "SECP256R1"),
        (NamedGroup::SECP384R1, "SECP384R1"),
        (NamedGroup::SECP521R1, "SECP521R1"),
    ] {
        let p = format!("-CIPHER-ALL:+AES-256-GCM:-GROUP-ALL:+GROUP-{name}");
        round("rsa", s12::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, group, &p, None);
    }
    // RFC 8449 on TLS 1.2: our server keeps its records under the client's limit.
    let p = format!("-CIPHER-ALL:+AES-128-GCM:{x25519}:+GROUP-SECP256R1");
    round("p256", s12::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, NamedGroup::X25519, &p, Some(512));
}
