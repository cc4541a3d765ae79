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
    /// Buffers `data`, calling `compress(first, rest)` on the complete blocks, in order
    /// (`first` then `rest`; either may be empty). Whole blocks of `data` are handed over in
    /// the same call as a just-completed buffered block, without copying, so a backend can
    /// keep its state in registers across all of them.
    #[inline]
    pub(crate) fn update(
        &mut self,
        mut data: &[u8],
        mut compress: impl FnMut(&[[u8; B]], &[[u8; B]]),
    ) {
        self.len = self.len.wrapping_add(data.len() as u64);
        let mut first: &[[u8; B]] = &[];
        if self.pos > 0 {
            let take = (B - self.pos).min(data.len());
            let (head, rest) = data.split_at(take);
            self.buf[self.pos..self.pos + take].copy_from_slice(head);
            self.pos += take;
            data = rest;
            if self.pos < B {
                return;
            }
            self.pos = 0;
            first = core::slice::from_ref(&self.buf);
        }
        let (blocks, tail) = data.as_chunks::<B>();
        if !(first.is_empty() && blocks.is_empty()) {
            compress(first, blocks);
        }
        if !tail.is_empty() {
            self.buf[..tail.len()].copy_from_slice(tail);
        }
        self.pos = tail.len();
    }

    /// Writes the final one or two blocks (see [`pad`]) for what was absorbed into `last`
    /// (zeros on entry) and returns how many there are; the buffer itself is left as it is.
    #[inline]
    pub(crate) fn padding<const L: usize>(
        &self,
        last: &mut [[u8; B]; 2],
        big_endian: bool,
    ) -> usize {
        // The buffered bytes, zeros after them: a fixed-size masked copy (the bytes past `pos`
        // are left over from earlier blocks) rather than calls to `memcpy` and `memset`. The
        // positions are compared as bytes (blocks are at most 128 long) so that the loop
        // vectorises to a byte compare per 16 bytes.
        const { assert!(B <= 128) };
        let pos = self.pos as u8;
        let index: [u8; B] = core::array::from_fn(|i| i as u8);
        for ((o, b), i) in last[0].iter_mut().zip(self.buf.iter()).zip(index.iter()) {
            *o = *b & 0u8.wrapping_sub(u8::from(*i < pos));
        }
        pad::<B, L>(last, self.pos, self.len, big_endian)
    }

    /// Whether no partial block is buffered.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.pos == 0
    }

    /// The message length so far, in bytes (modulo 2^64).
    #[inline]
    pub(crate) fn len(&self) -> u64 {
        self.len
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

/// The padding (FIPS 180-4 §5.1): `last[0]` holds the last `tail_len < B` message bytes,
/// zeros after them, and `last[1]` zeros; this appends the 1 bit and ends the last block with
/// the message length in bits as an `L`-byte integer (big-endian for SHA, little-endian for
/// MD5). Returns how many blocks are used (2 when the length does not fit after the 1 bit).
#[inline]
pub(crate) fn pad<const B: usize, const L: usize>(
    last: &mut [[u8; B]; 2],
    tail_len: usize,
    len: u64,
    big_endian: bool,
) -> usize {
    last[0][tail_len % B] = 0x80;
    let n = if tail_len + 1 > B - L { 2 } else { 1 };
    let bits = u128::from(len) << 3;
    let len_field = &mut last[n - 1][B - L..];
    if big_endian {
        len_field.copy_from_slice(&bits.to_be_bytes()[16 - L..]);
    } else {
        len_field.copy_from_slice(&bits.to_le_bytes()[..L]);
    }
    n
}

/// The padded final blocks of a one-shot message whose whole blocks are hashed in place:
/// `tail` (shorter than a block) is copied once into `last` (zeros on entry), then
/// [`pad`]ded; returns how many blocks are used.
#[inline]
pub(crate) fn pad_tail<const B: usize, const L: usize>(
    last: &mut [[u8; B]; 2],
    tail: &[u8],
    len: u64,
    big_endian: bool,
) -> usize {
    if !tail.is_empty() {
        last[0][..tail.len()].copy_from_slice(tail);
    }
    pad::<B, L>(last, tail.len(), len, big_endian)
}

/// Defines a Merkle–Damgård hash type (MD5, SHA-1, SHA-2) over an implementation enum with a
/// `compress2(self, &mut [word; N], first: &[[u8; BLOCK]], rest: &[[u8; BLOCK]])` method
/// (`first`'s blocks, then `rest`'s): the struct, its inherent API, and
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
                buffer.update(data, |first, rest| imp.compress2(state, first, rest));
            }

            /// The digest of a final state: its words in the output byte order, truncated.
            #[inline]
            fn output(state: &[$word; $words]) -> [u8; $out] {
                const WIDTH: usize = core::mem::size_of::<$word>();
                // Every digest is whole words (SHA-224's seven, SHA-384's six), taken in
                // chunks of a constant size: no division by a run-time chunk length, which
                // on a Cortex-M0 (no divide instruction) links a division routine.
                const { assert!($out % WIDTH == 0 && $out / WIDTH <= $words) };
                let mut out = [0u8; $out];
                for (chunk, word) in out.as_chunks_mut::<WIDTH>().0.iter_mut().zip(state) {
                    *chunk = if $big_endian { word.to_be_bytes() } else { word.to_le_bytes() };
                }
                out
            }

            /// Pads the message and returns the digest.
            #[inline]
            #[must_use]
            pub fn finalize(mut self) -> [u8; $out] {
                let mut last = [[0u8; $block]; 2];
                let n = self.buffer.padding::<{ $block / 8 }>(&mut last, $big_endian);
                self.imp.compress2(&mut self.state, &[], &last[..n]);
                Self::output(&self.state)
            }

            /// The digest of `data` in one call: whole blocks are hashed where they lie and
            /// the padded tail follows in the same call to the backend, with no buffering.
            #[inline]
            #[must_use]
            pub fn digest(data: &[u8]) -> [u8; $out] {
                let imp = <$imp as $crate::Implementation>::best();
                let mut state = Self::IV;
                let (blocks, tail) = data.as_chunks::<$block>();
                let mut last = [[0u8; $block]; 2];
                let n = $crate::md::pad_tail::<$block, { $block / 8 }>(
                    &mut last, tail, data.len() as u64, $big_endian,
                );
                imp.compress2(&mut state, blocks, &last[..n]);
                Self::output(&state)
            }

            /// [`Hash::finalize_with`](crate::Hash::finalize_with): with nothing buffered (as
            /// in HMAC's outer hash) `data` is hashed like a one-shot digest, in one backend
            /// call and without passing through the buffer. The padding blocks, which hold
            /// message bytes, are wiped; the state is left for the caller.
            #[inline]
            fn finalize_with_data(&mut self, data: &[u8]) -> [u8; $out] {
                if self.buffer.is_empty() && data.len() == $out {
                    // HMAC's outer hash on the inner digest: a fixed-size copy (no `memcpy`
                    // call), then the padding in the same block (the output is shorter than a
                    // block, with room for the 1 bit and the length).
                    const { assert!($out + 1 + $block / 8 <= $block) };
                    let len = self.buffer.len().wrapping_add($out);
                    let mut last = [[0u8; $block]; 2];
                    last[0][..$out].copy_from_slice(&data[..$out]);
                    let n = $crate::md::pad::<$block, { $block / 8 }>(&mut last, $out, len, $big_endian);
                    self.imp.compress2(&mut self.state, &[], &last[..n]);
                    $crate::wipe(last.as_flattened_mut());
                } else if self.buffer.is_empty() {
                    let (blocks, tail) = data.as_chunks::<$block>();
                    let len = self.buffer.len().wrapping_add(data.len() as u64);
                    let mut last = [[0u8; $block]; 2];
                    let n = $crate::md::pad_tail::<$block, { $block / 8 }>(
                        &mut last, tail, len, $big_endian,
                    );
                    self.imp.compress2(&mut self.state, blocks, &last[..n]);
                    $crate::wipe(last.as_flattened_mut());
                } else {
                    self.update(data);
                    let mut last = [[0u8; $block]; 2];
                let n = self.buffer.padding::<{ $block / 8 }>(&mut last, $big_endian);
                    self.imp.compress2(&mut self.state, &[], &last[..n]);
                    $crate::wipe(last.as_flattened_mut());
                }
                Self::output(&self.state)
            }

            /// Pads the message, returns the digest, and resets the hasher to its initial
            /// state with what it absorbed wiped: for keyed states such as HMAC's.
            #[inline]
            #[must_use]
            pub fn finalize_reset(&mut self) -> [u8; $out] {
                let mut last = [[0u8; $block]; 2];
                let n = self.buffer.padding::<{ $block / 8 }>(&mut last, $big_endian);
                self.imp.compress2(&mut self.state, &[], &last[..n]);
                $crate::wipe(last.as_flattened_mut());
                let out = Self::output(&self.state);
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
            fn finalize_with(&mut self, data: &[u8]) -> [u8; $out] {
                self.finalize_with_data(data)
            }
        }
    };
}

