//! ChaCha20-Poly1305 (RFC 8439 §2.8) and XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha §2),
//! composed from this crate's ChaCha20 and Poly1305 on the implementations chosen when the key
//! is built.
//!
//! The Poly1305 key is keystream block 0, produced in the same vector pass as the message's
//! first blocks (the backend sets it aside), so a 64-byte record costs one pass of two blocks
//! rather than two passes. Opening decrypts the blocks that share that pass on the stack,
//! authenticates the ciphertext, and only then writes plaintext to the caller's buffer; on any
//! failure the buffer is zeroed. On AVX-512 CPUs, messages of up to three blocks take
//! [`x86_avx512`]: the same work in one function, with the keystream kept in registers.

#[cfg(target_arch = "x86_64")]
mod x86_avx512;

use crate::chacha20::{self, ChaCha20Impl, wipe};
use crate::poly1305::{self, Poly1305Impl};
use crate::{Aead, Error};
use zeroize::Zeroize;

/// The longest plaintext RFC 8439 §2.8 allows: 2^32 − 1 blocks of keystream after block 0.
pub const MAX_MESSAGE_LEN: u64 = (1 << 38) - 64;

/// State words 13–15 as the caller's bytes: a 12-byte nonce, or XChaCha20's, four zero bytes
/// and the last 8 bytes of its nonce. The short x86 path loads them straight from there.
#[derive(Clone, Copy)]
enum Nonce<'a> {
    Full(&'a [u8; 12]),
    ZeroThen(&'a [u8; 8]),
}

impl Nonce<'_> {
    #[inline]
    fn words(self) -> [u32; 3] {
        match self {
            Nonce::Full(n) => chacha20::words(n),
            Nonce::ZeroThen(n) => {
                let [a, b] = chacha20::words(n);
                [0, a, b]
            }
        }
    }
}

/// The backends and key of either AEAD.
#[derive(Clone)]
struct Engine {
    key: [u32; 8],
    chacha: ChaCha20Impl,
    poly: Poly1305Impl,
    /// The token for [`x86_avx512`]'s short-message path, when both backends allow it: AVX-512
    /// ChaCha20 and a Poly1305 whose short inputs run on `portable_r64` (chosen here once).
    #[cfg(target_arch = "x86_64")]
    short: Option<core_cpu::Avx512>,
}

impl Engine {
    fn new(key: &[u8], chacha: ChaCha20Impl, poly: Poly1305Impl) -> Result<Self, Error> {
        let key: &[u8; 32] = key.try_into().map_err(|_| Error::InvalidKeyLength)?;
        #[cfg(target_arch = "x86_64")]
        let short = match (chacha, poly) {
            (
                ChaCha20Impl::X86Avx512(token),
                Poly1305Impl::X86Avx512Ifma(_)
                | Poly1305Impl::X86Avx512(_)
                | Poly1305Impl::X86Avx2(_)
                | Poly1305Impl::PortableR64,
            ) => Some(token),
            _ => None,
        };
        Ok(Self {
            key: chacha20::words(key),
            chacha,
            poly,
            #[cfg(target_arch = "x86_64")]
            short,
        })
    }

    /// The tag over `aad` and `ciphertext` under the one-time key `otk` (RFC 8439 §2.8).
    #[inline]
    fn tag(&self, otk: &[u8; 32], aad: &[u8], ciphertext: &[u8]) -> [u8; 16] {
        poly1305::aead_tag(self.poly, otk, aad, ciphertext)
    }

    fn seal(&self, key: &[u32; 8], nonce: Nonce<'_>, aad: &[u8], buf: &mut [u8]) -> [u8; 16] {
        #[cfg(target_arch = "x86_64")]
        if let Some(token) = self.short
            && buf.len() <= x86_avx512::MAX_LEN
        {
            return x86_avx512::seal(token, key, nonce, aad, buf);
        }
        let mut state = chacha20::state(key, 0, &nonce.words());
        let mut otk = [0; 32];
        self.chacha.key_then_xor(&mut state, &mut otk, buf);
        let tag = self.tag(&otk, aad, buf);
        wipe(&mut otk);
        wipe(&mut state);
        tag
    }

