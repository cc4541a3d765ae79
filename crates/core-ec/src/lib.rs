//! Halite's elliptic curves: X25519 (RFC 7748), Ed25519 (RFC 8032), and ECDH and ECDSA on the
//! NIST curves P-256, P-384 and P-521 (SEC 1, FIPS 186-5, RFC 6979), for everything from a
//! Cortex-M0 to an ADX server.
//!
//! Field arithmetic comes in a 64-bit form for 64-bit hosts and a 32-bit form for small cores,
//! with CPU-specific backends picked once at run time, as in `core-hash`. Everything that
//! touches a secret (scalar multiplication, signing, key generation, scalar inversion) is
//! constant-time; verification, which handles only public data, may be variable-time and says
//! so with a `_vartime` suffix. Private scalars are wiped on drop.
#![no_std]
#![warn(missing_docs)]

#[cfg(any(feature = "std", test))]
extern crate std;

mod curve25519;
mod nist;

pub mod ed25519;
pub mod p256;
pub mod p384;
pub mod p521;
pub mod x25519;

#[cfg(all(target_arch = "arm", feature = "asm"))]
#[doc(hidden)]
pub use curve25519::thumb1::__m0_test;

use core::fmt;

pub use core_hash::{Implementation, RandomSource, Registered};

/// Every implementation in this crate, available on this CPU or not: what the tests iterate
/// and what `speed --impls` and the README's support matrix list.
pub fn implementations() -> impl Iterator<Item = Registered> {
    curve25519::implementations().chain(nist::implementations())
}

/// Why an elliptic-curve operation was refused. Every variant is a property of the input (or
/// the random source), never of the CPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// An input has the wrong length (a key, scalar, point or fixed-size signature).
    InvalidLength,
    /// A point encoding is malformed: unknown SEC1 tag, coordinate not below the field prime,
    /// non-canonical Ed25519 encoding, or no square root for a compressed point.
    InvalidEncoding,
    /// The point's coordinates do not satisfy the curve equation.
    PointNotOnCurve,
    /// The point is the identity (point at infinity), which no public key may be.
    PointAtInfinity,
    /// A scalar or private key is zero or not below the group order.
    InvalidScalar,
    /// The Diffie–Hellman result is the all-zero value (X25519 with a low-order point) or the
    /// identity: the peer's key is unusable.
    ZeroSharedSecret,
    /// A signature did not verify, or its `r`/`s` (Ed25519 `S`) are out of range.
    InvalidSignature,
    /// DER/ASN.1 input is malformed or uses a form this crate does not accept (e.g. BER,
    /// non-minimal lengths or integers).
    InvalidDer,
    /// The key is for another algorithm or curve (an OID in SPKI/PKCS#8/SEC1 that is not this one).
    WrongAlgorithm,
    /// An output buffer is too small.
    BufferTooSmall,
    /// The random source failed.
    RandomSource,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::InvalidLength => "input has the wrong length",
            Self::InvalidEncoding => "malformed point encoding",
            Self::PointNotOnCurve => "point is not on the curve",
            Self::PointAtInfinity => "point is the identity",
            Self::InvalidScalar => "scalar is zero or not below the group order",
            Self::ZeroSharedSecret => "shared secret is zero (low-order peer key)",
            Self::InvalidSignature => "signature is invalid",
            Self::InvalidDer => "malformed DER",
            Self::WrongAlgorithm => "key is for another algorithm or curve",
            Self::BufferTooSmall => "output buffer too small",
            Self::RandomSource => "random source failed",
        })
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}
