//! The RustCrypto `signature` 3 traits over Halite's RSA signatures (`rustcrypto` feature).
//!
//! A Halite key is not bound to a scheme or hash, and a `signature` signer is: these wrappers
//! bind one, as `rsa`'s `pkcs1v15::SigningKey<D>` and `pss::SigningKey<D>` do.
//! [`Pkcs1v15VerifyingKey`] and [`PssVerifyingKey`] implement `Verifier` everywhere;
//! [`Pkcs1v15SigningKey`] and [`PssSigningKey`] implement `Signer` with `std`, drawing the
//! blinding (and PSS's salt) from [`OsRandom`](crate::OsRandom). The signature is
//! [`Signature`], the modulus-length big-endian bytes in a fixed buffer (no allocator).

use core::fmt;

use signature::{SignatureEncoding, Verifier};

use crate::{HashAlg, PrivateKey, Pss, PublicKey};

/// An RSA signature: as many bytes as the modulus, big-endian (RFC 8017 §8.1.1, §8.2.1).
#[derive(Clone)]
pub struct Signature {
    bytes: [u8; crate::MAX_BITS / 8],
    len: usize,
}

impl Signature {
    /// The signature with these bytes (checked against a key's length when verified); longer
    /// than [`MAX_BITS`](crate::MAX_BITS) allows is [`Error::InvalidLength`](crate::Error::InvalidLength).
    pub fn from_slice(bytes: &[u8]) -> Result<Self, crate::Error> {
        let mut sig = Self { bytes: [0; crate::MAX_BITS / 8], len: bytes.len() };
        sig.bytes.get_mut(..bytes.len()).ok_or(crate::Error::InvalidLength)?.copy_from_slice(bytes);
        Ok(sig)
    }

    /// Signs into a fresh buffer with `sign`, which returns the length it wrote.
    #[cfg(feature = "std")]
    fn signed_with(
        sign: impl FnOnce(&mut [u8]) -> Result<usize, crate::Error>,
    ) -> Result<Self, signature::Error> {
        let mut sig = Self { bytes: [0; crate::MAX_BITS / 8], len: 0 };
        sig.len = sign(&mut sig.bytes).map_err(|_| signature::Error::new())?;
        Ok(sig)
    }
}

impl AsRef<[u8]> for Signature {
    fn as_ref(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl PartialEq for Signature {
    fn eq(&self, other: &Self) -> bool {
        self.as_ref() == other.as_ref()
    }
}

impl Eq for Signature {}

impl fmt::Debug for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Signature(")?;
        for b in self.as_ref() {
            write!(f, "{b:02x}")?;
        }
        f.write_str(")")
    }
}

impl TryFrom<&[u8]> for Signature {
    type Error = crate::Error;

    fn try_from(bytes: &[u8]) -> Result<Self, crate::Error> {
        Self::from_slice(bytes)
    }
}

impl SignatureEncoding for Signature {
    type Repr = Self;
}

/// An RSA private key signing RSASSA-PKCS1-v1_5 (RFC 8017 §8.2) with one hash.
pub struct Pkcs1v15SigningKey {
    key: PrivateKey,
    hash: HashAlg,
}

/// An RSA public key verifying RSASSA-PKCS1-v1_5 (RFC 8017 §8.2) with one hash.
#[derive(Clone)]
pub struct Pkcs1v15VerifyingKey {
    key: PublicKey,
    hash: HashAlg,
}

/// An RSA private key signing RSASSA-PSS (RFC 8017 §8.1) with one set of parameters.
pub struct PssSigningKey {
    key: PrivateKey,
    pss: Pss,
}

/// An RSA public key verifying RSASSA-PSS (RFC 8017 §8.1) with one set of parameters.
#[derive(Clone)]
pub struct PssVerifyingKey {
    key: PublicKey,
    pss: Pss,
}

impl Pkcs1v15SigningKey {
    /// `key` signing with `hash` (SHA-1 is refused when signing).
    pub fn new(key: PrivateKey, hash: HashAlg) -> Self {
        Self { key, hash }
    }

    /// The key that verifies this one's signatures.
    pub fn verifying_key(&self) -> Pkcs1v15VerifyingKey {
        Pkcs1v15VerifyingKey { key: self.key.public_key(), hash: self.hash }
    }
}

impl Pkcs1v15VerifyingKey {
    /// `key` verifying with `hash`.
    pub fn new(key: PublicKey, hash: HashAlg) -> Self {
        Self { key, hash }
    }
}

impl PssSigningKey {
    /// `key` signing with `pss`.
    pub fn new(key: PrivateKey, pss: Pss) -> Self {
        Self { key, pss }
    }

    /// The key that verifies this one's signatures, with the same parameters.
    pub fn verifying_key(&self) -> PssVerifyingKey {
        PssVerifyingKey { key: self.key.public_key(), pss: self.pss }
    }
}

impl PssVerifyingKey {
    /// `key` verifying with `pss`.
    pub fn new(key: PublicKey, pss: Pss) -> Self {
        Self { key, pss }
    }
}

#[cfg(feature = "std")]
impl signature::Signer<Signature> for Pkcs1v15SigningKey {
    fn try_sign(&self, msg: &[u8]) -> Result<Signature, signature::Error> {
        Signature::signed_with(|out| {
            self.key.sign_pkcs1v15(self.hash, msg, &mut crate::OsRandom, out)
        })
    }
}

#[cfg(feature = "std")]
impl signature::Signer<Signature> for PssSigningKey {
    fn try_sign(&self, msg: &[u8]) -> Result<Signature, signature::Error> {
        Signature::signed_with(|out| self.key.sign_pss(self.pss, msg, &mut crate::OsRandom, out))
    }
}

impl Verifier<Signature> for Pkcs1v15VerifyingKey {
    fn verify(&self, msg: &[u8], signature: &Signature) -> Result<(), signature::Error> {
        self.key
            .verify_pkcs1v15(self.hash, msg, signature.as_ref())
            .map_err(|_| signature::Error::new())
    }
}

impl Verifier<Signature> for PssVerifyingKey {
    fn verify(&self, msg: &[u8], signature: &Signature) -> Result<(), signature::Error> {
        self.key.verify_pss(self.pss, msg, signature.as_ref()).map_err(|_| signature::Error::new())
    }
}
