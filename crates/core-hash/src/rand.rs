//! Where randomness comes from: the small [`RandomSource`] trait that embedded users
//! implement over their TRNG, and, with the `std` feature, [`OsRandom`] over the OS.

use core::fmt;

/// A source of random bytes: a hardware TRNG, the OS, or a DRBG seeded from either.
pub trait RandomSource {
    /// Fills `dest` entirely with random bytes, or fails without a partial result being
    /// relied on.
    fn fill(&mut self, dest: &mut [u8]) -> Result<(), RandomError>;
}

impl<R: RandomSource + ?Sized> RandomSource for &mut R {
    fn fill(&mut self, dest: &mut [u8]) -> Result<(), RandomError> {
        (**self).fill(dest)
    }
}

/// A random source could not deliver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RandomError {
    /// The underlying entropy source failed or is not available on this platform.
    Unavailable,
    /// A DRBG reached its reseed interval and must be reseeded before more output.
    ReseedRequired,
}

impl fmt::Display for RandomError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Unavailable => "the entropy source is unavailable",
            Self::ReseedRequired => "the DRBG must be reseeded",
        })
    }
}

impl core::error::Error for RandomError {}

/// The operating system's random source (`getrandom`); `std` feature.
#[cfg(feature = "std")]
#[derive(Clone, Copy, Debug, Default)]
pub struct OsRandom;

#[cfg(feature = "std")]
impl RandomSource for OsRandom {
    fn fill(&mut self, dest: &mut [u8]) -> Result<(), RandomError> {
        getrandom::fill(dest).map_err(|_| RandomError::Unavailable)
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;

    #[test]
    fn os_random_fills() {
        fn draw(mut source: impl RandomSource, dest: &mut [u8]) {
            source.fill(dest).unwrap();
        }
        let mut a = [0u8; 32];
        let mut b = [0u8; 32];
        OsRandom.fill(&mut a).unwrap();
        draw(&mut OsRandom, &mut b); // through the `&mut R` impl
        assert_ne!(a, b, "two 256-bit draws collided");
        assert_ne!(a, [0; 32]);
    }
}
