//! The RustCrypto traits over Halite's hashers (`rustcrypto` feature): `digest` 0.11's
//! `Update`, `FixedOutput`, `FixedOutputReset`, `Reset`, `HashMarker`, `BlockSizeUser` and
//! `OutputSizeUser` for SHA-1, SHA-2 and SHA-3, so each is a `digest::Digest` and fits
//! `hmac::SimpleHmac`, `hkdf::SimpleHkdf` and `pbkdf2::pbkdf2::<SimpleHmac<_>>`; `Update` and
//! `ExtendableOutput` for SHAKE; and, with `std`, `rand_core` 0.10's `TryRng` +
//! `TryCryptoRng` for [`OsRandom`](crate::OsRandom).
//!
//! `hmac::Hmac<D>` itself needs `digest`'s block-level API (`EagerHash`), which these
//! hashers do not expose; `SimpleHmac` computes the same function. A caller who has both this
//! crate's [`Hash`] and `digest::Digest` in scope must name the trait on calls
//! both define (`update`, `finalize`, `new`).

use digest::consts::{U20, U28, U32, U48, U64, U72, U104, U128, U136, U144};
use digest::{
    ExtendableOutput, FixedOutput, FixedOutputReset, HashMarker, Output, OutputSizeUser, Reset,
    Update, XofReader, common::BlockSizeUser,
};

use crate::Hash;

/// Implements the `digest` traits for hashers of this crate through their [`Hash`] impl.
macro_rules! digest_traits {
    ($($name:ty => output $out:ty, block $block:ty;)*) => {$(
        impl HashMarker for $name {}

        impl OutputSizeUser for $name {
            type OutputSize = $out;
        }

        impl BlockSizeUser for $name {
            type BlockSize = $block;
        }

        impl Update for $name {
            #[inline]
            fn update(&mut self, data: &[u8]) {
                Hash::update(self, data);
            }
        }

        impl FixedOutput for $name {
            #[inline]
            fn finalize_into(self, out: &mut Output<Self>) {
                out.copy_from_slice(Hash::finalize(self).as_ref());
            }
        }

        impl Reset for $name {
            /// Back to the initial state on the same implementation, what was absorbed wiped.
            fn reset(&mut self) {
                zeroize::Zeroize::zeroize(self);
                *self = <$name as Hash>::with_impl(self.implementation());
            }
        }

        impl FixedOutputReset for $name {
            #[inline]
            fn finalize_into_reset(&mut self, out: &mut Output<Self>) {
                out.copy_from_slice(Hash::finalize_reset(self).as_ref());
            }
        }
    )*};
}

digest_traits! {
    crate::Sha1 => output U20, block U64;
    crate::Sha224 => output U28, block U64;
    crate::Sha256 => output U32, block U64;
    crate::Sha384 => output U48, block U128;
    crate::Sha512 => output U64, block U128;
    crate::Sha512_256 => output U32, block U128;
    crate::Sha3_224 => output U28, block U144;
    crate::Sha3_256 => output U32, block U136;
    crate::Sha3_384 => output U48, block U104;
    crate::Sha3_512 => output U64, block U72;
}

/// Implements `Update` and `ExtendableOutput` for the SHAKE functions.
macro_rules! xof_traits {
    ($($name:ty => $reader:ty;)*) => {$(
        impl Update for $name {
            #[inline]
            fn update(&mut self, data: &[u8]) {
                <$name>::update(self, data);
            }
        }

        impl ExtendableOutput for $name {
            type Reader = $reader;

            #[inline]
            fn finalize_xof(self) -> Self::Reader {
                <$name>::finalize_xof(self)
            }
        }
    )*};
}

xof_traits! {
    crate::Shake128 => crate::Shake128Reader;
    crate::Shake256 => crate::Shake256Reader;
}

impl<const RATE: usize> XofReader for crate::ShakeReader<RATE> {
    #[inline]
    fn read(&mut self, buffer: &mut [u8]) {
        crate::ShakeReader::read(self, buffer);
    }
}

/// The OS source as a fallible RustCrypto RNG; `rand_core::UnwrapErr(OsRandom)` is the
/// infallible `Rng + CryptoRng` that APIs such as key generation take (it panics if the OS
/// cannot deliver, as every infallible OS RNG must).
#[cfg(feature = "std")]
impl rand_core::TryRng for crate::OsRandom {
    type Error = crate::RandomError;

    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        let mut bytes = [0; 4];
        self.try_fill_bytes(&mut bytes)?;
        Ok(u32::from_le_bytes(bytes))
    }

    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        let mut bytes = [0; 8];
        self.try_fill_bytes(&mut bytes)?;
        Ok(u64::from_le_bytes(bytes))
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        crate::RandomSource::fill(self, dst)
    }
}

#[cfg(feature = "std")]
impl rand_core::TryCryptoRng for crate::OsRandom {}
