//! `x86_avx512`: ML-DSA's ring arithmetic sixteen coefficients at a time, one `i32` per lane
//! of a 512-bit register, for x86-64 CPUs with full-width AVX-512 (F, BW, DQ, VL).
//!
//! The arithmetic is `x86_avx2`'s (and so `portable`'s) operation for operation on twice the
//! lanes, so every output is the same `i32` as `portable`'s (the tests compare them exactly):
//! the 32-bit Montgomery product is `vpmuldq` on the even lanes and on the odd ones, with
//! t = (a·b mod 2^32)·q^−1 one more `vpmuldq` on the low halves.
//!
//! The NTT keeps the standard coefficient order in and out. A polynomial is sixteen
//! registers; the layers whose butterflies are 128 to 16 apart pair whole registers. The last
//! four (8, 4, 2 and 1 apart) pair coefficients inside a pair of registers (32 coefficients):
//! before each, one `vpermt2d` per register gathers the pair's coefficients into a layout
//! where partners share a lane of the two registers (the first register holds the
//! coefficients whose bit `len` is clear, in order; the second their partners), computed from
//! the previous layout at compile time, and after the last the natural order is restored the
//! same way. The twiddles of those layers are laid out lane by lane at compile time too.
//!
//! Nothing branches on or indexes by a coefficient, and nothing divides.

use super::poly::{N, Poly, Q};
use super::portable::{F, QINV, ZETAS};
use core::arch::x86_64::{
    __m512i, _mm512_add_epi32, _mm512_loadu_si512, _mm512_mask_blend_epi32, _mm512_mul_epi32,
    _mm512_mullo_epi32, _mm512_permutex2var_epi32, _mm512_set1_epi32, _mm512_shuffle_epi32,
    _mm512_slli_epi32, _mm512_srai_epi32, _mm512_srli_epi64, _mm512_storeu_si512, _mm512_sub_epi32,
    _mm512_sub_epi64,
};
use core_cpu::Avx512;

/// Registers per polynomial.
const VECS: usize = N / 16;

/// The in-register layers' distances, in the forward NTT's order.
const LENS: [usize; 4] = [8, 4, 2, 1];

/// Which of a pair's 32 coefficients each lane holds in the layout of layer `len` (8, 4, 2 or
/// 1): lanes 0..16 are the first register, those whose bit `len` is clear in increasing
/// order; lanes 16..32 the second, lane 16 + l holding lane l's partner. `len` = 0 names the
/// natural order (lane l holds coefficient l).
const fn layout(len: usize) -> [usize; 32] {
    let mut out = [0; 32];
    let mut l = 0;
    while l < 32 {
        out[l] = l;
        l += 1;
    }
    if len == 0 {
        return out;
    }
    let (mut c, mut at) = (0, 0);
    while c < 32 {
        if c & len == 0 {
            out[at] = c;
            out[at + 16] = c + len;
            at += 1;
        }
        c += 1;
    }
    out
}

/// The `vpermt2d` selectors that take a pair of registers in layout `from` to layout `to`
/// (see [`layout`]): for the first register and for the second, lane by lane, where its
/// coefficient is in `from` (0..16 in the first register, 16..32 in the second).
const fn moves(from: usize, to: usize) -> [[i32; 16]; 2] {
    let (src, dst) = (layout(from), layout(to));
    let mut out = [[0; 16]; 2];
    let mut l = 0;
    while l < 32 {
        // `selector` counts along with `at` (below 32), so no cast is needed.
        let (mut at, mut selector) = (0, 0);
        while src[at] != dst[l] {
            at += 1;
            selector += 1;
        }
        out[l / 16][l % 16] = selector;
        l += 1;
    }
    out
}

/// The moves before each forward in-register layer and back to the natural order after.
const FWD_MOVES: [[[i32; 16]; 2]; 5] = [
    moves(0, LENS[0]),
    moves(LENS[0], LENS[1]),
    moves(LENS[1], LENS[2]),
    moves(LENS[2], LENS[3]),
    moves(LENS[3], 0),
];

/// The moves before each inverse in-register layer (1, 2, 4, 8 apart) and back after.
const INV_MOVES: [[[i32; 16]; 2]; 5] = [
    moves(0, LENS[3]),
    moves(LENS[3], LENS[2]),
    moves(LENS[2], LENS[1]),
    moves(LENS[1], LENS[0]),
    moves(LENS[0], 0),
];

/// A multiplier for [`montmul`] lane by lane: the value and the value times q^−1 mod 2^32.
#[derive(Clone, Copy)]
struct Twiddles {
    z: [i32; 16],
    zq: [i32; 16],
}

