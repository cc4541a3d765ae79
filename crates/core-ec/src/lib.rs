#![doc = include_str!("../README.md")]
#![no_std]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

mod curve25519;
mod encoding;
mod nist;
#[cfg(feature = "rustcrypto")]
mod rustcrypto;

pub mod ed25519;
pub mod p256;
pub mod p384;
pub mod p521;
pub mod x25519;

use core::fmt;

pub use core_der::{KeyAlgorithm, PemError};
#[cfg(feature = "std")]
pub use core_hash::OsRandom;
pub use core_hash::{Implementation, RandomSource, Registered};

/// Internals of the Thumb-1 Curve25519 field for the Cortex-M0 firmware's checks and cost
/// model (the host cannot run them). Not a stable API.
#[cfg(all(target_arch = "arm", feature = "asm"))]
#[doc(hidden)]
pub mod __m0_test {
    use crate::curve25519::{Field, portable32, thumb1};

    /// The `thumb1` product of two 256-bit values (little-endian words) as its assembly
    /// leaves it: the 512-bit product folded below 2^256 with 2^256 ≡ 38, not canonical.
    pub fn mul_reduced(a: &[u32; 8], b: &[u32; 8]) -> [u32; 8] {
        thumb1::mul_reduced(a, b)
    }

    /// The `thumb1` square, folded the same way.
    pub fn square_reduced(a: &[u32; 8]) -> [u32; 8] {
        thumb1::square_reduced(a)
    }

    /// The full 512-bit product P-256's field takes (the same assembly without the fold).
    pub fn mul_wide(a: &[u32; 8], b: &[u32; 8]) -> [u32; 16] {
        thumb1::mul_wide(a, b)
    }

    /// The full 512-bit square.
    pub fn square_wide(a: &[u32; 8]) -> [u32; 16] {
        thumb1::square_wide(a)
    }

    /// The canonical encoding of a `thumb1` element (any value below 2^256).
    pub fn fe_to_bytes(a: &[u32; 8]) -> [u8; 32] {
        thumb1::Fe(*a).to_bytes()
    }

    /// `portable32`'s element for any 256-bit value: bit 255 (which its `from_bytes` ignores)
    /// counts as 2^255 ≡ 19.
    fn reference(a: &[u32; 8]) -> portable32::Fe {
        let mut b = [0u8; 32];
        for (c, w) in b.chunks_exact_mut(4).zip(a) {
            c.copy_from_slice(&w.to_le_bytes());
        }
        let mut top = [0u8; 32];
        top[0] = 19 * (b[31] >> 7);
        portable32::Fe::from_bytes(&b).add(&portable32::Fe::from_bytes(&top))
    }

