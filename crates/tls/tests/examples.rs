//! The `client` and `server` examples over loopback: the server serves clients concurrently
//! with a read timeout, and the client sends and finishes without waiting on timeouts once the
//! handshake is done; the client offers TLS 1.2 and 1.3 unless `--versions` says otherwise and
//! names the version it got (against `openssl s_server`, skipped without `openssl`). The binaries are the ones `cargo test` builds beside this test
//! (`HALITE_EXAMPLES` names another directory).

mod peer;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use core_hash::OsRandom;
use peer::{Killed, connect_retrying, data, free_port, openssl_available};
use tls::{Buffers, Connection, ServerConfig, SigningKey, Stream};

/// The example binary `name`, built by `cargo test` in `target/<profile>/examples`.
fn example(name: &str) -> PathBuf {
    let dir = std::env::var_os("HALITE_EXAMPLES").map_or_else(
        || {
            let exe = std::env::current_exe().unwrap();
            exe.parent().unwrap().parent().unwrap().join("examples")
        },
        PathBuf::from,
    );
    let path = dir.join(name);
    let built = std::fs::metadata(&path).and_then(|m| m.modified());
    let built = built.unwrap_or_else(|_| panic!("{} is not built", path.display()));
    // `cargo test -p tls --test examples` alone does not rebuild the examples.
    if std::env::var_os("HALITE_EXAMPLES").is_none() {
        for source in [format!("examples/{name}.rs"), "examples/common/mod.rs".into()] {
            let source: PathBuf = [env!("CARGO_MANIFEST_DIR"), &source].iter().collect();
            let changed = std::fs::metadata(&source).and_then(|m| m.modified()).unwrap();
            assert!(
                changed <= built,
                "{} is older than {}: run `cargo build -p tls --examples`",
                path.display(),
                source.display()
            );
        }
    }
    path
}

/// Waits up to `limit` for `child` to exit; its stdout, or `None` if it was still running.
fn wait_for(mut child: Child, limit: Duration) -> Option<String> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if child.try_wait().unwrap().is_some() {
            let mut out = String::new();
            child.stdout.take().unwrap().read_to_string(&mut out).unwrap();
            return Some(out);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

fn run_client(port: u16, input: &[u8]) -> Child {
    let mut child = Command::new(example("client"))
        .args(["127.0.0.1", &port.to_string(), "--server-name", "localhost"])
        .args(["--cafile", &data("ca.pem")])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child
}

#[test]
fn the_example_server_serves_a_client_while_another_is_idle() {
    let port = free_port();
    let _server = Killed(
        Command::new(example("server"))
            .args(["--cert", &data("server.pem"), "--key", &data("server.key")])
            .args(["--port", &port.to_string(), "--timeout", "1"])
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    // A client that connects and sends nothing.
    let mut idle = connect_retrying(port);
    let idle_since = Instant::now();
    // Another client is served meanwhile.
    let out = wait_for(run_client(port, b"hello\n"), Duration::from_secs(10));
    assert_eq!(out.as_deref(), Some("hello\n"), "the second client was not served");
    // The idle one is dropped after the timeout, not before.
    idle.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let r = idle.read(&mut [0u8; 16]);
    assert!(matches!(r, Ok(0) | Err(_)), "{r:?}");
    let waited = idle_since.elapsed();
    assert!(waited >= Duration::from_millis(900), "dropped after {waited:?}");
    assert!(waited < Duration::from_secs(8), "still open after {waited:?}");
}

/// How long the example client takes, after its handshake, to send its (already written)
/// stdin, over `rounds` connections: the shortest.
fn client_delay_after_handshake(rounds: usize) -> Duration {
    let key = SigningKey::from_pkcs8_der(&std::fs::read(data("server.key.der")).unwrap()).unwrap();
    let cert = std::fs::read(data("server.der")).unwrap();
    let chain: [&[u8]; 1] = [&cert];
    let certs = [tls::CertifiedKey { chain: &chain, key: &key }];
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let mut best = Duration::MAX;
    for _ in 0..rounds {
        let client = run_client(port, b"ping\n");
        let (sock, _): (TcpStream, _) = listener.accept().unwrap();
        sock.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 17_000], vec![0; 8_000]);
        let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
        let mut conn = Connection::server(ServerConfig::new(&certs), bufs, &mut OsRandom).unwrap();
        let mut stream = Stream { conn: &mut conn, sock };
        stream.handshake().unwrap();
        let done = Instant::now();
        let mut buf = [0u8; 64];
        let n = stream.read(&mut buf).unwrap();
        best = best.min(done.elapsed());
        assert_eq!(&buf[..n], b"ping\n");
        stream.write_all(b"pong\n").unwrap();
        // The client's close_notify (its stdin has ended), then ours.
        assert_eq!(stream.read(&mut buf).unwrap(), 0);
        stream.close().unwrap();
        let out = wait_for(client, Duration::from_secs(10));
        assert_eq!(out.as_deref(), Some("pong\n"));
    }
    best
}