/// The twiddles of the in-register layer `LENS[layer]` for each pair of registers: the
/// forward NTT's ζ of the butterfly block each lane of the first register is in (block b of
/// the layer uses `ZETAS[N/(2·len) + b]`), or the inverse's −ζ (`ZETAS[N/len − 1 − b]`), as
/// `portable` takes them.
const fn layer_twiddles(layer: usize, inverse: bool) -> [Twiddles; VECS / 2] {
    let len = LENS[layer];
    let lanes = layout(len);
    let mut out = [Twiddles { z: [0; 16], zq: [0; 16] }; VECS / 2];
    let mut m = 0;
    while m < VECS / 2 {
        let mut l = 0;
        while l < 16 {
            let block = (32 * m + lanes[l]) / (2 * len);
            let z =
                if inverse { -ZETAS[N / len - 1 - block] } else { ZETAS[N / (2 * len) + block] };
            out[m].z[l] = z;
            out[m].zq[l] = z.wrapping_mul(QINV);
            l += 1;
        }
        m += 1;
    }
    out
}

/// Forward and inverse twiddles of the in-register layers, by index into [`LENS`].
const FWD: [[Twiddles; VECS / 2]; 4] = [
    layer_twiddles(0, false),
    layer_twiddles(1, false),
    layer_twiddles(2, false),
    layer_twiddles(3, false),
];
const INV: [[Twiddles; VECS / 2]; 4] = [
    layer_twiddles(0, true),
    layer_twiddles(1, true),
    layer_twiddles(2, true),
    layer_twiddles(3, true),
];

/// Sixteen `i32`s into a register.
#[inline]
#[target_feature(enable = "avx512f")]
fn load16(s: &[i32; 16]) -> __m512i {
    // SAFETY: `s` is 64 readable bytes; `loadu` takes any alignment. AVX-512F is enabled on
    // this function, reached only through the `Avx512` token.
    unsafe { _mm512_loadu_si512(s.as_ptr().cast()) }
}

/// Sixteen `i32`s from a register.
#[inline]
#[target_feature(enable = "avx512f")]
fn store16(out: &mut [i32; 16], x: __m512i) {
    // SAFETY: `out` is 64 writable bytes; `storeu` takes any alignment. AVX-512F is enabled
    // on this function, reached only through the `Avx512` token.
    unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), x) }
}

/// Loads a polynomial into registers.
#[inline]
#[target_feature(enable = "avx512f")]
fn load(p: &Poly) -> [__m512i; VECS] {
    core::array::from_fn(|i| load16(p.0[16 * i..16 * i + 16].try_into().unwrap_or(&[0; 16])))
}

/// Stores registers into a polynomial.
#[inline]
#[target_feature(enable = "avx512f")]
fn store(v: &[__m512i; VECS], p: &mut Poly) {
    for (out, x) in p.0.as_chunks_mut::<16>().0.iter_mut().zip(v) {
        store16(out, *x);
    }
}

/// One multiplier in every lane.
#[inline]
#[target_feature(enable = "avx512f")]
fn broadcast(z: i32) -> (__m512i, __m512i) {
    (_mm512_set1_epi32(z), _mm512_set1_epi32(z.wrapping_mul(QINV)))
}

/// A lane-by-lane table as registers.
#[inline]
#[target_feature(enable = "avx512f")]
fn twiddles(t: &Twiddles) -> (__m512i, __m512i) {
    (load16(&t.z), load16(&t.zq))
}

/// The high halves of the 64-bit lanes of `even` and of `odd`, as the even and the odd lanes
/// of one register.
#[inline]
#[target_feature(enable = "avx512f")]
fn high_halves(even: __m512i, odd: __m512i) -> __m512i {
    _mm512_mask_blend_epi32(0xaaaa, _mm512_srli_epi64::<32>(even), odd)
}

/// The odd lanes copied into the even ones below them (`vpshufd`), for `vpmuldq`, which
/// reads the even lanes. A shuffle rather than a 64-bit shift: LLVM turned a shift followed by
/// `vpmuldq` into the much slower `vpmullq`.
#[inline]
#[target_feature(enable = "avx512f")]
fn odd_lanes(a: __m512i) -> __m512i {
    _mm512_shuffle_epi32::<0xf5>(a)
}

/// The Montgomery reduction of the products `a·z`, even and odd lanes, with
/// t = (a·z mod 2^32)·q^−1 mod 2^32 given lane by lane in `t`.
#[inline]
#[target_feature(enable = "avx512f")]
fn reduce_products(even: __m512i, odd: __m512i, t: __m512i) -> __m512i {
    let q = _mm512_set1_epi32(Q);
    let t_even = _mm512_mul_epi32(t, q);
    let t_odd = _mm512_mul_epi32(odd_lanes(t), q);
    high_halves(_mm512_sub_epi64(even, t_even), _mm512_sub_epi64(odd, t_odd))
}