    /// Every `thumb1` field operation on `a` and `b` (any values below 2^256) against
    /// `portable32`, also chained through unreduced results: the name of the first that
    /// differs.
    pub fn field_ops_agree(a: &[u32; 8], b: &[u32; 8]) -> Result<(), &'static str> {
        /// An operation writing into a variable that held another value.
        fn into(f: impl Fn(&mut thumb1::Fe)) -> [u8; 32] {
            let mut o = thumb1::Fe([0x5555_5555; 8]);
            f(&mut o);
            o.to_bytes()
        }
        let (x, y) = (thumb1::Fe(*a), thumb1::Fe(*b));
        let (rx, ry) = (reference(a), reference(b));
        let pairs = [
            ("mul", x.mul(&y).to_bytes(), rx.mul(&ry).to_bytes()),
            ("square", x.square().to_bytes(), rx.square().to_bytes()),
            ("square_n", x.square_n(3).to_bytes(), rx.square_n(3).to_bytes()),
            ("mul_to", into(|o| x.mul_to(&y, o)), rx.mul(&ry).to_bytes()),
            ("square_to", into(|o| x.square_to(o)), rx.square().to_bytes()),
            ("add", x.add(&y).to_bytes(), rx.add(&ry).to_bytes()),
            ("sub", x.sub(&y).to_bytes(), rx.sub(&ry).to_bytes()),
            ("sub reversed", y.sub(&x).to_bytes(), ry.sub(&rx).to_bytes()),
            ("mul_a24", x.mul_a24().to_bytes(), rx.mul_a24().to_bytes()),
            (
                "add_mul_a24",
                {
                    let mut s = x;
                    s.add_mul_a24(&y);
                    s.to_bytes()
                },
                rx.add(&ry.mul_a24()).to_bytes(),
            ),
            ("neg", x.neg().to_bytes(), rx.neg().to_bytes()),
            ("to_bytes", x.to_bytes(), rx.to_bytes()),
            (
                "chain",
                x.add(&y).mul(&x.sub(&y)).add(&x).square().mul_a24().to_bytes(),
                rx.add(&ry).mul(&rx.sub(&ry)).add(&rx).square().mul_a24().to_bytes(),
            ),
        ];
        for (name, got, want) in pairs {
            if got != want {
                return Err(name);
            }
        }
        let (mut s, mut t) = (x, y);
        subtle::ConditionallySelectable::conditional_swap(&mut s, &mut t, 1.into());
        if s.0 != y.0 || t.0 != x.0 {
            return Err("conditional_swap");
        }
        subtle::ConditionallySelectable::conditional_swap(&mut s, &mut t, 0.into());
        if s.0 != y.0 || t.0 != x.0 {
            return Err("conditional_swap (no swap)");
        }
        Ok(())
    }

    /// X25519 (RFC 7748 §5) on `portable32`, the Rust twin of `thumb1`, which `FieldImpl`
    /// leaves out on this target: what the firmware compares `x25519::x25519` with.
    pub fn x25519_portable32(scalar: &[u8; 32], u: &[u8; 32]) -> [u8; 32] {
        crate::curve25519::ladder::<portable32::Fe>(&crate::x25519::clamp(scalar), u)
    }

    /// Whether `k·B` (Ed25519's fixed-base multiplication: key derivation and a signature's
    /// `R`) encodes the same on `thumb1` and on `portable32`, for a little-endian `k`.
    pub fn mul_base_agree(k: &[u8; 32]) -> bool {
        use crate::curve25519::Point;
        Point::<thumb1::Fe>::mul_base(k).encode() == Point::<portable32::Fe>::mul_base(k).encode()
    }

    /// P-256: public key, ECDH, signing and verification on `p256_thumb1` and on `mont15`
    /// with the private scalar `d` (in `1..n`), the peer's point `x‖y` and the hash: the name
    /// of the first result that differs.
    pub fn p256_thumb1_against_mont15(
        d: &[u8; 32],
        peer: &[u8; 64],
        hash: &[u8; 32],
    ) -> Result<(), &'static str> {
        crate::p256::thumb1_against_mont15(d, peer, hash)
    }

    /// P-256: every field operation of `p256_thumb1` against `mont15` on the big-endian `a`
    /// and `b` (any 32 bytes; values from `p` up are refused by both): the name of the
    /// first that differs.
    pub fn p256_field_ops_agree(a: &[u8; 32], b: &[u8; 32]) -> Result<(), &'static str> {
        crate::p256::thumb1_field_against_mont15(a, b)
    }

    /// P-256: the big-endian value whose `p256_thumb1` Montgomery form is the words `w`
    /// (below p), to reach edge values of the representation.
    pub fn p256_plain_of_words(w: &[u32; 8]) -> [u8; 32] {
        crate::nist::p256_thumb1::plain_of_words(w)
    }

    /// The `p256_thumb1` Montgomery product `a·b·2^−256 mod p` of words below p: what the
    /// cost model times.
    pub fn p256_fe_mul_raw(a: &[u32; 8], b: &[u32; 8]) -> [u32; 8] {
        crate::nist::p256_thumb1::mul_raw(a, b)
    }

    /// The `p256_thumb1` Montgomery square `a²·2^−256 mod p`: what the cost model times.
    pub fn p256_fe_square_raw(a: &[u32; 8]) -> [u32; 8] {
        crate::nist::p256_thumb1::sqr_raw(a)
    }

    /// The `thumb1` field product, not canonical (below 2^256): what the cost model times.
    pub fn fe_mul_raw(a: &[u32; 8], b: &[u32; 8]) -> [u32; 8] {
        thumb1::Fe(*a).mul(&thumb1::Fe(*b)).0
    }

    /// The `thumb1` field square, not canonical: what the cost model times.
    pub fn fe_square_raw(a: &[u32; 8]) -> [u32; 8] {
        thumb1::Fe(*a).square().0
    }
}

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
    /// The key is for another algorithm or curve (an OID in SPKI/PKCS#8/SEC1 that is not this
    /// one): `found` names what it is.
    WrongAlgorithm {
        /// The kind of key the encoding holds.
        found: KeyAlgorithm,
    },
    /// A PEM text has no block with the label asked for, or malformed base64.
    Pem(PemError),
    /// An output buffer is too small.
    BufferTooSmall,
    /// The random source failed.
    RandomSource,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InvalidLength => f.write_str("input has the wrong length"),
            Self::InvalidEncoding => f.write_str("malformed point encoding"),
            Self::PointNotOnCurve => f.write_str("point is not on the curve"),
            Self::PointAtInfinity => f.write_str("point is the identity"),
            Self::InvalidScalar => f.write_str("scalar is zero or not below the group order"),
            Self::ZeroSharedSecret => f.write_str("shared secret is zero (low-order peer key)"),
            Self::InvalidSignature => f.write_str("signature is invalid"),
            Self::InvalidDer => f.write_str("malformed DER"),
            Self::BufferTooSmall => f.write_str("output buffer too small"),
            Self::RandomSource => f.write_str("random source failed"),
            Self::WrongAlgorithm { found } => {
                write!(f, "key is for another algorithm or curve: {found}")
            }
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

impl From<core_der::Error> for Error {
    fn from(e: core_der::Error) -> Self {
        match e {
            core_der::Error::BufferTooSmall => Self::BufferTooSmall,
            _ => Self::InvalidDer,
        }
    }
}

impl From<PemError> for Error {
    fn from(e: PemError) -> Self {
        Self::Pem(e)
    }
}

/// A PEM block longer than any key here is [`Error::InvalidLength`].
impl core_der::pem::KeyPemError for Error {
    fn too_long() -> Self {
        Self::InvalidLength
    }
    fn buffer_too_small() -> Self {
        Self::BufferTooSmall
    }
    fn pem(e: PemError) -> Self {
        Self::Pem(e)
    }
}
