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

/// The key `H·x⁻¹`.
#[derive(Clone)]
pub(crate) struct Key {
    h: u128,
}

impl Key {
    pub(super) fn new(h: &[u8; 16]) -> Self {
        Self { h: h_times_x_inverse(h) }
    }
}

impl Drop for Key {
    fn drop(&mut self) {
        self.h.zeroize();
    }
}

/// The low 32 bits of the carry-less product of `x` and `y`.
#[inline(always)]
fn bmul32_lo(x: u32, y: u32) -> u32 {
    const M: u32 = 0x1111_1111;
    let xs = [x & M, x & (M << 1), x & (M << 2), x & (M << 3)];
    let ys = [y & M, y & (M << 1), y & (M << 2), y & (M << 3)];
    let mut z = 0;
    for class in 0..4 {
        let mut t = 0u32;
        for (a, xa) in xs.iter().enumerate() {
            t ^= xa.wrapping_mul(ys[(class + 4 - a) % 4]);
        }
        z |= t & (M << class);
    }
    z
}

/// The 64-bit carry-less product of `x` and `y`.
#[inline(always)]
fn clmul32(x: u32, y: u32) -> u64 {
    let lo = bmul32_lo(x, y);
    // rev(x)·rev(y) = rev₆₃(x·y): its low word, reversed, is bits 31..62 of x·y.
    let hi = bmul32_lo(x.reverse_bits(), y.reverse_bits()).reverse_bits() >> 1;
    (u64::from(hi) << 32) | u64::from(lo)
}

/// The 128-bit carry-less product of `x` and `y` (Karatsuba over 32-bit halves).
#[inline(always)]
fn clmul64(x: u64, y: u64) -> u128 {
    let (x1, x0) = ((x >> 32) as u32, x as u32);
    let (y1, y0) = ((y >> 32) as u32, y as u32);
    let lo = clmul32(x0, y0);
    let hi = clmul32(x1, y1);
    let mid = clmul32(x0 ^ x1, y0 ^ y1) ^ lo ^ hi;
    (u128::from(hi) << 64) ^ (u128::from(mid) << 32) ^ u128::from(lo)
}

/// `a · h` in the field, with `h` the stored `H·x⁻¹`.
#[inline(always)]
fn mul(a: u128, h: u128) -> u128 {
    let (a1, a0) = ((a >> 64) as u64, a as u64);
    let (h1, h0) = ((h >> 64) as u64, h as u64);
    let lo = clmul64(a0, h0);
    let hi = clmul64(a1, h1);
    let mid = clmul64(a0 ^ a1, h0 ^ h1) ^ lo ^ hi;
    reduce(hi ^ (mid >> 64), lo ^ (mid << 64))
}

/// Absorbs whole blocks into `y`.
pub(super) fn update(key: &Key, y: &mut [u8; 16], blocks: &[[u8; 16]]) {
    let mut acc = u128::from_be_bytes(*y);
    for block in blocks {
        acc = mul(acc ^ u128::from_be_bytes(*block), key.h);
    }
    *y = acc.to_be_bytes();
}

#[cfg(test)]
mod tests {
    use super::*;

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
