//! Poly1305 in radix 2^26: the accumulator and `r` as five 26-bit limbs, products of 32-bit
//! words into 64 bits. It needs nothing wider than a 32×32→64 multiply, so it is the path for
//! 32-bit CPUs and the reference the faster ones are checked against. The Cortex-M0's `thumb1`
//! implementation is this state with the dot product of [`State::blocks_halves_with`] in
//! Thumb-1 assembly.

use crate::chacha20::wipe;
use zeroize::Zeroize;

const M26: u32 = (1 << 26) - 1;
const M13: u32 = (1 << 13) - 1;

/// The key and accumulator.
#[derive(Clone)]
pub(super) struct State {
    /// The clamped `r`, five 26-bit limbs.
    r: [u32; 5],
    /// The accumulator, five limbs of about 26 bits (partly reduced between blocks).
    h: [u32; 5],
    /// `s`, the key half added at the end, as four little-endian words.
    pad: [u32; 4],
}

impl State {
    /// The state for a 32-byte one-time key `r || s` (RFC 8439 §2.5), clamping `r`.
    pub(super) fn new(key: &[u8; 32]) -> Self {
        // The key's eight little-endian words, a byte at a time (on the Cortex-M0 the
        // smallest code); the limbs of r straddle them.
        let mut k = [0u32; 8];
        for (i, &b) in key.iter().enumerate() {
            k[i / 4] |= u32::from(b) << (8 * (i % 4));
        }
        let r = [
            k[0] & 0x03ff_ffff,
            ((k[0] >> 26) | (k[1] << 6)) & 0x03ff_ff03,
            ((k[1] >> 20) | (k[2] << 12)) & 0x03ff_c0ff,
            ((k[2] >> 14) | (k[3] << 18)) & 0x03f0_3fff,
            (k[3] >> 8) & 0x000f_ffff,
        ];
        let state = Self { r, h: [0; 5], pad: [k[4], k[5], k[6], k[7]] };
        wipe(&mut k);
        state
    }

    /// Absorbs whole 16-byte blocks; `hibit` is 2^128 for full message blocks and 0 for the
    /// padded last block of a message that is not a multiple of 16 bytes (RFC 8439 §2.5.1).
    /// On 32-bit Arm the products are built from 32×32→32-bit multiplies
    /// ([`blocks_halves_with`](Self::blocks_halves_with)): on a Cortex-M0 a `u64` product is a
    /// call to a 64×64-bit multiply routine.
    pub(super) fn blocks(&mut self, data: &[u8], hibit: bool) {
        #[cfg(target_arch = "arm")]
        self.blocks_halves_with(data, hibit, dot13);
        #[cfg(not(target_arch = "arm"))]
        self.blocks_with::<false>(data, hibit);
    }

    /// [`blocks`](Self::blocks) with every limb of `h` and of the key window cut into a 13-bit
    /// low part and the rest, once per block (`h`) and once per call (the key), so that each
    /// limb of the product is three 32-bit sums of 32×32→32-bit products (`dot13`: [`dot13`]
    /// here, Thumb-1 assembly reading the halves with `LDM` in `thumb1`, 53 cycles a byte
    /// against 77 for the compiled 16-bit split of [`Dot`], which recut both operands for each
    /// of the 25 products).
    // Host builds run it in the tests, against `blocks_with`.
    #[cfg_attr(not(target_arch = "arm"), allow(dead_code))]
    pub(super) fn blocks_halves_with(
        &mut self,
        data: &[u8],
        hibit: bool,
        dot13: impl Fn(&[[u32; 2]; 5], &[[u32; 2]; 5]) -> (u32, u32, u32),
    ) {
        let hibit = u32::from(hibit) << 24;
        // Limb j of the product is the dot product of h with the window x[4 − j .. 9 − j] of
        // x = [r4, r3, r2, r1, r0, 5·r4, 5·r3, 5·r2, 5·r1], here in halves (and one more
        // entry, 5·r0, never read: one loop fills both halves of the window).
        let half = |v: u32| [v & M13, v >> 13];
        let mut xh = [[0u32; 2]; 10];
        for i in 0..5 {
            let v = self.r[4 - i];
            xh[i] = half(v);
            xh[5 + i] = half(5 * v);
        }
        let mut h = self.h;
        let (blocks, _) = data.as_chunks::<16>();
        for block in blocks {
            add_block(&mut h, block, hibit);
            let hh = [half(h[0]), half(h[1]), half(h[2]), half(h[3]), half(h[4])];

            // As in `blocks_with`: limb j and the partial carry into the next; the high sum
            // is already in units of 2^26, the carry's.
            let mut carry = 0u64;
            let mut next: [u32; 5] = core::array::from_fn(|j| {
                let Some(window) = xh[4 - j..].first_chunk::<5>() else { return 0 };
                let (lo, mid, hi) = dot13(&hh, window);
                let d = u64::from(lo) + (u64::from(mid) << 13) + carry;
                carry = (d >> 26) + u64::from(hi);
                d as u32 & M26
            });
            next[0] += carry as u32 * 5;
            next[1] += next[0] >> 26;
            next[0] &= M26;
            h = next;
        }
        self.h = h;
    }

