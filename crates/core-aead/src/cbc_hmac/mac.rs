//! HMAC-SHA1, HMAC-SHA256 and HMAC-SHA384 (RFC 2104) over the raw compression function,
//! keyed once (the ipad and opad blocks compressed when the key is built), with an inner hash
//! whose message length may be secret: every block that could hold the end of the message is
//! compressed, built with masks, and the chaining value after the right one is selected in
//! constant time. Opening passes the length the padding gives, anywhere in a 256-byte window;
//! MAC-then-encrypt sealing, whose length is public, pads its last blocks plainly
//! (`finish_public`), and encrypt-then-MAC sealing masks only its one or two final blocks.
//! The same code serves SHA-1 and SHA-256 (64-byte blocks, 8-byte length field,
//! 32-bit words) and SHA-384 (128-byte blocks, 16-byte length field, 64-bit words).

use core_hash::{Hash, Sha1, Sha256, Sha384, value_barrier};
use zeroize::Zeroize;

/// The longest MAC: HMAC-SHA384's 48 bytes.
pub(super) const MAX_MAC_LEN: usize = 48;
/// The bytes of the length field that carry the bit count: its last 8 (FIPS 180-4 §5.1). A
/// 16-byte SHA-384 field starts with 8 zero bytes for any message under 2^61 bytes.
const COUNT_LEN: usize = 8;

pub(super) use sealed::Block;
use sealed::Word as _;

mod sealed {
    use zeroize::Zeroize;

    pub trait Sealed {}
    impl Sealed for core_hash::Sha1 {}
    impl Sealed for core_hash::Sha256 {}
    impl Sealed for core_hash::Sha384 {}

    /// A word of a chaining value: 32 bits (SHA-1, SHA-256) or 64 (SHA-384).
    pub trait Word: Copy + Zeroize {
        /// The zero word.
        const ZERO: Self;
        /// `self` where `mask` is all ones, zero where it is zero (no branch).
        fn masked(self, mask: usize) -> Self;
        /// Bitwise or.
        fn or(self, other: Self) -> Self;
        /// Writes the word big-endian into `out`, which is exactly its size.
        fn write_be(self, out: &mut [u8]);
    }

    impl Word for u32 {
        const ZERO: Self = 0;
        #[inline(always)]
        fn masked(self, mask: usize) -> Self {
            self & mask as u32
        }
        #[inline(always)]
        fn or(self, other: Self) -> Self {
            self | other
        }
        fn write_be(self, out: &mut [u8]) {
            out.copy_from_slice(&self.to_be_bytes());
        }
    }

    impl Word for u64 {
        const ZERO: Self = 0;
        #[inline(always)]
        fn masked(self, mask: usize) -> Self {
            // Widened without a branch where `usize` has 32 bits.
            let m = mask as u64;
            self & (m | m << 32)
        }
        #[inline(always)]
        fn or(self, other: Self) -> Self {
            self | other
        }
        fn write_be(self, out: &mut [u8]) {
            out.copy_from_slice(&self.to_be_bytes());
        }
    }

    /// A compression-function block: 64 or 128 bytes.
    pub trait Block: Copy + AsRef<[u8]> + AsMut<[u8]> + Zeroize {
        /// The all-zero block.
        const ZERO: Self;
        /// The whole blocks at the start of `data`.
        fn chunks(data: &[u8]) -> &[Self];
        /// The whole blocks at the start of `data`, mutably.
        fn chunks_mut(data: &mut [u8]) -> &mut [Self];
        /// `blocks` as one run of bytes, mutably.
        fn flat_mut(blocks: &mut [Self]) -> &mut [u8];
    }

