//! The TLS operations (group `tls`): Halite's `tls` crate against rustls with its aws-lc-rs and
//! its ring provider, each library talking to itself — a client and a server connection in one
//! thread, the bench moving the bytes between them through a reused `Vec<u8>` "wire", nothing
//! touching a socket. Every library is configured to negotiate exactly the same thing: TLS 1.3,
//! `TLS_AES_128_GCM_SHA256`, X25519, and the server certificate of the op (ECDSA P-256 with
//! `ecdsa_secp256r1_sha256`, or RSA-2048 with `rsa_pss_rsae_sha256`) from `crates/tls`'s test
//! PKI, with a one-certificate chain under a trusted root, verified in full by each client.
//!
//! - `tls-full-ecdsa`, `tls-full-rsa`: one full handshake per call (new connections on both
//!   sides; no tickets issued or kept), in handshakes per second.
//! - `tls-resume`: one resumed handshake per call (session ticket, `psk_dhe_ke` with X25519,
//!   ECDSA session); the server issues one ticket per handshake, which the client receives
//!   and keeps for the next call, inside the timing.
//! - `tls-bulk`: application data from client to server over an established connection, one
//!   record of the cell's size (1 KiB and 16 KiB) per call: sealed, moved, opened and read.
//!
//! `tls-full-ecdsa-x25519mlkem768` is `tls-full-ecdsa` with the hybrid group X25519MLKEM768
//! (ML-KEM-768 and X25519, draft-ietf-tls-ecdhe-mlkem) instead of X25519: each client offers
//! that group only and sends its one 1216-byte share, the server answers with 1120 bytes.
//! rustls's ring provider has no ML-KEM, so it is not in that row.
//!
//! The `tls12-*` ops are the same four over TLS 1.2 (opt-in in Halite: `versions` and
//! `suites12` on both configurations; rustls limited to its TLS 1.2 version): ECDHE with
//! X25519, `TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256` or `TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256`
//! (each client offers both, the certificate decides), the same certificates and schemes, and
//! resumption by RFC 5077 session ticket (an abbreviated handshake, no key exchange; the
//! server issues a fresh ticket each time). No server keeps a session-id cache (rustls's is
//! switched off, Halite has none), so the full handshakes do the same work on both sides.
//!
//! Each runner writes what was negotiated (see [`summary`]) or the bytes received, so the
//! agreement check proves every library ran the same handshake before anything is timed, and
//! each runner's constructor asserts the claimed parameters on a first handshake.
//!
//! Halite's connections work in caller buffers, allocated once per runner and reused by every
//! connection (the design: a server keeps a pool); rustls allocates its own per connection,
//! which is part of what it costs. The configurations (`Arc<ClientConfig>`, roots, keys) are
//! built once per runner for both.

use std::io::{Read as _, Write as _};
use std::sync::{Arc, OnceLock};

use core_hash::OsRandom;
use pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName, TrustAnchor};
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms};
use rustls::{ConnectionCommon, HandshakeKind};
use tls::msgs::{NamedGroup, ProtocolVersion, SignatureScheme};
use tls::record::MAX_RECORD_LEN;
use tls::suites::tls12::{self, Suite12};
use tls::suites::{self, Suite};
use tls::ticket::{MemoryTicketStore, TicketKey, TicketStore};
use tls::{
    Buffers, CertifiedKey, ClientConfig, Connection, ServerConfig, ServerTickets, SigningKey,
};

use super::{Halite, Library, Op, Peer, Runner, Unit, peer};

/// The name the client connects to (in both test certificates' SAN).
pub const SERVER_NAME: &str = "localhost";

/// The suite every library is limited to: `TLS_AES_128_GCM_SHA256`.
pub const SUITE: u16 = 0x1301;
/// The group every library is limited to: X25519.
pub const GROUP: u16 = 0x001d;
/// The group of the hybrid op: X25519MLKEM768.
pub const HYBRID_GROUP: u16 = 0x11ec;

/// The TLS 1.2 suite with an ECDSA certificate: `TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256`.
pub const SUITE12_ECDSA: u16 = 0xc02b;
/// The TLS 1.2 suite with an RSA certificate: `TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256`.
pub const SUITE12_RSA: u16 = 0xc02f;

/// The protocol version an op runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// TLS 1.3 only (ops `tls-*`).
    Tls13,
    /// TLS 1.2 only (ops `tls12-*`).
    Tls12,
}

impl Version {
    /// The suite every library negotiates with `cert`.
    #[must_use]
    pub fn suite(self, cert: Cert) -> u16 {
        match (self, cert) {
            (Version::Tls13, _) => SUITE,
            (Version::Tls12, Cert::EcdsaP256) => SUITE12_ECDSA,
            (Version::Tls12, Cert::Rsa2048) => SUITE12_RSA,
        }
    }

    /// What Halite's configurations list as their `versions`: this version only.
    #[must_use]
    pub fn protocol_versions(self) -> &'static [ProtocolVersion] {
        match self {
            Version::Tls13 => &HALITE_V13,
            Version::Tls12 => &HALITE_V12,
        }
    }

    /// The name of Halite's implementation in the table.
    fn impl_name(self) -> &'static str {
        match self {
            Version::Tls13 => "tls13",
            Version::Tls12 => "tls12",
        }
    }
}

