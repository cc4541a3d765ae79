#![doc = include_str!("../README.md")]
#![no_std]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

mod blinding;
mod der;
mod hash;
mod key;
#[cfg(feature = "keygen")]
mod keygen;
mod mont;
mod oaep;
mod pem;
mod pkcs1;
mod pss;
#[cfg(feature = "rustcrypto")]
pub mod rustcrypto;

use core::fmt;

pub use core_der::{KeyAlgorithm, PemError};
#[cfg(feature = "std")]
pub use core_hash::OsRandom;
pub use core_hash::{Implementation, RandomSource, Registered};
pub use der::PssKeyParams;
pub use hash::HashAlg;
pub use key::{
    MAX_PKCS1_DER_LEN, MAX_PKCS1_PEM_LEN, MAX_PKCS1_PUBLIC_DER_LEN, MAX_PKCS1_PUBLIC_PEM_LEN,
    MAX_PKCS8_DER_LEN, MAX_PKCS8_PEM_LEN, MAX_PUBLIC_KEY_DER_LEN, MAX_PUBLIC_KEY_PEM_LEN,
    MIN_PRIVATE_BITS, MIN_PUBLIC_BITS, PrivateKey, PublicKey,
};
pub use mont::{Modulus, MontImpl, modexp, modexp_vartime};
pub use oaep::Oaep;
pub use pss::Pss;

/// The largest modulus this crate handles, in bits: 8192, or less with one of the cap features
/// (`max-bits-4096`, `max-bits-2048`; the smallest enabled wins). Every number is a
/// fixed-capacity buffer of this size on the stack, so a cap is what lets a private key and
/// its working buffers fit a microcontroller's RAM (RSA-2048 signing in 16 KiB on the
/// Cortex-M0 needs `max-bits-2048`); larger keys are then refused with
/// [`Error::UnsupportedKeySize`] or [`Error::InvalidModulus`].
pub const MAX_BITS: usize = if cfg!(feature = "max-bits-2048") {
    2048
} else if cfg!(feature = "max-bits-4096") {
    4096
} else {
    8192
};

/// Every implementation in this crate, available on this CPU or not.
pub fn implementations() -> impl Iterator<Item = Registered> {
    core_hash::registered::<MontImpl>("rsa-mont")
}

/// Why an RSA or modular-arithmetic call was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A modulus is even, below 3, or longer than [`MAX_BITS`].
    InvalidModulus,
    /// An input or output buffer has the wrong length, or a number does not fit.
    InvalidLength,
    /// An output buffer is too small.
    BufferTooSmall,
    /// A number given to a raw RSA operation is not below the modulus.
    OutOfRange,
    /// The DER is malformed, or not in the one encoding DER allows.
    InvalidDer,
    /// The key is not an RSA key (an OID in SPKI/PKCS#8 for another algorithm): `found`
    /// names what it is.
    WrongAlgorithm {
        /// The kind of key the encoding holds.
        found: KeyAlgorithm,
    },
    /// A PEM text has no block with the label asked for, or malformed base64.
    Pem(PemError),
    /// The modulus size is outside what this key may be used for: 1024 bits and up for
    /// verification, 2048 and up for private keys and encryption, at most [`MAX_BITS`].
    UnsupportedKeySize,
    /// The public exponent is even, below 3, or longer than 64 bits.
    InvalidExponent,
    /// The private key's parameters are inconsistent (`n ≠ p·q`, CRT values wrong or out of
    /// range, primes of very different sizes).
    InvalidPrivateKey,
    /// The hash is not allowed here (SHA-1 for signing).
    UnsupportedHash,
    /// The message is too long for the key and padding.
    MessageTooLong,
    /// The signature did not verify.
    InvalidSignature,
    /// Decryption failed. Deliberately one error for every cause.
    Decryption,
    /// The random source failed.
    RandomFailed,
    /// Key generation found no prime among the candidates FIPS 186-5 allows (`5·bits/2` of
    /// them): the random source is not random.
    KeyGeneration,
    /// The private operation's result did not check out against the public key (a fault);
    /// nothing was released.
    Fault,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidModulus => {
                write!(f, "invalid modulus: an odd number of at most {MAX_BITS} bits expected")
            }
            Self::InvalidLength => f.write_str("wrong input or output length"),
            Self::BufferTooSmall => f.write_str("output buffer too small"),
            Self::OutOfRange => f.write_str("input not below the modulus"),
            Self::InvalidDer => f.write_str("malformed DER"),
            Self::UnsupportedKeySize => write!(
                f,
                "unsupported key size: 1024 bits and up expected to verify, 2048 and up for \
                 private keys and encryption, at most {MAX_BITS}"
            ),
            Self::InvalidExponent => {
                f.write_str("invalid public exponent: an odd number from 3 to 2^64 - 1 expected")
            }
            Self::InvalidPrivateKey => f.write_str("inconsistent private key"),
            Self::UnsupportedHash => f.write_str("hash not allowed here"),
            Self::MessageTooLong => f.write_str("message too long"),
            Self::InvalidSignature => f.write_str("invalid signature"),
            Self::Decryption => f.write_str("decryption error"),
            Self::RandomFailed => f.write_str("random source failed"),
            Self::KeyGeneration => f.write_str("key generation found no prime"),
            Self::Fault => f.write_str("fault detected in the private operation"),
            Self::WrongAlgorithm { found } => write!(f, "not an RSA key: the key is {found}"),
            Self::Pem(e) => write!(f, "PEM: {e}"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Pem(e) => Some(e),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Error, MAX_BITS};
    use std::string::ToString;

    /// The key-loading errors' text says what was expected, not only that something is wrong.
    #[test]
    fn key_errors_say_what_is_expected() {
        let size = Error::UnsupportedKeySize.to_string();
        assert!(size.contains("2048 and up") && size.contains(&MAX_BITS.to_string()), "{size}");
        let modulus = Error::InvalidModulus.to_string();
        assert!(modulus.contains("odd") && modulus.contains(&MAX_BITS.to_string()), "{modulus}");
        let exponent = Error::InvalidExponent.to_string();
        assert!(exponent.contains("from 3"), "{exponent}");
    }
}
