//! The registry of operations: for each op id (`sha256`, later `sha3-256`, `hmac-sha256`,
//! `aes-128-gcm-seal`…), how Halite computes it — its default choice and every implementation
//! this CPU can run — and how each peer library does.
//!
//! Everything that measures (the `speed` tool, the criterion benches, the agreement test) reads
//! this one table, so a new primitive is one entry here. Each library's API is wrapped into a
//! [`Runner`]: one call computes the operation on one message and appends the result to a
//! reused buffer, so no allocation is timed. Keys are fixed and set up outside the timing.

use crate::libs::Library;

/// One library's way of computing an operation: takes the message, appends the output (digest,
/// tag, ciphertext…) to the buffer, which the caller clears between calls.
pub type Runner = Box<dyn FnMut(&[u8], &mut Vec<u8>)>;

/// What an operation's rate counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Bulk operations: throughput in MB/s (10^6 bytes), and cycles per byte.
    Bytes,
    /// Public-key operations: operations per second, and cycles per operation.
    Ops,
}

impl Unit {
    /// The label in the CSV `unit` column and in table headers.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Unit::Bytes => "MB/s",
            Unit::Ops => "ops/s",
        }
    }
}

/// Halite's side of an operation.
pub struct Halite {
    /// The name of the implementation the default constructor picks on this CPU.
    pub default_impl: String,
    /// The default path, as a user writes it (`Sha256::digest`): best implementation for the
    /// CPU, chosen at construction.
    pub default: Runner,
    /// Every implementation this CPU can run, by name (`portable`, `x86_shani`…), fastest first.
    pub impls: Vec<(String, Runner)>,
}

impl Halite {
    /// The length of the default path's output for an empty message.
    #[must_use]
    pub fn default_len(mut self) -> usize {
        let mut out = Vec::new();
        (self.default)(&[], &mut out);
        out.len()
    }
}

/// A peer library's side of an operation.
pub struct Peer {
    /// Which library.
    pub library: Library,
    /// Builds the runner (keys and contexts are set up here, outside the timing).
    pub make: fn() -> Runner,
}

/// How `openssl` computes an operation, when it can.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpensslSpec {
    /// The algorithm arguments of `openssl speed` (after `-seconds S -bytes N`), e.g.
    /// `["-evp", "sha256"]`.
    pub speed: Vec<String>,
    /// An `openssl` command that reads a message on stdin and writes the raw output on stdout
    /// (`dgst -binary -sha256`), so its answer is checked like every other library's; `None`
    /// where the command line offers none (AEADs: `openssl enc` refuses them), in which case
    /// `speed` says the OpenSSL column is unchecked.
    pub check: Option<Vec<String>>,
}

/// One operation, as every library computes it.
pub struct Op {
    /// The op id: `speed --only`, the CSV `op` column, criterion's function name.
    pub id: &'static str,
    /// The criterion group it belongs to (`hash`, `aead`, `ec`, `rsa`, `tls`).
    pub group: &'static str,
    /// A human description for `speed --help`.
    pub what: &'static str,
    /// What a rate counts.
    pub unit: Unit,
    /// Halite's default and every implementation.
    pub halite: fn() -> Halite,
    /// The peers that implement this operation.
    pub peers: Vec<Peer>,
    /// `openssl speed`'s way of running it, if OpenSSL has one.
    pub openssl: Option<OpensslSpec>,
}

impl Op {
    /// The peer entry for `library`, if that library implements this operation.
    #[must_use]
    pub fn peer(&self, library: Library) -> Option<&Peer> {
        self.peers.iter().find(|p| p.library == library)
    }
}

/// A peer entry, for the table below: an `Option` so that the `graviola!` entries, absent on
/// some targets, sit in the same list.
#[allow(clippy::unnecessary_wraps)]
fn peer(library: Library, make: fn() -> Runner) -> Option<Peer> {
    Some(Peer { library, make })
}

/// A graviola peer entry: graviola exists only on `x86_64` and `aarch64`, so elsewhere the entry
/// is left out at compile time.
macro_rules! graviola {
    ($make:expr) => {{
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        let entry = peer(Library::Graviola, $make);
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        let entry = None;
        entry
    }};
}

/// A hash operation: message in, digest out; OpenSSL runs it as `openssl speed -evp NAME`.
fn hash_op(
    id: &'static str,
    what: &'static str,
    halite: fn() -> Halite,
    openssl_name: &str,
    peers: Vec<Option<Peer>>,
) -> Op {
    Op {
        id,
        group: "hash",
        what,
        unit: Unit::Bytes,
        halite,
        peers: peers.into_iter().flatten().collect(),
        openssl: Some(OpensslSpec {
            speed: vec!["-evp".into(), openssl_name.into()],
            check: Some(vec!["dgst".into(), "-binary".into(), format!("-{openssl_name}")]),
        }),
    }
}

/// An HMAC operation under [`KEY`]: message in, tag out, the key schedule done once outside
/// the timing (every library keeps a keyed state and copies it per message); OpenSSL runs it
/// as `openssl speed -hmac NAME`.
fn hmac_op(
    id: &'static str,
    what: &'static str,
    halite: fn() -> Halite,
    openssl_name: &str,
    peers: Vec<Option<Peer>>,
) -> Op {
    Op {
        id,
        group: "hash",
        what,
        unit: Unit::Bytes,
        halite,
        peers: peers.into_iter().flatten().collect(),
        openssl: Some(openssl_hmac(openssl_name)),
    }
}