/// `portable::montgomery_reduce(a·z)` in each lane, with `zq` = z·q^−1 mod 2^32 lane by lane.
#[inline]
#[target_feature(enable = "avx512f")]
fn montmul(a: __m512i, z: __m512i, zq: __m512i) -> __m512i {
    let even = _mm512_mul_epi32(a, z);
    let odd = _mm512_mul_epi32(odd_lanes(a), odd_lanes(z));
    reduce_products(even, odd, _mm512_mullo_epi32(a, zq))
}

/// `portable::montgomery_reduce(a·b)` in each lane, for two variable operands.
#[inline]
#[target_feature(enable = "avx512f")]
fn montmul_var(a: __m512i, b: __m512i) -> __m512i {
    let even = _mm512_mul_epi32(a, b);
    let odd = _mm512_mul_epi32(odd_lanes(a), odd_lanes(b));
    let t = _mm512_mullo_epi32(_mm512_mullo_epi32(a, b), _mm512_set1_epi32(QINV));
    reduce_products(even, odd, t)
}

/// `portable::reduce32` in each lane: a − ⌊(a + 2^22)/2^23⌋·q, with t·q as
/// t·2^23 − t·2^13 + t.
#[inline]
#[target_feature(enable = "avx512f")]
fn reduce32(a: __m512i) -> __m512i {
    let t = _mm512_srai_epi32::<23>(_mm512_add_epi32(a, _mm512_set1_epi32(1 << 22)));
    let tq = _mm512_sub_epi32(_mm512_slli_epi32::<23>(t), _mm512_slli_epi32::<13>(t));
    _mm512_sub_epi32(a, _mm512_add_epi32(tq, t))
}

/// The forward (Cooley–Tukey) butterfly: (a + ζb, a − ζb).
#[inline]
#[target_feature(enable = "avx512f")]
fn ct(a: __m512i, b: __m512i, (z, zq): (__m512i, __m512i)) -> (__m512i, __m512i) {
    let t = montmul(b, z, zq);
    (_mm512_add_epi32(a, t), _mm512_sub_epi32(a, t))
}

/// The inverse (Gentleman–Sande) butterfly: (a + b, −ζ(a − b)), with −ζ in `z`.
#[inline]
#[target_feature(enable = "avx512f")]
fn gs(a: __m512i, b: __m512i, (z, zq): (__m512i, __m512i)) -> (__m512i, __m512i) {
    (_mm512_add_epi32(a, b), montmul(_mm512_sub_epi32(a, b), z, zq))
}

/// A pair of registers from one layout to another, with the selectors of [`moves`].
#[inline]
#[target_feature(enable = "avx512f")]
fn permute(a: __m512i, b: __m512i, m: &[[i32; 16]; 2]) -> (__m512i, __m512i) {
    (_mm512_permutex2var_epi32(a, load16(&m[0]), b), _mm512_permutex2var_epi32(a, load16(&m[1]), b))
}

/// The NTT (FIPS 204 Algorithm 41), in place; the same output as `portable::ntt`.
pub(crate) fn ntt(token: Avx512, p: &mut Poly) {
    // SAFETY: the `Avx512` token proves AVX-512F, BW, DQ and VL were detected.
    unsafe { ntt_avx512(token, p) }
}

#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
fn ntt_avx512(_: Avx512, p: &mut Poly) {
    let mut v = load(p);
    let mut k = 0;
    // Layers 128 to 16 apart: `len` registers.
    let mut len = VECS / 2;
    while len >= 1 {
        for start in (0..VECS).step_by(2 * len) {
            k += 1;
            let z = broadcast(ZETAS[k]);
            for j in start..start + len {
                (v[j], v[j + len]) = ct(v[j], v[j + len], z);
            }
        }
        len /= 2;
    }
    // Layers 8, 4, 2 and 1 apart, inside each pair of registers.
    for m in 0..VECS / 2 {
        let (mut a, mut b) = (v[2 * m], v[2 * m + 1]);
        for layer in 0..LENS.len() {
            (a, b) = permute(a, b, &FWD_MOVES[layer]);
            (a, b) = ct(a, b, twiddles(&FWD[layer][m]));
        }
        (v[2 * m], v[2 * m + 1]) = permute(a, b, &FWD_MOVES[LENS.len()]);
    }
    store(&v, p);
}

/// The inverse NTT (FIPS 204 Algorithm 42) times R, in place; the same output as
/// `portable::inv_ntt`.
pub(crate) fn inv_ntt(token: Avx512, p: &mut Poly) {
    // SAFETY: the `Avx512` token proves AVX-512F, BW, DQ and VL were detected.
    unsafe { inv_ntt_avx512(token, p) }
}

