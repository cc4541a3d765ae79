//! GF(p) for P-256's prime `p = 2^256 − 2^224 + 2^192 + 2^96 − 1` in Montgomery form on four
//! 64-bit limbs (the same representation as [`Mont64`], so the two share the
//! comb table and the conversions), with the reduction specialised to the shape of `p`:
//! `−p⁻¹ ≡ 1 (mod 2^64)`, so each Montgomery step's multiplier is the low limb itself, and
//! with `p`'s limbs `2^64 − 1`, `2^32 − 1`, `0`, `2^64 − 2^32 + 1` adding `q·p` is a shift
//! into limbs 1 and 2 and one product into limbs 3 and 4. The product is taken whole first
//! (16 limb products, 10 for a square), then reduced; inversion is constant-time
//! [`safegcd`](super::safegcd), several times faster than the 255 squarings of a Fermat
//! power. Constant-time: no branches on values, the final subtraction is a mask.

use super::safegcd::Modulus;
use super::{Field, Mont64};
use subtle::Choice;

/// P-256's prime, little-endian limbs.
const P: [u64; 4] = [u64::MAX, 0x0000_0000_ffff_ffff, 0, 0xffff_ffff_0000_0001];

/// The generic constants for `p` (`R mod p`, `R² mod p`, the byte form), whose conversions and
/// final subtraction this field reuses.
pub(crate) const MONT: Mont64<4> = Mont64::new(&crate::p256::P_BYTES);

/// `a + b + carry` as (sum, carry out).
#[inline(always)]
fn adc(a: u64, b: u64, carry: u64) -> (u64, u64) {
    let t = u128::from(a) + u128::from(b) + u128::from(carry);
    (t as u64, (t >> 64) as u64)
}

/// `a·b + c + d` as (low, high): never overflows 128 bits.
#[inline(always)]
fn mac(a: u64, b: u64, c: u64, d: u64) -> (u64, u64) {
    let t = u128::from(a) * u128::from(b) + u128::from(c) + u128::from(d);
    (t as u64, (t >> 64) as u64)
}

/// One Montgomery step on the window `w` (value below 2^256): `(w + q·p) / 2^64` with
/// `q = w[0]`, which is below 2^256 again. `q·p0 + w0 = q·2^64`, so limb 0 vanishes and `q`
/// carries; with it `q·p1 + q = q·2^32`, split over limbs 1 and 2; `p2 = 0`; `q·p3` lands on
/// limbs 3 and 4, and limb 4 cannot overflow as `q·p3 < 2^64·(2^64 − 2^32 + 1)`.
#[inline(always)]
fn step(w: [u64; 4]) -> [u64; 4] {
    let q = w[0];
    let (r0, c) = adc(w[1], q << 32, 0);
    let (r1, c) = adc(w[2], q >> 32, c);
    let (lo, hi) = mac(q, P[3], w[3], c);
    [r0, r1, lo, hi]
}

/// `t·R⁻¹ mod p` for a 512-bit `t = hi·2^256 + lo` below `p·R`: four steps on the low half
/// give `(lo + Q·p)/R < p + 1`, and `hi < p`, so their sum is below `2p` and one masked
/// subtraction finishes.
#[inline(always)]
fn redc(lo: [u64; 4], hi: [u64; 4]) -> [u64; 4] {
    let r = step(step(step(step(lo))));
    let mut s = [0u64; 4];
    let mut c = 0;
    for i in 0..4 {
        (s[i], c) = adc(r[i], hi[i], c);
    }
    MONT.reduce_once(s, c)
}

/// `a·b·R⁻¹ mod p` for `a, b < p`: schoolbook product, then [`redc`].
#[inline(always)]
pub(crate) fn mul(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let mut t = [0u64; 8];
    for i in 0..4 {
        let mut c = 0;
        for j in 0..4 {
            (t[i + j], c) = mac(a[i], b[j], t[i + j], c);
        }
        t[i + 4] = c;
    }
    redc([t[0], t[1], t[2], t[3]], [t[4], t[5], t[6], t[7]])
}

