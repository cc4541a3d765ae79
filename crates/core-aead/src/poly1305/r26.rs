//! Conversions between the radix-2^64 accumulator of `portable_r64` and the radix-2^26 limbs the
//! vector implementations multiply with `vpmuludq`.

const M26: u64 = (1 << 26) - 1;

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
