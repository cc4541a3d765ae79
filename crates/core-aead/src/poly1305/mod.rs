//! Poly1305, the one-time authenticator of RFC 8439 §2.5, with five implementations:
//!
//! - [`portable32`]: radix 2^26 with 32×32→64 products; the default on 32-bit CPUs;
//! - `thumb1`: portable32 with its dot products in Thumb-1 assembly (the Cortex-M0, with
//!   `asm`);
//! - [`portable64`]: radix 2^44 with 64×64→128 products, blocks in pairs;
//! - [`portable_r64`]: radix 2^64, four 64×64→128 products per block; the default on 64-bit
//!   CPUs without vector units, measured faster than `portable64` at every length;
//! - [`x86_avx2`]: four blocks at a time, radix 2^26 in YMM lanes, with the powers of `r`
//!   computed in the lanes; from 384 bytes on it beats the scalar code (measured on a Cascade
//!   Lake Xeon), below it hands over to `portable_r64`;
//! - [`x86_avx512`]: the same on eight ZMM lanes, with the same crossover;
//! - [`x86_ifma`]: eight ZMM lanes in radix 2^44 with AVX-512 IFMA's 52-bit multiply-adds,
//!   nine products per block instead of 25.
//!
//! A key must authenticate one message only; the AEADs derive a fresh one per nonce.

mod portable32;
#[cfg(target_pointer_width = "64")]
mod portable64;
#[cfg(target_pointer_width = "64")]
pub(crate) mod portable_r64;
#[cfg(target_arch = "x86_64")]
mod r26;
#[cfg(all(target_arch = "arm", feature = "asm"))]
mod thumb1;
#[cfg(target_arch = "x86_64")]
mod x86_avx2;
#[cfg(target_arch = "x86_64")]
mod x86_avx512;
#[cfg(target_arch = "x86_64")]
mod x86_ifma;
#[cfg(target_arch = "x86_64")]
mod x86_r26;

use crate::Error;
use zeroize::Zeroize;

core_hash::implementation_enum! {
    /// A Poly1305 implementation. Accelerated variants carry the CPU-feature token that proves
    /// they can run, so they can only be obtained through [`Implementation::available`](crate::Implementation::available).
    ///
    /// The portable variants run everywhere; `available()` lists those suited to the target's
    /// word size (`portable_r64` and `portable64` on 64-bit targets, `portable32` on 32-bit
    /// ones) first. The 64-bit-limb backends exist on 64-bit targets only.
    pub enum Poly1305Impl {
        accelerated {
            /// AVX-512 IFMA: eight blocks per step in radix 2^44, with `portable_r64` for
            /// short inputs.
            X86Avx512Ifma(core_cpu::Avx512Ifma) => "x86_avx512_ifma",
            /// AVX-512: eight blocks per step in radix 2^26, with `portable_r64` for short
            /// inputs.
            X86Avx512(core_cpu::Avx512) => "x86_avx512",
            /// AVX2: four blocks per step in radix 2^26, with `portable_r64` for short inputs.
            X86Avx2(core_cpu::Avx2) => "x86_avx2",
        }
        portable {
            /// Radix 2^64, 64×64→128-bit products.
            PortableR64 => "portable_r64" for 64 if target_pointer_width = "64",
            /// Radix 2^44, 64×64→128-bit products.
            Portable64 => "portable64" for 64 if target_pointer_width = "64",
            /// Radix 2^26 with its dot products in Thumb-1 assembly: the Cortex-M0.
            Thumb1 => "thumb1" for 32 if thumb1,
            /// Radix 2^26, 32-bit products: `thumb1`'s twin.
            Portable32 => "portable32" for 32 if twin,
        }
    }
}

/// The accumulator and key in the radix the implementation works in.
#[derive(Clone)]
enum Core {
    R26(portable32::State),
    #[cfg(target_pointer_width = "64")]
    R44(portable64::State),
    #[cfg(target_pointer_width = "64")]
    R64(portable_r64::State),
}

