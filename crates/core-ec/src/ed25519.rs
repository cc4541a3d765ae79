//! Ed25519 signatures (RFC 8032 §5.1) with SHA-512 from `core-hash`: deterministic signing on
//! the constant-time fixed-base comb, and strict variable-time verification.
//!
//! Verification rules, chosen to match `ed25519-dalek`'s `verify_strict` and Wycheproof's
//! `eddsa` expectations:
//!
//! - `S` must be below the group order L (RFC 8032 §5.1.7, no malleability);
//! - `A` and `R` must be canonical encodings of curve points (`y` below p, no `x = 0` with the
//!   sign bit set), decoded as §5.1.3 says;
//! - `A` and `R` must not have small order (1, 2, 4 or 8): a key or commitment in the torsion
//!   subgroup would let one signature verify for many messages or keys;
//! - the equation is the cofactorless `[S]B = R + [k]A`, checked as
//!   `encode([S]B − [k]A) == R` — with the two rules above, cofactored and cofactorless
//!   verification agree on everything except signatures built on purpose with a torsion
//!   component in `A`… which are already refused.
//!
//! ```
//! use core_ec::ed25519::{Signature, SigningKey};
//!
//! let key = SigningKey::from_seed(&[7; 32]);
//! let sig = key.sign(b"hello");
//! let public = key.verifying_key();
//! assert!(public.verify(b"hello", &sig).is_ok());
//! assert_eq!(public.verify(b"hullo", &sig), Err(core_ec::Error::InvalidSignature));
//! let bytes = sig.to_bytes();
//! assert_eq!(Signature::from_slice(&bytes[..63]).err(), Some(core_ec::Error::InvalidLength));
//! ```

use core::fmt;

use core_hash::Sha512;
use zeroize::Zeroize;

use crate::curve25519::scalar::{is_canonical_vartime, mul_add, reduce_wide};
use crate::curve25519::{Point, with_mul_base};
use crate::{Error, RandomSource};

pub use crate::curve25519::FieldImpl;

/// Bytes in a seed (the private key of RFC 8032).
pub const SEED_LEN: usize = 32;
/// Bytes in an encoded public key.
pub const PUBLIC_KEY_LEN: usize = 32;
/// Bytes in a signature, `R ‖ S`.
pub const SIGNATURE_LEN: usize = 64;

/// An Ed25519 signature: the encoded point `R` and the scalar `S`, little-endian.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Signature([u8; 64]);

impl Signature {
    /// The signature with these bytes (checked only when verified).
    pub const fn from_bytes(bytes: [u8; 64]) -> Self {
        Self(bytes)
    }

    /// The signature from a slice, which must be 64 bytes long.
    pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
        bytes.try_into().map(Self).map_err(|_| Error::InvalidLength)
    }

    /// The 64 bytes.
    pub const fn to_bytes(&self) -> [u8; 64] {
        self.0
    }

    fn r(&self) -> [u8; 32] {
        let mut r = [0; 32];
        r.copy_from_slice(&self.0[..32]);
        r
    }

    fn s(&self) -> [u8; 32] {
        let mut s = [0; 32];
        s.copy_from_slice(&self.0[32..]);
        s
    }
}

impl fmt::Debug for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Signature(")?;
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        f.write_str(")")
    }
}

/// `SHA-512(parts…)`.
fn sha512(parts: &[&[u8]]) -> [u8; 64] {
    let mut h = Sha512::new();
    for p in parts {
        h.update(p);
    }
    h.finalize()
}

/// An Ed25519 private key: the seed, the secret scalar and the nonce prefix derived from it
/// (RFC 8032 §5.1.5), all wiped on drop, and the public key.
#[derive(Clone)]
pub struct SigningKey {
    seed: [u8; 32],
    /// The clamped scalar reduced modulo L (the same multiple of B, and usable in `mul_add`).
    scalar: [u8; 32],
    prefix: [u8; 32],
    public: VerifyingKey,
}

impl SigningKey {
    /// The key for this seed, on the best field implementation.
    pub fn from_seed(seed: &[u8; 32]) -> Self {
        Self::from_seed_with_impl(seed, FieldImpl::preferred())
    }

