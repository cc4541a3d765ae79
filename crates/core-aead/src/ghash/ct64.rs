//! GHASH with constant-time carry-less multiplication on 64-bit integer multiplies: the
//! portable implementation on 64-bit CPUs without PCLMULQDQ or PMULL.
//!
//! A 64×64 carry-less product is an integer product whose carries are kept out of the way:
//! each operand is split into five parts holding every fifth bit, so each of the 25 partial
//! products has at most 13 terms on any bit it owns — less than 2^5, so its carries stay in the
//! four unused bits above — and masking keeps the bits that count. Three such products make a
//! 128×128 one (Karatsuba). `mul` of a `u64` pair into a `u128` is constant-time on the 64-bit
//! CPUs this serves (x86-64, Armv8).

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

/// Every fifth bit of a `u64`, from bit 0.
const M64: u64 = 0x1084_2108_4210_8421;
/// Every fifth bit of a `u128`, from bit 0.
const M128: u128 = 0x2108_4210_8421_0842_1084_2108_4210_8421;

/// The 128-bit carry-less product of `x` and `y`.
#[inline(always)]
fn clmul64(x: u64, y: u64) -> u128 {
    let xs: [u128; 5] = core::array::from_fn(|i| u128::from(x & (M64 << i)));
    let ys: [u128; 5] = core::array::from_fn(|i| u128::from(y & (M64 << i)));
    let mut z = 0u128;
    for class in 0..5 {
        let mut t = 0u128;
        for (a, xa) in xs.iter().enumerate() {
            t ^= xa.wrapping_mul(ys[(class + 5 - a) % 5]);
        }
        z |= t & (M128 << class);
    }
    z
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
    fn masks_hold_every_fifth_bit() {
        assert_eq!(
            (0..64).filter(|i| M64 >> i & 1 == 1).collect::<std::vec::Vec<_>>(),
            (0..64).step_by(5).collect::<std::vec::Vec<_>>()
        );
        assert_eq!(
            (0..128).filter(|i| M128 >> i & 1 == 1).collect::<std::vec::Vec<_>>(),
            (0..128).step_by(5).collect::<std::vec::Vec<_>>()
        );
    }

    #[test]
    fn clmul64_matches_shift_and_add() {
        let slow = |x: u64, y: u64| {
            (0..64).filter(|i| y >> i & 1 == 1).fold(0u128, |z, i| z ^ u128::from(x) << i)
        };
        for (x, y) in [
            (u64::MAX, u64::MAX),
            (1, 1),
            (0x8000_0000_0000_0001, u64::MAX),
            (0x1234_5678_9abc_def0, 0xfedc_ba98_7654_3210),
        ] {
            assert_eq!(clmul64(x, y), slow(x, y), "{x:x} {y:x}");
        }
    }
}
