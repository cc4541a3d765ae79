//! `tls-loopback`: TLS over real loopback TCP, the way the mbedTLS against BoringSSL comparison
//! on Arm measured it (seconds per 200 handshakes, seconds per 256 MiB written and read), with
//! Halite's `tls` crate, rustls (aws-lc-rs provider) and OpenSSL (the `openssl` crate, linked
//! to the system libssl) as clients against the same OpenSSL `s_server`, and OpenSSL's client
//! against Halite's server.
//!
//! Everything runs on 127.0.0.1 with ephemeral ports: `s_server` is started as a child process
//! per certificate (one plain, one `-WWW`), waited for until it accepts, and killed at the end;
//! Halite's server is a thread of this process (serving one connection at a time, as
//! `s_server` does), driven by OpenSSL's client in process. Every library is limited to the
//! same parameters: X25519, AES-128-GCM (`TLS_AES_128_GCM_SHA256`, or the ECDHE ECDSA/RSA
//! AES-128-GCM suite over TLS 1.2), `rsa_pss_rsae_sha256`, `ecdsa_secp256r1_sha256` or
//! `ed25519`, no session tickets and no resumption, and each client checks the version and
//! suite it negotiated on every connection. Halite's `Stream`s have a send buffer of four
//! records, so each transport write carries four as rustls's do, and a receive buffer of one.
//!
//! - Handshakes: a full handshake on a new TCP connection each (connect, handshake,
//!   `close_notify`, close), one after the other, wall-clock time for all of them.
//! - Write: the client sends the bytes over an established connection; the time ends when the
//!   server has them all. `s_server` writes what it reads to its stdout, a pipe this process
//!   reads, counts and compares with what was sent (so the count and content are checked).
//! - Read: the client asks for a file with `GET /file HTTP/1.0` and reads the answer; `s_server
//!   -WWW` serves it from a temporary directory. The client compares every byte with the file.
//!
//! The file and the data written repeat one 1 MiB pseudo-random block, so the check is a
//! `memcmp` at the right offset: a broken or short transfer fails rather than being timed.
//!
//! `cargo run --release -p bench --bin tls-loopback` (200 handshakes, 256 MiB; `--quick`: 20
//! handshakes, 16 MiB; `--check`: 2 handshakes and 1 MiB, exits non-zero on any failure).

use std::fmt::Write as _;
use std::io::{self, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use bench::ops::{
    Cert, HALITE_HANDSHAKE, HALITE_SUITES, HALITE_SUITES12, HaliteIdentity, SERVER_NAME, Version,
};
use bench::report::{self, Table};
use bench::system;
use clap::Parser;
use openssl::ssl::{SslConnector, SslMethod, SslSessionCacheMode, SslVersion};
use pki_types::{CertificateDer, ServerName};
use tls::msgs::NamedGroup;
use tls::record::MAX_RECORD_LEN;
use tls::{Buffers, ClientConfig, Connection, OsRandom, ServerConfig, Stream, SystemClock};

#[derive(Parser, Debug)]
#[command(name = "tls-loopback", about = "TLS handshakes and bulk data over loopback TCP")]
struct Cli {
    /// A first look: 20 handshakes and 16 MiB each way.
    #[arg(long)]
    quick: bool,
    /// A smoke test: 2 handshakes and 1 MiB each way per configuration.
    #[arg(long, conflicts_with = "quick")]
    check: bool,
    /// Print the table as Markdown.
    #[arg(long)]
    markdown: bool,
}

/// How much each configuration does.
#[derive(Clone, Copy, Debug)]
struct Amounts {
    handshakes: usize,
    /// Bytes each way, a multiple of [`BLOCK`].
    bytes: u64,
}

// --- What is negotiated --------------------------------------------------------------------

/// The server certificates: the two of the in-memory `tls` group and the Ed25519 one of
/// `crates/tls/tests/data`, each a one-certificate chain under its own root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Identity {
    Rsa2048,
    EcdsaP256,
    Ed25519,
}

const IDENTITIES: [Identity; 3] = [Identity::Rsa2048, Identity::EcdsaP256, Identity::Ed25519];

