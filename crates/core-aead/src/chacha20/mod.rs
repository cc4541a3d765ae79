//! The ChaCha20 stream cipher (RFC 8439 §2.3–2.4: 256-bit key, 96-bit nonce, 32-bit block
//! counter) and HChaCha20 (draft-irtf-cfrg-xchacha §2.2), with four implementations:
//!
//! - [`portable`]: one block at a time on 32-bit words;
//! - `thumb1`: one block at a time in Thumb-1 assembly (the Cortex-M0, with `asm`);
//! - [`x86_avx2`]: eight blocks in parallel, one state word of each per 32-bit lane;
//! - [`x86_avx512`]: sixteen blocks in parallel with `vprold`, and narrower forms for tails;
//! - `aarch64`: four blocks in parallel in NEON registers.
//!
//! The vector ones fall back to fewer lanes for short inputs, so a 64-byte record does not pay
//! for sixteen blocks.

#[cfg(target_arch = "aarch64")]
mod aarch64;
// Only HChaCha20 runs here on the Cortex-M0 without `portable-twins`.
#[cfg_attr(
    not(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins")),
    allow(dead_code)
)]
mod portable;
#[cfg(all(target_arch = "arm", target_endian = "little", feature = "asm"))]
mod thumb1;
#[cfg(target_arch = "x86_64")]
mod x86_avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_avx512;
#[cfg(target_arch = "x86_64")]
mod x86_ymm;

use crate::Error;
use zeroize::Zeroize;

/// "expand 32-byte k", the first four state words (RFC 8439 §2.3).
const SIGMA: [u32; 4] = [0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574];

core_hash::implementation_enum! {
    /// A ChaCha20 implementation. Accelerated variants carry the CPU-feature token that proves
    /// they can run, so they can only be obtained through [`Implementation::available`](crate::Implementation::available).
    pub enum ChaCha20Impl {
        accelerated {
            /// AVX-512: sixteen blocks per pass, one state word per ZMM register, `vprold`
            /// rotations.
            X86Avx512(core_cpu::Avx512) => "x86_avx512",
            /// AVX2: eight blocks per pass, one state word per YMM register.
            X86Avx2(core_cpu::Avx2) => "x86_avx2",
            /// NEON: four blocks per pass, one state word per vector register.
            Aarch64(core_cpu::Neon) => "aarch64",
        }
        portable {
            /// Thumb-1 assembly, one block at a time: the Cortex-M0.
            Thumb1 => "thumb1" for 32
                if all(target_arch = "arm", target_endian = "little", feature = "asm"),
            /// Portable 32-bit code, one block at a time: `thumb1`'s twin.
            Portable => "portable" if twin,
        }
    }
}

impl ChaCha20Impl {
    /// XORs the keystream of blocks `state[12]`, `state[12] + 1`, … into `buf`. The caller
    /// makes sure the 32-bit counter does not wrap within `buf`. `state` is borrowed mutably
    /// so that the Cortex-M0 can step its counter in place (no copy of the state on its
    /// stack); it is as it was on return.
    #[inline]
    pub(crate) fn xor_keystream(self, state: &mut [u32; 16], buf: &mut [u8]) {
        self.keystream(state, Sink::new(None, buf));
    }

    /// Writes the first 32 bytes of block `state[12]` to `key` (the AEAD's Poly1305 key) and
    /// XORs blocks `state[12] + 1`, … into `buf`, in the same passes.
    #[inline]
    pub(crate) fn key_then_xor(self, state: &mut [u32; 16], key: &mut [u8; 32], buf: &mut [u8]) {
        self.keystream(state, Sink::new(Some(key), buf));
    }

    #[inline]
    fn keystream(self, state: &mut [u32; 16], out: Sink<'_>) {
        match self {
            #[cfg(target_arch = "x86_64")]
            Self::X86Avx512(token) => x86_avx512::keystream(token, state, out),
            #[cfg(target_arch = "x86_64")]
            Self::X86Avx2(token) => x86_avx2::keystream(token, state, out),
            #[cfg(target_arch = "aarch64")]
            Self::Aarch64(token) => aarch64::keystream(token, state, out),
            #[cfg(all(target_arch = "arm", target_endian = "little", feature = "asm"))]
            Self::Thumb1 => thumb1::keystream(state, out),
            #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
            Self::Portable => portable::keystream(state, out),
            // Tokens for another architecture cannot be obtained: the portable default.
            #[cfg(all(target_arch = "arm", target_endian = "little", feature = "asm"))]
            _ => thumb1::keystream(state, out),
            #[cfg(not(all(target_arch = "arm", target_endian = "little", feature = "asm")))]
            _ => portable::keystream(state, out),
        }
    }

