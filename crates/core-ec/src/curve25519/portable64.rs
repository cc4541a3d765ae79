//! GF(2^255 − 19) in radix 2^51: five 64-bit limbs, products of 64×64→128 bits, the reduction
//! folding the 2^255 overflow back multiplied by 19. The portable default on 64-bit targets.
//!
//! Reduced limbs are below 2^51 + 2^15; `add` does not carry (its output stays below 2^53),
//! `sub` adds 16p before subtracting so no limb goes negative, and `mul` accepts limbs up to
//! 2^56 with every column sum below 2^119.

use subtle::{Choice, ConditionallySelectable};

use super::edwards::Niels;
use super::field::Field;
use super::tables;

const MASK: u64 = (1 << 51) - 1;

/// A field element as five limbs of 51 bits (partly reduced).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fe(pub(crate) [u64; 5]);

/// Eight little-endian bytes from `b` at `at`, in a `const fn`.
const fn load8(b: &[u8; 32], at: usize) -> u64 {
    let mut v = 0u64;
    let mut i = 0;
    while i < 8 {
        v |= (b[at + i] as u64) << (8 * i);
        i += 1;
    }
    v
}

impl Fe {
    /// [`Field::from_bytes`], usable in constants (for the static tables).
    pub(crate) const fn from_bytes_const(b: &[u8; 32]) -> Self {
        Fe([
            load8(b, 0) & MASK,
            (load8(b, 6) >> 3) & MASK,
            (load8(b, 12) >> 6) & MASK,
            (load8(b, 19) >> 1) & MASK,
            (load8(b, 24) >> 12) & MASK,
        ])
    }

    /// One carry pass over column sums: limbs below 2^51 + 2^15 afterwards.
    #[inline(always)]
    fn carry_wide(c: [u128; 5]) -> Self {
        let mut c = c;
        c[1] += c[0] >> 51;
        c[2] += c[1] >> 51;
        c[3] += c[2] >> 51;
        c[4] += c[3] >> 51;
        let top = c[4] >> 51;
        let r0 = (c[0] as u64 & MASK) as u128 + top * 19;
        Fe([
            r0 as u64 & MASK,
            (c[1] as u64 & MASK) + (r0 >> 51) as u64,
            c[2] as u64 & MASK,
            c[3] as u64 & MASK,
            c[4] as u64 & MASK,
        ])
    }

    /// One carry pass over 64-bit limbs below 2^63.
    #[inline(always)]
    fn carry(l: [u64; 5]) -> Self {
        let mut l = l;
        l[1] += l[0] >> 51;
        l[2] += l[1] >> 51;
        l[3] += l[2] >> 51;
        l[4] += l[3] >> 51;
        let top = l[4] >> 51;
        let r0 = (l[0] & MASK) + top * 19;
        Fe([r0 & MASK, (l[1] & MASK) + (r0 >> 51), l[2] & MASK, l[3] & MASK, l[4] & MASK])
    }
}

#[inline(always)]
fn m(x: u64, y: u64) -> u128 {
    u128::from(x) * u128::from(y)
}

impl ConditionallySelectable for Fe {
    #[inline]
    fn conditional_select(a: &Self, b: &Self, choice: Choice) -> Self {
        let mut r = [0; 5];
        for (i, r) in r.iter_mut().enumerate() {
            *r = u64::conditional_select(&a.0[i], &b.0[i], choice);
        }
        Fe(r)
    }
}

/// 16p in radix 2^51, added before a subtraction so that no limb underflows.
const P16: [u64; 5] = [(MASK - 18) << 4, MASK << 4, MASK << 4, MASK << 4, MASK << 4];

static COMB: [[Niels<Fe>; 8]; 32] = niels_comb!(Fe, 32);
static ODD_B: [Niels<Fe>; 64] = niels_odd!(Fe, 64);

impl Field for Fe {
    const ZERO: Self = Fe([0; 5]);
    const ONE: Self = Fe([1, 0, 0, 0, 0]);
    const D: Self = Fe(tables::D_51);
    const D2: Self = Fe(tables::D2_51);
    const SQRT_M1: Self = Fe(tables::SQRT_M1_51);

    #[inline]
    fn from_bytes(bytes: &[u8; 32]) -> Self {
        Self::from_bytes_const(bytes)
    }

