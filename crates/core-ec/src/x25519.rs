//! X25519 Diffie–Hellman (RFC 7748): the [`x25519`] function itself, and a [`SecretKey`] /
//! [`PublicKey`] pair whose public half comes from the fixed-base Edwards comb (faster than
//! the ladder on the base point) mapped to the Montgomery u-coordinate.
//!
//! ```
//! use core_ec::x25519::{PublicKey, SecretKey};
//!
//! let alice = SecretKey::from_bytes([0x11; 32]);
//! let bob = SecretKey::from_bytes([0x22; 32]);
//! let shared_a = alice.diffie_hellman(&bob.public_key()).unwrap();
//! let shared_b = bob.diffie_hellman(&alice.public_key()).unwrap();
//! assert_eq!(shared_a.as_bytes(), shared_b.as_bytes());
//!
//! // A low-order peer key gives the all-zero secret, which is refused.
//! let low_order = PublicKey::from_bytes([0; 32]);
//! assert_eq!(alice.diffie_hellman(&low_order).err(), Some(core_ec::Error::ZeroSharedSecret));
//! ```

use core::fmt;

use subtle::ConstantTimeEq;
use zeroize::Zeroize;

use crate::curve25519::{ladder, with_field, with_mul_base};
use crate::{Error, RandomSource};

pub use crate::curve25519::FieldImpl;

/// Bytes in a scalar, a u-coordinate and a shared secret.
pub const KEY_LEN: usize = 32;

/// The u-coordinate of the Curve25519 base point, 9.
pub const BASEPOINT: [u8; 32] = {
    let mut b = [0; 32];
    b[0] = 9;
    b
};

/// The scalar clamped as RFC 7748 §5 says: the low three bits and bit 255 cleared, bit 254 set.
pub(crate) fn clamp(scalar: &[u8; 32]) -> [u8; 32] {
    let mut k = *scalar;
    k[0] &= 0xf8;
    k[31] &= 0x7f;
    k[31] |= 0x40;
    k
}

/// The X25519 function of RFC 7748 §5 on the best field implementation: `scalar` is clamped,
/// the top bit of `u` is ignored and values of `u` from p up are reduced. An all-zero result
/// (a low-order `u`) is [`Error::ZeroSharedSecret`], as §6.1 allows and TLS requires.
pub fn x25519(scalar: &[u8; 32], u: &[u8; 32]) -> Result<[u8; 32], Error> {
    x25519_with_impl(FieldImpl::preferred(), scalar, u)
}

/// [`x25519`] on the given field implementation.
pub fn x25519_with_impl(
    imp: FieldImpl,
    scalar: &[u8; 32],
    u: &[u8; 32],
) -> Result<[u8; 32], Error> {
    let mut k = clamp(scalar);
    let mut out = match imp {
        #[cfg(all(target_arch = "x86_64", feature = "asm"))]
        FieldImpl::X86Avx512Ifma(adx, ifma) => {
            crate::curve25519::x86_avx512_ifma::ladder(adx, ifma, &k, u)
        }
        _ => with_field!(imp, F => ladder::<F>(&k, u)),
    };
    k.zeroize();
    // Whether the result is zero is public (it says the peer's point has low order), and
    // declared so for the constant-time check.
    if core_hash::declassify(bool::from(out.ct_eq(&[0; 32]))) {
        out.zeroize();
        return Err(Error::ZeroSharedSecret);
    }
    Ok(out)
}

/// An X25519 private key: 32 secret bytes (clamped when used), wiped on drop.
#[derive(Clone)]
pub struct SecretKey {
    bytes: [u8; 32],
    imp: FieldImpl,
}

impl SecretKey {
    /// The key with these bytes, on the best field implementation.
    pub fn from_bytes(bytes: [u8; 32]) -> Self {
        Self { bytes, imp: FieldImpl::preferred() }
    }

    /// A fresh key from `rng`.
    pub fn generate<R: RandomSource + ?Sized>(rng: &mut R) -> Result<Self, Error> {
        let mut bytes = [0; 32];
        if rng.fill(&mut bytes).is_err() {
            bytes.zeroize();
            return Err(Error::RandomSource);
        }
        Ok(Self::from_bytes(bytes))
    }

    /// The same key on the given field implementation.
    #[must_use]
    pub fn with_impl(mut self, imp: FieldImpl) -> Self {
        self.imp = imp;
        self
    }

    /// The field implementation this key computes with.
    pub fn implementation(&self) -> FieldImpl {
        self.imp
    }

    /// The secret bytes, as given (unclamped).
    pub fn to_bytes(&self) -> [u8; 32] {
        self.bytes
    }

    /// The public key `X25519(k, 9)`, computed as `k·B` on edwards25519 with the fixed-base
    /// comb and mapped to `u = (1 + y)/(1 − y)` (RFC 7748 §4.1): the same value, several
    /// times faster than the ladder.
    pub fn public_key(&self) -> PublicKey {
        let mut k = clamp(&self.bytes);
        let u = with_mul_base!(self.imp, &k, p => p.montgomery_u());
        k.zeroize();
        PublicKey(u)
    }