#[test]
fn the_example_client_sends_at_once_after_the_handshake() {
    // The client used to poll the socket with 20 ms read timeouts between stdin reads.
    let delay = client_delay_after_handshake(3);
    assert!(delay < Duration::from_millis(10), "the client waited {delay:?}");
}

/// The example client against `openssl s_server -www` speaking only `server_version`
/// (`-tls1_2`, `-tls1_3`) with the P-256 identity, sending a request: whether it succeeded,
/// and its stderr (the `negotiated:` line, or the error).
fn client_against_s_server(server_version: &str, client_args: &[&str]) -> (bool, String) {
    let port = free_port();
    let _server = Killed(
        Command::new("openssl")
            .args(["s_server", "-accept"])
            .arg(format!("127.0.0.1:{port}"))
            .args(["-cert", &data("server-p256.pem"), "-key", &data("server-p256.key")])
            .args([server_version, "-www"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    // Wait for it to listen (it shrugs off this empty connection and accepts the next).
    drop(connect_retrying(port));
    let mut child = Command::new(example("client"))
        .args(["127.0.0.1", &port.to_string(), "--server-name", "localhost"])
        .args(["--cafile", &data("ca-p256.pem")])
        .args(client_args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"GET / HTTP/1.0\r\n\r\n").unwrap();
    let out = child.wait_with_output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn the_example_client_offers_both_versions_and_names_the_one_it_got() {
    if !openssl_available() {
        return;
    }
    for (server, args, version) in [
        ("-tls1_2", &[][..], "TLSv1.2"),
        ("-tls1_3", &[], "TLSv1.3"),
        ("-tls1_2", &["--versions", "1.2"], "TLSv1.2"),
        ("-tls1_3", &["--versions", "1.3,1.2"], "TLSv1.3"),
        ("-tls1_2", &["--suites", "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256"], "TLSv1.2"),
    ] {
        let (ok, err) = client_against_s_server(server, args);
        assert!(ok, "{server} {args:?}: {err}");
        let line = err.lines().find(|l| l.starts_with("negotiated: ")).unwrap_or_default();
        assert!(line.contains(&format!(" version={version} ")), "{server} {args:?}: {err}");
        if version == "TLSv1.2" {
            assert!(line.contains(" suite=TLS_ECDHE_ECDSA_WITH_"), "{line}");
        }
        if args.contains(&"--suites") {
            assert!(line.contains("suite=TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256"), "{line}");
        }
    }
    // Offering only the version the server lacks fails, either way round.
    for (server, only) in [("-tls1_2", "1.3"), ("-tls1_3", "1.2")] {
        let (ok, err) = client_against_s_server(server, &["--versions", only]);
        assert!(!ok && err.contains("error: handshake"), "{server} --versions {only}: {err}");
    }
}

#[test]
fn the_example_versions_flags_are_checked() {
    let out = Command::new(example("client"))
        .args(["127.0.0.1", "1", "--cafile", &data("ca.pem"), "--versions", "1.1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown version 1.1"));
    let out = Command::new(example("server"))
        .args(["--cert", &data("server.pem"), "--key", &data("server.key")])
        .args(["--port", "0", "--versions", "1.3,1.0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown version 1.0"), "{out:?}");
}
/// The example server serves TLS 1.2 (`--versions 1.2,1.3`, the default) to `openssl s_client
/// -tls1_2` and says so in its `negotiated:` line; with `--versions 1.3` it refuses.
#[test]
fn the_example_server_speaks_tls12() {
    if !openssl_available() {
        return;
    }
    for (versions, served) in [("1.2,1.3", true), ("1.3", false)] {
        let port = free_port();
        let mut server = Killed(
            Command::new(example("server"))
                .args(["--cert", &data("server-p256.pem"), "--key", &data("server-p256.key")])
                .args(["--port", &port.to_string(), "--versions", versions])
                .stderr(Stdio::piped())
                .spawn()
                .unwrap(),
        );
        // Waits for the server (which logs this probe's failed handshake).
        drop(connect_retrying(port));
        let client = Command::new("openssl")
            .args(["s_client", "-connect", &format!("127.0.0.1:{port}"), "-tls1_2"])
            .args(["-CAfile", &data("ca-p256.pem"), "-servername", "localhost"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let out = wait_for(client, Duration::from_secs(10)).unwrap_or_default();
        assert_eq!(
            out.contains("New, TLSv1.2, Cipher is ECDHE-ECDSA"),
            served,
            "{versions}: {out}"
        );
        std::thread::sleep(Duration::from_millis(200));
        let _ = server.0.kill();
        let _ = server.0.wait();
        let mut err = String::new();
        server.0.stderr.take().unwrap().read_to_string(&mut err).unwrap();
        let line = "negotiated: version=TLSv1.2 suite=TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256";
        assert_eq!(err.contains(line), served, "{versions}: {err}");
    }
}
