//! Montgomery multiplication on 64-bit limbs with 64×64→128-bit products (`u128`), in the
//! coarsely integrated operand scanning (CIOS) order of Koç, Acar and Kaliski: each row adds
//! `a·b[i]` and then `m·n` (with `m` chosen to clear the low limb) and shifts by one limb, so
//! the accumulator never exceeds `len + 2` limbs. The default on 64-bit targets; squaring
//! computes the cross products once and reduces afterwards.

use super::Engine;
use super::ops::{Word, reduce_once};

impl Word for u64 {
    const BITS: u32 = 64;
    const CAP: usize = crate::MAX_BITS / 64;
    type Buf = [u64; crate::MAX_BITS / 64];
    type Table = [u64; 16 * crate::MAX_BITS / 64];
    type Wide = [u64; 2 * crate::MAX_BITS / 64];
    const ZERO: Self = 0;
    const ONE: Self = 1;

    #[inline]
    fn buf() -> Self::Buf {
        [0; crate::MAX_BITS / 64]
    }
    fn table() -> Self::Table {
        [0; 16 * crate::MAX_BITS / 64]
    }
    #[inline]
    fn wide() -> Self::Wide {
        [0; 2 * crate::MAX_BITS / 64]
    }
    #[inline(always)]
    fn from_u64(x: u64) -> Self {
        x
    }
    #[inline(always)]
    fn to_u64(self) -> u64 {
        self
    }
    #[inline(always)]
    fn adc(a: u64, b: u64, carry: u64) -> (u64, u64) {
        let s = a as u128 + b as u128 + carry as u128;
        (s as u64, (s >> 64) as u64)
    }
    #[inline(always)]
    fn sbb(a: u64, b: u64, borrow: u64) -> (u64, u64) {
        let d = (a as u128).wrapping_sub(b as u128).wrapping_sub(borrow as u128);
        (d as u64, ((d >> 64) as u64) & 1)
    }
    #[inline(always)]
    fn mac(a: u64, b: u64, c: u64, d: u64) -> (u64, u64) {
        let p = a as u128 * b as u128 + c as u128 + d as u128;
        (p as u64, (p >> 64) as u64)
    }
}

/// The portable 64-bit engine.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Portable64;

impl Engine for Portable64 {
    type W = u64;
    const SQR_SCRATCH: bool = true;

    #[inline]
    fn mul(self, r: &mut [u64], a: &[u64], b: &[u64], n: &[u64], n0: u64) {
        mont_mul(r, a, b, n, n0);
    }

    #[inline]
    fn sqr(self, r: &mut [u64], a: &[u64], n: &[u64], n0: u64, scratch: &mut [u64]) {
        mont_sqr(r, a, n, n0, scratch);
    }
}

/// `r = a·b·2^(-64·len) mod n` for `a < 2^(64·len)` and `b < n`; `r` must not alias.
pub(crate) fn mont_mul(r: &mut [u64], a: &[u64], b: &[u64], n: &[u64], n0: u64) {
    let l = n.len();
    let (r, a, b) = (&mut r[..l], &a[..l], &b[..l]);
    r.fill(0);
    let mut top = 0u64;
    for &bi in b {
        // r += a·bi
        let mut c = 0u64;
        for (rj, &aj) in r.iter_mut().zip(a) {
            let p = aj as u128 * bi as u128 + *rj as u128 + c as u128;
            *rj = p as u64;
            c = (p >> 64) as u64;
        }
        let s = top as u128 + c as u128;
        let (t0, t1) = (s as u64, (s >> 64) as u64);
        // r = (r + m·n) / 2^64
        let m = r[0].wrapping_mul(n0);
        let p = m as u128 * n[0] as u128 + r[0] as u128;
        let mut c = (p >> 64) as u64;
        for j in 1..l {
            let p = m as u128 * n[j] as u128 + r[j] as u128 + c as u128;
            r[j - 1] = p as u64;
            c = (p >> 64) as u64;
        }
        let s = t0 as u128 + c as u128;
        r[l - 1] = s as u64;
        top = t1 + (s >> 64) as u64;
    }
    reduce_once(r, top, n);
}

/// `r = a²·2^(-64·len) mod n` for `a < n`: the square's cross products once, doubled, plus
/// the diagonal, then a separate Montgomery reduction. `scratch` holds `2·len` limbs.
pub(crate) fn mont_sqr(r: &mut [u64], a: &[u64], n: &[u64], n0: u64, scratch: &mut [u64]) {
    let l = n.len();
    let t = &mut scratch[..2 * l];
    let a = &a[..l];
    t.fill(0);
    // Cross products a[i]·a[j], i < j.
    for i in 0..l {
        let ai = a[i];
        let mut c = 0u64;
        for j in i + 1..l {
            let p = ai as u128 * a[j] as u128 + t[i + j] as u128 + c as u128;
            t[i + j] = p as u64;
            c = (p >> 64) as u64;
        }
        t[i + l] = c;
    }
    // Double them (the top bit is clear: the cross products are below a²/2) and add the
    // squares.
    let mut c = 0u64;
    for x in t.iter_mut() {
        let v = *x;
        *x = (v << 1) | c;
        c = v >> 63;
    }
    let mut c = 0u64;
    for (i, &ai) in a.iter().enumerate() {
        let sq = ai as u128 * ai as u128;
        let s = t[2 * i] as u128 + (sq as u64) as u128 + c as u128;
        t[2 * i] = s as u64;
        let s2 = t[2 * i + 1] as u128 + (sq >> 64) + (s >> 64);
        t[2 * i + 1] = s2 as u64;
        c = (s2 >> 64) as u64;
    }
    redc(r, t, n, n0, c);
}

/// Montgomery reduction of the `2·len`-limb `t < n·2^(64·len)` (plus `extra·2^(128·len)`,
/// always 0 for a square of a value below `n`): `r = t·2^(-64·len) mod n`.
fn redc(r: &mut [u64], t: &mut [u64], n: &[u64], n0: u64, extra: u64) {
    let l = n.len();
    let mut hi_carry = 0u64;
    for i in 0..l {
        let m = t[i].wrapping_mul(n0);
        let mut c = 0u64;
        for j in 0..l {
            let p = m as u128 * n[j] as u128 + t[i + j] as u128 + c as u128;
            t[i + j] = p as u64;
            c = (p >> 64) as u64;
        }
        let s = t[i + l] as u128 + c as u128 + hi_carry as u128;
        t[i + l] = s as u64;
        hi_carry = (s >> 64) as u64;
    }
    r[..l].copy_from_slice(&t[l..2 * l]);
    reduce_once(&mut r[..l], hi_carry + extra, n);
}
