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

/// Carries limb `k` into limb `k + 1` for each listed `k`, in order. Loops over limbs are
/// written out here and in `limbwise!`: at the size-optimised levels a Cortex-M0 is built
/// with, compilers keep them as loops over arrays addressed on the stack by index.
macro_rules! carry_chain {
    ($l:ident; $($k:literal)*) => {$(
        $l[$k + 1] += $l[$k] >> 13;
        $l[$k] &= MASK;
    )*};
}

/// The twenty limbs `f(0), …, f(19)`.
macro_rules! limbwise {
    (|$i:ident| $e:expr) => {{
        let f = |$i: usize| $e;
        [
            f(0), f(1), f(2), f(3), f(4), f(5), f(6), f(7), f(8), f(9),
            f(10), f(11), f(12), f(13), f(14), f(15), f(16), f(17), f(18), f(19),
        ]
    }};
}

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
        carry_chain!(l; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18);
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
        carry_chain!(t; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19
            20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38);
        Self::carry(limbwise!(|i| t[i] + 608 * t[i + N]))
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

/// The 39 product columns of `a·b` (and a zero), column `k` summing `a[i]·b[k−i]`, written
/// out term by term (generated): each column is then one register accumulating two loads
/// and a `MULS` per term, with no index arithmetic and no load or store of a column per
/// product as the row-by-row loop had on the Cortex-M0 (compilers do not unroll it at the
/// size-optimised levels the M0 is built with).
#[rustfmt::skip]
#[cfg_attr(target_arch = "arm", allow(dead_code))]
#[inline(always)]
fn mul_columns(a: &[u32; N], b: &[u32; N]) -> [u32; 2 * N] {
    [
        a[0] * b[0],
        a[0] * b[1] + a[1] * b[0],
        a[0] * b[2] + a[1] * b[1] + a[2] * b[0],
        a[0] * b[3] + a[1] * b[2] + a[2] * b[1] + a[3] * b[0],
        a[0] * b[4] + a[1] * b[3] + a[2] * b[2] + a[3] * b[1] + a[4] * b[0],
        a[0] * b[5] + a[1] * b[4] + a[2] * b[3] + a[3] * b[2] + a[4] * b[1] + a[5] * b[0],
        a[0] * b[6] + a[1] * b[5] + a[2] * b[4] + a[3] * b[3] + a[4] * b[2] + a[5] * b[1] + a[6] * b[0],
        a[0] * b[7] + a[1] * b[6] + a[2] * b[5] + a[3] * b[4] + a[4] * b[3] + a[5] * b[2] + a[6] * b[1] + a[7] * b[0],
        a[0] * b[8] + a[1] * b[7] + a[2] * b[6] + a[3] * b[5] + a[4] * b[4] + a[5] * b[3] + a[6] * b[2] + a[7] * b[1] + a[8] * b[0],
        a[0] * b[9] + a[1] * b[8] + a[2] * b[7] + a[3] * b[6] + a[4] * b[5] + a[5] * b[4] + a[6] * b[3] + a[7] * b[2] + a[8] * b[1] + a[9] * b[0],
        a[0] * b[10] + a[1] * b[9] + a[2] * b[8] + a[3] * b[7] + a[4] * b[6] + a[5] * b[5] + a[6] * b[4] + a[7] * b[3] + a[8] * b[2] + a[9] * b[1] + a[10] * b[0],
        a[0] * b[11] + a[1] * b[10] + a[2] * b[9] + a[3] * b[8] + a[4] * b[7] + a[5] * b[6] + a[6] * b[5] + a[7] * b[4] + a[8] * b[3] + a[9] * b[2] + a[10] * b[1] + a[11] * b[0],
        a[0] * b[12] + a[1] * b[11] + a[2] * b[10] + a[3] * b[9] + a[4] * b[8] + a[5] * b[7] + a[6] * b[6] + a[7] * b[5] + a[8] * b[4] + a[9] * b[3] + a[10] * b[2] + a[11] * b[1] + a[12] * b[0],
        a[0] * b[13] + a[1] * b[12] + a[2] * b[11] + a[3] * b[10] + a[4] * b[9] + a[5] * b[8] + a[6] * b[7] + a[7] * b[6] + a[8] * b[5] + a[9] * b[4] + a[10] * b[3] + a[11] * b[2] + a[12] * b[1] + a[13] * b[0],
        a[0] * b[14] + a[1] * b[13] + a[2] * b[12] + a[3] * b[11] + a[4] * b[10] + a[5] * b[9] + a[6] * b[8] + a[7] * b[7] + a[8] * b[6] + a[9] * b[5] + a[10] * b[4] + a[11] * b[3] + a[12] * b[2] + a[13] * b[1] + a[14] * b[0],
        a[0] * b[15] + a[1] * b[14] + a[2] * b[13] + a[3] * b[12] + a[4] * b[11] + a[5] * b[10] + a[6] * b[9] + a[7] * b[8] + a[8] * b[7] + a[9] * b[6] + a[10] * b[5] + a[11] * b[4] + a[12] * b[3] + a[13] * b[2] + a[14] * b[1] + a[15] * b[0],
        a[0] * b[16] + a[1] * b[15] + a[2] * b[14] + a[3] * b[13] + a[4] * b[12] + a[5] * b[11] + a[6] * b[10] + a[7] * b[9] + a[8] * b[8] + a[9] * b[7] + a[10] * b[6] + a[11] * b[5] + a[12] * b[4] + a[13] * b[3] + a[14] * b[2] + a[15] * b[1] + a[16] * b[0],
        a[0] * b[17] + a[1] * b[16] + a[2] * b[15] + a[3] * b[14] + a[4] * b[13] + a[5] * b[12] + a[6] * b[11] + a[7] * b[10] + a[8] * b[9] + a[9] * b[8] + a[10] * b[7] + a[11] * b[6] + a[12] * b[5] + a[13] * b[4] + a[14] * b[3] + a[15] * b[2] + a[16] * b[1] + a[17] * b[0],
        a[0] * b[18] + a[1] * b[17] + a[2] * b[16] + a[3] * b[15] + a[4] * b[14] + a[5] * b[13] + a[6] * b[12] + a[7] * b[11] + a[8] * b[10] + a[9] * b[9] + a[10] * b[8] + a[11] * b[7] + a[12] * b[6] + a[13] * b[5] + a[14] * b[4] + a[15] * b[3] + a[16] * b[2] + a[17] * b[1] + a[18] * b[0],
        a[0] * b[19] + a[1] * b[18] + a[2] * b[17] + a[3] * b[16] + a[4] * b[15] + a[5] * b[14] + a[6] * b[13] + a[7] * b[12] + a[8] * b[11] + a[9] * b[10] + a[10] * b[9] + a[11] * b[8] + a[12] * b[7] + a[13] * b[6] + a[14] * b[5] + a[15] * b[4] + a[16] * b[3] + a[17] * b[2] + a[18] * b[1] + a[19] * b[0],
        a[1] * b[19] + a[2] * b[18] + a[3] * b[17] + a[4] * b[16] + a[5] * b[15] + a[6] * b[14] + a[7] * b[13] + a[8] * b[12] + a[9] * b[11] + a[10] * b[10] + a[11] * b[9] + a[12] * b[8] + a[13] * b[7] + a[14] * b[6] + a[15] * b[5] + a[16] * b[4] + a[17] * b[3] + a[18] * b[2] + a[19] * b[1],
        a[2] * b[19] + a[3] * b[18] + a[4] * b[17] + a[5] * b[16] + a[6] * b[15] + a[7] * b[14] + a[8] * b[13] + a[9] * b[12] + a[10] * b[11] + a[11] * b[10] + a[12] * b[9] + a[13] * b[8] + a[14] * b[7] + a[15] * b[6] + a[16] * b[5] + a[17] * b[4] + a[18] * b[3] + a[19] * b[2],
        a[3] * b[19] + a[4] * b[18] + a[5] * b[17] + a[6] * b[16] + a[7] * b[15] + a[8] * b[14] + a[9] * b[13] + a[10] * b[12] + a[11] * b[11] + a[12] * b[10] + a[13] * b[9] + a[14] * b[8] + a[15] * b[7] + a[16] * b[6] + a[17] * b[5] + a[18] * b[4] + a[19] * b[3],
        a[4] * b[19] + a[5] * b[18] + a[6] * b[17] + a[7] * b[16] + a[8] * b[15] + a[9] * b[14] + a[10] * b[13] + a[11] * b[12] + a[12] * b[11] + a[13] * b[10] + a[14] * b[9] + a[15] * b[8] + a[16] * b[7] + a[17] * b[6] + a[18] * b[5] + a[19] * b[4],
        a[5] * b[19] + a[6] * b[18] + a[7] * b[17] + a[8] * b[16] + a[9] * b[15] + a[10] * b[14] + a[11] * b[13] + a[12] * b[12] + a[13] * b[11] + a[14] * b[10] + a[15] * b[9] + a[16] * b[8] + a[17] * b[7] + a[18] * b[6] + a[19] * b[5],
        a[6] * b[19] + a[7] * b[18] + a[8] * b[17] + a[9] * b[16] + a[10] * b[15] + a[11] * b[14] + a[12] * b[13] + a[13] * b[12] + a[14] * b[11] + a[15] * b[10] + a[16] * b[9] + a[17] * b[8] + a[18] * b[7] + a[19] * b[6],
        a[7] * b[19] + a[8] * b[18] + a[9] * b[17] + a[10] * b[16] + a[11] * b[15] + a[12] * b[14] + a[13] * b[13] + a[14] * b[12] + a[15] * b[11] + a[16] * b[10] + a[17] * b[9] + a[18] * b[8] + a[19] * b[7],
        a[8] * b[19] + a[9] * b[18] + a[10] * b[17] + a[11] * b[16] + a[12] * b[15] + a[13] * b[14] + a[14] * b[13] + a[15] * b[12] + a[16] * b[11] + a[17] * b[10] + a[18] * b[9] + a[19] * b[8],
        a[9] * b[19] + a[10] * b[18] + a[11] * b[17] + a[12] * b[16] + a[13] * b[15] + a[14] * b[14] + a[15] * b[13] + a[16] * b[12] + a[17] * b[11] + a[18] * b[10] + a[19] * b[9],
        a[10] * b[19] + a[11] * b[18] + a[12] * b[17] + a[13] * b[16] + a[14] * b[15] + a[15] * b[14] + a[16] * b[13] + a[17] * b[12] + a[18] * b[11] + a[19] * b[10],
        a[11] * b[19] + a[12] * b[18] + a[13] * b[17] + a[14] * b[16] + a[15] * b[15] + a[16] * b[14] + a[17] * b[13] + a[18] * b[12] + a[19] * b[11],
        a[12] * b[19] + a[13] * b[18] + a[14] * b[17] + a[15] * b[16] + a[16] * b[15] + a[17] * b[14] + a[18] * b[13] + a[19] * b[12],
        a[13] * b[19] + a[14] * b[18] + a[15] * b[17] + a[16] * b[16] + a[17] * b[15] + a[18] * b[14] + a[19] * b[13],
        a[14] * b[19] + a[15] * b[18] + a[16] * b[17] + a[17] * b[16] + a[18] * b[15] + a[19] * b[14],
        a[15] * b[19] + a[16] * b[18] + a[17] * b[17] + a[18] * b[16] + a[19] * b[15],
        a[16] * b[19] + a[17] * b[18] + a[18] * b[17] + a[19] * b[16],
        a[17] * b[19] + a[18] * b[18] + a[19] * b[17],
        a[18] * b[19] + a[19] * b[18],
        a[19] * b[19],
        0,
    ]
}

