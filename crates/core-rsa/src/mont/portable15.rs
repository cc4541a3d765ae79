//! Montgomery multiplication on 15-bit digits held in `u16`, after BearSSL's `i15`: every
//! product of two digits fits in 30 bits, so the whole computation uses 32×32→32-bit
//! multiplies, which the Cortex-M0 does in one cycle (`muls`), and never the 32×32→64-bit
//! products it has to build from four 16-bit ones. Digits in `u16` halve the RAM a number
//! takes, which matters with 16 KiB. CIOS order as in `portable64`. The default on 32-bit
//! targets without `thumb1` (this product with its row loops in Thumb-1 assembly, through the
//! [`Rows`] trait); here every loop is Rust.
//!
//! The carries and borrows of `adc`/`sbb` go through a value barrier: without it LLVM rewrites
//! the borrow of `a − b − c` (`d >> 31`) as a comparison, and Thumb-1, which has no
//! conditional select, then branches on it (seen in `sub_borrow`, under every `reduce_once`).

use super::Engine;
use super::ops::{Word, reduce_once};
use core_asm::ct::value_barrier_u32;

const MASK: u32 = 0x7fff;

/// Digits in a buffer: twice the digits of a prime of half of [`crate::MAX_BITS`] (548 for 8192
/// bits), so that the two primes of a key share one `R` and their product fits.
const CAP15: usize = 2 * (crate::MAX_BITS / 2).div_ceil(15);

/// Digits in the exponentiation window table. Without a cap: 2 KiB, as RAM is scarce where
/// this engine is the default; two entries of the largest size fit, and 8 of a 1024-bit
/// prime. With a cap (a microcontroller build): 16 entries of a prime, the 4-bit window that
/// saves a quarter of the multiplications of a 3-bit one (2.2 KB for RSA-2048).
const TABLE15: usize = if crate::MAX_BITS < 8192 { 8 * CAP15 } else { 2 * CAP15 + 4 };

impl Word for u16 {
    const BITS: u32 = 15;
    const CAP: usize = CAP15;
    type Buf = [u16; CAP15];
    type Table = [u16; TABLE15];
    type Wide = [u16; 2 * CAP15];
    const ZERO: Self = 0;
    const ONE: Self = 1;

    #[inline]
    fn buf() -> Self::Buf {
        [0; CAP15]
    }
    fn table() -> Self::Table {
        [0; TABLE15]
    }
    #[inline]
    fn wide() -> Self::Wide {
        [0; 2 * CAP15]
    }
    #[inline(always)]
    fn from_u64(x: u64) -> Self {
        (x as u32 & MASK) as u16
    }
    #[inline(always)]
    fn to_u64(self) -> u64 {
        self as u64
    }
    #[inline(always)]
    fn adc(a: u16, b: u16, carry: u16) -> (u16, u16) {
        let s = value_barrier_u32(a as u32 + b as u32 + carry as u32);
        ((s & MASK) as u16, (s >> 15) as u16)
    }
    #[inline(always)]
    fn sbb(a: u16, b: u16, borrow: u16) -> (u16, u16) {
        let d = value_barrier_u32((a as u32).wrapping_sub(b as u32).wrapping_sub(borrow as u32));
        ((d & MASK) as u16, (d >> 31) as u16)
    }
    #[inline(always)]
    fn mac(a: u16, b: u16, c: u16, d: u16) -> (u16, u16) {
        let p = a as u32 * b as u32 + c as u32 + d as u32;
        ((p & MASK) as u16, (p >> 15) as u16)
    }
}

/// The portable 15-bit engine (not built on 32-bit Arm with `asm`, where `Thumb1` takes its
/// place).
#[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Portable15;

/// The row loops of the 15-bit products, which carry nearly all their time: an engine on 15-bit
/// digits is its rows ([`Portable15`] in Rust; `Thumb1` in assembly), the rest is shared.
pub(super) trait Rows: Copy {
    /// One row of the products: for `j` in `from..to`, `p = r[j] + x[j]·xi + n[j]·m + c`,
    /// `r[j−1] = p mod 2^15`, `c = p >> 15`; returns the last carry. Needs `1 ≤ from ≤ to` and
    /// `to` at most each length. Every sum stays below `2^32` for `xi < 2^16`, `m < 2^15` and
    /// `c < 2^17`. The rows take whole numbers and a range, not subslices: at opt-level z
    /// each subslice is an out-of-line call, which cost a tenth of the time of a
    /// multiplication.
    #[allow(clippy::too_many_arguments)]
    fn mac_row(
        r: &mut [u16],
        x: &[u16],
        n: &[u16],
        from: usize,
        to: usize,
        xi: u32,
        m: u32,
        c: u32,
    ) -> u32;

