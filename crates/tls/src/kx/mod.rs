//! Key exchange for the `key_share` extension: X25519 and the NIST curves P-256, P-384 and
//! P-521 from `core-ec`, and the hybrids of ML-KEM (`core-lattice`) with them that
//! draft-ietf-tls-ecdhe-mlkem defines for TLS 1.3 (X25519MLKEM768, SecP256r1MLKEM768,
//! SecP384r1MLKEM1024). Public values are in the encodings RFC 8446 §4.2.8.2 fixes (32 raw
//! bytes for X25519, uncompressed SEC1 points `04‖X‖Y` for the NIST groups) and, for a hybrid,
//! the concatenation the draft fixes per group; every peer value is checked before use. The
//! interface is KEM-shaped, so that ML-KEM and its hybrids fit as the Diffie–Hellman groups
//! do: the client makes a key pair ([`KeyShare::keygen`]) and later decapsulates the server's
//! share ([`KeyShare::decapsulate`]); the server answers a client's share in one call
//! ([`encapsulate`]: for a Diffie–Hellman group, a fresh key pair and the function of the
//! client's share). A configuration's `key_exchanges` can put a user's [`KeyExchange`] in
//! place of any of them, or add a group.
//!
//! A client keeps a hybrid's ML-KEM key as its 64-byte seed (`d ‖ z`, FIPS 203 §3.3 allows
//! storing a key so) and expands it when it writes its share and again when it decapsulates:
//! one more key generation per handshake (tens of microseconds on a server, a few million
//! cycles on a Cortex-M0) saves the 2400-byte decapsulation key in every connection. No key
//! keeps its public value either (up to 1665 bytes): it is computed each time it is sent,
//! which after a HelloRetryRequest that asks only for a cookie means twice (Halite issue 22:
//! the ClientHello state is the connection's largest).
//!
//! Each group is a cargo feature (`x25519`, `p256`, `p384`, `p521`, and `mlkem` for the
//! hybrids of ML-KEM with whichever of their Diffie–Hellman groups are on): a group that is
//! off is not linked, naming it in a configuration is [`ApiMisuse::BadConfig`], and
//! [`MAX_PUBLIC_LEN`] and [`MAX_SHARED_LEN`] (the key-share frames) are sized by the largest
//! group that is on.

// With no Diffie–Hellman group compiled in, `EcdhKey` has no variant and what handles it is
// never reached (a user's `KeyExchange` can still be configured).
#![cfg_attr(
    not(any(feature = "x25519", feature = "p256", feature = "p384", feature = "p521")),
    allow(unreachable_code, unused_variables, dead_code, clippy::unnecessary_wraps)
)]

#[cfg(feature = "p256")]
use core_ec::p256;
#[cfg(feature = "p384")]
use core_ec::p384;
#[cfg(feature = "p521")]
use core_ec::p521;
#[cfg(feature = "x25519")]
use core_ec::x25519;
use core_hash::RandomSource;
#[cfg(feature = "mlkem")]
use core_lattice::{mlkem768, mlkem1024};
use zeroize::Zeroize;

use crate::compiled::{compiled_in, count, max_len};
use crate::error::{ApiMisuse, Error, PeerMisbehaved};
use crate::msgs::NamedGroup;
use crate::provider::{KeyExchange, MAX_KX_SECRET_LEN};

/// Every group this crate implements, in the default order of preference, and whether this
/// build has it: the hybrids first (a server takes one whenever the client sent its share),
/// then the Diffie–Hellman groups.
const GROUPS: [(NamedGroup, bool); 7] = [
    (NamedGroup::X25519MLKEM768, cfg!(all(feature = "mlkem", feature = "x25519"))),
    (NamedGroup::SECP256R1MLKEM768, cfg!(all(feature = "mlkem", feature = "p256"))),
    (NamedGroup::SECP384R1MLKEM1024, cfg!(all(feature = "mlkem", feature = "p384"))),
    (NamedGroup::X25519, cfg!(feature = "x25519")),
    (NamedGroup::SECP256R1, cfg!(feature = "p256")),
    (NamedGroup::SECP384R1, cfg!(feature = "p384")),
    (NamedGroup::SECP521R1, cfg!(feature = "p521")),
];

/// Where the Diffie–Hellman groups start in `GROUPS`.
const FIRST_CLASSICAL: usize = 3;
const ALL: [NamedGroup; count(&GROUPS)] = compiled_in(&GROUPS, NamedGroup(0));
const CLASSICAL: [NamedGroup; count(GROUPS.split_at(FIRST_CLASSICAL).1)] =
    compiled_in(GROUPS.split_at(FIRST_CLASSICAL).1, NamedGroup(0));

/// Every group this build implements (each is a cargo feature), in the default order of
/// preference: the hybrids first (a server takes one whenever the client sent its share),
/// then the Diffie–Hellman groups.
pub const ALL_GROUPS: &[NamedGroup] = &ALL;

/// The groups offered and accepted by default, in order of preference. A client sends a key
/// share for the first and, when the first is a hybrid whose Diffie–Hellman group is also
/// listed, one for that group with the same key (X25519MLKEM768 and X25519 by default, as
/// browsers do): a server without the hybrid then answers without a HelloRetryRequest.
pub const DEFAULT_GROUPS: &[NamedGroup] = ALL_GROUPS;

/// The groups without ML-KEM, in order of preference: for devices that do not want a 1.2 KB
/// key share in their ClientHello or a few million cycles of ML-KEM per handshake.
pub const CLASSICAL_GROUPS: &[NamedGroup] = &CLASSICAL;

/// ML-KEM-768 and ML-KEM-1024 encapsulation-key lengths (the longer of key and ciphertext)
/// and the shared key's, or zeros without the hybrids.
#[cfg(feature = "mlkem")]
const MLKEM_LENS: (usize, usize, usize) = (
    mlkem768::ENCAPSULATION_KEY_LEN,
    mlkem1024::ENCAPSULATION_KEY_LEN,
    core_lattice::SHARED_SECRET_LEN,
);
#[cfg(not(feature = "mlkem"))]
const MLKEM_LENS: (usize, usize, usize) = (0, 0, 0);

