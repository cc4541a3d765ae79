//! The shim BoringSSL's TLS test runner (`ssl/test/runner`, "BoGo") drives, on Halite's
//! public `tls` API.
//!
//! The runner listens, starts the shim with `-port`, `-shim-id` and the test's flags, and
//! plays the other side with a Go TLS stack that misbehaves on purpose. The shim connects
//! (it is the TCP client in both TLS roles), writes its id as a little-endian u64, runs the
//! handshake, then echoes every application message back with each byte XORed with 0xff until
//! the runner closes; `-resume-count N` makes N more connections resuming the session. A
//! failure prints BoringSSL's error code (`:NO_SHARED_CIPHER:`…) to stderr and exits 1; a
//! flag or feature the shim does not implement exits 89, which the runner counts as
//! unimplemented rather than failed. Logs go to stdout only.

// Protocol names (ClientHello, XOR, BoGo…) are prose here, not code.
#![allow(clippy::doc_markdown)]

mod errors;
mod flags;

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::process::ExitCode;

use core_hash::{OsRandom, RandomSource};
use pki_types::{CertificateDer, UnixTime};
use tls::msgs::{AlertDescription, NamedGroup, ProtocolVersion, SignatureScheme};
use tls::provider::Signer;
use tls::sign::MAX_SIGNATURE_LEN;
use tls::suites::tls12::{CBC_SUITES12, DEFAULT_SUITES12, Suite12};
use tls::ticket::{ArraySessionCache, MemoryTicketStore, TicketKey};
use tls::verify::{CertVerifier, Peer, SUPPORTED_SCHEMES};
use tls::{
    Buffers, CertificateError, CertifiedKey, ClientAuth, ClientConfig, Connection, Error,
    PeerIncompatible, PeerMisbehaved, ServerConfig, ServerSessionCache, ServerTickets, SigningKey,
    Want,
};

use flags::{Options, Unimplemented};

/// The runner's exit status for "this shim does not implement what the test needs".
const UNIMPLEMENTED: u8 = 89;

/// How a connection ended badly.
enum Fail {
    /// A flag or feature this shim lacks.
    Unimplemented(String),
    /// The TLS connection failed.
    Tls(Error),
    /// Anything else: a check the test asked for, or the socket.
    Other(String),
}

impl From<Unimplemented> for Fail {
    fn from(u: Unimplemented) -> Self {
        Self::Unimplemented(u.0)
    }
}

impl From<Error> for Fail {
    fn from(e: Error) -> Self {
        Self::Tls(e)
    }
}

impl From<io::Error> for Fail {
    fn from(e: io::Error) -> Self {
        Self::Other(format!("socket: {e}"))
    }
}

fn check(ok: bool, what: impl FnOnce() -> String) -> Result<(), Fail> {
    if ok { Ok(()) } else { Err(Fail::Other(what())) }
}

/// State kept across the connections of one test: the client's tickets, the server's
/// ticket key and TLS 1.2 session-id cache (BoringSSL's server keeps one by default, with
/// or without `-no-ticket`).
struct Sessions {
    store: MemoryTicketStore,
    ticket_key: TicketKey,
    cache: ArraySessionCache<4>,
}

/// A signing key that offers only the schemes of `-signing-prefs`, in that order (in TLS
/// 1.3 and both TLS 1.2 lists).
#[derive(Debug)]
struct PreferredSchemes<'k> {
    key: &'k SigningKey,
    schemes: Vec<SignatureScheme>,
    schemes12: Vec<SignatureScheme>,
    digest12: Vec<SignatureScheme>,
}

impl<'k> PreferredSchemes<'k> {
    fn new(key: &'k SigningKey, prefs: &[u16]) -> Self {
        let pick = |all: &[SignatureScheme]| -> Vec<SignatureScheme> {
            if prefs.is_empty() {
                all.to_vec()
            } else {
                prefs.iter().map(|&s| SignatureScheme(s)).filter(|s| all.contains(s)).collect()
            }
        };
        Self {
            key,
            schemes: pick(key.schemes()),
            schemes12: pick(key.tls12_schemes()),
            digest12: pick(key.tls12_digest_schemes()),
        }
    }
}