    /// A row of the reduction alone: [`Rows::mac_row`] without the `x` term.
    fn red_row(r: &mut [u16], n: &[u16], from: usize, to: usize, m: u32, c: u32) -> u32;
}

#[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
impl Rows for Portable15 {
    #[inline(always)]
    fn mac_row(
        r: &mut [u16],
        x: &[u16],
        n: &[u16],
        from: usize,
        to: usize,
        xi: u32,
        m: u32,
        c: u32,
    ) -> u32 {
        mac_row_rust(r, x, n, from, to, xi, m, c)
    }

    #[inline(always)]
    fn red_row(r: &mut [u16], n: &[u16], from: usize, to: usize, m: u32, c: u32) -> u32 {
        red_row_rust(r, n, from, to, m, c)
    }
}

/// Every [`Rows`] is an engine: [`mont_mul`] and [`mont_sqr`] around its row loops.
impl<R: Rows> Engine for R {
    type W = u16;

    #[inline(always)]
    fn mul(self, r: &mut [u16], a: &[u16], b: &[u16], n: &[u16], n0: u16) {
        mont_mul::<R>(r, a, b, n, n0, true);
    }

    #[inline(always)]
    fn sqr(self, r: &mut [u16], a: &[u16], n: &[u16], n0: u16, scratch: &mut [u16]) {
        let _ = scratch;
        mont_sqr::<R>(r, a, n, n0, true);
    }

    #[inline(always)]
    fn mul_lazy(self, r: &mut [u16], a: &[u16], b: &[u16], n: &[u16], n0: u16, lazy: bool) {
        mont_mul::<R>(r, a, b, n, n0, !lazy);
    }

    #[inline(always)]
    fn sqr_lazy(self, r: &mut [u16], a: &[u16], n: &[u16], n0: u16, _: &mut [u16], lazy: bool) {
        mont_sqr::<R>(r, a, n, n0, !lazy);
    }
}

/// `r = a·b·2^(-15·len) mod n` for `a < 2^(15·len)` and `b < n`; `r` must not alias. Without
/// `reduce`, for `a, b < 2n` and `4n ≤ 2^(15·len)`, `r` is only below `2n`: the final
/// conditional subtraction, two passes over the digits, is left out (see [`Engine::mul_lazy`]).
///
/// One pass per digit of `b` (FIOS): each step adds `a[j]·b_i` and `m·n[j]` to `r[j]` at
/// once, which stays below `2^15 + 2·(2^15 − 1)^2 + 2^17 < 2^32`, so one carry chain serves
/// both products and each digit of `r` is loaded and stored once per row instead of twice.
fn mont_mul<R: Rows>(r: &mut [u16], a: &[u16], b: &[u16], n: &[u16], n0: u16, reduce: bool) {
    let l = n.len();
    let (r, a, b) = (&mut r[..l], &a[..l], &b[..l]);
    // Never taken (the slices above are exactly `l` long), but restated so the compiler drops
    // the bounds checks: at opt-level z the slicing is an out-of-line call whose returned
    // lengths it cannot see.
    if r.len() != l || a.len() != l || l == 0 {
        return;
    }
    r.fill(0);
    let n0 = n0 as u32;
    let mut top = 0u32;
    for &bi in b {
        let bi = bi as u32;
        let t0 = r[0] as u32 + a[0] as u32 * bi;
        let m = (t0.wrapping_mul(n0)) & MASK;
        let c = (t0 + m * n[0] as u32) >> 15;
        let c = R::mac_row(r, a, n, 1, l, bi, m, c);
        let s = top + c;
        r[l - 1] = (s & MASK) as u16;
        top = s >> 15;
    }
    finish(r, top, n, reduce);
}

