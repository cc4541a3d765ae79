//! `aarch64`: ML-KEM's ring arithmetic with NEON, eight `i16` coefficients per register, the
//! same operations as `portable` in the same order, so every value (and so every key and
//! ciphertext byte) is the same.
//!
//! The Montgomery product is `sqdmulh` of the operands less `sqdmulh` of the quotient and q,
//! halved by `shsub`: both high halves carry the same low bits, so the difference is exact.
//! Barrett reduction is `sqdmulh` by ⌊2^26/q⌉ and a rounding shift right by 11, which is
//! `portable`'s `(v·a + 2^25) >> 26`. The NTT's layers whose butterflies are eight or
//! more coefficients apart pair whole registers; the last two (four and two apart) run together on
//! each pair of registers after `trn1`/`trn2` on 64-bit and then 32-bit lanes gather the
//! coefficients that meet, with twiddle factors laid out to match (`ZETAS_4`, `ZETAS_2`); the same
//! transpositions undo it. Products in T_q load even and odd coefficients apart (`ld2`).

use super::poly::{Poly, Q};
use super::portable::{INV_NTT_SCALE, QINV, R2, ZETAS};
use core::arch::aarch64::{
    int16x8_t, vaddq_s16, vdupq_n_s16, vhsubq_s16, vld1q_s16, vld2q_s16, vmlsq_s16, vmulq_s16,
    vqdmulhq_s16, vreinterpretq_s16_s32, vreinterpretq_s16_s64, vreinterpretq_s32_s16,
    vreinterpretq_s64_s16, vrshrq_n_s16, vst1q_s16, vst2q_s16, vsubq_s16, vtrn1q_s32, vtrn1q_s64,
    vtrn2q_s32, vtrn2q_s64,
};
use core_cpu::Neon;

/// ⌊2^26/q⌉: Barrett reduction's multiplier.
const BARRETT_V: i16 = 20159;

/// Twiddle factors of the NTT layer whose butterflies are four coefficients apart (its blocks
/// `2i` and `2i + 1`, four lanes each), for pair `i` of registers after the 64-bit
/// transposition.
const ZETAS_4: [[i16; 8]; 16] = twiddles(32, true, 4, false);

/// Twiddle factors of the NTT layer whose butterflies are two apart (its blocks `4i..4i + 4`,
/// two lanes each), for pair `i` after both transpositions.
const ZETAS_2: [[i16; 8]; 16] = twiddles(64, true, 2, false);

/// The inverse NTT's first layer (butterflies two apart, ζ in reverse order), laid out as
/// [`ZETAS_2`].
const INV_ZETAS_2: [[i16; 8]; 16] = twiddles(127, false, 2, false);

/// The inverse NTT's second layer (four apart), laid out as [`ZETAS_4`].
const INV_ZETAS_4: [[i16; 8]; 16] = twiddles(63, false, 4, false);

/// ±ζ^(2·BitRev7(i)+1) for the products in T_q: one lane per pair of coefficients, sixteen
/// coefficients (four degree-one products with ζ and −ζ alternating) per row.
const BASEMUL_ZETAS: [[i16; 8]; 16] = twiddles(64, true, 2, true);

/// Sixteen rows of eight lanes from `ZETAS`: lane `l` of row `i` holds entry
/// `start ± (8i + l)/per` (`+` when `up`), so each entry fills `per` lanes; with `alternate`,
/// odd lanes hold its negation.
const fn twiddles(start: usize, up: bool, per: usize, alternate: bool) -> [[i16; 8]; 16] {
    let mut t = [[0i16; 8]; 16];
    let mut i = 0;
    while i < 16 {
        let mut lane = 0;
        while lane < 8 {
            let k = (8 * i + lane) / per;
            let z = ZETAS[if up { start + k } else { start - k }];
            t[i][lane] = if alternate && lane % 2 == 1 { -z } else { z };
            lane += 1;
        }
        i += 1;
    }
    t
}

/// NTT (FIPS 203 Algorithm 9) in place; as `portable::ntt`.
pub(super) fn ntt(token: Neon, p: &mut Poly) {
    // SAFETY: the `Neon` token proves Advanced SIMD was detected.
    unsafe { ntt_neon(token, p) }
}

