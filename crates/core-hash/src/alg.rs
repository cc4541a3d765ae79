//! The hash functions chosen at run time, as one enum over this crate's types: what a
//! signature scheme, OAEP or a TLS cipher suite names, with its output length and a one-shot
//! digest. Shared by `core-rsa` and `tls` so one `HashAlg` names a hash everywhere.

use crate::{Hash, MAX_OUTPUT_LEN, Sha1, Sha224, Sha256, Sha384, Sha512, Sha512_256};

/// A hash function named at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum HashAlg {
    /// SHA-1: for verifying legacy signatures and in OAEP/MGF1 only; never for signing.
    Sha1,
    /// SHA-224.
    Sha224,
    /// SHA-256.
    Sha256,
    /// SHA-384.
    Sha384,
    /// SHA-512.
    Sha512,
    /// SHA-512/256.
    Sha512_256,
}

/// A digest of any [`HashAlg`]: up to [`MAX_OUTPUT_LEN`] bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashOutput {
    bytes: [u8; MAX_OUTPUT_LEN],
    len: u8,
}

impl AsRef<[u8]> for HashOutput {
    fn as_ref(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

fn run<H: Hash>(parts: &[&[u8]]) -> HashOutput {
    let mut h = H::new();
    for p in parts {
        h.update(p);
    }
    let out = h.finalize();
    let out = out.as_ref();
    let mut bytes = [0; MAX_OUTPUT_LEN];
    bytes[..out.len()].copy_from_slice(out);
    HashOutput { bytes, len: out.len() as u8 }
}

impl HashAlg {
    /// The digest length in bytes.
    pub const fn output_len(self) -> usize {
        match self {
            Self::Sha1 => Sha1::OUTPUT_LEN,
            Self::Sha224 => Sha224::OUTPUT_LEN,
            Self::Sha256 => Sha256::OUTPUT_LEN,
            Self::Sha384 => Sha384::OUTPUT_LEN,
            Self::Sha512 => Sha512::OUTPUT_LEN,
            Self::Sha512_256 => Sha512_256::OUTPUT_LEN,
        }
    }

    /// The digest of `data`.
    ///
    /// ```
    /// use core_hash::HashAlg;
    ///
    /// let d = HashAlg::Sha256.digest(b"abc");
    /// assert_eq!(d.as_ref()[..4], [0xba, 0x78, 0x16, 0xbf]);
    /// ```
    #[must_use]
    pub fn digest(self, data: &[u8]) -> HashOutput {
        self.digest_parts(&[data])
    }

    /// The digest of the concatenation of `parts` (MGF1's seed ‖ counter, PSS's `M'`).
    #[must_use]
    pub fn digest_parts(self, parts: &[&[u8]]) -> HashOutput {
        match self {
            Self::Sha1 => run::<Sha1>(parts),
            Self::Sha224 => run::<Sha224>(parts),
            Self::Sha256 => run::<Sha256>(parts),
            Self::Sha384 => run::<Sha384>(parts),
            Self::Sha512 => run::<Sha512>(parts),
            Self::Sha512_256 => run::<Sha512_256>(parts),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_alg_runs_its_hash() {
        for (alg, direct) in [
            (HashAlg::Sha1, Sha1::digest(b"abc").as_ref().to_vec()),
            (HashAlg::Sha224, Sha224::digest(b"abc").as_ref().to_vec()),
            (HashAlg::Sha256, Sha256::digest(b"abc").as_ref().to_vec()),
            (HashAlg::Sha384, Sha384::digest(b"abc").as_ref().to_vec()),
            (HashAlg::Sha512, Sha512::digest(b"abc").as_ref().to_vec()),
            (HashAlg::Sha512_256, Sha512_256::digest(b"abc").as_ref().to_vec()),
        ] {
            assert_eq!(alg.digest(b"abc").as_ref(), direct, "{alg:?}");
            assert_eq!(alg.digest_parts(&[b"a", b"", b"bc"]).as_ref(), direct, "{alg:?} in parts");
            assert_eq!(alg.output_len(), direct.len(), "{alg:?}");
        }
    }
}
