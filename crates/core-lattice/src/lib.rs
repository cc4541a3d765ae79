#![doc = include_str!("../README.md")]
#![no_std]
#![warn(missing_docs)]
// FIPS 203's notation (Compress_d, T_q, d_u, ByteEncode_12) is written as the standard writes
// it, not as code.
#![allow(clippy::doc_markdown)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

mod mldsa;
mod mlkem;
mod shake;
#[cfg(target_arch = "x86_64")]
mod x86_avx2;

use core::fmt;

pub use core_der::{KeyAlgorithm, PemError};
pub use core_hash::{Implementation, RandomSource, Registered};
pub use mldsa::{MAX_CONTEXT_LEN, MU_LEN, MlDsaImpl, PreHash, SEED_LEN, mldsa44, mldsa65, mldsa87};
pub use mlkem::{MlKemImpl, SHARED_SECRET_LEN, SharedSecret, mlkem512, mlkem768, mlkem1024};

/// Every implementation in this crate, available on this CPU or not: what the tests iterate
/// and what `speed --impls` and the README's support matrix list.
pub fn implementations() -> impl Iterator<Item = Registered> {
    core_hash::registered::<MlKemImpl>("mlkem").chain(core_hash::registered::<MlDsaImpl>("mldsa"))
}

/// Why an ML-KEM or ML-DSA operation was refused. Every variant is a property of the input (or
/// the random source), never of the CPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A key or ciphertext has the wrong length for its parameter set (FIPS 203 §7.2, §7.3).
    InvalidLength,
    /// An encapsulation key holds a coefficient that is not below q: re-encoding its decoding
    /// would not give it back (the modulus check of FIPS 203 §7.2).
    InvalidEncapsulationKey,
    /// A decapsulation key's stored hash is not the hash of the encapsulation key it holds
    /// (the hash check of FIPS 203 §7.3), or that encapsulation key fails the modulus check.
    InvalidDecapsulationKey,
    /// The random source failed.
    RandomSource,
    /// An ML-DSA context string is longer than 255 bytes (FIPS 204 §5.2).
    ContextTooLong,
    /// An ML-DSA signing key's s₁ or s₂ has a coefficient outside `-η..=η`, or its t₀ or tr is
    /// not the one its ρ, s₁ and s₂ give.
    InvalidSigningKey,
    /// An ML-DSA signature's hint is not a valid encoding (FIPS 204 Algorithm 21): its counts
    /// decrease or exceed ω, a row's indices do not strictly increase, or unused bytes are
    /// not zero.
    InvalidHint,
    /// An ML-DSA signature's z has a coefficient with |z| ≥ γ₁ − β (FIPS 204 Algorithm 8).
    SignatureOutOfRange,
    /// An ML-DSA signature is well formed but not valid for this key, message and context:
    /// the commitment hash c̃ does not match.
    InvalidSignature,
    /// A key file's DER is malformed, or holds what RFC 9881 does not allow (parameters in
    /// the algorithm identifier, a private key in none of its three forms).
    InvalidDer,
    /// A key file holds a key of another algorithm or parameter set: `found` names it.
    WrongAlgorithm {
        /// The kind of key the encoding holds.
        found: KeyAlgorithm,
    },
    /// The PEM around a key did not decode.
    Pem(PemError),
    /// An output buffer is too small.
    BufferTooSmall,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::WrongAlgorithm { found } => {
                return write!(f, "key is for another algorithm: {found}");
            }
            Self::Pem(e) => return write!(f, "PEM: {e}"),
            Self::InvalidLength => "key or ciphertext has the wrong length",
            Self::InvalidEncapsulationKey => "encapsulation key has a coefficient not below q",
            Self::InvalidDecapsulationKey => "decapsulation key fails its hash check",
            Self::RandomSource => "random source failed",
            Self::ContextTooLong => "context string longer than 255 bytes",
            Self::InvalidSigningKey => "signing key is inconsistent",
            Self::InvalidHint => "signature hint is malformed",
            Self::SignatureOutOfRange => "signature response z is out of range",
            Self::InvalidSignature => "signature does not verify",
            Self::InvalidDer => "malformed DER",
            Self::BufferTooSmall => "output buffer too small",
        })
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

impl From<core_der::Error> for Error {
    fn from(e: core_der::Error) -> Self {
        match e {
            core_der::Error::BufferTooSmall => Self::BufferTooSmall,
            _ => Self::InvalidDer,
        }
    }
}