impl Signer for PreferredSchemes<'_> {
    fn schemes(&self) -> &[SignatureScheme] {
        &self.schemes
    }

    fn tls12_schemes(&self) -> &[SignatureScheme] {
        &self.schemes12
    }

    fn tls12_digest_schemes(&self) -> &[SignatureScheme] {
        &self.digest12
    }

    fn sign_digest(
        &self,
        scheme: SignatureScheme,
        digest: &[u8],
        rng: &mut dyn RandomSource,
        out: &mut [u8; MAX_SIGNATURE_LEN],
    ) -> Result<usize, Error> {
        self.key.sign_digest(scheme, digest, rng, out)
    }

    fn sign(
        &self,
        scheme: SignatureScheme,
        msg: &[u8],
        rng: &mut dyn RandomSource,
        out: &mut [u8; MAX_SIGNATURE_LEN],
    ) -> Result<usize, Error> {
        self.key.sign(scheme, msg, rng, out)
    }
}

/// BoringSSL's shim leaves chains unchecked (its verify callback accepts them; the tests of
/// verification failures use flags this shim does not implement): this verifier takes any
/// chain, and checks only that the CertificateVerify signature verifies under the
/// end-entity certificate's key with the scheme used.
#[derive(Debug)]
struct AnyChain;

impl CertVerifier for AnyChain {
    fn verify(
        &self,
        end_entity: &[u8],
        _intermediates: &[&[u8]],
        _peer: Peer<'_>,
        _now: UnixTime,
        scheme: SignatureScheme,
        message: &[u8],
        signature: &[u8],
    ) -> Result<[u8; 32], Error> {
        let bad = Error::InvalidCertificate(CertificateError::BadEncoding);
        let der = CertificateDer::from(end_entity);
        let cert = webpki::EndEntityCert::try_from(&der).map_err(|_| bad)?;
        // The TLS 1.3 schemes, and rsa_pkcs1_*, which the connection offers and takes in
        // TLS 1.2 only.
        let pkcs1 = [
            SignatureScheme::RSA_PKCS1_SHA256,
            SignatureScheme::RSA_PKCS1_SHA384,
            SignatureScheme::RSA_PKCS1_SHA512,
        ];
        let algs = match SUPPORTED_SCHEMES.iter().find(|(s, _)| *s == scheme) {
            Some((_, alg)) => core::slice::from_ref(alg),
            None if pkcs1.contains(&scheme) => tls::verify::tls12_verifiers(scheme),
            None => &[],
        };
        if algs.is_empty() {
            return Err(Error::PeerMisbehaved(PeerMisbehaved::SelectedUnofferedParameter));
        }
        if algs.iter().any(|alg| cert.verify_signature(*alg, message, signature).is_ok()) {
            Ok([0; 32])
        } else {
            Err(Error::PeerMisbehaved(PeerMisbehaved::BadSignature))
        }
    }

    /// Any chain, for TLS 1.2 (the connection checks the CertificateVerify itself).
    fn verify_chain(
        &self,
        end_entity: &[u8],
        _intermediates: &[&[u8]],
        _peer: Peer<'_>,
        _now: UnixTime,
    ) -> Result<[u8; 32], Error> {
        let der = CertificateDer::from(end_entity);
        webpki::EndEntityCert::try_from(&der)
            .map_err(|_| Error::InvalidCertificate(CertificateError::BadEncoding))?;
        Ok([0; 32])
    }

