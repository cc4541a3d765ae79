//! RSA keys in PEM (RFC 7468): PKCS#8 `PRIVATE KEY`, PKCS#1 `RSA PRIVATE KEY`, SPKI
//! `PUBLIC KEY` and PKCS#1 `RSA PUBLIC KEY`, read with no scratch from the caller (the DER is
//! decoded on the stack and wiped) and written into the caller's buffer, through
//! `core-der`'s codec (`read_key`/`write_key`, with this crate's [`Error`] as their
//! `KeyPemError`).

use core_der::PemError;
#[cfg(feature = "alloc")]
use core_der::pem::encode_string_with;
use core_der::pem::{KeyPemError, read_key, write_key};

use crate::key::{
    MAX_PKCS1_DER_LEN, MAX_PKCS1_PUBLIC_DER_LEN, MAX_PKCS8_DER_LEN, MAX_PUBLIC_KEY_DER_LEN,
};
use crate::{Error, MontImpl, PrivateKey, PublicKey};

/// PEM label of a PKCS#8 private key.
pub(crate) const PKCS8: &str = "PRIVATE KEY";
/// PEM label of a PKCS#1 `RSAPrivateKey`.
pub(crate) const PKCS1: &str = "RSA PRIVATE KEY";
/// PEM label of a `SubjectPublicKeyInfo`.
pub(crate) const PUBLIC_KEY: &str = "PUBLIC KEY";
/// PEM label of a PKCS#1 `RSAPublicKey`.
pub(crate) const PKCS1_PUBLIC: &str = "RSA PUBLIC KEY";

/// A PEM block longer than any key here is [`Error::UnsupportedKeySize`].
impl KeyPemError for Error {
    fn too_long() -> Self {
        Self::UnsupportedKeySize
    }
    fn buffer_too_small() -> Self {
        Self::BufferTooSmall
    }
    fn pem(e: PemError) -> Self {
        Self::Pem(e)
    }
}

/// PEM forms of the public key.
impl PublicKey {
    /// Reads a `SubjectPublicKeyInfo` (as [`from_spki_der`](Self::from_spki_der)).
    pub fn from_public_key_der(der: &[u8]) -> Result<Self, Error> {
        Self::from_spki_der(der)
    }

    /// Reads the first `PUBLIC KEY` block of a PEM text (rsaEncryption or id-RSASSA-PSS).
    pub fn from_public_key_pem(text: &str) -> Result<Self, Error> {
        read_key::<MAX_PUBLIC_KEY_DER_LEN, _, _>(text, PUBLIC_KEY, Self::from_spki_der)
    }

    /// Reads the first `RSA PUBLIC KEY` (PKCS#1) block of a PEM text.
    pub fn from_pkcs1_pem(text: &str) -> Result<Self, Error> {
        read_key::<MAX_PKCS1_PUBLIC_DER_LEN, _, _>(text, PKCS1_PUBLIC, Self::from_pkcs1_der)
    }

    /// Writes the `SubjectPublicKeyInfo` DER (as [`to_spki_der`](Self::to_spki_der)); at
    /// most [`crate::MAX_PUBLIC_KEY_DER_LEN`] bytes.
    pub fn to_public_key_der(&self, out: &mut [u8]) -> Result<usize, Error> {
        self.to_spki_der(out)
    }

    /// Writes a `PUBLIC KEY` PEM block into `out` (at most
    /// [`crate::MAX_PUBLIC_KEY_PEM_LEN`] bytes); returns the text.
    pub fn to_public_key_pem<'o>(&self, out: &'o mut [u8]) -> Result<&'o str, Error> {
        write_key::<MAX_PUBLIC_KEY_DER_LEN, _>(PUBLIC_KEY, out, |b| self.to_spki_der(b))
    }

    /// Writes an `RSA PUBLIC KEY` (PKCS#1) PEM block into `out` (at most
    /// [`crate::MAX_PKCS1_PUBLIC_PEM_LEN`] bytes); returns the text.
    pub fn to_pkcs1_pem<'o>(&self, out: &'o mut [u8]) -> Result<&'o str, Error> {
        write_key::<MAX_PKCS1_PUBLIC_DER_LEN, _>(PKCS1_PUBLIC, out, |b| self.to_pkcs1_der(b))
    }

    /// [`to_public_key_pem`](Self::to_public_key_pem) into a new `String`.
    #[cfg(feature = "alloc")]
    pub fn to_public_key_pem_string(&self) -> Result<alloc::string::String, Error> {
        encode_string_with::<MAX_PUBLIC_KEY_DER_LEN, _>(PUBLIC_KEY, |b| self.to_spki_der(b))
            .map(|s| alloc::string::String::clone(&s))
    }
}

/// PEM forms of the private key.
impl PrivateKey {
    /// Reads the first `PRIVATE KEY` (PKCS#8) block of a PEM text (rsaEncryption or
    /// id-RSASSA-PSS).
    pub fn from_pkcs8_pem(text: &str) -> Result<Self, Error> {
        read_key::<MAX_PKCS8_DER_LEN, _, _>(text, PKCS8, Self::from_pkcs8_der)
    }

    /// The same on a chosen implementation.
    pub fn from_pkcs8_pem_with_impl(text: &str, imp: MontImpl) -> Result<Self, Error> {
        read_key::<MAX_PKCS8_DER_LEN, _, _>(text, PKCS8, |der| {
            Self::from_pkcs8_der_with_impl(der, imp)
        })
    }

    /// Reads the first `RSA PRIVATE KEY` (PKCS#1) block of a PEM text, as
    /// `openssl genrsa -traditional` or `openssl pkey -traditional` writes it.
    pub fn from_pkcs1_pem(text: &str) -> Result<Self, Error> {
        read_key::<MAX_PKCS1_DER_LEN, _, _>(text, PKCS1, Self::from_pkcs1_der)
    }

    /// Writes a `PRIVATE KEY` (PKCS#8) PEM block into `out` (at most
    /// [`crate::MAX_PKCS8_PEM_LEN`] bytes); returns the text. The output is
    /// secret.
    pub fn to_pkcs8_pem<'o>(&self, out: &'o mut [u8]) -> Result<&'o str, Error> {
        write_key::<MAX_PKCS8_DER_LEN, _>(PKCS8, out, |b| self.to_pkcs8_der(b))
    }

    /// Writes an `RSA PRIVATE KEY` (PKCS#1) PEM block into `out` (at most
    /// [`crate::MAX_PKCS1_PEM_LEN`] bytes); returns the text. The output is
    /// secret.
    pub fn to_pkcs1_pem<'o>(&self, out: &'o mut [u8]) -> Result<&'o str, Error> {
        write_key::<MAX_PKCS1_DER_LEN, _>(PKCS1, out, |b| self.to_pkcs1_der(b))
    }

    /// [`to_pkcs8_pem`](Self::to_pkcs8_pem) into a new `String`, wiped on drop.
    #[cfg(feature = "alloc")]
    pub fn to_pkcs8_pem_string(&self) -> Result<zeroize::Zeroizing<alloc::string::String>, Error> {
        encode_string_with::<MAX_PKCS8_DER_LEN, _>(PKCS8, |b| self.to_pkcs8_der(b))
    }

    /// [`to_pkcs1_pem`](Self::to_pkcs1_pem) into a new `String`, wiped on drop.
    #[cfg(feature = "alloc")]
    pub fn to_pkcs1_pem_string(&self) -> Result<zeroize::Zeroizing<alloc::string::String>, Error> {
        encode_string_with::<MAX_PKCS1_DER_LEN, _>(PKCS1, |b| self.to_pkcs1_der(b))
    }
}