/// The key exchange an op runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// X25519 ([`GROUP`]): every op but one.
    X25519,
    /// X25519MLKEM768 ([`HYBRID_GROUP`]), TLS 1.3 only.
    X25519MlKem768,
}

impl Group {
    /// The group's code point.
    #[must_use]
    pub fn code(self) -> u16 {
        match self {
            Group::X25519 => GROUP,
            Group::X25519MlKem768 => HYBRID_GROUP,
        }
    }

    /// What Halite's configurations list as their `groups`: this group only.
    fn halite(self) -> &'static [NamedGroup] {
        match self {
            Group::X25519 => &HALITE_GROUPS,
            Group::X25519MlKem768 => &HALITE_HYBRID_GROUPS,
        }
    }
}

/// The record sizes `tls-bulk` is measured at, whatever `--sizes` says: 1 KiB and 16 KiB.
pub const BULK_SIZES: &[usize] = &[1024, 16384];

/// Halite's receive buffer: one whole record of the largest size a peer may send.
pub const HALITE_RECEIVED: usize = MAX_RECORD_LEN;
/// Halite's send buffer: one whole 16 KiB record (larger than the server's first flight).
pub const HALITE_SEND: usize = MAX_RECORD_LEN;
/// Halite's handshake reassembly buffer: `Certificate` plus `CertificateVerify` with the RSA-2048
/// chain take about 1.1 KB.
pub const HALITE_HANDSHAKE: usize = 4096;

/// The server certificate of a handshake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cert {
    /// ECDSA P-256 leaf under an ECDSA P-256 root.
    EcdsaP256,
    /// RSA-2048 leaf under an RSA-2048 root (PKCS#1 v1.5 SHA-256 certificate signatures).
    Rsa2048,
}

impl Cert {
    /// The trusted root (DER).
    #[must_use]
    pub fn root(self) -> &'static [u8] {
        match self {
            Cert::EcdsaP256 => include_bytes!("../../../tls/tests/data/ca-p256.der"),
            Cert::Rsa2048 => include_bytes!("../../../tls/tests/data/ca-rsa.der"),
        }
    }

    /// The server's certificate (DER), the whole chain.
    #[must_use]
    pub fn leaf(self) -> &'static [u8] {
        match self {
            Cert::EcdsaP256 => include_bytes!("../../../tls/tests/data/server-p256.der"),
            Cert::Rsa2048 => include_bytes!("../../../tls/tests/data/server-rsa.der"),
        }
    }

    /// The server's private key (PKCS#8 DER).
    #[must_use]
    pub fn key(self) -> &'static [u8] {
        match self {
            Cert::EcdsaP256 => include_bytes!("../../../tls/tests/data/server-p256.key.der"),
            Cert::Rsa2048 => include_bytes!("../../../tls/tests/data/server-rsa.key.der"),
        }
    }

    /// The one signature scheme the clients may negotiate for this certificate.
    #[must_use]
    pub fn scheme(self) -> u16 {
        match self {
            Cert::EcdsaP256 => SignatureScheme::ECDSA_SECP256R1_SHA256.0,
            Cert::Rsa2048 => SignatureScheme::RSA_PSS_RSAE_SHA256.0,
        }
    }
}

/// What a handshake negotiated, as the runners write it and the agreement check compares it:
/// suite, group and signature scheme (big-endian code points), then 1 if resumed.
#[must_use]
pub fn summary(suite: u16, group: u16, scheme: u16, resumed: bool) -> [u8; 7] {
    let [s0, s1] = suite.to_be_bytes();
    let [g0, g1] = group.to_be_bytes();
    let [c0, c1] = scheme.to_be_bytes();
    [s0, s1, g0, g1, c0, c1, u8::from(resumed)]
}

/// What every library must negotiate with `cert` over TLS 1.3, resumed or not.
#[must_use]
pub fn claimed(cert: Cert, resumed: bool) -> [u8; 7] {
    claimed_in(Version::Tls13, cert, resumed)
}

/// What every library must negotiate with `cert` over `version`, resumed or not: a resumed
/// TLS 1.2 handshake has no key exchange (group 0) and keeps the session's scheme.
#[must_use]
pub fn claimed_in(version: Version, cert: Cert, resumed: bool) -> [u8; 7] {
    claimed_with(version, Group::X25519, cert, resumed)
}

/// [`claimed_in`] with the key exchange `group`.
#[must_use]
pub fn claimed_with(version: Version, group: Group, cert: Cert, resumed: bool) -> [u8; 7] {
    let group = if version == Version::Tls12 && resumed { 0 } else { group.code() };
    summary(version.suite(cert), group, cert.scheme(), resumed)
}

fn tls_op(id: &'static str, what: &'static str, unit: Unit, halite: fn() -> Halite) -> Op {
    Op {
        id,
        group: "tls",
        what,
        unit,
        sizes: (unit == Unit::Bytes).then_some(BULK_SIZES),
        halite,
        peers: Vec::new(),
        openssl: None,
        canonical: None,
    }
}