    macro_rules! block {
        ($($n:literal)*) => {$(
            impl Block for [u8; $n] {
                const ZERO: Self = [0; $n];
                #[inline(always)]
                fn chunks(data: &[u8]) -> &[Self] {
                    data.as_chunks().0
                }
                #[inline(always)]
                fn chunks_mut(data: &mut [u8]) -> &mut [Self] {
                    data.as_chunks_mut().0
                }
                #[inline(always)]
                fn flat_mut(blocks: &mut [Self]) -> &mut [u8] {
                    blocks.as_flattened_mut()
                }
            }
        )*};
    }
    block!(64 128);
}

/// A hash the TLS CBC record MAC runs on: [`Sha1`] (HMAC-SHA1, the `_SHA` suites), [`Sha256`]
/// (HMAC-SHA256, the `_SHA256` suites) or [`Sha384`] (HMAC-SHA384, the `_SHA384` suites).
/// Sealed: the constant-time check needs its compression function, block size and padding,
/// which only these three expose.
pub trait RecordHash: Hash + sealed::Sealed {
    /// A chaining-value word.
    #[doc(hidden)]
    type Word: sealed::Word;
    /// A compression-function block ([`Hash::BLOCK_LEN`] bytes).
    #[doc(hidden)]
    type Block: sealed::Block;
    /// Bytes of the length field that ends the padding (FIPS 180-4 §5.1): 8, or 16 for
    /// SHA-384.
    #[doc(hidden)]
    const LEN_FIELD: usize;
    /// The initial chaining value, in the first words of eight.
    #[doc(hidden)]
    const INITIAL: [Self::Word; 8];

    /// Compresses `blocks` into the first words of `state`.
    #[doc(hidden)]
    fn compress(imp: Self::Impl, state: &mut [Self::Word; 8], blocks: &[Self::Block]);

    /// The stitched steps of MAC-then-encrypt sealing through a kernel that does both, where
    /// this CPU, `imp` and `aes` have one: for each step `i` while `lead + BLOCK_LEN(i + 1) ≤
    /// buf.len()`, compresses the block of plaintext at `lead + BLOCK_LEN·i` into `state` and
    /// CBC-encrypts the `BLOCK_LEN` bytes at `BLOCK_LEN·i` in place, chaining through `chain`.
    /// Returns the number of steps done, from the first: none where there is no kernel.
    #[doc(hidden)]
    fn seal_steps(
        imp: Self::Impl,
        aes: &crate::Aes,
        chain: &mut [u8; 16],
        state: &mut [Self::Word; 8],
        buf: &mut [u8],
        lead: usize,
    ) -> usize {
        let _ = (imp, aes, chain, state, buf, lead);
        0
    }
}

impl RecordHash for Sha256 {
    type Word = u32;
    type Block = [u8; 64];
    const LEN_FIELD: usize = 8;
    const INITIAL: [u32; 8] = Sha256::INITIAL_STATE;

    #[inline]
    fn compress(imp: Self::Impl, state: &mut [u32; 8], blocks: &[[u8; 64]]) {
        imp.compress_blocks(state, blocks);
    }

    #[cfg(all(feature = "asm", target_arch = "x86_64"))]
    fn seal_steps(
        imp: Self::Impl,
        aes: &crate::Aes,
        chain: &mut [u8; 16],
        state: &mut [u32; 8],
        buf: &mut [u8],
        lead: usize,
    ) -> usize {
        super::x86_stitched::seal_sha256(imp, aes, chain, state, buf, lead)
    }
}

impl RecordHash for Sha1 {
    type Word = u32;
    type Block = [u8; 64];
    const LEN_FIELD: usize = 8;
    const INITIAL: [u32; 8] = {
        let s = Sha1::INITIAL_STATE;
        [s[0], s[1], s[2], s[3], s[4], 0, 0, 0]
    };

    #[inline]
    fn compress(imp: Self::Impl, state: &mut [u32; 8], blocks: &[[u8; 64]]) {
        if let Some((words, _)) = state.split_first_chunk_mut::<5>() {
            imp.compress_blocks(words, blocks);
        }
    }

