//! The sponge construction of FIPS 202 §4 over Keccak-f\[1600\], shared by SHA-3 and SHAKE:
//! absorbing in any chunking, the `pad10*1` padding after a domain-separation suffix, and
//! squeezing any amount. The state is kept in the implementation's own lane encoding
//! (bit-interleaved for `portable32`), so only the bytes that go in or out are converted.

use super::KeccakImpl;

/// Bytes of the Keccak-f\[1600\] state.
pub(crate) const STATE_BYTES: usize = 200;

/// A sponge with a `RATE`-byte rate in its absorbing phase.
#[derive(Clone)]
pub(crate) struct Sponge<const RATE: usize> {
    /// The state, in `imp`'s lane encoding.
    state: [u64; 25],
    /// Input not yet absorbed: less than one block.
    buf: [u8; RATE],
    /// Bytes in `buf`; always `< RATE` between calls.
    pos: usize,
    imp: KeccakImpl,
}

impl<const RATE: usize> Sponge<RATE> {
    /// Rates must be whole lanes and leave a capacity (FIPS 202 uses 72 to 168 bytes).
    const RATE_OK: () = assert!(RATE.is_multiple_of(8) && RATE > 0 && RATE < STATE_BYTES);

    /// The empty sponge: the all-zero state, which is zero in every lane encoding.
    #[inline]
    pub(crate) fn new(imp: KeccakImpl) -> Self {
        let () = Self::RATE_OK;
        Self { state: [0; 25], buf: [0; RATE], pos: 0, imp }
    }

    pub(crate) fn implementation(&self) -> KeccakImpl {
        self.imp
    }

    /// Absorbs `data`. Whole blocks of `data` go to the permutation in one call, uncopied.
    #[inline]
    pub(crate) fn absorb(&mut self, mut data: &[u8]) {
        if self.pos > 0 {
            let take = (RATE - self.pos).min(data.len());
            let (head, rest) = data.split_at(take);
            self.buf[self.pos..self.pos + take].copy_from_slice(head);
            self.pos += take;
            data = rest;
            if self.pos < RATE {
                return;
            }
            self.imp.absorb(&mut self.state, core::slice::from_ref(&self.buf));
            self.pos = 0;
        }
        let (blocks, tail) = data.as_chunks::<RATE>();
        if !blocks.is_empty() {
            self.imp.absorb(&mut self.state, blocks);
        }
        self.buf[..tail.len()].copy_from_slice(tail);
        self.pos = tail.len();
    }

    /// Appends the domain suffix and `pad10*1` (FIPS 202 §5.1, §6), absorbs the last block and
    /// switches to squeezing. `suffix` holds the suffix bits, first bit lowest, followed by
    /// the first padding bit: `0x06` for SHA-3 (`01`), `0x1F` for SHAKE (`1111`).
    #[inline]
    pub(crate) fn finish(mut self, suffix: u8) -> Squeeze<RATE> {
        let pos = self.pos;
        self.buf[pos..].fill(0);
        self.buf[pos] = suffix;
        // The final 1 bit of pad10*1; shares a byte with `suffix` when `pos == RATE - 1`.
        self.buf[RATE - 1] |= 0x80;
        self.imp.absorb(&mut self.state, core::slice::from_ref(&self.buf));
        Squeeze { state: self.state, pos: 0, imp: self.imp }
    }

    /// Overwrites the state and the buffered input, which may be secret.
    pub(crate) fn wipe(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.state);
        zeroize::Zeroize::zeroize(&mut self.buf);
        self.pos = 0;
    }
}

/// A sponge with a `RATE`-byte rate in its squeezing phase. It needs no buffer: output is
/// read straight out of the state.
#[derive(Clone)]
pub(crate) struct Squeeze<const RATE: usize> {
    /// The state, in `imp`'s lane encoding.
    state: [u64; 25],
    /// Bytes of the current output block already read; `RATE` when it is used up.
    pos: usize,
    imp: KeccakImpl,
}