/// A SHAKE operation: message in, a fixed length of output. OpenSSL's check asks for the same
/// length (`-xoflen`); `openssl speed` squeezes its default length, which costs the same single
/// permutation as long as the output fits in one rate block, as it does here.
fn shake_op(
    id: &'static str,
    what: &'static str,
    halite: fn() -> Halite,
    peers: Vec<Option<Peer>>,
) -> Op {
    let out_len = (halite)().default_len();
    Op {
        id,
        group: "hash",
        what,
        unit: Unit::Bytes,
        halite,
        peers: peers.into_iter().flatten().collect(),
        openssl: Some(OpensslSpec {
            speed: vec!["-evp".into(), id.into()],
            check: Some(vec![
                "dgst".into(),
                "-binary".into(),
                format!("-{id}"),
                format!("-xoflen={out_len}"),
            ]),
        }),
    }
}

/// An HKDF operation, counted in operations: HKDF-Extract with [`KEY`] as salt and the
/// message as IKM, then HKDF-Expand of one hash length with [`HKDF_INFO`] — the shape of each
/// step of the TLS 1.3 key schedule. `openssl speed` has no HKDF.
fn hkdf_op(
    id: &'static str,
    what: &'static str,
    halite: fn() -> Halite,
    peers: Vec<Option<Peer>>,
) -> Op {
    Op {
        id,
        group: "hash",
        what,
        unit: Unit::Ops,
        halite,
        peers: peers.into_iter().flatten().collect(),
        openssl: None,
    }
}

/// RustCrypto's `Hkdf<D>` (see `hkdf_op`) as a runner factory; the output length is the
/// hash length. A macro, because `Hkdf<D>`'s bounds on `D` are too many to spell generically.
macro_rules! rustcrypto_hkdf {
    ($digest:ty) => {
        || -> Runner {
            Box::new(|ikm, out| {
                use sha2::Digest as _;
                let hk = hkdf::Hkdf::<$digest>::new(Some(&KEY), ikm);
                let start = out.len();
                out.resize(start + <$digest>::output_size(), 0);
                hk.expand(HKDF_INFO, &mut out[start..])
                    .expect("one hash length is a valid HKDF output");
            })
        }
    };
}

/// An AEAD operation under [`KEY`], [`NONCE`] (or [`NONCE_24`]) and the 13-byte [`AAD`] (the TLS
/// 1.2 record header, as `openssl speed -aead` uses). A seal copies the message into the output
/// and seals it there (output: ciphertext then tag); an open copies a ciphertext and tag made
/// once per message length into the output and opens it there (output: the message again).
/// Every library pays the same copy. OpenSSL runs seals as `openssl speed -aead -evp NAME`;
/// opens have no OpenSSL column, as its `-decrypt` AEAD figures for GCM on this machine are an
/// order of magnitude below its encryption ones, which points at per-call set-up rather than
/// decryption.
fn aead_op(
    id: &'static str,
    what: &'static str,
    halite: fn() -> Halite,
    openssl_name: Option<&str>,
    peers: Vec<Option<Peer>>,
) -> Op {
    Op {
        id,
        group: "aead",
        what,
        unit: Unit::Bytes,
        halite,
        peers: peers.into_iter().flatten().collect(),
        openssl: openssl_name.map(|name| OpensslSpec {
            speed: vec!["-aead".into(), "-evp".into(), name.into()],
            check: None,
        }),
    }
}