/// The TLS operations, in table order.
pub(super) fn ops() -> Vec<Op> {
    use Library::{RustlsAwsLc, RustlsHalite, RustlsRing};
    const HYBRID: Group = Group::X25519MlKem768;
    let peers = |mut op: Op, peers: Vec<Option<Peer>>| {
        op.peers = peers.into_iter().flatten().collect();
        op
    };
    let with = |op: Op, aws: fn() -> Runner, ring: fn() -> Runner, halite: fn() -> Runner| {
        peers(op, vec![peer(RustlsAwsLc, aws), peer(RustlsRing, ring), peer(RustlsHalite, halite)])
    };
    vec![
        with(
            tls_op(
                "tls-full-ecdsa",
                "TLS 1.3 full handshake in memory: X25519, ECDSA P-256 certificate, AES-128-GCM",
                Unit::Ops,
                || halite_tls(|| halite_full(Version::Tls13, Group::X25519, Cert::EcdsaP256)),
            ),
            || rustls_full(Version::Tls13, Group::X25519, Provider::AwsLc, Cert::EcdsaP256),
            || rustls_full(Version::Tls13, Group::X25519, Provider::Ring, Cert::EcdsaP256),
            || rustls_full(Version::Tls13, Group::X25519, Provider::Halite, Cert::EcdsaP256),
        ),
        peers(
            tls_op(
                "tls-full-ecdsa-x25519mlkem768",
                "TLS 1.3 full handshake in memory: X25519MLKEM768, ECDSA P-256 certificate, AES-128-GCM",
                Unit::Ops,
                || halite_tls(|| halite_full(Version::Tls13, HYBRID, Cert::EcdsaP256)),
            ),
            vec![
                peer(RustlsAwsLc, || {
                    rustls_full(Version::Tls13, HYBRID, Provider::AwsLc, Cert::EcdsaP256)
                }),
                peer(RustlsHalite, || {
                    rustls_full(Version::Tls13, HYBRID, Provider::Halite, Cert::EcdsaP256)
                }),
            ],
        ),
        with(
            tls_op(
                "tls-full-rsa",
                "TLS 1.3 full handshake in memory: X25519, RSA-2048 certificate (PSS), AES-128-GCM",
                Unit::Ops,
                || halite_tls(|| halite_full(Version::Tls13, Group::X25519, Cert::Rsa2048)),
            ),
            || rustls_full(Version::Tls13, Group::X25519, Provider::AwsLc, Cert::Rsa2048),
            || rustls_full(Version::Tls13, Group::X25519, Provider::Ring, Cert::Rsa2048),
            || rustls_full(Version::Tls13, Group::X25519, Provider::Halite, Cert::Rsa2048),
        ),
        with(
            tls_op(
                "tls-resume",
                "TLS 1.3 resumed handshake in memory: session ticket, psk_dhe_ke X25519, AES-128-GCM",
                Unit::Ops,
                || halite_tls(|| halite_resume(Version::Tls13)),
            ),
            || rustls_resume(Version::Tls13, Provider::AwsLc),
            || rustls_resume(Version::Tls13, Provider::Ring),
            || rustls_resume(Version::Tls13, Provider::Halite),
        ),
        with(
            tls_op(
                "tls-bulk",
                "TLS 1.3 application data client to server, one AES-128-GCM record of BYTES per call",
                Unit::Bytes,
                || halite_tls(|| halite_bulk(Version::Tls13)),
            ),
            || rustls_bulk(Version::Tls13, Provider::AwsLc),
            || rustls_bulk(Version::Tls13, Provider::Ring),
            || rustls_bulk(Version::Tls13, Provider::Halite),
        ),
        with(
            tls_op(
                "tls12-full-ecdsa",
                "TLS 1.2 full handshake in memory: ECDHE X25519, ECDSA P-256 certificate, AES-128-GCM",
                Unit::Ops,
                || halite_tls12(|| halite_full(Version::Tls12, Group::X25519, Cert::EcdsaP256)),
            ),
            || rustls_full(Version::Tls12, Group::X25519, Provider::AwsLc, Cert::EcdsaP256),
            || rustls_full(Version::Tls12, Group::X25519, Provider::Ring, Cert::EcdsaP256),
            || rustls_full(Version::Tls12, Group::X25519, Provider::Halite, Cert::EcdsaP256),
        ),
        with(
            tls_op(
                "tls12-full-rsa",
                "TLS 1.2 full handshake in memory: ECDHE X25519, RSA-2048 certificate (PSS), AES-128-GCM",
                Unit::Ops,
                || halite_tls12(|| halite_full(Version::Tls12, Group::X25519, Cert::Rsa2048)),
            ),
            || rustls_full(Version::Tls12, Group::X25519, Provider::AwsLc, Cert::Rsa2048),
            || rustls_full(Version::Tls12, Group::X25519, Provider::Ring, Cert::Rsa2048),
            || rustls_full(Version::Tls12, Group::X25519, Provider::Halite, Cert::Rsa2048),
        ),
        with(
            tls_op(
                "tls12-resume",
                "TLS 1.2 resumed handshake in memory: RFC 5077 session ticket, AES-128-GCM",
                Unit::Ops,
                || halite_tls12(|| halite_resume(Version::Tls12)),
            ),
            || rustls_resume(Version::Tls12, Provider::AwsLc),
            || rustls_resume(Version::Tls12, Provider::Ring),
            || rustls_resume(Version::Tls12, Provider::Halite),
        ),
        with(
            tls_op(
                "tls12-bulk",
                "TLS 1.2 application data client to server, one AES-128-GCM record of BYTES per call",
                Unit::Bytes,
                || halite_tls12(|| halite_bulk(Version::Tls12)),
            ),
            || rustls_bulk(Version::Tls12, Provider::AwsLc),
            || rustls_bulk(Version::Tls12, Provider::Ring),
            || rustls_bulk(Version::Tls12, Provider::Halite),
        ),
    ]
}

