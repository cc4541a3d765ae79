//! Interop with OpenSSL 3 over loopback TCP: a rustls client on this provider against
//! `openssl s_server`, and `openssl s_client` against a rustls server on this provider, for
//! every TLS 1.3 and TLS 1.2 suite × group. Skipped, with the reason printed, when `openssl`
//! is not installed.

mod common;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{Cert, Side, client_config, narrowed, server_config};
use pki_types::ServerName;
use rustls::version::{TLS12, TLS13};
use rustls::{CipherSuite, NamedGroup, SupportedProtocolVersion};

/// A peer process, killed and reaped when the test ends (also on a panic).
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn openssl_available() -> bool {
    match Command::new("openssl").arg("version").output() {
        Ok(o) if o.status.success() => true,
        _ => {
            println!("skipping: `openssl` is not installed or does not run");
            false
        }
    }
}

fn tls_data(name: &str) -> String {
    let p: PathBuf =
        [env!("CARGO_MANIFEST_DIR"), "..", "tls", "tests", "data", name].iter().collect();
    p.to_string_lossy().into_owned()
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn connect_retrying(port: u16) -> TcpStream {
    let start = Instant::now();
    loop {
        match TcpStream::connect(("127.0.0.1", port)) {
            Ok(s) => return s,
            Err(_) if start.elapsed() < Duration::from_secs(10) => {
                std::thread::sleep(Duration::from_millis(30));
            }
            Err(e) => panic!("the peer on port {port} did not come up: {e}"),
        }
    }
}

/// A case: version, suite, OpenSSL's name for it, and the certificate it needs.
struct Case {
    version: &'static SupportedProtocolVersion,
    suite: CipherSuite,
    openssl: &'static str,
    cert: Cert,
}

fn cases() -> Vec<Case> {
    use CipherSuite as S;
    let t13 = |suite, openssl| Case { version: &TLS13, suite, openssl, cert: Cert::P256 };
    let t12 = |suite, openssl, cert| Case { version: &TLS12, suite, openssl, cert };
    vec![
        t13(S::TLS13_AES_128_GCM_SHA256, "TLS_AES_128_GCM_SHA256"),
        t13(S::TLS13_AES_256_GCM_SHA384, "TLS_AES_256_GCM_SHA384"),
        t13(S::TLS13_CHACHA20_POLY1305_SHA256, "TLS_CHACHA20_POLY1305_SHA256"),
        t13(S::TLS13_AES_128_CCM_SHA256, "TLS_AES_128_CCM_SHA256"),
        t13(S::TLS13_AES_128_CCM_8_SHA256, "TLS_AES_128_CCM_8_SHA256"),
        t12(
            S::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
            "ECDHE-ECDSA-AES128-GCM-SHA256",
            Cert::P256,
        ),
        t12(
            S::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
            "ECDHE-ECDSA-AES256-GCM-SHA384",
            Cert::P256,
        ),
        t12(
            S::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
            "ECDHE-ECDSA-CHACHA20-POLY1305",
            Cert::P256,
        ),
        t12(S::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, "ECDHE-RSA-AES128-GCM-SHA256", Cert::Rsa),
        t12(S::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, "ECDHE-RSA-AES256-GCM-SHA384", Cert::Rsa),
        t12(
            S::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
            "ECDHE-RSA-CHACHA20-POLY1305",
            Cert::Rsa,
        ),
    ]
}

const GROUPS: [(NamedGroup, &str); 4] = [
    (NamedGroup::X25519, "X25519"),
    (NamedGroup::secp256r1, "P-256"),
    (NamedGroup::secp384r1, "P-384"),
    (NamedGroup::secp521r1, "P-521"),
];

/// The PEM files of a server identity: certificate, key, root.
fn pems(cert: Cert) -> [String; 3] {
    let name = match cert {
        Cert::Rsa => "rsa",
        Cert::RsaPss => "pss",
        _ => "p256",
    };
    [
        tls_data(&format!("server-{name}.pem")),
        tls_data(&format!("server-{name}.key")),
        tls_data(&format!("ca-{name}.pem")),
    ]
}

/// Whether the client must also offer P-256: OpenSSL accepts a TLS 1.2 ECDSA certificate
/// only on a curve in the client's supported groups (RFC 8422 §5.1), whichever group the
/// key exchange then uses.
fn needs_p256_too(case: &Case, group: NamedGroup) -> bool {
    case.version.version == rustls::ProtocolVersion::TLSv1_2
        && case.cert == Cert::P256
        && group != NamedGroup::secp256r1
}

/// The version flags and suite selection for an OpenSSL peer.
fn openssl_suite_args(case: &Case) -> [&'static str; 3] {
    if case.version.version == rustls::ProtocolVersion::TLSv1_3 {
        ["-tls1_3", "-ciphersuites", case.openssl]
    } else {
        ["-tls1_2", "-cipher", case.openssl]
    }
}

#[test]
fn halite_client_against_openssl_s_server() {
    if !openssl_available() {
        return;
    }
    let mut runs = 0;
    for case in cases() {
        for (group, group_name) in GROUPS {
            let what = format!("{} {group_name}", case.openssl);
            let [cert, key, _] = pems(case.cert);
            let port = free_port();
            let _server = Killed(
                Command::new("openssl")
                    .args(["s_server", "-accept"])
                    .arg(format!("127.0.0.1:{port}"))
                    .args(["-cert", &cert, "-key", &key])
                    .args(openssl_suite_args(&case))
                    .args(["-groups", group_name, "-www", "-naccept", "1"])
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .unwrap(),
            );
            let mut provider = narrowed(Side::Halite, case.suite, group).unwrap();
            if needs_p256_too(&case, group) {
                provider.kx_groups.push(rustls_halite::kx_group::SECP256R1);
            }
            let config = client_config(provider, case.version, case.cert, None).unwrap();
            let name = ServerName::try_from("localhost").unwrap();
            let conn = rustls::ClientConnection::new(Arc::new(config), name).unwrap();
            let sock = connect_retrying(port);
            sock.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
            let mut tls = rustls::StreamOwned::new(conn, sock);
            tls.write_all(b"GET / HTTP/1.0\r\n\r\n").unwrap_or_else(|e| panic!("{what}: {e}"));
            let mut page = Vec::new();
            // s_server may close without close_notify after the page; the page is what counts.
            let _ = tls.read_to_end(&mut page);
            let page = String::from_utf8_lossy(&page);
            assert!(page.starts_with("HTTP/1.0 200 ok"), "{what}: {page}");
            assert!(page.contains(case.openssl), "{what}: s_server reports another suite: {page}");
            let c = &tls.conn;
            assert_eq!(c.negotiated_cipher_suite().map(|s| s.suite()), Some(case.suite), "{what}");
            assert_eq!(
                c.negotiated_key_exchange_group().map(rustls::crypto::SupportedKxGroup::name),
                Some(group),
                "{what}"
            );
            runs += 1;
        }
    }
    assert_eq!(runs, 44);
}

/// Runs `openssl s_client` with `args` against a rustls server with `config`, trusting `ca`:
/// the client sends a line, the server answers. Returns what the server negotiated and what
/// `s_client` printed.
fn s_client_against(
    config: Arc<rustls::ServerConfig>,
    args: &[&str],
    ca: &str,
) -> (Result<(CipherSuite, NamedGroup), String>, String) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = std::thread::spawn(move || -> Result<(CipherSuite, NamedGroup), String> {
        let (sock, _) = listener.accept().map_err(|e| e.to_string())?;
        sock.set_read_timeout(Some(Duration::from_secs(10))).map_err(|e| e.to_string())?;
        let conn = rustls::ServerConnection::new(config).map_err(|e| e.to_string())?;
        let mut tls = rustls::StreamOwned::new(conn, sock);
        let mut line = [0u8; 5];
        tls.read_exact(&mut line).map_err(|e| format!("read: {e}"))?;
        if &line != b"ping\n" {
            return Err(format!("got {line:?}"));
        }
        tls.write_all(b"pong from halite\n").map_err(|e| format!("write: {e}"))?;
        tls.conn.send_close_notify();
        tls.flush().map_err(|e| format!("flush: {e}"))?;
        let suite = tls.conn.negotiated_cipher_suite().map(|s| s.suite());
        let group =
            tls.conn.negotiated_key_exchange_group().map(rustls::crypto::SupportedKxGroup::name);
        suite.zip(group).ok_or_else(|| "nothing negotiated".into())
    });
    let mut client = Killed(
        Command::new("openssl")
            .args(["s_client", "-connect"])
            .arg(format!("127.0.0.1:{port}"))
            .args(args)
            .args(["-CAfile", ca, "-verify_return_error"])
            .args(["-servername", "localhost", "-verify_hostname", "localhost", "-ign_eof"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    client.0.stdin.take().unwrap().write_all(b"ping\n").unwrap();
    let negotiated = server.join().unwrap();
    let mut out = String::new();
    client.0.stdout.take().unwrap().read_to_string(&mut out).unwrap();
    (negotiated, out)
}

#[test]
fn openssl_s_client_against_halite_server() {
    if !openssl_available() {
        return;
    }
    let mut runs = 0;
    for case in cases() {
        for (group, group_name) in GROUPS {
            let what = format!("{} {group_name}", case.openssl);
            let provider = narrowed(Side::Halite, case.suite, group).unwrap();
            let config = Arc::new(server_config(provider, case.version, case.cert, None).unwrap());
            let [_, _, ca] = pems(case.cert);
            let groups = if needs_p256_too(&case, group) {
                format!("{group_name}:P-256")
            } else {
                group_name.to_string()
            };
            let mut args = openssl_suite_args(&case).to_vec();
            args.extend(["-groups", &groups]);
            let (negotiated, out) = s_client_against(config, &args, &ca);
            let negotiated = negotiated.unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(negotiated, (case.suite, group), "{what}");
            assert!(out.contains("pong from halite"), "{what}: {out}");
            assert!(out.contains("Verify return code: 0 (ok)"), "{what}: {out}");
            runs += 1;
        }
    }
    assert_eq!(runs, 44);
}

/// An RSASSA-PSS server key signs with `rsa_pss_pss_*` (the only schemes it offers) in TLS 1.3,
/// and OpenSSL verifies the signature: restricted to one scheme by `s_client`'s `-sigalgs`, each
/// of the three works. In TLS 1.2 rustls drops those schemes (it has no name for them), so the
/// handshake fails rather than sign with a scheme the key's certificate forbids.
#[test]
fn openssl_s_client_against_halite_rsa_pss_key() {
    if !openssl_available() {
        return;
    }
    let tls13 = Case {
        version: &TLS13,
        suite: CipherSuite::TLS13_AES_128_GCM_SHA256,
        openssl: "TLS_AES_128_GCM_SHA256",
        cert: Cert::RsaPss,
    };
    let tls12 = Case {
        version: &TLS12,
        suite: CipherSuite::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
        openssl: "ECDHE-RSA-AES128-GCM-SHA256",
        cert: Cert::RsaPss,
    };
    let [_, _, ca] = pems(Cert::RsaPss);
    let run = |case: &Case, sigalg: &str| {
        let provider = narrowed(Side::Halite, case.suite, NamedGroup::X25519).unwrap();
        let config = Arc::new(server_config(provider, case.version, case.cert, None).unwrap());
        let mut args = openssl_suite_args(case).to_vec();
        args.extend(["-groups", "X25519", "-sigalgs", sigalg]);
        s_client_against(config, &args, &ca)
    };
    for (sigalg, digest) in [
        ("rsa_pss_pss_sha256", "SHA256"),
        ("rsa_pss_pss_sha384", "SHA384"),
        ("rsa_pss_pss_sha512", "SHA512"),
    ] {
        let (negotiated, out) = run(&tls13, sigalg);
        let negotiated = negotiated.unwrap_or_else(|e| panic!("{sigalg}: {e}"));
        assert_eq!(negotiated, (tls13.suite, NamedGroup::X25519), "{sigalg}");
        assert!(out.contains("pong from halite"), "{sigalg}: {out}");
        assert!(out.contains("Verify return code: 0 (ok)"), "{sigalg}: {out}");
        assert!(out.contains(&format!("Peer signing digest: {digest}")), "{sigalg}: {out}");
        assert!(out.contains("Peer signature type: RSA-PSS"), "{sigalg}: {out}");
    }
    // TLS 1.2: offered alone, the PSS schemes leave none in common; offered with an rsae one,
    // the key still refuses to sign rsae.
    for (sigalgs, why) in [
        ("rsa_pss_pss_sha256", "NoSignatureSchemesInCommon"),
        ("rsa_pss_pss_sha256:rsa_pss_rsae_sha256", "incompatible signing key"),
    ] {
        let err = run(&tls12, sigalgs).0.unwrap_err();
        assert!(err.contains(why), "{sigalgs}: {err}");
    }
}
