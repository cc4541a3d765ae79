//! The TLS 1.2 server against `openssl s_client -tls1_2` over loopback TCP: every suite
//! Halite implements (the CCM ones too) with the P-256, Ed25519 and RSA-2048 certificates,
//! over every group; and what it refuses: a client without the extended master secret
//! (`Options = -ExtendedMasterSecret` through an OpenSSL configuration file, as 3.0's
//! `s_client` has no `-no_ems`), TLS 1.1 and 1.0, and a renegotiation (`s_client`'s `R`
//! command). Skipped, with the reason printed, when `openssl` is not installed.

mod pair;
mod peer;

use std::io::{Read, Write};

use core_hash::OsRandom;
use pair::{buffers, certified, leak};
use peer::{accept, data, listen, openssl_available, read, s_client, serve_s_client};
use tls::msgs::{NamedGroup, ProtocolVersion};
use tls::suites::tls12::{self as s12, Suite12};
use tls::{CertifiedKey, Connection, Error, PeerIncompatible, ServerConfig, Stream};

/// The CA PEM's path and the server certificate with its key of a test identity.
fn identity(id: &str) -> (String, &'static [CertifiedKey<'static>]) {
    let (ca, stem) = if id == "ed25519" {
        ("ca.pem".to_owned(), "server".to_owned())
    } else {
        (format!("ca-{id}.pem"), format!("server-{id}"))
    };
    let cert = certified(read(&format!("{stem}.der")), read(&format!("{stem}.key.der")));
    (data(&ca), leak([cert]))
}

/// One `s_client` connection to our server holding `id`, with `suite` and `group`: a line
/// each way, and both ends agree on TLS 1.2, the suite and the group.
fn round(id: &str, suite: Suite12, group: NamedGroup, group_name: &str) {
    let (ca, certs) = identity(id);
    let (listener, port) = listen();
    // The CCM_8 suite is below OpenSSL's default security level.
    let cipher = format!("{}:@SECLEVEL=0", suite.openssl_name());
    // In TLS 1.2 an ECDSA certificate's curve must be among the client's groups (RFC 8422
    // §5.1); our server takes only `group` for the key exchange.
    let groups = if id == "p256" && group_name != "P-256" {
        format!("{group_name}:P-256")
    } else {
        group_name.to_owned()
    };
    let args = ["-tls1_2", "-cipher", &cipher, "-groups", &groups, "-ign_eof"];
    let mut client = s_client(port, &ca, &args, None);
    client.stdin.as_mut().unwrap().write_all(b"ping from s_client\n").unwrap();
    let sock = accept(&listener);
    let versions = [ProtocolVersion::TLSV1_3, ProtocolVersion::TLSV1_2];
    let server_groups = [group];
    let config = ServerConfig {
        versions: &versions,
        suites12: s12::ALL_SUITES12,
        groups: &server_groups,
        ..ServerConfig::new(certs)
    };
    let mut conn = Connection::server(config, buffers(), &mut OsRandom).unwrap();
    let what = format!("{id} {} {group_name}", suite.iana_name());
    let stdout = serve_s_client(&mut conn, sock, client, &what);
    assert!(stdout.contains("pong from halite"), "{what}: {stdout}");
    assert!(stdout.contains("Verify return code: 0 (ok)"), "{what}: {stdout}");
    assert!(stdout.contains("Protocol  : TLSv1.2"), "{what}: {stdout}");
    assert!(stdout.contains(&format!("Cipher    : {}", suite.openssl_name())), "{what}: {stdout}");
    assert!(stdout.contains("Extended master secret: yes"), "{what}: {stdout}");
    let n = conn.negotiated().unwrap();
    assert_eq!((n.version, n.suite, n.group), (ProtocolVersion::TLSV1_2, suite.suite, group));
    assert_eq!(conn.server_name(), Some("localhost"));
}