    /// [`blocks`](Self::blocks) with the products as `u64` multiplies (`SPLIT = false`) or
    /// split into 16-bit halves (`true`, the Cortex-M0 path before `blocks_halves_with`, kept as a
    /// cross-check in the tests); both are exact for the limb bounds here.
    #[cfg_attr(target_arch = "arm", allow(dead_code))]
    fn blocks_with<const SPLIT: bool>(&mut self, data: &[u8], hibit: bool) {
        let hibit = u32::from(hibit) << 24;
        let [r0, r1, r2, r3, r4] = self.r;
        // Limb j of the product is the dot product of h with the window x[4 − j .. 9 − j].
        let x = [r4, r3, r2, r1, r0, r4 * 5, r3 * 5, r2 * 5, r1 * 5];
        let mut h = self.h;
        let (blocks, _) = data.as_chunks::<16>();
        for block in blocks {
            add_block(&mut h, block, hibit);

            // One dot product per limb, in a loop (one copy of the 25 products' code is a
            // fifth of the flash of five), with the partial carry into the next limb: every
            // limb ends below 2^26 except h1, below 2^26 + 2^6. The limbs are built, not
            // zeroed and then written: zeroing would be a `memclr` call per block.
            let mut carry = 0u64;
            let mut next: [u32; 5] = core::array::from_fn(|j| {
                let window = x[4 - j..].first_chunk::<5>().copied().unwrap_or_default();
                let d = Dot::<SPLIT>::of(h, window) + carry;
                carry = d >> 26;
                d as u32 & M26
            });
            next[0] += carry as u32 * 5;
            next[1] += next[0] >> 26;
            next[0] &= M26;
            h = next;
        }
        self.h = h;
    }

    /// The tag: the accumulator fully reduced modulo 2^130 − 5, plus `s`, modulo 2^128.
    pub(super) fn finish(&self) -> [u8; 16] {
        let [mut h0, mut h1, mut h2, mut h3, mut h4] = self.h;
        // Full carry.
        h2 += h1 >> 26;
        h1 &= M26;
        h3 += h2 >> 26;
        h2 &= M26;
        h4 += h3 >> 26;
        h3 &= M26;
        h0 += (h4 >> 26) * 5;
        h4 &= M26;
        h1 += h0 >> 26;
        h0 &= M26;

        // If h ≥ p (h + 5 reaches 2^130) the reduced value is h + 5 − 2^130, which is h + 5
        // modulo 2^128: so the tag is h + s, plus 5 when h + 5 carries out of bit 130. Only
        // that carry is needed, not the reduced limbs and a select between them.
        let mut c = (h0 + 5) >> 26;
        c = (c + h1) >> 26;
        c = (c + h2) >> 26;
        c = (c + h3) >> 26;
        let five_if_reduced = ((c + h4) >> 26) * 5;

        // h + s (+ 5) mod 2^128 as four words, the limbs added rather than ORed in: h1 can be
        // 2^26 after the full carry, and with h ≥ p taken as is that bit must carry on.
        let wide = |x: u32, shift: u32| u64::from(x) << shift;
        let [s0, s1, s2, s3] = self.pad;
        let mut acc = wide(five_if_reduced, 0) + wide(h0, 0) + wide(h1, 26) + wide(s0, 0);
        let w0 = acc as u32;
        acc = (acc >> 32) + wide(h2, 20) + wide(s1, 0);
        let w1 = acc as u32;
        acc = (acc >> 32) + wide(h3, 14) + wide(s2, 0);
        let w = [w0, w1, acc as u32, ((acc >> 32) as u32).wrapping_add(h4 << 8).wrapping_add(s3)];
        // Written a byte at a time with plain indexing: on the Cortex-M0, at opt-level `z`,
        // zipped array iterators and `copy_from_slice` stay out-of-line calls.
        let mut tag = [0; 16];
        for i in 0..16 {
            tag[i] = (w[i / 4] >> (8 * (i % 4))) as u8;
        }
        tag
    }
}