/// NTT^−1 (FIPS 203 Algorithm 10) in place, times R; as `portable::inv_ntt`.
pub(super) fn inv_ntt(token: Neon, p: &mut Poly) {
    // SAFETY: the `Neon` token proves Advanced SIMD was detected.
    unsafe { inv_ntt_neon(token, p) }
}

/// `acc += a ∘ b · R^−1` (FIPS 203 Algorithms 11–12); as `portable::basemul_acc`.
pub(super) fn basemul_acc(token: Neon, acc: &mut Poly, a: &Poly, b: &Poly) {
    // SAFETY: the `Neon` token proves Advanced SIMD was detected.
    unsafe { basemul_acc_neon(token, acc, a, b) }
}

/// Multiplies every coefficient by R; as `portable::to_mont`.
pub(super) fn to_mont(token: Neon, p: &mut Poly) {
    // SAFETY: the `Neon` token proves Advanced SIMD was detected.
    unsafe { to_mont_neon(token, p) }
}

/// Barrett-reduces every coefficient; as `portable::reduce`.
pub(super) fn reduce(token: Neon, p: &mut Poly) {
    // SAFETY: the `Neon` token proves Advanced SIMD was detected.
    unsafe { reduce_neon(token, p) }
}

#[inline]
#[target_feature(enable = "neon")]
fn load(c: &[i16; 8]) -> int16x8_t {
    // SAFETY: `c` is eight readable `i16`s; `ld1` has no alignment requirement.
    unsafe { vld1q_s16(c.as_ptr()) }
}

#[inline]
#[target_feature(enable = "neon")]
fn store(c: &mut [i16; 8], v: int16x8_t) {
    // SAFETY: `c` is eight writable `i16`s; `st1` has no alignment requirement.
    unsafe { vst1q_s16(c.as_mut_ptr(), v) }
}

/// `a·b·R^−1 mod q` in `-q+1..q`, lane by lane: `portable::fqmul`, exactly.
#[inline]
#[target_feature(enable = "neon")]
fn fqmul(a: int16x8_t, b: int16x8_t) -> int16x8_t {
    let t = vmulq_s16(vmulq_s16(a, b), vdupq_n_s16(QINV));
    vhsubq_s16(vqdmulhq_s16(a, b), vqdmulhq_s16(t, vdupq_n_s16(Q)))
}

/// `portable::barrett_reduce` lane by lane: `sqdmulh` gives ⌊a·v/2^15⌋, the rounding shift by
/// 11 then ⌊(a·v + 2^25)/2^26⌋.
#[inline]
#[target_feature(enable = "neon")]
fn barrett_reduce(a: int16x8_t) -> int16x8_t {
    let t = vrshrq_n_s16::<11>(vqdmulhq_s16(a, vdupq_n_s16(BARRETT_V)));
    vmlsq_s16(a, t, vdupq_n_s16(Q))
}

/// The Cooley–Tukey butterfly: `(a + ζb, a − ζb)`.
#[inline]
#[target_feature(enable = "neon")]
fn ct_butterfly(a: int16x8_t, b: int16x8_t, zeta: int16x8_t) -> (int16x8_t, int16x8_t) {
    let t = fqmul(zeta, b);
    (vaddq_s16(a, t), vsubq_s16(a, t))
}

/// The Gentleman–Sande butterfly: `(Barrett(a + b), ζ(b − a))`.
#[inline]
#[target_feature(enable = "neon")]
fn gs_butterfly(a: int16x8_t, b: int16x8_t, zeta: int16x8_t) -> (int16x8_t, int16x8_t) {
    (barrett_reduce(vaddq_s16(a, b)), fqmul(zeta, vsubq_s16(b, a)))
}

/// `(trn1, trn2)` of two registers on 64-bit lanes: the low halves of both, the high halves
/// of both. Its own inverse.
#[inline]
#[target_feature(enable = "neon")]
fn trn64(a: int16x8_t, b: int16x8_t) -> (int16x8_t, int16x8_t) {
    let (a, b) = (vreinterpretq_s64_s16(a), vreinterpretq_s64_s16(b));
    (vreinterpretq_s16_s64(vtrn1q_s64(a, b)), vreinterpretq_s16_s64(vtrn2q_s64(a, b)))
}