    /// How many blocks this implementation computes in one pass over long inputs: the AEAD
    /// decrypts this many blocks minus one together with its Poly1305 key block.
    #[inline]
    pub(crate) fn batch_blocks(self) -> usize {
        match self {
            #[cfg(all(target_arch = "arm", target_endian = "little", feature = "asm"))]
            Self::Thumb1 => 1,
            #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
            Self::Portable => 1,
            Self::X86Avx2(_) => 8,
            Self::X86Avx512(_) => 32,
            Self::Aarch64(_) => 4,
        }
    }
}

/// Where a run of keystream blocks goes: the first block's 32 bytes to `key` if there is one,
/// then the following blocks XOR-ed into `buf`; a partial last block covers the end of `buf`.
pub(crate) struct Sink<'a> {
    key: Option<&'a mut [u8; 32]>,
    buf: &'a mut [u8],
    /// The byte offset in `buf` of the next block: −64 while the key block is pending.
    pos: isize,
}

impl<'a> Sink<'a> {
    fn new(key: Option<&'a mut [u8; 32]>, buf: &'a mut [u8]) -> Self {
        let pos = if key.is_some() { -64 } else { 0 };
        Self { key, buf, pos }
    }

    /// The offset in `buf` of the next block (negative for the key block).
    #[cfg_attr(not(any(target_arch = "x86_64", target_arch = "aarch64")), allow(dead_code))]
    fn position(&self) -> isize {
        self.pos
    }

    /// Bytes still to produce, the key block included.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    fn bytes_left(&self) -> usize {
        // `buf` is at most `isize::MAX` bytes long.
        (self.buf.len().cast_signed() - self.pos).max(0).cast_unsigned()
    }

    /// Blocks still to produce, the key block included.
    #[cfg_attr(not(any(target_arch = "x86_64", target_arch = "aarch64")), allow(dead_code))]
    fn blocks_left(&self) -> usize {
        self.bytes_left().div_ceil(64)
    }

    /// Moves past `blocks` blocks.
    #[cfg_attr(not(any(target_arch = "x86_64", target_arch = "aarch64")), allow(dead_code))]
    fn advance(&mut self, blocks: usize) {
        self.pos = self.pos.saturating_add_unsigned(64 * blocks);
    }
}

/// Overwrites secret values with zeros: a plain (vectorised) fill that the optimisation
/// barrier keeps from being elided. For keystream, key schedules and one-time keys on the
/// per-record path, where a volatile write per byte would cost more than the record.
#[inline]
pub(crate) fn wipe<T: Copy + Default>(secret: &mut [T]) {
    secret.fill(T::default());
    zeroize::optimization_barrier(&*secret);
}

/// The initial state for `key`, block `counter` and `nonce` (RFC 8439 §2.3).
#[inline]
pub(crate) fn state(key: &[u32; 8], counter: u32, nonce: &[u32; 3]) -> [u32; 16] {
    [
        SIGMA[0], SIGMA[1], SIGMA[2], SIGMA[3], key[0], key[1], key[2], key[3], key[4], key[5],
        key[6], key[7], counter, nonce[0], nonce[1], nonce[2],
    ]
}

/// Little-endian words of a byte array.
#[inline]
pub(crate) fn words<const N: usize, const B: usize>(bytes: &[u8; B]) -> [u32; N] {
    const { assert!(B == 4 * N) };
    core::array::from_fn(|i| {
        u32::from_le_bytes([bytes[4 * i], bytes[4 * i + 1], bytes[4 * i + 2], bytes[4 * i + 3]])
    })
}

/// Whether `len` bytes of keystream starting at block `counter` fit before the 32-bit block
/// counter wraps (RFC 8439 §2.4 forbids the wrap).
#[inline]
pub(crate) fn fits(counter: u32, len: usize) -> bool {
    let blocks = (len as u64).div_ceil(64);
    u64::from(counter) + blocks <= 1 << 32
}

/// A ChaCha20 key (RFC 8439 §2.4), on the implementation chosen when it was built. The key is
/// wiped on drop.
///
/// ```
/// use core_aead::ChaCha20;
///
/// let key = ChaCha20::new(&[7; 32]).unwrap();
/// let mut buf = *b"attack at dawn";
/// key.apply_keystream(&[0; 12], 1, &mut buf).unwrap();
/// key.apply_keystream(&[0; 12], 1, &mut buf).unwrap();
/// assert_eq!(&buf, b"attack at dawn");
/// ```
#[derive(Clone)]
pub struct ChaCha20 {
    key: [u32; 8],
    imp: ChaCha20Impl,
}

impl ChaCha20 {
    /// Key length in bytes.
    pub const KEY_LEN: usize = 32;
    /// Nonce length in bytes.
    pub const NONCE_LEN: usize = 12;

    /// A key on the preferred implementation for this CPU ([`ChaCha20Impl::preferred`]).
    pub fn new(key: &[u8]) -> Result<Self, Error> {
        Self::with_impl(key, ChaCha20Impl::preferred())
    }