    #[cfg(all(feature = "asm", target_arch = "x86_64"))]
    fn seal_steps(
        imp: Self::Impl,
        aes: &crate::Aes,
        chain: &mut [u8; 16],
        state: &mut [u32; 8],
        buf: &mut [u8],
        lead: usize,
    ) -> usize {
        super::x86_stitched::seal_sha1(imp, aes, chain, state, buf, lead)
    }
}

impl RecordHash for Sha384 {
    type Word = u64;
    type Block = [u8; 128];
    const LEN_FIELD: usize = 16;
    const INITIAL: [u64; 8] = Sha384::INITIAL_STATE;

    #[inline]
    fn compress(imp: Self::Impl, state: &mut [u64; 8], blocks: &[[u8; 128]]) {
        imp.compress_blocks(state, blocks);
    }
}

/// All ones when `a < b`, else zero; both below `2^(usize::BITS − 1)` (lengths and positions).
#[inline(always)]
pub(super) fn lt_mask(a: usize, b: usize) -> usize {
    0usize.wrapping_sub(a.wrapping_sub(b) >> (usize::BITS - 1))
}

/// All ones when `a == b`, else zero.
#[inline(always)]
pub(super) fn eq_mask(a: usize, b: usize) -> usize {
    let x = a ^ b;
    0usize.wrapping_sub((!x & x.wrapping_sub(1)) >> (usize::BITS - 1))
}

/// HMAC keyed for one hash: the chaining values after the ipad and opad blocks (RFC 2104
/// steps 1–3 and the outer hash's first block), and the implementation they run on. Wiped
/// on drop.
#[derive(Clone)]
pub(super) struct MacKey<H: RecordHash> {
    imp: H::Impl,
    inner: [H::Word; 8],
    outer: [H::Word; 8],
}

impl<H: RecordHash> MacKey<H> {
    /// Keys HMAC on `imp`; a key longer than a block is hashed first (RFC 2104 §2).
    pub(super) fn new(imp: H::Impl, key: &[u8]) -> Self {
        let mut k0 = H::Block::ZERO;
        if key.len() > H::BLOCK_LEN {
            let mut h = H::with_impl(imp);
            h.update(key);
            let mut digest = h.finalize();
            k0.as_mut()[..H::OUTPUT_LEN].copy_from_slice(digest.as_ref());
            digest.as_mut().zeroize();
        } else {
            k0.as_mut()[..key.len()].copy_from_slice(key);
        }
        let keyed = |k0: &H::Block, pad: u8| {
            let mut block = *k0;
            block.as_mut().iter_mut().for_each(|b| *b ^= pad);
            let mut state = H::INITIAL;
            H::compress(imp, &mut state, core::slice::from_ref(&block));
            block.zeroize();
            state
        };
        let (inner, outer) = (keyed(&k0, 0x36), keyed(&k0, 0x5c));
        k0.zeroize();
        Self { imp, inner, outer }
    }

    /// The implementation of `H` this key runs on.
    pub(super) fn implementation(&self) -> H::Impl {
        self.imp
    }

    /// The HMAC of `head ‖ data[..len]` in the first [`Hash::OUTPUT_LEN`] bytes, where `len`
    /// may be secret but lies in `min_len..=data.len()` (`min_len` and `data.len()` are
    /// public, as is `head.len()`, below a block). The work depends on the public lengths
    /// only.
    pub(super) fn mac(
        &self,
        head: &[u8],
        data: &[u8],
        len: usize,
        min_len: usize,
    ) -> [u8; MAX_MAC_LEN] {
        self.finish(self.inner, 0, head, data, len, min_len)
    }

    /// The inner hash's chaining value after the ipad block, to absorb the first blocks of
    /// `head ‖ data` with [`MacKey::absorb`] before [`MacKey::finish`].
    pub(super) fn inner(&self) -> [H::Word; 8] {
        self.inner
    }

