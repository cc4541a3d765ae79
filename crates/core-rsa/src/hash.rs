//! What RSA adds to `core-hash`'s [`HashAlg`]: the `DigestInfo` prefixes of PKCS#1 v1.5
//! (RFC 8017 §9.2, note 1) and MGF1 (RFC 8017 B.2.1).

use crate::Error;
pub use core_hash::HashAlg;

/// The RSA-specific uses of a [`HashAlg`].
pub(crate) trait RsaHash {
    /// The DER of `DigestInfo` up to the digest itself (RFC 8017 §9.2, note 1);
    /// [`Error::UnsupportedHash`] for a hash without an identifier here.
    fn digest_info_prefix(self) -> Result<&'static [u8], Error>;

    /// `out ^= MGF1(seed, out.len())` with this hash (RFC 8017 B.2.1).
    fn mgf1_xor(self, seed: &[u8], out: &mut [u8]);
}

impl RsaHash for HashAlg {
    fn digest_info_prefix(self) -> Result<&'static [u8], Error> {
        const fn sha2(last: u8, len: u8) -> [u8; 19] {
            [
                0x30,
                len + 17,
                0x30,
                0x0d,
                0x06,
                0x09,
                0x60,
                0x86,
                0x48,
                0x01,
                0x65,
                0x03,
                0x04,
                0x02,
                last,
                0x05,
                0x00,
                0x04,
                len,
            ]
        }
        const SHA1: [u8; 15] = [
            0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a, 0x05, 0x00, 0x04,
            0x14,
        ];
        const SHA224: [u8; 19] = sha2(0x04, 28);
        const SHA256: [u8; 19] = sha2(0x01, 32);
        const SHA384: [u8; 19] = sha2(0x02, 48);
        const SHA512: [u8; 19] = sha2(0x03, 64);
        const SHA512_256: [u8; 19] = sha2(0x06, 32);
        Ok(match self {
            Self::Sha1 => &SHA1,
            Self::Sha224 => &SHA224,
            Self::Sha256 => &SHA256,
            Self::Sha384 => &SHA384,
            Self::Sha512 => &SHA512,
            Self::Sha512_256 => &SHA512_256,
            _ => return Err(Error::UnsupportedHash),
        })
    }

    fn mgf1_xor(self, seed: &[u8], out: &mut [u8]) {
        for (counter, chunk) in out.chunks_mut(self.output_len()).enumerate() {
            let c = (counter as u32).to_be_bytes();
            let mask = self.digest_parts(&[seed, &c]);
            for (o, m) in chunk.iter_mut().zip(mask.as_ref()) {
                *o ^= m;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digest_info_prefixes_announce_the_digest() {
        for h in [
            HashAlg::Sha1,
            HashAlg::Sha224,
            HashAlg::Sha256,
            HashAlg::Sha384,
            HashAlg::Sha512,
            HashAlg::Sha512_256,
        ] {
            let p = h.digest_info_prefix().unwrap();
            assert_eq!(p[1] as usize + 2, p.len() + h.output_len(), "{h:?} outer length");
            assert_eq!(p[p.len() - 1] as usize, h.output_len(), "{h:?} octet string length");
            assert_eq!(h.digest(b"abc").as_ref().len(), h.output_len());
        }
        // SHA-256's from RFC 8017 §9.2 note 1, spelled out.
        assert_eq!(
            HashAlg::Sha256.digest_info_prefix().unwrap(),
            &[
                0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02,
                0x01, 0x05, 0x00, 0x04, 0x20
            ]
        );
    }

    #[test]
    fn mgf1_matches_its_definition() {
        let mut out = [0u8; 45];
        HashAlg::Sha1.mgf1_xor(b"seed", &mut out);
        let d0 = HashAlg::Sha1.digest_parts(&[b"seed", &[0, 0, 0, 0]]);
        let d1 = HashAlg::Sha1.digest_parts(&[b"seed", &[0, 0, 0, 1]]);
        let d2 = HashAlg::Sha1.digest_parts(&[b"seed", &[0, 0, 0, 2]]);
        assert_eq!(&out[..20], d0.as_ref());
        assert_eq!(&out[20..40], d1.as_ref());
        assert_eq!(&out[40..], &d2.as_ref()[..5]);
    }
}
