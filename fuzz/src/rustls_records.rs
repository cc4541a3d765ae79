//! The record protection `rustls_records` compares, shared with `examples/seeds.rs`, which
//! seals its seed records: the suite a selector byte picks (Halite's AEAD and ring's) and
//! rustls [`AeadKey`]s of either length from 32 bytes of input.

use std::cell::RefCell;

use rustls::crypto::cipher::{
    AeadKey, Iv, MessageDecrypter, MessageEncrypter, Tls12AeadAlgorithm, Tls13AeadAlgorithm,
};
use rustls::quic::{self, HeaderProtectionKey, PacketKey, Tag};
use rustls::{Error, Side, SupportedCipherSuite};

/// How many suites the selector byte picks from (taken modulo this).
pub const SUITES: u8 = 8;

/// The record protection of one suite: Halite's and, where ring has the AEAD, ring's.
enum Suite {
    /// TLS 1.3: Halite's, and ring's unless ring lacks it (AES-CCM).
    Tls13(&'static dyn Tls13AeadAlgorithm, Option<&'static dyn Tls13AeadAlgorithm>),
    /// TLS 1.2: Halite's and ring's.
    Tls12(&'static dyn Tls12AeadAlgorithm, &'static dyn Tls12AeadAlgorithm),
}

fn tls13(suite: &SupportedCipherSuite) -> &'static dyn Tls13AeadAlgorithm {
    match suite {
        SupportedCipherSuite::Tls13(s) => s.aead_alg,
        SupportedCipherSuite::Tls12(_) => unreachable!("a TLS 1.3 suite"),
    }
}

fn tls12(suite: &SupportedCipherSuite) -> &'static dyn Tls12AeadAlgorithm {
    match suite {
        SupportedCipherSuite::Tls12(s) => s.aead_alg,
        SupportedCipherSuite::Tls13(_) => unreachable!("a TLS 1.2 suite"),
    }
}

/// The suite the selector byte picks, and its key length.
fn suite(selector: u8) -> (Suite, usize) {
    use rustls::crypto::ring::cipher_suite as ring;
    use rustls_halite::cipher_suite as halite;
    match selector % SUITES {
        0 => (
            Suite::Tls13(
                tls13(&halite::TLS13_AES_128_GCM_SHA256),
                Some(tls13(&ring::TLS13_AES_128_GCM_SHA256)),
            ),
            16,
        ),
        1 => (
            Suite::Tls13(
                tls13(&halite::TLS13_AES_256_GCM_SHA384),
                Some(tls13(&ring::TLS13_AES_256_GCM_SHA384)),
            ),
            32,
        ),
        2 => (
            Suite::Tls13(
                tls13(&halite::TLS13_CHACHA20_POLY1305_SHA256),
                Some(tls13(&ring::TLS13_CHACHA20_POLY1305_SHA256)),
            ),
            32,
        ),
        3 => (Suite::Tls13(tls13(&halite::TLS13_AES_128_CCM_SHA256), None), 16),
        4 => (Suite::Tls13(tls13(&halite::TLS13_AES_128_CCM_8_SHA256), None), 16),
        5 => (
            Suite::Tls12(
                tls12(&halite::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256),
                tls12(&ring::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256),
            ),
            16,
        ),
        6 => (
            Suite::Tls12(
                tls12(&halite::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384),
                tls12(&ring::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384),
            ),
            32,
        ),
        _ => (
            Suite::Tls12(
                tls12(&halite::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256),
                tls12(&ring::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256),
            ),
            32,
        ),
    }
}

thread_local! {
    /// The packet keys `Grab` was handed.
    static GRABBED: RefCell<Vec<AeadKey>> = const { RefCell::new(Vec::new()) };
}

/// A QUIC "algorithm" that keeps the 16-byte packet keys rustls derives for it. rustls makes an
/// [`AeadKey`] shorter than 32 bytes only from a key schedule, and QUIC's initial keys are the
/// one public path to one: they are derived from the input's key material as connection ID.
struct Grab;

/// What `Grab` hands back in place of real QUIC keys; never used.
struct Unused;