    /// Compresses blocks of the inner hash's message into `state`.
    #[inline]
    pub(super) fn absorb(&self, state: &mut [H::Word; 8], blocks: &[H::Block]) {
        H::compress(self.imp, state, blocks);
    }

    /// [`MacKey::mac`] from the inner `state` after the first `done` blocks of the stream
    /// `head ‖ data` (none may reach `min_len`).
    pub(super) fn finish(
        &self,
        mut state: [H::Word; 8],
        done: usize,
        head: &[u8],
        data: &[u8],
        len: usize,
        min_len: usize,
    ) -> [u8; MAX_MAC_LEN] {
        let (block_len, hl, imp) = (H::BLOCK_LEN, head.len(), self.imp);
        // The inner hash's message, after the ipad block, is the stream `head ‖ data`, cut
        // at `end`; its bit count in the padding also covers the ipad block.
        let end = hl + len;
        let (min_end, max_end) = (hl + min_len, hl + data.len());
        // Blocks that end before the shortest message can are hashed as they are: the first
        // (head and the start of data) through a copy, the rest straight from `data`.
        let whole = min_end / block_len;
        let mut block = H::Block::ZERO;
        if done == 0 && whole > 0 {
            copy_stream(block.as_mut(), 0, head, data);
            H::compress(imp, &mut state, core::slice::from_ref(&block));
        }
        if whole > done.max(1) {
            let blocks = H::Block::chunks(&data[block_len - hl..]);
            H::compress(imp, &mut state, &blocks[done.max(1) - 1..whole - 1]);
        }
        // Every block that could hold the message's end or its length field, built with
        // masks: message bytes before `end`, 0x80 at `end`, the bit count at the end of the
        // final block `(end + LEN_FIELD) / block_len`; the chaining value after that block
        // is kept.
        let final_block = (end + H::LEN_FIELD) / block_len;
        let bits = ((block_len + end) as u64) << 3;
        let mut out = [H::Word::ZERO; 8];
        for j in whole.max(done)..=(max_end + H::LEN_FIELD) / block_len {
            let is_final = eq_mask(j, final_block);
            // The block's bytes as they are (public positions), then the masks by the secret
            // end, on byte indices so that the loop runs in vector registers: `keep` bytes
            // precede the end (none, some or all), the 0x80 goes at `mark` (past the block,
            // 255, when the end is before it).
            let start = block_len * j;
            copy_stream(block.as_mut(), start, head, data);
            let before = lt_mask(end, start);
            let rel = end.wrapping_sub(start) & !before;
            let over = lt_mask(block_len, rel);
            let keep = (rel & !over) | (block_len & over);
            let mark = keep | (0xff & before);
            // Hidden from the optimiser, which could otherwise turn the masks into a
            // length-dependent copy.
            let (keep, mark) = (value_barrier(keep as u32) as u8, value_barrier(mark as u32) as u8);
            for (i, b) in (0u8..).zip(block.as_mut().iter_mut()) {
                let kept = 0u8.wrapping_sub(u8::from(i < keep));
                let marker = 0u8.wrapping_sub(u8::from(i == mark)) & 0x80;
                *b = (*b & kept) | marker;
            }
            let count = &mut block.as_mut()[block_len - COUNT_LEN..];
            for (b, l) in count.iter_mut().zip(bits.to_be_bytes()) {
                *b |= l & is_final as u8;
            }
            let mut next = state;
            H::compress(imp, &mut next, core::slice::from_ref(&block));
            for (o, s) in out.iter_mut().zip(next) {
                *o = o.or(s.masked(is_final));
            }
            state = next;
        }
        block.zeroize();
        let tag = self.outer(&out);
        out.zeroize();
        tag
    }