impl<const RATE: usize> Squeeze<RATE> {
    pub(crate) fn implementation(&self) -> KeccakImpl {
        self.imp
    }

    /// Writes the next `out.len()` bytes of output, permuting whenever a block runs out.
    #[inline]
    pub(crate) fn read(&mut self, mut out: &mut [u8]) {
        while !out.is_empty() {
            if self.pos == RATE {
                self.imp.permute_native(&mut self.state);
                self.pos = 0;
            }
            let take = (RATE - self.pos).min(out.len());
            let (now, rest) = out.split_at_mut(take);
            self.imp.extract(&self.state, self.pos, now);
            self.pos += take;
            out = rest;
        }
    }

    /// The first `N` bytes of output (at most one block, as every SHA-3 digest is).
    #[inline]
    pub(crate) fn first<const N: usize>(self) -> [u8; N] {
        const { assert!(N <= RATE) };
        let mut out = [0u8; N];
        self.imp.extract(&self.state, 0, &mut out);
        out
    }

    /// Overwrites the state, from which further output could be computed.
    pub(crate) fn wipe(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.state);
        self.pos = RATE;
    }
}

/// Copies bytes `offset..offset + out.len()` of the state to `out`, reading lane `i` as
/// `lane(state[i])` (the identity for the standard encoding). Lanes are little-endian
/// (FIPS 202 §3.1.2 with the bit order of Appendix B.1).
#[inline]
pub(crate) fn extract_lanes(
    state: &[u64; 25],
    offset: usize,
    out: &mut [u8],
    lane: impl Fn(u64) -> u64,
) {
    debug_assert!(offset + out.len() <= STATE_BYTES);
    let mut i = offset / 8;
    let skip = offset % 8;
    let mut out = out;
    if skip > 0 {
        let bytes = lane(state[i]).to_le_bytes();
        let take = (8 - skip).min(out.len());
        let (head, rest) = out.split_at_mut(take);
        head.copy_from_slice(&bytes[skip..skip + take]);
        out = rest;
        i += 1;
    }
    let (words, tail) = out.as_chunks_mut::<8>();
    for (word, &s) in words.iter_mut().zip(&state[i..]) {
        *word = lane(s).to_le_bytes();
    }
    if !tail.is_empty() {
        let bytes = lane(state[i + words.len()]).to_le_bytes();
        tail.copy_from_slice(&bytes[..tail.len()]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    /// The standard-encoding state after absorbing `parts` and squeezing `n` bytes.
    fn run<const R: usize>(imp: KeccakImpl, parts: &[&[u8]], suffix: u8, n: usize) -> Vec<u8> {
        let mut s = Sponge::<R>::new(imp);
        for p in parts {
            s.absorb(p);
        }
        let mut out = std::vec![0u8; n];
        s.finish(suffix).read(&mut out);
        out
    }

    /// The sponge written out from FIPS 202 Algorithm 8, one byte at a time, with the
    /// standard-encoding permutation: what every chunking must agree with.
    fn reference<const R: usize>(imp: KeccakImpl, msg: &[u8], suffix: u8, n: usize) -> Vec<u8> {
        let mut padded = msg.to_vec();
        padded.push(suffix);
        while !padded.len().is_multiple_of(R) {
            padded.push(0);
        }
        *padded.last_mut().unwrap() |= 0x80;
        let mut state = [0u64; 25];
        for block in padded.chunks(R) {
            for (j, &b) in block.iter().enumerate() {
                state[j / 8] ^= u64::from(b) << (8 * (j % 8));
            }
            imp.permute(&mut state);
        }
        let mut out = Vec::new();
        loop {
            for j in 0..R {
                if out.len() == n {
                    return out;
                }
                out.push((state[j / 8] >> (8 * (j % 8))) as u8);
            }
            imp.permute(&mut state);
        }
    }

    #[test]
    fn padding_at_block_edges() {
        // Rate 136 (SHA3-256, SHAKE256): messages one short of a block, a block, one over.
        for imp in [KeccakImpl::Portable, KeccakImpl::Portable32] {
            for len in [0, 1, 135, 136, 137, 271, 272, 273] {
                let msg: Vec<u8> = (0..len).map(|i: usize| (i * 7 + 1) as u8).collect();
                for suffix in [0x06, 0x1F] {
                    let want = reference::<136>(imp, &msg, suffix, 32);
                    assert_eq!(run::<136>(imp, &[&msg], suffix, 32), want, "{imp:?} len {len}");
                }
            }
        }
    }

    #[test]
    fn last_byte_holds_suffix_and_final_bit() {
        // With RATE - 1 bytes buffered, the suffix and the final bit share the last byte
        // (0x86 for SHA-3): a single block, so the output is that block permuted once.
        let msg = [0x55u8; 71];
        let mut state = [0u64; 25];
        for (j, &b) in msg.iter().chain(&[0x86]).enumerate() {
            state[j / 8] ^= u64::from(b) << (8 * (j % 8));
        }
        KeccakImpl::Portable.permute(&mut state);
        let mut want = [0u8; 64];
        extract_lanes(&state, 0, &mut want, |l| l);
        assert_eq!(run::<72>(KeccakImpl::Portable, &[&msg], 0x06, 64), want);
    }

    #[test]
    fn chunking_does_not_matter() {
        let msg: Vec<u8> = (0..700u32).map(|i| (i ^ (i >> 3)) as u8).collect();
        for imp in [KeccakImpl::Portable, KeccakImpl::Portable32] {
            let whole = run::<168>(imp, &[&msg], 0x1F, 100);
            for cut in [1, 7, 8, 167, 168, 169, 336, 500] {
                let (a, b) = msg.split_at(cut);
                let (b, c) = b.split_at(b.len() / 3);
                assert_eq!(run::<168>(imp, &[a, &[], b, c], 0x1F, 100), whole, "{imp:?} {cut}");
            }
        }
    }

    #[test]
    fn squeeze_across_blocks_in_any_steps() {
        for imp in [KeccakImpl::Portable, KeccakImpl::Portable32] {
            let want = reference::<168>(imp, b"squeeze", 0x1F, 3 * 168 + 5);
            for steps in [&[1usize, 166, 1, 1, 1][..], &[168, 168], &[167, 2, 170], &[505]] {
                let mut s = Sponge::<168>::new(imp);
                s.absorb(b"squeeze");
                let mut r = s.finish(0x1F);
                let mut got = Vec::new();
                for &n in steps.iter().cycle() {
                    let n = n.min(want.len() - got.len());
                    let mut buf = std::vec![0u8; n];
                    r.read(&mut buf);
                    r.read(&mut []);
                    got.extend_from_slice(&buf);
                    if got.len() == want.len() {
                        break;
                    }
                }
                assert_eq!(got, want, "{imp:?} {steps:?}");
            }
        }
    }

    #[test]
    fn extract_any_window() {
        let state: [u64; 25] =
            core::array::from_fn(|i| 0x0101_0101_0101_0101 * i as u64 + i as u64);
        let mut all = [0u8; STATE_BYTES];
        for (chunk, s) in all.chunks_mut(8).zip(&state) {
            chunk.copy_from_slice(&s.to_le_bytes());
        }
        for offset in [0, 1, 7, 8, 9, 100, 199] {
            for len in [0, 1, 2, 7, 8, 9, 17, 60] {
                if offset + len <= STATE_BYTES {
                    let mut out = std::vec![0u8; len];
                    extract_lanes(&state, offset, &mut out, |l| l);
                    assert_eq!(out, &all[offset..offset + len], "{offset} {len}");
                }
            }
        }
    }
}
