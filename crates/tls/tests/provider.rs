//! User implementations in place of the provider table's defaults: a counting AEAD, key
//! exchange and signer wrapped around Halite's own primitives handshake with a peer that uses
//! the defaults (so the wire format is unchanged), a group `core-ec` does not have is
//! negotiated through a user's implementation, and misbehaving implementations give typed
//! errors — never released plaintext, never a panic.

#![allow(clippy::doc_markdown)] // protocol message names are prose here

#[path = "pair/mod.rs"]
mod pair;

use core::sync::atomic::{AtomicUsize, Ordering};

use core_aead::{Aead, Aes128Gcm};
use core_ec::ed25519;
use core_hash::{OsRandom, RandomSource};
use pki_types::{CertificateDer, TrustAnchor};
use tls::key_schedule::HashAlg;
use tls::kx::{MAX_PUBLIC_LEN, MAX_SHARED_LEN};
#[cfg(feature = "aes-gcm")]
use tls::msgs::{CipherSuite, Codec, ContentType, HandshakeMessage};
use tls::msgs::{NamedGroup, SignatureScheme};
use tls::provider::{KeyExchange, MAX_KX_SECRET_LEN, RecordAead, Signer};
use tls::record::RecordProtection;
use tls::sign::MAX_SIGNATURE_LEN;
use tls::suites::{self, AeadAlg, Suite};
use tls::{
    ApiMisuse, Buffers, CertifiedKey, ClientConfig, Connection, Error, PeerMisbehaved,
    ServerConfig, SigningKey,
};

const CA: &[u8] = include_bytes!("data/ca.der");
const SERVER_CERT: &[u8] = include_bytes!("data/server.der");
const SERVER_SEED: &[u8; 32] = include_bytes!("data/server.seed");

// ---------------------------------------------------------------------------------------------
// The implementations under test.

/// AES-128-GCM from `core-aead`, keyed per call, counting its calls; `broken_open` makes
/// every open fail after writing garbage into the buffer.
#[derive(Debug)]
struct CountingGcm {
    seals: AtomicUsize,
    opens: AtomicUsize,
    broken_open: bool,
}

impl CountingGcm {
    const fn new(broken_open: bool) -> Self {
        Self { seals: AtomicUsize::new(0), opens: AtomicUsize::new(0), broken_open }
    }
}