    /// A key on the given implementation.
    pub fn with_impl(key: &[u8], imp: ChaCha20Impl) -> Result<Self, Error> {
        let key: &[u8; 32] = key.try_into().map_err(|_| Error::InvalidKeyLength)?;
        Ok(Self { key: words(key), imp })
    }

    /// The implementation this key runs on.
    pub fn implementation(&self) -> ChaCha20Impl {
        self.imp
    }

    /// XORs the keystream for `nonce`, starting at block `counter`, into `buf` (encryption and
    /// decryption are the same). Errors if the nonce is not 12 bytes or if the 32-bit block
    /// counter would wrap within `buf`.
    pub fn apply_keystream(&self, nonce: &[u8], counter: u32, buf: &mut [u8]) -> Result<(), Error> {
        let nonce: &[u8; 12] = nonce.try_into().map_err(|_| Error::InvalidNonceLength)?;
        if !fits(counter, buf.len()) {
            return Err(Error::MessageTooLong);
        }
        let mut state = state(&self.key, counter, &words(nonce));
        self.imp.xor_keystream(&mut state, buf);
        wipe(&mut state);
        Ok(())
    }

    /// Writes `input` XOR the keystream (as [`ChaCha20::apply_keystream`]) to the start of
    /// `output`, which must be at least as long as `input`.
    pub fn xor_keystream(
        &self,
        nonce: &[u8],
        counter: u32,
        input: &[u8],
        output: &mut [u8],
    ) -> Result<(), Error> {
        let output = output.get_mut(..input.len()).ok_or(Error::BufferTooSmall)?;
        output.copy_from_slice(input);
        self.apply_keystream(nonce, counter, output).inspect_err(|_| output.fill(0))
    }
}

impl Drop for ChaCha20 {
    fn drop(&mut self) {
        self.key.zeroize();
    }
}

impl core::fmt::Debug for ChaCha20 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ChaCha20").field("imp", &self.imp).finish_non_exhaustive()
    }
}

/// HChaCha20 (draft-irtf-cfrg-xchacha §2.2): derives a 256-bit subkey from `key` and a 128-bit
/// `nonce`, as XChaCha20 does with the first 16 bytes of its 24-byte nonce.
#[must_use]
pub fn hchacha20(key: &[u8; 32], nonce: &[u8; 16]) -> [u8; 32] {
    let mut key = words::<8, 32>(key);
    let mut out = [0; 32];
    let mut sub = hchacha20_words(&key, &words(nonce));
    for (o, w) in out.chunks_exact_mut(4).zip(sub) {
        o.copy_from_slice(&w.to_le_bytes());
    }
    key.zeroize();
    sub.zeroize();
    out
}

/// HChaCha20 on words: the subkey for `key` and the four nonce words.
pub(crate) fn hchacha20_words(key: &[u32; 8], nonce: &[u32; 4]) -> [u32; 8] {
    let mut s = state(key, nonce[0], &[nonce[1], nonce[2], nonce[3]]);
    let out = portable::hchacha(&s);
    wipe(&mut s);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Implementation;

    #[test]
    fn portable_is_always_available_and_last() {
        assert_eq!(ChaCha20Impl::available().last(), Some(ChaCha20Impl::Portable));
        assert_eq!(ChaCha20Impl::by_name("portable"), Some(ChaCha20Impl::Portable));
        assert_eq!(ChaCha20Impl::by_name("no-such-backend"), None);
        for imp in ChaCha20Impl::available() {
            assert!(ChaCha20Impl::ALL.contains(&imp.name()));
        }
    }

    #[test]
    fn counter_wrap_is_refused() {
        assert!(fits(u32::MAX, 64));
        assert!(!fits(u32::MAX, 65));
        assert!(fits(0, 0));
        assert!(fits(u32::MAX, 0));
        let key = ChaCha20::new(&[0; 32]).unwrap();
        let mut buf = [0; 65];
        assert_eq!(key.apply_keystream(&[0; 12], u32::MAX, &mut buf), Err(Error::MessageTooLong));
        assert_eq!(key.apply_keystream(&[0; 12], u32::MAX, &mut buf[..64]), Ok(()));
    }

    #[test]
    fn wrong_lengths_are_errors() {
        assert_eq!(ChaCha20::new(&[0; 31]).err(), Some(Error::InvalidKeyLength));
        let key = ChaCha20::new(&[0; 32]).unwrap();
        assert_eq!(key.apply_keystream(&[0; 8], 0, &mut []), Err(Error::InvalidNonceLength));
        assert_eq!(
            key.xor_keystream(&[0; 12], 0, &[1; 4], &mut [0; 3]),
            Err(Error::BufferTooSmall)
        );
    }
}