    /// BoringSSL resumes sessions whatever authenticated them.
    fn trusts(&self, _digest: &[u8; 32]) -> bool {
        true
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-is-handshaker-supported") {
        println!("No");
        return ExitCode::SUCCESS;
    }
    // `-write-settings PREFIX` says where this test's files go (`cargo xtask bogo` has the
    // runner name them after the test and the shim's role): a marker there tells it which
    // role each test gave the shim.
    if let Some(prefix) =
        args.iter().position(|a| a == "-write-settings").and_then(|i| args.get(i + 1))
    {
        let _ = std::fs::write(format!("{prefix}shim"), "");
    }
    let result = flags::parse(&args)
        .map_err(|a| Fail::Unimplemented(format!("argument {a}")))
        .and_then(|flags| {
            let first = Options::build(&flags, false)?;
            let resume = Options::build(&flags, true)?;
            run(&first, &resume)
        });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Fail::Unimplemented(what)) => {
            println!("unimplemented: {what}");
            ExitCode::from(UNIMPLEMENTED)
        }
        Err(Fail::Tls(e)) => {
            eprintln!("{} (halite: {e:?})", errors::code(e));
            ExitCode::FAILURE
        }
        Err(Fail::Other(msg)) => {
            eprintln!("{msg}");
            ExitCode::FAILURE
        }
    }
}

fn run(first: &Options, resume: &Options) -> Result<(), Fail> {
    let mut key = [0u8; 32];
    OsRandom.fill(&mut key).map_err(|_| Fail::Other("no randomness".into()))?;
    let sessions = Sessions {
        store: MemoryTicketStore::default(),
        ticket_key: TicketKey::new(&key).map_err(Fail::Tls)?,
        cache: ArraySessionCache::new(),
    };
    for i in 0..=first.resume_count {
        let opts = if i == 0 { first } else { resume };
        connection(opts, i > 0, &sessions)?;
    }
    Ok(())
}

/// Every PEM block labelled `label` in the file at `path`, decoded.
fn pem_file(path: &str, label: &str) -> Result<Vec<Vec<u8>>, Fail> {
    let text = std::fs::read_to_string(path).map_err(|e| Fail::Other(format!("{path}: {e}")))?;
    let mut out = Vec::new();
    for body in tls::pem::blocks(&text, label) {
        let mut buf = vec![0u8; body.len()];
        let der = tls::pem::decode_body(body, &mut buf)
            .map_err(|e| Fail::Other(format!("{path}: {e:?}")))?;
        out.push(der.to_vec());
    }
    Ok(out)
}

fn signing_key(path: &str) -> Result<SigningKey, Fail> {
    let text = std::fs::read_to_string(path).map_err(|e| Fail::Other(format!("{path}: {e}")))?;
    let mut scratch = vec![0u8; text.len()];
    // A key type Halite does not sign with (P-521, RSA under 2048 bits…) is a feature it lacks.
    SigningKey::from_pkcs8_pem(&text, &mut scratch)
        .map_err(|_| Fail::Unimplemented(format!("{path}: key type not supported")))
}

/// The groups of `-curves`, or Halite's defaults.
fn groups(opts: &Options) -> Result<Vec<NamedGroup>, Fail> {
    if opts.curves.is_empty() {
        return Ok(tls::kx::DEFAULT_GROUPS.to_vec());
    }
    opts.curves
        .iter()
        .map(|&c| {
            let g = NamedGroup(c);
            if tls::kx::is_supported(g) {
                Ok(g)
            } else {
                Err(Fail::Unimplemented(format!("group {c:#x}")))
            }
        })
        .collect()
}

/// The versions the flags leave (TLS 1.3 and TLS 1.2 at most), highest first.
fn versions(opts: &Options) -> Result<Vec<ProtocolVersion>, Fail> {
    let within = |v: u16| opts.min_version <= v && v <= opts.max_version;
    let mut out = Vec::new();
    if within(0x0304) && !opts.no_tls13 {
        out.push(ProtocolVersion::TLSV1_3);
    }
    if within(0x0303) && !opts.no_tls12 {
        out.push(ProtocolVersion::TLSV1_2);
    }
    if out.is_empty() {
        return Err(Fail::Unimplemented("no version above TLS 1.1 enabled".into()));
    }
    Ok(out)
}

