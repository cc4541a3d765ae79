//! GHASH with constant-time carry-less multiplication on 32-bit integer multiplies that keep
//! only the low half (`muls` on a Cortex-M0): the portable path on 32-bit CPUs. The
//! Cortex-M0's `thumb1` implementation is this code with the 16×16 products in Thumb-1
//! assembly ([`update_with`] takes the 32×32 product).
//!
//! The smallest products are 16×16 bits, whose 31-bit carry-less result fits a 32-bit word
//! whole: no high half to recover (BearSSL's `ctmul32` multiplies 32-bit words and gets the
//! high halves from a second product of bit-reversed operands, and Thumb-1 has no bit-reverse
//! instruction). Each 16-bit operand is split into three classes of every third bit (at
//! most six bits each), so a column of one integer product collects at most six terms, which
//! fit in the two unused bits above it: nine multiplies a product. Karatsuba builds 32×32
//! products from three of those, 64×64 from three 32×32 and the 128×128 product from three
//! 64×64 ones. The key's 27 operands are split once, when the key is made.

use super::h_times_x_inverse;
use zeroize::Zeroize;

/// Every third bit from bit 0; shifted by one and two, the other two classes.
const C0: u32 = 0x4924_9249;
const C1: u32 = C0 << 1;
const C2: u32 = C0 << 2;

/// A 16-bit key operand split into its three bit classes.
pub(super) type Split = [u32; 3];

/// The key `H·x⁻¹`, as the nine 32-bit operands its two upper Karatsuba levels use (see
/// [`operands`]), each as the three 16-bit operands of the lowest level, each split into its
/// bit classes ([`split`]).
#[derive(Clone)]
pub(crate) struct Key {
    h: [[Split; 3]; 9],
}

impl Key {
    /// The zero key, to be [`set`](Self::set) where it is kept: built whole by chained `map`s,
    /// each level's array stood beside the key on the Cortex-M0's stack (a 480-byte frame for
    /// a 324-byte key, now 408).
    pub(super) fn zero() -> Self {
        Self { h: [[[0; 3]; 3]; 9] }
    }

    /// Keys it with `h`, operand by operand. Index loops: zipped iterators came out 36 bytes
    /// larger in the GCM image.
    #[allow(clippy::needless_range_loop)]
    pub(super) fn set(&mut self, h: &[u8; 16]) {
        let w = operands(words(h_times_x_inverse(h)));
        for i in 0..9 {
            let halves = halves(w[i]);
            for j in 0..3 {
                self.h[i][j] = split(halves[j]);
            }
        }
    }
}

impl Drop for Key {
    fn drop(&mut self) {
        self.h.zeroize();
    }
}

/// The four 32-bit words of `x`, least significant first.
#[inline(always)]
fn words(x: u128) -> [u32; 4] {
    [x as u32, (x >> 32) as u32, (x >> 64) as u32, (x >> 96) as u32]
}

/// The 32-bit operands of a two-level Karatsuba product of 128-bit `w`: for each of its
/// 64-bit halves and their sum (the three products of the upper level), the two 32-bit
/// halves and their sum (the three of the lower level).
#[inline(always)]
fn operands(w: [u32; 4]) -> [u32; 9] {
    let [w0, w1, w2, w3] = w;
    let (s0, s1) = (w0 ^ w2, w1 ^ w3);
    [w0, w1, w0 ^ w1, w2, w3, w2 ^ w3, s0, s1, s0 ^ s1]
}

/// The low and high 16-bit halves of `w` and their sum: the lowest Karatsuba level.
#[inline(always)]
fn halves(w: u32) -> [u32; 3] {
    let (lo, hi) = (w & 0xFFFF, w >> 16);
    [lo, hi, lo ^ hi]
}

/// The three bit classes of `x`.
#[inline(always)]
fn split(x: u32) -> Split {
    [x & C0, x & C1, x & C2]
}

/// The 31-bit carry-less product of 16-bit `a` and the split 16-bit `b`: nine integer
/// products, each class of the result masked out of the sum that belongs to it. Written out:
/// at opt-level `z` loops would stay loops.
#[inline(always)]
fn clmul16(a: u32, b: &Split) -> u32 {
    let (a0, a1, a2) = (a & C0, a & C1, a & C2);
    let m = u32::wrapping_mul;
    let z0 = m(a0, b[0]) ^ m(a1, b[2]) ^ m(a2, b[1]);
    let z1 = m(a0, b[1]) ^ m(a1, b[0]) ^ m(a2, b[2]);
    let z2 = m(a0, b[2]) ^ m(a1, b[1]) ^ m(a2, b[0]);
    (z0 & C0) | (z1 & C1) | (z2 & C2)
}

/// The 63-bit carry-less product of `x` and the 32-bit operand `b` (as [`Key`] keeps it), as
/// two words: Karatsuba over the 16-bit halves.
#[inline(always)]
fn clmul32(x: u32, b: &[Split; 3]) -> [u32; 2] {
    let [lo, hi, mid] = halves(x);
    let lo = clmul16(lo, &b[0]);
    let hi = clmul16(hi, &b[1]);
    let mid = clmul16(mid, &b[2]) ^ lo ^ hi;
    [lo ^ (mid << 16), hi ^ (mid >> 16)]
}

/// One Karatsuba level on word vectors: the product of two `2n`-word numbers from the
/// products of their low halves, high halves and half sums (`n`-word numbers each).
#[inline(always)]
fn karatsuba<const N: usize, const M: usize>(
    lo: [u32; N],
    hi: [u32; N],
    mid: [u32; N],
) -> [u32; M] {
    let mut out = [0u32; M];
    for i in 0..N {
        let m = mid[i] ^ lo[i] ^ hi[i];
        out[i] ^= lo[i];
        out[i + N / 2] ^= m;
        out[i + N] ^= hi[i];
    }
    out
}