/// `a²·R⁻¹ mod p`: the six cross products once, doubled, plus the four squares.
#[inline(always)]
pub(crate) fn sqr(a: &[u64; 4]) -> [u64; 4] {
    let mut t = [0u64; 8];
    // Cross products a_i·a_j, i < j, at limb i + j.
    for i in 0..3 {
        let mut c = 0;
        for j in i + 1..4 {
            (t[i + j], c) = mac(a[i], a[j], t[i + j], c);
        }
        t[i + 4] = c;
    }
    // Double: shift the whole of t left by one bit.
    let mut top = 0;
    for limb in &mut t {
        let next = *limb >> 63;
        *limb = (*limb << 1) | top;
        top = next;
    }
    // Add the squares a_i² at limb 2i.
    let mut c = 0;
    for i in 0..4 {
        let (lo, hi) = mac(a[i], a[i], 0, 0);
        (t[2 * i], c) = adc(t[2 * i], lo, c);
        (t[2 * i + 1], c) = adc(t[2 * i + 1], hi, c);
    }
    redc([t[0], t[1], t[2], t[3]], [t[4], t[5], t[6], t[7]])
}

/// `p` for [`safegcd`](super::safegcd), which inverts in this representation.
pub(crate) const SAFEGCD: Modulus<5> = Modulus::new(MONT.limbs_le());

/// The P-256 field with the specialised reduction, portable Rust.
#[derive(Debug)]
pub(crate) struct P256Mont64;

impl Field for P256Mont64 {
    type E = [u64; 4];