/// BoringSSL's default TLS 1.2 suites as far as Halite has them: the AEAD ones, then the
/// ECDHE CBC ones, which BoringSSL enables by default (so BoGo's CBC tests pass no
/// `-cipher`); the configuration then sets `enable_cbc`.
fn boringssl_default12() -> Vec<Suite12> {
    DEFAULT_SUITES12.iter().chain(CBC_SUITES12).copied().collect()
}

/// The TLS 1.2 suites of `-cipher`: BoringSSL's cipher string where it is a plain list of
/// names (IANA or OpenSSL), `ALL` or `DEFAULT`. Names of suites Halite lacks (3DES, static
/// RSA…) drop out as BoringSSL drops unknown ones; selectors, exclusions and
/// equal-preference groups are not implemented.
fn suites12(opts: &Options) -> Result<Vec<Suite12>, Fail> {
    let Some(cipher) = &opts.cipher else {
        return Ok(boringssl_default12());
    };
    let mut out: Vec<Suite12> = Vec::new();
    for token in cipher.split(':').filter(|t| !t.is_empty()) {
        if token == "ALL" || token == "DEFAULT" {
            out.extend(
                boringssl_default12().into_iter().filter(|s| !out.contains(s)).collect::<Vec<_>>(),
            );
        } else if let Some(s) = tls::suites::tls12::by_name(token) {
            if !out.contains(&s) {
                out.push(s);
            }
        } else if !token.starts_with("TLS_") {
            return Err(Fail::Unimplemented(format!("cipher string {cipher:?}")));
        }
    }
    if out.is_empty() {
        return Err(Fail::Unimplemented(format!("no TLS 1.2 suite in {cipher:?}")));
    }
    Ok(out)
}

/// The ALPN list of `-advertise-alpn`'s wire form (length-prefixed names).
fn alpn_list(wire: &[u8]) -> Result<Vec<Vec<u8>>, Fail> {
    let mut out = Vec::new();
    let mut rest = wire;
    while let Some((&n, tail)) = rest.split_first() {
        let n = n as usize;
        if tail.len() < n {
            return Err(Fail::Other("bad -advertise-alpn".into()));
        }
        out.push(tail[..n].to_vec());
        rest = &tail[n..];
    }
    Ok(out)
}

fn unix_now(delay: u64) -> UnixTime {
    UnixTime::since_unix_epoch(std::time::Duration::from_secs(UnixTime::now().as_secs() + delay))
}