impl Core {
    #[inline]
    fn new(key: &[u8; 32], imp: Poly1305Impl) -> Self {
        match imp {
            #[cfg(target_pointer_width = "64")]
            Poly1305Impl::Portable64 => Core::R44(portable64::State::new(key)),
            #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
            Poly1305Impl::Portable32 => Core::R26(portable32::State::new(key)),
            #[cfg(target_pointer_width = "64")]
            _ => Core::R64(portable_r64::State::new(key)),
            #[cfg(not(target_pointer_width = "64"))]
            _ => Core::R26(portable32::State::new(key)),
        }
    }

    /// Absorbs whole 16-byte message blocks on `imp`.
    #[inline]
    fn blocks(&mut self, imp: Poly1305Impl, data: &[u8]) {
        match (self, imp) {
            (Core::R26(s), imp) => r26_blocks(s, imp, data, true),
            #[cfg(target_pointer_width = "64")]
            (Core::R44(s), _) => s.blocks(data, true),
            #[cfg(target_arch = "x86_64")]
            (Core::R64(s), Poly1305Impl::X86Avx512Ifma(token)) => x86_ifma::blocks(token, s, data),
            #[cfg(target_arch = "x86_64")]
            (Core::R64(s), Poly1305Impl::X86Avx512(token)) => x86_avx512::blocks(token, s, data),
            #[cfg(target_arch = "x86_64")]
            (Core::R64(s), Poly1305Impl::X86Avx2(token)) => x86_avx2::blocks(token, s, data),
            #[cfg(target_pointer_width = "64")]
            (Core::R64(s), _) => s.blocks(data, true),
        }
    }

    /// Absorbs the padded last block of a message (no 2^128 bit) on `imp`.
    #[inline]
    fn last_block(&mut self, imp: Poly1305Impl, block: &[u8; 16]) {
        match self {
            Core::R26(s) => r26_blocks(s, imp, block, false),
            #[cfg(target_pointer_width = "64")]
            Core::R44(s) => s.blocks(block, false),
            #[cfg(target_pointer_width = "64")]
            Core::R64(s) => s.blocks(block, false),
        }
    }

    #[inline]
    fn finish(&self) -> [u8; 16] {
        match self {
            Core::R26(s) => s.finish(),
            #[cfg(target_pointer_width = "64")]
            Core::R44(s) => s.finish(),
            #[cfg(target_pointer_width = "64")]
            Core::R64(s) => s.finish(),
        }
    }
}

/// Absorbs whole blocks into the radix-2^26 state on `imp`: `thumb1`'s dot products, or
/// portable32's.
#[inline(always)]
fn r26_blocks(s: &mut portable32::State, imp: Poly1305Impl, data: &[u8], hibit: bool) {
    // Without the twin, every radix-2^26 state is thumb1's (and the Rust path is not linked).
    #[cfg(all(target_arch = "arm", feature = "asm"))]
    if imp == Poly1305Impl::Thumb1 || !cfg!(feature = "portable-twins") {
        return thumb1::blocks(s, data, hibit);
    }
    let _ = imp;
    s.blocks(data, hibit);
}

impl Drop for Core {
    fn drop(&mut self) {
        match self {
            Core::R26(s) => s.zeroize(),
            #[cfg(target_pointer_width = "64")]
            Core::R44(s) => s.zeroize(),
            #[cfg(target_pointer_width = "64")]
            Core::R64(s) => s.zeroize(),
        }
    }
}

