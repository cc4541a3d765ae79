#![doc = include_str!("../README.md")]
#![no_std]
#![warn(missing_docs)]

#[cfg(any(feature = "std", test))]
extern crate std;

#[cfg(feature = "alloc")]
extern crate alloc;

mod aes;
mod cbc_hmac;
mod cbc_mb;
mod ccm;
mod chacha20;
mod chacha20poly1305;
mod gcm;
mod ghash;
mod modes;
mod nonce;
mod poly1305;
#[cfg(feature = "rustcrypto")]
mod rustcrypto;

use core::fmt;

pub use aes::{Aes, AesImpl};
pub use cbc_hmac::{
    AesCbcHmac, AesCbcHmacSha1, AesCbcHmacSha256, AesCbcHmacSha384, RecordError, RecordHash,
    RecordHeader,
};
pub use cbc_mb::{CBC_MAX_LANES, CbcMbImpl, CbcStream};
pub use ccm::{Aes128Ccm, Aes128Ccm8, Aes256Ccm, AesCcm};
pub use chacha20::{ChaCha20, ChaCha20Impl, hchacha20};
pub use chacha20poly1305::{ChaCha20Poly1305, MAX_MESSAGE_LEN, XChaCha20Poly1305};
pub use core_hash::{Implementation, Registered};
pub use gcm::{Aes128Gcm, Aes192Gcm, Aes256Gcm, AesGcm, GCM_MAX_MESSAGE_LEN, GcmImpl};
pub use ghash::{Ghash, GhashImpl};
pub use nonce::{Nonce, NonceCounter, NonceExhausted};
pub use poly1305::{Poly1305, Poly1305Impl};

/// Every implementation in this crate, available on this CPU or not: what the tests iterate
/// and what `speed --impls` and the README's support matrix list. Each primitive module adds
/// its rows here with `core_hash::registered::<ItsImpl>("name")`.
pub fn implementations() -> impl Iterator<Item = Registered> {
    core::iter::empty()
        .chain(core_hash::registered::<AesImpl>("aes"))
        .chain(core_hash::registered::<CbcMbImpl>("aes-cbc-mb"))
        .chain(core_hash::registered::<GhashImpl>("ghash"))
        .chain(core_hash::registered::<GcmImpl>("aes-gcm"))
        .chain(core_hash::registered::<ChaCha20Impl>("chacha20"))
        .chain(core_hash::registered::<Poly1305Impl>("poly1305"))
}

/// Whether a computed tag equals a received one, compared in constant time: two 64-bit words
/// compared at once rather than `subtle`'s byte loop, which puts a barrier after every byte and
/// costs tens of cycles on a 64-byte record. Lengths are public; tags longer than 16 bytes
/// (none here) take the byte loop. The zero-padded copies are wiped. The verdict is public by
/// design, and declared so ([`core_hash::declassify`]) for the constant-time check.
pub(crate) fn tag_eq(ours: &[u8], theirs: &[u8]) -> bool {
    core_hash::declassify(bool::from(tag_choice(ours, theirs)))
}

/// [`tag_eq`]'s comparison, before the verdict is declared public.
fn tag_choice(ours: &[u8], theirs: &[u8]) -> subtle::Choice {
    use subtle::ConstantTimeEq;
    use zeroize::Zeroize;
    if ours.len() != theirs.len() || ours.len() > 16 {
        return ours.ct_eq(theirs);
    }
    let (mut a, mut b) = ([0u8; 16], [0u8; 16]);
    a[..ours.len()].copy_from_slice(ours);
    b[..theirs.len()].copy_from_slice(theirs);
    let word = |x: &[u8; 16], i: usize| {
        u64::from_ne_bytes(x[8 * i..8 * i + 8].try_into().unwrap_or_default())
    };
    let diff = (word(&a, 0) ^ word(&b, 0)) | (word(&a, 1) ^ word(&b, 1));
    let equal = diff.ct_eq(&0);
    a.zeroize();
    equal
}