pub(crate) use md_hash;

#[cfg(test)]
mod tests {
    use super::{BlockBuffer, pad_tail};
    use std::vec::Vec;

    /// Records the blocks handed to `compress`, and checks the one-shot padding agrees.
    fn blocks_of(chunks: &[&[u8]]) -> Vec<[u8; 8]> {
        let mut b = BlockBuffer::<8>::default();
        let mut out = Vec::new();
        for c in chunks {
            b.update(c, |first, rest| {
                out.extend_from_slice(first);
                out.extend_from_slice(rest);
            });
        }
        let mut last = [[0u8; 8]; 2];
        let n = b.padding::<4>(&mut last, true);
        out.extend_from_slice(&last[..n]);
        let message = chunks.concat();
        let (blocks, tail) = message.as_chunks::<8>();
        let mut last = [[0u8; 8]; 2];
        let n = pad_tail::<8, 4>(&mut last, tail, message.len() as u64, true);
        assert_eq!(out, [blocks, &last[..n]].concat());
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
        // Exactly one block: the padding is a block of its own.
        let out = blocks_of(&[b"0123", b"4567"]);
        assert_eq!(out, [*b"01234567", [0x80, 0, 0, 0, 0, 0, 0, 64]]);
    }

    /// Bytes left in the buffer from an earlier, longer tail never leak into the padding.
    #[test]
    fn stale_buffer_bytes_are_masked() {
        let out = blocks_of(&[b"0123456", b"789"]);
        assert_eq!(out, [*b"01234567", [b'8', b'9', 0x80, 0, 0, 0, 0, 80]]);
    }

    #[test]
    fn little_endian_length() {
        let mut b = BlockBuffer::<16>::default();
        b.update(&[1; 300], |_, _| {});
        let mut last = [[0u8; 16]; 2];
        let n = b.padding::<8>(&mut last, false);
        // 300 % 16 = 12 buffered bytes: the length needs a block of its own.
        assert_eq!(n, 2);
        assert_eq!(&last[1][8..], &(300u64 * 8).to_le_bytes());
        assert_eq!(last[0], [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0x80, 0, 0, 0]);
    }
}