    fn modulus(&self) -> &'static [u8] {
        &crate::p256::P_BYTES
    }

    #[inline]
    fn zero(&self) -> [u64; 4] {
        [0; 4]
    }

    #[inline]
    fn one(&self) -> [u64; 4] {
        MONT.one()
    }

    #[inline]
    fn add(&self, a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
        MONT.add(a, b)
    }

    #[inline]
    fn sub(&self, a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
        MONT.sub(a, b)
    }

    #[inline]
    fn halve(&self, a: &[u64; 4]) -> [u64; 4] {
        MONT.halve(a)
    }

    #[inline]
    fn mul(&self, a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
        mul(a, b)
    }

    #[inline]
    fn sqr(&self, a: &[u64; 4]) -> [u64; 4] {
        sqr(a)
    }

    #[inline]
    fn select(a: &[u64; 4], b: &[u64; 4], choice: Choice) -> [u64; 4] {
        Mont64::<4>::select(a, b, choice)
    }

    fn is_zero(a: &[u64; 4]) -> Choice {
        Mont64::<4>::is_zero(a)
    }

    fn import_be(&self, bytes: &[u8]) -> ([u64; 4], Choice) {
        MONT.import_be(bytes)
    }

    fn import_be_reduce(&self, bytes: &[u8]) -> [u64; 4] {
        MONT.import_be_reduce(bytes)
    }

    fn to_be(&self, a: &[u64; 4], out: &mut [u8]) {
        MONT.to_be(a, out);
    }

    fn comb(&self) -> &'static [[[u64; 4]; 2]] {
        &crate::p256::COMB64
    }

    fn odd_g(&self) -> &'static [[[u64; 4]; 2]] {
        &crate::p256::ODDG64
    }

    fn invert(&self, a: &[u64; 4]) -> [u64; 4] {
        MONT.invert_safegcd(&SAFEGCD, a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::boxed::Box;
    use std::vec::Vec;

    /// One implementation under test: two big-endian inputs to the big-endian results of
    /// `a + b`, `a − b`, `a·b`, `a²`, `a⁻¹`, `−a`, `a/2` (checked to double back to `a`).
    type Ops = Box<dyn Fn(&[u8; 32], &[u8; 32]) -> Vec<[u8; 32]>>;

    /// Every P-256 field implementation this CPU runs.
    fn impls() -> Vec<(&'static str, Ops)> {
        fn run<F: Field>(f: &F, a: &[u8; 32], b: &[u8; 32]) -> Vec<[u8; 32]> {
            let (x, okx) = f.import_be(a);
            let (y, oky) = f.import_be(b);
            assert!(bool::from(okx & oky), "inputs below p");
            let half = f.halve(&x);
            assert!(bool::from(f.eq(&f.add(&half, &half), &x)), "a/2 + a/2 = a");
            [f.add(&x, &y), f.sub(&x, &y), f.mul(&x, &y), f.sqr(&x), f.invert(&x), f.neg(&x), half]
                .iter()
                .map(|v| {
                    let mut out = [0u8; 32];
                    f.to_be(v, &mut out);
                    out
                })
                .collect()
        }
        #[cfg_attr(not(all(target_arch = "x86_64", feature = "asm")), allow(unused_mut))]
        let mut out: Vec<(&'static str, Ops)> = std::vec![
            ("p256_mont64", Box::new(|a, b| run(&P256Mont64, a, b))),
            ("mont64", Box::new(|a, b| run(&crate::p256::FP64, a, b))),
            ("mont15", Box::new(|a, b| run(&crate::p256::FP15, a, b))),
        ];
        #[cfg(all(target_arch = "x86_64", feature = "asm"))]
        match core_cpu::Adx::get() {
            Some(t) => out.push((
                "x86_adx",
                Box::new(move |a, b| run(&super::super::p256_x86_adx::P256X86Adx(t), a, b)),
            )),
            None => std::eprintln!("x86_adx not available here, not checked"),
        }
        out
    }

    /// Big-endian values at the edges: 0, 1, 2, p − 1, p − 2, (p − 1)/2, and values with
    /// all-ones or all-zero limbs just below p and near 2^256 (below p, since inputs must be).
    fn edges() -> Vec<[u8; 32]> {
        let p = crate::p256::P_BYTES;
        let minus = |k: u8| {
            let mut v = p;
            v[31] -= k;
            v
        };
        let small = |k: u8| {
            let mut v = [0u8; 32];
            v[31] = k;
            v
        };
        let mut half = [0u8; 32];
        for i in 0..32 {
            half[i] = (p[i] >> 1) | if i > 0 { p[i - 1] << 7 } else { 0 };
        }
        let mut high = [0u8; 32];
        high[..4].copy_from_slice(&[0xff; 4]);
        let mut low_ones = [0u8; 32];
        low_ones[8..].fill(0xff);
        let mut r = [0u8; 32];
        r[..4].copy_from_slice(&[0xff, 0xff, 0xff, 0xfe]);
        r[4..].fill(0xff);
        std::vec![
            small(0),
            small(1),
            small(2),
            minus(1),
            minus(2),
            minus(3),
            half,
            high,
            low_ones,
            r
        ]
    }

    fn agree(a: &[u8; 32], b: &[u8; 32]) {
        let impls = impls();
        let first = (impls[0].1)(a, b);
        for (name, f) in &impls[1..] {
            assert_eq!(f(a, b), first, "{name} differs from {} on {a:02x?}, {b:02x?}", impls[0].0);
        }
    }

    #[test]
    fn implementations_agree_on_edge_values() {
        for a in edges() {
            for b in edges() {
                agree(&a, &b);
            }
        }
    }

    /// A value below p from 32 random bytes: the top bit cleared unless the result stays below p
    /// (values in `[2^255, p)` are still reached through the top bytes left as they are).
    fn below_p(mut v: [u8; 32]) -> [u8; 32] {
        if v[..] >= crate::p256::P_BYTES[..] {
            v[0] &= 0x7f;
        }
        v
    }

    proptest! {
        #[test]
        fn implementations_agree_on_random_values(a in any::<[u8; 32]>(), b in any::<[u8; 32]>()) {
            agree(&below_p(a), &below_p(b));
        }
    }

    #[test]
    fn limbs_match_the_prime() {
        let mut be = [0u8; 32];
        for (i, limb) in P.iter().enumerate() {
            be[32 - 8 * (i + 1)..32 - 8 * i].copy_from_slice(&limb.to_be_bytes());
        }
        assert_eq!(be, crate::p256::P_BYTES);
    }
}