#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
fn inv_ntt_avx512(_: Avx512, p: &mut Poly) {
    let mut v = load(p);
    for x in &mut v {
        *x = reduce32(*x);
    }
    // Layers 1, 2, 4 and 8 apart, inside each pair of registers.
    for m in 0..VECS / 2 {
        let (mut a, mut b) = (v[2 * m], v[2 * m + 1]);
        for layer in 0..LENS.len() {
            (a, b) = permute(a, b, &INV_MOVES[layer]);
            (a, b) = gs(a, b, twiddles(&INV[LENS.len() - 1 - layer][m]));
        }
        (v[2 * m], v[2 * m + 1]) = permute(a, b, &INV_MOVES[LENS.len()]);
    }
    // Layers 16 to 128 apart: `len` registers; block b of each uses −ZETAS[N/(16·len) − 1 − b].
    let mut len = 1;
    while len < VECS {
        for (b, start) in (0..VECS).step_by(2 * len).enumerate() {
            let z = broadcast(-ZETAS[N / (16 * len) - 1 - b]);
            for j in start..start + len {
                (v[j], v[j + len]) = gs(v[j], v[j + len], z);
            }
        }
        len *= 2;
    }
    let (f, fq) = broadcast(F);
    for x in &mut v {
        *x = montmul(*x, f, fq);
    }
    store(&v, p);
}

/// `acc += a ∘ b · R^−1` (FIPS 204 Algorithm 45 with the Montgomery factor); the same output
/// as `portable::pointwise_acc`.
pub(crate) fn pointwise_acc(token: Avx512, acc: &mut Poly, a: &Poly, b: &Poly) {
    // SAFETY: the `Avx512` token proves AVX-512F, BW, DQ and VL were detected.
    unsafe { pointwise_acc_avx512(token, acc, a, b) }
}

#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl")]
fn pointwise_acc_avx512(_: Avx512, acc: &mut Poly, a: &Poly, b: &Poly) {
    let (a, b) = (a.0.as_chunks::<16>().0, b.0.as_chunks::<16>().0);
    for ((c, x), y) in acc.0.as_chunks_mut::<16>().0.iter_mut().zip(a).zip(b) {
        let sum = _mm512_add_epi32(load16(c), montmul_var(load16(x), load16(y)));
        store16(c, sum);
    }
}

#[cfg(test)]
mod tests {
    use super::super::portable;
    use super::*;

    /// A polynomial of pseudo-random coefficients in `-bound..bound`.
    fn poly(seed: u32, bound: i32) -> Poly {
        let mut x = seed.wrapping_mul(2_654_435_761) | 1;
        Poly(core::array::from_fn(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (i64::from(x % (2 * bound.cast_unsigned())) - i64::from(bound)) as i32
        }))
    }

    /// Every layout holds each of a pair's coefficients once, with partners `len` apart.
    #[test]
    fn layouts_are_permutations_of_partners() {
        for len in [0, 8, 4, 2, 1] {
            let lanes = layout(len);
            let mut seen = [false; 32];
            for (l, &c) in lanes.iter().enumerate() {
                assert!(!seen[c], "len {len}, coefficient {c} twice");
                seen[c] = true;
                if len != 0 && l < 16 {
                    assert_eq!(lanes[l + 16], c + len);
                }
            }
        }
    }

    /// NTT, inverse NTT and the product in T_q give exactly `portable`'s outputs, at the
    /// largest inputs each accepts and at small ones.
    #[test]
    fn agrees_with_portable() {
        let Some(token) = Avx512::get() else {
            std::eprintln!("x86_avx512: not available on this CPU");
            return;
        };
        for seed in 0..50 {
            for bound in [5, Q, 1 << 20, i32::MAX - 9 * Q] {
                let mut ours = poly(seed, bound);
                let mut want = ours.clone();
                ntt(token, &mut ours);
                portable::ntt(&mut want);
                assert_eq!(ours.0, want.0, "ntt, seed {seed}, bound {bound}");

                let mut ours = poly(seed + 1000, bound.min(i32::MAX - (1 << 22)));
                let mut want = ours.clone();
                inv_ntt(token, &mut ours);
                portable::inv_ntt(&mut want);
                assert_eq!(ours.0, want.0, "inv_ntt, seed {seed}, bound {bound}");
            }
            let (a, b) = (poly(seed + 2000, 9 * Q), poly(seed + 3000, 9 * Q));
            let mut ours = poly(seed + 4000, 1 << 30);
            let mut want = ours.clone();
            pointwise_acc(token, &mut ours, &a, &b);
            portable::pointwise_acc(&mut want, &a, &b);
            assert_eq!(ours.0, want.0, "pointwise_acc, seed {seed}");
        }
    }
}