impl Identity {
    fn name(self) -> &'static str {
        match self {
            Identity::Rsa2048 => "RSA-2048",
            Identity::EcdsaP256 => "ECDSA P-256",
            Identity::Ed25519 => "Ed25519",
        }
    }

    /// The root, the leaf and its PKCS#8 key, DER.
    fn der(self) -> (&'static [u8], &'static [u8], &'static [u8]) {
        match self {
            Identity::Rsa2048 => (Cert::Rsa2048.root(), Cert::Rsa2048.leaf(), Cert::Rsa2048.key()),
            Identity::EcdsaP256 => {
                (Cert::EcdsaP256.root(), Cert::EcdsaP256.leaf(), Cert::EcdsaP256.key())
            }
            Identity::Ed25519 => (
                include_bytes!("../../../tls/tests/data/ca.der"),
                include_bytes!("../../../tls/tests/data/server.der"),
                include_bytes!("../../../tls/tests/data/server.key.der"),
            ),
        }
    }

    /// The suite every library must negotiate over `version`.
    fn suite(self, version: Version) -> &'static str {
        match (version, self) {
            (Version::Tls13, _) => "TLS_AES_128_GCM_SHA256",
            (Version::Tls12, Identity::Rsa2048) => "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
            (Version::Tls12, _) => "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
        }
    }
}

fn version_name(version: Version) -> &'static str {
    match version {
        Version::Tls13 => "TLS 1.3",
        Version::Tls12 => "TLS 1.2",
    }
}

/// The IANA name of the three suites used here, from their code point.
fn suite_name(code: u16) -> Option<&'static str> {
    match code {
        0x1301 => Some("TLS_AES_128_GCM_SHA256"),
        0xc02b => Some("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"),
        0xc02f => Some("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"),
        _ => None,
    }
}

/// Fails unless a client negotiated `version` (the wire code point), the suite of the row and
/// X25519.
fn check_negotiated(
    want: (Version, Identity),
    version: Option<u16>,
    suite: Option<&str>,
    group: Option<u16>,
) -> Result<(), String> {
    let (v, ident) = want;
    let code = match v {
        Version::Tls13 => 0x0304,
        Version::Tls12 => 0x0303,
    };
    if version == Some(code) && suite == Some(ident.suite(v)) && group == Some(X25519) {
        Ok(())
    } else {
        Err(format!("negotiated version {version:04x?}, suite {suite:?} and group {group:04x?}"))
    }
}

/// The key exchange every connection uses.
const X25519: u16 = 0x001d;
/// The groups offered: X25519 first (chosen by every library here), then P-256, which a TLS 1.2
/// client must list for an ECDSA P-256 certificate to be usable (RFC 8422 §5.1.1; OpenSSL
/// enforces it on both sides).
const GROUPS: &str = "X25519:P-256";

/// The signature schemes OpenSSL (client and `s_server`) may use, one per certificate.
const SIGALGS: &str = "rsa_pss_rsae_sha256:ecdsa_secp256r1_sha256:ed25519";
/// OpenSSL's TLS 1.2 suites (its names for the two of [`Identity::suite`]).
const CIPHERS12: &str = "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256";

static HALITE_GROUPS: [NamedGroup; 2] = [NamedGroup::X25519, NamedGroup::SECP256R1];

/// Halite's roots and server identity for `ident`, built once per process.
fn halite_identity(ident: Identity) -> HaliteIdentity {
    static CELLS: [OnceLock<HaliteIdentity>; 3] = [const { OnceLock::new() }; 3];
    *CELLS[ident as usize].get_or_init(|| {
        let (root, leaf, key) = ident.der();
        HaliteIdentity::leak(root, leaf, key)
    })
}

// --- The data and its check ----------------------------------------------------------------

/// The data sent either way repeats this many bytes.
const BLOCK: usize = 1 << 20;
const MIB: u64 = 1 << 20;

/// One 1 MiB block of xorshift64 output, the same every run.
fn block() -> &'static [u8] {
    static BLOCK_DATA: OnceLock<Vec<u8>> = OnceLock::new();
    BLOCK_DATA.get_or_init(|| {
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        let mut out = Vec::with_capacity(BLOCK);
        while out.len() < BLOCK {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    })
}

/// Compares a stream with the repeated [`block`], from its first byte.
#[derive(Debug, Default)]
struct Verifier {
    /// Bytes seen.
    seen: u64,
    /// Whether any differed.
    bad: bool,
}

impl Verifier {
    fn feed(&mut self, mut data: &[u8]) {
        let block = block();
        while !data.is_empty() {
            let at = (self.seen % MIB) as usize;
            let n = data.len().min(BLOCK - at);
            self.bad |= data[..n] != block[at..at + n];
            self.seen += n as u64;
            data = &data[n..];
        }
    }
}

/// What a server has received of the data written to it: a running count, and whether any of
/// it differed from what was sent.
#[derive(Debug, Default)]
struct Sink {
    count: AtomicU64,
    bad: AtomicBool,
}

impl Sink {
    fn note(&self, v: &Verifier) {
        self.count.store(v.seen, Ordering::Release);
        if v.bad {
            self.bad.store(true, Ordering::Release);
        }
    }