    /// The shared secret with `peer`: [`Error::ZeroSharedSecret`] if the peer's key has low
    /// order.
    pub fn diffie_hellman(&self, peer: &PublicKey) -> Result<SharedSecret, Error> {
        x25519_with_impl(self.imp, &self.bytes, &peer.0).map(SharedSecret)
    }
}

/// Bytes in the PKCS#8 DER [`SecretKey::to_pkcs8_der`] writes (RFC 8410 §7, version 1 without
/// the public key, as OpenSSL writes it).
pub const PKCS8_DER_LEN: usize = crate::encoding::CURVE25519_PKCS8_LEN;
/// Bytes in the PEM [`SecretKey::to_pkcs8_pem`] writes.
pub const PKCS8_PEM_LEN: usize =
    core_der::pem::encoded_len(crate::encoding::PKCS8_LABEL, PKCS8_DER_LEN);
/// Bytes in the `SubjectPublicKeyInfo` DER [`PublicKey::to_public_key_der`] writes (RFC 8410 §4).
pub const PUBLIC_KEY_DER_LEN: usize = crate::encoding::CURVE25519_SPKI_LEN;
/// Bytes in the PEM [`PublicKey::to_public_key_pem`] writes.
pub const PUBLIC_KEY_PEM_LEN: usize =
    core_der::pem::encoded_len(crate::encoding::PUBLIC_KEY_LABEL, PUBLIC_KEY_DER_LEN);

/// Key encodings (RFC 8410): PKCS#8 DER and PEM.
impl SecretKey {
    /// Reads a PKCS#8 `PrivateKeyInfo`/`OneAsymmetricKey` holding an X25519 key: the
    /// 32-byte private key in an OCTET STRING (RFC 8410 §7); a public key beside it must
    /// match. A key of another kind is [`Error::WrongAlgorithm`] naming it.
    pub fn from_pkcs8_der(der: &[u8]) -> Result<Self, Error> {
        let (bytes, public) =
            crate::encoding::parse_curve25519_pkcs8(der, core_der::pkix::oid::X25519)?;
        let key = Self::from_bytes(*bytes);
        if public.is_some_and(|p| p != key.public_key().0) {
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
        crate::encoding::write_curve25519_pkcs8(&self.bytes, core_der::pkix::oid::X25519, out)
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
impl PublicKey {
    /// Reads a `SubjectPublicKeyInfo` holding an X25519 key (RFC 8410 §4, no parameters). A key
    /// of another kind is [`Error::WrongAlgorithm`] naming it.
    pub fn from_public_key_der(der: &[u8]) -> Result<Self, Error> {
        let bytes = crate::encoding::parse_curve25519_spki(der, core_der::pkix::oid::X25519)?;
        Ok(Self(*bytes))
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
        crate::encoding::write_curve25519_spki(&self.0, core_der::pkix::oid::X25519, out)
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

impl Drop for SecretKey {
    fn drop(&mut self) {
        self.bytes.zeroize();
    }
}

impl fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SecretKey").field("imp", &self.imp).finish_non_exhaustive()
    }
}

/// An X25519 public key: a u-coordinate as 32 little-endian bytes. Every 32-byte value is
/// accepted (RFC 7748 §5); low-order ones are caught when they give a zero shared secret.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PublicKey([u8; 32]);

impl PublicKey {
    /// The key with these bytes.
    pub const fn from_bytes(bytes: [u8; 32]) -> Self {
        Self(bytes)
    }

    /// The key from a slice, which must be 32 bytes long.
    pub fn from_slice(bytes: &[u8]) -> Result<Self, Error> {
        bytes.try_into().map(Self).map_err(|_| Error::InvalidLength)
    }

    /// The 32 bytes.
    pub const fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

impl From<[u8; 32]> for PublicKey {
    fn from(bytes: [u8; 32]) -> Self {
        Self(bytes)
    }
}

/// A Diffie–Hellman result, never all-zero, wiped on drop.
pub struct SharedSecret([u8; 32]);

impl SharedSecret {
    /// The 32 bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

impl Drop for SharedSecret {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

impl fmt::Debug for SharedSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SharedSecret(..)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Implementation;
    use hex_literal::hex;

    #[test]
    fn public_key_from_comb_matches_ladder() {
        for imp in FieldImpl::ALL.iter().filter_map(|n| FieldImpl::by_name(n)) {
            for seed in 0..16u8 {
                let sk = SecretKey::from_bytes([seed.wrapping_mul(77) ^ 0xa5; 32]).with_impl(imp);
                let via_ladder = x25519_with_impl(imp, &sk.to_bytes(), &BASEPOINT).unwrap();
                assert_eq!(sk.public_key().as_bytes(), &via_ladder, "{imp:?} {seed}");
            }
        }
    }

    #[test]
    fn rfc7748_first_vector_on_every_impl() {
        let k = hex!("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4");
        let u = hex!("e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c");
        let want = hex!("c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552");
        for imp in FieldImpl::ALL.iter().filter_map(|n| FieldImpl::by_name(n)) {
            assert_eq!(x25519_with_impl(imp, &k, &u), Ok(want), "{imp:?}");
        }
    }
}
