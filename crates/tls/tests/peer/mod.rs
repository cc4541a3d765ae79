//! Running an external TLS peer (`openssl s_server` and `s_client`, `gnutls-serv`) on a local
//! port, for the interop tests: starting it, the sockets to it, the test data's paths and
//! contents, and the page `s_server -www` serves.

// Each test binary that declares `mod peer;` compiles its own copy and uses only some of
// these helpers (gnutls.rs never asks for OpenSSL): the rest would warn as dead code there.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The path of `tests/data/<name>`.
pub(crate) fn data(name: &str) -> String {
    let p: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "data", name].iter().collect();
    p.to_string_lossy().into_owned()
}

/// The contents of `tests/data/<name>`, leaked (for `'static` configurations).
pub(crate) fn read(name: &str) -> &'static [u8] {
    std::fs::read(data(name)).unwrap().leak()
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

/// Reads on `sock` give up after 10 s: a peer that stalls fails the test instead of hanging it.
fn with_timeout(sock: TcpStream) -> TcpStream {
    sock.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    sock
}

/// Connects to the peer on `port`, retrying for up to 10 s while it starts.
pub(crate) fn connect_retrying(port: u16) -> TcpStream {
    let start = Instant::now();
    loop {
        match TcpStream::connect(("127.0.0.1", port)) {
            Ok(s) => return with_timeout(s),
            Err(_) if start.elapsed() < Duration::from_secs(10) => {
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => panic!("the peer on port {port} did not come up: {e}"),
        }
    }
}

/// A listener on a local port for a peer client to connect to, and the port.
pub(crate) fn listen() -> (TcpListener, u16) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    (listener, port)
}

/// The next connection to `listener`.
pub(crate) fn accept(listener: &TcpListener) -> TcpStream {
    with_timeout(listener.accept().unwrap().0)
}

/// `openssl s_server` on a free port holding `tests/data/<stem>.pem` and its key `<stem>.key`,
/// with `args` and `stdin` (piped to send it commands such as `R`); its output is discarded.
pub(crate) fn s_server(stem: &str, args: &[&str], stdin: Stdio) -> (Killed, u16) {
    let port = free_port();
    let server = Command::new("openssl")
        .args(["s_server", "-accept"])
        .arg(format!("127.0.0.1:{port}"))
        .args(["-cert", &data(&format!("{stem}.pem")), "-key", &data(&format!("{stem}.key"))])
        .args(args)
        .stdin(stdin)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    (Killed(server), port)
}

/// `openssl s_client` to `port`, verifying the server (`localhost`) under the root PEM `ca`,
/// with `args` and, if given, one more environment variable; all three streams piped.
pub(crate) fn s_client(port: u16, ca: &str, args: &[&str], env: Option<(&str, &str)>) -> Child {
    let mut cmd = Command::new("openssl");
    cmd.args(["s_client", "-connect"])
        .arg(format!("127.0.0.1:{port}"))
        .args(["-CAfile", ca, "-verify_return_error", "-servername", "localhost"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some((k, v)) = env {
        cmd.env(k, v);
    }
    cmd.spawn().unwrap()
}

/// Reads from `stream` until a line ends; `peer` names the other side in the panic when it
/// closes first.
pub(crate) fn read_line(stream: &mut impl Read, peer: &str) -> Vec<u8> {
    let mut got = Vec::new();
    let mut buf = [0u8; 256];
    while !got.ends_with(b"\n") {
        let n = stream.read(&mut buf).unwrap();
        assert!(n > 0, "{peer} closed early");
        got.extend_from_slice(&buf[..n]);
    }
    got
}

/// Asks `s_server -www` for `/` over `stream` and reads the page to the end; checks it is a
/// `200`.
pub(crate) fn get_page(stream: &mut (impl Read + Write)) -> String {
    stream.write_all(b"GET / HTTP/1.0\r\n\r\n").unwrap();
    let mut page = Vec::new();
    let _ = stream.read_to_end(&mut page);
    let page = String::from_utf8_lossy(&page).into_owned();
    assert!(page.starts_with("HTTP/1.0 200 ok"), "{page}");
    page
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
    let mut stream = tls::Stream { conn, sock };
    if let Err(e) = stream.handshake() {
        drop(stream);
        drop(child.stdin.take());
        let _ = child.kill();
        let out = child.wait_with_output().unwrap();
        let (o, r) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        panic!("{what}: {e}\n{o}\n{r}");
    }
    let got = read_line(&mut stream, &format!("{what}: s_client"));
    assert_eq!(got, b"ping from s_client\n", "{what}");
    stream.write_all(b"pong from halite\n").unwrap();
    stream.close().unwrap();
    drop(stream);
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}