/// `(trn1, trn2)` of two registers on 32-bit lanes (pairs of coefficients). Its own inverse.
#[inline]
#[target_feature(enable = "neon")]
fn trn32(a: int16x8_t, b: int16x8_t) -> (int16x8_t, int16x8_t) {
    let (a, b) = (vreinterpretq_s32_s16(a), vreinterpretq_s32_s16(b));
    (vreinterpretq_s16_s32(vtrn1q_s32(a, b)), vreinterpretq_s16_s32(vtrn2q_s32(a, b)))
}

/// One layer of butterflies between registers `len` apart (blocks of `8·len` coefficients
/// each, the `k`-th block with `zetas(k)`), over the registers of a polynomial.
#[inline]
#[target_feature(enable = "neon")]
fn layer(
    v: &mut [[i16; 8]],
    len: usize,
    zetas: impl Fn(usize) -> i16,
    butterfly: impl Fn(int16x8_t, int16x8_t, int16x8_t) -> (int16x8_t, int16x8_t),
) {
    for (k, block) in v.chunks_exact_mut(2 * len).enumerate() {
        let zeta = vdupq_n_s16(zetas(k));
        let (lo, hi) = block.split_at_mut(len);
        for (a, b) in lo.iter_mut().zip(hi) {
            let (x, y) = butterfly(load(a), load(b), zeta);
            store(a, x);
            store(b, y);
        }
    }
}

#[target_feature(enable = "neon")]
fn ntt_neon(_: Neon, p: &mut Poly) {
    let v = p.0.as_chunks_mut::<8>().0;
    // Butterflies 128 down to 8 coefficients apart: the k-th block of the layer with `n`
    // blocks takes ZETAS[n + k].
    let mut len = 16;
    while len >= 1 {
        let blocks = 16 / len;
        layer(v, len, |k| ZETAS[blocks + k], |a, b, z| ct_butterfly(a, b, z));
        len >>= 1;
    }
    // Butterflies four and two apart, a pair of registers at a time, then the final
    // reduction.
    for ((pair, z4), z2) in v.as_chunks_mut::<2>().0.iter_mut().zip(&ZETAS_4).zip(&ZETAS_2) {
        let (a, b) = trn64(load(&pair[0]), load(&pair[1]));
        let (a, b) = ct_butterfly(a, b, load(z4));
        let (lo, hi) = trn32(a, b);
        let (lo, hi) = ct_butterfly(lo, hi, load(z2));
        let (a, b) = trn32(lo, hi);
        let (r0, r1) = trn64(a, b);
        store(&mut pair[0], barrett_reduce(r0));
        store(&mut pair[1], barrett_reduce(r1));
    }
}

#[target_feature(enable = "neon")]
fn inv_ntt_neon(_: Neon, p: &mut Poly) {
    let v = p.0.as_chunks_mut::<8>().0;
    // The first reduction, then butterflies two and four apart.
    for ((pair, z2), z4) in v.as_chunks_mut::<2>().0.iter_mut().zip(&INV_ZETAS_2).zip(&INV_ZETAS_4)
    {
        let (r0, r1) = (barrett_reduce(load(&pair[0])), barrett_reduce(load(&pair[1])));
        let (a, b) = trn64(r0, r1);
        let (lo, hi) = trn32(a, b);
        let (lo, hi) = gs_butterfly(lo, hi, load(z2));
        let (a, b) = trn32(lo, hi);
        let (a, b) = gs_butterfly(a, b, load(z4));
        let (r0, r1) = trn64(a, b);
        store(&mut pair[0], r0);
        store(&mut pair[1], r1);
    }
    // Butterflies 8 up to 128 apart: the k-th block of the layer with `n` blocks takes
    // ZETAS[2n − 1 − k].
    let mut len = 1;
    while len <= 16 {
        let blocks = 16 / len;
        layer(v, len, |k| ZETAS[2 * blocks - 1 - k], |a, b, z| gs_butterfly(a, b, z));
        len <<= 1;
    }
    let scale = vdupq_n_s16(INV_NTT_SCALE);
    for c in v.iter_mut() {
        store(c, fqmul(load(c), scale));
    }
}

