//! Conversions between the scalar accumulators (radix 2^64, and 2^44 for the powers of `r`)
//! and the radix-2^26 limbs the vector implementations multiply with `vpmuludq`.

#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

use super::portable64;

const M26: u64 = (1 << 26) - 1;
const M44: u64 = (1 << 44) - 1;

/// A partly reduced radix-2^44 value (limbs below 2^45, 2^45 and 2^44) as five limbs of 26
/// bits, the top one up to 28.
#[inline(always)]
pub(super) fn from_r44(x: [u64; 3]) -> [u32; 5] {
    let [mut x0, mut x1, mut x2] = x;
    x1 += x0 >> 44;
    x0 &= M44;
    x2 += x1 >> 44;
    x1 &= M44;
    [
        (x0 & M26) as u32,
        (((x0 >> 26) | (x1 << 18)) & M26) as u32,
        ((x1 >> 8) & M26) as u32,
        (((x1 >> 34) | (x2 << 10)) & M26) as u32,
        (x2 >> 16) as u32,
    ]
}

/// r^1 … r^4 (radix 2^44): three scalar multiplications, two deep.
#[inline(always)]
pub(super) fn powers4(r: [u64; 3]) -> [[u64; 3]; 4] {
    let r2 = portable64::mul(r, r);
    [r, r2, portable64::mul(r2, r), portable64::mul(r2, r2)]
}

/// r^1 … r^8 (radix 2^44): seven scalar multiplications, three deep.
#[inline(always)]
pub(super) fn powers8(r: [u64; 3]) -> [[u64; 3]; 8] {
    let [r1, r2, r3, r4] = powers4(r);
    let m = portable64::mul;
    [r1, r2, r3, r4, m(r4, r1), m(r4, r2), m(r4, r3), m(r4, r4)]
}

/// A radix-2^64 accumulator (below 2^131) as five limbs of 26 bits, the top one up to 29.
#[inline(always)]
pub(super) fn from_r64(h: [u64; 3]) -> [u32; 5] {
    let [h0, h1, h2] = h;
    [
        (h0 & M26) as u32,
        ((h0 >> 26) & M26) as u32,
        (((h0 >> 52) | (h1 << 12)) & M26) as u32,
        ((h1 >> 14) & M26) as u32,
        ((h1 >> 40) | (h2 << 24)) as u32,
    ]
}

/// Five radix-2^26 limbs of up to 63 bits each (sums of lanes) as a radix-2^64 accumulator
/// (top word at most 4), folding what lies above 2^130 back in times 5.
#[inline(always)]
pub(super) fn to_r64(l: [u64; 5]) -> [u64; 3] {
    let [mut l0, mut l1, mut l2, mut l3, mut l4] = l;
    // Two carry passes, then a last one up to l4: every limb below 2^26, l4 at most 2^26.
    for _ in 0..2 {
        l1 += l0 >> 26;
        l0 &= M26;
        l2 += l1 >> 26;
        l1 &= M26;
        l3 += l2 >> 26;
        l2 &= M26;
        l4 += l3 >> 26;
        l3 &= M26;
        l0 += (l4 >> 26) * 5;
        l4 &= M26;
    }
    l1 += l0 >> 26;
    l0 &= M26;
    l2 += l1 >> 26;
    l1 &= M26;
    l3 += l2 >> 26;
    l2 &= M26;
    l4 += l3 >> 26;
    l3 &= M26;
    [l0 | (l1 << 26) | (l2 << 52), (l2 >> 12) | (l3 << 14) | (l4 << 40), l4 >> 24]
}