/// The five-term dot product of [`State::blocks_halves_with`] on limbs cut at bit 13: `a` and `b`
/// hold `(low, high)` pairs, and the result is `(Σ a0·b0, Σ a0·b1 + a1·b0, Σ a1·b1)`, so the
/// full sum is `lo + mid·2^13 + hi·2^26`. No sum overflows 32 bits for accumulator limbs
/// below `2^27 + 2^13` (high parts below `2^14 + 1`) and key limbs below `5·2^26` (high
/// parts below `5·2^13`): at most 5 × (2^14 + 1) × 5·2^13 < 2^32 for `hi`, and less for the
/// others.
#[cfg_attr(not(target_arch = "arm"), allow(dead_code))]
fn dot13(a: &[[u32; 2]; 5], b: &[[u32; 2]; 5]) -> (u32, u32, u32) {
    let (mut lo, mut mid, mut hi) = (0u32, 0u32, 0u32);
    for (a, b) in a.iter().zip(b) {
        lo += a[0] * b[0];
        mid += a[0] * b[1] + a[1] * b[0];
        hi += a[1] * b[1];
    }
    (lo, mid, hi)
}

/// A five-term dot product `Σ a_i·b_i` into 64 bits, for accumulator limbs `a_i < 2^28` and
/// key limbs `b_i < 2^29` (`r` or `5·r`). With `SPLIT`, each product is built from the 16-bit
/// halves of its operands with four 32-bit multiplies: the low products are summed in 64 bits,
/// the cross products (each below `2^16·2^13 + 2^12·2^16 = 1.5·2^29`) and the high products
/// (below `2^25`) in 32 bits without overflow, and the three sums are put together at the end.
#[cfg_attr(target_arch = "arm", allow(dead_code))]
struct Dot<const SPLIT: bool>;

impl<const SPLIT: bool> Dot<SPLIT> {
    #[inline(always)]
    fn of(a: [u32; 5], b: [u32; 5]) -> u64 {
        if !SPLIT {
            let m = |i: usize| u64::from(a[i]) * u64::from(b[i]);
            return m(0) + m(1) + m(2) + m(3) + m(4);
        }
        let mut lo = 0u64;
        let mut mid = 0u32;
        let mut hi = 0u32;
        macro_rules! term {
            ($i:expr) => {
                let (a0, a1) = (a[$i] & 0xffff, a[$i] >> 16);
                let (b0, b1) = (b[$i] & 0xffff, b[$i] >> 16);
                lo += u64::from(a0 * b0);
                mid += a0 * b1 + a1 * b0;
                hi += a1 * b1;
            };
        }
        term!(0);
        term!(1);
        term!(2);
        term!(3);
        term!(4);
        lo + (u64::from(mid) << 16) + (u64::from(hi) << 32)
    }
}

impl Zeroize for State {
    fn zeroize(&mut self) {
        wipe(&mut self.r);
        wipe(&mut self.h);
        wipe(&mut self.pad);
    }
}