/// `a · h` in the field, with `h` the stored `H·x⁻¹`: the 255-bit carry-less product from
/// the nine 32×32 products (`clmul32`'s), then the reduction.
#[inline(always)]
fn mul(a: [u32; 4], key: &Key, clmul32: impl Fn(u32, &[Split; 3]) -> [u32; 2]) -> [u32; 4] {
    let x = operands(a);
    let mut q = [[0u32; 4]; 3];
    for (g, q) in q.iter_mut().enumerate() {
        let mut p = [0u32; 6];
        for k in 0..3 {
            let [lo, hi] = clmul32(x[3 * g + k], &key.h[3 * g + k]);
            p[2 * k] = lo;
            p[2 * k + 1] = hi;
        }
        // The lower Karatsuba level, on words: the middle product is corrected by the
        // outer two and added one word up.
        let [l0, l1, h0, h1, m0, m1] = p;
        *q = [l0, l1 ^ m0 ^ l0 ^ h0, h0 ^ m1 ^ l1 ^ h1, h1];
    }
    reduce_words(karatsuba::<4, 8>(q[0], q[1], q[2]))
}

/// [`reduce`](super::reduce) on 32-bit words, one word a step: `P* ≡ 1 (mod y^121)`, so
/// adding `d·P*` for the low word `d` clears it and adds `d` shifted by 121, 126, 127 and 128
/// bits (words three and four up). No 128-bit shifts, which a 32-bit CPU builds from many
/// instructions.
#[inline(always)]
fn reduce_words(mut p: [u32; 8]) -> [u32; 4] {
    for i in 0..4 {
        let d = p[i];
        p[i + 3] ^= (d << 25) ^ (d << 30) ^ (d << 31);
        p[i + 4] ^= d ^ (d >> 7) ^ (d >> 2) ^ (d >> 1);
    }
    [p[4], p[5], p[6], p[7]]
}

/// XORs the big-endian block `b` into the words `acc` (least significant first), a byte at
/// a time: the smallest code on the Cortex-M0, where a word load of a byte array is four byte
/// loads anyway. Out of line: the accumulator's load and every block share it.
#[inline(never)]
fn xor_be(acc: &mut [u32; 4], b: &[u8; 16]) {
    for (i, &byte) in b.iter().enumerate() {
        acc[3 - i / 4] ^= u32::from(byte) << (24 - 8 * (i % 4));
    }
}

/// Absorbs whole blocks into `y`, on words throughout (no 128-bit integers, see
/// [`reduce_words`]).
pub(super) fn update(key: &Key, y: &mut [u8; 16], blocks: &[[u8; 16]]) {
    update_with(key, y, blocks, clmul32);
}

/// [`update`] with another 32×32-bit carry-less product (the Cortex-M0's assembly).
#[inline(always)]
pub(super) fn update_with(
    key: &Key,
    y: &mut [u8; 16],
    blocks: &[[u8; 16]],
    clmul32: impl Fn(u32, &[Split; 3]) -> [u32; 2] + Copy,
) {
    let mut acc = [0u32; 4];
    xor_be(&mut acc, y);
    for block in blocks {
        xor_be(&mut acc, block);
        acc = mul(acc, key, clmul32);
    }
    for (i, byte) in y.iter_mut().enumerate() {
        *byte = (acc[3 - i / 4] >> (24 - 8 * (i % 4))) as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 64-bit carry-less product of `x` and `y`, as the field product uses it.
    fn clmul(x: u32, y: u32) -> u64 {
        let [lo, hi] = clmul32(x, &halves(y).map(split));
        (u64::from(hi) << 32) | u64::from(lo)
    }

    /// The word-wise reduction equals the 128-bit one.
    #[test]
    fn reduce_words_matches_reduce() {
        let mut s = 0x2545_f491_9e37_79b9u64;
        for round in 0..2000 {
            let mut p = [0u32; 8];
            for w in &mut p {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                *w = if round == 0 { u32::MAX } else { s as u32 };
            }
            let half =
                |i: usize| (0..4).fold(0u128, |acc, k| acc | u128::from(p[i + k]) << (32 * k));
            let want = super::super::reduce(half(4), half(0));
            let got = reduce_words(p);
            let got = (0..4).fold(0u128, |acc, k| acc | u128::from(got[k]) << (32 * k));
            assert_eq!(got, want, "{p:08x?}");
        }
    }

    #[test]
    fn clmul_matches_shift_and_add() {
        let slow = |x: u32, y: u32| {
            (0..32).filter(|i| y >> i & 1 == 1).fold(0u64, |z, i| z ^ u64::from(x) << i)
        };
        for (x, y) in
            [(u32::MAX, u32::MAX), (1, 1), (0x8000_0001, u32::MAX), (0x1234_5678, 0x9abc_def0)]
        {
            assert_eq!(clmul(x, y), slow(x, y), "{x:x} {y:x}");
        }
        // Dense and sparse words from a fixed xorshift sequence.
        let mut s = 0x9E37_79B9u32;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            s
        };
        for _ in 0..2000 {
            let (x, y) = (next(), next());
            assert_eq!(clmul(x, y), slow(x, y), "{x:x} {y:x}");
            assert_eq!(clmul(x | y, x | 0xFFFF), slow(x | y, x | 0xFFFF), "{x:x} {y:x}");
        }
    }
}