    /// The key for this seed, computing with the given field implementation.
    pub fn from_seed_with_impl(seed: &[u8; 32], imp: FieldImpl) -> Self {
        let mut h = sha512(&[seed]);
        h[0] &= 0xf8;
        h[31] &= 0x7f;
        h[31] |= 0x40;
        let mut wide = [0u8; 64];
        wide[..32].copy_from_slice(&h[..32]);
        let scalar = reduce_wide(&wide);
        let mut prefix = [0; 32];
        prefix.copy_from_slice(&h[32..]);
        h.zeroize();
        wide.zeroize();
        // The public key is public: declared so for the constant-time check, before it is
        // decoded (which branches on it).
        let a = core_hash::declassify(with_mul_base!(imp, &scalar, p => p.encode()));
        // A = scalar·B has large order: the scalar is a nonzero multiple of 8 below 2^255,
        // reduced modulo L, so it is not zero.
        let neg_a = NegA::decode(&a, imp).unwrap_or(NegA::Weak);
        Self { seed: *seed, scalar, prefix, public: VerifyingKey { bytes: a, imp, neg_a } }
    }

    /// A fresh key from `rng`.
    pub fn generate<R: RandomSource + ?Sized>(rng: &mut R) -> Result<Self, Error> {
        let mut seed = [0; 32];
        if rng.fill(&mut seed).is_err() {
            seed.zeroize();
            return Err(Error::RandomSource);
        }
        let key = Self::from_seed(&seed);
        seed.zeroize();
        Ok(key)
    }

    /// The same key computing with the given field implementation.
    #[must_use]
    pub fn with_impl(mut self, imp: FieldImpl) -> Self {
        self.public = self.public.with_impl(imp);
        self
    }

    /// The field implementation this key computes with.
    pub fn implementation(&self) -> FieldImpl {
        self.public.imp
    }

    /// The seed this key was made from.
    pub fn seed(&self) -> &[u8; 32] {
        &self.seed
    }

    /// The key for these 32 secret bytes (the RFC 8032 seed): the same as
    /// [`from_seed`](Self::from_seed), named as on every key type.
    pub fn from_bytes(bytes: &[u8; 32]) -> Self {
        Self::from_seed(bytes)
    }

    /// The 32 secret bytes (the seed) that [`from_bytes`](Self::from_bytes) takes back.
    pub fn to_bytes(&self) -> [u8; 32] {
        self.seed
    }

    /// The 32 secret bytes (the seed), borrowed.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.seed
    }

    /// The public key.
    pub fn verifying_key(&self) -> VerifyingKey {
        self.public
    }

    /// The public key: the same as [`verifying_key`](Self::verifying_key), named as on every
    /// key type.
    pub fn public_key(&self) -> VerifyingKey {
        self.public
    }

    /// The deterministic signature of `msg` (RFC 8032 §5.1.6).
    pub fn sign(&self, msg: &[u8]) -> Signature {
        let imp = self.public.imp;
        let mut nonce_hash = sha512(&[&self.prefix, msg]);
        let mut r = reduce_wide(&nonce_hash);
        let big_r = with_mul_base!(imp, &r, p => p.encode());
        let k = reduce_wide(&sha512(&[&big_r, &self.public.bytes, msg]));
        let s = mul_add(&k, &self.scalar, &r);
        nonce_hash.zeroize();
        r.zeroize();
        let mut sig = [0; 64];
        sig[..32].copy_from_slice(&big_r);
        sig[32..].copy_from_slice(&s);
        Signature(sig)
    }
}

/// Bytes in the PKCS#8 DER [`SigningKey::to_pkcs8_der`] writes (RFC 8410 §7, version 1 without
/// the public key, as OpenSSL writes it).
pub const PKCS8_DER_LEN: usize = crate::encoding::CURVE25519_PKCS8_LEN;
/// Bytes in the PEM [`SigningKey::to_pkcs8_pem`] writes.
pub const PKCS8_PEM_LEN: usize =
    core_der::pem::encoded_len(crate::encoding::PKCS8_LABEL, PKCS8_DER_LEN);