/// The ChaCha20-Poly1305 tag (RFC 8439 §2.8) under the one-time key `otk`: Poly1305 over
/// `aad`, zeros to a 16-byte boundary, `ciphertext`, zeros to a 16-byte boundary, and both
/// lengths as 64-bit little-endian numbers.
///
/// Every block of that input is a full one, so it goes straight to the block function without
/// [`Poly1305`]'s buffering, in one call per implementation (for the x86 ones, one function
/// compiled with their features).
pub(crate) fn aead_tag(
    imp: Poly1305Impl,
    otk: &[u8; 32],
    aad: &[u8],
    ciphertext: &[u8],
) -> [u8; 16] {
    match imp {
        #[cfg(target_arch = "x86_64")]
        Poly1305Impl::X86Avx512Ifma(token) => x86_ifma::aead_tag(token, otk, aad, ciphertext),
        #[cfg(target_arch = "x86_64")]
        Poly1305Impl::X86Avx512(token) => x86_avx512::aead_tag(token, otk, aad, ciphertext),
        #[cfg(target_arch = "x86_64")]
        Poly1305Impl::X86Avx2(token) => x86_avx2::aead_tag(token, otk, aad, ciphertext),
        #[cfg(all(target_arch = "arm", feature = "asm"))]
        Poly1305Impl::Thumb1 => {
            let mut st = portable32::State::new(otk);
            let blocks = |st: &mut _, data: &[u8]| thumb1::blocks(st, data, true);
            absorb_aead(&mut st, aad, ciphertext, blocks, blocks);
            let tag = st.finish();
            st.zeroize();
            tag
        }
        #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
        Poly1305Impl::Portable32 => {
            let mut st = portable32::State::new(otk);
            absorb_aead(
                &mut st,
                aad,
                ciphertext,
                |st, data| st.blocks(data, true),
                |st, data| {
                    st.blocks(data, true);
                },
            );
            let tag = st.finish();
            st.zeroize();
            tag
        }
        #[cfg(target_pointer_width = "64")]
        Poly1305Impl::Portable64 => {
            let mut st = portable64::State::new(otk);
            absorb_aead(
                &mut st,
                aad,
                ciphertext,
                |st, data| st.blocks(data, true),
                |st, data| {
                    st.blocks(data, true);
                },
            );
            let tag = st.finish();
            st.zeroize();
            tag
        }
        #[cfg(target_pointer_width = "64")]
        _ => {
            let mut st = portable_r64::State::new(otk);
            absorb_aead(
                &mut st,
                aad,
                ciphertext,
                |st, data| st.blocks(data, true),
                |st, data| {
                    st.blocks(data, true);
                },
            );
            let tag = st.finish();
            st.zeroize();
            tag
        }
        #[cfg(not(target_pointer_width = "64"))]
        _ => aead_tag(Poly1305Impl::PORTABLE, otk, aad, ciphertext),
    }
}

/// Feeds the AEAD's Poly1305 input to `blocks` (whole 16-byte blocks): the AAD's whole blocks
/// in place and its last partial block padded on the stack, the ciphertext's whole blocks to
/// `bulk` (where vector code may take over), then its last partial block padded and the
/// lengths block together.
#[inline(always)]
fn absorb_aead<S>(
    st: &mut S,
    aad: &[u8],
    ciphertext: &[u8],
    mut blocks: impl FnMut(&mut S, &[u8]),
    mut bulk: impl FnMut(&mut S, &[u8]),
) {
    let (whole, tail) = aad.split_at(aad.len() & !15);
    blocks(st, whole);
    if !tail.is_empty() {
        let mut last = [0; 16];
        last[..tail.len()].copy_from_slice(tail);
        blocks(st, &last);
    }
    let (whole, tail) = ciphertext.split_at(ciphertext.len() & !15);
    bulk(st, whole);
    let mut last = [0; 32];
    last[..tail.len()].copy_from_slice(tail);
    let end = tail.len().next_multiple_of(16);
    last[end..end + 8].copy_from_slice(&(aad.len() as u64).to_le_bytes());
    last[end + 8..end + 16].copy_from_slice(&(ciphertext.len() as u64).to_le_bytes());
    blocks(st, &last[..end + 16]);
}

/// A Poly1305 computation in progress (RFC 8439 §2.5): a one-time key, then any number of
/// [`update`](Self::update) calls, then [`finalize`](Self::finalize) or
/// [`verify`](Self::verify). The key and accumulator are wiped on drop.
///
/// ```
/// use core_aead::Poly1305;
///
/// let mut mac = Poly1305::new(&[1; 32]).unwrap();
/// mac.update(b"Cryptographic Forum ");
/// mac.update(b"Research Group");
/// let tag = mac.clone().finalize();
/// assert_eq!(mac.verify(&tag), Ok(()));
/// ```
#[derive(Clone)]
pub struct Poly1305 {
    imp: Poly1305Impl,
    core: Core,
    /// Bytes of an incomplete block.
    buf: [u8; 16],
    buf_len: usize,
}

impl Poly1305 {
    /// Key length in bytes (`r` then `s`).
    pub const KEY_LEN: usize = 32;
    /// Tag length in bytes.
    pub const TAG_LEN: usize = 16;

    /// A computation under the one-time `key`, on the preferred implementation for this CPU
    /// ([`Poly1305Impl::preferred`]).
    #[inline]
    pub fn new(key: &[u8]) -> Result<Self, Error> {
        Self::with_impl(key, Poly1305Impl::preferred())
    }