    /// [`MacKey::finish`] where the length is public (sealing): from the inner `state` after
    /// the first `done` blocks, the rest of the inner message, `tail` (under two blocks), is
    /// padded as usual, with no masks and no block beyond the final one.
    pub(super) fn finish_public(
        &self,
        mut state: [H::Word; 8],
        done: usize,
        tail: &[u8],
    ) -> [u8; MAX_MAC_LEN] {
        let block_len = H::BLOCK_LEN;
        // The bit count also covers the ipad block.
        let bits = ((block_len * (done + 1) + tail.len()) as u64) << 3;
        let (whole, rest) = tail.split_at(tail.len() / block_len * block_len);
        H::compress(self.imp, &mut state, H::Block::chunks(whole));
        // Two blocks of the hash's size (a Cortex-M0's stack holds this).
        let mut padded = [H::Block::ZERO; 2];
        let n = (rest.len() + H::LEN_FIELD) / block_len + 1;
        let bytes = H::Block::flat_mut(&mut padded[..n]);
        bytes[..rest.len()].copy_from_slice(rest);
        bytes[rest.len()] = 0x80;
        bytes[n * block_len - COUNT_LEN..].copy_from_slice(&bits.to_be_bytes());
        H::compress(self.imp, &mut state, &padded[..n]);
        padded.zeroize();
        let tag = self.outer(&state);
        state.zeroize();
        tag
    }

    /// The outer hash of the inner digest (the first words of `inner`): the opad block (in
    /// `self.outer`), then the digest and its padding in one block.
    fn outer(&self, inner: &[H::Word; 8]) -> [u8; MAX_MAC_LEN] {
        let block_len = H::BLOCK_LEN;
        let mut block = H::Block::ZERO;
        let bytes = block.as_mut();
        write_digest::<H>(inner, &mut bytes[..H::OUTPUT_LEN]);
        bytes[H::OUTPUT_LEN] = 0x80;
        let outer_bits = ((block_len + H::OUTPUT_LEN) as u64) << 3;
        bytes[block_len - COUNT_LEN..].copy_from_slice(&outer_bits.to_be_bytes());
        let mut state = self.outer;
        H::compress(self.imp, &mut state, core::slice::from_ref(&block));
        let mut tag = [0u8; MAX_MAC_LEN];
        write_digest::<H>(&state, &mut tag[..H::OUTPUT_LEN]);
        block.zeroize();
        state.zeroize();
        tag
    }
}

/// Fills `out` with the bytes of the stream `head ‖ data` from position `start`, zeros past
/// its end (all positions public).
fn copy_stream(out: &mut [u8], start: usize, head: &[u8], data: &[u8]) {
    let from_head = head.get(start..).unwrap_or_default();
    let n = from_head.len().min(out.len());
    out[..n].copy_from_slice(&from_head[..n]);
    let from_data = data.get(start + n - head.len().min(start + n)..).unwrap_or_default();
    let m = from_data.len().min(out.len() - n);
    out[n..n + m].copy_from_slice(&from_data[..m]);
    out[n + m..].fill(0);
}

/// The first words of `state`, big-endian, filling `out` (the digest: FIPS 180-4 §6).
fn write_digest<H: RecordHash>(state: &[H::Word; 8], out: &mut [u8]) {
    let width = core::mem::size_of::<H::Word>();
    for (chunk, w) in out.chunks_exact_mut(width).zip(state) {
        w.write_be(chunk);
    }
}