/// Bytes in the `SubjectPublicKeyInfo` DER [`VerifyingKey::to_public_key_der`] writes (RFC 8410 §4).
pub const PUBLIC_KEY_DER_LEN: usize = crate::encoding::CURVE25519_SPKI_LEN;
/// Bytes in the PEM [`VerifyingKey::to_public_key_pem`] writes.
pub const PUBLIC_KEY_PEM_LEN: usize =
    core_der::pem::encoded_len(crate::encoding::PUBLIC_KEY_LABEL, PUBLIC_KEY_DER_LEN);

/// Key encodings (RFC 8410): PKCS#8 DER and PEM.
impl SigningKey {
    /// Reads a PKCS#8 `PrivateKeyInfo`/`OneAsymmetricKey` holding an Ed25519 key: the
    /// 32-byte private key in an OCTET STRING (RFC 8410 §7); a public key beside it must
    /// match. A key of another kind is [`Error::WrongAlgorithm`] naming it.
    pub fn from_pkcs8_der(der: &[u8]) -> Result<Self, Error> {
        let (bytes, public) =
            crate::encoding::parse_curve25519_pkcs8(der, core_der::pkix::oid::ED25519)?;
        let key = Self::from_seed(bytes);
        if public.is_some_and(|p| p != key.public.bytes) {
            return Err(Error::InvalidEncoding);
        }
        Ok(key)
    }

    /// Reads the first `PRIVATE KEY` (PKCS#8) block of a PEM text.
    pub fn from_pkcs8_pem(text: &str) -> Result<Self, Error> {
        core_der::pem::read_key::<{ crate::encoding::MAX_DER }, _, _>(
            text,
            crate::encoding::PKCS8_LABEL,
            Self::from_pkcs8_der,
        )
    }

    /// Writes the key as PKCS#8 DER ([`PKCS8_DER_LEN`] bytes); returns the length. The
    /// output is secret.
    pub fn to_pkcs8_der(&self, out: &mut [u8]) -> Result<usize, Error> {
        crate::encoding::write_curve25519_pkcs8(&self.seed, core_der::pkix::oid::ED25519, out)
    }

    /// Writes the key as a `PRIVATE KEY` PEM block ([`PKCS8_PEM_LEN`] bytes) into `out`;
    /// returns the text. The output is secret.
    pub fn to_pkcs8_pem<'o>(&self, out: &'o mut [u8]) -> Result<&'o str, Error> {
        core_der::pem::write_key::<PKCS8_DER_LEN, _>(crate::encoding::PKCS8_LABEL, out, |b| {
            self.to_pkcs8_der(b)
        })
    }

    /// [`to_pkcs8_pem`](Self::to_pkcs8_pem) into a new `String`, wiped on drop.
    #[cfg(feature = "alloc")]
    pub fn to_pkcs8_pem_string(&self) -> Result<zeroize::Zeroizing<alloc::string::String>, Error> {
        core_der::pem::encode_string_with::<PKCS8_DER_LEN, _>(crate::encoding::PKCS8_LABEL, |b| {
            self.to_pkcs8_der(b)
        })
    }
}

/// Key encodings (RFC 8410): `SubjectPublicKeyInfo` DER and PEM.
impl VerifyingKey {
    /// Reads a `SubjectPublicKeyInfo` holding an Ed25519 key (RFC 8410 §4, no parameters). A key
    /// of another kind is [`Error::WrongAlgorithm`] naming it.
    pub fn from_public_key_der(der: &[u8]) -> Result<Self, Error> {
        let bytes = crate::encoding::parse_curve25519_spki(der, core_der::pkix::oid::ED25519)?;
        Self::from_bytes(bytes)
    }

    /// Reads the first `PUBLIC KEY` block of a PEM text.
    pub fn from_public_key_pem(text: &str) -> Result<Self, Error> {
        core_der::pem::read_key::<{ crate::encoding::MAX_DER }, _, _>(
            text,
            crate::encoding::PUBLIC_KEY_LABEL,
            Self::from_public_key_der,
        )
    }