/// One connection: connect, handshake, check, echo, shut down.
#[allow(clippy::too_many_lines)] // the runner's flags, one after the other
fn connection(opts: &Options, resuming: bool, sessions: &Sessions) -> Result<(), Fail> {
    let groups = groups(opts)?;
    let versions = versions(opts)?;
    let suites12 = suites12(opts)?;
    let tls12 = versions.contains(&ProtocolVersion::TLSV1_2);
    // Our certificates (either role): each credential with both a chain and a key.
    let mut chains: Vec<Vec<Vec<u8>>> = Vec::new();
    let mut keys: Vec<(SigningKey, &[u16])> = Vec::new();
    for cred in &opts.credentials {
        if let (Some(cert), Some(key)) = (&cred.cert_file, &cred.key_file) {
            chains.push(pem_file(cert, "CERTIFICATE")?);
            keys.push((signing_key(key)?, &cred.signing_prefs));
        }
    }
    let chain_refs: Vec<Vec<&[u8]>> =
        chains.iter().map(|c| c.iter().map(Vec::as_slice).collect()).collect();
    let preferred: Vec<PreferredSchemes<'_>> =
        keys.iter().map(|(key, prefs)| PreferredSchemes::new(key, prefs)).collect();
    let certified: Vec<CertifiedKey<'_>> =
        chain_refs.iter().zip(&preferred).map(|(chain, key)| CertifiedKey { chain, key }).collect();
    if !opts.server && certified.len() > 1 {
        return Err(Fail::Unimplemented("a client with several credentials".into()));
    }
    let advertised = alpn_list(&opts.advertise_alpn)?;
    let advertised_refs: Vec<&[u8]> = advertised.iter().map(Vec::as_slice).collect();
    let selected: Vec<&[u8]> = match (&opts.select_alpn, opts.decline_alpn) {
        (Some(p), false) => vec![p.as_bytes()],
        _ => Vec::new(),
    };
    let now = unix_now(if resuming { opts.resumption_delay } else { 0 });
    // Without -host-name BoringSSL sends no SNI; an address is a name Halite does not send.
    let server_name = opts.host_name.clone().unwrap_or_else(|| "127.0.0.1".to_owned());

    let cache = ServerSessionCache::new(&sessions.cache, &now);
    let (mut rx, mut tx, mut hs) = (vec![0; 17_000], vec![0; 70_000], vec![0; 70_000]);
    let bufs = Buffers { received: &mut rx, send: &mut tx, handshake: &mut hs };
    let mut conn = if opts.server {
        if certified.is_empty() {
            return Err(Fail::Unimplemented("server without -cert-file/-key-file".into()));
        }
        let config = ServerConfig {
            alpn: &selected,
            groups: &groups,
            versions: &versions,
            suites12: &suites12,
            enable_cbc: suites12.iter().any(Suite12::is_cbc),
            client_auth: (opts.verify_peer || opts.require_any_client_certificate).then_some(
                ClientAuth {
                    required: opts.require_any_client_certificate,
                    verifier: Some(&AnyChain),
                    ..ClientAuth::new(&[], &now)
                },
            ),
            // BoringSSL's server sends two tickets.
            tickets: (!opts.no_ticket).then_some(ServerTickets {
                count: 2,
                ..ServerTickets::new(&sessions.ticket_key, &now)
            }),
            session_cache: Some(&cache),
            ..ServerConfig::new(&certified)
        };
        Connection::server(config, bufs, &mut OsRandom)
    } else {
        let config = ClientConfig {
            alpn: &advertised_refs,
            groups: &groups,
            versions: &versions,
            suites12: &suites12,
            enable_cbc: suites12.iter().any(Suite12::is_cbc),
            client_cert: certified.first().copied(),
            tickets: (!opts.no_ticket).then_some(&sessions.store as &dyn tls::ticket::TicketStore),
            verifier: Some(&AnyChain),
            ..ClientConfig::new(&[], &now)
        };
        Connection::client(config, &server_name, bufs, &mut OsRandom)
    }
    .map_err(|e| Fail::Other(format!("configuration refused: {e}")))?;

    let addr =
        if opts.ipv6 { format!("[::1]:{}", opts.port) } else { format!("127.0.0.1:{}", opts.port) };
    let mut sock = TcpStream::connect(addr)?;
    sock.set_nodelay(true)?;
    sock.write_all(&opts.shim_id.to_le_bytes())?;

    let r = exchange(&mut conn, &mut sock, opts, resuming, sessions, &advertised, &selected);
    // Whatever happened, what the connection queued (an alert) goes out.
    let _ = flush(&mut conn, &mut sock);
    if r.is_err() {
        linger(&mut sock);
    }
    match r {
        // A peer that only speaks TLS 1.2 or below (our ClientHello refused with
        // protocol_version, or a ClientHello without TLS 1.3) when the flags left TLS 1.2
        // out tests a version Halite lacks, unless the test itself asked for TLS 1.3 only.
        Err(Fail::Tls(
            Error::PeerIncompatible(PeerIncompatible::NoTls13 | PeerIncompatible::NoCommonVersion)
            | Error::AlertReceived(AlertDescription::PROTOCOL_VERSION),
        )) if !opts.tls13_required && !tls12 => {
            Err(Fail::Unimplemented("the peer wants TLS 1.2 or below".into()))
        }
        r => r,
    }
}