    fn open(
        &self,
        key: &[u32; 8],
        nonce: Nonce<'_>,
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8; 16],
    ) -> Result<(), Error> {
        #[cfg(target_arch = "x86_64")]
        if let Some(token) = self.short
            && buf.len() <= x86_avx512::MAX_LEN
        {
            return x86_avx512::open(token, key, nonce, aad, buf, tag);
        }
        // The blocks that share the key block's pass are decrypted on the stack, so the
        // ciphertext is still there for Poly1305 and no plaintext leaves before the tag checks.
        let n = buf.len().min((self.chacha.batch_blocks() - 1) * 64);
        if n <= 192 {
            self.open_with::<192>(key, &nonce.words(), aad, buf, tag, n)
        } else if n <= 960 {
            self.open_with::<960>(key, &nonce.words(), aad, buf, tag, n)
        } else {
            // Only AVX-512's 32-block passes get here; the 2 KiB buffer stays off small targets.
            #[cfg(target_arch = "x86_64")]
            return self.open_with::<1984>(key, &nonce.words(), aad, buf, tag, n);
            #[cfg(not(target_arch = "x86_64"))]
            unreachable!()
        }
    }

    /// [`Engine::open`] with the first `n ≤ N` bytes decrypted in an `N`-byte stack buffer.
    #[inline]
    fn open_with<const N: usize>(
        &self,
        key: &[u32; 8],
        nonce: &[u32; 3],
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8; 16],
        n: usize,
    ) -> Result<(), Error> {
        let mut tmp = [0; N];
        let head = &mut tmp[..n];
        head.copy_from_slice(&buf[..n]);
        let mut state = chacha20::state(key, 0, nonce);
        let mut otk = [0; 32];
        self.chacha.key_then_xor(&mut state, &mut otk, head);
        let mut ours = self.tag(&otk, aad, buf);
        let ok = crate::tag_eq(&ours, tag);
        let result = if ok {
            buf[..n].copy_from_slice(head);
            if buf.len() > n {
                // `n` is a whole number of blocks here, and fewer than 2^32 of them.
                state[12] = 1 + (n / 64) as u32;
                self.chacha.xor_keystream(&mut state, &mut buf[n..]);
            }
            Ok(())
        } else {
            buf.fill(0);
            Err(Error::AuthenticationFailed)
        };
        wipe(head);
        wipe(&mut ours);
        wipe(&mut otk);
        wipe(&mut state);
        result
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.key.zeroize();
    }
}

/// Checks a message length against [`MAX_MESSAGE_LEN`].
#[inline]
fn check_len(len: usize) -> Result<(), Error> {
    if len as u64 > MAX_MESSAGE_LEN { Err(Error::MessageTooLong) } else { Ok(()) }
}

/// A 16-byte tag, or [`Error::InvalidTagLength`].
#[inline]
fn tag_array(tag: &[u8]) -> Result<&[u8; 16], Error> {
    tag.try_into().map_err(|_| Error::InvalidTagLength)
}

macro_rules! aead_common {
    ($name:ident) => {
        impl $name {
            /// A key on the given ChaCha20 and Poly1305 implementations (tests and benchmarks
            /// use this to reach each one; [`Aead::new`] picks the best).
            pub fn with_impls(
                key: &[u8],
                chacha: ChaCha20Impl,
                poly: Poly1305Impl,
            ) -> Result<Self, Error> {
                Ok(Self(Engine::new(key, chacha, poly)?))
            }

            /// The ChaCha20 and Poly1305 implementations this key runs on.
            pub fn implementations(&self) -> (ChaCha20Impl, Poly1305Impl) {
                (self.0.chacha, self.0.poly)
            }
        }

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("chacha20", &self.0.chacha)
                    .field("poly1305", &self.0.poly)
                    .finish_non_exhaustive()
            }
        }
    };
}

/// ChaCha20-Poly1305 (RFC 8439 §2.8): 256-bit key, 96-bit nonce, 128-bit tag. The key is
/// wiped on drop.
///
/// ```
/// use core_aead::{Aead, ChaCha20Poly1305};
///
/// let key = ChaCha20Poly1305::new(&[0x42; 32]).unwrap();
/// let nonce = [7; 12];
/// let mut record = *b"hello, world";
/// let tag = key.seal_in_place_detached(&nonce, b"header", &mut record).unwrap();
/// key.open_in_place_detached(&nonce, b"header", &mut record, &tag).unwrap();
/// assert_eq!(&record, b"hello, world");
/// ```
#[derive(Clone)]
pub struct ChaCha20Poly1305(Engine);

aead_common!(ChaCha20Poly1305);