    /// A computation under the one-time `key`, on the given implementation.
    #[inline]
    pub fn with_impl(key: &[u8], imp: Poly1305Impl) -> Result<Self, Error> {
        let key: &[u8; 32] = key.try_into().map_err(|_| Error::InvalidKeyLength)?;
        Ok(Self::with_key(key, imp))
    }

    /// [`Poly1305::with_impl`] for a key known to be 32 bytes.
    #[inline]
    fn with_key(key: &[u8; 32], imp: Poly1305Impl) -> Self {
        Self { imp, core: Core::new(key, imp), buf: [0; 16], buf_len: 0 }
    }

    /// The implementation this computation runs on.
    pub fn implementation(&self) -> Poly1305Impl {
        self.imp
    }

    /// Absorbs `data`. Any length, any number of calls. Whole blocks go straight to the
    /// block function; bytes of a partial block pass through the buffer one at a time (on the
    /// Cortex-M0 the smallest code: no slice copies or range checks, and at most 15 bytes a
    /// call take this path on each side of the whole blocks).
    #[inline]
    pub fn update(&mut self, mut data: &[u8]) {
        loop {
            if self.buf_len == 0 {
                let (whole, rest) = data.split_at(data.len() & !15);
                self.core.blocks(self.imp, whole);
                data = rest;
            }
            let Some((&byte, rest)) = data.split_first() else { return };
            data = rest;
            self.buf[self.buf_len % 16] = byte;
            self.buf_len += 1;
            if self.buf_len == 16 {
                self.core.blocks(self.imp, &self.buf);
                self.buf_len = 0;
            }
        }
    }

    /// The 16-byte tag.
    #[must_use]
    #[inline]
    pub fn finalize(mut self) -> [u8; 16] {
        if self.buf_len > 0 {
            // The last, short block: a 1 byte after the message, zeros, and no 2^128 bit.
            for i in self.buf_len..16 {
                self.buf[i] = u8::from(i == self.buf_len);
            }
            self.core.last_block(self.imp, &self.buf);
        }
        self.core.finish()
    }

    /// Checks `tag` against the tag of the message, in constant time.
    #[inline]
    pub fn verify(self, tag: &[u8]) -> Result<(), Error> {
        if tag.len() != Self::TAG_LEN {
            return Err(Error::InvalidTagLength);
        }
        let mut ours = self.finalize();
        let ok = crate::tag_eq(&ours, tag);
        ours.zeroize();
        if ok { Ok(()) } else { Err(Error::AuthenticationFailed) }
    }
}

impl Drop for Poly1305 {
    fn drop(&mut self) {
        // The key and accumulator are wiped by `Core`'s own drop.
        self.buf.zeroize();
    }
}

impl core::fmt::Debug for Poly1305 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Poly1305").field("imp", &self.imp).finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Implementation;

    #[test]
    fn portables_are_always_available_and_last_native_first() {
        let all: std::vec::Vec<Poly1305Impl> = Poly1305Impl::available().collect();
        #[cfg(target_pointer_width = "64")]
        assert_eq!(all[all.len() - 3], Poly1305Impl::PORTABLE);
        assert_eq!(Poly1305Impl::by_name("portable32"), Some(Poly1305Impl::Portable32));
        assert_eq!(Poly1305Impl::by_name("portable64"), Some(Poly1305Impl::Portable64));
        assert_eq!(Poly1305Impl::by_name("portable_r64"), Some(Poly1305Impl::PortableR64));
        assert_eq!(Poly1305Impl::by_name("no-such-backend"), None);
        for imp in Poly1305Impl::available() {
            assert!(Poly1305Impl::ALL.contains(&imp.name()));
        }
    }

    #[test]
    fn wrong_lengths_are_errors() {
        assert_eq!(Poly1305::new(&[0; 16]).err(), Some(Error::InvalidKeyLength));
        let mac = Poly1305::new(&[0; 32]).unwrap();
        assert_eq!(mac.clone().verify(&[0; 15]), Err(Error::InvalidTagLength));
        // Key 0 gives tag 0 for any message.
        assert_eq!(mac.verify(&[0; 16]), Ok(()));
    }
}
