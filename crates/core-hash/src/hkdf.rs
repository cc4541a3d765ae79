//! HKDF (RFC 5869): extract a pseudorandom key from input keying material, then expand it
//! into as many output bytes as needed (at most 255 hash lengths).

use crate::{Hash, Hmac};
use core::fmt;

/// Why an HKDF call was refused. Nothing is written to the output on error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum HkdfError {
    /// More than 255 × the hash length was requested (RFC 5869 §2.3).
    OutputTooLong {
        /// Bytes requested.
        requested: usize,
        /// The most this hash can give.
        max: usize,
    },
    /// A pseudorandom key given to [`Hkdf::from_prk`] is shorter than the hash output.
    PrkTooShort {
        /// The shortest accepted: the hash output length.
        min: usize,
        /// The length given.
        got: usize,
    },
}

impl fmt::Display for HkdfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::OutputTooLong { requested, max } => {
                write!(f, "HKDF output of {requested} bytes requested; at most {max} possible")
            }
            Self::PrkTooShort { min, got } => {
                write!(f, "HKDF pseudorandom key of {got} bytes; at least {min} expected")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for HkdfError {}

/// An HKDF salt keyed once, for extracting from many inputs under the same salt without
/// redoing the HMAC key set-up (two compression-function calls) each time. Wiped on drop.
///
/// ```
/// use core_hash::{HkdfSalt, Sha256};
///
/// let salt = HkdfSalt::<Sha256>::new(b"salt");
/// let mut key = [0u8; 32];
/// salt.extract(b"input keying material").expand(b"context", &mut key)?;
/// # Ok::<(), core_hash::HkdfError>(())
/// ```
#[derive(Clone, Debug)]
pub struct HkdfSalt<H: Hash>(Hmac<H>);

impl<H: Hash> HkdfSalt<H> {
    /// Keys HMAC with `salt`; an empty salt means a string of zeros (RFC 5869 §2.2).
    #[must_use]
    pub fn new(salt: &[u8]) -> Self {
        Self(Hmac::new(salt))
    }

    /// HKDF-Extract(salt, IKM), ready to expand.
    #[must_use]
    pub fn extract(&self, ikm: &[u8]) -> Hkdf<H> {
        let mut prk = self.extract_prk(ikm);
        let hkdf = Hkdf { prk: Hmac::new(prk.as_ref()) };
        crate::wipe(prk.as_mut());
        hkdf
    }

    /// HKDF-Extract(salt, IKM), returning the PRK bytes.
    #[must_use]
    pub fn extract_prk(&self, ikm: &[u8]) -> H::Output {
        let mut m = self.0.clone();
        m.update(ikm);
        m.finalize()
    }
}

/// A pseudorandom key, ready to expand. Wiped on drop.
///
/// ```
/// use core_hash::{Hkdf, Sha256};
///
/// let prk = Hkdf::<Sha256>::extract(b"salt", b"input keying material");
/// let mut key = [0u8; 42];
/// prk.expand(b"context", &mut key)?;
/// # Ok::<(), core_hash::HkdfError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Hkdf<H: Hash> {
    /// HMAC keyed with the PRK, cloned for each output block.
    prk: Hmac<H>,
}

impl<H: Hash> Hkdf<H> {
    /// The most bytes one [`expand`](Self::expand) can produce.
    pub const MAX_OUTPUT_LEN: usize = 255 * H::OUTPUT_LEN;

    /// HKDF-Extract(salt, IKM). An empty salt means a string of zeros (RFC 5869 §2.2).
    #[must_use]
    pub fn extract(salt: &[u8], ikm: &[u8]) -> Self {
        HkdfSalt::new(salt).extract(ikm)
    }

    /// HKDF-Extract, returning the PRK bytes themselves (TLS 1.3 chains them).
    #[must_use]
    pub fn extract_prk(salt: &[u8], ikm: &[u8]) -> H::Output {
        HkdfSalt::<H>::new(salt).extract_prk(ikm)
    }

    /// Starts from an existing pseudorandom key, which must be at least a hash length.
    pub fn from_prk(prk: &[u8]) -> Result<Self, HkdfError> {
        if prk.len() < H::OUTPUT_LEN {
            return Err(HkdfError::PrkTooShort { min: H::OUTPUT_LEN, got: prk.len() });
        }
        Ok(Self { prk: Hmac::new(prk) })
    }