/// Every operation, in table order.
#[must_use]
pub fn registry() -> Vec<Op> {
    use Library::{AwsLcRs, Ring, RustCrypto};
    vec![
        hash_op(
            "sha256",
            "SHA-256 digest",
            halite_hash::<core_hash::Sha256>,
            "sha256",
            vec![
                peer(Ring, || ring_digest(&ring::digest::SHA256)),
                peer(AwsLcRs, || aws_digest(&aws_lc_rs::digest::SHA256)),
                graviola!(graviola_hash::<graviola::hashing::Sha256>),
                peer(RustCrypto, rustcrypto_digest::<sha2::Sha256>),
            ],
        ),
        hash_op(
            "sha224",
            "SHA-224 digest",
            halite_hash::<core_hash::Sha224>,
            "sha224",
            vec![
                peer(AwsLcRs, || aws_digest(&aws_lc_rs::digest::SHA224)),
                peer(RustCrypto, rustcrypto_digest::<sha2::Sha224>),
            ],
        ),
        hash_op(
            "sha384",
            "SHA-384 digest",
            halite_hash::<core_hash::Sha384>,
            "sha384",
            vec![
                peer(Ring, || ring_digest(&ring::digest::SHA384)),
                peer(AwsLcRs, || aws_digest(&aws_lc_rs::digest::SHA384)),
                graviola!(graviola_hash::<graviola::hashing::Sha384>),
                peer(RustCrypto, rustcrypto_digest::<sha2::Sha384>),
            ],
        ),
        hash_op(
            "sha512",
            "SHA-512 digest",
            halite_hash::<core_hash::Sha512>,
            "sha512",
            vec![
                peer(Ring, || ring_digest(&ring::digest::SHA512)),
                peer(AwsLcRs, || aws_digest(&aws_lc_rs::digest::SHA512)),
                graviola!(graviola_hash::<graviola::hashing::Sha512>),
                peer(RustCrypto, rustcrypto_digest::<sha2::Sha512>),
            ],
        ),
        hash_op(
            "sha512-256",
            "SHA-512/256 digest",
            halite_hash::<core_hash::Sha512_256>,
            "sha512-256",
            vec![
                peer(Ring, || ring_digest(&ring::digest::SHA512_256)),
                peer(AwsLcRs, || aws_digest(&aws_lc_rs::digest::SHA512_256)),
                peer(RustCrypto, rustcrypto_digest::<sha2::Sha512_256>),
            ],
        ),
        hash_op(
            "sha1",
            "SHA-1 digest (legacy)",
            halite_hash::<core_hash::Sha1>,
            "sha1",
            vec![
                peer(Ring, || ring_digest(&ring::digest::SHA1_FOR_LEGACY_USE_ONLY)),
                peer(AwsLcRs, || aws_digest(&aws_lc_rs::digest::SHA1_FOR_LEGACY_USE_ONLY)),
                peer(RustCrypto, rustcrypto_digest::<sha1::Sha1>),
            ],
        ),
        hash_op(
            "sha3-224",
            "SHA3-224 digest",
            halite_hash::<core_hash::Sha3_224>,
            "sha3-224",
            vec![peer(RustCrypto, rustcrypto_digest::<sha3::Sha3_224>)],
        ),
        hash_op(
            "sha3-256",
            "SHA3-256 digest",
            halite_hash::<core_hash::Sha3_256>,
            "sha3-256",
            vec![
                peer(AwsLcRs, || aws_digest(&aws_lc_rs::digest::SHA3_256)),
                peer(RustCrypto, rustcrypto_digest::<sha3::Sha3_256>),
            ],
        ),
        hash_op(
            "sha3-384",
            "SHA3-384 digest",
            halite_hash::<core_hash::Sha3_384>,
            "sha3-384",
            vec![
                peer(AwsLcRs, || aws_digest(&aws_lc_rs::digest::SHA3_384)),
                peer(RustCrypto, rustcrypto_digest::<sha3::Sha3_384>),
            ],
        ),
        hash_op(
            "sha3-512",
            "SHA3-512 digest",
            halite_hash::<core_hash::Sha3_512>,
            "sha3-512",
            vec![
                peer(AwsLcRs, || aws_digest(&aws_lc_rs::digest::SHA3_512)),
                peer(RustCrypto, rustcrypto_digest::<sha3::Sha3_512>),
            ],
        ),
        shake_op(
            "shake128",
            "SHAKE128, 32 bytes of output",
            halite_shake::<core_hash::Shake128, 32>,
            vec![peer(RustCrypto, rustcrypto_xof::<sha3::Shake128, 32>)],
        ),
        shake_op(
            "shake256",
            "SHAKE256, 64 bytes of output",
            halite_shake::<core_hash::Shake256, 64>,
            vec![peer(RustCrypto, rustcrypto_xof::<sha3::Shake256, 64>)],
        ),
        hmac_op(
            "hmac-sha256",
            "HMAC-SHA-256 tag, 32-byte key",
            halite_hmac::<core_hash::Sha256>,
            "sha256",
            vec![
                peer(Ring, || ring_hmac(ring::hmac::HMAC_SHA256)),
                peer(AwsLcRs, || aws_hmac(aws_lc_rs::hmac::HMAC_SHA256)),
                graviola!(graviola_hmac::<graviola::hashing::Sha256>),
                peer(RustCrypto, rustcrypto_mac::<hmac::Hmac<sha2::Sha256>>),
            ],
        ),
        hmac_op(
            "hmac-sha384",
            "HMAC-SHA-384 tag, 32-byte key",
            halite_hmac::<core_hash::Sha384>,
            "sha384",
            vec![
                peer(Ring, || ring_hmac(ring::hmac::HMAC_SHA384)),
                peer(AwsLcRs, || aws_hmac(aws_lc_rs::hmac::HMAC_SHA384)),
                graviola!(graviola_hmac::<graviola::hashing::Sha384>),
                peer(RustCrypto, rustcrypto_mac::<hmac::Hmac<sha2::Sha384>>),
            ],
        ),
        hmac_op(
            "hmac-sha512",
            "HMAC-SHA-512 tag, 32-byte key",
            halite_hmac::<core_hash::Sha512>,
            "sha512",
            vec![
                peer(Ring, || ring_hmac(ring::hmac::HMAC_SHA512)),
                peer(AwsLcRs, || aws_hmac(aws_lc_rs::hmac::HMAC_SHA512)),
                graviola!(graviola_hmac::<graviola::hashing::Sha512>),
                peer(RustCrypto, rustcrypto_mac::<hmac::Hmac<sha2::Sha512>>),
            ],
        ),
        hkdf_op(
            "hkdf-sha256",
            "HKDF-SHA-256 extract + expand of 32 bytes",
            halite_hkdf::<core_hash::Sha256>,
            vec![
                peer(Ring, || ring_hkdf(ring::hkdf::HKDF_SHA256)),
                peer(AwsLcRs, || aws_hkdf(aws_lc_rs::hkdf::HKDF_SHA256)),
                peer(RustCrypto, rustcrypto_hkdf!(sha2::Sha256)),
            ],
        ),
        hkdf_op(
            "hkdf-sha384",
            "HKDF-SHA-384 extract + expand of 48 bytes",
            halite_hkdf::<core_hash::Sha384>,
            vec![
                peer(Ring, || ring_hkdf(ring::hkdf::HKDF_SHA384)),
                peer(AwsLcRs, || aws_hkdf(aws_lc_rs::hkdf::HKDF_SHA384)),
                peer(RustCrypto, rustcrypto_hkdf!(sha2::Sha384)),
            ],
        ),
        aead_op(
            "aes-128-gcm-seal",
            "AES-128-GCM seal, 13-byte AAD",
            halite_aes_gcm::<16, SEAL>,
            Some("aes-128-gcm"),
            vec![
                peer(Ring, || ring_aead(&ring::aead::AES_128_GCM, SEAL)),
                peer(AwsLcRs, || aws_aead(&aws_lc_rs::aead::AES_128_GCM, SEAL)),
                graviola!(graviola_aes_gcm::<16, SEAL>),
                peer(RustCrypto, rustcrypto_aead::<aes_gcm::Aes128Gcm, SEAL>),
            ],
        ),
        aead_op(
            "aes-128-gcm-open",
            "AES-128-GCM open, 13-byte AAD",
            halite_aes_gcm::<16, OPEN>,
            None,
            vec![
                peer(Ring, || ring_aead(&ring::aead::AES_128_GCM, OPEN)),
                peer(AwsLcRs, || aws_aead(&aws_lc_rs::aead::AES_128_GCM, OPEN)),
                graviola!(graviola_aes_gcm::<16, OPEN>),
                peer(RustCrypto, rustcrypto_aead::<aes_gcm::Aes128Gcm, OPEN>),
            ],
        ),
        aead_op(
            "aes-256-gcm-seal",
            "AES-256-GCM seal, 13-byte AAD",
            halite_aes_gcm::<32, SEAL>,
            Some("aes-256-gcm"),
            vec![
                peer(Ring, || ring_aead(&ring::aead::AES_256_GCM, SEAL)),
                peer(AwsLcRs, || aws_aead(&aws_lc_rs::aead::AES_256_GCM, SEAL)),
                graviola!(graviola_aes_gcm::<32, SEAL>),
                peer(RustCrypto, rustcrypto_aead::<aes_gcm::Aes256Gcm, SEAL>),
            ],
        ),
        aead_op(
            "aes-128-ccm-seal",
            "AES-128-CCM seal (16-byte tag, 12-byte nonce), 13-byte AAD",
            halite_aes_ccm::<16, SEAL>,
            Some("aes-128-ccm"),
            vec![peer(RustCrypto, rustcrypto_aead::<Aes128Ccm, SEAL>)],
        ),
        aead_op(
            "aes-128-ccm-open",
            "AES-128-CCM open (16-byte tag, 12-byte nonce), 13-byte AAD",
            halite_aes_ccm::<16, OPEN>,
            None,
            vec![peer(RustCrypto, rustcrypto_aead::<Aes128Ccm, OPEN>)],
        ),
        aead_op(
            "chacha20-poly1305-seal",
            "ChaCha20-Poly1305 seal, 13-byte AAD",
            halite_chacha20_poly1305::<SEAL>,
            Some("chacha20-poly1305"),
            vec![
                peer(Ring, || ring_aead(&ring::aead::CHACHA20_POLY1305, SEAL)),
                peer(AwsLcRs, || aws_aead(&aws_lc_rs::aead::CHACHA20_POLY1305, SEAL)),
                graviola!(graviola_chacha20_poly1305::<SEAL>),
                peer(RustCrypto, rustcrypto_aead::<chacha20poly1305::ChaCha20Poly1305, SEAL>),
            ],
        ),
        aead_op(
            "chacha20-poly1305-open",
            "ChaCha20-Poly1305 open, 13-byte AAD",
            halite_chacha20_poly1305::<OPEN>,
            None,
            vec![
                peer(Ring, || ring_aead(&ring::aead::CHACHA20_POLY1305, OPEN)),
                peer(AwsLcRs, || aws_aead(&aws_lc_rs::aead::CHACHA20_POLY1305, OPEN)),
                graviola!(graviola_chacha20_poly1305::<OPEN>),
                peer(RustCrypto, rustcrypto_aead::<chacha20poly1305::ChaCha20Poly1305, OPEN>),
            ],
        ),
        aead_op(
            "xchacha20-poly1305-seal",
            "XChaCha20-Poly1305 seal (24-byte nonce), 13-byte AAD",
            halite_xchacha20_poly1305,
            None,
            vec![peer(RustCrypto, rustcrypto_aead::<chacha20poly1305::XChaCha20Poly1305, SEAL>)],
        ),
    ]
}

