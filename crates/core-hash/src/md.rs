//! The Merkle–Damgård plumbing shared by MD5, SHA-1 and SHA-2: buffering partial blocks,
//! counting the message length, and the final padding (FIPS 180-4 §5.1). Only the
//! compression function differs between algorithms and backends, so it is passed in.

/// Partial-block buffer and message length of an MD-style hash with `B`-byte blocks.
#[derive(Clone)]
pub(crate) struct BlockBuffer<const B: usize> {
    buf: [u8; B],
    /// Bytes in `buf`; always `< B` between calls.
    pos: usize,
    /// Message length in bytes, modulo 2^64 (lengths are public, so plain arithmetic is fine).
    len: u64,
}

impl<const B: usize> Default for BlockBuffer<B> {
    fn default() -> Self {
        Self { buf: [0; B], pos: 0, len: 0 }
    }
}

impl<const B: usize> BlockBuffer<B> {
    /// Buffers `data`, calling `compress` on every complete block, in order. Whole blocks of
    /// `data` are handed over in one call, without copying, so backends can pipeline them.
    #[inline]
    pub(crate) fn update(&mut self, mut data: &[u8], mut compress: impl FnMut(&[[u8; B]])) {
        self.len = self.len.wrapping_add(data.len() as u64);
        if self.pos > 0 {
            let take = (B - self.pos).min(data.len());
            let (head, rest) = data.split_at(take);
            self.buf[self.pos..self.pos + take].copy_from_slice(head);
            self.pos += take;
            data = rest;
            if self.pos < B {
                return;
            }
            compress(core::slice::from_ref(&self.buf));
            self.pos = 0;
        }
        let (blocks, tail) = data.as_chunks::<B>();
        if !blocks.is_empty() {
            compress(blocks);
        }
        self.buf[..tail.len()].copy_from_slice(tail);
        self.pos = tail.len();
    }

    /// Appends the padding: a 1 bit, zeros, and the message length in bits as an `L`-byte
    /// integer (big-endian for SHA, little-endian for MD5) ending the last block.
    #[inline]
    pub(crate) fn finish<const L: usize>(
        &mut self,
        big_endian: bool,
        mut compress: impl FnMut(&[[u8; B]]),
    ) {
        let bits = u128::from(self.len) << 3;
        let pos = self.pos;
        self.buf[pos] = 0x80;
        self.buf[pos + 1..].fill(0);
        if pos + 1 > B - L {
            compress(core::slice::from_ref(&self.buf));
            self.buf.fill(0);
        }
        let len_field = &mut self.buf[B - L..];
        if big_endian {
            len_field.copy_from_slice(&bits.to_be_bytes()[16 - L..]);
        } else {
            len_field.copy_from_slice(&bits.to_le_bytes()[..L]);
        }
        compress(core::slice::from_ref(&self.buf));
        self.pos = 0;
    }

    /// Overwrites the buffered bytes, which may be secret (HMAC keys pass through here): a
    /// plain (vectorised) fill that the optimisation barrier keeps from being elided.
    pub(crate) fn wipe(&mut self) {
        self.buf.fill(0);
        zeroize::optimization_barrier(&self.buf);
        self.pos = 0;
        self.len = 0;
    }
}