impl RecordAead for CountingGcm {
    fn key_len(&self) -> usize {
        16
    }
    fn tag_len(&self) -> usize {
        16
    }
    fn seal(
        &self,
        key: &[u8],
        nonce: &[u8; 12],
        aad: &[u8],
        buf: &mut [u8],
        tag: &mut [u8],
    ) -> Result<(), Error> {
        self.seals.fetch_add(1, Ordering::Relaxed);
        let aead = Aes128Gcm::new(key).map_err(|_| Error::RecordOverflow)?;
        let t = aead.seal_in_place_detached(nonce, aad, buf).map_err(|_| Error::RecordOverflow)?;
        tag.copy_from_slice(t.as_ref());
        Ok(())
    }
    fn open(
        &self,
        key: &[u8],
        nonce: &[u8; 12],
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error> {
        self.opens.fetch_add(1, Ordering::Relaxed);
        if self.broken_open {
            buf.fill(0xAA);
            return Err(Error::DecryptFailed);
        }
        let aead = Aes128Gcm::new(key).map_err(|_| Error::DecryptFailed)?;
        aead.open_in_place_detached(nonce, aad, buf, tag).map_err(|_| Error::DecryptFailed)
    }
}

/// An AEAD whose lengths the record layer must refuse.
#[derive(Debug)]
struct BadLengths {
    key_len: usize,
    tag_len: usize,
}

impl RecordAead for BadLengths {
    fn key_len(&self) -> usize {
        self.key_len
    }
    fn tag_len(&self) -> usize {
        self.tag_len
    }
    fn seal(
        &self,
        _: &[u8],
        _: &[u8; 12],
        _: &[u8],
        _: &mut [u8],
        _: &mut [u8],
    ) -> Result<(), Error> {
        unreachable!("never keyed")
    }
    fn open(&self, _: &[u8], _: &[u8; 12], _: &[u8], _: &mut [u8], _: &[u8]) -> Result<(), Error> {
        unreachable!("never keyed")
    }
}

/// X25519 (through `core_ec::x25519`) under any code point, counting its calls; `zero_public`
/// makes it send an invalid (all-zero) public value.
#[derive(Debug)]
struct CountingX25519 {
    group: NamedGroup,
    generated: AtomicUsize,
    publics: AtomicUsize,
    agreed: AtomicUsize,
    zero_public: bool,
}

impl CountingX25519 {
    const fn new(group: NamedGroup, zero_public: bool) -> Self {
        Self {
            group,
            generated: AtomicUsize::new(0),
            publics: AtomicUsize::new(0),
            agreed: AtomicUsize::new(0),
            zero_public,
        }
    }
}

const BASE: [u8; 32] = {
    let mut b = [0u8; 32];
    b[0] = 9;
    b
};

fn invalid_share(_: core_ec::Error) -> Error {
    Error::PeerMisbehaved(PeerMisbehaved::InvalidKeyShare)
}

/// X25519 of our 32-byte `secret` with the peer's 32-byte `share` into `out`, as the trait
/// wants it: a secret of the wrong size is our misuse, a share of the wrong size or a zero
/// result the peer's fault.
fn x25519_into(
    secret: &[u8],
    share: &[u8],
    out: &mut [u8; MAX_SHARED_LEN],
) -> Result<usize, Error> {
    let k: &[u8; 32] = secret.try_into().map_err(|_| Error::ApiMisuse(ApiMisuse::BadConfig))?;
    let u: &[u8; 32] =
        share.try_into().map_err(|_| invalid_share(core_ec::Error::InvalidEncoding))?;
    out[..32].copy_from_slice(&core_ec::x25519::x25519(k, u).map_err(invalid_share)?);
    Ok(32)
}

/// The X25519 public value of our 32-byte `secret` into `public`.
fn x25519_public(secret: &[u8], public: &mut [u8; MAX_PUBLIC_LEN]) -> Result<usize, Error> {
    let k: &[u8; 32] = secret.try_into().map_err(|_| Error::ApiMisuse(ApiMisuse::BadConfig))?;
    public[..32].copy_from_slice(&core_ec::x25519::x25519(k, &BASE).map_err(invalid_share)?);
    Ok(32)
}

impl KeyExchange for CountingX25519 {
    fn group(&self) -> NamedGroup {
        self.group
    }
    fn keygen(
        &self,
        rng: &mut dyn RandomSource,
        secret: &mut [u8; MAX_KX_SECRET_LEN],
    ) -> Result<usize, Error> {
        self.generated.fetch_add(1, Ordering::Relaxed);
        rng.fill(&mut secret[..32]).map_err(|_| Error::RandomFailed)?;
        Ok(32)
    }
    fn public(&self, secret: &[u8], public: &mut [u8; MAX_PUBLIC_LEN]) -> Result<usize, Error> {
        self.publics.fetch_add(1, Ordering::Relaxed);
        if !self.zero_public {
            x25519_public(secret, public)?;
        }
        Ok(32)
    }
    fn decapsulate(
        &self,
        secret: &[u8],
        peer: &[u8],
        out: &mut [u8; MAX_SHARED_LEN],
    ) -> Result<usize, Error> {
        self.agreed.fetch_add(1, Ordering::Relaxed);
        x25519_into(secret, peer, out)
    }
}

/// X25519 written as a KEM: the server's side is its own `encapsulate` (an ephemeral key and
/// its Diffie–Hellman with the client's share), counted apart from the client's steps, as an
/// ML-KEM group would be.
#[derive(Debug)]
struct KemX25519 {
    keygens: AtomicUsize,
    decapsulations: AtomicUsize,
    encapsulations: AtomicUsize,
}

impl KemX25519 {
    const fn new() -> Self {
        Self {
            keygens: AtomicUsize::new(0),
            decapsulations: AtomicUsize::new(0),
            encapsulations: AtomicUsize::new(0),
        }
    }
}

impl KeyExchange for KemX25519 {
    fn group(&self) -> NamedGroup {
        NamedGroup::X25519
    }
    fn keygen(
        &self,
        rng: &mut dyn RandomSource,
        secret: &mut [u8; MAX_KX_SECRET_LEN],
    ) -> Result<usize, Error> {
        self.keygens.fetch_add(1, Ordering::Relaxed);
        rng.fill(&mut secret[..32]).map_err(|_| Error::RandomFailed)?;
        Ok(32)
    }
    fn public(&self, secret: &[u8], public: &mut [u8; MAX_PUBLIC_LEN]) -> Result<usize, Error> {
        x25519_public(secret, public)
    }
    fn decapsulate(
        &self,
        secret: &[u8],
        server_share: &[u8],
        out: &mut [u8; MAX_SHARED_LEN],
    ) -> Result<usize, Error> {
        self.decapsulations.fetch_add(1, Ordering::Relaxed);
        x25519_into(secret, server_share, out)
    }
    fn encapsulate(
        &self,
        rng: &mut dyn RandomSource,
        client_share: &[u8],
        server_share: &mut [u8; MAX_PUBLIC_LEN],
        out: &mut [u8; MAX_SHARED_LEN],
    ) -> Result<(usize, usize), Error> {
        self.encapsulations.fetch_add(1, Ordering::Relaxed);
        let mut e = [0u8; 32];
        rng.fill(&mut e).map_err(|_| Error::RandomFailed)?;
        let shared = x25519_into(&e, client_share, out)?;
        server_share[..32].copy_from_slice(&core_ec::x25519::x25519(&e, &BASE).unwrap());
        Ok((32, shared))
    }
}

/// A [`SigningKey`] behind the trait, counting signatures; `corrupt` flips a signature bit.
#[derive(Debug)]
struct CountingSigner {
    key: SigningKey,
    signed: AtomicUsize,
    corrupt: bool,
}

impl Signer for CountingSigner {
    fn schemes(&self) -> &[SignatureScheme] {
        self.key.schemes()
    }
    fn sign(
        &self,
        scheme: SignatureScheme,
        msg: &[u8],
        rng: &mut dyn RandomSource,
        out: &mut [u8; MAX_SIGNATURE_LEN],
    ) -> Result<usize, Error> {
        self.signed.fetch_add(1, Ordering::Relaxed);
        let n = self.key.sign(scheme, msg, rng, out)?;
        if self.corrupt {
            out[n / 2] ^= 1;
        }
        Ok(n)
    }
}

fn counting_signer(corrupt: bool) -> &'static CountingSigner {
    let key = SigningKey::Ed25519(ed25519::SigningKey::from_seed(SERVER_SEED));
    Box::leak(Box::new(CountingSigner { key, signed: AtomicUsize::new(0), corrupt }))
}