    /// By safegcd rather than Fermat's chain: see [`super::safegcd`].
    fn invert(&self) -> Self {
        Self::from_bytes_const(&super::safegcd::invert_bytes(&self.to_bytes()))
    }

    fn invert_vartime(&self) -> Self {
        Self::from_bytes_const(&super::safegcd::invert_bytes_vartime(&self.to_bytes()))
    }

    fn to_bytes(&self) -> [u8; 32] {
        // Two carry passes leave every limb below 2^51 and the value below 2p; adding 19 and
        // looking at bit 255 then says whether to subtract p.
        let mut h = Self::carry(Self::carry(self.0).0).0;
        let mut q = (h[0] + 19) >> 51;
        q = (h[1] + q) >> 51;
        q = (h[2] + q) >> 51;
        q = (h[3] + q) >> 51;
        q = (h[4] + q) >> 51;
        h[0] += 19 * q;
        h[1] += h[0] >> 51;
        h[0] &= MASK;
        h[2] += h[1] >> 51;
        h[1] &= MASK;
        h[3] += h[2] >> 51;
        h[2] &= MASK;
        h[4] += h[3] >> 51;
        h[3] &= MASK;
        h[4] &= MASK;
        let words = [
            h[0] | (h[1] << 51),
            (h[1] >> 13) | (h[2] << 38),
            (h[2] >> 26) | (h[3] << 25),
            (h[3] >> 39) | (h[4] << 12),
        ];
        let mut out = [0u8; 32];
        for (chunk, w) in out.chunks_exact_mut(8).zip(words) {
            chunk.copy_from_slice(&w.to_le_bytes());
        }
        out
    }

    #[inline(always)]
    fn add(&self, rhs: &Self) -> Self {
        let (a, b) = (self.0, rhs.0);
        Fe([a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4]])
    }

    #[inline(always)]
    fn sub(&self, rhs: &Self) -> Self {
        let (a, b) = (self.0, rhs.0);
        Self::carry([
            a[0] + P16[0] - b[0],
            a[1] + P16[1] - b[1],
            a[2] + P16[2] - b[2],
            a[3] + P16[3] - b[3],
            a[4] + P16[4] - b[4],
        ])
    }

    #[inline(always)]
    fn mul(&self, rhs: &Self) -> Self {
        let [a0, a1, a2, a3, a4] = self.0;
        let [b0, b1, b2, b3, b4] = rhs.0;
        let (b1_19, b2_19, b3_19, b4_19) = (b1 * 19, b2 * 19, b3 * 19, b4 * 19);
        Self::carry_wide([
            m(a0, b0) + m(a1, b4_19) + m(a2, b3_19) + m(a3, b2_19) + m(a4, b1_19),
            m(a0, b1) + m(a1, b0) + m(a2, b4_19) + m(a3, b3_19) + m(a4, b2_19),
            m(a0, b2) + m(a1, b1) + m(a2, b0) + m(a3, b4_19) + m(a4, b3_19),
            m(a0, b3) + m(a1, b2) + m(a2, b1) + m(a3, b0) + m(a4, b4_19),
            m(a0, b4) + m(a1, b3) + m(a2, b2) + m(a3, b1) + m(a4, b0),
        ])
    }

    #[inline(always)]
    fn square(&self) -> Self {
        let [a0, a1, a2, a3, a4] = self.0;
        let (d0, d1, d2, d3) = (a0 * 2, a1 * 2, a2 * 2, a3 * 2);
        let (a3_19, a4_19) = (a3 * 19, a4 * 19);
        Self::carry_wide([
            m(a0, a0) + m(d1, a4_19) + m(d2, a3_19),
            m(d0, a1) + m(d2, a4_19) + m(a3, a3_19),
            m(d0, a2) + m(a1, a1) + m(d3, a4_19),
            m(d0, a3) + m(d1, a2) + m(a4, a4_19),
            m(d0, a4) + m(d1, a3) + m(a2, a2),
        ])
    }

    #[inline(always)]
    fn mul_a24(&self) -> Self {
        let a = self.0;
        Self::carry_wide([
            m(a[0], 121665),
            m(a[1], 121665),
            m(a[2], 121665),
            m(a[3], 121665),
            m(a[4], 121665),
        ])
    }

    #[inline]
    fn comb() -> &'static [[Niels<Self>; 8]] {
        &COMB
    }

    #[inline]
    fn odd_b() -> &'static [Niels<Self>] {
        &ODD_B
    }
}