    /// Writes the `SubjectPublicKeyInfo` DER ([`PUBLIC_KEY_DER_LEN`] bytes); returns the
    /// length.
    pub fn to_public_key_der(&self, out: &mut [u8]) -> Result<usize, Error> {
        crate::encoding::write_curve25519_spki(&self.bytes, core_der::pkix::oid::ED25519, out)
    }

    /// Writes a `PUBLIC KEY` PEM block ([`PUBLIC_KEY_PEM_LEN`] bytes) into `out`; returns
    /// the text.
    pub fn to_public_key_pem<'o>(&self, out: &'o mut [u8]) -> Result<&'o str, Error> {
        core_der::pem::write_key::<PUBLIC_KEY_DER_LEN, _>(
            crate::encoding::PUBLIC_KEY_LABEL,
            out,
            |b| self.to_public_key_der(b),
        )
    }

    /// [`to_public_key_pem`](Self::to_public_key_pem) into a new `String`.
    #[cfg(feature = "alloc")]
    pub fn to_public_key_pem_string(&self) -> Result<alloc::string::String, Error> {
        core_der::pem::encode_string_with::<PUBLIC_KEY_DER_LEN, _>(
            crate::encoding::PUBLIC_KEY_LABEL,
            |b| self.to_public_key_der(b),
        )
        .map(|s| alloc::string::String::clone(&s))
    }
}

impl Drop for SigningKey {
    fn drop(&mut self) {
        self.seed.zeroize();
        self.scalar.zeroize();
        self.prefix.zeroize();
    }
}

impl fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SigningKey").field("public", &self.public).finish_non_exhaustive()
    }
}

/// An Ed25519 public key: a canonical point encoding, kept with `−A` decoded in the field
/// implementation's representation so that verification does not decode it again.
#[derive(Clone, Copy)]
pub struct VerifyingKey {
    bytes: [u8; 32],
    imp: FieldImpl,
    neg_a: NegA,
}

/// `−A` in the representation of one field implementation.
#[derive(Clone, Copy)]
// Only `Weak` is small, and it is the rare case; there is no allocator to box the points into.
#[allow(clippy::large_enum_variant)]
enum NegA {
    #[cfg(all(target_arch = "x86_64", feature = "asm"))]
    X86Adx(Point<crate::curve25519::x86_adx::Fe>),
    #[cfg(target_pointer_width = "64")]
    Portable64(Point<crate::curve25519::portable64::Fe>),
    #[cfg(all(target_arch = "arm", feature = "asm"))]
    Thumb1(Point<crate::curve25519::thumb1::Fe>),
    #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
    Portable32(Point<crate::curve25519::portable32::Fe>),
    /// `A` has small order: nothing verifies.
    Weak,
}

impl NegA {
    /// `−A` for the encoding `bytes` on `imp`, or `None` if it is not a canonical point
    /// encoding.
    ///
    /// Inlined down to the variant it builds, like [`VerifyingKey::verify`]'s dispatch: where
    /// the key is a local, the variants of the fields not chosen are then dead code and their
    /// fields are not linked (on the Cortex-M0, `portable32` beside `thumb1`).
    #[inline]
    fn decode(bytes: &[u8; 32], imp: FieldImpl) -> Option<Self> {
        #[inline]
        fn with<F: crate::curve25519::Field>(
            bytes: &[u8; 32],
            wrap: fn(Point<F>) -> NegA,
        ) -> Option<NegA> {
            let a = Point::<F>::decode(bytes)?;
            Some(if a.is_small_order() { NegA::Weak } else { wrap(a.neg()) })
        }
        match imp {
            #[cfg(all(target_arch = "x86_64", feature = "asm"))]
            FieldImpl::X86Adx(_) | FieldImpl::X86Avx512Ifma(..) => with(bytes, NegA::X86Adx),
            #[cfg(target_pointer_width = "64")]
            FieldImpl::Portable64 => with(bytes, NegA::Portable64),
            #[cfg(all(target_arch = "arm", feature = "asm"))]
            FieldImpl::Thumb1 => with(bytes, NegA::Thumb1),
            #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
            FieldImpl::Portable32 => with(bytes, NegA::Portable32),
        }
    }
}