    /// Waits until the count reaches `target`, then checks it is exact and the data matched.
    fn wait_for(&self, target: u64) -> Result<(), String> {
        let deadline = Instant::now() + Duration::from_secs(300);
        loop {
            let count = self.count.load(Ordering::Acquire);
            if count >= target {
                break;
            }
            if Instant::now() > deadline {
                return Err(format!("the server received {count} of {target} bytes"));
            }
            thread::sleep(Duration::from_micros(100));
        }
        let count = self.count.load(Ordering::Acquire);
        if count != target {
            return Err(format!("the server received {count} bytes, {target} were sent"));
        }
        if self.bad.load(Ordering::Acquire) {
            return Err("the server received other bytes than were sent".into());
        }
        Ok(())
    }
}

/// Writes `bytes` of the repeated block.
fn write_data(s: &mut dyn ReadWrite, bytes: u64) -> io::Result<()> {
    let block = block();
    for _ in 0..bytes / MIB {
        s.write_all(block)?;
    }
    s.flush()
}

const REQUEST: &[u8] = b"GET /file HTTP/1.0\r\n\r\n";
/// What `s_server -WWW` sends before a file, and Halite's server copies.
const HEADER: &[u8] = b"HTTP/1.0 200 ok\r\nContent-type: text/plain\r\n\r\n";

/// Asks for the file and reads `bytes` of it, checking every byte.
fn read_data(s: &mut dyn ReadWrite, bytes: u64) -> Result<(), String> {
    s.write_all(REQUEST).and_then(|()| s.flush()).map_err(|e| format!("the request: {e}"))?;
    let mut buf = vec![0u8; 64 * 1024];
    let mut head = Vec::new();
    let body = loop {
        let n = s.read(&mut buf).map_err(|e| format!("the answer: {e}"))?;
        if n == 0 {
            return Err("the server closed before its answer's header ended".into());
        }
        head.extend_from_slice(&buf[..n]);
        if let Some(i) = head.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        if head.len() > 4096 {
            return Err("no end to the answer's header".into());
        }
    };
    if !head.starts_with(b"HTTP/1.0 200") {
        return Err(format!("the answer: {:?}", String::from_utf8_lossy(&head[..body])));
    }
    let mut v = Verifier::default();
    v.feed(&head[body..]);
    while v.seen < bytes {
        let n = s.read(&mut buf).map_err(|e| format!("after {} bytes: {e}", v.seen))?;
        if n == 0 {
            return Err(format!("the server closed after {} of {bytes} bytes", v.seen));
        }
        v.feed(&buf[..n]);
    }
    match (v.seen == bytes, v.bad) {
        (true, false) => Ok(()),
        (false, _) => Err(format!("read {} bytes, {bytes} expected", v.seen)),
        (true, true) => Err("the bytes read differ from the file".into()),
    }
}

// --- Clients -------------------------------------------------------------------------------

/// Halite's buffers for a `Stream` over TCP, sized like rustls's: a send buffer of four whole
/// records, so each `write` carries four (rustls queues up to 64 KiB before one `writev`), and
/// a receive buffer of one (rustls reads at most one record's wire size ahead).
#[derive(Debug)]
struct StreamBuffers {
    received: Vec<u8>,
    send: Vec<u8>,
    handshake: Vec<u8>,
}

impl Default for StreamBuffers {
    fn default() -> Self {
        Self {
            received: vec![0; MAX_RECORD_LEN],
            send: vec![0; 4 * MAX_RECORD_LEN],
            handshake: vec![0; HALITE_HANDSHAKE],
        }
    }
}

impl StreamBuffers {
    /// The buffers, lent to one connection.
    fn lend(&mut self) -> Buffers<'_> {
        Buffers {
            received: &mut self.received,
            send: &mut self.send,
            handshake: &mut self.handshake,
        }
    }
}

/// A transport the jobs read and write.
trait ReadWrite: Read + Write {}
impl<T: Read + Write> ReadWrite for T {}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Client {
    Halite,
    Rustls,
    Openssl,
}

/// Every client's configuration for one version and certificate, built once per row group.
struct Clients {
    want: (Version, Identity),
    halite_bufs: StreamBuffers,
    rustls: Arc<rustls::ClientConfig>,
    openssl: SslConnector,
}

/// How long a socket may wait for its peer before the row fails rather than hangs.
const STALL: Duration = Duration::from_secs(60);

/// Sets up a connected socket: no Nagle delay, and reads that give up after [`STALL`].
fn ready(sock: &TcpStream) -> Result<(), String> {
    sock.set_nodelay(true).map_err(|e| e.to_string())?;
    sock.set_read_timeout(Some(STALL)).map_err(|e| e.to_string())
}

