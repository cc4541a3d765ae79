//! AES-CCM (SP 800-38C, RFC 3610): a CBC-MAC over the formatted nonce, AAD and plaintext,
//! and CTR encryption, over any AES implementation. For TLS (`TLS_AES_128_CCM_SHA256` and
//! `TLS_AES_128_CCM_8_SHA256`, RFC 8446/RFC 6655) the nonce is 12 bytes and the tag 16 or 8.
//!
//! The CBC-MAC is a chain of dependent block encryptions; each of its blocks is encrypted
//! together with the counter block the next step needs (two lanes of one pass of the rounds),
//! so CTR costs almost nothing next to the chain: the AES-NI and Armv8 loops keep both lanes
//! and the round keys in registers, and the bitsliced implementations, which work on two or
//! four blocks at once anyway, do one pass per 16 bytes.

use crate::aes::{Aes, AesImpl};
use crate::{Aead, Error, Implementation};
use core::fmt;
use zeroize::Zeroize;

/// AES-CCM with a `KEY_LEN`-byte key and `TAG_LEN`-byte tags (4, 6, 8, 10, 12, 14 or 16):
/// [`Aes128Ccm`] and [`Aes128Ccm8`] for TLS. [`Aead`] takes 12-byte nonces;
/// [`AesCcm::seal_in_place_detached_with_nonce`] takes any length from 7 to 13 bytes, which
/// bounds the message at 2^(8·(15 − nonce length)) − 1 bytes.
///
/// ```
/// use core_aead::{Aead, Aes128Ccm8};
///
/// let key = Aes128Ccm8::new(&[0u8; 16]).unwrap();
/// let mut record = *b"hello";
/// let tag = key.seal_in_place_detached(&[0u8; 12], b"header", &mut record).unwrap();
/// assert_eq!(tag.len(), 8);
/// key.open_in_place_detached(&[0u8; 12], b"header", &mut record, &tag).unwrap();
/// assert_eq!(&record, b"hello");
/// ```
#[derive(Clone)]
pub struct AesCcm<const KEY_LEN: usize, const TAG_LEN: usize> {
    aes: Aes,
}

/// AES-128-CCM with 16-byte tags (`TLS_AES_128_CCM_SHA256`).
pub type Aes128Ccm = AesCcm<16, 16>;
/// AES-128-CCM with 8-byte tags (`TLS_AES_128_CCM_8_SHA256`).
pub type Aes128Ccm8 = AesCcm<16, 8>;
/// AES-256-CCM with 16-byte tags.
pub type Aes256Ccm = AesCcm<32, 16>;

impl<const KEY_LEN: usize, const TAG_LEN: usize> fmt::Debug for AesCcm<KEY_LEN, TAG_LEN> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AesCcm")
            .field("key_bits", &(8 * KEY_LEN))
            .field("tag_len", &TAG_LEN)
            .field("implementation", &self.aes.implementation().name())
            .finish_non_exhaustive()
    }
}

/// The counter block `A_i` (SP 800-38C §A.3): flags `q − 1`, the nonce, then `i` in the last
/// `q` bytes. `i` always fits: the message length limit keeps it below 2^(8q).
fn counter_block(nonce: &[u8], i: u64) -> [u8; 16] {
    let q = 15 - nonce.len();
    let mut a = [0u8; 16];
    a[0] = (q - 1) as u8;
    a[1..16 - q].copy_from_slice(nonce);
    let len = q.min(8);
    a[16 - len..].copy_from_slice(&i.to_be_bytes()[8 - len..]);
    a
}

impl<const KEY_LEN: usize, const TAG_LEN: usize> AesCcm<KEY_LEN, TAG_LEN> {
    /// Expands `key` (exactly `KEY_LEN` bytes) for the given AES implementation. A
    /// `TAG_LEN` that CCM does not allow is [`Error::InvalidTagLength`].
    pub fn with_impl(imp: AesImpl, key: &[u8]) -> Result<Self, Error> {
        if !(4..=16).contains(&TAG_LEN) || !TAG_LEN.is_multiple_of(2) {
            return Err(Error::InvalidTagLength);
        }
        if key.len() != KEY_LEN {
            return Err(Error::InvalidKeyLength);
        }
        Ok(Self { aes: Aes::with_impl(imp, key)? })
    }

    /// The AES implementation this key runs on.
    pub fn implementation(&self) -> AesImpl {
        self.aes.implementation()
    }

    /// Like [`Aead::seal_in_place_detached`], with a nonce of 7 to 13 bytes.
    pub fn seal_in_place_detached_with_nonce(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
    ) -> Result<[u8; TAG_LEN], Error> {
        self.run::<true>(nonce, aad, buf)
    }