/// The op ids, in table order.
#[must_use]
pub fn op_ids() -> Vec<&'static str> {
    registry().iter().map(|op| op.id).collect()
}

// ---- Halite ----------------------------------------------------------------------------

/// Halite's side of any [`core_hash::Hash`]: the default constructor and every implementation.
#[must_use]
pub fn halite_hash<H: core_hash::Hash + 'static>() -> Halite {
    use core_hash::Implementation as _;
    let impls = H::implementations()
        .map(|imp| {
            let run: Runner = Box::new(move |m: &[u8], out: &mut Vec<u8>| {
                let mut h = H::with_impl(imp);
                h.update(m);
                out.extend_from_slice(h.finalize().as_ref());
            });
            (imp.name().to_owned(), run)
        })
        .collect();
    Halite {
        default_impl: <H::Impl as core_hash::Implementation>::best().name().to_owned(),
        default: Box::new(|m, out| out.extend_from_slice(H::digest(m).as_ref())),
        impls,
    }
}

/// Halite's HMAC over any [`core_hash::Hash`] under [`KEY`]: keyed once per implementation,
/// the keyed state copied for each message.
#[must_use]
pub fn halite_hmac<H: core_hash::Hash + 'static>() -> Halite {
    use core_hash::{Hmac, Implementation as _};
    let keyed = |mac: Hmac<H>| -> Runner {
        Box::new(move |m: &[u8], out: &mut Vec<u8>| {
            let mut mac = mac.clone();
            mac.update(m);
            out.extend_from_slice(mac.finalize().as_ref());
        })
    };
    Halite {
        default_impl: <H::Impl as core_hash::Implementation>::best().name().to_owned(),
        default: keyed(Hmac::<H>::new(&KEY)),
        impls: H::implementations()
            .map(|imp| (imp.name().to_owned(), keyed(Hmac::with_impl(imp, &KEY))))
            .collect(),
    }
}

