//! Interop with OpenSSL 3: our client against `openssl s_server` and `openssl s_client`
//! against our server, for each suite, over loopback TCP with the Ed25519 chain in
//! `tests/data`. Skipped, with the reason printed, when `openssl` is not installed.

mod peer;

#[cfg(feature = "server")]
use std::io::{Read, Write};
use std::process::{Command, Stdio};

use core_hash::OsRandom;
use peer::{Killed, connect_retrying, data, free_port, get_page, openssl_available, s_server};
#[cfg(feature = "server")]
use peer::{accept, listen, s_client};
use pki_types::CertificateDer;
#[cfg(feature = "server")]
use tls::ServerConfig;
use tls::msgs::{
    AlertDescription, MaxFragmentLength, NamedGroup, PskKeyExchangeMode, SignatureScheme,
};
use tls::suites::{self, Suite};
use tls::{Buffers, ClientConfig, Connection, Negotiated, RecordLimits, Stream};

fn iana(s: Suite) -> &'static str {
    match s.suite.0 {
        0x1301 => "TLS_AES_128_GCM_SHA256",
        0x1302 => "TLS_AES_256_GCM_SHA384",
        0x1303 => "TLS_CHACHA20_POLY1305_SHA256",
        0x1304 => "TLS_AES_128_CCM_SHA256",
        _ => "TLS_AES_128_CCM_8_SHA256",
    }
}

#[test]
fn our_client_against_openssl_s_server() {
    if !openssl_available() {
        return;
    }
    for suite in suites::ALL_SUITES {
        let n = s_server_round(*suite, &[NamedGroup::X25519], "X25519");
        assert!(!n.retried);
    }
}

/// Each NIST group against `s_server`, first with our share for it, then with a
/// `HelloRetryRequest` from an x25519 share.
#[cfg(all(feature = "p256", feature = "p384", feature = "p521"))]
#[test]
fn our_client_against_openssl_s_server_nist_groups_and_retry() {
    if !openssl_available() {
        return;
    }
    let suite = suites::TLS13_AES_256_GCM_SHA384;
    for (g, name) in [
        (NamedGroup::SECP256R1, "P-256"),
        (NamedGroup::SECP384R1, "P-384"),
        (NamedGroup::SECP521R1, "P-521"),
    ] {
        let n = s_server_round(suite, &[g], name);
        assert_eq!((n.group, n.retried), (g, false), "{name}");
        let n = s_server_round(suite, &[NamedGroup::X25519, g], name);
        assert_eq!((n.group, n.retried), (g, true), "{name} after HelloRetryRequest");
    }
}

/// The files of a test identity in `tests/data` (see `gen.sh` and `gen-more.sh`): server
/// certificate PEM, its key PEM, root PEM and root DER.
fn files(id: &str) -> [String; 4] {
    if id == "ed25519" {
        ["server.pem", "server.key", "ca.pem", "ca.der"].map(data)
    } else if id.starts_with("pss") {
        // The RSASSA-PSS leaves of `gen-pss.sh` share one root.
        [
            data(&format!("server-{id}.pem")),
            data(&format!("server-{id}.key")),
            data("ca-pss.pem"),
            data("ca-pss.der"),
        ]
    } else {
        [
            data(&format!("server-{id}.pem")),
            data(&format!("server-{id}.key")),
            data(&format!("ca-{id}.pem")),
            data(&format!("ca-{id}.der")),
        ]
    }
}

/// Each certificate type behind `s_server`: its `CertificateVerify` checked by our client.
#[test]
fn our_client_against_openssl_s_server_certificate_types() {
    if !openssl_available() {
        return;
    }
    for (id, scheme) in [
        ("p256", SignatureScheme::ECDSA_SECP256R1_SHA256),
        ("p384", SignatureScheme::ECDSA_SECP384R1_SHA384),
        ("rsa", SignatureScheme::RSA_PSS_RSAE_SHA256),
    ] {
        let n = s_server_id_round(
            suites::TLS13_AES_128_GCM_SHA256,
            &[NamedGroup::X25519],
            "X25519",
            id,
        );
        assert_eq!(n.scheme, scheme, "{id}");
    }
}