/// Why an AEAD or cipher call was refused. On any error the output buffer holds no plaintext.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The key has the wrong length for this algorithm. The variant carries no lengths, which
    /// would make every `Result` of the AEAD paths larger on a Cortex-M0; its `Display` text
    /// lists what each algorithm takes, and `Aead::KEY_LEN` gives it.
    InvalidKeyLength,
    /// The nonce or IV has a length this algorithm does not accept (`Aead::NONCE_LEN`
    /// through the `Aead` trait; `Display` lists the others).
    InvalidNonceLength,
    /// The tag has the wrong length (`Aead::TAG_LEN` is the one), or a sealed input is shorter
    /// than a tag.
    InvalidTagLength,
    /// The message (or AAD) is longer than the algorithm allows (GCM's 2^36 − 32 bytes, CCM's
    /// length field).
    MessageTooLong,
    /// An output buffer is too small for the result.
    BufferTooSmall,
    /// The input is not a whole number of blocks (CBC without padding) or its padding is bad.
    InvalidLength,
    /// The tag did not verify. The buffer has been zeroed.
    AuthenticationFailed,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::InvalidKeyLength => {
                "invalid key length: 16, 24 or 32 bytes expected for AES (the size in the type's \
                 name for AES-GCM and AES-CCM), 32 for ChaCha20, Poly1305 and their AEADs"
            }
            Self::InvalidNonceLength => {
                "invalid nonce length: 12 bytes expected (24 for XChaCha20-Poly1305; 7 to 13 for \
                 CCM's explicit-nonce calls, 1 or more for GCM's explicit-IV calls)"
            }
            Self::InvalidTagLength => {
                "invalid tag length: the whole tag expected (16 bytes; for CCM its TAG_LEN, 8 \
                 for CCM-8), and a sealed input at least that long"
            }
            Self::MessageTooLong => "message too long for this algorithm",
            Self::BufferTooSmall => "output buffer too small",
            Self::InvalidLength => "input length is not valid for this mode",
            Self::AuthenticationFailed => "authentication failed",
        })
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}

/// An authenticated cipher with associated data, keyed once and used for many messages.
pub trait Aead: Sized {
    /// Key length in bytes.
    const KEY_LEN: usize;
    /// The nonce length in bytes that TLS uses (some algorithms accept others).
    const NONCE_LEN: usize;
    /// Tag length in bytes.
    const TAG_LEN: usize;
    /// The tag, a `[u8; TAG_LEN]`.
    type Tag: Copy + AsRef<[u8]> + AsMut<[u8]> + fmt::Debug;

    /// Builds the key schedule on the best implementation for this CPU.
    fn new(key: &[u8]) -> Result<Self, Error>;

