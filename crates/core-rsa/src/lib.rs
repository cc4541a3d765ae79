//! Halite RSA: constant-time Montgomery arithmetic on fixed-capacity, stack-only integers of up
//! to 8192 bits, modular exponentiation ([`Modulus`], [`modexp`]), and RSA keys, signatures
//! (PKCS#1 v1.5, PSS) and encryption (OAEP) on top, with no allocator.
//!
//! As in the other Halite crates, the arithmetic has several implementations ([`MontImpl`]),
//! each in its own module named after its technique; the best one for this CPU is chosen when
//! a key or modulus is built and kept with it, and any one can be asked for by name.
#![no_std]
#![warn(missing_docs)]

#[cfg(any(feature = "std", test))]
extern crate std;

mod mont;

use core::fmt;

pub use core_hash::{Implementation, RandomSource, Registered};
pub use mont::{Modulus, MontImpl, modexp, modexp_vartime};

/// The largest modulus this crate handles, in bits.
pub const MAX_BITS: usize = 8192;

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
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::InvalidModulus => "invalid modulus",
            Self::InvalidLength => "wrong input or output length",
        })
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}