/// Closes our half and drains the peer's until it closes too (for at most a second), so that
/// our alert is read: closing with unread data would reset the connection and lose it.
fn linger(sock: &mut TcpStream) {
    let _ = sock.shutdown(std::net::Shutdown::Write);
    let _ = sock.set_read_timeout(Some(std::time::Duration::from_secs(1)));
    let mut sink = [0u8; 4096];
    while matches!(sock.read(&mut sink), Ok(n) if n > 0) {}
}

fn flush(conn: &mut Connection<'_, '_>, sock: &mut TcpStream) -> io::Result<()> {
    while !conn.pending_send().is_empty() {
        let n = sock.write(conn.pending_send())?;
        if n == 0 {
            return Err(io::ErrorKind::WriteZero.into());
        }
        conn.sent(n);
    }
    Ok(())
}

/// Reads once from the socket into the connection; `false` at end of stream.
fn fill(conn: &mut Connection<'_, '_>, sock: &mut TcpStream) -> Result<bool, Fail> {
    let space = conn.receive_space();
    if space.is_empty() {
        return Err(Fail::Other("the receive buffer is full".into()));
    }
    let n = match sock.read(space) {
        Ok(n) => n,
        Err(e) if e.kind() == io::ErrorKind::ConnectionReset => 0,
        Err(e) => return Err(e.into()),
    };
    if n == 0 {
        return Ok(false);
    }
    conn.received(n)?;
    Ok(true)
}

/// Queues `data` and sends it.
fn write_all(conn: &mut Connection<'_, '_>, sock: &mut TcpStream, data: &[u8]) -> Result<(), Fail> {
    let mut done = 0;
    while done < data.len() {
        done += conn.write(&data[done..])?;
        flush(conn, sock)?;
    }
    Ok(())
}