impl Aead for ChaCha20Poly1305 {
    const KEY_LEN: usize = 32;
    const NONCE_LEN: usize = 12;
    const TAG_LEN: usize = 16;
    type Tag = [u8; 16];

    fn new(key: &[u8]) -> Result<Self, Error> {
        Self::with_impls(key, ChaCha20Impl::preferred(), Poly1305Impl::preferred())
    }

    fn seal_in_place_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
    ) -> Result<[u8; 16], Error> {
        let nonce: &[u8; 12] = nonce.try_into().map_err(|_| Error::InvalidNonceLength)?;
        check_len(buf.len())?;
        Ok(self.0.seal(&self.0.key, Nonce::Full(nonce), aad, buf))
    }

    fn open_in_place_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error> {
        let checked = (|| {
            let nonce: &[u8; 12] = nonce.try_into().map_err(|_| Error::InvalidNonceLength)?;
            let tag = tag_array(tag)?;
            check_len(buf.len())?;
            Ok((nonce, tag))
        })();
        match checked {
            Ok((nonce, tag)) => self.0.open(&self.0.key, Nonce::Full(nonce), aad, buf, tag),
            Err(e) => {
                buf.fill(0);
                Err(e)
            }
        }
    }
}

/// XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha §2): ChaCha20-Poly1305 under the HChaCha20
/// subkey of the first 16 nonce bytes, with a 24-byte nonce that is safe to choose at random.
/// The key is wiped on drop.
#[derive(Clone)]
pub struct XChaCha20Poly1305(Engine);

aead_common!(XChaCha20Poly1305);

impl XChaCha20Poly1305 {
    /// The subkey and 96-bit nonce for a 24-byte nonce (draft-irtf-cfrg-xchacha §2.3).
    fn derive<'n>(&self, nonce: &'n [u8]) -> Result<([u32; 8], Nonce<'n>), Error> {
        let nonce: &[u8; 24] = nonce.try_into().map_err(|_| Error::InvalidNonceLength)?;
        let (head, tail) = nonce.split_first_chunk::<16>().unwrap_or_else(|| unreachable!());
        let tail = tail.try_into().unwrap_or_else(|_| unreachable!());
        let subkey = chacha20::hchacha20_words(&self.0.key, &chacha20::words(head));
        Ok((subkey, Nonce::ZeroThen(tail)))
    }
}

impl Aead for XChaCha20Poly1305 {
    const KEY_LEN: usize = 32;
    const NONCE_LEN: usize = 24;
    const TAG_LEN: usize = 16;
    type Tag = [u8; 16];

    fn new(key: &[u8]) -> Result<Self, Error> {
        Self::with_impls(key, ChaCha20Impl::preferred(), Poly1305Impl::preferred())
    }

    fn seal_in_place_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
    ) -> Result<[u8; 16], Error> {
        let (mut subkey, nonce) = self.derive(nonce)?;
        if let Err(e) = check_len(buf.len()) {
            wipe(&mut subkey);
            return Err(e);
        }
        let tag = self.0.seal(&subkey, nonce, aad, buf);
        wipe(&mut subkey);
        Ok(tag)
    }

    fn open_in_place_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8],
    ) -> Result<(), Error> {
        let checked = (|| {
            let derived = self.derive(nonce)?;
            let tag = tag_array(tag)?;
            check_len(buf.len())?;
            Ok((derived, tag))
        })();
        match checked {
            Ok(((mut subkey, nonce), tag)) => {
                let result = self.0.open(&subkey, nonce, aad, buf, tag);
                wipe(&mut subkey);
                result
            }
            Err(e) => {
                buf.fill(0);
                Err(e)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 8439 §2.8's `P_MAX` is 274,877,906,880 bytes; nothing longer is sealed or opened.
    /// (A buffer that long cannot be allocated in a test, so the check itself is tested.)
    #[test]
    fn message_limit() {
        assert_eq!(MAX_MESSAGE_LEN, 274_877_906_880);
        assert_eq!(check_len(0), Ok(()));
        if let Ok(max) = usize::try_from(MAX_MESSAGE_LEN) {
            assert_eq!(check_len(max), Ok(()));
            assert_eq!(check_len(max + 1), Err(Error::MessageTooLong));
        }
        // The last block of the longest message is block 2^32 − 1: the counter never wraps.
        assert!(chacha20::fits(1, MAX_MESSAGE_LEN as usize));
        assert!(!chacha20::fits(1, MAX_MESSAGE_LEN as usize + 1));
    }
}