/// Halite's side of a TLS op: its one implementation is the `tls` crate over the default
/// primitives.
fn halite_tls(make: fn() -> Runner) -> Halite {
    halite_in(Version::Tls13, make)
}

/// [`halite_tls`] for a TLS 1.2 op.
fn halite_tls12(make: fn() -> Runner) -> Halite {
    halite_in(Version::Tls12, make)
}

fn halite_in(version: Version, make: fn() -> Runner) -> Halite {
    let name = version.impl_name();
    Halite {
        default_impl: name.to_owned(),
        default: make(),
        impls: vec![(name.to_owned(), make())],
    }
}

// --- Halite -------------------------------------------------------------------------------

/// Halite's TLS 1.3 suites: only `TLS_AES_128_GCM_SHA256`.
pub static HALITE_SUITES: [Suite; 1] = [suites::TLS13_AES_128_GCM_SHA256];
static HALITE_GROUPS: [NamedGroup; 1] = [NamedGroup::X25519];
static HALITE_HYBRID_GROUPS: [NamedGroup; 1] = [NamedGroup::X25519MLKEM768];
/// Halite's TLS 1.2 suites: the ECDHE AES-128-GCM one for each certificate type.
pub static HALITE_SUITES12: [Suite12; 2] =
    [tls12::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, tls12::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256];
static HALITE_V13: [ProtocolVersion; 1] = [ProtocolVersion::TLSV1_3];
static HALITE_V12: [ProtocolVersion; 1] = [ProtocolVersion::TLSV1_2];

/// A server identity and the client's root for it, built once per process.
#[derive(Clone, Copy, Debug)]
pub struct HaliteIdentity {
    /// The client's trusted roots.
    pub roots: &'static [TrustAnchor<'static>],
    /// The server's certificate and key.
    pub certs: &'static [CertifiedKey<'static>],
}

/// The identity for `cert`.
#[must_use]
pub fn halite_identity(cert: Cert) -> HaliteIdentity {
    static P256: OnceLock<HaliteIdentity> = OnceLock::new();
    static RSA: OnceLock<HaliteIdentity> = OnceLock::new();
    let cell = match cert {
        Cert::EcdsaP256 => &P256,
        Cert::Rsa2048 => &RSA,
    };
    *cell.get_or_init(|| HaliteIdentity::leak(cert.root(), cert.leaf(), cert.key()))
}

impl HaliteIdentity {
    /// The identity of the root `root`, the one-certificate chain `leaf` and its PKCS#8 `key`
    /// (all DER), leaked: callers build each once per process.
    ///
    /// # Panics
    ///
    /// If the root or the key does not parse.
    #[must_use]
    pub fn leak(root: &'static [u8], leaf: &'static [u8], key: &'static [u8]) -> Self {
        let root: &'static CertificateDer<'static> = Box::leak(Box::new(root.into()));
        let anchor = webpki::anchor_from_trusted_cert(root).expect("the test root");
        let key: &'static SigningKey =
            Box::leak(Box::new(SigningKey::from_pkcs8_der(key).expect("the test key")));
        let chain: &'static [&'static [u8]] = Box::leak(Box::new([leaf]));
        HaliteIdentity {
            roots: Box::leak(Box::new([anchor])),
            certs: Box::leak(Box::new([CertifiedKey { chain, key }])),
        }
    }
}

/// One side's buffers.
#[derive(Debug)]
pub struct HaliteBuffers {
    received: Vec<u8>,
    send: Vec<u8>,
    handshake: Vec<u8>,
}

impl Default for HaliteBuffers {
    fn default() -> Self {
        Self {
            received: vec![0; HALITE_RECEIVED],
            send: vec![0; HALITE_SEND],
            handshake: vec![0; HALITE_HANDSHAKE],
        }
    }
}

impl HaliteBuffers {
    /// The buffers, lent to one connection.
    pub fn lend(&mut self) -> Buffers<'_> {
        Buffers {
            received: &mut self.received,
            send: &mut self.send,
            handshake: &mut self.handshake,
        }
    }

    /// Their total size in bytes.
    #[must_use]
    pub fn len(&self) -> usize {
        self.received.len() + self.send.len() + self.handshake.len()
    }

    /// Whether they hold nothing (never, for these).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Everything a Halite client and server pair needs besides buffers: identity, tickets.
#[derive(Debug)]
pub struct HaliteSetup {
    /// Whose certificate.
    pub identity: HaliteIdentity,
    /// The client's ticket store and the server's ticket key, for resumption.
    pub tickets: Option<(MemoryTicketStore, TicketKey)>,
    /// The one version both sides offer.
    pub version: Version,
    /// The one group both sides offer.
    pub group: Group,
}

