//! HMAC (RFC 2104, FIPS 198-1) over any [`Hash`], with constant-time verification.

use crate::{Hash, Implementation, MAX_BLOCK_LEN};
use core::fmt;
use subtle::ConstantTimeEq;

/// An HMAC computation: keyed once, then `update` and `finalize` like a hash.
///
/// Keying costs two compression-function calls; to MAC many messages under one key, build
/// one `Hmac` and [`Clone`] it per message. The keyed states are wiped on drop.
///
/// ```
/// use core_hash::{Hmac, Sha256};
///
/// let mut mac = Hmac::<Sha256>::new(b"key");
/// mac.update(b"The quick brown fox jumps over the lazy dog");
/// let tag = mac.clone().finalize();
/// assert!(mac.verify(&tag).is_ok());
/// ```
#[derive(Clone)]
pub struct Hmac<H: Hash> {
    inner: H,
    outer: H,
}

/// A MAC tag did not match, or had a length the verifier does not accept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VerifyError;

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "MAC verification failed: the tag differs, or is not the hash's full output length \
             (for a truncated tag, at least 4 bytes and at most the output)",
        )
    }
}

#[cfg(feature = "std")]
impl std::error::Error for VerifyError {}

/// The shortest truncated tag [`Hmac::verify_truncated`] accepts: 32 bits, the minimum of
/// NIST SP 800-107 §5.3.3.
pub const MIN_TRUNCATED_TAG_LEN: usize = 4;

impl<H: Hash> Hmac<H> {
    /// Keys HMAC on the best implementation of `H`. Any key length is accepted: keys longer
    /// than a block are hashed first (RFC 2104 §2).
    #[must_use]
    pub fn new(key: &[u8]) -> Self {
        Self::with_impl(H::Impl::best(), key)
    }

    /// Keys HMAC on the given implementation of `H`.
    #[must_use]
    pub fn with_impl(imp: H::Impl, key: &[u8]) -> Self {
        debug_assert!(H::BLOCK_LEN <= MAX_BLOCK_LEN);
        let mut block = [0u8; MAX_BLOCK_LEN];
        let block = &mut block[..H::BLOCK_LEN];
        if key.len() > H::BLOCK_LEN {
            let mut h = H::with_impl(imp);
            h.update(key);
            let mut digest = h.finalize();
            block[..H::OUTPUT_LEN].copy_from_slice(digest.as_ref());
            crate::wipe(digest.as_mut());
        } else {
            block[..key.len()].copy_from_slice(key);
        }
        let mut inner = H::with_impl(imp);
        let mut outer = H::with_impl(imp);
        for b in block.iter_mut() {
            *b ^= 0x36;
        }
        inner.update(block);
        for b in block.iter_mut() {
            *b ^= 0x36 ^ 0x5c;
        }
        outer.update(block);
        crate::wipe(block);
        Self { inner, outer }
    }

    /// Absorbs message bytes.
    #[inline]
    pub fn update(&mut self, data: &[u8]) {
        self.inner.update(data);
    }

    /// Returns the tag.
    #[must_use]
    pub fn finalize(mut self) -> H::Output {
        // Neither half is reset: `Drop` wipes both right after.
        let mut inner_digest = self.inner.finalize_with(&[]);
        let tag = self.outer.finalize_with(inner_digest.as_ref());
        crate::wipe(inner_digest.as_mut());
        tag
    }

    /// Checks `tag` against the computed tag in constant time. The tag must be full length.
    pub fn verify(self, tag: &[u8]) -> Result<(), VerifyError> {
        if tag.len() != H::OUTPUT_LEN {
            return Err(VerifyError);
        }
        self.verify_truncated(tag)
    }

    /// Checks a tag truncated to its leading `tag.len()` bytes (RFC 2104 §5), in constant
    /// time. Tags shorter than [`MIN_TRUNCATED_TAG_LEN`] or longer than the output are
    /// rejected.
    pub fn verify_truncated(self, tag: &[u8]) -> Result<(), VerifyError> {
        if !(MIN_TRUNCATED_TAG_LEN..=H::OUTPUT_LEN).contains(&tag.len()) {
            return Err(VerifyError);
        }
        let computed = self.finalize();
        // The verdict is public by design; declared so for the constant-time check.
        if crate::declassify(bool::from(computed.as_ref()[..tag.len()].ct_eq(tag))) {
            Ok(())
        } else {
            Err(VerifyError)
        }
    }

    /// The tag of `data` under `key`, in one call.
    #[must_use]
    pub fn mac(key: &[u8], data: &[u8]) -> H::Output {
        let mut m = Self::new(key);
        m.update(data);
        m.finalize()
    }

    /// The implementation of `H` this HMAC runs on.
    #[must_use]
    pub fn implementation(&self) -> H::Impl {
        self.inner.implementation()
    }
}

impl<H: Hash> Drop for Hmac<H> {
    fn drop(&mut self) {
        self.inner.zeroize();
        self.outer.zeroize();
    }
}

impl<H: Hash> fmt::Debug for Hmac<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Hmac").field("inner", &self.inner).finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Sha256;
    use hex_literal::hex;

    #[test]
    fn rfc4231_case2_every_implementation() {
        for imp in Sha256::implementations() {
            let mut m = Hmac::<Sha256>::with_impl(imp, b"Jefe");
            m.update(b"what do ya want for nothing?");
            assert_eq!(
                m.finalize(),
                hex!("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
                "{}",
                imp.name()
            );
        }
    }

    #[test]
    fn verify_rejects_wrong_and_short_tags() {
        let tag = Hmac::<Sha256>::mac(b"k", b"m");
        let keyed = || {
            let mut m = Hmac::<Sha256>::new(b"k");
            m.update(b"m");
            m
        };
        assert_eq!(keyed().verify(&tag), Ok(()));
        assert_eq!(keyed().verify(&tag[..31]), Err(VerifyError));
        assert_eq!(keyed().verify_truncated(&tag[..3]), Err(VerifyError));
        assert_eq!(keyed().verify_truncated(&tag[..16]), Ok(()));
        let mut bad = tag;
        bad[31] ^= 1;
        assert_eq!(keyed().verify(&bad), Err(VerifyError));
        assert_eq!(keyed().verify(&[]), Err(VerifyError));
        assert_eq!(Hmac::<Sha256>::new(b"other").verify(&tag), Err(VerifyError));
        let text = std::format!("{VerifyError}");
        assert!(text.contains("full output length") && text.contains("at least 4"), "{text}");
    }
}
