#![doc = include_str!("../README.md")]
#![no_std]
#![warn(missing_docs)]
// FIPS 203's notation (Compress_d, T_q, d_u, ByteEncode_12) is written as the standard writes
// it, not as code.
#![allow(clippy::doc_markdown)]

#[cfg(any(feature = "std", test))]
extern crate std;

mod mlkem;

use core::fmt;

pub use core_hash::{Implementation, RandomSource, Registered};
pub use mlkem::{MlKemImpl, SHARED_SECRET_LEN, SharedSecret, mlkem512, mlkem768, mlkem1024};

/// Every implementation in this crate, available on this CPU or not: what the tests iterate
/// and what `speed --impls` and the README's support matrix list.
pub fn implementations() -> impl Iterator<Item = Registered> {
    core_hash::registered::<MlKemImpl>("mlkem")
}

/// Why an ML-KEM operation was refused. Every variant is a property of the input (or the
/// random source), never of the CPU.
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
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::InvalidLength => "key or ciphertext has the wrong length",
            Self::InvalidEncapsulationKey => "encapsulation key has a coefficient not below q",
            Self::InvalidDecapsulationKey => "decapsulation key fails its hash check",
            Self::RandomSource => "random source failed",
        })
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}