/// The end of a product: `r + top·2^(15·len)` brought below `n` if `reduce`; else it is below
/// `2n < 2^(15·len)` already, and `top` is 0.
#[inline(always)]
fn finish(r: &mut [u16], top: u32, n: &[u16], reduce: bool) {
    if reduce {
        reduce_once(r, top as u16, n);
    } else {
        debug_assert_eq!(top, 0, "a lazy product out of range");
    }
}

/// `r = a²·2^(-15·len) mod n` for `a < n`; `r` must not alias `a`. Without `reduce`, as
/// [`mont_mul`]'s: `a < 2n` and `r < 2n`.
///
/// [`mont_mul`] with `b = a`, but row `i` multiplies `a_i` by `v_i = (0, …, 0, a_i, 2a_{i+1},
/// …, 2a_{len−1})` instead of by `a`: the rows still sum to `a²` (each cross product
/// `a_i·a_j`, `i < j`, once and doubled, plus the squares), and the digits below the diagonal
/// only carry the reduction's `m·n_j`, so the square takes about three quarters of the
/// multiplications of a product and no scratch space. With `2a_j < 2^16` a step stays below
/// `2^15 + 2·(2^15 − 1)^2 + (2^15 − 1)^2 + 2^17 < 2^32`, so one carry chain still serves
/// both products. Which digits take which step depends on the length only, never on values.
fn mont_sqr<R: Rows>(r: &mut [u16], a: &[u16], n: &[u16], n0: u16, reduce: bool) {
    let l = n.len();
    let (r, a) = (&mut r[..l], &a[..l]);
    // As in `mont_mul`: never taken, restated so the loops lose their bounds checks.
    if r.len() != l || a.len() != l || l == 0 {
        return;
    }
    r.fill(0);
    let n0 = n0 as u32;
    let mut top = 0u32;
    for i in 0..l {
        let ai = a[i] as u32;
        let sq = ai * ai;
        // Digit 0 takes the square only in row 0 (the diagonal digit is `i`).
        let t0 = r[0] as u32 + if i == 0 { sq } else { 0 };
        let m = (t0.wrapping_mul(n0)) & MASK;
        let mut c = (t0 + m * n[0] as u32) >> 15;
        if i > 0 {
            // Below the diagonal: the reduction only.
            c = R::red_row(r, n, 1, i, m, c);
            // The diagonal (row 0 did it with digit 0).
            let p = r[i] as u32 + sq + m * n[i] as u32 + c;
            r[i - 1] = (p & MASK) as u16;
            c = p >> 15;
        }
        // Above it: the doubled cross products and the reduction.
        c = R::mac_row(r, a, n, i + 1, l, ai << 1, m, c);
        let s = top + c;
        r[l - 1] = (s & MASK) as u16;
        top = s >> 15;
    }
    finish(r, top, n, reduce);
}

/// [`Rows::mac_row`] in Rust (also the first `(to − from) mod 4` digits of `Thumb1`'s).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn mac_row_rust(
    r: &mut [u16],
    x: &[u16],
    n: &[u16],
    from: usize,
    to: usize,
    xi: u32,
    m: u32,
    mut c: u32,
) -> u32 {
    for j in from..to {
        let p = r[j] as u32 + x[j] as u32 * xi + m * n[j] as u32 + c;
        r[j - 1] = (p & MASK) as u16;
        c = p >> 15;
    }
    c
}

