//! Montgomery multiplication on 15-bit digits held in `u16`, after BearSSL's `i15`: every
//! product of two digits fits in 30 bits, so the whole computation uses 32×32→32-bit
//! multiplies, which the Cortex-M0 does in one cycle (`muls`), and never the 32×32→64-bit
//! products it has to build from four 16-bit ones. Digits in `u16` halve the RAM a number
//! takes, which matters with 16 KiB. CIOS order as in `portable64`. The default on 32-bit
//! targets.

use super::Engine;
use super::ops::{Word, reduce_once};

const MASK: u32 = 0x7fff;

/// Digits in a buffer: 547 cover 8192 bits, and an even count lets a number of twice a
/// prime's digits fit.
const CAP15: usize = 548;

/// Digits in the exponentiation window table: 2 KiB, as RAM is scarce where this engine is
/// the default; two entries of the largest size fit, and 16 of a 1024-bit prime.
const TABLE15: usize = 2 * CAP15 + 4;

impl Word for u16 {
    const BITS: u32 = 15;
    const CAP: usize = CAP15;
    const TABLE: usize = TABLE15;
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
        let s = a as u32 + b as u32 + carry as u32;
        ((s & MASK) as u16, (s >> 15) as u16)
    }
    #[inline(always)]
    fn sbb(a: u16, b: u16, borrow: u16) -> (u16, u16) {
        let d = (a as u32).wrapping_sub(b as u32).wrapping_sub(borrow as u32);
        ((d & MASK) as u16, (d >> 31) as u16)
    }
    #[inline(always)]
    fn mac(a: u16, b: u16, c: u16, d: u16) -> (u16, u16) {
        let p = a as u32 * b as u32 + c as u32 + d as u32;
        ((p & MASK) as u16, (p >> 15) as u16)
    }
}

/// The portable 15-bit engine.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Portable15;

impl Engine for Portable15 {
    type W = u16;

    #[inline]
    fn mul(self, r: &mut [u16], a: &[u16], b: &[u16], n: &[u16], n0: u16) {
        mont_mul(r, a, b, n, n0);
    }

    #[inline]
    fn sqr(self, r: &mut [u16], a: &[u16], n: &[u16], n0: u16, scratch: &mut [u16]) {
        let _ = scratch;
        mont_sqr(r, a, n, n0);
    }
}

/// `r = a·b·2^(-15·len) mod n` for `a < 2^(15·len)` and `b < n`; `r` must not alias.
///
/// One pass per digit of `b` (FIOS): each step adds `a[j]·b_i` and `m·n[j]` to `r[j]` at
/// once, which stays below `2^15 + 2·(2^15 − 1)^2 + 2^17 < 2^32`, so one carry chain serves
/// both products and each digit of `r` is loaded and stored once per row instead of twice.
fn mont_mul(r: &mut [u16], a: &[u16], b: &[u16], n: &[u16], n0: u16) {
    let l = n.len();
    let (r, a, b) = (&mut r[..l], &a[..l], &b[..l]);
    // Never taken (the slices above are exactly `l` long), but restated so the compiler drops
    // the inner loop's bounds checks: at opt-level z the slicing is an out-of-line call whose
    // returned lengths it cannot see.
    if r.len() != l || a.len() != l {
        return;
    }
    r.fill(0);
    let n0 = n0 as u32;
    let mut top = 0u32;
    for &bi in b {
        let bi = bi as u32;
        let t0 = r[0] as u32 + a[0] as u32 * bi;
        let m = (t0.wrapping_mul(n0)) & MASK;
        let mut c = (t0 + m * n[0] as u32) >> 15;
        for j in 1..l {
            let p = r[j] as u32 + a[j] as u32 * bi + m * n[j] as u32 + c;
            r[j - 1] = (p & MASK) as u16;
            c = p >> 15;
        }
        let s = top + c;
        r[l - 1] = (s & MASK) as u16;
        top = s >> 15;
    }
    reduce_once(r, top as u16, n);
}

/// `r = a²·2^(-15·len) mod n` for `a < n`; `r` must not alias `a`.
///
/// [`mont_mul`] with `b = a`, but row `i` multiplies `a_i` by `v_i = (0, …, 0, a_i, 2a_{i+1},
/// …, 2a_{len−1})` instead of by `a`: the rows still sum to `a²` (each cross product
/// `a_i·a_j`, `i < j`, once and doubled, plus the squares), and the digits below the diagonal
/// only carry the reduction's `m·n_j`, so the square takes about three quarters of the
/// multiplications of a product and no scratch space. With `2a_j < 2^16` a step stays below
/// `2^15 + 2·(2^15 − 1)^2 + (2^15 − 1)^2 + 2^17 < 2^32`, so one carry chain still serves
/// both products. Which digits take which step depends on the length only, never on values.
fn mont_sqr(r: &mut [u16], a: &[u16], n: &[u16], n0: u16) {
    let l = n.len();
    let (r, a) = (&mut r[..l], &a[..l]);
    // As in `mont_mul`: never taken, restated so the inner loops lose their bounds checks.
    if r.len() != l || a.len() != l {
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
        // Below the diagonal: the reduction only.
        for j in 1..i {
            let p = r[j] as u32 + m * n[j] as u32 + c;
            r[j - 1] = (p & MASK) as u16;
            c = p >> 15;
        }
        // The diagonal (row 0 did it with digit 0).
        if i > 0 {
            let p = r[i] as u32 + sq + m * n[i] as u32 + c;
            r[i - 1] = (p & MASK) as u16;
            c = p >> 15;
        }
        // Above it: the doubled cross products and the reduction.
        let ai2 = ai << 1;
        for j in i + 1..l {
            let p = r[j] as u32 + ai2 * a[j] as u32 + m * n[j] as u32 + c;
            r[j - 1] = (p & MASK) as u16;
            c = p >> 15;
        }
        let s = top + c;
        r[l - 1] = (s & MASK) as u16;
        top = s >> 15;
    }
    reduce_once(r, top as u16, n);
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
        mont_sqr(&mut r1, a, n, n0);
        mont_mul(&mut r2, a, a, n, n0);
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

    proptest! {
        #[test]
        fn sqr_matches_mul((n, a) in case()) {
            check(&n, &a);
        }
    }
}