impl quic::Algorithm for Grab {
    fn packet_key(&self, key: AeadKey, _iv: Iv) -> Box<dyn PacketKey> {
        GRABBED.with(|g| g.borrow_mut().push(key));
        Box::new(Unused)
    }

    fn header_protection_key(&self, _key: AeadKey) -> Box<dyn HeaderProtectionKey> {
        Box::new(Unused)
    }

    fn aead_key_len(&self) -> usize {
        16
    }
}

impl PacketKey for Unused {
    fn encrypt_in_place(&self, _: u64, _: &[u8], _: &mut [u8]) -> Result<Tag, Error> {
        Err(Error::EncryptError)
    }

    fn decrypt_in_place<'a>(&self, _: u64, _: &[u8], _: &'a mut [u8]) -> Result<&'a [u8], Error> {
        Err(Error::DecryptError)
    }

    fn tag_len(&self) -> usize {
        16
    }

    fn confidentiality_limit(&self) -> u64 {
        0
    }

    fn integrity_limit(&self) -> u64 {
        0
    }
}

impl HeaderProtectionKey for Unused {
    fn encrypt_in_place(&self, _: &[u8], _: &mut u8, _: &mut [u8]) -> Result<(), Error> {
        Err(Error::EncryptError)
    }

    fn decrypt_in_place(&self, _: &[u8], _: &mut u8, _: &mut [u8]) -> Result<(), Error> {
        Err(Error::DecryptError)
    }

    fn sample_len(&self) -> usize {
        16
    }
}

static GRAB: Grab = Grab;

/// A key of `len` bytes from `material`: the material itself for 32 bytes, else the 16-byte
/// key rustls's QUIC initial-key schedule derives from it (the same bytes on every call).
fn key(len: usize, material: &[u8; 32]) -> AeadKey {
    if len == 32 {
        return AeadKey::from(*material);
    }
    let SupportedCipherSuite::Tls13(hkdf_suite) =
        rustls_halite::cipher_suite::TLS13_AES_128_GCM_SHA256
    else {
        unreachable!("a TLS 1.3 suite");
    };
    GRABBED.with(|g| g.borrow_mut().clear());
    let _ = quic::Keys::initial(quic::Version::V1, hkdf_suite, &GRAB, material, Side::Client);
    GRABBED.with(|g| g.borrow_mut().drain(..).next()).expect("rustls derives a packet key")
}

/// A decrypter and an encrypter for one side of the comparison.
pub struct Keys {
    /// Opens records.
    pub dec: Box<dyn MessageDecrypter>,
    /// Seals records.
    pub enc: Box<dyn MessageEncrypter>,
}

/// Both sides of the comparison, keyed identically.
pub struct Sides {
    /// rustls-halite's.
    pub halite: Keys,
    /// ring's, unless ring lacks the AEAD (AES-CCM).
    pub ring: Option<Keys>,
    /// Whether the suite is a TLS 1.3 one.
    pub tls13: bool,
}

/// The suite `selector` picks, keyed from `material` and `iv` (TLS 1.2 AES-GCM: a 4-byte salt,
/// then the 8 bytes its explicit nonces start from).
pub fn sides(selector: u8, material: &[u8; 32], iv: &[u8; 12]) -> Sides {
    let (suite, key_len) = suite(selector);
    match suite {
        Suite::Tls13(halite, ring) => {
            let keys = |alg: &dyn Tls13AeadAlgorithm| Keys {
                dec: alg.decrypter(key(key_len, material), Iv::new(*iv)),
                enc: alg.encrypter(key(key_len, material), Iv::new(*iv)),
            };
            Sides { halite: keys(halite), ring: ring.map(keys), tls13: true }
        }
        Suite::Tls12(halite, ring) => {
            let (salt, extra) = iv.split_at(halite.key_block_shape().fixed_iv_len);
            let keys = |alg: &dyn Tls12AeadAlgorithm| Keys {
                dec: alg.decrypter(key(key_len, material), salt),
                enc: alg.encrypter(key(key_len, material), salt, extra),
            };
            Sides { halite: keys(halite), ring: Some(keys(ring)), tls13: false }
        }
    }
}