#[target_feature(enable = "neon")]
fn basemul_acc_neon(_: Neon, acc: &mut Poly, a: &Poly, b: &Poly) {
    let rows = acc.0.as_chunks_mut::<16>().0.iter_mut();
    let rows = rows.zip(a.0.as_chunks::<16>().0).zip(b.0.as_chunks::<16>().0);
    for (((out, a), b), zeta) in rows.zip(&BASEMUL_ZETAS) {
        // SAFETY: each is sixteen `i16`s, readable (and `out` writable); `ld2`/`st2` have no
        // alignment requirement.
        let (o, a, b) =
            unsafe { (vld2q_s16(out.as_ptr()), vld2q_s16(a.as_ptr()), vld2q_s16(b.as_ptr())) };
        let r0 = vaddq_s16(fqmul(fqmul(a.1, b.1), load(zeta)), fqmul(a.0, b.0));
        let r1 = vaddq_s16(fqmul(a.0, b.1), fqmul(a.1, b.0));
        let mut o = o;
        o.0 = vaddq_s16(o.0, r0);
        o.1 = vaddq_s16(o.1, r1);
        // SAFETY: as above.
        unsafe { vst2q_s16(out.as_mut_ptr(), o) };
    }
}

#[target_feature(enable = "neon")]
fn to_mont_neon(_: Neon, p: &mut Poly) {
    let r2 = vdupq_n_s16(R2);
    for c in p.0.as_chunks_mut::<8>().0 {
        store(c, fqmul(load(c), r2));
    }
}

#[target_feature(enable = "neon")]
fn reduce_neon(_: Neon, p: &mut Poly) {
    for c in p.0.as_chunks_mut::<8>().0 {
        store(c, barrett_reduce(load(c)));
    }
}

#[cfg(test)]
mod tests {
    use super::super::portable;
    use super::*;
    use crate::Implementation;

    /// Polynomials with coefficients spread over the inputs' whole ranges, from a small
    /// linear congruential generator (test data, not secrets).
    fn polys(bound: i16) -> impl Iterator<Item = Poly> {
        let mut x: u32 = 0x1234_5678;
        (0..64).map(move |_| {
            Poly(core::array::from_fn(|_| {
                x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                let r = i32::try_from(x >> 8).unwrap() % (2 * i32::from(bound) - 1);
                i16::try_from(r - i32::from(bound) + 1).unwrap()
            }))
        })
    }

    #[test]
    fn every_operation_equals_portable() {
        let Some(token) = Neon::get() else { return };
        let q = Q;
        for p in polys(q) {
            let (mut want, mut got) = (p.clone(), p.clone());
            portable::ntt(&mut want);
            ntt(token, &mut got);
            assert_eq!(got.0, want.0, "ntt");
            portable::to_mont(&mut want);
            to_mont(token, &mut got);
            assert_eq!(got.0, want.0, "to_mont");
        }
        for p in polys(8 * q) {
            let (mut want, mut got) = (p.clone(), p.clone());
            portable::inv_ntt(&mut want);
            inv_ntt(token, &mut got);
            assert_eq!(got.0, want.0, "inv_ntt");
            let (mut want, mut got) = (p.clone(), p);
            portable::reduce(&mut want);
            reduce(token, &mut got);
            assert_eq!(got.0, want.0, "reduce");
        }
        for ((a, b), acc) in polys(q).zip(polys(q).skip(7)).zip(polys(6 * q)) {
            let (mut want, mut got) = (acc.clone(), acc);
            portable::basemul_acc(&mut want, &a, &b);
            basemul_acc(token, &mut got, &a, &b);
            assert_eq!(got.0, want.0, "basemul_acc");
        }
        assert!(crate::MlKemImpl::available().any(|i| i.name() == "aarch64"));
    }

    #[test]
    fn reductions_agree_on_every_input() {
        let Some(token) = Neon::get() else { return };
        for start in (i16::MIN..=i16::MAX - 255).step_by(256) {
            let p = Poly(core::array::from_fn(|i| start + i16::try_from(i).unwrap()));
            let (mut want, mut got) = (p.clone(), p);
            portable::reduce(&mut want);
            reduce(token, &mut got);
            assert_eq!(got.0, want.0, "barrett from {start}");
        }
    }
}