/// Halite's HKDF over any [`core_hash::Hash`] (see `hkdf_op`). HKDF runs on the hash's best
/// implementation, so that is its only entry.
#[must_use]
pub fn halite_hkdf<H: core_hash::Hash + 'static>() -> Halite {
    use core_hash::Implementation as _;
    // The salt is keyed once, as ring's `Salt` and aws-lc-rs's are.
    let run = || -> Runner {
        let salt = core_hash::HkdfSalt::<H>::new(&KEY);
        Box::new(move |ikm: &[u8], out: &mut Vec<u8>| {
            let prk = salt.extract(ikm);
            let mut okm = [0u8; core_hash::MAX_OUTPUT_LEN];
            let okm = &mut okm[..H::OUTPUT_LEN];
            prk.expand(HKDF_INFO, okm).expect("one hash length is a valid HKDF output");
            out.extend_from_slice(okm);
        })
    };
    let best = <H::Impl as core_hash::Implementation>::best().name().to_owned();
    Halite { default_impl: best.clone(), default: run(), impls: vec![(best, run())] }
}

/// Direction of an AEAD op, as a const parameter of the runner factories: [`SEAL`] or [`OPEN`].
pub type Direction = bool;
/// Seal (encrypt and tag).
pub const SEAL: Direction = false;
/// Open (verify and decrypt).
pub const OPEN: Direction = true;

/// Wraps a seal into an open (see `aead_op`): each new message length is sealed once with
/// `seal` (the first call for a length, a warm-up, pays it), then every call copies
/// ciphertext‖tag into the output and opens it there with `open`, which returns the plaintext
/// length. One cached length, not a map, so a lookup costs nothing at 64 bytes.
fn open_runner(mut seal: Runner, mut open: impl FnMut(&mut [u8]) -> usize + 'static) -> Runner {
    let mut sealed: Option<(usize, Vec<u8>)> = None;
    Box::new(move |m, out| {
        let ct = match &mut sealed {
            Some((len, ct)) if *len == m.len() => ct,
            slot => {
                let mut ct = Vec::new();
                seal(m, &mut ct);
                &mut slot.insert((m.len(), ct)).1
            }
        };
        let start = out.len();
        out.extend_from_slice(ct);
        let len = open(&mut out[start..]);
        out.truncate(start + len);
    })
}

/// Halite's AEAD `dir` (see `aead_op`) on keys from `make`, under `nonce`.
fn halite_aead<A: core_aead::Aead + 'static>(
    make: impl Fn() -> A,
    nonce: &'static [u8],
    dir: Direction,
) -> Runner {
    let key = make();
    let seal: Runner = Box::new(move |m: &[u8], out: &mut Vec<u8>| {
        let start = out.len();
        out.extend_from_slice(m);
        let tag = key
            .seal_in_place_detached(nonce, &AAD, &mut out[start..])
            .expect("benchmark messages are within the AEAD's limits");
        out.extend_from_slice(tag.as_ref());
    });
    if dir == SEAL {
        return seal;
    }
    let key = make();
    open_runner(seal, move |buf| {
        let (ct, tag) = buf.split_at_mut(buf.len() - A::TAG_LEN);
        key.open_in_place_detached(nonce, &AAD, ct, tag).expect("our own ciphertext opens");
        ct.len()
    })
}

/// Halite's side of an AEAD op: the default key from `new`, then each implementation in
/// `impls` by name.
fn halite_aead_impls<A: core_aead::Aead + 'static, I: Copy + 'static>(
    new: fn() -> A,
    default_impl: String,
    impls: impl Iterator<Item = (String, I)>,
    with: fn(I) -> A,
    nonce: &'static [u8],
    dir: Direction,
) -> Halite {
    Halite {
        default_impl,
        default: halite_aead(new, nonce, dir),
        impls: impls
            .map(|(name, imp)| (name, halite_aead(move || with(imp), nonce, dir)))
            .collect(),
    }
}

/// Halite's AES-GCM with a `K`-byte key (the first `K` bytes of [`KEY`]): the default key, then
/// each registered implementation (the stitched loop, each AES implementation with its GHASH).
#[must_use]
pub fn halite_aes_gcm<const K: usize, const DIR: Direction>() -> Halite {
    use core_aead::{Aead as _, AesGcm, GcmImpl, Implementation as _};
    let new = || AesGcm::<K>::new(&KEY[..K]).expect("an AES key length");
    halite_aead_impls(
        new,
        new().implementation().name().to_owned(),
        GcmImpl::available().map(|imp| (imp.name().to_owned(), imp)),
        |imp| AesGcm::<K>::with_impl(imp, &KEY[..K]).expect("an AES key length"),
        &NONCE,
        DIR,
    )
}

/// Halite's AES-CCM with a `K`-byte key, 16-byte tags and 12-byte nonces (TLS's
/// `TLS_AES_128_CCM_SHA256`), on each AES implementation.
#[must_use]
pub fn halite_aes_ccm<const K: usize, const DIR: Direction>() -> Halite {
    use core_aead::{Aead as _, AesCcm, AesImpl, Implementation as _};
    let new = || AesCcm::<K, 16>::new(&KEY[..K]).expect("an AES key length");
    halite_aead_impls(
        new,
        AesImpl::best().name().to_owned(),
        AesImpl::available().map(|imp| (imp.name().to_owned(), imp)),
        |imp| AesCcm::<K, 16>::with_impl(imp, &KEY[..K]).expect("an AES key length"),
        &NONCE,
        DIR,
    )
}