impl<H: RecordHash> Drop for MacKey<H> {
    fn drop(&mut self) {
        self.inner.zeroize();
        self.outer.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core_hash::Implementation;
    use hex_literal::hex;

    /// RFC 2202 (HMAC-SHA1) and RFC 4231 (HMAC-SHA256, HMAC-SHA384) cases 1, 2, 3, 6 and 7
    /// through the masked inner hash, on every implementation and for every window start: the
    /// MAC must not depend on where the window begins, nor on the bytes after the message.
    fn check<H: RecordHash>(key: &[u8], msg: &[u8], expected: &[u8]) {
        for imp in H::Impl::available() {
            let mac = MacKey::<H>::new(imp, key);
            for head_len in [0, 13, 63, H::BLOCK_LEN - 1] {
                let (head, rest) = msg.split_at(head_len.min(msg.len()));
                let mut data = std::vec::Vec::from(rest);
                data.extend_from_slice(&[0xa5; 140]);
                for min_len in 0..=rest.len() {
                    let tag = mac.mac(head, &data, rest.len(), min_len);
                    assert_eq!(&tag[..H::OUTPUT_LEN], expected, "{} {min_len}", imp.name());
                }
            }
        }
    }

    #[test]
    fn rfc2202_hmac_sha1() {
        check::<Sha1>(&[0x0b; 20], b"Hi There", &hex!("b617318655057264e28bc0b6fb378c8ef146be00"));
        check::<Sha1>(
            b"Jefe",
            b"what do ya want for nothing?",
            &hex!("effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"),
        );
        check::<Sha1>(&[0xaa; 20], &[0xdd; 50], &hex!("125d7342b9ac11cd91a39af48aa17b4f63f175d3"));
        check::<Sha1>(
            &[0xaa; 80],
            b"Test Using Larger Than Block-Size Key - Hash Key First",
            &hex!("aa4ae5e15272d00e95705637ce8a3b55ed402112"),
        );
        check::<Sha1>(
            &[0xaa; 80],
            b"Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data",
            &hex!("e8e99d0f45237d786d6bbaa7965c7808bbff1a91"),
        );
    }

    #[test]
    fn rfc4231_hmac_sha256() {
        check::<Sha256>(
            &[0x0b; 20],
            b"Hi There",
            &hex!("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        );
        check::<Sha256>(
            b"Jefe",
            b"what do ya want for nothing?",
            &hex!("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        );
        check::<Sha256>(
            &[0xaa; 20],
            &[0xdd; 50],
            &hex!("773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        );
        check::<Sha256>(
            &[0xaa; 131],
            b"Test Using Larger Than Block-Size Key - Hash Key First",
            &hex!("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        );
        check::<Sha256>(
            &[0xaa; 131],
            b"This is a test using a larger than block-size key and a larger than block-size \
              data. The key needs to be hashed before being used by the HMAC algorithm.",
            &hex!("9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
        );
    }

    #[test]
    fn rfc4231_hmac_sha384() {
        check::<Sha384>(
            &[0x0b; 20],
            b"Hi There",
            &hex!(
                "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec6"
                "82aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6"
            ),
        );
        check::<Sha384>(
            b"Jefe",
            b"what do ya want for nothing?",
            &hex!(
                "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47"
                "e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649"
            ),
        );
        check::<Sha384>(
            &[0xaa; 20],
            &[0xdd; 50],
            &hex!(
                "88062608d3e6ad8a0aa2ace014c8a86f0aa635d947ac9feb"
                "e83ef4e55966144b2a5ab39dc13814b94e3ab6e101a34f27"
            ),
        );
        check::<Sha384>(
            &[0xaa; 131],
            b"Test Using Larger Than Block-Size Key - Hash Key First",
            &hex!(
                "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f"
                "3cd11f05033ac4c60c2ef6ab4030fe8296248df163f44952"
            ),
        );
        check::<Sha384>(
            &[0xaa; 131],
            b"This is a test using a larger than block-size key and a larger than block-size \
              data. The key needs to be hashed before being used by the HMAC algorithm.",
            &hex!(
                "6617178e941f020d351e2f254e8fd32c602420feb0b8fb9a"
                "dccebb82461e99c5a678cc31e799176d3860e6110c46523e"
            ),
        );
    }

    #[test]
    fn masks() {
        for a in [0usize, 1, 2, 63, 64, 255, 256, 1 << 20] {
            for b in [0usize, 1, 2, 63, 64, 255, 256, 1 << 20] {
                assert_eq!(lt_mask(a, b), if a < b { usize::MAX } else { 0 });
                assert_eq!(eq_mask(a, b), if a == b { usize::MAX } else { 0 });
            }
        }
    }
}