impl HaliteSetup {
    /// A TLS 1.3 setup for `cert`, issuing and keeping one ticket per handshake when
    /// `tickets`.
    #[must_use]
    pub fn new(cert: Cert, tickets: bool) -> Self {
        Self::new_in(Version::Tls13, cert, tickets)
    }

    /// [`HaliteSetup::new`] over `version`.
    #[must_use]
    pub fn new_in(version: Version, cert: Cert, tickets: bool) -> Self {
        let tickets = tickets.then(|| {
            (MemoryTicketStore::default(), TicketKey::new(&[0x42; 32]).expect("a ticket key"))
        });
        Self { identity: halite_identity(cert), tickets, version, group: Group::X25519 }
    }

    /// A new client connection (its `ClientHello` queued).
    pub fn client<'a, 'b>(&'a self, bufs: Buffers<'b>) -> Connection<'a, 'b> {
        let config = ClientConfig {
            versions: self.version.protocol_versions(),
            suites: &HALITE_SUITES,
            suites12: &HALITE_SUITES12,
            groups: self.group.halite(),
            tickets: self.tickets.as_ref().map(|(store, _)| store as &dyn TicketStore),
            ..ClientConfig::new(self.identity.roots, &tls::SystemClock)
        };
        Connection::client(config, SERVER_NAME, bufs, &mut OsRandom).expect("a client")
    }

    /// A new server connection.
    pub fn server<'a, 'b>(&'a self, bufs: Buffers<'b>) -> Connection<'a, 'b> {
        let config = ServerConfig {
            versions: self.version.protocol_versions(),
            suites: &HALITE_SUITES,
            suites12: &HALITE_SUITES12,
            groups: self.group.halite(),
            tickets: self.tickets.as_ref().map(|(_, key)| ServerTickets {
                key,
                lifetime: 3600,
                count: 1,
                clock: &tls::SystemClock,
                psk_ke: false,
                max_auth_age: 604_800,
            }),
            ..ServerConfig::new(self.identity.certs)
        };
        Connection::server(config, bufs, &mut OsRandom).expect("a server")
    }
}

/// Moves everything `from` has to send into `to`, through `wire`; whether anything moved.
pub fn halite_move(
    from: &mut Connection<'_, '_>,
    to: &mut Connection<'_, '_>,
    wire: &mut Vec<u8>,
) -> Result<bool, tls::Error> {
    let pending = from.pending_send();
    if pending.is_empty() {
        return Ok(false);
    }
    wire.clear();
    wire.extend_from_slice(pending);
    from.sent(wire.len());
    let mut at = 0;
    while at < wire.len() {
        let space = to.receive_space();
        let n = space.len().min(wire.len() - at);
        if n == 0 {
            let needed = wire.len() - at;
            return Err(tls::Error::BufferTooSmall { buffer: tls::BufferKind::Received, needed });
        }
        space[..n].copy_from_slice(&wire[at..at + n]);
        to.received(n)?;
        at += n;
    }
    Ok(true)
}

/// Runs the handshake (and any tickets after it) until neither side has anything to send;
/// returns the client's [`summary`].
pub fn halite_handshake(
    client: &mut Connection<'_, '_>,
    server: &mut Connection<'_, '_>,
    wire: &mut Vec<u8>,
) -> Result<[u8; 7], String> {
    for _ in 0..16 {
        let a = halite_move(client, server, wire).map_err(|e| format!("{e:?}"))?;
        let b = halite_move(server, client, wire).map_err(|e| format!("{e:?}"))?;
        if !a && !b {
            break;
        }
    }
    let (Some(n), Some(m)) = (client.negotiated(), server.negotiated()) else {
        let why = client.error().or(server.error());
        return Err(format!("the handshake did not finish ({why:?})"));
    };
    if n != m {
        return Err(format!("the client negotiated {n:?}, the server {m:?}"));
    }
    Ok(summary(n.suite.0, n.group.0, n.scheme.0, n.resumed))
}

/// A fresh pair's handshake on `bufs`.
fn halite_pair_handshake(
    setup: &HaliteSetup,
    bufs: &mut [HaliteBuffers; 2],
    wire: &mut Vec<u8>,
) -> [u8; 7] {
    let [cb, sb] = bufs;
    let mut client = setup.client(cb.lend());
    let mut server = setup.server(sb.lend());
    halite_handshake(&mut client, &mut server, wire).expect("a Halite handshake")
}

fn halite_full(version: Version, group: Group, cert: Cert) -> Runner {
    let setup = HaliteSetup { group, ..HaliteSetup::new_in(version, cert, false) };
    let mut bufs: [HaliteBuffers; 2] = Default::default();
    let mut wire = Vec::with_capacity(HALITE_SEND);
    let first = halite_pair_handshake(&setup, &mut bufs, &mut wire);
    assert_eq!(
        first,
        claimed_with(version, group, cert, false),
        "Halite's {version:?} full handshake with {group:?} and {cert:?}"
    );
    Box::new(move |_, out| {
        out.extend_from_slice(&halite_pair_handshake(&setup, &mut bufs, &mut wire));
    })
}