fn connect(addr: SocketAddr) -> Result<TcpStream, String> {
    let sock = TcpStream::connect(addr).map_err(|e| format!("connect: {e}"))?;
    ready(&sock)?;
    Ok(sock)
}

impl Clients {
    fn new(version: Version, ident: Identity) -> Result<Self, String> {
        let (root, _, _) = ident.der();
        // rustls on aws-lc-rs, limited to the one suite and group.
        let mut provider = rustls::crypto::aws_lc_rs::default_provider();
        let code = |name: &str| match version {
            Version::Tls13 => name == "TLS_AES_128_GCM_SHA256",
            Version::Tls12 => name != "TLS_AES_128_GCM_SHA256",
        };
        provider.cipher_suites.retain(|s| suite_name(u16::from(s.suite())).is_some_and(code));
        provider.kx_groups.retain(|g| [X25519, 0x0017].contains(&u16::from(g.name())));
        provider.kx_groups.sort_by_key(|g| u16::from(g.name()) != X25519);
        let versions: &[&rustls::SupportedProtocolVersion] = match version {
            Version::Tls13 => &[&rustls::version::TLS13],
            Version::Tls12 => &[&rustls::version::TLS12],
        };
        let mut roots = rustls::RootCertStore::empty();
        roots.add(CertificateDer::from(root)).map_err(|e| e.to_string())?;
        let mut config = rustls::ClientConfig::builder_with_provider(Arc::new(provider))
            .with_protocol_versions(versions)
            .map_err(|e| e.to_string())?
            .with_root_certificates(roots)
            .with_no_client_auth();
        config.resumption = rustls::client::Resumption::disabled();
        // OpenSSL, the same.
        let ossl = |e: openssl::error::ErrorStack| e.to_string();
        let mut b = SslConnector::builder(SslMethod::tls_client()).map_err(ossl)?;
        let v = match version {
            Version::Tls13 => SslVersion::TLS1_3,
            Version::Tls12 => SslVersion::TLS1_2,
        };
        b.set_min_proto_version(Some(v)).map_err(ossl)?;
        b.set_max_proto_version(Some(v)).map_err(ossl)?;
        b.set_ciphersuites("TLS_AES_128_GCM_SHA256").map_err(ossl)?;
        b.set_cipher_list(CIPHERS12).map_err(ossl)?;
        b.set_groups_list(GROUPS).map_err(ossl)?;
        b.set_sigalgs_list(SIGALGS).map_err(ossl)?;
        b.set_session_cache_mode(SslSessionCacheMode::OFF);
        let root = openssl::x509::X509::from_der(root).map_err(ossl)?;
        b.cert_store_mut().add_cert(root).map_err(ossl)?;
        Ok(Self {
            want: (version, ident),
            halite_bufs: StreamBuffers::default(),
            rustls: Arc::new(config),
            openssl: b.build(),
        })
    }

    /// Connects `client` to `addr`, runs the handshake, checks what it negotiated, runs `job`
    /// on the connection and closes it (`close_notify`, then the socket).
    fn session<T>(
        &mut self,
        client: Client,
        addr: SocketAddr,
        job: impl FnOnce(&mut dyn ReadWrite) -> Result<T, String>,
    ) -> Result<T, String> {
        let sock = connect(addr)?;
        match client {
            Client::Halite => {
                let roots = halite_identity(self.want.1).roots;
                let config = ClientConfig {
                    versions: self.want.0.protocol_versions(),
                    suites: &HALITE_SUITES,
                    suites12: &HALITE_SUITES12,
                    groups: &HALITE_GROUPS,
                    ..ClientConfig::new(roots, &SystemClock)
                };
                let mut conn =
                    Connection::client(config, SERVER_NAME, self.halite_bufs.lend(), &mut OsRandom)
                        .map_err(|e| e.to_string())?;
                let mut stream = Stream::new(&mut conn, sock);
                stream.handshake().map_err(|e| format!("handshake: {e}"))?;
                let n = stream.conn.negotiated();
                check_negotiated(
                    self.want,
                    n.map(|n| n.version.0),
                    n.and_then(|n| suite_name(n.suite.0)),
                    n.map(|n| n.group.0),
                )?;
                let r = job(&mut stream)?;
                let _ = stream.close();
                Ok(r)
            }
            Client::Rustls => {
                let name = ServerName::try_from(SERVER_NAME).map_err(|e| e.to_string())?;
                let conn = rustls::ClientConnection::new(self.rustls.clone(), name)
                    .map_err(|e| e.to_string())?;
                let mut s = rustls::StreamOwned::new(conn, sock);
                while s.conn.is_handshaking() {
                    s.conn.complete_io(&mut s.sock).map_err(|e| format!("handshake: {e}"))?;
                }
                check_negotiated(
                    self.want,
                    s.conn.protocol_version().map(u16::from),
                    s.conn.negotiated_cipher_suite().and_then(|c| suite_name(u16::from(c.suite()))),
                    s.conn.negotiated_key_exchange_group().map(|g| u16::from(g.name())),
                )?;
                let r = job(&mut s)?;
                s.conn.send_close_notify();
                let _ = s.conn.complete_io(&mut s.sock);
                Ok(r)
            }
            Client::Openssl => {
                let mut s = self
                    .openssl
                    .connect(SERVER_NAME, sock)
                    .map_err(|e| format!("handshake: {e}"))?;
                let version = s.ssl().version2().map(|v| match v {
                    SslVersion::TLS1_3 => 0x0304,
                    SslVersion::TLS1_2 => 0x0303,
                    _ => 0,
                });
                let suite =
                    s.ssl().current_cipher().and_then(openssl::ssl::SslCipherRef::standard_name);
                let group = s.ssl().peer_tmp_key().ok().map(|k| match k.id() {
                    openssl::pkey::Id::X25519 => X25519,
                    _ => 0,
                });
                check_negotiated(self.want, version, suite, group)?;
                let r = job(&mut s)?;
                let _ = s.shutdown();
                Ok(r)
            }
        }
    }
}