    /// HKDF-Expand(PRK, info, L) into `okm`, with L = `okm.len()`.
    pub fn expand(&self, info: &[u8], okm: &mut [u8]) -> Result<(), HkdfError> {
        self.expand_multi_info(&[info], okm)
    }

    /// HKDF-Expand with `info` given as the concatenation of `info_parts`, so callers such as
    /// TLS's `HkdfLabel` need not assemble it in a buffer.
    pub fn expand_multi_info(&self, info_parts: &[&[u8]], okm: &mut [u8]) -> Result<(), HkdfError> {
        if okm.len() > Self::MAX_OUTPUT_LEN {
            return Err(HkdfError::OutputTooLong {
                requested: okm.len(),
                max: Self::MAX_OUTPUT_LEN,
            });
        }
        let mut previous: Option<H::Output> = None;
        for (counter, chunk) in (1u8..=255).zip(okm.chunks_mut(H::OUTPUT_LEN)) {
            let mut m = self.prk.clone();
            if let Some(t) = &previous {
                m.update(t.as_ref());
            }
            for part in info_parts {
                m.update(part);
            }
            m.update(&[counter]);
            let t = m.finalize();
            chunk.copy_from_slice(&t.as_ref()[..chunk.len()]);
            if let Some(mut old) = previous.replace(t) {
                crate::wipe(old.as_mut());
            }
        }
        if let Some(mut t) = previous {
            crate::wipe(t.as_mut());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Sha256;
    use hex_literal::hex;

    /// RFC 5869 test case 1.
    #[test]
    fn rfc5869_case1() {
        let ikm = [0x0b; 22];
        let salt = hex!("000102030405060708090a0b0c");
        let info = hex!("f0f1f2f3f4f5f6f7f8f9");
        assert_eq!(
            Hkdf::<Sha256>::extract_prk(&salt, &ikm),
            hex!("077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5")
        );
        let mut okm = [0u8; 42];
        Hkdf::<Sha256>::extract(&salt, &ikm).expand(&info, &mut okm).unwrap();
        assert_eq!(
            okm,
            hex!(
                "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf"
                "34007208d5b887185865"
            )
        );
        // The info may come in pieces.
        let mut salted = [0u8; 42];
        HkdfSalt::<Sha256>::new(&salt).extract(&ikm).expand(&info, &mut salted).unwrap();
        assert_eq!(salted, okm, "a reused salt gives the same result");
        let mut split = [0u8; 42];
        Hkdf::<Sha256>::extract(&salt, &ikm)
            .expand_multi_info(&[&info[..3], &[], &info[3..]], &mut split)
            .unwrap();
        assert_eq!(split, okm);
    }

    /// The longest output, 255 blocks (left out under Miri: 765 compressions take most of a
    /// minute there, and the limit itself is checked by `length_limits`).
    #[test]
    #[cfg_attr(miri, ignore)]
    fn expands_to_the_maximum() {
        let hkdf = Hkdf::<Sha256>::extract(b"", b"ikm");
        let mut max = [0u8; 255 * 32];
        assert_eq!(hkdf.expand(b"", &mut max), Ok(()));
        let mut first = [0u8; 32];
        assert_eq!(hkdf.expand(b"", &mut first), Ok(()));
        assert_eq!(max[..32], first, "T(1) comes first");
        assert!(max[255 * 32 - 32..].iter().any(|&b| b != 0), "the last block is written");
    }

    #[test]
    fn length_limits() {
        let hkdf = Hkdf::<Sha256>::extract(b"", b"ikm");
        let mut too_long = [0u8; 255 * 32 + 1];
        assert_eq!(
            hkdf.expand(b"", &mut too_long),
            Err(HkdfError::OutputTooLong { requested: 8161, max: 8160 })
        );
        assert!(too_long.iter().all(|&b| b == 0), "nothing written on error");
        assert_eq!(hkdf.expand(b"", &mut []), Ok(()));
        let err = Hkdf::<Sha256>::from_prk(&[0; 31]).err();
        assert_eq!(err, Some(HkdfError::PrkTooShort { min: 32, got: 31 }));
        assert_eq!(
            std::format!("{}", err.unwrap()),
            "HKDF pseudorandom key of 31 bytes; at least 32 expected"
        );
    }
}