fn halite_resume(version: Version) -> Runner {
    let setup = HaliteSetup::new_in(version, Cert::EcdsaP256, true);
    let mut bufs: [HaliteBuffers; 2] = Default::default();
    let mut wire = Vec::with_capacity(HALITE_SEND);
    let first = halite_pair_handshake(&setup, &mut bufs, &mut wire);
    assert_eq!(first, claimed_in(version, Cert::EcdsaP256, false), "Halite's first handshake");
    let second = halite_pair_handshake(&setup, &mut bufs, &mut wire);
    assert_eq!(second, claimed_in(version, Cert::EcdsaP256, true), "Halite's resumed handshake");
    Box::new(move |_, out| {
        out.extend_from_slice(&halite_pair_handshake(&setup, &mut bufs, &mut wire));
    })
}

/// An established Halite pair kept for the life of the runner: the connections borrow the
/// setup and buffers, which are leaked once per runner so the closure can own the pair.
fn halite_bulk(version: Version) -> Runner {
    let setup: &'static HaliteSetup =
        Box::leak(Box::new(HaliteSetup::new_in(version, Cert::EcdsaP256, false)));
    let bufs: &'static mut [HaliteBuffers; 2] = Box::leak(Box::default());
    let [cb, sb] = bufs;
    let mut client = setup.client(cb.lend());
    let mut server = setup.server(sb.lend());
    let mut wire = Vec::with_capacity(HALITE_SEND);
    let first = halite_handshake(&mut client, &mut server, &mut wire).expect("a Halite handshake");
    let want = claimed_in(version, Cert::EcdsaP256, false);
    assert_eq!(first, want, "Halite's handshake for bulk data");
    Box::new(move |m, out| {
        for chunk in m.chunks(tls::record::MAX_PLAINTEXT_LEN) {
            let n = client.write(chunk).expect("room for a record");
            assert_eq!(n, chunk.len(), "one write takes one record");
            halite_move(&mut client, &mut server, &mut wire).expect("the record moves");
            let at = out.len();
            out.resize(at + chunk.len(), 0);
            let mut got = 0;
            while got < chunk.len() {
                let k = server.read(&mut out[at + got..]).expect("the record opens");
                assert!(k > 0, "the whole record arrived");
                got += k;
            }
        }
    })
}

// --- rustls -------------------------------------------------------------------------------

/// rustls's crypto provider.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provider {
    /// `rustls::crypto::aws_lc_rs`.
    AwsLc,
    /// `rustls::crypto::ring`.
    Ring,
    /// `rustls_halite`: Halite's primitives.
    Halite,
}

/// The provider limited to what every library here negotiates: `TLS_AES_128_GCM_SHA256`,
/// X25519, and (offered by the client) only `ecdsa_secp256r1_sha256` and `rsa_pss_rsae_sha256`
/// (rustls's server would otherwise pick PSS with SHA-512 for RSA). Built once per process.
#[must_use]
pub fn rustls_provider(which: Provider) -> Arc<CryptoProvider> {
    rustls_provider_in(Version::Tls13, which)
}

/// [`rustls_provider`] for `version`: over TLS 1.2 its suites are the two ECDHE AES-128-GCM
/// ones ([`SUITE12_ECDSA`], [`SUITE12_RSA`]).
#[must_use]
pub fn rustls_provider_in(version: Version, which: Provider) -> Arc<CryptoProvider> {
    rustls_provider_with(version, Group::X25519, which)
}

/// [`rustls_provider_in`] limited to `group` instead of X25519.
///
/// # Panics
///
/// If the provider does not have `group` (ring has no X25519MLKEM768).
#[must_use]
pub fn rustls_provider_with(
    version: Version,
    group: Group,
    which: Provider,
) -> Arc<CryptoProvider> {
    static CELLS: [[[OnceLock<Arc<CryptoProvider>>; 3]; 2]; 2] =
        [const { [const { [const { OnceLock::new() }; 3] }; 2] }; 2];
    let cell = &CELLS[group as usize][version as usize][which as usize];
    let suites: &[u16] = match version {
        Version::Tls13 => &[SUITE],
        Version::Tls12 => &[SUITE12_ECDSA, SUITE12_RSA],
    };
    cell.get_or_init(|| {
        let mut provider = match which {
            Provider::AwsLc => rustls::crypto::aws_lc_rs::default_provider(),
            Provider::Ring => rustls::crypto::ring::default_provider(),
            Provider::Halite => rustls_halite::default_provider(),
        };
        provider.cipher_suites.retain(|s| suites.contains(&u16::from(s.suite())));
        provider.kx_groups.retain(|g| u16::from(g.name()) == group.code());
        let algs = provider.signature_verification_algorithms;
        let wanted = [Cert::EcdsaP256.scheme(), Cert::Rsa2048.scheme()];
        let mapping: Vec<_> =
            algs.mapping.iter().filter(|(s, _)| wanted.contains(&u16::from(*s))).copied().collect();
        assert_eq!(mapping.len(), 2, "the provider verifies both schemes");
        provider.signature_verification_algorithms =
            WebPkiSupportedAlgorithms { all: algs.all, mapping: Vec::leak(mapping) };
        assert_eq!((provider.cipher_suites.len(), provider.kx_groups.len()), (suites.len(), 1));
        Arc::new(provider)
    })
    .clone()
}

