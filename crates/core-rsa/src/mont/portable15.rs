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
