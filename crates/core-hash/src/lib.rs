#![doc = include_str!("../README.md")]
#![no_std]
#![warn(missing_docs)]

#[cfg(any(feature = "std", test))]
extern crate std;

mod alg;
mod ct;
mod drbg;
mod hkdf;
mod hmac;
#[cfg(feature = "std")]
mod io;
mod md;
#[cfg(feature = "legacy")]
mod md5;
#[cfg(feature = "std")]
mod pooled_random;
mod rand;
mod rot;
#[cfg(feature = "rustcrypto")]
mod rustcrypto;
mod sha1;
mod sha256;
mod sha3;
mod sha512;
mod tls12_prf;
#[cfg(target_arch = "x86_64")]
mod x86_avx2;

// Constant-time helpers the sibling crates use; not part of the documented API.
pub use alg::{HashAlg, HashOutput};
#[doc(hidden)]
pub use ct::{declassify, value_barrier};
pub use drbg::{DrbgError, HmacDrbg, MAX_REQUEST_LEN, MIN_ENTROPY_LEN, RESEED_INTERVAL};
pub use hkdf::{Hkdf, HkdfError, HkdfSalt};
pub use hmac::{Hmac, MIN_TRUNCATED_TAG_LEN, VerifyError};
#[cfg(feature = "legacy")]
pub use md5::{Md5, Md5Impl};
#[cfg(feature = "std")]
pub use pooled_random::PooledOsRandom;
#[cfg(feature = "std")]
pub use rand::OsRandom;
pub use rand::{RandomError, RandomSource};
#[doc(hidden)]
pub use rot::rotr;
pub use sha1::{Sha1, Sha1Impl};
// The four-way Keccak-f[1600]s ML-KEM and ML-DSA sample with: for core-lattice, not the
// documented API.
pub use sha3::{
    KeccakImpl, Sha3_224, Sha3_256, Sha3_384, Sha3_512, Shake128, Shake128Reader, Shake256,
    Shake256Reader, ShakeReader,
};
#[cfg(target_arch = "x86_64")]
#[doc(hidden)]
pub use sha3::{keccak_f1600_x4_avx2, keccak_f1600_x4_avx512vl, keccak_f1600_x8_avx512};
pub use sha256::{CountMismatch, MAX_LANES, Sha224, Sha256, Sha256Impl, Sha256Many, Sha256MbImpl};
pub use sha512::{Sha384, Sha384And512, Sha512, Sha512_256, Sha512Impl};
pub use tls12_prf::tls12_prf;

use core::fmt::Debug;

// The selection mechanism lives in core-cpu; these paths predate the move and stay.
pub use core_cpu::{Implementation, implementation_enum};

/// The largest [`Hash::OUTPUT_LEN`] of any hash in this crate (SHA-512).
pub const MAX_OUTPUT_LEN: usize = 64;
/// The largest [`Hash::BLOCK_LEN`] of any hash in this crate (SHA3-224's rate, 144 bytes).
pub const MAX_BLOCK_LEN: usize = 144;

/// Overwrites secret bytes with zeros: a plain (vectorised) fill that the optimisation barrier
/// keeps the compiler from eliding.
pub(crate) fn wipe(bytes: &mut [u8]) {
    bytes.fill(0);
    zeroize::optimization_barrier(bytes);
}

/// One row of the crate's registry of implementations: an algorithm family, one of its
/// implementations, and whether this CPU can run it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Registered {
    /// The hash family, e.g. `"sha256"` (SHA-224 and SHA-256 share it).
    pub algorithm: &'static str,
    /// The implementation's name, e.g. `"x86_avx2"`.
    pub implementation: &'static str,
    /// Whether this CPU can run it (and no CPU feature was disabled).
    pub available: bool,
}

/// The registry rows of every implementation of `I` (what `implementations()` in this and the
/// sibling Halite crates is built from; not part of the documented API).
#[doc(hidden)]
pub fn registered<I: Implementation>(algorithm: &'static str) -> impl Iterator<Item = Registered> {
    I::ALL.iter().map(move |&name| Registered {
        algorithm,
        implementation: name,
        available: I::by_name(name).is_some(),
    })
}

/// Every implementation in this crate, available or not: what tests iterate and what
/// `speed --impls` and the README's support matrix list.
pub fn implementations() -> impl Iterator<Item = Registered> {
    let all = registered::<Sha1Impl>("sha1")
        .chain(registered::<Sha256Impl>("sha256"))
        .chain(registered::<Sha256MbImpl>("sha256-mb"))
        .chain(registered::<Sha512Impl>("sha512"))
        .chain(registered::<KeccakImpl>("sha3"));
    #[cfg(feature = "legacy")]
    let all = all.chain(registered::<Md5Impl>("md5"));
    all
}

/// A hash function with a fixed-size output, generic enough to build HMAC and HKDF on.
///
/// `Zeroize` wipes the state, which HMAC and HKDF use on keyed states when they are dropped.
pub trait Hash: Clone + Default + Debug + zeroize::Zeroize {
    /// Bytes in one compression-function block (HMAC pads keys to this).
    const BLOCK_LEN: usize;
    /// Bytes of output.
    const OUTPUT_LEN: usize;
    /// The digest, a `[u8; OUTPUT_LEN]`.
    type Output: Copy + Debug + Eq + AsRef<[u8]> + AsMut<[u8]>;
    /// The implementations this hash can run on.
    type Impl: Implementation;

    /// A hasher on the best implementation for this CPU.
    fn new() -> Self {
        Self::with_impl(Self::Impl::best())
    }

    /// A hasher on the given implementation.
    fn with_impl(imp: Self::Impl) -> Self;

    /// The implementation this hasher runs on.
    fn implementation(&self) -> Self::Impl;

    /// Every implementation of this hash that this CPU can run, fastest first.
    fn implementations() -> impl Iterator<Item = Self::Impl> {
        Self::Impl::available()
    }

    /// Absorbs `data`. Hashing is total: any length, any number of calls.
    fn update(&mut self, data: &[u8]);

    /// Pads and returns the digest.
    #[must_use]
    fn finalize(self) -> Self::Output;

    /// Pads, returns the digest, and resets the hasher to its initial state with what it
    /// absorbed wiped: for keyed states such as HMAC's, which must not outlive their use.
    #[must_use]
    fn finalize_reset(&mut self) -> Self::Output {
        let out = self.clone().finalize();
        self.zeroize();
        *self = Self::with_impl(self.implementation());
        out
    }

    /// Absorbs `data` and returns the digest, leaving the state for the caller to wipe or
    /// drop: HMAC's last step on each of its keyed halves, which its `Drop` wipes. Not a
    /// general API (the hasher is left in an unspecified state).
    #[doc(hidden)]
    #[must_use]
    fn finalize_with(&mut self, data: &[u8]) -> Self::Output {
        self.update(data);
        self.finalize_reset()
    }

    /// The digest of `data` in one call.
    #[must_use]
    fn digest(data: &[u8]) -> Self::Output {
        let mut h = Self::new();
        h.update(data);
        h.finalize()
    }
}