/// `s_server` with an RSASSA-PSS certificate (as Java and OpenSSL make them): it signs only
/// with `rsa_pss_pss_*`, so our client must offer them and verify the chain's PSS signatures.
#[test]
fn our_client_against_openssl_s_server_with_rsa_pss_certificates() {
    if !openssl_available() {
        return;
    }
    for (id, scheme) in [
        ("pss", SignatureScheme::RSA_PSS_PSS_SHA256),
        ("pss-sha384", SignatureScheme::RSA_PSS_PSS_SHA384),
    ] {
        let n = s_server_id_round(
            suites::TLS13_AES_128_GCM_SHA256,
            &[NamedGroup::X25519],
            "X25519",
            id,
        );
        assert_eq!(n.scheme, scheme, "{id}");
    }
}

fn s_server_round(suite: Suite, groups: &[NamedGroup], server_groups: &str) -> Negotiated {
    s_server_id_round(suite, groups, server_groups, "ed25519")
}

fn s_server_id_round(
    suite: Suite,
    groups: &[NamedGroup],
    server_groups: &str,
    id: &str,
) -> Negotiated {
    let [cert_pem, key_pem, _, ca_der] = files(id);
    let ca_der = std::fs::read(ca_der).unwrap();
    let ca = CertificateDer::from(&ca_der[..]);
    let roots = [webpki::anchor_from_trusted_cert(&ca).unwrap()];
    let port = free_port();
    let _server = Killed(
        Command::new("openssl")
            .args(["s_server", "-accept"])
            .arg(format!("127.0.0.1:{port}"))
            .args(["-cert", &cert_pem, "-key", &key_pem])
            .args(["-tls1_3", "-ciphersuites", iana(suite), "-groups", server_groups])
            .args(["-alpn", "h2", "-www", "-naccept", "1"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let sock = connect_retrying(port);
    let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
    let suites = [suite];
    let alpn: [&[u8]; 1] = [b"h2"];
    let config = ClientConfig {
        suites: &suites,
        alpn: &alpn,
        groups,
        ..ClientConfig::new(&roots, &tls::SystemClock)
    };
    let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
    let mut conn = Connection::client(config, "localhost", bufs, &mut OsRandom).unwrap();
    let mut stream = Stream { conn: &mut conn, sock };
    stream.handshake().unwrap_or_else(|e| panic!("{} {server_groups}: {e}", iana(suite)));
    let page = get_page(&mut stream);
    assert!(page.contains(iana(suite)), "s_server reports the suite: {page}");
    let n = conn.negotiated().unwrap();
    assert_eq!(n.suite, suite.suite);
    assert_eq!(n.alpn, Some(0));
    n
}

#[cfg(feature = "server")]
#[test]
fn openssl_s_client_against_our_server() {
    if !openssl_available() {
        return;
    }
    for suite in suites::ALL_SUITES {
        s_client_round(*suite, "X25519", &[NamedGroup::X25519]);
    }
}

/// `s_client` with each NIST group against our server.
#[cfg(feature = "server")]
#[test]
fn openssl_s_client_nist_groups() {
    if !openssl_available() {
        return;
    }
    for name in ["P-256", "P-384", "P-521"] {
        s_client_round(suites::TLS13_AES_128_GCM_SHA256, name, tls::kx::DEFAULT_GROUPS);
    }
}

/// `s_client`'s first key share is P-256, so our server answers with a `HelloRetryRequest`.
#[cfg(feature = "server")]
#[test]
fn openssl_s_client_hello_retry_request() {
    if !openssl_available() {
        return;
    }
    s_client_round(suites::TLS13_AES_128_GCM_SHA256, "P-256:X25519", &[NamedGroup::X25519]);
}

/// `s_client` against our server holding each certificate type; for RSA also with
/// `-sigalgs` limited to one PSS scheme, which the server must pick.
#[cfg(feature = "server")]
#[test]
fn openssl_s_client_certificate_types_and_schemes() {
    if !openssl_available() {
        return;
    }
    let suite = suites::TLS13_AES_256_GCM_SHA384;
    for (id, sigalgs, scheme) in [
        ("p256", None, SignatureScheme::ECDSA_SECP256R1_SHA256),
        ("p384", None, SignatureScheme::ECDSA_SECP384R1_SHA384),
        ("rsa", None, SignatureScheme::RSA_PSS_RSAE_SHA256),
        ("rsa", Some("rsa_pss_rsae_sha384"), SignatureScheme::RSA_PSS_RSAE_SHA384),
        ("rsa", Some("rsa_pss_rsae_sha512"), SignatureScheme::RSA_PSS_RSAE_SHA512),
    ] {
        let n = s_client_id_round(suite, "X25519", &[NamedGroup::X25519], id, sigalgs);
        assert_eq!(n.scheme, scheme, "{id} {sigalgs:?}");
    }
}

/// `s_client` against our server holding an RSASSA-PSS certificate and key: the server signs
/// with `rsa_pss_pss_*`, the one the key's parameters allow when they restrict it.
#[cfg(feature = "server")]
#[test]
fn openssl_s_client_against_our_server_with_rsa_pss_certificates() {
    if !openssl_available() {
        return;
    }
    let suite = suites::TLS13_AES_256_GCM_SHA384;
    for (id, sigalgs, scheme) in [
        ("pss", None, SignatureScheme::RSA_PSS_PSS_SHA256),
        ("pss", Some("rsa_pss_pss_sha512"), SignatureScheme::RSA_PSS_PSS_SHA512),
        ("pss-sha384", None, SignatureScheme::RSA_PSS_PSS_SHA384),
    ] {
        let n = s_client_id_round(suite, "X25519", &[NamedGroup::X25519], id, sigalgs);
        assert_eq!(n.scheme, scheme, "{id} {sigalgs:?}");
    }
}

#[cfg(feature = "server")]
fn s_client_round(suite: Suite, groups: &str, server_groups: &[NamedGroup]) {
    s_client_id_round(suite, groups, server_groups, "ed25519", None);
}

#[cfg(feature = "server")]
fn s_client_id_round(
    suite: Suite,
    groups: &str,
    server_groups: &[NamedGroup],
    id: &str,
    sigalgs: Option<&str>,
) -> Negotiated {
    let [cert_pem, key_pem, ca_pem, _] = files(id);
    let cert_der = tls_pem(&cert_pem, "CERTIFICATE");
    let key = tls::SigningKey::from_pkcs8_der(&tls_pem(&key_pem, "PRIVATE KEY")).unwrap();
    let chain: [&[u8]; 1] = [&cert_der];
    let suite = &suite;
    {
        let (listener, port) = listen();
        let mut args =
            vec!["-tls1_3", "-ciphersuites", iana(*suite), "-groups", groups, "-ign_eof"];
        args.extend(sigalgs.iter().flat_map(|s| ["-sigalgs", *s]));
        let mut client = s_client(port, &ca_pem, &args, None);
        client.stdin.take().unwrap().write_all(b"ping from s_client\n").unwrap();
        let sock = accept(&listener);
        let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
        let suites = [*suite];
        let certs = [tls::CertifiedKey { chain: &chain, key: &key }];
        let config =
            ServerConfig { suites: &suites, groups: server_groups, ..ServerConfig::new(&certs) };
        let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
        let mut conn = Connection::server(config, bufs, &mut OsRandom).unwrap();
        let mut stream = Stream { conn: &mut conn, sock };
        stream.handshake().unwrap_or_else(|e| panic!("{}: {e}", iana(*suite)));
        let got = peer::read_line(&mut stream, "s_client");
        assert_eq!(got, b"ping from s_client\n");
        stream.write_all(b"pong from halite\n").unwrap();
        stream.close().unwrap();
        drop(stream);
        let out = client.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("pong from halite"), "{}: {stdout}", iana(*suite));
        assert!(stdout.contains("Verify return code: 0 (ok)"), "{stdout}");
        assert!(stdout.contains(iana(*suite)), "{stdout}");
        assert_eq!(conn.server_name(), Some("localhost"));
        let n = conn.negotiated().unwrap();
        assert_eq!(n.retried, groups == "P-256:X25519");
        let expected = match groups {
            "P-256" => NamedGroup::SECP256R1,
            "P-384" => NamedGroup::SECP384R1,
            "P-521" => NamedGroup::SECP521R1,
            _ => NamedGroup::X25519,
        };
        assert_eq!(n.group, expected);
        n
    }
}

/// The first PEM block labelled `label` in `path`, decoded (base64 by hand: no dependency).
#[cfg(feature = "server")]
fn tls_pem(path: &str, label: &str) -> Vec<u8> {
    let text = std::fs::read_to_string(path).unwrap();
    let begin = format!("-----BEGIN {label}-----");
    let start = text.find(&begin).unwrap() + begin.len();
    let end = start + text[start..].find("-----END").unwrap();
    let (mut acc, mut bits, mut out) = (0u32, 0, Vec::new());
    for c in text[start..end].bytes().filter(|c| !c.is_ascii_whitespace() && *c != b'=') {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            _ => 63,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

/// Our client authenticates with ECDSA and RSA certificates to `s_server -Verify 1`, which
/// refuses clients without a valid one.
#[test]
fn our_client_certificate_against_openssl_s_server() {
    if !openssl_available() {
        return;
    }
    let ca = CertificateDer::from(&include_bytes!("data/ca.der")[..]);
    let roots = [webpki::anchor_from_trusted_cert(&ca).unwrap()];
    for (id, scheme) in [
        ("p256", SignatureScheme::ECDSA_SECP256R1_SHA256),
        ("rsa", SignatureScheme::RSA_PSS_RSAE_SHA256),
        ("ed25519", SignatureScheme::ED25519),
        // An RSASSA-PSS key: s_server must find rsa_pss_pss_sha256 in our CertificateVerify.
        ("pss", SignatureScheme::RSA_PSS_PSS_SHA256),
    ] {
        let client_ca =
            if id == "ed25519" { data("ca.pem") } else { data(&format!("ca-{id}.pem")) };
        let verify = ["-Verify", "1", "-CAfile", &client_ca, "-verify_return_error"];
        let args = [&["-tls1_3", "-www", "-naccept", "1"][..], &verify].concat();
        let (_server, port) = s_server("server", &args, Stdio::null());
        let cert_der = std::fs::read(data(&format!("client-{id}.der"))).unwrap();
        let key = tls::SigningKey::from_pkcs8_der(
            &std::fs::read(data(&format!("client-{id}.key.der"))).unwrap(),
        )
        .unwrap();
        let chain: [&[u8]; 1] = [&cert_der];
        let sock = connect_retrying(port);
        let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
        let config = ClientConfig {
            client_cert: Some(tls::CertifiedKey { chain: &chain, key: &key }),
            ..ClientConfig::new(&roots, &tls::SystemClock)
        };
        let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
        let mut conn = Connection::client(config, "localhost", bufs, &mut OsRandom).unwrap();
        let mut stream = Stream { conn: &mut conn, sock };
        stream.handshake().unwrap_or_else(|e| panic!("{id}: {e}"));
        let page = get_page(&mut stream);
        assert!(page.contains("Halite test client"), "s_server shows our certificate: {page}");
        assert_eq!(conn.negotiated().unwrap().client_auth, Some(scheme), "{id}");
    }
}

/// `s_client -cert` against our server requiring client certificates; and without one, the
/// server refuses it with `certificate_required`.
#[cfg(feature = "server")]
#[test]
fn openssl_s_client_certificate_against_our_server() {
    if !openssl_available() {
        return;
    }
    for (id, with_cert) in [("p384", true), ("rsa", true), ("p256", false)] {
        let ca_der = std::fs::read(data(&format!("ca-{id}.der"))).unwrap();
        let ca = CertificateDer::from(&ca_der[..]);
        let client_roots = [webpki::anchor_from_trusted_cert(&ca).unwrap()];
        let key = tls::SigningKey::from_pkcs8_der(include_bytes!("data/server.key.der")).unwrap();
        let chain: [&[u8]; 1] = [include_bytes!("data/server.der")];
        let (listener, port) = listen();
        let client_pem = data(&format!("client-{id}.pem"));
        let client_key = data(&format!("client-{id}.key"));
        let mut args = vec!["-tls1_3", "-ign_eof"];
        if with_cert {
            args.extend(["-cert", &client_pem, "-key", &client_key]);
        }
        let mut client = s_client(port, &data("ca.pem"), &args, None);
        client.stdin.take().unwrap().write_all(b"ping\n").unwrap();
        let sock = accept(&listener);
        let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
        let certs = [tls::CertifiedKey { chain: &chain, key: &key }];
        let config = ServerConfig {
            client_auth: Some(tls::ClientAuth::new(&client_roots, &tls::SystemClock)),
            ..ServerConfig::new(&certs)
        };
        let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
        let mut conn = Connection::server(config, bufs, &mut OsRandom).unwrap();
        let mut stream = Stream { conn: &mut conn, sock };
        let r = stream.handshake();
        if !with_cert {
            assert_eq!(
                r.map_err(|e| e.to_string()),
                Err(tls::Error::InvalidCertificate(tls::CertificateError::NoCertificate)
                    .to_string())
            );
            drop(stream);
            let out = client.wait_with_output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(stderr.contains("certificate required"), "{stderr}");
            continue;
        }
        r.unwrap_or_else(|e| panic!("{id}: {e}"));
        let got = peer::read_line(&mut stream, "s_client");
        assert_eq!(got, b"ping\n");
        stream.close().unwrap();
        drop(stream);
        let _ = client.wait_with_output().unwrap();
        let expected = match id {
            "p384" => SignatureScheme::ECDSA_SECP384R1_SHA384,
            _ => SignatureScheme::RSA_PSS_RSAE_SHA256,
        };
        assert_eq!(conn.negotiated().unwrap().client_auth, Some(expected), "{id}");
    }
}

/// Our client resumes with a ticket from `s_server` (two connections to one `s_server`; the
/// `-www` page says `Reused` the second time).
#[test]
#[cfg(feature = "tickets")]
fn our_client_resumes_against_openssl_s_server() {
    if !openssl_available() {
        return;
    }
    s_server_resume_rounds(&[]);
}

/// Listing only `psk_ke`, our client resumes without a key exchange against
/// `s_server -allow_no_dhe_kex`.
#[test]
#[cfg(feature = "tickets")]
fn our_client_resumes_with_psk_ke_against_openssl_s_server() {
    if !openssl_available() {
        return;
    }
    s_server_resume_rounds(&[PskKeyExchangeMode::PSK_KE]);
}

#[cfg(feature = "tickets")]
fn s_server_resume_rounds(psk_modes: &[PskKeyExchangeMode]) {
    let ca = CertificateDer::from(&include_bytes!("data/ca.der")[..]);
    let roots = [webpki::anchor_from_trusted_cert(&ca).unwrap()];
    let store = tls::ticket::MemoryTicketStore::default();
    let args = ["-tls1_3", "-www", "-naccept", "2", "-allow_no_dhe_kex"];
    let (_server, port) = s_server("server", &args, Stdio::null());
    for round in 0..2 {
        let sock = connect_retrying(port);
        let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
        let config = ClientConfig {
            tickets: Some(&store),
            psk_modes,
            ..ClientConfig::new(&roots, &tls::SystemClock)
        };
        let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
        let mut conn = Connection::client(config, "localhost", bufs, &mut OsRandom).unwrap();
        let mut stream = Stream { conn: &mut conn, sock };
        stream.handshake().unwrap_or_else(|e| panic!("round {round}: {e}"));
        let page = get_page(&mut stream);
        let n = conn.negotiated().unwrap();
        assert_eq!(n.resumed, round == 1, "round {round}");
        let no_key_exchange = n.group == NamedGroup(0);
        assert_eq!(no_key_exchange, !psk_modes.is_empty() && round == 1, "round {round}");
        assert_eq!(page.contains("Reused, TLSv1.3"), round == 1, "{page}");
    }
}

/// `s_client -sess_out` then `-sess_in` against our server: the second handshake resumes
/// from the ticket our server issued.
#[cfg(feature = "server")]
#[test]
fn openssl_s_client_resumes_against_our_server() {
    if !openssl_available() {
        return;
    }
    s_client_resume_rounds(false);
}

/// With `-allow_no_dhe_kex` `s_client` lists `psk_ke`, and our server allowing it resumes
/// without a key exchange.
#[cfg(feature = "server")]
#[test]
fn openssl_s_client_resumes_with_psk_ke() {
    if !openssl_available() {
        return;
    }
    s_client_resume_rounds(true);
}

#[cfg(feature = "server")]
fn s_client_resume_rounds(psk_ke: bool) {
    let sess =
        std::env::temp_dir().join(format!("halite-sess-{}-{psk_ke}.pem", std::process::id()));
    let sess = sess.to_string_lossy().into_owned();
    let ticket_key = tls::ticket::TicketKey::new(&[9; 32]).unwrap();
    let key = tls::SigningKey::from_pkcs8_der(include_bytes!("data/server.key.der")).unwrap();
    let chain: [&[u8]; 1] = [include_bytes!("data/server.der")];
    for round in 0..2 {
        let (listener, port) = listen();
        let flag = if round == 0 { "-sess_out" } else { "-sess_in" };
        let mut args = vec!["-tls1_3", "-ign_eof", flag, &sess];
        if psk_ke {
            args.push("-allow_no_dhe_kex");
        }
        let mut client = s_client(port, &data("ca.pem"), &args, None);
        client.stdin.take().unwrap().write_all(b"ping\n").unwrap();
        let sock = accept(&listener);
        let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
        let certs = [tls::CertifiedKey { chain: &chain, key: &key }];
        let config = ServerConfig {
            tickets: Some(tls::ServerTickets {
                key: &ticket_key,
                lifetime: 3600,
                count: 2,
                clock: &tls::SystemClock,
                psk_ke,
                max_auth_age: 604_800,
            }),
            ..ServerConfig::new(&certs)
        };
        let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
        let mut conn = Connection::server(config, bufs, &mut OsRandom).unwrap();
        let mut stream = Stream { conn: &mut conn, sock };
        stream.handshake().unwrap_or_else(|e| panic!("round {round}: {e}"));
        peer::read_line(&mut stream, "s_client");
        stream.write_all(b"pong\n").unwrap();
        stream.close().unwrap();
        drop(stream);
        let out = client.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("pong"), "{stdout}");
        assert_eq!(stdout.contains("Reused, TLSv1.3"), round == 1, "round {round}: {stdout}");
        let n = conn.negotiated().unwrap();
        assert_eq!(n.resumed, round == 1, "round {round}");
        let no_key_exchange = n.group == NamedGroup(0);
        assert_eq!(no_key_exchange, psk_ke && round == 1, "round {round}");
    }
    let _ = std::fs::remove_file(&sess);
}

/// Our client offers `max_fragment_length` 512 (and `record_size_limit`, which OpenSSL does
/// not implement and ignores) to `s_server`, which accepts the fragment length: the whole
/// exchange fits a receive buffer of one 512-byte record (534 bytes), also when `s_server`
/// pads its records (`-record_padding`, which OpenSSL caps at the fragment length).
#[test]
fn our_client_max_fragment_length_against_openssl_s_server() {
    if !openssl_available() {
        return;
    }
    let ca = CertificateDer::from(&include_bytes!("data/ca.der")[..]);
    let roots = [webpki::anchor_from_trusted_cert(&ca).unwrap()];
    for padding in [None, Some("256")] {
        let mut args = vec!["-tls1_3", "-www", "-naccept", "1"];
        args.extend(padding.iter().flat_map(|p| ["-record_padding", *p]));
        let (_server, port) = s_server("server", &args, Stdio::null());
        let sock = connect_retrying(port);
        let (mut rx, mut tx, mut hs) = (vec![0; 5 + 513 + 16], vec![0; 17_000], vec![0; 8_000]);
        let config = ClientConfig {
            record_size_limit: Some(256),
            max_fragment_length: Some(MaxFragmentLength::LEN_512),
            ..ClientConfig::new(&roots, &tls::SystemClock)
        };
        let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
        let mut conn = Connection::client(config, "localhost", bufs, &mut OsRandom).unwrap();
        let mut stream = Stream { conn: &mut conn, sock };
        stream.handshake().unwrap_or_else(|e| panic!("padding {padding:?}: {e}"));
        let page = get_page(&mut stream);
        assert!(page.len() > 2000, "the page spans several records: {page}");
        assert_eq!(conn.error(), None);
        assert_eq!(conn.record_limits(), RecordLimits { send: 512, receive: 513 });
    }
}

/// `s_client -maxfraglen 512` against our server: the server echoes it, splits its flight
/// and a 3000-byte reply into 512-byte records, and takes `s_client`'s records (padded with
/// `-record_padding` in the second round) in a receive buffer of one such record.
#[cfg(feature = "server")]
#[test]
fn openssl_s_client_max_fragment_length_against_our_server() {
    if !openssl_available() {
        return;
    }
    let key = tls::SigningKey::from_pkcs8_der(include_bytes!("data/server.key.der")).unwrap();
    let chain: [&[u8]; 1] = [include_bytes!("data/server.der")];
    let reply: Vec<u8> = (0..3000u32).map(|i| b'a' + (i % 26) as u8).chain(*b"\n").collect();
    for padding in [None, Some("512")] {
        let (listener, port) = listen();
        let mut args = vec!["-tls1_3", "-ign_eof", "-maxfraglen", "512"];
        args.extend(padding.iter().flat_map(|p| ["-record_padding", *p]));
        let mut client = s_client(port, &data("ca.pem"), &args, None);
        client.stdin.take().unwrap().write_all(&[b'p'; 700]).unwrap();
        let sock = accept(&listener);
        let (mut rx, mut tx, mut hs) = (vec![0; 5 + 513 + 16], vec![0; 17_000], vec![0; 8_000]);
        let certs = [tls::CertifiedKey { chain: &chain, key: &key }];
        let config = ServerConfig::new(&certs);
        let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
        let mut conn = Connection::server(config, bufs, &mut OsRandom).unwrap();
        let mut stream = Stream { conn: &mut conn, sock };
        stream.handshake().unwrap_or_else(|e| panic!("padding {padding:?}: {e}"));
        let mut got = Vec::new();
        let mut buf = [0u8; 256];
        while got.len() < 700 {
            let n = stream.read(&mut buf).unwrap();
            assert!(n > 0, "s_client closed early");
            got.extend_from_slice(&buf[..n]);
        }
        assert_eq!(got, [b'p'; 700]);
        stream.write_all(&reply).unwrap();
        stream.close().unwrap();
        drop(stream);
        let out = client.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let reply = String::from_utf8_lossy(&reply);
        assert!(stdout.contains(&*reply), "padding {padding:?}: {stdout}");
        assert_eq!(conn.record_limits(), RecordLimits { send: 512, receive: 513 });
    }
}

/// The external PSK both sides of the PSK interop tests share (`-psk` takes it in hex).
const PSK_IDENTITY: &str = "halite-device-7";
const PSK_KEY: [u8; 32] = *b"\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff\x00\
    \x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10";

fn psk_hex() -> String {
    use std::fmt::Write as _;
    PSK_KEY.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

fn external_psk() -> tls::ExternalPsk<'static> {
    tls::ExternalPsk {
        identity: PSK_IDENTITY.as_bytes(),
        key: &PSK_KEY,
        hash: tls::key_schedule::HashAlg::Sha256,
    }
}

/// Our client with an external PSK and no trusted roots against
/// `s_server -psk_identity -psk -nocert`, in `psk_dhe_ke` mode and (with
/// `-allow_no_dhe_kex`) `psk_ke` mode (which shows the `ext binder` label and the PSK key
/// schedule agree with OpenSSL's), and through a `HelloRetryRequest`; a wrong key is refused
/// by `s_server`.
#[cfg(feature = "p256")]
#[test]
fn our_client_external_psk_against_openssl_s_server() {
    if !openssl_available() {
        return;
    }
    // The third round's server takes only P-256, so the PSK is offered again, with a new
    // binder, after a HelloRetryRequest.
    for (modes, key, groups) in [
        (&[][..], PSK_KEY, "X25519:P-256"),
        (&[PskKeyExchangeMode::PSK_KE][..], PSK_KEY, "X25519:P-256"),
        (&[][..], PSK_KEY, "P-256"),
        (&[][..], [0x5a; 32], "X25519:P-256"),
    ] {
        let right_key = key == PSK_KEY;
        let port = free_port();
        let _server = Killed(
            Command::new("openssl")
                .args(["s_server", "-accept"])
                .arg(format!("127.0.0.1:{port}"))
                .args(["-nocert", "-psk_identity", PSK_IDENTITY, "-psk", &psk_hex()])
                .args(["-tls1_3", "-ciphersuites", "TLS_AES_128_GCM_SHA256", "-groups", groups])
                .args(["-allow_no_dhe_kex", "-www", "-naccept", "1"])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap(),
        );
        let sock = connect_retrying(port);
        let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
        let config = ClientConfig {
            psk_modes: modes,
            external_psk: Some(&tls::ExternalPsk { key: &key, ..external_psk() }),
            ..ClientConfig::new(&[], &tls::SystemClock)
        };
        let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
        let mut conn = Connection::client(config, "localhost", bufs, &mut OsRandom).unwrap();
        let mut stream = Stream { conn: &mut conn, sock };
        let r = stream.handshake();
        if !right_key {
            assert!(r.is_err(), "a wrong key must fail");
            // s_server refuses the binder: OpenSSL 3.0 says illegal_parameter where RFC 8446
            // §6.2 suggests decrypt_error (which our server sends); either is an abort.
            let alert = match conn.error() {
                Some(tls::Error::AlertReceived(a)) => a,
                e => panic!("{e:?}"),
            };
            let refusals = [AlertDescription::ILLEGAL_PARAMETER, AlertDescription::DECRYPT_ERROR];
            assert!(refusals.contains(&alert), "{alert:?}");
            assert!(conn.negotiated().is_none());
            continue;
        }
        r.unwrap_or_else(|e| panic!("{modes:?}: {e}"));
        get_page(&mut stream);
        let n = conn.negotiated().unwrap();
        assert!(n.external_psk && !n.resumed, "{n:?}");
        assert_eq!(n.scheme, SignatureScheme(0));
        assert_eq!(n.group == NamedGroup(0), !modes.is_empty(), "{modes:?}");
        assert_eq!(n.retried, groups == "P-256", "{groups}");
    }
}

/// `s_client -psk_identity -psk` against our server holding the PSK and no certificate, in
/// `psk_dhe_ke` mode, (with `-allow_no_dhe_kex` on both) `psk_ke`, and through a
/// `HelloRetryRequest`; an unknown identity is refused with `unknown_psk_identity`.
#[cfg(feature = "server")]
#[test]
fn openssl_s_client_external_psk_against_our_server() {
    if !openssl_available() {
        return;
    }
    let keys = [external_psk()];
    // In the third round `s_client` sends a P-256 share first, so our server (taking only
    // x25519) asks for another with a HelloRetryRequest and checks the new binder.
    for (identity, psk_ke, groups) in [
        (PSK_IDENTITY, false, "X25519"),
        (PSK_IDENTITY, true, "X25519"),
        (PSK_IDENTITY, false, "P-256:X25519"),
        ("stranger", false, "X25519"),
    ] {
        let (listener, port) = listen();
        let mut client = Command::new("openssl")
            .args(["s_client", "-connect"])
            .arg(format!("127.0.0.1:{port}"))
            .args(["-psk_identity", identity, "-psk", &psk_hex()])
            .args(["-tls1_3", "-ciphersuites", "TLS_AES_128_GCM_SHA256", "-ign_eof"])
            .args(["-groups", groups])
            .args(if psk_ke { &["-allow_no_dhe_kex"][..] } else { &[] })
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        client.stdin.take().unwrap().write_all(b"ping\n").unwrap();
        let sock = accept(&listener);
        let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
        let config = ServerConfig {
            groups: if groups == "X25519" {
                tls::kx::DEFAULT_GROUPS
            } else {
                &[NamedGroup::X25519]
            },
            psks: Some(&tls::ServerPsks { keys: &keys, psk_ke }),
            ..ServerConfig::new(&[])
        };
        let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
        let mut conn = Connection::server(config, bufs, &mut OsRandom).unwrap();
        let mut stream = Stream { conn: &mut conn, sock };
        let r = stream.handshake();
        if identity != PSK_IDENTITY {
            assert_eq!(
                r.map_err(|e| e.to_string()),
                Err(tls::Error::PeerIncompatible(tls::PeerIncompatible::UnknownPskIdentity)
                    .to_string())
            );
            drop(stream);
            let out = client.wait_with_output().unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(stderr.contains("unknown psk identity"), "{stderr}");
            continue;
        }
        r.unwrap_or_else(|e| panic!("psk_ke {psk_ke}: {e}"));
        let got = peer::read_line(&mut stream, "s_client");
        assert_eq!(got, b"ping\n");
        stream.write_all(b"pong from a certificate-less server\n").unwrap();
        stream.close().unwrap();
        drop(stream);
        let out = client.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("pong from a certificate-less server"), "{stdout}");
        let n = conn.negotiated().unwrap();
        assert!(n.external_psk, "{n:?}");
        assert_eq!(n.group == NamedGroup(0), psk_ke, "psk_ke {psk_ke}");
        assert_eq!(n.retried, groups == "P-256:X25519", "{groups}");
    }
}