/// The columns of `a²`: each cross product once, doubled, plus the square on even columns.
#[rustfmt::skip]
#[cfg_attr(target_arch = "arm", allow(dead_code))]
#[inline(always)]
fn square_columns(a: &[u32; N]) -> [u32; 2 * N] {
    [
        a[0] * a[0],
        2 * a[0] * a[1],
        2 * a[0] * a[2] + a[1] * a[1],
        2 * (a[0] * a[3] + a[1] * a[2]),
        2 * (a[0] * a[4] + a[1] * a[3]) + a[2] * a[2],
        2 * (a[0] * a[5] + a[1] * a[4] + a[2] * a[3]),
        2 * (a[0] * a[6] + a[1] * a[5] + a[2] * a[4]) + a[3] * a[3],
        2 * (a[0] * a[7] + a[1] * a[6] + a[2] * a[5] + a[3] * a[4]),
        2 * (a[0] * a[8] + a[1] * a[7] + a[2] * a[6] + a[3] * a[5]) + a[4] * a[4],
        2 * (a[0] * a[9] + a[1] * a[8] + a[2] * a[7] + a[3] * a[6] + a[4] * a[5]),
        2 * (a[0] * a[10] + a[1] * a[9] + a[2] * a[8] + a[3] * a[7] + a[4] * a[6]) + a[5] * a[5],
        2 * (a[0] * a[11] + a[1] * a[10] + a[2] * a[9] + a[3] * a[8] + a[4] * a[7] + a[5] * a[6]),
        2 * (a[0] * a[12] + a[1] * a[11] + a[2] * a[10] + a[3] * a[9] + a[4] * a[8] + a[5] * a[7]) + a[6] * a[6],
        2 * (a[0] * a[13] + a[1] * a[12] + a[2] * a[11] + a[3] * a[10] + a[4] * a[9] + a[5] * a[8] + a[6] * a[7]),
        2 * (a[0] * a[14] + a[1] * a[13] + a[2] * a[12] + a[3] * a[11] + a[4] * a[10] + a[5] * a[9] + a[6] * a[8]) + a[7] * a[7],
        2 * (a[0] * a[15] + a[1] * a[14] + a[2] * a[13] + a[3] * a[12] + a[4] * a[11] + a[5] * a[10] + a[6] * a[9] + a[7] * a[8]),
        2 * (a[0] * a[16] + a[1] * a[15] + a[2] * a[14] + a[3] * a[13] + a[4] * a[12] + a[5] * a[11] + a[6] * a[10] + a[7] * a[9]) + a[8] * a[8],
        2 * (a[0] * a[17] + a[1] * a[16] + a[2] * a[15] + a[3] * a[14] + a[4] * a[13] + a[5] * a[12] + a[6] * a[11] + a[7] * a[10] + a[8] * a[9]),
        2 * (a[0] * a[18] + a[1] * a[17] + a[2] * a[16] + a[3] * a[15] + a[4] * a[14] + a[5] * a[13] + a[6] * a[12] + a[7] * a[11] + a[8] * a[10]) + a[9] * a[9],
        2 * (a[0] * a[19] + a[1] * a[18] + a[2] * a[17] + a[3] * a[16] + a[4] * a[15] + a[5] * a[14] + a[6] * a[13] + a[7] * a[12] + a[8] * a[11] + a[9] * a[10]),
        2 * (a[1] * a[19] + a[2] * a[18] + a[3] * a[17] + a[4] * a[16] + a[5] * a[15] + a[6] * a[14] + a[7] * a[13] + a[8] * a[12] + a[9] * a[11]) + a[10] * a[10],
        2 * (a[2] * a[19] + a[3] * a[18] + a[4] * a[17] + a[5] * a[16] + a[6] * a[15] + a[7] * a[14] + a[8] * a[13] + a[9] * a[12] + a[10] * a[11]),
        2 * (a[3] * a[19] + a[4] * a[18] + a[5] * a[17] + a[6] * a[16] + a[7] * a[15] + a[8] * a[14] + a[9] * a[13] + a[10] * a[12]) + a[11] * a[11],
        2 * (a[4] * a[19] + a[5] * a[18] + a[6] * a[17] + a[7] * a[16] + a[8] * a[15] + a[9] * a[14] + a[10] * a[13] + a[11] * a[12]),
        2 * (a[5] * a[19] + a[6] * a[18] + a[7] * a[17] + a[8] * a[16] + a[9] * a[15] + a[10] * a[14] + a[11] * a[13]) + a[12] * a[12],
        2 * (a[6] * a[19] + a[7] * a[18] + a[8] * a[17] + a[9] * a[16] + a[10] * a[15] + a[11] * a[14] + a[12] * a[13]),
        2 * (a[7] * a[19] + a[8] * a[18] + a[9] * a[17] + a[10] * a[16] + a[11] * a[15] + a[12] * a[14]) + a[13] * a[13],
        2 * (a[8] * a[19] + a[9] * a[18] + a[10] * a[17] + a[11] * a[16] + a[12] * a[15] + a[13] * a[14]),
        2 * (a[9] * a[19] + a[10] * a[18] + a[11] * a[17] + a[12] * a[16] + a[13] * a[15]) + a[14] * a[14],
        2 * (a[10] * a[19] + a[11] * a[18] + a[12] * a[17] + a[13] * a[16] + a[14] * a[15]),
        2 * (a[11] * a[19] + a[12] * a[18] + a[13] * a[17] + a[14] * a[16]) + a[15] * a[15],
        2 * (a[12] * a[19] + a[13] * a[18] + a[14] * a[17] + a[15] * a[16]),
        2 * (a[13] * a[19] + a[14] * a[18] + a[15] * a[17]) + a[16] * a[16],
        2 * (a[14] * a[19] + a[15] * a[18] + a[16] * a[17]),
        2 * (a[15] * a[19] + a[16] * a[18]) + a[17] * a[17],
        2 * (a[16] * a[19] + a[17] * a[18]),
        2 * a[17] * a[19] + a[18] * a[18],
        2 * a[18] * a[19],
        a[19] * a[19],
        0,
    ]
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

    /// In place, limb by limb under a mask: the generic swap goes through three selects and
    /// copies of the whole element, which cost the Cortex-M0 ladder about a tenth of its time.
    #[inline]
    fn conditional_swap(a: &mut Self, b: &mut Self, choice: Choice) {
        let mask = 0u32.wrapping_sub(choice.unwrap_u8() as u32);
        for (x, y) in a.0.iter_mut().zip(b.0.iter_mut()) {
            let t = mask & (*x ^ *y);
            *x ^= t;
            *y ^= t;
        }
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
        let (a, b) = (&self.0, &rhs.0);
        Self::carry(limbwise!(|i| a[i] + b[i]))
    }

    #[inline]
    fn sub(&self, rhs: &Self) -> Self {
        let (a, b) = (&self.0, &rhs.0);
        Self::carry(limbwise!(|i| a[i] + P64[i] - b[i]))
    }

    fn mul(&self, rhs: &Self) -> Self {
        Self::reduce_columns(mul_columns(&self.0, &rhs.0))
    }

    fn square(&self) -> Self {
        Self::reduce_columns(square_columns(&self.0))
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