/// A ChaCha20 and a Poly1305 implementation, run together.
type ChaChaPair = (core_aead::ChaCha20Impl, core_aead::Poly1305Impl);

/// The ChaCha20 × Poly1305 pairings worth measuring: each ChaCha20 implementation with the
/// default Poly1305 and each Poly1305 implementation with the default ChaCha20 (named
/// `chacha20+poly1305`), rather than every pair; the default pair's name first.
fn chacha_pairs() -> (String, Vec<(String, ChaChaPair)>) {
    use core_aead::{Aead as _, ChaCha20Impl, ChaCha20Poly1305, Implementation as _, Poly1305Impl};
    let (chacha, poly) = ChaCha20Poly1305::new(&KEY).expect("a 32-byte key").implementations();
    let name = |c: ChaCha20Impl, p: Poly1305Impl| format!("{}+{}", c.name(), p.name());
    let mut pairs: Vec<_> = ChaCha20Impl::available().map(|c| (c, poly)).collect();
    pairs.extend(Poly1305Impl::available().filter(|&p| p != poly).map(|p| (chacha, p)));
    (name(chacha, poly), pairs.into_iter().map(|(c, p)| (name(c, p), (c, p))).collect())
}

/// Halite's ChaCha20-Poly1305: the default key, then the pairings of [`chacha_pairs`].
#[must_use]
pub fn halite_chacha20_poly1305<const DIR: Direction>() -> Halite {
    use core_aead::{Aead as _, ChaCha20Poly1305};
    let (default_impl, pairs) = chacha_pairs();
    halite_aead_impls(
        || ChaCha20Poly1305::new(&KEY).expect("a 32-byte key"),
        default_impl,
        pairs.into_iter(),
        |(c, p)| ChaCha20Poly1305::with_impls(&KEY, c, p).expect("a 32-byte key"),
        &NONCE,
        DIR,
    )
}

/// Halite's XChaCha20-Poly1305 seal under [`NONCE_24`]: the default key, then the pairings of
/// [`chacha_pairs`].
#[must_use]
pub fn halite_xchacha20_poly1305() -> Halite {
    use core_aead::{Aead as _, XChaCha20Poly1305};
    let (default_impl, pairs) = chacha_pairs();
    halite_aead_impls(
        || XChaCha20Poly1305::new(&KEY).expect("a 32-byte key"),
        default_impl,
        pairs.into_iter(),
        |(c, p)| XChaCha20Poly1305::with_impls(&KEY, c, p).expect("a 32-byte key"),
        &NONCE_24,
        SEAL,
    )
}

/// The SHAKE functions, which share no trait in core-hash: enough to run them generically.
pub trait Shake: 'static {
    /// A fresh instance on `imp`.
    fn with_impl(imp: core_hash::KeccakImpl) -> Self;
    /// Absorbs `data`.
    fn absorb(&mut self, data: &[u8]);
    /// Squeezes `out.len()` bytes.
    fn squeeze(self, out: &mut [u8]);
    /// `out.len()` bytes of output for `data`, on the default implementation.
    fn digest_into(data: &[u8], out: &mut [u8]);
}

macro_rules! shake {
    ($($t:ty),*) => {$(
        impl Shake for $t {
            fn with_impl(imp: core_hash::KeccakImpl) -> Self {
                <$t>::with_impl(imp)
            }
            fn absorb(&mut self, data: &[u8]) {
                self.update(data);
            }
            fn squeeze(self, out: &mut [u8]) {
                self.finalize_xof().read(out);
            }
            fn digest_into(data: &[u8], out: &mut [u8]) {
                <$t>::digest_into(data, out);
            }
        }
    )*};
}
shake!(core_hash::Shake128, core_hash::Shake256);

/// Halite's SHAKE with `N` bytes of output: the one-shot default and every Keccak
/// implementation.
#[must_use]
pub fn halite_shake<S: Shake, const N: usize>() -> Halite {
    use core_hash::{Implementation as _, KeccakImpl};
    Halite {
        default_impl: KeccakImpl::best().name().to_owned(),
        default: Box::new(|m, out| {
            let mut buf = [0u8; N];
            S::digest_into(m, &mut buf);
            out.extend_from_slice(&buf);
        }),
        impls: KeccakImpl::available()
            .map(|imp| {
                let run: Runner = Box::new(move |m: &[u8], out: &mut Vec<u8>| {
                    let mut s = S::with_impl(imp);
                    s.absorb(m);
                    let mut buf = [0u8; N];
                    s.squeeze(&mut buf);
                    out.extend_from_slice(&buf);
                });
                (imp.name().to_owned(), run)
            })
            .collect(),
    }
}

// ---- Peers -----------------------------------------------------------------------------

/// The key every keyed operation (HMAC, AEADs) uses, in every library, so outputs compare.
pub const KEY: [u8; 32] = *b"Halite bench key, 32 bytes long!";

/// ring's one-shot digest.
#[must_use]
pub fn ring_digest(alg: &'static ring::digest::Algorithm) -> Runner {
    Box::new(move |m, out| out.extend_from_slice(ring::digest::digest(alg, m).as_ref()))
}

/// aws-lc-rs's one-shot digest.
#[must_use]
pub fn aws_digest(alg: &'static aws_lc_rs::digest::Algorithm) -> Runner {
    Box::new(move |m, out| out.extend_from_slice(aws_lc_rs::digest::digest(alg, m).as_ref()))
}

/// graviola's one-shot hash.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[must_use]
pub fn graviola_hash<H: graviola::hashing::Hash + 'static>() -> Runner {
    Box::new(|m, out| out.extend_from_slice(H::hash(m).as_ref()))
}