impl PartialEq for VerifyingKey {
    fn eq(&self, other: &Self) -> bool {
        self.bytes == other.bytes && self.imp == other.imp
    }
}

impl Eq for VerifyingKey {}

impl VerifyingKey {
    /// The key with this encoding, on the best field implementation:
    /// [`Error::InvalidEncoding`] unless it is the canonical encoding of a curve point. A
    /// small-order point decodes, but no signature verifies under it (see the module notes).
    #[inline]
    pub fn from_bytes(bytes: &[u8; 32]) -> Result<Self, Error> {
        Self::from_bytes_with_impl(bytes, FieldImpl::preferred())
    }

    /// [`VerifyingKey::from_bytes`] on the given field implementation.
    #[inline]
    pub fn from_bytes_with_impl(bytes: &[u8; 32], imp: FieldImpl) -> Result<Self, Error> {
        let neg_a = NegA::decode(bytes, imp).ok_or(Error::InvalidEncoding)?;
        Ok(Self { bytes: *bytes, imp, neg_a })
    }

    /// The key from a slice, which must be 32 bytes long.
    pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
        let bytes: &[u8; 32] = bytes.try_into().map_err(|_| Error::InvalidLength)?;
        Self::from_bytes(bytes)
    }

    /// The same key computing with the given field implementation.
    #[must_use]
    pub fn with_impl(mut self, imp: FieldImpl) -> Self {
        self.imp = imp;
        // The encoding decoded before, and decodes the same way on every implementation.
        self.neg_a = NegA::decode(&self.bytes, imp).unwrap_or(NegA::Weak);
        self
    }

    /// The 32-byte encoding.
    pub const fn to_bytes(&self) -> [u8; 32] {
        self.bytes
    }

    /// Whether the key has small order (is in the torsion subgroup): no signature verifies
    /// under such a key.
    pub fn is_weak(&self) -> bool {
        matches!(self.neg_a, NegA::Weak)
    }

    /// Strict verification of `sig` on `msg` (RFC 8032 §5.1.7 plus the rules in the module
    /// notes): [`Error::InvalidSignature`] for every kind of failure. Variable-time: it
    /// handles only public data.
    ///
    /// Inline, down to the dispatch on the decoded key (see `NegA::decode`).
    #[inline]
    pub fn verify(&self, msg: &[u8], sig: &Signature) -> Result<(), Error> {
        let (r, s, k) = self.challenge(msg, sig).ok_or(Error::InvalidSignature)?;
        let ok = match &self.neg_a {
            #[cfg(all(target_arch = "x86_64", feature = "asm"))]
            NegA::X86Adx(neg_a) => match self.imp {
                FieldImpl::X86Avx512Ifma(adx, ifma) => verify_with(&r, || {
                    crate::curve25519::x86_avx512_ifma::double_mul_base_vartime(
                        adx, ifma, neg_a, &k, &s,
                    )
                }),
                _ => verify_vartime(neg_a, &r, &s, &k),
            },
            #[cfg(target_pointer_width = "64")]
            NegA::Portable64(neg_a) => verify_vartime(neg_a, &r, &s, &k),
            #[cfg(all(target_arch = "arm", feature = "asm"))]
            NegA::Thumb1(neg_a) => verify_vartime(neg_a, &r, &s, &k),
            #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
            NegA::Portable32(neg_a) => verify_vartime(neg_a, &r, &s, &k),
            NegA::Weak => false,
        };
        if ok { Ok(()) } else { Err(Error::InvalidSignature) }
    }
}

impl VerifyingKey {
    /// `(R, S, k)` of a signature whose `S` is canonical (below L), with the challenge
    /// `k = SHA-512(R ‖ A ‖ msg) mod L`; `None` otherwise.
    fn challenge(&self, msg: &[u8], sig: &Signature) -> Option<([u8; 32], [u8; 32], [u8; 32])> {
        let (r, s) = (sig.r(), sig.s());
        if !is_canonical_vartime(&s) {
            return None;
        }
        Some((r, s, reduce_wide(&sha512(&[&r, &self.bytes, msg]))))
    }
}