#[test]
fn openssl_s_client_tls12_against_our_server() {
    if !openssl_available() {
        return;
    }
    // Every suite Halite implements: five ECDSA ones (with the CCM ones), three RSA ones.
    let with = |auth| s12::ALL_SUITES12.iter().copied().filter(move |s| s.auth == auth);
    for suite in with(s12::Auth::Ecdsa) {
        round("p256", suite, NamedGroup::X25519, "X25519");
        round("ed25519", suite, NamedGroup::X25519, "X25519");
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

/// Our server's handshake with an `s_client` started with `args` (and `env`): its error.
fn refused_with(args: &[&str], env: Option<(&str, &str)>) -> Error {
    let (ca, certs) = identity("p256");
    let (listener, port) = listen();
    let mut client = s_client(port, &ca, args, env);
    let sock = accept(&listener);
    let versions = [ProtocolVersion::TLSV1_3, ProtocolVersion::TLSV1_2];
    let config = ServerConfig { versions: &versions, ..ServerConfig::new(certs) };
    let mut conn = Connection::server(config, buffers(), &mut OsRandom).unwrap();
    let mut stream = Stream { conn: &mut conn, sock };
    let e = stream.handshake().expect_err("the handshake must fail");
    drop(stream);
    let _ = client.kill();
    let _ = client.wait();
    let tls::Error::PeerIncompatible(_) = conn.error().unwrap() else {
        panic!("{e}: {:?}", conn.error());
    };
    conn.error().unwrap()
}

#[test]
fn openssl_s_client_without_extended_master_secret_is_refused() {
    if !openssl_available() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("halite-no-ems-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let conf = dir.join("openssl.cnf");
    std::fs::write(
        &conf,
        "openssl_conf = init\n[init]\nssl_conf = ssl\n[ssl]\nsystem_default = sys\n\
         [sys]\nOptions = -ExtendedMasterSecret\n",
    )
    .unwrap();
    let e = refused_with(&["-tls1_2", "-ign_eof"], Some(("OPENSSL_CONF", conf.to_str().unwrap())));
    assert_eq!(e, Error::PeerIncompatible(PeerIncompatible::NoExtendedMasterSecret));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn openssl_s_client_tls11_and_tls10_are_refused() {
    if !openssl_available() {
        return;
    }
    for v in ["-tls1_1", "-tls1"] {
        let e = refused_with(&[v, "-cipher", "DEFAULT:@SECLEVEL=0", "-ign_eof"], None);
        assert_eq!(e, Error::PeerIncompatible(PeerIncompatible::NoCommonVersion), "{v}");
    }
}

/// `s_client`'s `R` command (read only without `-ign_eof`) renegotiates: our server refuses
/// with a fatal `no_renegotiation`.
#[test]
fn openssl_s_client_renegotiation_is_refused() {
    if !openssl_available() {
        return;
    }
    let (ca, certs) = identity("p256");
    let (listener, port) = listen();
    let mut client = s_client(port, &ca, &["-tls1_2"], None);
    let sock = accept(&listener);
    let versions = [ProtocolVersion::TLSV1_2];
    let config = ServerConfig { versions: &versions, ..ServerConfig::new(certs) };
    let mut conn = Connection::server(config, buffers(), &mut OsRandom).unwrap();
    let mut stream = Stream { conn: &mut conn, sock };
    stream.handshake().unwrap();
    let mut sock = stream.sock;
    client.stdin.as_mut().unwrap().write_all(b"R\n").unwrap();
    let got = loop {
        let space = conn.receive_space();
        let n = sock.read(space).unwrap();
        assert!(n > 0, "s_client closed before renegotiating");
        if let Err(e) = conn.received(n) {
            break e;
        }
    };
    assert_eq!(got, Error::PeerIncompatible(PeerIncompatible::Renegotiation));
    sock.write_all(conn.pending_send()).unwrap();
    drop(client.stdin.take());
    let out = client.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stderr.contains("no renegotiation") || stdout.contains("no renegotiation"),
        "s_client reports the alert: {stdout} {stderr}"
    );
}

/// `s_client -sess_out` then `-sess_in`: the second connection resumes with our ticket
/// (RFC 5077), and both ends say so.
#[test]
fn openssl_s_client_resumes_with_our_ticket() {
    if !openssl_available() {
        return;
    }
    let key = tls::ticket::TicketKey::new(&[9; 32]).unwrap();
    let tickets = tls::ServerTickets::new(&key, &tls::SystemClock);
    let (ca, certs) = identity("p256");
    let sess = std::env::temp_dir().join(format!("halite-tls12-sess-{}", std::process::id()));
    let sess = sess.to_str().unwrap().to_owned();
    for (round, flag) in [(0, "-sess_out"), (1, "-sess_in")] {
        let (listener, port) = listen();
        let mut client = s_client(port, &ca, &["-tls1_2", flag, &sess, "-ign_eof"], None);
        client.stdin.as_mut().unwrap().write_all(b"ping\n").unwrap();
        let sock = accept(&listener);
        let versions = [ProtocolVersion::TLSV1_3, ProtocolVersion::TLSV1_2];
        let config = ServerConfig {
            versions: &versions,
            tickets: Some(tickets),
            ..ServerConfig::new(certs)
        };
        let mut conn = Connection::server(config, buffers(), &mut OsRandom).unwrap();
        let mut stream = Stream { conn: &mut conn, sock };
        stream.handshake().unwrap_or_else(|e| panic!("round {round}: {e}"));
        peer::read_line(&mut stream, "s_client");
        stream.write_all(b"pong\n").unwrap();
        stream.close().unwrap();
        drop(stream);
        drop(client.stdin.take());
        let out = client.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let want = if round == 1 { "Reused, TLSv1.2" } else { "New, TLSv1.2" };
        assert!(stdout.contains(want), "round {round}: {stdout}");
        assert!(stdout.contains("pong"), "round {round}: {stdout}");
        assert_eq!(conn.negotiated().unwrap().resumed, round == 1);
    }
    let _ = std::fs::remove_file(&sess);
}