#[allow(clippy::too_many_lines)]
fn exchange(
    conn: &mut Connection<'_, '_>,
    sock: &mut TcpStream,
    opts: &Options,
    resuming: bool,
    sessions: &Sessions,
    advertised: &[Vec<u8>],
    selected: &[&[u8]],
) -> Result<(), Fail> {
    while conn.is_handshaking() {
        flush(conn, sock)?;
        if let Some(e) = conn.error() {
            return Err(e.into());
        }
        if !fill(conn, sock)? {
            return Err(Fail::Other(":UNEXPECTED_EOF: connection closed in the handshake".into()));
        }
    }
    flush(conn, sock)?;
    let n = conn.negotiated().ok_or_else(|| Fail::Other("no parameters after handshake".into()))?;

    // What the test expects of the handshake.
    if let Some(v) = opts.expect_version {
        check(v == n.version.0, || format!("version: got {:#x}, want {v:#x}", n.version.0))?;
    }
    if let Some(c) = opts.expect_curve_id {
        check(n.group.0 == c, || format!("curve: got {:#x}, want {c:#x}", n.group.0))?;
    }
    if let Some(c) = opts.expect_cipher {
        check(n.suite.0 == c, || format!("cipher: got {:#x}, want {c:#x}", n.suite.0))?;
    }
    if let Some(s) = opts.expect_peer_signature_algorithm {
        let got = if opts.server { n.client_auth.map_or(0, |s| s.0) } else { n.scheme.0 };
        check(got == s, || format!("peer signature algorithm: got {got:#x}, want {s:#x}"))?;
    }
    let want_resumed = resuming && !opts.expect_session_miss;
    check(n.resumed == want_resumed, || {
        format!("resumed: {}, expected {want_resumed}", n.resumed)
    })?;
    check(!opts.expect_hrr || n.retried, || "expected a HelloRetryRequest".into())?;
    check(!opts.expect_no_hrr || !n.retried, || "unexpected HelloRetryRequest".into())?;
    let alpn: &[u8] = match n.alpn {
        Some(i) if opts.server => selected.get(i).copied().unwrap_or_default(),
        Some(i) => advertised.get(i).map_or(&[][..], Vec::as_slice),
        None => &[],
    };
    let want_alpn = opts.expect_alpn.as_deref().unwrap_or_default().as_bytes();
    check(alpn == want_alpn, || {
        format!(
            "ALPN: got {:?}, want {:?}",
            String::from_utf8_lossy(alpn),
            String::from_utf8_lossy(want_alpn)
        )
    })?;
    if opts.server {
        if let Some(name) = &opts.expect_server_name {
            check(conn.server_name() == Some(name.as_str()), || {
                format!("server name: got {:?}, want {name:?}", conn.server_name())
            })?;
        }
        if opts.expect_no_server_name {
            check(conn.server_name().is_none(), || "unexpected server name".into())?;
        }
        if opts.expect_no_peer_cert {
            check(n.client_auth.is_none(), || "unexpected client certificate".into())?;
        }
    }

    // The data exchange, after the exported keying material if asked.
    if opts.export_keying_material > 0 {
        let mut out = vec![0u8; opts.export_keying_material];
        let (label, context) = (opts.export_label.as_bytes(), opts.export_context.as_bytes());
        // Halite's TLS 1.2 exporter always takes the context (an empty one too).
        if n.version == ProtocolVersion::TLSV1_2 && !opts.use_export_context {
            return Err(Fail::Unimplemented("a TLS 1.2 export without a context".into()));
        }
        conn.export_keying_material(label, context, &mut out)?;
        write_all(conn, sock, &out)?;
    }
    if opts.shim_writes_first {
        for _ in 0..opts.repeat_shim_initial_write {
            write_all(conn, sock, opts.shim_initial_write.as_bytes())?;
        }
    }
    let mut clean_close = false;
    if !opts.shim_shuts_down {
        let mut buf = vec![0u8; opts.read_size];
        loop {
            if opts.key_update_before_read {
                conn.key_update()?;
                flush(conn, sock)?;
            }
            match conn.want() {
                Want::Read => {
                    let n = conn.read(&mut buf)?;
                    if opts.key_update {
                        conn.key_update()?;
                    }
                    for b in &mut buf[..n] {
                        *b ^= 0xff;
                    }
                    write_all(conn, sock, &buf[..n])?;
                }
                Want::Send => flush(conn, sock)?,
                Want::Closed => {
                    clean_close = true;
                    break;
                }
                Want::Failed => {
                    return Err(conn.error().map_or(Fail::Other("failed".into()), Fail::Tls));
                }
                Want::Receive => {
                    if !fill(conn, sock)? {
                        break;
                    }
                }
            }
        }
    }

    // A client expects a new session from every handshake unless told otherwise, but for a
    // resumed TLS 1.2 one (the session continues; a server need not renew its ticket).
    let resumed12 = n.resumed && n.version == ProtocolVersion::TLSV1_2;
    if !opts.server && !opts.shim_shuts_down && !opts.no_ticket && !resumed12 {
        let got = !sessions.store.is_empty();
        check(got != opts.expect_no_session, || {
            format!(
                "new session was{} received, expected the opposite (refused: {:?})",
                if got { "" } else { " not" },
                conn.refused_ticket()
            )
        })?;
    }

    // Shut down: our close_notify, then, if asked, the peer's.
    conn.close();
    let _ = flush(conn, sock);
    if opts.shim_shuts_down && opts.check_close_notify {
        loop {
            match conn.want() {
                Want::Closed => break,
                Want::Failed => {
                    return Err(conn.error().map_or(Fail::Other("failed".into()), Fail::Tls));
                }
                // As BoringSSL's SSL_shutdown: data while waiting for the peer's close_notify
                // is an error of the caller's choosing (the connection delivers it).
                Want::Read => return Err(Fail::Other(":APPLICATION_DATA_ON_SHUTDOWN:".into())),
                Want::Send => flush(conn, sock)?,
                Want::Receive => {
                    if !fill(conn, sock)? {
                        return Err(Fail::Other(":CLOSE_WITHOUT_CLOSE_NOTIFY:".into()));
                    }
                }
            }
        }
    } else if opts.check_close_notify && !clean_close {
        return Err(Fail::Other(":CLOSE_WITHOUT_CLOSE_NOTIFY:".into()));
    }
    Ok(())
}