// --- Servers -------------------------------------------------------------------------------

/// A port on 127.0.0.1 that was free a moment ago.
fn free_port() -> Result<u16, String> {
    let l = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).map_err(|e| e.to_string())?;
    l.local_addr().map(|a| a.port()).map_err(|e| e.to_string())
}

/// Waits until something accepts connections on `addr` (the probe connection is closed at
/// once; `s_server` logs it as a failed handshake and accepts the next).
fn wait_accepting(addr: SocketAddr, child: &mut Child) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if TcpStream::connect(addr).is_ok() {
            return Ok(());
        }
        if let Ok(Some(status)) = child.try_wait() {
            return Err(format!("s_server on {addr} exited: {status}"));
        }
        if Instant::now() > deadline {
            return Err(format!("s_server on {addr} did not accept within 10 s"));
        }
        thread::sleep(Duration::from_millis(20));
    }
}

/// One `s_server` child process, killed when dropped.
struct SServer {
    child: Child,
    addr: SocketAddr,
    /// Its stdin, held open and never written: at end of file, `s_server` would spin on it.
    _stdin: Option<ChildStdin>,
}

impl SServer {
    /// Starts `openssl s_server` for `ident` in `dir` (which holds `leaf.der` and `key.der`),
    /// serving both versions; with `www`, serving files of `dir` (`-WWW`), otherwise writing
    /// what it receives to stdout, which `sink` counts and checks.
    fn start(dir: &Path, www: bool, sink: Option<Arc<Sink>>) -> Result<Self, String> {
        let port = free_port()?;
        let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
        let mut cmd = Command::new("openssl");
        cmd.current_dir(dir)
            .args(["s_server", "-accept", &addr.to_string()])
            .args(["-cert", "leaf.der", "-certform", "DER", "-key", "key.der", "-keyform", "DER"])
            .args(["-ciphersuites", "TLS_AES_128_GCM_SHA256", "-cipher", CIPHERS12])
            .args(["-groups", GROUPS, "-sigalgs", SIGALGS])
            .args(["-num_tickets", "0", "-no_ticket", "-quiet"])
            .args(if www { &["-WWW"][..] } else { &[][..] })
            .stdin(Stdio::piped())
            .stdout(if sink.is_some() { Stdio::piped() } else { Stdio::null() })
            .stderr(Stdio::null());
        let mut child = cmd.spawn().map_err(|e| format!("openssl s_server: {e}"))?;
        if let (Some(sink), Some(mut out)) = (sink, child.stdout.take()) {
            thread::spawn(move || {
                let mut buf = vec![0u8; 64 * 1024];
                let mut v = Verifier::default();
                while let Ok(n) = out.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    v.feed(&buf[..n]);
                    sink.note(&v);
                }
            });
        }
        let stdin = child.stdin.take();
        let mut server = Self { child, addr, _stdin: stdin };
        wait_accepting(addr, &mut server.child)?;
        Ok(server)
    }
}

impl Drop for SServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The `s_server`s of one certificate and the directory they run in, removed when dropped.
struct OpensslServers {
    plain: SServer,
    www: SServer,
    sink: Arc<Sink>,
    dir: PathBuf,
}

