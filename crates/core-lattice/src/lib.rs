//! Halite's module-lattice cryptography: ML-KEM (FIPS 203) in its three parameter sets, for
//! everything from a Cortex-M0 to a server; ML-DSA (FIPS 204) will join it.
//!
//! As in the other Halite crates, the arithmetic has implementations in files named after
//! their technique, [`implementations`] lists them, and a key picks the best one for this CPU
//! once, when it is built. Everything that touches a secret is constant-time, including what
//! the usual checks miss: Compress divides by q in the standard but never here (KyberSlash).
//! Decapsulation keys and shared keys are wiped on drop. No allocator is needed, and the
//! portable implementation decapsulates ML-KEM-768 in about 4.4 KiB of stack on a Cortex-M0.
//!
//! ```
//! use core_lattice::mlkem768::{Ciphertext, DecapsulationKey, EncapsulationKey};
//!
//! # fn main() -> Result<(), core_lattice::Error> {
//! # #[cfg(feature = "std")] {
//! let mut rng = core_hash::OsRandom;
//! // The receiver makes a key pair and publishes the encapsulation key.
//! let dk = DecapsulationKey::generate(&mut rng)?;
//! let published = dk.encapsulation_key().as_bytes().to_vec();
//!
//! // The sender checks the key and encapsulates a fresh shared key to it.
//! let ek = EncapsulationKey::from_bytes(&published)?;
//! let (ct, sent) = ek.encapsulate(&mut rng)?;
//!
//! // The receiver recovers the same shared key from the ciphertext.
//! let received = dk.decapsulate(&Ciphertext::from_bytes(ct.as_bytes())?);
//! assert_eq!(sent.as_bytes(), received.as_bytes());
//! # }
//! # Ok(())
//! # }
//! ```
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