/// A RustCrypto `Digest`'s one-shot digest.
#[must_use]
pub fn rustcrypto_digest<D: sha2::Digest + 'static>() -> Runner {
    Box::new(|m, out| out.extend_from_slice(&D::digest(m)))
}

/// A RustCrypto extendable-output function's one-shot output of `N` bytes.
#[must_use]
pub fn rustcrypto_xof<X, const N: usize>() -> Runner
where
    X: sha3::digest::ExtendableOutput + sha3::digest::Update + Default + 'static,
{
    Box::new(|m, out| {
        let mut buf = [0u8; N];
        X::digest_xof(m, &mut buf);
        out.extend_from_slice(&buf);
    })
}

/// The HKDF-Expand `info` every library uses.
pub const HKDF_INFO: &[u8] = b"tls13 Halite bench";

/// ring's HKDF (see `hkdf_op`); the output length is the hash length.
#[must_use]
pub fn ring_hkdf(alg: ring::hkdf::Algorithm) -> Runner {
    let salt = ring::hkdf::Salt::new(alg, &KEY);
    Box::new(move |ikm, out| {
        let len = alg.hmac_algorithm().digest_algorithm().output_len();
        let start = out.len();
        out.resize(start + len, 0);
        salt.extract(ikm)
            .expand(&[HKDF_INFO], alg)
            .and_then(|okm| okm.fill(&mut out[start..]))
            .expect("one hash length is a valid HKDF output");
    })
}

/// aws-lc-rs's HKDF (see `hkdf_op`); the output length is the hash length.
#[must_use]
pub fn aws_hkdf(alg: aws_lc_rs::hkdf::Algorithm) -> Runner {
    let salt = aws_lc_rs::hkdf::Salt::new(alg, &KEY);
    Box::new(move |ikm, out| {
        let len = alg.hmac_algorithm().digest_algorithm().output_len;
        let start = out.len();
        out.resize(start + len, 0);
        salt.extract(ikm)
            .expand(&[HKDF_INFO], alg)
            .and_then(|okm| okm.fill(&mut out[start..]))
            .expect("one hash length is a valid HKDF output");
    })
}

/// The nonce of every AEAD seal (each library is keyed once and seals with one nonce: fine
/// for a benchmark, never for real traffic).
pub const NONCE: [u8; 12] = *b"bench nonce!";
/// The nonce of XChaCha20-Poly1305 seals: 24 bytes, starting with [`NONCE`].
pub const NONCE_24: [u8; 24] = *b"bench nonce!, extended!!";
/// The associated data of every AEAD seal: 13 bytes, like a TLS 1.2 record's.
pub const AAD: [u8; 13] = *b"record header";

/// ring's AEAD `dir` (see `aead_op`).
#[must_use]
pub fn ring_aead(alg: &'static ring::aead::Algorithm, dir: Direction) -> Runner {
    use ring::aead::{Aad, LessSafeKey, Nonce, UnboundKey};
    let key = || LessSafeKey::new(UnboundKey::new(alg, &KEY[..alg.key_len()]).expect("key length"));
    let sealer = key();
    let seal: Runner = Box::new(move |m, out| {
        let start = out.len();
        out.extend_from_slice(m);
        let nonce = Nonce::assume_unique_for_key(NONCE);
        let tag = sealer
            .seal_in_place_separate_tag(nonce, Aad::from(AAD), &mut out[start..])
            .expect("benchmark messages are within the AEAD's limits");
        out.extend_from_slice(tag.as_ref());
    });
    if dir == SEAL {
        return seal;
    }
    let opener = key();
    open_runner(seal, move |buf| {
        let nonce = Nonce::assume_unique_for_key(NONCE);
        opener.open_in_place(nonce, Aad::from(AAD), buf).expect("our own ciphertext opens").len()
    })
}

/// aws-lc-rs's AEAD `dir` (see `aead_op`).
#[must_use]
pub fn aws_aead(alg: &'static aws_lc_rs::aead::Algorithm, dir: Direction) -> Runner {
    use aws_lc_rs::aead::{Aad, LessSafeKey, Nonce, UnboundKey};
    let key = || LessSafeKey::new(UnboundKey::new(alg, &KEY[..alg.key_len()]).expect("key length"));
    let sealer = key();
    let seal: Runner = Box::new(move |m, out| {
        let start = out.len();
        out.extend_from_slice(m);
        let nonce = Nonce::assume_unique_for_key(NONCE);
        let tag = sealer
            .seal_in_place_separate_tag(nonce, Aad::from(AAD), &mut out[start..])
            .expect("benchmark messages are within the AEAD's limits");
        out.extend_from_slice(tag.as_ref());
    });
    if dir == SEAL {
        return seal;
    }
    let opener = key();
    open_runner(seal, move |buf| {
        let nonce = Nonce::assume_unique_for_key(NONCE);
        opener.open_in_place(nonce, Aad::from(AAD), buf).expect("our own ciphertext opens").len()
    })
}

/// graviola's AEADs share this shape but no trait: `encrypt(nonce, aad, inout, tag)` and
/// `decrypt(nonce, aad, inout, tag) -> Result`.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
macro_rules! graviola_aead {
    ($make:expr, $dir:expr) => {{
        let sealer = $make;
        let seal: Runner = Box::new(move |m, out| {
            let start = out.len();
            out.extend_from_slice(m);
            let mut tag = [0u8; 16];
            sealer.encrypt(&NONCE, &AAD, &mut out[start..], &mut tag);
            out.extend_from_slice(&tag);
        });
        if $dir == SEAL {
            return seal;
        }
        let opener = $make;
        open_runner(seal, move |buf| {
            let (ct, tag) = buf.split_at_mut(buf.len() - 16);
            opener.decrypt(&NONCE, &AAD, ct, tag).expect("our own ciphertext opens");
            ct.len()
        })
    }};
}