impl OpensslServers {
    fn start(ident: Identity, bytes: u64) -> Result<Self, String> {
        let dir = std::env::temp_dir().join(format!(
            "halite-tls-loopback-{}-{}",
            std::process::id(),
            ident as usize
        ));
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let (_, leaf, key) = ident.der();
        let write = |name: &str, data: &[u8]| {
            std::fs::write(dir.join(name), data).map_err(|e| format!("{name}: {e}"))
        };
        write("leaf.der", leaf)?;
        write("key.der", key)?;
        let mut file = std::fs::File::create(dir.join("file")).map_err(|e| e.to_string())?;
        for _ in 0..bytes / MIB {
            file.write_all(block()).map_err(|e| e.to_string())?;
        }
        drop(file);
        let sink = Arc::new(Sink::default());
        let plain = SServer::start(&dir, false, Some(sink.clone()))?;
        let www = SServer::start(&dir, true, None)?;
        Ok(Self { plain, www, sink, dir })
    }
}

impl Drop for OpensslServers {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// What Halite's server thread does with the connections it accepts.
enum Job {
    /// Accept this many, run each handshake, wait for the client to close.
    Handshakes(usize),
    /// Accept one and receive into the sink until the client closes.
    Sink(Arc<Sink>),
    /// Accept one, read the request, send the header and this many bytes.
    Source(u64),
}

/// Reads what is left on the socket until the client closes it, so closing ours never
/// resets a connection whose last bytes are still on their way.
fn drain(sock: &mut TcpStream) {
    let mut buf = [0u8; 4096];
    while matches!(sock.read(&mut buf), Ok(n) if n > 0) {}
}

/// Halite's server: runs `job` in a thread of its own on a new listener, whose address it
/// returns with the thread. (A listener per job: a thread left waiting after a failed row
/// cannot take the next row's connections.)
fn halite_server(
    version: Version,
    ident: Identity,
    job: Job,
) -> Result<(SocketAddr, JoinHandle<Result<(), String>>), String> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).map_err(|e| e.to_string())?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    Ok((
        addr,
        thread::spawn(move || {
            let certs = halite_identity(ident).certs;
            let mut bufs = StreamBuffers::default();
            let mut buf = vec![0u8; 64 * 1024];
            let accepts = if let Job::Handshakes(n) = job { n } else { 1 };
            for _ in 0..accepts {
                let (sock, _) = listener.accept().map_err(|e| format!("accept: {e}"))?;
                ready(&sock)?;
                let config = ServerConfig {
                    versions: version.protocol_versions(),
                    suites: &HALITE_SUITES,
                    suites12: &HALITE_SUITES12,
                    groups: &HALITE_GROUPS,
                    ..ServerConfig::new(certs)
                };
                let mut conn = Connection::server(config, bufs.lend(), &mut OsRandom)
                    .map_err(|e| e.to_string())?;
                let mut stream = Stream::new(&mut conn, sock);
                stream.handshake().map_err(|e| format!("Halite's server handshake: {e}"))?;
                match &job {
                    Job::Handshakes(_) => {}
                    Job::Sink(sink) => {
                        let mut v = Verifier::default();
                        while let Ok(n) = stream.read(&mut buf) {
                            if n == 0 {
                                break;
                            }
                            v.feed(&buf[..n]);
                            sink.note(&v);
                        }
                    }
                    Job::Source(bytes) => {
                        let mut head = Vec::new();
                        while !head.ends_with(b"\r\n\r\n") {
                            let n =
                                stream.read(&mut buf).map_err(|e| format!("the request: {e}"))?;
                            if n == 0 || head.len() > 4096 {
                                return Err("no whole request".into());
                            }
                            head.extend_from_slice(&buf[..n]);
                        }
                        if head != REQUEST {
                            return Err(format!("request {:?}", String::from_utf8_lossy(&head)));
                        }
                        stream.write_all(HEADER).map_err(|e| e.to_string())?;
                        write_data(&mut stream, *bytes).map_err(|e| format!("sending: {e}"))?;
                        let _ = stream.close();
                    }
                }
                drain(&mut stream.sock);
            }
            Ok(())
        }),
    ))
}

fn join(handle: JoinHandle<Result<(), String>>) -> Result<(), String> {
    handle.join().map_err(|_| "Halite's server thread panicked".to_owned())?
}

// --- Measuring -----------------------------------------------------------------------------

/// A row of the table: which client against which server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pair {
    /// A client against `s_server`.
    ToSServer(Client),
    /// OpenSSL's client against Halite's server.
    OpensslToHalite,
}

const PAIRS: [Pair; 4] = [
    Pair::ToSServer(Client::Halite),
    Pair::ToSServer(Client::Rustls),
    Pair::ToSServer(Client::Openssl),
    Pair::OpensslToHalite,
];

