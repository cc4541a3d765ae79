//! GF(2^255 − 19) in radix 2^13: twenty 13-bit limbs in 32-bit words (260 bits), for CPUs
//! whose only multiplier is 32×32→32 (Cortex-M0's `MULS`), after BearSSL's `m15` code.
//!
//! A limb product is below 2^26.1 and a column of twenty of them below 2^30.4, so every
//! product and every column sum fits a 32-bit word with no 64-bit arithmetic anywhere. The
//! 39 product columns are carried into 13-bit limbs, then the upper twenty folded onto the
//! lower with 2^260 ≡ 2^5·19 = 608 (mod p). Seventeen 15-bit limbs would need fewer
//! products (289 instead of 400) but their column sums reach 2^34, which would need a split
//! accumulator on every column. Every operation except `to_bytes` ends with one carry pass,
//! leaving each limb at most 2^13 + 2.
//!
//! Its tables are small for flash: one comb row (the radix-16 Horner evaluation of
//! `edwards`) and sixteen odd multiples of B for verification.

use subtle::{Choice, ConditionallySelectable};

use super::edwards::Niels;
use super::field::Field;
use super::tables;

const MASK: u32 = (1 << 13) - 1;
const N: usize = 20;

/// A field element as twenty limbs of 13 bits (partly reduced).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fe(pub(crate) [u32; N]);

impl Fe {
    /// [`Field::from_bytes`], usable in constants (for the static tables).
    pub(crate) const fn from_bytes_const(b: &[u8; 32]) -> Self {
        let mut l = [0u32; N];
        let mut i = 0;
        while i < N {
            let bit = 13 * i;
            let at = bit / 8;
            let mut v = 0u32;
            let mut k = 0;
            while k < 3 && at + k < 32 {
                let byte = if at + k == 31 { b[31] & 0x7f } else { b[at + k] };
                v |= (byte as u32) << (8 * k);
                k += 1;
            }
            l[i] = (v >> (bit % 8)) & MASK;
            i += 1;
        }
        Fe(l)
    }

    /// Carries limbs (each below 2^31) into 13 bits, folding the carry out of the top limb
    /// back as 608 times it: limbs at most 2^13 + 2 afterwards.
    #[inline(always)]
    fn carry(mut l: [u32; N]) -> Self {
        for i in 0..N - 1 {
            l[i + 1] += l[i] >> 13;
            l[i] &= MASK;
        }
        let c = l[N - 1] >> 13;
        l[N - 1] &= MASK;
        l[0] += c * 608;
        l[1] += l[0] >> 13;
        l[0] &= MASK;
        l[2] += l[1] >> 13;
        l[1] &= MASK;
        Fe(l)
    }

    /// Carries the 39 product columns into 40 limbs of 13 bits, folds the upper twenty onto
    /// the lower ones and carries again.
    #[inline(always)]
    fn reduce_columns(mut t: [u32; 2 * N]) -> Self {
        for k in 0..2 * N - 1 {
            t[k + 1] += t[k] >> 13;
            t[k] &= MASK;
        }
        let mut r = [0u32; N];
        for (i, r) in r.iter_mut().enumerate() {
            *r = t[i] + 608 * t[i + N];
        }
        Self::carry(r)
    }

    /// Carries without folding, so that limbs are below 2^13 and the value below 2^260.
    fn chain(l: &mut [u32; N]) {
        for i in 0..N - 1 {
            l[i + 1] += l[i] >> 13;
            l[i] &= MASK;
        }
    }

    /// Folds the bits from 2^255 up back in as 19 times them, then carries.
    fn fold255(l: &mut [u32; N]) {
        let c = l[N - 1] >> 8;
        l[N - 1] &= 0xff;
        l[0] += 19 * c;
        Self::chain(l);
    }
}

impl ConditionallySelectable for Fe {
    #[inline]
    fn conditional_select(a: &Self, b: &Self, choice: Choice) -> Self {
        let mut r = [0; N];
        for (i, r) in r.iter_mut().enumerate() {
            *r = u32::conditional_select(&a.0[i], &b.0[i], choice);
        }
        Fe(r)
    }
}

/// 64p = 2·(2^260 − 608) with every limb at least 2^14 − 1024, added before a subtraction so
/// that no limb underflows.
const P64: [u32; N] = {
    let mut l = [2 * MASK; N];
    l[0] = 2 * (MASK + 1 - 608);
    l
};

static COMB: [[Niels<Fe>; 8]; 1] = niels_comb!(Fe, 1);
/// Sixteen odd multiples (width-6 NAF): 3.8 KiB of flash instead of 15 KiB for 64.
static ODD_B: [Niels<Fe>; 16] = niels_odd!(Fe, 16);

impl Field for Fe {
    const ZERO: Self = Fe([0; N]);
    const ONE: Self = {
        let mut l = [0; N];
        l[0] = 1;
        Fe(l)
    };
    const D: Self = Fe(tables::D_13);
    const D2: Self = Fe(tables::D2_13);
    const SQRT_M1: Self = Fe(tables::SQRT_M1_13);

    #[inline]
    fn from_bytes(bytes: &[u8; 32]) -> Self {
        Self::from_bytes_const(bytes)
    }

    fn to_bytes(&self) -> [u8; 32] {
        let mut l = self.0;
        Self::chain(&mut l);
        // Below 2^260: two folds bring the value below 2^255 (the second one only moves the
        // carry a first fold can leave at bit 255).
        Self::fold255(&mut l);
        Self::fold255(&mut l);
        // Now below 2^255 < 2p: subtract p if value + 19 reaches 2^255.
        let mut q = (l[0] + 19) >> 13;
        for &limb in &l[1..N - 1] {
            q = (limb + q) >> 13;
        }
        q = (l[N - 1] + q) >> 8;
        l[0] += 19 * q;
        Self::chain(&mut l);
        l[N - 1] &= 0xff;
        let mut out = [0u8; 32];
        let (mut acc, mut bits, mut at) = (0u32, 0, 0);
        for limb in l {
            acc |= limb << bits;
            bits += 13;
            while bits >= 8 && at < 32 {
                out[at] = acc as u8;
                acc >>= 8;
                bits -= 8;
                at += 1;
            }
        }
        if at < 32 {
            out[at] = acc as u8;
        }
        out
    }

    #[inline]
    fn add(&self, rhs: &Self) -> Self {
        let mut l = [0; N];
        for (i, l) in l.iter_mut().enumerate() {
            *l = self.0[i] + rhs.0[i];
        }
        Self::carry(l)
    }

    #[inline]
    fn sub(&self, rhs: &Self) -> Self {
        let mut l = [0; N];
        for (i, l) in l.iter_mut().enumerate() {
            *l = self.0[i] + P64[i] - rhs.0[i];
        }
        Self::carry(l)
    }

    fn mul(&self, rhs: &Self) -> Self {
        let (a, b) = (&self.0, &rhs.0);
        let mut t = [0u32; 2 * N];
        for i in 0..N {
            for j in 0..N {
                t[i + j] += a[i] * b[j];
            }
        }
        Self::reduce_columns(t)
    }

    fn square(&self) -> Self {
        let a = &self.0;
        let mut t = [0u32; 2 * N];
        for i in 0..N {
            t[2 * i] += a[i] * a[i];
            let d = 2 * a[i];
            for j in i + 1..N {
                t[i + j] += d * a[j];
            }
        }
        Self::reduce_columns(t)
    }

    fn mul_a24(&self) -> Self {
        let mut l = [0; N];
        for (i, l) in l.iter_mut().enumerate() {
            *l = self.0[i] * 121665;
        }
        Self::carry(l)
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