/// Defines a Merkle–Damgård hash type (MD5, SHA-1, SHA-2) over an implementation enum with a
/// `compress(self, &mut [word; N], &[[u8; BLOCK]])` method: the struct, its inherent API, and
/// the [`Hash`](crate::Hash) and `Zeroize` impls. `$big_endian` selects SHA's byte order
/// (`true`) or MD5's (`false`) for the length field and the output.
macro_rules! md_hash {
    ($(#[$doc:meta])* $name:ident, $imp:ty, $word:ty, $block:literal, $words:literal,
     $out:literal, $big_endian:literal, $iv:expr) => {
        $(#[$doc])*
        ///
        /// Streaming: [`update`](Self::update) any number of times, [`Clone`] to fork the
        /// state, then [`finalize`](Self::finalize). The implementation is chosen once, in
        /// [`new`](Self::new), or given with [`with_impl`](Self::with_impl).
        #[derive(Clone)]
        pub struct $name {
            state: [$word; $words],
            buffer: $crate::md::BlockBuffer<$block>,
            imp: $imp,
        }

        impl $name {
            /// Bytes of output.
            pub const OUTPUT_LEN: usize = $out;
            /// Bytes per compression block.
            pub const BLOCK_LEN: usize = $block;
            const IV: [$word; $words] = $iv;

            /// A hasher on the fastest implementation this CPU can run.
            #[inline]
            #[must_use]
            pub fn new() -> Self {
                Self::with_impl(<$imp as $crate::Implementation>::best())
            }

            /// A hasher on the given implementation.
            #[inline]
            #[must_use]
            pub fn with_impl(imp: $imp) -> Self {
                Self { state: Self::IV, buffer: $crate::md::BlockBuffer::default(), imp }
            }

            /// The implementation this hasher runs on.
            #[must_use]
            pub fn implementation(&self) -> $imp {
                self.imp
            }

            /// Absorbs `data`.
            #[inline]
            pub fn update(&mut self, data: &[u8]) {
                let Self { state, buffer, imp } = self;
                buffer.update(data, |blocks| imp.compress(state, blocks));
            }

            /// Pads the message and returns the digest.
            #[inline]
            #[must_use]
            pub fn finalize(mut self) -> [u8; $out] {
                let Self { state, buffer, imp } = &mut self;
                buffer.finish::<{ $block / 8 }>($big_endian, |blocks| imp.compress(state, blocks));
                let mut out = [0u8; $out];
                let width = core::mem::size_of::<$word>();
                for (chunk, word) in out.chunks_mut(width).zip(state.iter()) {
                    let bytes = if $big_endian { word.to_be_bytes() } else { word.to_le_bytes() };
                    chunk.copy_from_slice(&bytes[..chunk.len()]);
                }
                out
            }

            /// The digest of `data` in one call.
            #[inline]
            #[must_use]
            pub fn digest(data: &[u8]) -> [u8; $out] {
                let mut h = Self::new();
                h.update(data);
                h.finalize()
            }

            /// Pads the message, returns the digest, and resets the hasher to its initial
            /// state with what it absorbed wiped: for keyed states such as HMAC's.
            #[inline]
            #[must_use]
            pub fn finalize_reset(&mut self) -> [u8; $out] {
                let Self { state, buffer, imp } = self;
                buffer.finish::<{ $block / 8 }>($big_endian, |blocks| imp.compress(state, blocks));
                let mut out = [0u8; $out];
                let width = core::mem::size_of::<$word>();
                for (chunk, word) in out.chunks_mut(width).zip(state.iter()) {
                    let bytes = if $big_endian { word.to_be_bytes() } else { word.to_le_bytes() };
                    chunk.copy_from_slice(&bytes[..chunk.len()]);
                }
                zeroize::Zeroize::zeroize(self);
                self.state = Self::IV;
                out
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }

        impl core::fmt::Debug for $name {
            /// Names the implementation only: the state may be derived from a secret.
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("implementation", &$crate::Implementation::name(self.imp))
                    .finish_non_exhaustive()
            }
        }

        impl zeroize::Zeroize for $name {
            fn zeroize(&mut self) {
                self.state.fill(0);
                zeroize::optimization_barrier(&self.state);
                self.buffer.wipe();
            }
        }

        impl $crate::Hash for $name {
            const BLOCK_LEN: usize = $block;
            const OUTPUT_LEN: usize = $out;
            type Output = [u8; $out];
            type Impl = $imp;

            fn with_impl(imp: $imp) -> Self {
                Self::with_impl(imp)
            }
            fn implementation(&self) -> $imp {
                self.imp
            }
            fn update(&mut self, data: &[u8]) {
                self.update(data);
            }
            fn finalize(self) -> [u8; $out] {
                self.finalize()
            }
            fn digest(data: &[u8]) -> [u8; $out] {
                Self::digest(data)
            }
            fn finalize_reset(&mut self) -> [u8; $out] {
                self.finalize_reset()
            }
        }
    };
}

pub(crate) use md_hash;

#[cfg(test)]
mod tests {
    use super::BlockBuffer;
    use std::vec::Vec;

    /// Records the blocks handed to `compress`.
    fn blocks_of(chunks: &[&[u8]]) -> Vec<[u8; 8]> {
        let mut b = BlockBuffer::<8>::default();
        let mut out = Vec::new();
        for c in chunks {
            b.update(c, |bl| out.extend_from_slice(bl));
        }
        b.finish::<4>(true, |bl| out.extend_from_slice(bl));
        out
    }

    #[test]
    fn chunking_does_not_matter() {
        let one = blocks_of(&[b"0123456789abc"]);
        let many = blocks_of(&[b"01", b"", b"234567", b"89", b"abc"]);
        assert_eq!(one, many);
        // 13 bytes -> 1 full block, then "9abc" + 0x80 leaves 3 bytes < 4 for the length.
        assert_eq!(one.len(), 3);
        assert_eq!(&one[1], b"89abc\x80\0\0");
        assert_eq!(one[2], [0, 0, 0, 0, 0, 0, 0, 13 * 8]);
    }

    #[test]
    fn padding_fits_in_last_block() {
        let out = blocks_of(&[b"abc"]);
        assert_eq!(out, [[b'a', b'b', b'c', 0x80, 0, 0, 0, 24]]);
    }

    #[test]
    fn little_endian_length() {
        let mut b = BlockBuffer::<16>::default();
        let mut out = Vec::new();
        b.update(&[1; 300], |_| {});
        b.finish::<8>(false, |bl| out.extend_from_slice(bl));
        // 300 % 16 = 12 buffered bytes: the length needs a block of its own.
        assert_eq!(out.len(), 2);
        assert_eq!(&out[1][8..], &(300u64 * 8).to_le_bytes());
    }
}