impl Pair {
    fn label(self) -> &'static str {
        match self {
            Pair::ToSServer(Client::Halite) => "halite → s_server",
            Pair::ToSServer(Client::Rustls) => "rustls (aws-lc-rs) → s_server",
            Pair::ToSServer(Client::Openssl) => "openssl → s_server",
            Pair::OpensslToHalite => "openssl → halite server",
        }
    }
}

/// Seconds for the handshakes, the write and the read of one row.
type Times = [f64; 3];

/// Times one row: a first handshake (not timed), then the handshakes, the write and the read.
fn measure(
    pair: Pair,
    clients: &mut Clients,
    openssl: &OpensslServers,
    amounts: Amounts,
) -> Result<Times, String> {
    let (version, ident) = clients.want;
    let bytes = amounts.bytes;
    match pair {
        Pair::ToSServer(client) => {
            let addr = openssl.plain.addr;
            clients.session(client, addr, |_| Ok(()))?;
            let start = Instant::now();
            for _ in 0..amounts.handshakes {
                clients.session(client, addr, |_| Ok(()))?;
            }
            let handshakes = start.elapsed().as_secs_f64();
            let target = openssl.sink.count.load(Ordering::Acquire) + bytes;
            let write = clients.session(client, addr, |s| {
                let start = Instant::now();
                write_data(s, bytes).map_err(|e| format!("writing: {e}"))?;
                openssl.sink.wait_for(target)?;
                Ok(start.elapsed().as_secs_f64())
            })?;
            let read = clients.session(client, openssl.www.addr, |s| {
                let start = Instant::now();
                read_data(s, bytes)?;
                Ok(start.elapsed().as_secs_f64())
            })?;
            Ok([handshakes, write, read])
        }
        Pair::OpensslToHalite => {
            let client = Client::Openssl;
            let (addr, server) = halite_server(version, ident, Job::Handshakes(1))?;
            clients.session(client, addr, |_| Ok(()))?;
            join(server)?;
            let (addr, server) =
                halite_server(version, ident, Job::Handshakes(amounts.handshakes))?;
            let start = Instant::now();
            for _ in 0..amounts.handshakes {
                clients.session(client, addr, |_| Ok(()))?;
            }
            let handshakes = start.elapsed().as_secs_f64();
            join(server)?;
            let sink = Arc::new(Sink::default());
            let (addr, server) = halite_server(version, ident, Job::Sink(sink.clone()))?;
            let write = clients.session(client, addr, |s| {
                let start = Instant::now();
                write_data(s, bytes).map_err(|e| format!("writing: {e}"))?;
                sink.wait_for(bytes)?;
                Ok(start.elapsed().as_secs_f64())
            })?;
            join(server)?;
            let (addr, server) = halite_server(version, ident, Job::Source(bytes))?;
            let read = clients.session(client, addr, |s| {
                let start = Instant::now();
                read_data(s, bytes)?;
                Ok(start.elapsed().as_secs_f64())
            })?;
            join(server)?;
            Ok([handshakes, write, read])
        }
    }
}

/// One measured row.
struct Row {
    version: Version,
    ident: Identity,
    pair: Pair,
    times: Result<Times, String>,
}

/// The table: one row per version, certificate and pair, each time with its ratio to the best
/// of the rows of the same version and certificate.
fn table(rows: &[Row], amounts: Amounts) -> Table {
    let mib = amounts.bytes / MIB;
    let headers = [
        "version".to_owned(),
        "certificate".to_owned(),
        "client → server".to_owned(),
        format!("s/{} handshakes", amounts.handshakes),
        format!("s/{mib} MiB write"),
        format!("s/{mib} MiB read"),
        "handshakes ×best".to_owned(),
        "write ×best".to_owned(),
        "read ×best".to_owned(),
    ]
    .to_vec();
    let mut out = Vec::new();
    for row in rows {
        let mut cells = vec![
            version_name(row.version).to_owned(),
            row.ident.name().to_owned(),
            row.pair.label().to_owned(),
        ];
        match &row.times {
            Ok(times) => {
                let best = |i: usize| {
                    rows.iter()
                        .filter(|r| r.version == row.version && r.ident == row.ident)
                        .filter_map(|r| r.times.as_ref().ok().map(|t| t[i]))
                        .fold(f64::INFINITY, f64::min)
                };
                cells.extend(times.iter().map(|t| format!("{t:.3}")));
                cells.extend((0..3).map(|i| format!("{:.2}", times[i] / best(i))));
            }
            Err(_) => cells.extend(std::iter::repeat_n("failed".to_owned(), 6)),
        }
        out.push(cells);
    }
    Table { headers, rows: out }
}