/// A rustls client and server configuration pair.
#[derive(Clone, Debug)]
pub struct RustlsSetup {
    /// The client's.
    pub client: Arc<rustls::ClientConfig>,
    /// The server's.
    pub server: Arc<rustls::ServerConfig>,
}

impl RustlsSetup {
    /// Configurations for `cert` over `which`; with `tickets`, the server issues one session
    /// ticket per handshake (stateless, its provider's `Ticketer`) and the client keeps them;
    /// without, neither tickets nor session IDs.
    #[must_use]
    pub fn new(which: Provider, cert: Cert, tickets: bool) -> Self {
        Self::new_in(Version::Tls13, which, cert, tickets)
    }

    /// [`RustlsSetup::new`] over `version` only. Over TLS 1.2 the server keeps no session-id
    /// cache, so resumption is by ticket and a full handshake stores nothing.
    #[must_use]
    pub fn new_in(version: Version, which: Provider, cert: Cert, tickets: bool) -> Self {
        Self::new_with(version, Group::X25519, which, cert, tickets)
    }

    /// [`RustlsSetup::new_in`] with the key exchange `group` instead of X25519.
    #[must_use]
    pub fn new_with(
        version: Version,
        group: Group,
        which: Provider,
        cert: Cert,
        tickets: bool,
    ) -> Self {
        let provider = rustls_provider_with(version, group, which);
        let versions: &[&rustls::SupportedProtocolVersion] = match version {
            Version::Tls13 => &[&rustls::version::TLS13],
            Version::Tls12 => &[&rustls::version::TLS12],
        };
        let mut roots = rustls::RootCertStore::empty();
        roots.add(CertificateDer::from(cert.root())).expect("the test root");
        let mut client = rustls::ClientConfig::builder_with_provider(provider.clone())
            .with_protocol_versions(versions)
            .expect("the version")
            .with_root_certificates(roots)
            .with_no_client_auth();
        let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(cert.key()));
        let mut server = rustls::ServerConfig::builder_with_provider(provider)
            .with_protocol_versions(versions)
            .expect("the version")
            .with_no_client_auth()
            .with_single_cert(vec![CertificateDer::from(cert.leaf())], key)
            .expect("the test key");
        if version == Version::Tls12 {
            server.session_storage = Arc::new(rustls::server::NoServerSessionStorage {});
        }
        if tickets {
            server.send_tls13_tickets = 1;
            server.ticketer = match which {
                Provider::AwsLc => rustls::crypto::aws_lc_rs::Ticketer::new(),
                Provider::Ring => rustls::crypto::ring::Ticketer::new(),
                Provider::Halite => rustls_halite::Ticketer::new(),
            }
            .expect("a ticketer");
        } else {
            server.send_tls13_tickets = 0;
            client.resumption = rustls::client::Resumption::disabled();
        }
        Self { client: Arc::new(client), server: Arc::new(server) }
    }

    /// A new client connection.
    #[must_use]
    pub fn client(&self) -> rustls::ClientConnection {
        let name = ServerName::try_from(SERVER_NAME).expect("a DNS name");
        rustls::ClientConnection::new(self.client.clone(), name).expect("a client")
    }

    /// A new server connection.
    #[must_use]
    pub fn server(&self) -> rustls::ServerConnection {
        rustls::ServerConnection::new(self.server.clone()).expect("a server")
    }
}

/// Moves everything `from` has to send into `to`, through `wire`; whether anything moved.
pub fn rustls_move<A, B>(
    from: &mut ConnectionCommon<A>,
    to: &mut ConnectionCommon<B>,
    wire: &mut Vec<u8>,
) -> Result<bool, rustls::Error> {
    wire.clear();
    while from.wants_write() {
        from.write_tls(wire).map_err(|e| rustls::Error::General(e.to_string()))?;
    }
    let mut rd = &wire[..];
    while !rd.is_empty() {
        to.read_tls(&mut rd).map_err(|e| rustls::Error::General(e.to_string()))?;
        to.process_new_packets()?;
    }
    Ok(!wire.is_empty())
}

/// Runs the handshake (and any tickets after it) until neither side has anything to send;
/// returns the client's [`summary`] (its scheme is `cert`'s: the only one the client offers).
pub fn rustls_handshake(
    client: &mut rustls::ClientConnection,
    server: &mut rustls::ServerConnection,
    cert: Cert,
    wire: &mut Vec<u8>,
) -> Result<[u8; 7], rustls::Error> {
    for _ in 0..16 {
        let a = rustls_move(client, server, wire)?;
        let b = rustls_move(server, client, wire)?;
        if !a && !b {
            break;
        }
    }
    if client.is_handshaking() || server.is_handshaking() {
        return Err(rustls::Error::General("the handshake did not finish".into()));
    }
    let suite = client.negotiated_cipher_suite().map_or(0, |s| u16::from(s.suite()));
    // `None` after a TLS 1.2 resumption: no key exchange.
    let group = client.negotiated_key_exchange_group().map_or(0, |g| u16::from(g.name()));
    let resumed = client.handshake_kind() == Some(HandshakeKind::Resumed);
    Ok(summary(suite, group, cert.scheme(), resumed))
}