// ---------------------------------------------------------------------------------------------
// In-memory connections.

struct Bufs([Vec<u8>; 3]);

impl Bufs {
    fn new() -> Self {
        Self([vec![0; 17_000], vec![0; 40_000], vec![0; 8_000]])
    }
    fn get(&mut self) -> Buffers<'_> {
        let [a, b, c] = &mut self.0;
        Buffers { received: a, send: b, handshake: c }
    }
}

fn roots() -> &'static [TrustAnchor<'static>] {
    let der: &'static CertificateDer<'static> = Box::leak(Box::new(CertificateDer::from(CA)));
    Box::leak(Box::new([webpki::anchor_from_trusted_cert(der).unwrap()]))
}

fn default_key() -> &'static SigningKey {
    Box::leak(Box::new(SigningKey::Ed25519(ed25519::SigningKey::from_seed(SERVER_SEED))))
}

fn certs(key: &'static dyn Signer) -> &'static [CertifiedKey<'static>] {
    Box::leak(Box::new([CertifiedKey { chain: Box::leak(Box::new([SERVER_CERT])), key }]))
}

fn pump(from: &mut Connection<'_, '_>, to: &mut Connection<'_, '_>) -> Result<bool, Error> {
    let data = from.pending_send().to_vec();
    from.sent(data.len());
    to.receive_space()[..data.len()].copy_from_slice(&data);
    to.received(data.len())?;
    Ok(!data.is_empty())
}

/// Runs the handshake and one message each way; the error says which side failed.
fn run(
    c: &mut Connection<'_, '_>,
    s: &mut Connection<'_, '_>,
) -> Result<(), (&'static str, Error)> {
    for _ in 0..10 {
        let a = pump(c, s).map_err(|e| ("server", e))?;
        let b = pump(s, c).map_err(|e| ("client", e))?;
        if !a && !b {
            break;
        }
    }
    assert!(!c.is_handshaking() && !s.is_handshaking(), "stalled");
    let mut buf = [0u8; 8];
    c.write(b"ping").unwrap();
    pump(c, s).map_err(|e| ("server", e))?;
    assert_eq!(s.read(&mut buf).unwrap(), 4);
    assert_eq!(&buf[..4], b"ping");
    s.write(b"pong").unwrap();
    pump(s, c).map_err(|e| ("client", e))?;
    assert_eq!(c.read(&mut buf).unwrap(), 4);
    assert_eq!(&buf[..4], b"pong");
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Tests.

// The custom AEAD wraps AES-128-GCM.
#[cfg(feature = "aes-gcm")]
#[test]
fn custom_aead_interoperates_with_the_default() {
    static GCM: CountingGcm = CountingGcm::new(false);
    let custom = [Suite {
        suite: CipherSuite::TLS13_AES_128_GCM_SHA256,
        hash: HashAlg::Sha256,
        aead: AeadAlg::Custom(&GCM),
    }];
    let (mut cb, mut sb) = (Bufs::new(), Bufs::new());
    let config = ClientConfig { suites: &custom, ..ClientConfig::new(roots(), &tls::SystemClock) };
    let mut c = Connection::client(config, "localhost", cb.get(), &mut OsRandom).unwrap();
    let config = ServerConfig {
        suites: &[suites::TLS13_AES_128_GCM_SHA256],
        ..ServerConfig::new(certs(default_key()))
    };
    let mut s = Connection::server(config, sb.get(), &mut OsRandom).unwrap();
    run(&mut c, &mut s).unwrap();
    assert_eq!(c.negotiated().unwrap().suite, CipherSuite::TLS13_AES_128_GCM_SHA256);
    // Client: Finished and "ping" sealed; server's EncryptedExtensions to Finished and "pong"
    // opened (at least four records).
    assert!(GCM.seals.load(Ordering::Relaxed) >= 2, "{GCM:?}");
    assert!(GCM.opens.load(Ordering::Relaxed) >= 4, "{GCM:?}");
    assert_eq!(custom[0].iana_name(), "TLS_AES_128_GCM_SHA256");
    assert_ne!(custom[0], suites::TLS13_AES_128_GCM_SHA256, "custom differs from built-in");
    assert_eq!(custom[0], custom[0]);
}

#[test]
fn a_suite_hash_the_schedule_does_not_run_is_bad_config() {
    for hash in [HashAlg::Sha1, HashAlg::Sha512] {
        let custom = [Suite { hash, ..suites::TLS13_AES_128_GCM_SHA256 }];
        let (mut cb, mut sb) = (Bufs::new(), Bufs::new());
        let config =
            ClientConfig { suites: &custom, ..ClientConfig::new(roots(), &tls::SystemClock) };
        let c = Connection::client(config, "localhost", cb.get(), &mut OsRandom);
        assert_eq!(c.err(), Some(Error::ApiMisuse(ApiMisuse::BadConfig)), "client, {hash:?}");
        let config = ServerConfig { suites: &custom, ..ServerConfig::new(certs(default_key())) };
        let s = Connection::server(config, sb.get(), &mut OsRandom);
        assert_eq!(s.err(), Some(Error::ApiMisuse(ApiMisuse::BadConfig)), "server, {hash:?}");
    }
}

#[cfg(feature = "aes-gcm")]
#[test]
fn failed_custom_open_releases_no_plaintext() {
    static GOOD: CountingGcm = CountingGcm::new(false);
    static BROKEN: CountingGcm = CountingGcm::new(true);
    let (key, iv) = ([3u8; 16], [4u8; 12]);
    let mut tx = RecordProtection::from_key(AeadAlg::Custom(&GOOD), &key, &iv).unwrap();
    let mut rx = RecordProtection::from_key(AeadAlg::Custom(&BROKEN), &key, &iv).unwrap();
    let mut buf = [0u8; 64];
    let n = tx.seal(ContentType::APPLICATION_DATA, b"secret", 0, &mut buf).unwrap();
    assert_eq!(rx.open(&mut buf[..n]).map(|_| ()), Err(Error::DecryptFailed));
    // The body (after the header) holds zeros, not the AEAD's garbage or plaintext.
    assert!(buf[5..n - 16].iter().all(|&b| b == 0), "{:?}", &buf[..n]);
    // A built-in receiver opens what a custom sender sealed, and the other way round.
    let mut custom = RecordProtection::from_key(AeadAlg::Custom(&GOOD), &key, &iv).unwrap();
    let mut builtin = RecordProtection::from_key(AeadAlg::Aes128Gcm, &key, &iv).unwrap();
    for padding in [0, 3] {
        let n = custom.seal(ContentType::HANDSHAKE, b"secret", padding, &mut buf).unwrap();
        let (typ, content) = builtin.open(&mut buf[..n]).unwrap();
        assert_eq!((typ, &*content), (ContentType::HANDSHAKE, &b"secret"[..]));
    }
    let mut custom_rx = RecordProtection::from_key(AeadAlg::Custom(&GOOD), &key, &iv).unwrap();
    let mut builtin_tx = RecordProtection::from_key(AeadAlg::Aes128Gcm, &key, &iv).unwrap();
    let n = builtin_tx.seal(ContentType::ALERT, b"\x01\x00", 0, &mut buf).unwrap();
    let (typ, content) = custom_rx.open(&mut buf[..n]).unwrap();
    assert_eq!((typ, &*content), (ContentType::ALERT, &b"\x01\x00"[..]));
}

#[test]
fn custom_aead_lengths_are_checked() {
    static NO_KEY: BadLengths = BadLengths { key_len: 0, tag_len: 16 };
    static LONG_KEY: BadLengths = BadLengths { key_len: 33, tag_len: 16 };
    static NO_TAG: BadLengths = BadLengths { key_len: 16, tag_len: 0 };
    static LONG_TAG: BadLengths = BadLengths { key_len: 16, tag_len: 17 };
    static GCM: CountingGcm = CountingGcm::new(false);
    let bad = Err(Error::ApiMisuse(ApiMisuse::BadConfig));
    for aead in [&NO_KEY, &LONG_KEY, &NO_TAG, &LONG_TAG] {
        let key = [0u8; 40];
        let r = RecordProtection::from_key(AeadAlg::Custom(aead), &key[..aead.key_len], &[0; 12]);
        assert_eq!(r.map(|_| ()), bad, "{aead:?}");
    }
    // A key of the wrong length for a well-formed custom AEAD.
    let r = RecordProtection::from_key(AeadAlg::Custom(&GCM), &[0; 32], &[0; 12]);
    assert_eq!(r.map(|_| ()), bad);
}

#[test]
fn custom_key_exchange_replaces_core_ec() {
    static KX: CountingX25519 = CountingX25519::new(NamedGroup::X25519, false);
    let kx: &[&'static dyn KeyExchange] = &[&KX];
    let (mut cb, mut sb) = (Bufs::new(), Bufs::new());
    let config = ClientConfig {
        groups: &[NamedGroup::X25519],
        key_exchanges: kx,
        ..ClientConfig::new(roots(), &tls::SystemClock)
    };
    let mut c = Connection::client(config, "localhost", cb.get(), &mut OsRandom).unwrap();
    let config = ServerConfig::new(certs(default_key()));
    let mut s = Connection::server(config, sb.get(), &mut OsRandom).unwrap();
    run(&mut c, &mut s).unwrap();
    assert_eq!(c.negotiated().unwrap().group, NamedGroup::X25519);
    assert_eq!(KX.generated.load(Ordering::Relaxed), 1);
    assert_eq!(KX.publics.load(Ordering::Relaxed), 1);
    assert_eq!(KX.agreed.load(Ordering::Relaxed), 1);
}

/// A client that offers TLS 1.2 only sends no key share, so it makes no key until the
/// ServerKeyExchange names the group (one keygen in all, not two).
#[cfg(feature = "tls12")]
#[test]
fn a_tls12_only_client_makes_its_key_at_the_server_key_exchange() {
    static KX: CountingX25519 = CountingX25519::new(NamedGroup::X25519, false);
    let kx: &[&'static dyn KeyExchange] = &[&KX];
    let (mut cb, mut sb) = (Bufs::new(), Bufs::new());
    let config = ClientConfig {
        versions: &[tls::msgs::ProtocolVersion::TLSV1_2],
        groups: &[NamedGroup::X25519],
        key_exchanges: kx,
        ..ClientConfig::new(roots(), &tls::SystemClock)
    };
    let mut c = Connection::client(config, "localhost", cb.get(), &mut OsRandom).unwrap();
    assert_eq!(KX.generated.load(Ordering::Relaxed), 0, "a key before the ServerKeyExchange");
    assert_eq!(KX.publics.load(Ordering::Relaxed), 0);
    let config = ServerConfig::new(certs(default_key()));
    let mut s = Connection::server(config, sb.get(), &mut OsRandom).unwrap();
    run(&mut c, &mut s).unwrap();
    assert_eq!(c.negotiated().unwrap().version, tls::msgs::ProtocolVersion::TLSV1_2);
    assert_eq!(KX.generated.load(Ordering::Relaxed), 1);
    assert_eq!(KX.agreed.load(Ordering::Relaxed), 1);
}

/// The client's shares in its ClientHello as (group, key), and its session id, consuming it.
#[cfg(feature = "aes-gcm")]
fn take_shares(c: &mut Connection<'_, '_>) -> (Vec<u8>, Vec<(NamedGroup, Vec<u8>)>) {
    let rec = c.pending_send().to_vec();
    c.sent(rec.len());
    // Skip a change_cipher_spec record (middlebox compatibility) before the hello.
    let rec = if rec[0] == 20 { &rec[6..] } else { &rec[..] };
    let HandshakeMessage::ClientHello(ch) = HandshakeMessage::decode(&rec[5..]).unwrap() else {
        panic!("not a ClientHello");
    };
    let shares = ch.extensions.key_shares.unwrap().iter().map(|s| (s.group, s.key.to_vec()));
    (ch.session_id.to_vec(), shares.collect())
}

// The hand-made HelloRetryRequest names TLS_AES_128_GCM_SHA256.
#[cfg(feature = "aes-gcm")]
#[test]
fn a_cookie_only_retry_sends_a_custom_groups_share_again() {
    // The connection keeps the private key only: the second ClientHello's share is the
    // implementation's public value again, the first's byte for byte (RFC 8446 §4.1.2).
    static KX: CountingX25519 = CountingX25519::new(NamedGroup::X25519, false);
    let kx: &[&'static dyn KeyExchange] = &[&KX];
    let mut cb = Bufs::new();
    let config = ClientConfig {
        groups: &[NamedGroup::X25519],
        key_exchanges: kx,
        ..ClientConfig::new(roots(), &tls::SystemClock)
    };
    let mut c = Connection::client(config, "localhost", cb.get(), &mut OsRandom).unwrap();
    let (sid, first) = take_shares(&mut c);
    pair::feed(&mut c, &pair::hrr_record(&sid, None, Some(b"cookie"))).unwrap();
    let (_, second) = take_shares(&mut c);
    assert_eq!(first.len(), 1);
    assert_eq!(first[0].1.len(), 32);
    assert_eq!(first, second);
    assert_eq!(KX.generated.load(Ordering::Relaxed), 1);
    assert_eq!(KX.publics.load(Ordering::Relaxed), 2);
}

#[test]
fn custom_key_exchange_adds_a_group() {
    // A private-use code point (RFC 8446 §4.2.7: 0xFE00..0xFEFF) that core-ec has no
    // implementation of: both sides compute it through the user's implementation.
    const PRIVATE: NamedGroup = NamedGroup(0xfe01);
    static KX: CountingX25519 = CountingX25519::new(PRIVATE, false);
    let kx: &[&'static dyn KeyExchange] = &[&KX];
    let groups = &[PRIVATE, NamedGroup::X25519];
    let (mut cb, mut sb) = (Bufs::new(), Bufs::new());
    let config =
        ClientConfig { groups, key_exchanges: kx, ..ClientConfig::new(roots(), &tls::SystemClock) };
    let mut c = Connection::client(config, "localhost", cb.get(), &mut OsRandom).unwrap();
    let config =
        ServerConfig { groups, key_exchanges: kx, ..ServerConfig::new(certs(default_key())) };
    let mut s = Connection::server(config, sb.get(), &mut OsRandom).unwrap();
    run(&mut c, &mut s).unwrap();
    assert_eq!(c.negotiated().unwrap().group, PRIVATE);
    assert_eq!(s.negotiated().unwrap().group, PRIVATE);
    assert_eq!(KX.generated.load(Ordering::Relaxed), 2);
    assert_eq!(KX.publics.load(Ordering::Relaxed), 2);
    assert_eq!(KX.agreed.load(Ordering::Relaxed), 2);

    // Without an implementation the group cannot be offered first.
    let mut cb = Bufs::new();
    let config = ClientConfig { groups, ..ClientConfig::new(roots(), &tls::SystemClock) };
    let r = Connection::client(config, "localhost", cb.get(), &mut OsRandom);
    assert_eq!(r.err(), Some(Error::ApiMisuse(ApiMisuse::BadConfig)));
}

#[test]
fn a_kem_shaped_key_exchange_encapsulates_on_the_server() {
    // The client makes a key pair and decapsulates; the server only encapsulates, in one
    // call, and makes no key pair of its own.
    static KEM: KemX25519 = KemX25519::new();
    let kx: &[&'static dyn KeyExchange] = &[&KEM];
    let groups = &[NamedGroup::X25519];
    let (mut cb, mut sb) = (Bufs::new(), Bufs::new());
    let config =
        ClientConfig { groups, key_exchanges: kx, ..ClientConfig::new(roots(), &tls::SystemClock) };
    let mut c = Connection::client(config, "localhost", cb.get(), &mut OsRandom).unwrap();
    let config =
        ServerConfig { groups, key_exchanges: kx, ..ServerConfig::new(certs(default_key())) };
    let mut s = Connection::server(config, sb.get(), &mut OsRandom).unwrap();
    run(&mut c, &mut s).unwrap();
    assert_eq!(s.negotiated().unwrap().group, NamedGroup::X25519);
    assert_eq!(KEM.keygens.load(Ordering::Relaxed), 1);
    assert_eq!(KEM.encapsulations.load(Ordering::Relaxed), 1);
    assert_eq!(KEM.decapsulations.load(Ordering::Relaxed), 1);
}

#[test]
fn invalid_share_from_a_custom_key_exchange_is_refused() {
    static ZERO: CountingX25519 = CountingX25519::new(NamedGroup::X25519, true);
    let kx: &[&'static dyn KeyExchange] = &[&ZERO];
    let (mut cb, mut sb) = (Bufs::new(), Bufs::new());
    let config = ClientConfig {
        key_exchanges: kx,
        groups: &[NamedGroup::X25519],
        ..ClientConfig::new(roots(), &tls::SystemClock)
    };
    let mut c = Connection::client(config, "localhost", cb.get(), &mut OsRandom).unwrap();
    let mut s =
        Connection::server(ServerConfig::new(certs(default_key())), sb.get(), &mut OsRandom)
            .unwrap();
    // The default server refuses the all-zero X25519 share.
    let err = run(&mut c, &mut s).unwrap_err();
    assert_eq!(err, ("server", Error::PeerMisbehaved(PeerMisbehaved::InvalidKeyShare)));
}

#[test]
fn custom_signer_interoperates_and_a_bad_one_is_caught() {
    for corrupt in [false, true] {
        let signer = counting_signer(corrupt);
        let (mut cb, mut sb) = (Bufs::new(), Bufs::new());
        let config = ClientConfig::new(roots(), &tls::SystemClock);
        let mut c = Connection::client(config, "localhost", cb.get(), &mut OsRandom).unwrap();
        let config = ServerConfig::new(certs(signer));
        let mut s = Connection::server(config, sb.get(), &mut OsRandom).unwrap();
        let r = run(&mut c, &mut s);
        assert_eq!(signer.signed.load(Ordering::Relaxed), 1);
        if corrupt {
            let (side, err) = r.unwrap_err();
            assert_eq!(side, "client");
            assert_eq!(err, Error::PeerMisbehaved(PeerMisbehaved::BadSignature));
        } else {
            r.unwrap();
            assert_eq!(c.negotiated().unwrap().scheme, SignatureScheme::ED25519);
        }
    }
}