/// The longest public value of the groups compiled in (with every group, SecP384r1MLKEM1024's
/// shares: a P-384 point and an ML-KEM-1024 encapsulation key or ciphertext, 97 + 1568
/// bytes), and at least an X25519 share's 32 bytes, so that a user's [`KeyExchange`] has room
/// when no group is compiled in.
pub const MAX_PUBLIC_LEN: usize = max_len(&[
    (32, true),
    (core_ec::p256::UNCOMPRESSED_LEN, cfg!(feature = "p256")),
    (core_ec::p384::UNCOMPRESSED_LEN, cfg!(feature = "p384")),
    (core_ec::p521::UNCOMPRESSED_LEN, cfg!(feature = "p521")),
    (32 + MLKEM_LENS.0, cfg!(feature = "x25519")),
    (core_ec::p256::UNCOMPRESSED_LEN + MLKEM_LENS.0, cfg!(feature = "p256")),
    (core_ec::p384::UNCOMPRESSED_LEN + MLKEM_LENS.1, cfg!(feature = "p384")),
]);

/// The longest shared secret of the groups compiled in (with every group,
/// SecP384r1MLKEM1024's: a P-384 x-coordinate and an ML-KEM key), and at least 32 bytes.
pub const MAX_SHARED_LEN: usize = max_len(&[
    (32, true),
    (core_ec::p384::SCALAR_LEN, cfg!(feature = "p384")),
    (core_ec::p521::SCALAR_LEN, cfg!(feature = "p521")),
    (32 + MLKEM_LENS.2, cfg!(feature = "x25519")),
    (core_ec::p256::SCALAR_LEN + MLKEM_LENS.2, cfg!(feature = "p256")),
    (core_ec::p384::SCALAR_LEN + MLKEM_LENS.2, cfg!(feature = "p384")),
]);

/// Whether this crate implements `group`.
pub fn is_supported(group: NamedGroup) -> bool {
    ALL_GROUPS.contains(&group)
}

/// Whether `group` is one this crate implements but this build leaves out (its cargo
/// feature is off): a configuration naming it is [`ApiMisuse::BadConfig`] unless one of its
/// `key_exchanges` computes it.
pub fn is_left_out(group: NamedGroup) -> bool {
    GROUPS.iter().any(|&(g, on)| g == group && !on)
}

/// Whether `group` may be used in TLS 1.2: not the hybrids, which are defined for TLS 1.3
/// only (draft-ietf-tls-ecdhe-mlkem §3).
pub fn is_tls13_only(group: NamedGroup) -> bool {
    classical_of(group).is_some()
}

/// A hybrid's Diffie–Hellman group (X25519 for X25519MLKEM768), or `None` for a group that is
/// not a hybrid.
pub fn classical_of(group: NamedGroup) -> Option<NamedGroup> {
    #[cfg(feature = "mlkem")]
    return Hybrid::of(group).map(|h| h.ecdh);
    #[cfg(not(feature = "mlkem"))]
    return {
        let _ = group;
        None
    };
}

/// The name used on the examples' command line and in their `negotiated:` line.
pub fn group_name(group: NamedGroup) -> Option<&'static str> {
    Some(match group {
        NamedGroup::X25519 => "x25519",
        NamedGroup::SECP256R1 => "secp256r1",
        NamedGroup::SECP384R1 => "secp384r1",
        NamedGroup::SECP521R1 => "secp521r1",
        NamedGroup::X25519MLKEM768 => "X25519MLKEM768",
        NamedGroup::SECP256R1MLKEM768 => "SecP256r1MLKEM768",
        NamedGroup::SECP384R1MLKEM1024 => "SecP384r1MLKEM1024",
        _ => return None,
    })
}

/// The group with this name (as [`group_name`] gives it).
pub fn group_by_name(name: &str) -> Option<NamedGroup> {
    ALL_GROUPS.iter().copied().find(|g| group_name(*g) == Some(name))
}

/// An ephemeral private key in one group (at most 144 bytes on 64-bit targets: every client
/// hello state holds one).
pub enum KeyShare {
    /// X25519 or a NIST curve.
    Ecdh(EcdhKey),
    /// An ML-KEM hybrid.
    #[cfg(feature = "mlkem")]
    Hybrid(HybridKey),
    /// A group computed by a user's [`KeyExchange`].
    Custom(CustomShare),
}

/// A Diffie–Hellman private key (the secret keys of `core-ec` wipe themselves on drop).
pub enum EcdhKey {
    /// X25519.
    #[cfg(feature = "x25519")]
    X25519(x25519::SecretKey),
    /// secp256r1.
    #[cfg(feature = "p256")]
    P256(p256::SecretKey),
    /// secp384r1.
    #[cfg(feature = "p384")]
    P384(p384::SecretKey),
    /// secp521r1.
    #[cfg(feature = "p521")]
    P521(p521::SecretKey),
}

/// A hybrid's private key: the ML-KEM key as its seed `d ‖ z` and the Diffie–Hellman key.
#[cfg(feature = "mlkem")]
pub struct HybridKey {
    hybrid: Hybrid,
    seed: MlKemSeed,
    ecdh: EcdhKey,
}

/// The 64 bytes `d ‖ z` from which ML-KEM.KeyGen_internal (FIPS 203 Algorithm 16) makes a
/// key pair; wiped on drop.
#[cfg(feature = "mlkem")]
struct MlKemSeed {
    d: [u8; 32],
    z: [u8; 32],
}

#[cfg(feature = "mlkem")]
impl MlKemSeed {
    fn halves(&self) -> (&[u8; 32], &[u8; 32]) {
        (&self.d, &self.z)
    }
}

#[cfg(feature = "mlkem")]
impl Drop for MlKemSeed {
    fn drop(&mut self) {
        self.d.zeroize();
        self.z.zeroize();
    }
}

/// A [`KeyExchange`]'s private key, wiped on drop.
pub struct CustomShare {
    kx: &'static dyn KeyExchange,
    secret: [u8; MAX_KX_SECRET_LEN],
    secret_len: u8,
}