    /// Encrypts `buf` in place and returns the tag over `aad` and the ciphertext.
    fn seal_in_place_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
    ) -> Result<Self::Tag, Error>;

    /// Verifies `tag` and decrypts `buf` in place. On failure `buf` is zeroed and
    /// [`Error::AuthenticationFailed`] returned.
    fn open_in_place_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error>;

    /// Encrypts `plaintext` into `out` as ciphertext followed by the tag; returns the length
    /// written (`plaintext.len() + TAG_LEN`).
    fn seal(
        &self,
        nonce: &[u8],
        aad: &[u8],
        plaintext: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let total = plaintext.len().checked_add(Self::TAG_LEN).ok_or(Error::MessageTooLong)?;
        let out = out.get_mut(..total).ok_or(Error::BufferTooSmall)?;
        let (body, tag_out) = out.split_at_mut(plaintext.len());
        body.copy_from_slice(plaintext);
        match self.seal_in_place_detached(nonce, aad, body) {
            Ok(tag) => {
                tag_out.copy_from_slice(tag.as_ref());
                Ok(total)
            }
            Err(e) => {
                body.fill(0);
                Err(e)
            }
        }
    }

    /// Encrypts the first `plaintext_len` bytes of `buf` in place and writes the tag right
    /// after them, so `buf` must have `TAG_LEN` bytes of room past the plaintext; returns the
    /// sealed length (`plaintext_len + TAG_LEN`). Bytes past that are left alone. On error
    /// `buf` is unchanged.
    fn seal_in_place_append_tag(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
        plaintext_len: usize,
    ) -> Result<usize, Error> {
        let total = plaintext_len.checked_add(Self::TAG_LEN).ok_or(Error::MessageTooLong)?;
        let sealed = buf.get_mut(..total).ok_or(Error::BufferTooSmall)?;
        let (body, tag_out) = sealed.split_at_mut(plaintext_len);
        let tag = self.seal_in_place_detached(nonce, aad, body)?;
        tag_out.copy_from_slice(tag.as_ref());
        Ok(total)
    }

    /// Verifies the tag that ends `buf` and decrypts the rest in place; returns the
    /// plaintext, the front of `buf`. On error all of `buf` is zeroed.
    fn open_in_place<'b>(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &'b mut [u8],
    ) -> Result<&'b mut [u8], Error> {
        let Some(len) = buf.len().checked_sub(Self::TAG_LEN) else {
            buf.fill(0);
            return Err(Error::InvalidTagLength);
        };
        let (body, tag) = buf.split_at_mut(len);
        match self.open_in_place_detached(nonce, aad, body, tag) {
            Ok(()) => Ok(body),
            Err(e) => {
                body.fill(0);
                tag.fill(0);
                Err(e)
            }
        }
    }

    /// [`seal_in_place_append_tag`](Self::seal_in_place_append_tag) on a `Vec`: encrypts
    /// `buf` and appends the tag. On error `buf` is unchanged. Feature `alloc`.
    #[cfg(feature = "alloc")]
    fn seal_in_place_vec(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut alloc::vec::Vec<u8>,
    ) -> Result<(), Error> {
        // Reserved first, so a failed allocation is an error rather than a panic.
        buf.try_reserve(Self::TAG_LEN).map_err(|_| Error::MessageTooLong)?;
        let tag = self.seal_in_place_detached(nonce, aad, buf)?;
        buf.extend_from_slice(tag.as_ref());
        Ok(())
    }

    /// [`open_in_place`](Self::open_in_place) on a `Vec`: verifies and strips the tag and
    /// leaves the plaintext. On error `buf` is zeroed and emptied. Feature `alloc`.
    #[cfg(feature = "alloc")]
    fn open_in_place_vec(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut alloc::vec::Vec<u8>,
    ) -> Result<(), Error> {
        match self.open_in_place(nonce, aad, buf) {
            Ok(plaintext) => {
                let len = plaintext.len();
                buf.truncate(len);
                Ok(())
            }
            Err(e) => {
                buf.clear();
                Err(e)
            }
        }
    }

    /// Verifies and decrypts `ciphertext_and_tag` into `out`; returns the plaintext length.
    /// On failure nothing but zeros is written to `out`.
    fn open(
        &self,
        nonce: &[u8],
        aad: &[u8],
        ciphertext_and_tag: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let len =
            ciphertext_and_tag.len().checked_sub(Self::TAG_LEN).ok_or(Error::InvalidTagLength)?;
        let (ciphertext, tag) = ciphertext_and_tag.split_at(len);
        let out = out.get_mut(..len).ok_or(Error::BufferTooSmall)?;
        out.copy_from_slice(ciphertext);
        self.open_in_place_detached(nonce, aad, out, tag)?;
        Ok(len)
    }
}

#[cfg(test)]
mod tests {
    use super::{Error, tag_eq};

    /// The length errors' text says what is expected, not only that something is wrong.
    #[test]
    fn length_errors_say_what_is_expected() {
        let key = std::format!("{}", Error::InvalidKeyLength);
        assert!(key.contains("16, 24 or 32") && key.contains("ChaCha20"), "{key}");
        let nonce = std::format!("{}", Error::InvalidNonceLength);
        assert!(nonce.contains("12 bytes") && nonce.contains("24") && nonce.contains("7 to 13"));
        let tag = std::format!("{}", Error::InvalidTagLength);
        assert!(tag.contains("16 bytes"), "{tag}");
    }

    /// Equal tags of every length up to 16 compare equal; a change in any bit of any byte,
    /// or a length mismatch, does not.
    #[test]
    fn tag_eq_sees_every_bit() {
        let tag: [u8; 16] = core::array::from_fn(|i| (i as u8).wrapping_mul(37) ^ 0xa5);
        for len in [0, 4, 8, 12, 16] {
            assert!(tag_eq(&tag[..len], &tag[..len]), "len {len}");
            for byte in 0..len {
                for bit in 0..8 {
                    let mut other = tag;
                    other[byte] ^= 1 << bit;
                    assert!(!tag_eq(&tag[..len], &other[..len]), "{len} {byte} {bit}");
                }
            }
        }
        assert!(!tag_eq(&tag[..16], &tag[..15]));
        assert!(!tag_eq(&tag[..8], &tag));
    }
}
