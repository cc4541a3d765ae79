#![doc = include_str!("../README.md")]
#![no_std]
#![warn(missing_docs)]

#[cfg(feature = "std")]
extern crate std;

mod aead;
mod context;
mod kdf;
mod kem;
mod labeled;
mod nist;
mod x25519;

use core::fmt;

use core_hash::Hash;
use zeroize::Zeroize;

pub use aead::Aead;
pub use context::{Hpke, Mode, Psk, RecipientContext, SenderContext};
pub use core_aead::{Aes128Gcm, Aes256Gcm, ChaCha20Poly1305};
#[cfg(feature = "std")]
pub use core_hash::OsRandom;
pub use core_hash::RandomSource;
pub use kdf::{HkdfSha256, HkdfSha384, HkdfSha512, Kdf};
pub use kem::{Kem, SharedSecret};
pub use nist::{DhKemP256HkdfSha256, DhKemP384HkdfSha384, DhKemP521HkdfSha512};
pub use x25519::DhKemX25519HkdfSha256;

/// Why an HPKE operation was refused (RFC 9180 §5's errors, and this API's own). Nothing a
/// failed call wrote is to be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A public key or encapsulated key has the wrong length, or is not a valid point
    /// (`DeserializeError`, `ValidationError`).
    InvalidPublicKey,
    /// A private key has the wrong length or is out of range (`DeserializeError`).
    InvalidPrivateKey,
    /// A Diffie–Hellman result is unusable: X25519 with a low-order peer key gives all
    /// zeros (`ValidationError`, §7.1.4).
    InvalidSharedSecret,
    /// `DeriveKeyPair` found no NIST-curve scalar in range in 256 candidates
    /// (`DeriveKeyPairError`: for P-256, a chance of about 2^−8192).
    DeriveKeyPairFailed,
    /// A PSK mode was given an empty PSK or PSK identity (§5.1, `VerifyPSKInputs`).
    InvalidPsk,
    /// The context has sealed or opened its last message: its 64-bit sequence number would
    /// wrap (`MessageLimitReachedError`, §5.2). Set up a new context.
    MessageLimitReached,
    /// The ciphertext did not authenticate, or is shorter than a tag (`OpenError`). The
    /// output holds no plaintext.
    OpenFailed,
    /// An export, or a derivation's output, is longer than the KDF can give (255 hash
    /// lengths, §5.3).
    ExportTooLong,
    /// The AEAD refused the call for a reason other than authentication: an output buffer
    /// too small or a message too long.
    Aead(core_aead::Error),
    /// The random source failed while making an ephemeral key.
    RandomSource,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidPublicKey => f.write_str("invalid HPKE public key or encapsulated key"),
            Self::InvalidPrivateKey => f.write_str("invalid HPKE private key"),
            Self::InvalidSharedSecret => f.write_str("Diffie-Hellman result is all zeros"),
            Self::DeriveKeyPairFailed => f.write_str("no valid key pair derived from the seed"),
            Self::InvalidPsk => f.write_str("PSK modes need a non-empty PSK and PSK identity"),
            Self::MessageLimitReached => f.write_str("HPKE context's sequence numbers used up"),
            Self::OpenFailed => f.write_str("HPKE ciphertext did not authenticate"),
            Self::ExportTooLong => f.write_str("HPKE export longer than 255 hash lengths"),
            Self::Aead(e) => write!(f, "HPKE AEAD: {e}"),
            Self::RandomSource => f.write_str("random source failed"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}

/// A hash-length secret from the KDF (a KEM shared secret, an exporter secret), wiped on
/// drop.
pub struct Secret<H: Hash>(H::Output);

impl<H: Hash> Secret<H> {
    /// The secret's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        self.0.as_ref()
    }
}

impl<H: Hash> Drop for Secret<H> {
    fn drop(&mut self) {
        self.0.as_mut().zeroize();
    }
}

impl<H: Hash> fmt::Debug for Secret<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(..)")
    }
}

/// Two bytes, big-endian: I2OSP(n, 2).
const fn be16(n: u16) -> [u8; 2] {
    n.to_be_bytes()
}