fn rustls_pair_handshake(setup: &RustlsSetup, cert: Cert, wire: &mut Vec<u8>) -> [u8; 7] {
    let mut client = setup.client();
    let mut server = setup.server();
    rustls_handshake(&mut client, &mut server, cert, wire).expect("a rustls handshake")
}

fn rustls_full(version: Version, group: Group, which: Provider, cert: Cert) -> Runner {
    let setup = RustlsSetup::new_with(version, group, which, cert, false);
    let mut wire = Vec::with_capacity(HALITE_SEND);
    let first = rustls_pair_handshake(&setup, cert, &mut wire);
    let want = claimed_with(version, group, cert, false);
    assert_eq!(first, want, "rustls ({which:?})'s {version:?} full handshake, {group:?}, {cert:?}");
    Box::new(move |_, out| out.extend_from_slice(&rustls_pair_handshake(&setup, cert, &mut wire)))
}

fn rustls_resume(version: Version, which: Provider) -> Runner {
    let cert = Cert::EcdsaP256;
    let setup = RustlsSetup::new_in(version, which, cert, true);
    let mut wire = Vec::with_capacity(HALITE_SEND);
    let first = rustls_pair_handshake(&setup, cert, &mut wire);
    assert_eq!(first, claimed_in(version, cert, false), "rustls ({which:?})'s first handshake");
    let second = rustls_pair_handshake(&setup, cert, &mut wire);
    assert_eq!(second, claimed_in(version, cert, true), "rustls ({which:?})'s resumed handshake");
    Box::new(move |_, out| out.extend_from_slice(&rustls_pair_handshake(&setup, cert, &mut wire)))
}

fn rustls_bulk(version: Version, which: Provider) -> Runner {
    let cert = Cert::EcdsaP256;
    let setup = RustlsSetup::new_in(version, which, cert, false);
    let mut client = setup.client();
    let mut server = setup.server();
    let mut wire = Vec::with_capacity(HALITE_SEND);
    let first = rustls_handshake(&mut client, &mut server, cert, &mut wire).expect("a handshake");
    let want = claimed_in(version, cert, false);
    assert_eq!(first, want, "rustls ({which:?})'s handshake for bulk data");
    Box::new(move |m, out| {
        for chunk in m.chunks(tls::record::MAX_PLAINTEXT_LEN) {
            client.writer().write_all(chunk).expect("room for a record");
            rustls_move(&mut client, &mut server, &mut wire).expect("the record moves");
            let at = out.len();
            out.resize(at + chunk.len(), 0);
            server.reader().read_exact(&mut out[at..]).expect("the record opens");
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_library_negotiates_what_the_table_claims() {
        let mut wire = Vec::new();
        for version in [Version::Tls13, Version::Tls12] {
            for cert in [Cert::EcdsaP256, Cert::Rsa2048] {
                let want = claimed_in(version, cert, false);
                let setup = HaliteSetup::new_in(version, cert, false);
                let mut bufs: [HaliteBuffers; 2] = Default::default();
                assert_eq!(halite_pair_handshake(&setup, &mut bufs, &mut wire), want);
                for which in [Provider::AwsLc, Provider::Ring, Provider::Halite] {
                    let setup = RustlsSetup::new_in(version, which, cert, false);
                    assert_eq!(rustls_pair_handshake(&setup, cert, &mut wire), want);
                }
            }
        }
    }

    #[test]
    fn every_library_with_ml_kem_negotiates_the_hybrid() {
        let mut wire = Vec::new();
        let (v13, hybrid, cert) = (Version::Tls13, Group::X25519MlKem768, Cert::EcdsaP256);
        let want = claimed_with(v13, hybrid, cert, false);
        assert_eq!(want[2..4], [0x11, 0xec]);
        let setup = HaliteSetup { group: hybrid, ..HaliteSetup::new_in(v13, cert, false) };
        let mut bufs: [HaliteBuffers; 2] = Default::default();
        assert_eq!(halite_pair_handshake(&setup, &mut bufs, &mut wire), want);
        for which in [Provider::AwsLc, Provider::Halite] {
            let setup = RustlsSetup::new_with(v13, hybrid, which, cert, false);
            assert_eq!(rustls_pair_handshake(&setup, cert, &mut wire), want);
        }
    }

    #[test]
    fn the_claim_is_the_wire_code_points() {
        assert_eq!(claimed(Cert::EcdsaP256, true), [0x13, 0x01, 0x00, 0x1d, 0x04, 0x03, 1]);
        assert_eq!(claimed(Cert::Rsa2048, false), [0x13, 0x01, 0x00, 0x1d, 0x08, 0x04, 0]);
        let v12 = Version::Tls12;
        assert_eq!(claimed_in(v12, Cert::EcdsaP256, false), [0xc0, 0x2b, 0, 0x1d, 4, 3, 0]);
        assert_eq!(claimed_in(v12, Cert::EcdsaP256, true), [0xc0, 0x2b, 0, 0, 4, 3, 1]);
        assert_eq!(claimed_in(v12, Cert::Rsa2048, false), [0xc0, 0x2f, 0, 0x1d, 8, 4, 0]);
    }
}