impl CustomShare {
    fn secret(&self) -> &[u8] {
        &self.secret[..usize::from(self.secret_len)]
    }
}

impl Drop for CustomShare {
    fn drop(&mut self) {
        self.secret.zeroize();
    }
}

impl core::fmt::Debug for KeyShare {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "KeyShare({:?})", self.group())
    }
}

/// A public value, in its wire encoding.
pub struct PublicValue {
    bytes: [u8; MAX_PUBLIC_LEN],
    len: usize,
}

impl PublicValue {
    const EMPTY: Self = Self { bytes: [0; MAX_PUBLIC_LEN], len: 0 };

    /// Appends `b` (the callers' lengths add up to at most [`MAX_PUBLIC_LEN`]).
    fn push(&mut self, b: &[u8]) {
        if let Some(dst) = self.bytes.get_mut(self.len..self.len + b.len()) {
            dst.copy_from_slice(b);
            self.len += b.len();
        }
    }
}

impl AsRef<[u8]> for PublicValue {
    fn as_ref(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// A key-exchange result, wiped on drop.
pub struct SharedSecret {
    bytes: [u8; MAX_SHARED_LEN],
    len: usize,
}

impl SharedSecret {
    const EMPTY: Self = Self { bytes: [0; MAX_SHARED_LEN], len: 0 };

    /// Appends `b` (the callers' lengths add up to at most [`MAX_SHARED_LEN`]).
    fn push(&mut self, b: &[u8]) {
        if let Some(dst) = self.bytes.get_mut(self.len..self.len + b.len()) {
            dst.copy_from_slice(b);
            self.len += b.len();
        }
    }
}

impl AsRef<[u8]> for SharedSecret {
    fn as_ref(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl Drop for SharedSecret {
    fn drop(&mut self) {
        self.bytes.zeroize();
    }
}

/// A fresh NIST scalar by rejection sampling (each draw is in range with probability > 1/2).
#[cfg(any(feature = "p256", feature = "p384", feature = "p521"))]
fn nist_scalar<K>(
    rng: &mut dyn RandomSource,
    buf: &mut [u8],
    top_mask: u8,
    make: impl Fn(&[u8]) -> Result<K, core_ec::Error>,
) -> Result<K, Error> {
    for _ in 0..64 {
        rng.fill(buf).map_err(|_| Error::RandomFailed)?;
        buf[0] &= top_mask;
        if let Ok(k) = make(buf) {
            buf.zeroize();
            return Ok(k);
        }
    }
    buf.zeroize();
    Err(Error::RandomFailed)
}

fn bad_share<E>(_: E) -> Error {
    Error::PeerMisbehaved(PeerMisbehaved::InvalidKeyShare)
}

/// Checks that `peer` is an uncompressed point of exactly `len` bytes (RFC 8446 §4.2.8.2 allows
/// no other form) before it is decoded and checked against the curve.
#[cfg(any(feature = "p256", feature = "p384", feature = "p521"))]
fn uncompressed(peer: &[u8], len: usize) -> Result<&[u8], Error> {
    if peer.len() != len || peer.first() != Some(&4) {
        return Err(PeerMisbehaved::InvalidKeyShare.into());
    }
    Ok(peer)
}

impl EcdhKey {
    /// A fresh key in `group`, or `None` for a group that is not a Diffie–Hellman one.
    fn generate(group: NamedGroup, rng: &mut dyn RandomSource) -> Result<Option<Self>, Error> {
        Ok(Some(match group {
            #[cfg(feature = "x25519")]
            NamedGroup::X25519 => {
                let mut b = [0u8; 32];
                rng.fill(&mut b).map_err(|_| Error::RandomFailed)?;
                let k = x25519::SecretKey::from_bytes(b);
                b.zeroize();
                Self::X25519(k)
            }
            #[cfg(feature = "p256")]
            NamedGroup::SECP256R1 => {
                Self::P256(nist_scalar(rng, &mut [0u8; 32], 0xff, p256::SecretKey::from_bytes)?)
            }
            #[cfg(feature = "p384")]
            NamedGroup::SECP384R1 => {
                Self::P384(nist_scalar(rng, &mut [0u8; 48], 0xff, p384::SecretKey::from_bytes)?)
            }
            #[cfg(feature = "p521")]
            NamedGroup::SECP521R1 => {
                Self::P521(nist_scalar(rng, &mut [0u8; 66], 0x01, p521::SecretKey::from_bytes)?)
            }
            _ => return Ok(None),
        }))
    }

    // The matches below are on `*self`, not `self`: with no group compiled in `EcdhKey` has no
    // variant, and only a place of an empty type (not a reference to one) needs no arm.
    fn group(&self) -> NamedGroup {
        match *self {
            #[cfg(feature = "x25519")]
            Self::X25519(_) => NamedGroup::X25519,
            #[cfg(feature = "p256")]
            Self::P256(_) => NamedGroup::SECP256R1,
            #[cfg(feature = "p384")]
            Self::P384(_) => NamedGroup::SECP384R1,
            #[cfg(feature = "p521")]
            Self::P521(_) => NamedGroup::SECP521R1,
        }
    }

    /// Appends the public value to `out`.
    fn public_into(&self, out: &mut PublicValue) {
        match *self {
            #[cfg(feature = "x25519")]
            Self::X25519(ref k) => out.push(k.public_key().as_bytes()),
            #[cfg(feature = "p256")]
            Self::P256(ref k) => out.push(&k.public_key().to_sec1_bytes()),
            #[cfg(feature = "p384")]
            Self::P384(ref k) => out.push(&k.public_key().to_sec1_bytes()),
            #[cfg(feature = "p521")]
            Self::P521(ref k) => out.push(&k.public_key().to_sec1_bytes()),
        }
    }

    /// Appends the Diffie–Hellman function of this key and `peer` to `out`.
    fn agree_into(&self, peer: &[u8], out: &mut SharedSecret) -> Result<(), Error> {
        match *self {
            #[cfg(feature = "x25519")]
            Self::X25519(ref k) => {
                let p = x25519::PublicKey::from_slice(peer).map_err(bad_share)?;
                out.push(k.diffie_hellman(&p).map_err(bad_share)?.as_bytes());
            }
            #[cfg(feature = "p256")]
            Self::P256(ref k) => {
                let p = uncompressed(peer, p256::UNCOMPRESSED_LEN)?;
                let p = p256::PublicKey::from_sec1_bytes(p).map_err(bad_share)?;
                out.push(k.diffie_hellman(&p).map_err(bad_share)?.as_bytes());
            }
            #[cfg(feature = "p384")]
            Self::P384(ref k) => {
                let p = uncompressed(peer, p384::UNCOMPRESSED_LEN)?;
                let p = p384::PublicKey::from_sec1_bytes(p).map_err(bad_share)?;
                out.push(k.diffie_hellman(&p).map_err(bad_share)?.as_bytes());
            }
            #[cfg(feature = "p521")]
            Self::P521(ref k) => {
                let p = uncompressed(peer, p521::UNCOMPRESSED_LEN)?;
                let p = p521::PublicKey::from_sec1_bytes(p).map_err(bad_share)?;
                out.push(k.diffie_hellman(&p).map_err(bad_share)?.as_bytes());
            }
        }
        Ok(())
    }
}

/// The ML-KEM parameter set of a hybrid.
#[cfg(feature = "mlkem")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kem {
    #[cfg(any(feature = "x25519", feature = "p256"))]
    MlKem768,
    #[cfg(feature = "p384")]
    MlKem1024,
}

#[cfg(feature = "mlkem")]
impl Kem {
    fn ek_len(self) -> usize {
        match self {
            #[cfg(any(feature = "x25519", feature = "p256"))]
            Self::MlKem768 => mlkem768::ENCAPSULATION_KEY_LEN,
            #[cfg(feature = "p384")]
            Self::MlKem1024 => mlkem1024::ENCAPSULATION_KEY_LEN,
        }
    }

    fn ct_len(self) -> usize {
        match self {
            #[cfg(any(feature = "x25519", feature = "p256"))]
            Self::MlKem768 => mlkem768::CIPHERTEXT_LEN,
            #[cfg(feature = "p384")]
            Self::MlKem1024 => mlkem1024::CIPHERTEXT_LEN,
        }
    }

    /// Appends the encapsulation key of `seed`'s key pair to `out`. The decapsulation key is
    /// `ŝ ‖ ek ‖ H(ek) ‖ z` (FIPS 203 Algorithm 16), so `ek` is read from inside it.
    fn public_into(self, seed: &MlKemSeed, out: &mut PublicValue) {
        let (d, z) = seed.halves();
        match self {
            #[cfg(any(feature = "x25519", feature = "p256"))]
            Self::MlKem768 => {
                let dk = mlkem768::DecapsulationKey::from_seed(d, z);
                out.push(&dk.as_bytes()[384 * 3..][..mlkem768::ENCAPSULATION_KEY_LEN]);
            }
            #[cfg(feature = "p384")]
            Self::MlKem1024 => {
                let dk = mlkem1024::DecapsulationKey::from_seed(d, z);
                out.push(&dk.as_bytes()[384 * 4..][..mlkem1024::ENCAPSULATION_KEY_LEN]);
            }
        }
    }

    /// Appends the shared key in the ciphertext `ct` for `seed`'s key pair to `out`. Only
    /// the length is checked (FIPS 203 §7.3); a ciphertext not made for this key gives the
    /// implicit-rejection key, so the handshake fails at Finished.
    fn decapsulate_into(
        self,
        seed: &MlKemSeed,
        ct: &[u8],
        out: &mut SharedSecret,
    ) -> Result<(), Error> {
        let (d, z) = seed.halves();
        let key: core_lattice::SharedSecret = match self {
            #[cfg(any(feature = "x25519", feature = "p256"))]
            Self::MlKem768 => {
                let ct = mlkem768::Ciphertext::from_bytes(ct).map_err(bad_share)?;
                mlkem768::DecapsulationKey::from_seed(d, z).decapsulate(&ct)
            }
            #[cfg(feature = "p384")]
            Self::MlKem1024 => {
                let ct = mlkem1024::Ciphertext::from_bytes(ct).map_err(bad_share)?;
                mlkem1024::DecapsulationKey::from_seed(d, z).decapsulate(&ct)
            }
        };
        out.push(key.as_bytes());
        Ok(())
    }

    /// Server: checks the encapsulation key `ek` (length and the modulus check of FIPS 203
    /// §7.2, else [`PeerMisbehaved::InvalidKeyShare`]), appends a ciphertext to it to `share`
    /// and the key it carries to `out`.
    fn encapsulate_into(
        self,
        rng: &mut dyn RandomSource,
        ek: &[u8],
        share: &mut PublicValue,
        out: &mut SharedSecret,
    ) -> Result<(), Error> {
        let random = |_: core_lattice::Error| Error::RandomFailed;
        let key: core_lattice::SharedSecret = match self {
            #[cfg(any(feature = "x25519", feature = "p256"))]
            Self::MlKem768 => {
                let ek = mlkem768::EncapsulationKey::from_bytes(ek).map_err(bad_share)?;
                let (ct, key) = ek.encapsulate(&mut &mut *rng).map_err(random)?;
                share.push(ct.as_bytes());
                key
            }
            #[cfg(feature = "p384")]
            Self::MlKem1024 => {
                let ek = mlkem1024::EncapsulationKey::from_bytes(ek).map_err(bad_share)?;
                let (ct, key) = ek.encapsulate(&mut &mut *rng).map_err(random)?;
                share.push(ct.as_bytes());
                key
            }
        };
        out.push(key.as_bytes());
        Ok(())
    }
}

#[cfg(all(feature = "mlkem", feature = "p256"))]
const P256_POINT_LEN: u8 = p256::UNCOMPRESSED_LEN as u8;
#[cfg(all(feature = "mlkem", feature = "p384"))]
const P384_POINT_LEN: u8 = p384::UNCOMPRESSED_LEN as u8;
#[cfg(all(feature = "mlkem", feature = "p256"))]
const _: () = assert!(P256_POINT_LEN as usize == p256::UNCOMPRESSED_LEN);
#[cfg(all(feature = "mlkem", feature = "p384"))]
const _: () = assert!(P384_POINT_LEN as usize == p384::UNCOMPRESSED_LEN);

/// A hybrid group as draft-ietf-tls-ecdhe-mlkem §3 composes it: shares and shared secrets are
/// the concatenations of the ML-KEM and Diffie–Hellman parts, ML-KEM first for
/// X25519MLKEM768 and last for the NIST ones.
#[cfg(feature = "mlkem")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Hybrid {
    group: NamedGroup,
    ecdh: NamedGroup,
    /// The Diffie–Hellman public value's length (at most 97 bytes: a P-384 point).
    ecdh_len: u8,
    kem: Kem,
    kem_first: bool,
}

#[cfg(feature = "mlkem")]
impl Hybrid {
    /// The hybrid `group`, if it is one and its Diffie–Hellman group is compiled in.
    fn of(group: NamedGroup) -> Option<Self> {
        let (ecdh, ecdh_len, kem, kem_first) = match group {
            #[cfg(feature = "x25519")]
            NamedGroup::X25519MLKEM768 => (NamedGroup::X25519, 32, Kem::MlKem768, true),
            #[cfg(feature = "p256")]
            NamedGroup::SECP256R1MLKEM768 => {
                (NamedGroup::SECP256R1, P256_POINT_LEN, Kem::MlKem768, false)
            }
            #[cfg(feature = "p384")]
            NamedGroup::SECP384R1MLKEM1024 => {
                (NamedGroup::SECP384R1, P384_POINT_LEN, Kem::MlKem1024, false)
            }
            _ => return None,
        };
        Some(Self { group, ecdh, ecdh_len, kem, kem_first })
    }

    /// A peer's share split into its ML-KEM part (`kem_len` bytes) and its Diffie–Hellman
    /// part; any other length is [`PeerMisbehaved::InvalidKeyShare`].
    fn split(self, share: &[u8], kem_len: usize) -> Result<(&[u8], &[u8]), Error> {
        let ecdh_len = usize::from(self.ecdh_len);
        if share.len() != kem_len + ecdh_len {
            return Err(PeerMisbehaved::InvalidKeyShare.into());
        }
        Ok(if self.kem_first {
            share.split_at(kem_len)
        } else {
            let (ecdh, kem) = share.split_at(ecdh_len);
            (kem, ecdh)
        })
    }

    /// Where the Diffie–Hellman public value sits in our share.
    fn ecdh_range(self) -> core::ops::Range<usize> {
        let start = if self.kem_first { self.kem.ek_len() } else { 0 };
        start..start + usize::from(self.ecdh_len)
    }
}

#[cfg(feature = "mlkem")]
impl HybridKey {
    fn public_into(&self, out: &mut PublicValue) {
        if self.hybrid.kem_first {
            self.hybrid.kem.public_into(&self.seed, out);
            self.ecdh.public_into(out);
        } else {
            self.ecdh.public_into(out);
            self.hybrid.kem.public_into(&self.seed, out);
        }
    }

    fn decapsulate(&self, peer: &[u8]) -> Result<SharedSecret, Error> {
        let h = self.hybrid;
        let (ct, ecdh) = h.split(peer, h.kem.ct_len())?;
        let mut out = SharedSecret::EMPTY;
        if h.kem_first {
            h.kem.decapsulate_into(&self.seed, ct, &mut out)?;
            self.ecdh.agree_into(ecdh, &mut out)?;
        } else {
            self.ecdh.agree_into(ecdh, &mut out)?;
            h.kem.decapsulate_into(&self.seed, ct, &mut out)?;
        }
        Ok(out)
    }
}

impl KeyShare {
    /// Client, the first step: a fresh key in `group` from `rng` ([`KeyExchange::keygen`]),
    /// by the first of `custom` in that group, else by `core-ec` (and `core-lattice` for a
    /// hybrid). A group neither implements is [`ApiMisuse::BadConfig`].
    pub fn keygen(
        group: NamedGroup,
        custom: &[&'static dyn KeyExchange],
        rng: &mut dyn RandomSource,
    ) -> Result<Self, Error> {
        if let Some(&kx) = custom.iter().find(|k| k.group() == group) {
            let mut share = CustomShare { kx, secret: [0; MAX_KX_SECRET_LEN], secret_len: 0 };
            let s = kx.keygen(rng, &mut share.secret)?;
            share.secret_len = u8::try_from(s)
                .ok()
                .filter(|&s| usize::from(s) <= MAX_KX_SECRET_LEN)
                .ok_or(Error::ApiMisuse(ApiMisuse::BadConfig))?;
            return Ok(Self::Custom(share));
        }
        #[cfg(feature = "mlkem")]
        if let Some(hybrid) = Hybrid::of(group) {
            let mut seed = MlKemSeed { d: [0; 32], z: [0; 32] };
            rng.fill(&mut seed.d).map_err(|_| Error::RandomFailed)?;
            rng.fill(&mut seed.z).map_err(|_| Error::RandomFailed)?;
            let ecdh = EcdhKey::generate(hybrid.ecdh, rng)?
                .ok_or(Error::ApiMisuse(ApiMisuse::BadConfig))?;
            return Ok(Self::Hybrid(HybridKey { hybrid, seed, ecdh }));
        }
        match EcdhKey::generate(group, rng)? {
            Some(k) => Ok(Self::Ecdh(k)),
            None => Err(Error::ApiMisuse(ApiMisuse::BadConfig)),
        }
    }

    /// The group this key is in.
    pub fn group(&self) -> NamedGroup {
        match self {
            Self::Ecdh(k) => k.group(),
            #[cfg(feature = "mlkem")]
            Self::Hybrid(k) => k.hybrid.group,
            Self::Custom(c) => c.kx.group(),
        }
    }

    /// The public value to send, computed from the private key each time: for a hybrid
    /// this expands the ML-KEM seed (a key generation), for a custom group it is its
    /// [`KeyExchange::public`] (a public value it gives that is empty or too long is
    /// [`ApiMisuse::BadConfig`]).
    pub fn public(&self) -> Result<PublicValue, Error> {
        let mut out = PublicValue::EMPTY;
        match self {
            Self::Ecdh(k) => k.public_into(&mut out),
            #[cfg(feature = "mlkem")]
            Self::Hybrid(k) => k.public_into(&mut out),
            Self::Custom(c) => {
                let p = c.kx.public(c.secret(), &mut out.bytes)?;
                if p == 0 || p > MAX_PUBLIC_LEN {
                    return Err(Error::ApiMisuse(ApiMisuse::BadConfig));
                }
                out.len = p;
            }
        }
        Ok(out)
    }

    /// For a hybrid, its Diffie–Hellman group and where that group's public value sits in
    /// [`public`](Self::public): a client may offer it as a share of its own, with the same
    /// key (draft-ietf-tls-hybrid-design §3.2 allows the reuse), and
    /// [`decapsulate_in`](Self::decapsulate_in) then takes a server's answer in either group.
    pub fn classical_part(&self) -> Option<(NamedGroup, core::ops::Range<usize>)> {
        match self {
            #[cfg(feature = "mlkem")]
            Self::Hybrid(k) => Some((k.hybrid.ecdh, k.hybrid.ecdh_range())),
            _ => None,
        }
    }

    /// Client, the last step ([`KeyExchange::decapsulate`]): the shared secret with the
    /// server's share, which must be a valid key in this group (else
    /// [`PeerMisbehaved::InvalidKeyShare`], answered with illegal_parameter). For the
    /// Diffie–Hellman groups this is the Diffie–Hellman function, which either side may
    /// compute with the other's public value; for a hybrid, the ML-KEM decapsulation of the
    /// server's ciphertext and the Diffie–Hellman function, concatenated in the group's order.
    pub fn decapsulate(&self, peer: &[u8]) -> Result<SharedSecret, Error> {
        match self {
            Self::Ecdh(k) => {
                let mut out = SharedSecret::EMPTY;
                k.agree_into(peer, &mut out)?;
                Ok(out)
            }
            #[cfg(feature = "mlkem")]
            Self::Hybrid(k) => k.decapsulate(peer),
            Self::Custom(c) => {
                let mut out = SharedSecret::EMPTY;
                let len = c.kx.decapsulate(c.secret(), peer, &mut out.bytes)?;
                if len == 0 || len > MAX_SHARED_LEN {
                    return Err(Error::ApiMisuse(ApiMisuse::BadConfig));
                }
                out.len = len;
                Ok(out)
            }
        }
    }

    /// [`decapsulate`](Self::decapsulate) for a server that answered in `group`: this key's
    /// group, or a hybrid's Diffie–Hellman group ([`classical_part`](Self::classical_part)),
    /// which takes the Diffie–Hellman function alone. Any other group is
    /// [`PeerMisbehaved::SelectedUnofferedParameter`].
    pub fn decapsulate_in(&self, group: NamedGroup, peer: &[u8]) -> Result<SharedSecret, Error> {
        if group == self.group() {
            return self.decapsulate(peer);
        }
        match self {
            #[cfg(feature = "mlkem")]
            Self::Hybrid(k) if k.hybrid.ecdh == group => {
                let mut out = SharedSecret::EMPTY;
                k.ecdh.agree_into(peer, &mut out)?;
                Ok(out)
            }
            _ => Err(PeerMisbehaved::SelectedUnofferedParameter.into()),
        }
    }
}

/// Server, in one step ([`KeyExchange::encapsulate`]): from the client's share in `group`,
/// the server's share to send and the shared secret, by the first of `custom` in that group,
/// else by `core-ec` (a fresh key pair and the Diffie–Hellman function with the client's
/// share) and, for a hybrid, `core-lattice` (a ciphertext to the client's encapsulation key).
/// A client share that is not valid is [`PeerMisbehaved::InvalidKeyShare`]; a group neither
/// implements is [`ApiMisuse::BadConfig`].
pub fn encapsulate(
    group: NamedGroup,
    custom: &[&'static dyn KeyExchange],
    rng: &mut dyn RandomSource,
    client_share: &[u8],
) -> Result<(PublicValue, SharedSecret), Error> {
    if let Some(&kx) = custom.iter().find(|k| k.group() == group) {
        let mut public = PublicValue::EMPTY;
        let mut shared = SharedSecret::EMPTY;
        let (p, s) = kx.encapsulate(rng, client_share, &mut public.bytes, &mut shared.bytes)?;
        if p == 0 || p > MAX_PUBLIC_LEN || s == 0 || s > MAX_SHARED_LEN {
            return Err(Error::ApiMisuse(ApiMisuse::BadConfig));
        }
        public.len = p;
        shared.len = s;
        return Ok((public, shared));
    }
    #[cfg(feature = "mlkem")]
    if let Some(h) = Hybrid::of(group) {
        let (ek, theirs) = h.split(client_share, h.kem.ek_len())?;
        let ours = EcdhKey::generate(h.ecdh, rng)?.ok_or(Error::ApiMisuse(ApiMisuse::BadConfig))?;
        let mut public = PublicValue::EMPTY;
        let mut shared = SharedSecret::EMPTY;
        if h.kem_first {
            h.kem.encapsulate_into(rng, ek, &mut public, &mut shared)?;
            ours.public_into(&mut public);
            ours.agree_into(theirs, &mut shared)?;
        } else {
            ours.public_into(&mut public);
            ours.agree_into(theirs, &mut shared)?;
            h.kem.encapsulate_into(rng, ek, &mut public, &mut shared)?;
        }
        return Ok((public, shared));
    }
    let key = KeyShare::keygen(group, &[], rng)?;
    let shared = key.decapsulate(client_share)?;
    Ok((key.public()?, shared))
}

#[cfg(test)]
mod tests {
    use super::*;
    use core_hash::{HmacDrbg, Sha256};
    #[cfg(all(feature = "mlkem", feature = "x25519", feature = "p256", feature = "p384"))]
    use std::vec::Vec;

    fn rng() -> HmacDrbg<Sha256> {
        HmacDrbg::new(&[7; 32], &[1; 16], b"kx test").unwrap()
    }

    #[test]
    fn every_group_agrees_with_itself() {
        let mut r = rng();
        for &g in CLASSICAL_GROUPS {
            let a = KeyShare::keygen(g, &[], &mut r).unwrap();
            let b = KeyShare::keygen(g, &[], &mut r).unwrap();
            assert_eq!(a.group(), g);
            let ab = a.decapsulate(b.public().unwrap().as_ref()).unwrap();
            let ba = b.decapsulate(a.public().unwrap().as_ref()).unwrap();
            assert_eq!(ab.as_ref(), ba.as_ref(), "{g:?}");
            assert_ne!(ab.as_ref(), &[0u8; 66][..ab.as_ref().len()]);
        }
    }

    #[test]
    fn encapsulate_and_decapsulate_agree_in_every_group() {
        let mut r = rng();
        for &g in ALL_GROUPS {
            let client = KeyShare::keygen(g, &[], &mut r).unwrap();
            let (server_share, server_secret) =
                encapsulate(g, &[], &mut r, client.public().unwrap().as_ref()).unwrap();
            let client_secret = client.decapsulate(server_share.as_ref()).unwrap();
            assert_eq!(client_secret.as_ref(), server_secret.as_ref(), "{g:?}");
            assert_ne!(server_share.as_ref(), client.public().unwrap().as_ref(), "{g:?}");
            let bad = Err(Error::PeerMisbehaved(PeerMisbehaved::InvalidKeyShare));
            assert_eq!(encapsulate(g, &[], &mut r, &[]).map(|_| ()), bad, "{g:?}");
        }
    }

    #[test]
    fn invalid_peer_values_are_refused() {
        let mut r = rng();
        let bad = Err(Error::PeerMisbehaved(PeerMisbehaved::InvalidKeyShare));
        for &g in CLASSICAL_GROUPS {
            let a = KeyShare::keygen(g, &[], &mut r).unwrap();
            let good = a.public().unwrap();
            let good = good.as_ref();
            // Wrong length, empty, and (for the NIST groups) compressed or off-curve points.
            assert!(a.decapsulate(&good[..good.len() - 1]).is_err(), "{g:?}");
            assert!(a.decapsulate(&[]).is_err(), "{g:?}");
            if g == NamedGroup::X25519 {
                // A low-order point gives the all-zero secret.
                assert_eq!(a.decapsulate(&[0u8; 32]).map(|_| ()), bad);
            } else {
                let mut c = good.to_vec();
                c[0] = 2;
                assert_eq!(a.decapsulate(&c).map(|_| ()), bad, "{g:?} wrong tag");
                let mut c = good.to_vec();
                let last = c.len() - 1;
                c[last] ^= 1;
                assert_eq!(a.decapsulate(&c).map(|_| ()), bad, "{g:?} off the curve");
                let compressed = &good[..=(good.len() - 1) / 2];
                assert_eq!(a.decapsulate(compressed).map(|_| ()), bad, "{g:?} compressed");
                let mut zero = good.to_vec();
                zero[1..].fill(0);
                assert_eq!(a.decapsulate(&zero).map(|_| ()), bad, "{g:?} zero point");
            }
        }
    }

    /// draft-ietf-tls-ecdhe-mlkem §3: the share and secret lengths and the order of the two
    /// parts in each, checked against ML-KEM and the Diffie–Hellman function computed apart.
    #[test]
    #[cfg(all(feature = "mlkem", feature = "x25519", feature = "p256", feature = "p384"))]
    fn hybrid_shares_and_secrets_are_laid_out_as_the_draft_says() {
        let mut r = rng();
        // (group, client share, server share, secret, ML-KEM first)
        let cases = [
            (NamedGroup::X25519MLKEM768, 1216, 1120, 64, true),
            (NamedGroup::SECP256R1MLKEM768, 1249, 1153, 64, false),
            (NamedGroup::SECP384R1MLKEM1024, 1665, 1665, 80, false),
        ];
        for (g, client_len, server_len, secret_len, kem_first) in cases {
            let client = KeyShare::keygen(g, &[], &mut r).unwrap();
            let ch = client.public().unwrap();
            assert_eq!(ch.as_ref().len(), client_len, "{g:?}");
            let (sh, secret) = encapsulate(g, &[], &mut r, ch.as_ref()).unwrap();
            assert_eq!(sh.as_ref().len(), server_len, "{g:?}");
            assert_eq!(secret.as_ref().len(), secret_len, "{g:?}");
            let decapsulated = client.decapsulate(sh.as_ref()).unwrap();
            assert_eq!(decapsulated.as_ref(), secret.as_ref(), "{g:?}");

            let KeyShare::Hybrid(k) = &client else { panic!("{g:?} is not a hybrid") };
            let (ecdh_group, range) = client.classical_part().unwrap();
            assert_eq!(ecdh_group, k.ecdh.group());
            let ecdh_len = range.len();
            let (d, z) = k.seed.halves();
            // The ML-KEM parts, by core-lattice directly from the seed.
            let (ek, ct, pq_secret) = match k.hybrid.kem {
                Kem::MlKem768 => {
                    let dk = mlkem768::DecapsulationKey::from_seed(d, z);
                    let ek = dk.encapsulation_key().as_bytes().to_vec();
                    let ct_at = if kem_first { 0 } else { ecdh_len };
                    let ct = &sh.as_ref()[ct_at..ct_at + mlkem768::CIPHERTEXT_LEN];
                    let ss = dk.decapsulate(&mlkem768::Ciphertext::from_bytes(ct).unwrap());
                    (ek, ct.to_vec(), ss.as_bytes().to_vec())
                }
                Kem::MlKem1024 => {
                    let dk = mlkem1024::DecapsulationKey::from_seed(d, z);
                    let ek = dk.encapsulation_key().as_bytes().to_vec();
                    let ct_at = if kem_first { 0 } else { ecdh_len };
                    let ct = &sh.as_ref()[ct_at..ct_at + mlkem1024::CIPHERTEXT_LEN];
                    let ss = dk.decapsulate(&mlkem1024::Ciphertext::from_bytes(ct).unwrap());
                    (ek, ct.to_vec(), ss.as_bytes().to_vec())
                }
            };
            // The Diffie–Hellman parts: our public value, and the function with the server's.
            let mut ecdh_public = PublicValue::EMPTY;
            k.ecdh.public_into(&mut ecdh_public);
            let (server_ecdh, ecdh_secret) = if kem_first {
                let p = &sh.as_ref()[ct.len()..];
                (p, client.decapsulate_in(ecdh_group, p).unwrap())
            } else {
                let p = &sh.as_ref()[..ecdh_len];
                (p, client.decapsulate_in(ecdh_group, p).unwrap())
            };
            assert_eq!(server_ecdh.len(), ecdh_len);
            let (first, second): (Vec<u8>, Vec<u8>) = if kem_first {
                (
                    [ek.as_slice(), ecdh_public.as_ref()].concat(),
                    [&pq_secret[..], ecdh_secret.as_ref()].concat(),
                )
            } else {
                (
                    [ecdh_public.as_ref(), ek.as_slice()].concat(),
                    [ecdh_secret.as_ref(), &pq_secret[..]].concat(),
                )
            };
            assert_eq!(ch.as_ref(), &first[..], "{g:?} client share");
            assert_eq!(&ch.as_ref()[range], ecdh_public.as_ref(), "{g:?} classical part");
            assert_eq!(secret.as_ref(), &second[..], "{g:?} shared secret");
        }
    }

    #[test]
    #[cfg(all(feature = "mlkem", feature = "x25519", feature = "p256", feature = "p384"))]
    fn hybrid_shares_that_are_not_valid_are_refused() {
        let mut r = rng();
        let bad = Err(Error::PeerMisbehaved(PeerMisbehaved::InvalidKeyShare));
        for g in [
            NamedGroup::X25519MLKEM768,
            NamedGroup::SECP256R1MLKEM768,
            NamedGroup::SECP384R1MLKEM1024,
        ] {
            let client = KeyShare::keygen(g, &[], &mut r).unwrap();
            let ch = client.public().unwrap();
            let ch = ch.as_ref();
            let (sh, secret) = encapsulate(g, &[], &mut r, ch).unwrap();
            let sh = sh.as_ref();
            // Wrong lengths either way.
            for len in [0, 32, ch.len() - 1] {
                assert_eq!(encapsulate(g, &[], &mut r, &ch[..len]).map(|_| ()), bad, "{g:?} {len}");
            }
            let mut long = ch.to_vec();
            long.push(0);
            assert_eq!(encapsulate(g, &[], &mut r, &long).map(|_| ()), bad, "{g:?}");
            for len in [0, 32, sh.len() - 1] {
                assert_eq!(client.decapsulate(&sh[..len]).map(|_| ()), bad, "{g:?} {len}");
            }
            // An encapsulation key with a coefficient not below q (FIPS 203 §7.2).
            let (_, range) = client.classical_part().unwrap();
            let ek_at = if range.start == 0 { range.end } else { 0 };
            let mut c = ch.to_vec();
            c[ek_at] = 0xff;
            c[ek_at + 1] |= 0x0f;
            assert_eq!(encapsulate(g, &[], &mut r, &c).map(|_| ()), bad, "{g:?} ek");
            // A Diffie–Hellman part that is not a valid public value, either way.
            let mut c = ch.to_vec();
            c[range.clone()].fill(0);
            assert_eq!(encapsulate(g, &[], &mut r, &c).map(|_| ()), bad, "{g:?} ecdh");
            let ct_len = sh.len() - range.len();
            let server_ecdh = if range.start == 0 { 0..range.len() } else { ct_len..sh.len() };
            let mut s = sh.to_vec();
            s[server_ecdh].fill(0);
            assert_eq!(client.decapsulate(&s).map(|_| ()), bad, "{g:?} server ecdh");
            // A changed ciphertext decapsulates (implicit rejection) to another secret.
            let ct_at = if range.start == 0 { range.len() } else { 0 };
            let mut s = sh.to_vec();
            s[ct_at + 5] ^= 1;
            let other = client.decapsulate(&s).unwrap();
            assert_ne!(other.as_ref(), secret.as_ref(), "{g:?}");
            // Only the hybrid's own Diffie–Hellman group is taken besides the hybrid.
            let wrong = Err(Error::PeerMisbehaved(PeerMisbehaved::SelectedUnofferedParameter));
            assert_eq!(client.decapsulate_in(NamedGroup::SECP521R1, &[4; 133]).map(|_| ()), wrong);
            assert!(is_tls13_only(g));
        }
        assert!(!is_tls13_only(NamedGroup::X25519));
    }

    /// With every group: SecP384r1MLKEM1024's share (97 + 1568 bytes) and secret (48 + 32).
    #[test]
    #[cfg(all(
        feature = "x25519",
        feature = "p256",
        feature = "p384",
        feature = "p521",
        feature = "mlkem"
    ))]
    fn every_group_is_listed_and_sizes_the_frames() {
        assert_eq!(ALL_GROUPS.len(), 7);
        assert_eq!(CLASSICAL_GROUPS.len(), 4);
        assert_eq!((MAX_PUBLIC_LEN, MAX_SHARED_LEN), (1665, 80));
        assert!(!ALL_GROUPS.iter().any(|&g| is_left_out(g)));
    }

    #[test]
    fn names_round_trip() {
        for &g in ALL_GROUPS {
            assert_eq!(group_by_name(group_name(g).unwrap()), Some(g));
        }
        assert_eq!(group_by_name("x448"), None);
    }
}