/// The canonical encodings of the eight points of small order (the torsion subgroup). `R` is
/// compared as bytes with a canonical encoding, so a non-canonical `R` never verifies and a
/// small-order `R` is exactly one of these: refusing them saves decoding `R`.
const SMALL_ORDER: [[u8; 32]; 8] = {
    const fn y(lo: u8, mid: [u8; 30], hi: u8) -> [u8; 32] {
        let mut b = [0u8; 32];
        b[0] = lo;
        let mut i = 0;
        while i < 30 {
            b[i + 1] = mid[i];
            i += 1;
        }
        b[31] = hi;
        b
    }
    const Y8: [u8; 30] = [
        0x17, 0x6a, 0x70, 0x3d, 0x4d, 0xd8, 0x4f, 0xba, 0x3c, 0x0b, 0x76, 0x0d, 0x10, 0x67, 0x0f,
        0x2a, 0x20, 0x53, 0xfa, 0x2c, 0x39, 0xcc, 0xc6, 0x4e, 0xc7, 0xfd, 0x77, 0x92, 0xac, 0x03,
    ];
    const Y8_NEG: [u8; 30] = [
        0xe8, 0x95, 0x8f, 0xc2, 0xb2, 0x27, 0xb0, 0x45, 0xc3, 0xf4, 0x89, 0xf2, 0xef, 0x98, 0xf0,
        0xd5, 0xdf, 0xac, 0x05, 0xd3, 0xc6, 0x33, 0x39, 0xb1, 0x38, 0x02, 0x88, 0x6d, 0x53, 0xfc,
    ];
    [
        y(1, [0; 30], 0),          // (0, 1), the identity
        y(0xec, [0xff; 30], 0x7f), // (0, −1), order 2
        y(0, [0; 30], 0),          // (sqrt(−1), 0), order 4
        y(0, [0; 30], 0x80),       // (−sqrt(−1), 0), order 4
        y(0xc7, Y8, 0x7a),         // order 8
        y(0xc7, Y8, 0xfa),
        y(0x26, Y8_NEG, 0x05),
        y(0x26, Y8_NEG, 0x85),
    ]
};

/// The group check of [`VerifyingKey::verify`] for `S` already known to be below L and `A`
/// of large order: `R` is not a small-order encoding, and `[S]B − [k]A` encodes to `R`.
#[inline(never)]
fn verify_vartime<F: crate::curve25519::Field>(
    neg_a: &Point<F>,
    r: &[u8; 32],
    s: &[u8; 32],
    k: &[u8; 32],
) -> bool {
    verify_with(r, || neg_a.double_mul_base_vartime(k, s))
}

/// The tail of [`verify_vartime`] with `[S]B − [k]A` computed by `r_check`.
fn verify_with<F: crate::curve25519::Field>(
    r: &[u8; 32],
    r_check: impl FnOnce() -> Point<F>,
) -> bool {
    !SMALL_ORDER.contains(r) && r_check().encode_vartime() == *r
}

impl fmt::Debug for VerifyingKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("VerifyingKey(")?;
        for b in self.bytes {
            write!(f, "{b:02x}")?;
        }
        f.write_str(")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Implementation;
    use crate::curve25519::with_field;

    /// The list holds eight distinct canonical encodings of small-order points.
    #[test]
    fn small_order_list_is_the_torsion_subgroup() {
        for imp in FieldImpl::ALL.iter().filter_map(|n| FieldImpl::by_name(n)) {
            for (i, enc) in SMALL_ORDER.iter().enumerate() {
                let ok = with_field!(imp, F => Point::<F>::decode(enc)
                    .is_some_and(|p| p.is_small_order() && p.encode() == *enc));
                assert!(ok, "{imp:?} entry {i}");
                assert!(!SMALL_ORDER[..i].contains(enc), "entry {i} repeated");
            }
        }
    }
}