/// [`Rows::red_row`] in Rust (likewise).
#[inline(always)]
pub(super) fn red_row_rust(
    r: &mut [u16],
    n: &[u16],
    from: usize,
    to: usize,
    m: u32,
    mut c: u32,
) -> u32 {
    for j in from..to {
        let p = r[j] as u32 + m * n[j] as u32 + c;
        r[j - 1] = (p & MASK) as u16;
        c = p >> 15;
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::vec::Vec;

    /// Digit counts: 1 and 2 (the diagonal at both ends), odd and even, and 2048-bit RSA's
    /// 1024-bit primes (69 digits) and its modulus (137).
    const LENS: [usize; 10] = [1, 2, 3, 4, 5, 8, 17, 18, 69, 137];

    fn check(n: &[u16], a: &[u16]) {
        let l = n.len();
        let n0 = u16::neg_inv(n[0]);
        let (mut r1, mut r2) = (std::vec![0u16; l], std::vec![0u16; l]);
        mont_sqr::<Portable15>(&mut r1, a, n, n0, true);
        mont_mul::<Portable15>(&mut r2, a, a, n, n0, true);
        assert_eq!(r1, r2, "{l} digits: n = {n:?}, a = {a:?}");
    }

    /// Edge values: `n` all ones (every carry fires), `n` with only its ends set, and `a` at
    /// 0, 1, `n − 1` and `n − 2`.
    #[test]
    fn sqr_matches_mul_on_edges() {
        for l in LENS {
            let ones = std::vec![MASK as u16; l];
            let mut sparse = std::vec![0u16; l];
            sparse[0] = 1;
            sparse[l - 1] |= 0x4000;
            for n in [ones, sparse] {
                let mut zero = std::vec![0u16; l];
                check(&n, &zero);
                zero[0] = 1;
                check(&n, &zero);
                let mut a = n.clone();
                a[0] -= 1;
                check(&n, &a);
                if a[0] > 0 {
                    a[0] -= 1;
                    check(&n, &a);
                }
            }
        }
    }

    /// Random odd moduli with the top digit nonzero and random `a < n`.
    fn case() -> impl Strategy<Value = (Vec<u16>, Vec<u16>)> {
        proptest::sample::select(LENS.to_vec()).prop_flat_map(|l| {
            (
                proptest::collection::vec(0u16..=MASK as u16, l),
                proptest::collection::vec(0u16..=MASK as u16, l),
            )
                .prop_map(|(mut n, mut a)| {
                    let l = n.len();
                    n[0] |= 1;
                    n[l - 1] |= 1 << 14;
                    // a < n: keep a's top digit below n's.
                    a[l - 1] %= n[l - 1];
                    (n, a)
                })
        })
    }

    /// Moduli with two spare bits (`4n ≤ R`) and `a, b < 2n`.
    fn lazy_case() -> impl Strategy<Value = (Vec<u16>, Vec<u16>, Vec<u16>)> {
        proptest::sample::select(LENS.to_vec()).prop_flat_map(|l| {
            let digits = || proptest::collection::vec(0u16..=MASK as u16, l);
            (digits(), digits(), digits(), any::<bool>()).prop_map(|(mut n, mut a, mut b, full)| {
                let l = n.len();
                n[0] |= 1;
                // The top digit at most 2^13 − 1, or all ones below it at the edge.
                n[l - 1] = if full { 0x1fff } else { (n[l - 1] >> 2) | 1 };
                // a, b < 2n: top digits at most twice n's minus one.
                let cap = 2 * n[l - 1] as u32 - 1;
                a[l - 1] = (a[l - 1] as u32 % cap) as u16;
                b[l - 1] = (b[l - 1] as u32 % cap) as u16;
                (n, a, b)
            })
        })
    }

    proptest! {
        #[test]
        fn sqr_matches_mul((n, a) in case()) {
            check(&n, &a);
        }

        /// Lazy products and squares stay below 2n (their `top` is 0, checked by a debug
        /// assertion) and reduce to the full ones.
        #[test]
        fn lazy_matches_full((n, a, b) in lazy_case()) {
            let l = n.len();
            let n0 = u16::neg_inv(n[0]);
            let (mut br, mut ar) = (b.clone(), a.clone());
            reduce_once(&mut br, 0, &n);
            reduce_once(&mut ar, 0, &n);
            let (mut lazy, mut full) = (std::vec![0u16; l], std::vec![0u16; l]);
            mont_mul::<Portable15>(&mut lazy, &a, &b, &n, n0, false);
            mont_mul::<Portable15>(&mut full, &a, &br, &n, n0, true);
            let mut twice = n.clone();
            super::super::ops::add(&mut twice, &n);
            prop_assert!(super::super::ops::lt_vartime(&lazy, &twice));
            reduce_once(&mut lazy, 0, &n);
            prop_assert_eq!(&lazy, &full);
            mont_sqr::<Portable15>(&mut lazy, &a, &n, n0, false);
            mont_mul::<Portable15>(&mut full, &a, &ar, &n, n0, true);
            prop_assert!(super::super::ops::lt_vartime(&lazy, &twice));
            reduce_once(&mut lazy, 0, &n);
            prop_assert_eq!(&lazy, &full);
        }
    }
}
