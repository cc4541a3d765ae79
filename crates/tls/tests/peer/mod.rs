//! Running an external TLS peer (`openssl s_server`, `gnutls-serv`) on a local port, for the
//! interop tests, and the test data's paths.

// Each test binary that declares `mod peer;` compiles its own copy and uses only some of
// these helpers (gnutls.rs never asks for OpenSSL): the rest would warn as dead code there.
#![allow(dead_code)]

use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

/// The path of `tests/data/<name>`.
pub(crate) fn data(name: &str) -> String {
    let p: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "data", name].iter().collect();
    p.to_string_lossy().into_owned()
}

/// Whether `program arg` runs and succeeds; if not, prints why the test is skipped.
fn available(program: &str, arg: &str) -> bool {
    match Command::new(program).arg(arg).output() {
        Ok(o) if o.status.success() => true,
        _ => {
            println!("skipping: `{program}` is not installed or does not run");
            false
        }
    }
}

/// Whether the `openssl` command line tool runs (else the test prints that it skips).
pub(crate) fn openssl_available() -> bool {
    available("openssl", "version")
}

/// Whether `gnutls-cli` (and so `gnutls-serv`, from the same package) runs.
pub(crate) fn gnutls_available() -> bool {
    available("gnutls-cli", "--version")
}

/// A peer process, killed and reaped when the test ends (also on a panic).
pub(crate) struct Killed(pub Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A local port nothing listens on now.
pub(crate) fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Connects to the peer on `port`, retrying for up to 10 s while it starts.
pub(crate) fn connect_retrying(port: u16) -> TcpStream {
    let start = Instant::now();
    loop {
        match TcpStream::connect(("127.0.0.1", port)) {
            Ok(s) => return s,
            Err(_) if start.elapsed() < Duration::from_secs(10) => {
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => panic!("the peer on port {port} did not come up: {e}"),
        }
    }
}

/// Serves one `s_client` connection (`child`, started with `-ign_eof` and the line
/// `ping from s_client` written to its stdin) on `conn` over `sock`: the handshake, that line
/// in and `pong from halite` out, then a close; returns what `s_client` printed. A failed
/// handshake panics with `what` and both of `s_client`'s outputs.
pub(crate) fn serve_s_client(
    conn: &mut tls::Connection<'_, '_>,
    sock: TcpStream,
    mut child: Child,
    what: &str,
) -> String {
    use std::io::{Read, Write};
    let mut stream = tls::Stream { conn, sock };
    if let Err(e) = stream.handshake() {
        drop(stream);
        drop(child.stdin.take());
        let _ = child.kill();
        let out = child.wait_with_output().unwrap();
        let (o, r) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        panic!("{what}: {e}\n{o}\n{r}");
    }
    let mut got = Vec::new();
    let mut buf = [0u8; 256];
    while !got.ends_with(b"\n") {
        let n = stream.read(&mut buf).unwrap();
        assert!(n > 0, "{what}: s_client closed early");
        got.extend_from_slice(&buf[..n]);
    }
    assert_eq!(got, b"ping from s_client\n", "{what}");
    stream.write_all(b"pong from halite\n").unwrap();
    stream.close().unwrap();
    drop(stream);
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}
