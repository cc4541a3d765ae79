//! GHASH with constant-time carry-less multiplication on 32-bit integer multiplies that keep
//! only the low half (`muls` on a Cortex-M0), as in BearSSL's `ctmul32`: the Cortex-M0 path.
//!
//! Each operand is split into four parts holding every fourth bit; in the low 32 bits of each
//! partial product a bit collects at most 8 terms, so carries stay in the three unused bits
//! above it. The high half of a 32×32 product is the low half of the product of the
//! bit-reversed operands, reversed. Karatsuba builds 64×64 products from three of those and
//! the 128×128 product from three 64×64 ones.

use super::{h_times_x_inverse, reduce};
use zeroize::Zeroize;

/// The key `H·x⁻¹`, as the nine 32-bit operands its Karatsuba product uses (see [`operands`])
/// and their bit reversals, so no block ever reverses a word of the key.
#[derive(Clone)]
pub(crate) struct Key {
    h: [u32; 9],
    h_rev: [u32; 9],
}

impl Key {
    pub(super) fn new(h: &[u8; 16]) -> Self {
        let h = words(h_times_x_inverse(h));
        Self { h: operands(h), h_rev: operands(h.map(u32::reverse_bits)) }
    }
}

impl Drop for Key {
    fn drop(&mut self) {
        self.h.zeroize();
        self.h_rev.zeroize();
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

/// The low 32 bits of the carry-less product of `x` and `y`: both split into four classes
/// of every fourth bit, 16 integer products, each result class masked out of the sum that
/// belongs to it. Written out in full: at opt-level `z` the loops would stay loops.
#[inline(always)]
fn bmul32_lo(x: u32, y: u32) -> u32 {
    const M0: u32 = 0x1111_1111;
    const M1: u32 = M0 << 1;
    const M2: u32 = M0 << 2;
    const M3: u32 = M0 << 3;
    let (x0, x1, x2, x3) = (x & M0, x & M1, x & M2, x & M3);
    let (y0, y1, y2, y3) = (y & M0, y & M1, y & M2, y & M3);
    let m = u32::wrapping_mul;
    let z0 = m(x0, y0) ^ m(x1, y3) ^ m(x2, y2) ^ m(x3, y1);
    let z1 = m(x0, y1) ^ m(x1, y0) ^ m(x2, y3) ^ m(x3, y2);
    let z2 = m(x0, y2) ^ m(x1, y1) ^ m(x2, y0) ^ m(x3, y3);
    let z3 = m(x0, y3) ^ m(x1, y2) ^ m(x2, y1) ^ m(x3, y0);
    (z0 & M0) | (z1 & M1) | (z2 & M2) | (z3 & M3)
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

/// The 256-bit product from the nine 64-bit products of the operands (two words each).
#[inline(always)]
fn combine(p: [[u32; 2]; 9]) -> [u32; 8] {
    let a = karatsuba::<2, 4>(p[0], p[1], p[2]);
    let b = karatsuba::<2, 4>(p[3], p[4], p[5]);
    let c = karatsuba::<2, 4>(p[6], p[7], p[8]);
    karatsuba::<4, 8>(a, b, c)
}

/// `a · h` in the field, with `h` the stored `H·x⁻¹`. Each 32×32 product's high word comes
/// from the product of the reversed operands (`rev(x)·rev(y)` is `x·y` reversed over 63
/// bits); reversal commutes with the XORs of Karatsuba, so the reversed halves are combined
/// first and only the eight result words are reversed back.
#[inline(always)]
fn mul(a: [u32; 4], key: &Key) -> u128 {
    let x = operands(a);
    let x_rev = operands(a.map(u32::reverse_bits));
    let mut lo = [[0u32; 2]; 9];
    let mut hi_rev = [[0u32; 2]; 9];
    for t in 0..9 {
        lo[t][0] = bmul32_lo(x[t], key.h[t]);
        hi_rev[t][1] = bmul32_lo(x_rev[t], key.h_rev[t]);
    }
    let mut p = combine(lo);
    let q = combine(hi_rev);
    for k in 1..8 {
        p[k] ^= q[k].reverse_bits() >> 1;
    }
    let w = |i: usize| u128::from(p[i]) | u128::from(p[i + 1]) << 32;
    let half = |i: usize| w(i) | w(i + 2) << 64;
    reduce(half(4), half(0))
}

/// Absorbs whole blocks into `y`.
pub(super) fn update(key: &Key, y: &mut [u8; 16], blocks: &[[u8; 16]]) {
    let mut acc = u128::from_be_bytes(*y);
    for block in blocks {
        acc = mul(words(acc ^ u128::from_be_bytes(*block)), key);
    }
    *y = acc.to_be_bytes();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 64-bit carry-less product of `x` and `y`, as the field product uses it.
    fn clmul32(x: u32, y: u32) -> u64 {
        let lo = bmul32_lo(x, y);
        let hi = bmul32_lo(x.reverse_bits(), y.reverse_bits()).reverse_bits() >> 1;
        (u64::from(hi) << 32) | u64::from(lo)
    }

    #[test]
    fn clmul32_matches_shift_and_add() {
        let slow = |x: u32, y: u32| {
            (0..32).filter(|i| y >> i & 1 == 1).fold(0u64, |z, i| z ^ u64::from(x) << i)
        };
        for (x, y) in
            [(u32::MAX, u32::MAX), (1, 1), (0x8000_0001, u32::MAX), (0x1234_5678, 0x9abc_def0)]
        {
            assert_eq!(clmul32(x, y), slow(x, y), "{x:x} {y:x}");
        }
    }
}