    /// Like [`Aead::open_in_place_detached`], with a nonce of 7 to 13 bytes.
    pub fn open_in_place_detached_with_nonce(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error> {
        if tag.len() != TAG_LEN {
            return Err(Error::InvalidTagLength);
        }
        let mut want = self.run::<false>(nonce, aad, buf)?;
        let ok = crate::tag_eq(&want, tag);
        want.zeroize();
        if ok {
            Ok(())
        } else {
            buf.zeroize();
            Err(Error::AuthenticationFailed)
        }
    }

    /// Encrypts (or decrypts) `buf` and returns the tag over the plaintext (SP 800-38C §6).
    fn run<const ENCRYPT: bool>(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
    ) -> Result<[u8; TAG_LEN], Error> {
        if !(7..=13).contains(&nonce.len()) {
            return Err(Error::InvalidNonceLength);
        }
        let q = 15 - nonce.len();
        if q < 8 && buf.len() as u64 >> (8 * q) != 0 {
            return Err(Error::MessageTooLong);
        }

        // B₀ (§A.2.1): flags, nonce, message length; with A₀ (for the tag mask) and A₁.
        let mut b0 = [0u8; 16];
        b0[0] = u8::from(!aad.is_empty()) << 6 | ((TAG_LEN as u8 - 2) / 2) << 3 | (q as u8 - 1);
        b0[1..16 - q].copy_from_slice(nonce);
        let len_bytes = (buf.len() as u64).to_be_bytes();
        let len = q.min(8);
        b0[16 - len..].copy_from_slice(&len_bytes[8 - len..]);
        let mut lanes = [b0, counter_block(nonce, 0), counter_block(nonce, 1)];
        self.aes.encrypt_blocks(&mut lanes);
        let [mut mac, mut mask, mut ks] = lanes;

        // The AAD with its length encoding (§A.2.2), zero-padded to whole blocks.
        if !aad.is_empty() {
            let mut first = [0u8; 16];
            let a = aad.len() as u64;
            let enc_len = if a < 0xff00 {
                first[..2].copy_from_slice(&(a as u16).to_be_bytes());
                2
            } else if a >> 32 == 0 {
                first[..2].copy_from_slice(&[0xff, 0xfe]);
                first[2..6].copy_from_slice(&(a as u32).to_be_bytes());
                6
            } else {
                first[..2].copy_from_slice(&[0xff, 0xff]);
                first[2..10].copy_from_slice(&a.to_be_bytes());
                10
            };
            let (head, tail) = aad.split_at(aad.len().min(16 - enc_len));
            first[enc_len..enc_len + head.len()].copy_from_slice(head);
            self.absorb(&mut mac, &first);
            for piece in tail.chunks(16) {
                let mut block = [0u8; 16];
                block[..piece.len()].copy_from_slice(piece);
                self.absorb(&mut mac, &block);
            }
        }

        // The payload: each step MACs one block and makes the keystream for the next.
        let mut ctr = counter_block(nonce, 2);
        self.aes.ccm_payload::<ENCRYPT>(&mut mac, &mut ks, &mut ctr, buf);

        let mut tag = [0u8; TAG_LEN];
        for ((t, m), k) in tag.iter_mut().zip(&mac).zip(&mask) {
            *t = m ^ k;
        }
        mac.zeroize();
        mask.zeroize();
        ks.zeroize();
        Ok(tag)
    }

    /// One CBC-MAC step.
    fn absorb(&self, mac: &mut [u8; 16], block: &[u8; 16]) {
        for (m, b) in mac.iter_mut().zip(block) {
            *m ^= b;
        }
        self.aes.encrypt_block(mac);
    }
}

impl<const KEY_LEN: usize, const TAG_LEN: usize> Aead for AesCcm<KEY_LEN, TAG_LEN> {
    const KEY_LEN: usize = KEY_LEN;
    const NONCE_LEN: usize = 12;
    const TAG_LEN: usize = TAG_LEN;
    type Tag = [u8; TAG_LEN];

    fn new(key: &[u8]) -> Result<Self, Error> {
        Self::with_impl(AesImpl::preferred(), key)
    }

    fn seal_in_place_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
    ) -> Result<[u8; TAG_LEN], Error> {
        if nonce.len() != 12 {
            return Err(Error::InvalidNonceLength);
        }
        self.run::<true>(nonce, aad, buf)
    }

    fn open_in_place_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error> {
        if nonce.len() != 12 {
            return Err(Error::InvalidNonceLength);
        }
        self.open_in_place_detached_with_nonce(nonce, aad, buf, tag)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_limits_follow_the_nonce() {
        let key = AesCcm::<16, 16>::with_impl(AesImpl::Ct64, &[0; 16]).unwrap();
        // A 13-byte nonce leaves a 2-byte length field: 65535 bytes at most.
        let mut big = std::vec![0u8; 65536];
        assert_eq!(
            key.seal_in_place_detached_with_nonce(&[0; 13], b"", &mut big),
            Err(Error::MessageTooLong)
        );
        assert!(key.seal_in_place_detached_with_nonce(&[0; 13], b"", &mut big[..65535]).is_ok());
        for n in [0, 6, 14, 16] {
            assert_eq!(
                key.seal_in_place_detached_with_nonce(&std::vec![0; n], b"", &mut []),
                Err(Error::InvalidNonceLength)
            );
        }
        for bad in [
            AesCcm::<16, 2>::with_impl(AesImpl::Ct64, &[0; 16]).err(),
            AesCcm::<16, 7>::with_impl(AesImpl::Ct64, &[0; 16]).err(),
            AesCcm::<16, 18>::with_impl(AesImpl::Ct64, &[0; 16]).err(),
        ] {
            assert_eq!(bad, Some(Error::InvalidTagLength));
        }
    }
}