/// `h += block`: the 16 message bytes as five 26-bit limbs, `hibit` (2^24 or 0) on the top
/// limb.
#[inline(always)]
fn add_block(h: &mut [u32; 5], block: &[u8; 16], hibit: u32) {
    let (words, _) = block.as_chunks::<4>();
    let t: [u32; 4] = core::array::from_fn(|i| u32::from_le_bytes(words[i]));
    h[0] += t[0] & M26;
    h[1] += ((t[0] >> 26) | (t[1] << 6)) & M26;
    h[2] += ((t[1] >> 20) | (t[2] << 12)) & M26;
    h[3] += ((t[2] >> 14) | (t[3] << 18)) & M26;
    h[4] += (t[3] >> 8) | hibit;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tag with the reduction written out (h − p kept by a mask when it does not
    /// borrow), as this file had it before `finish` added 5 on the carry out of bit 130.
    fn finish_by_select(st: &State) -> [u8; 16] {
        let [mut h0, mut h1, mut h2, mut h3, mut h4] = st.h;
        h2 += h1 >> 26;
        h1 &= M26;
        h3 += h2 >> 26;
        h2 &= M26;
        h4 += h3 >> 26;
        h3 &= M26;
        h0 += (h4 >> 26) * 5;
        h4 &= M26;
        h1 += h0 >> 26;
        h0 &= M26;
        let mut g0 = h0 + 5;
        let mut g1 = h1 + (g0 >> 26);
        g0 &= M26;
        let mut g2 = h2 + (g1 >> 26);
        g1 &= M26;
        let mut g3 = h3 + (g2 >> 26);
        g2 &= M26;
        let g4 = (h4 + (g3 >> 26)).wrapping_sub(1 << 26);
        g3 &= M26;
        let keep_g = (g4 >> 31).wrapping_sub(1);
        let sel = |g: u32, h: u32| (g & keep_g) | (h & !keep_g);
        (h0, h1, h2, h3, h4) = (sel(g0, h0), sel(g1, h1), sel(g2, h2), sel(g3, h3), sel(g4, h4));
        let w = [
            h0 | (h1 << 26),
            (h1 >> 6) | (h2 << 20),
            (h2 >> 12) | (h3 << 14),
            (h3 >> 18) | (h4 << 8),
        ];
        let mut tag = [0; 16];
        let mut carry = 0u64;
        for i in 0..4 {
            carry = (carry >> 32) + u64::from(w[i]) + u64::from(st.pad[i]);
            tag[4 * i..4 * i + 4].copy_from_slice(&(carry as u32).to_le_bytes());
        }
        tag
    }

    /// `finish` agrees with the select form around p = 2^130 − 5 (below, at and above it,
    /// up to 2^130 + 5), on limbs not yet carried, and on a spread of accumulators.
    #[test]
    fn finish_matches_select_form() {
        let key: [u8; 32] = core::array::from_fn(|i| 0xff ^ (i as u8).wrapping_mul(37));
        let mut st = State::new(&key);
        let top = [M26; 5];
        let mut cases = std::vec::Vec::new();
        for d in 0..12u32 {
            // 2^130 − 1 − d and 2^130 − 1 + d as limbs (the latter with h0 over 26 bits).
            let mut below = top;
            below[0] -= d;
            cases.push(below);
            let mut above = top;
            above[0] += d;
            cases.push(above);
        }
        cases.push([M26 + 7, M26, M26, M26, M26]);
        cases.push([3, M26 + 1, M26, M26, M26]);
        cases.push([0, 0, 0, 0, 1 << 27]);
        cases.push([(1 << 26) + 300, (1 << 26) + 63, M26, M26, (1 << 26) + 9]);
        let mut x = 0x2545_f491u32;
        for _ in 0..2000 {
            let mut h = [0u32; 5];
            for limb in &mut h {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                *limb = x & ((1 << 27) - 1);
            }
            cases.push(h);
        }
        for h in cases {
            st.h = h;
            assert_eq!(st.finish(), finish_by_select(&st), "{h:x?}");
        }
    }

    /// The split products equal the `u64` ones at the bounds and on a spread of values, and
    /// both ways of absorbing give the same accumulator (the known-answer suites cover the
    /// way this target uses).
    #[test]
    fn split_products_are_exact() {
        let top_a = (1 << 28) - 1;
        let top_b = 5 * ((1 << 26) - 1);
        let mut x = 0x9e37_79b9u32;
        let mut next = |bound: u32| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x % (bound + 1)
        };
        for round in 0..1000 {
            let (a, b) = if round == 0 {
                ([top_a; 5], [top_b; 5])
            } else {
                ([0; 5].map(|_| next(top_a)), [0; 5].map(|_| next(top_b)))
            };
            assert_eq!(Dot::<true>::of(a, b), Dot::<false>::of(a, b), "{a:x?} {b:x?}");
        }
        let key: [u8; 32] = core::array::from_fn(|i| (i as u8).wrapping_mul(29) ^ 0xa5);
        let data: [u8; 16 * 9] = core::array::from_fn(|i| 0xff ^ (i as u8).wrapping_mul(7));
        let (mut split, mut wide) = (State::new(&key), State::new(&key));
        split.blocks_with::<true>(&data, true);
        wide.blocks_with::<false>(&data, true);
        split.blocks_with::<true>(&data[..16], false);
        wide.blocks_with::<false>(&data[..16], false);
        assert_eq!((split.h, split.finish()), (wide.h, wide.finish()));
    }

    /// The 13-bit halves (the Cortex-M0 path, here with the Rust dot product whose sums the
    /// assembly reproduces, overflow-checked in debug builds) give the accumulator of the
    /// `u64` products, on the largest clamped `r` with all-ones messages (the limb bounds'
    /// worst case), on a spread of keys and messages, and on short final blocks.
    #[test]
    fn halves_match_wide_products() {
        let mut x = 0x1234_5679u32;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        for round in 0..200 {
            let key: [u8; 32] = if round == 0 { [0xff; 32] } else { [0; 32].map(|_| next() as u8) };
            let data: [u8; 16 * 12] =
                if round == 0 { [0xff; 16 * 12] } else { [0; 16 * 12].map(|_| next() as u8) };
            let (mut halves, mut wide) = (State::new(&key), State::new(&key));
            for n in [16 * 12, 16, 16 * 5] {
                halves.blocks_halves_with(&data[..n], true, dot13);
                wide.blocks_with::<false>(&data[..n], true);
                assert_eq!(halves.h, wide.h, "round {round}");
            }
            halves.blocks_halves_with(&data[..16], false, dot13);
            wide.blocks_with::<false>(&data[..16], false);
            assert_eq!((halves.h, halves.finish()), (wide.h, wide.finish()), "round {round}");
        }
    }
}