fn openssl_cli_version() -> String {
    Command::new("openssl")
        .arg("version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map_or_else(|| "?".to_owned(), |s| s.trim().to_owned())
}

fn run(cli: &Cli) -> Result<bool, String> {
    let amounts = if cli.check {
        Amounts { handshakes: 2, bytes: MIB }
    } else if cli.quick {
        Amounts { handshakes: 20, bytes: 16 * MIB }
    } else {
        Amounts { handshakes: 200, bytes: 256 * MIB }
    };
    let mut out = system::preamble();
    let _ = writeln!(
        out,
        "peers         rustls {} on aws-lc-rs {}; {} (linked); s_server: {}",
        bench::libs::peer_version("rustls").unwrap_or("?"),
        bench::libs::peer_version("aws-lc-rs").unwrap_or("?"),
        openssl::version::version(),
        openssl_cli_version(),
    );
    let _ = writeln!(
        out,
        "\nLoopback TCP (127.0.0.1), wall-clock seconds: {} full handshakes, each on a new\n\
         connection (X25519, AES-128-GCM, no tickets), then {} MiB written by the client and {} MiB\n\
         read by it, each over one connection; ×best is the time over the best of the four rows\n\
         of its version and certificate. Client and server share the machine's cores.\n",
        amounts.handshakes,
        amounts.bytes / MIB,
        amounts.bytes / MIB,
    );
    let mut rows = Vec::new();
    for ident in IDENTITIES {
        let servers = OpensslServers::start(ident, amounts.bytes)?;
        for version in [Version::Tls13, Version::Tls12] {
            let mut clients = Clients::new(version, ident)?;
            for pair in PAIRS {
                eprintln!(
                    "tls-loopback: {} {} {}",
                    version_name(version),
                    ident.name(),
                    pair.label()
                );
                let times = measure(pair, &mut clients, &servers, amounts);
                if let Err(e) = &times {
                    eprintln!("tls-loopback: {}: {e}", pair.label());
                }
                rows.push(Row { version, ident, pair, times });
            }
        }
    }
    rows.sort_by_key(|r| (r.version != Version::Tls13, r.ident as usize));
    let t = table(&rows, amounts);
    out.push_str(&if cli.markdown { report::render_markdown(&t) } else { report::render_text(&t) });
    std::io::stdout().write_all(out.as_bytes()).map_err(|e| e.to_string())?;
    Ok(rows.iter().all(|r| r.times.is_ok()))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            eprintln!("tls-loopback: some configurations failed (see above)");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("tls-loopback: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_verifier_catches_a_changed_byte_and_a_gap() {
        let data: Vec<u8> = block().iter().chain(block()).copied().collect();
        let mut v = Verifier::default();
        data.chunks(7777).for_each(|c| v.feed(c));
        assert_eq!((v.seen, v.bad), (2 * MIB, false));
        let mut changed = data.clone();
        changed[BLOCK + 5] ^= 1;
        let mut v = Verifier::default();
        v.feed(&changed);
        assert!(v.bad);
        let mut v = Verifier::default();
        v.feed(&data[..100]);
        v.feed(&data[101..]);
        assert!(v.bad);
    }

    /// A server's answer, canned.
    struct Canned {
        answer: io::Cursor<Vec<u8>>,
        request: Vec<u8>,
    }

    impl Read for Canned {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.answer.read(buf)
        }
    }

    impl Write for Canned {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.request.extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn canned(body: &[u8]) -> Canned {
        let answer = [HEADER, body].concat();
        Canned { answer: io::Cursor::new(answer), request: Vec::new() }
    }

    #[test]
    fn a_short_or_changed_file_fails_the_read() {
        let mut good = canned(block());
        assert_eq!(read_data(&mut good, MIB), Ok(()));
        assert_eq!(good.request, REQUEST);
        assert!(read_data(&mut canned(&block()[..BLOCK - 1]), MIB).is_err());
        let mut changed = block().to_vec();
        changed[BLOCK / 2] ^= 0x80;
        assert!(read_data(&mut canned(&changed), MIB).is_err());
        let mut refused = canned(b"");
        refused.answer = io::Cursor::new(b"HTTP/1.0 404 no\r\n\r\n".to_vec());
        assert!(read_data(&mut refused, MIB).is_err());
    }

    #[test]
    fn only_the_rows_parameters_pass() {
        let want = (Version::Tls12, Identity::Rsa2048);
        let suite = Some("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256");
        assert_eq!(check_negotiated(want, Some(0x0303), suite, Some(X25519)), Ok(()));
        assert!(check_negotiated(want, Some(0x0304), suite, Some(X25519)).is_err());
        assert!(check_negotiated(want, Some(0x0303), suite, Some(0x0017)).is_err());
        let ecdsa = Some("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256");
        assert!(check_negotiated(want, Some(0x0303), ecdsa, Some(X25519)).is_err());
        assert_eq!(suite_name(0xc02f), suite);
    }
}