/// graviola's ChaCha20-Poly1305 `DIR` (see `aead_op`).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[must_use]
pub fn graviola_chacha20_poly1305<const DIR: Direction>() -> Runner {
    graviola_aead!(graviola::aead::ChaCha20Poly1305::new(KEY), DIR)
}

/// graviola's AES-GCM with a `K`-byte key, `DIR` (see `aead_op`).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[must_use]
pub fn graviola_aes_gcm<const K: usize, const DIR: Direction>() -> Runner {
    graviola_aead!(graviola::aead::AesGcm::new(&KEY[..K]), DIR)
}

/// RustCrypto's AES-128-CCM with a 16-byte tag and a 12-byte nonce (TLS's parameters).
pub type Aes128Ccm = ccm::Ccm<aes::Aes128, ccm::consts::U16, ccm::consts::U12>;

/// A RustCrypto AEAD's `DIR` (see `aead_op`); the nonce is the first `NonceSize` bytes of
/// [`NONCE_24`] (so [`NONCE`] for 12-byte nonces).
#[must_use]
pub fn rustcrypto_aead<A, const DIR: Direction>() -> Runner
where
    A: chacha20poly1305::aead::AeadInPlace + chacha20poly1305::KeyInit + 'static,
{
    use chacha20poly1305::aead::{AeadCore, generic_array::typenum::Unsigned};
    let nonce_len = <A as AeadCore>::NonceSize::USIZE;
    let nonce = chacha20poly1305::aead::Nonce::<A>::clone_from_slice(&NONCE_24[..nonce_len]);
    let key = || A::new_from_slice(&KEY[..A::key_size()]).expect("key length");
    let sealer = key();
    let n = nonce.clone();
    let seal: Runner = Box::new(move |m, out| {
        let start = out.len();
        out.extend_from_slice(m);
        let tag = sealer
            .encrypt_in_place_detached(&n, &AAD, &mut out[start..])
            .expect("benchmark messages are within the AEAD's limits");
        out.extend_from_slice(&tag);
    });
    if DIR == SEAL {
        return seal;
    }
    let opener = key();
    let tag_len = <A as AeadCore>::TagSize::USIZE;
    open_runner(seal, move |buf| {
        let (ct, tag) = buf.split_at_mut(buf.len() - tag_len);
        let tag = chacha20poly1305::aead::Tag::<A>::from_slice(tag);
        opener.decrypt_in_place_detached(&nonce, &AAD, ct, tag).expect("our own ciphertext opens");
        ct.len()
    })
}

/// ring's HMAC under [`KEY`], for the `hmac-*` ops.
#[must_use]
pub fn ring_hmac(alg: ring::hmac::Algorithm) -> Runner {
    let key = ring::hmac::Key::new(alg, &KEY);
    Box::new(move |m, out| out.extend_from_slice(ring::hmac::sign(&key, m).as_ref()))
}

/// aws-lc-rs's HMAC under [`KEY`], for the `hmac-*` ops.
#[must_use]
pub fn aws_hmac(alg: aws_lc_rs::hmac::Algorithm) -> Runner {
    let key = aws_lc_rs::hmac::Key::new(alg, &KEY);
    Box::new(move |m, out| out.extend_from_slice(aws_lc_rs::hmac::sign(&key, m).as_ref()))
}

/// graviola's HMAC under [`KEY`], for the `hmac-*` ops.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[must_use]
pub fn graviola_hmac<H: graviola::hashing::Hash + Clone + 'static>() -> Runner {
    let key = graviola::hashing::hmac::Hmac::<H>::new(KEY);
    Box::new(move |m, out| {
        let mut mac = key.clone();
        mac.update(m);
        out.extend_from_slice(mac.finish().as_ref());
    })
}

/// A RustCrypto MAC (`hmac::Hmac<sha2::Sha256>`) under [`KEY`], for the `hmac-*` ops.
#[must_use]
pub fn rustcrypto_mac<M: hmac::Mac + hmac::digest::KeyInit + Clone + 'static>() -> Runner {
    let key =
        <M as hmac::digest::KeyInit>::new_from_slice(&KEY).expect("HMAC takes any key length");
    Box::new(move |m, out| {
        let mut mac = key.clone();
        mac.update(m);
        out.extend_from_slice(&mac.finalize().into_bytes());
    })
}

/// The `openssl` way to run HMAC-`digest` under [`KEY`] (`digest` as OpenSSL names it,
/// `sha256`), for the `hmac-*` ops.
#[must_use]
pub fn openssl_hmac(digest: &str) -> OpensslSpec {
    let hexkey = crate::check::hex(&KEY);
    OpensslSpec {
        speed: vec!["-hmac".into(), digest.into()],
        check: Some(vec![
            "mac".into(),
            "-binary".into(),
            "-digest".into(),
            digest.into(),
            "-macopt".into(),
            format!("hexkey:{hexkey}"),
            "HMAC".into(),
        ]),
    }
}

/// A deterministic test message of `len` bytes (the same for every library and every run).
#[must_use]
pub fn message(len: usize) -> Vec<u8> {
    let mut x = 0x9e37_79b9_7f4a_7c15_u64 ^ len as u64;
    (0..len)
        .map(|_| {
            // xorshift64: cheap and far from the all-equal bytes that could hide a bug.
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 56) as u8
        })
        .collect()
}
