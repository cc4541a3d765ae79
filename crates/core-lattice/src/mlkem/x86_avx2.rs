//! `x86_avx2`: ML-KEM's ring arithmetic sixteen coefficients at a time, one `i16` per lane of
//! a 256-bit register, for x86-64 CPUs with AVX2.
//!
//! The arithmetic is `portable`'s: Montgomery products (R = 2^16) and Barrett reduction, here
//! as `vpmullw`/`vpmulhw` pairs. A Montgomery product by a constant ζ takes the high half of
//! a·ζ, the low half of a·(ζ·q^−1 mod 2^16) (precomputed), and subtracts the high half of
//! that times q; the low halves cancel exactly, so nothing else is needed.
//!
//! The NTT keeps the standard coefficient order in and out. Its first four layers
//! (butterflies 128, 64, 32 and 16 apart) pair whole registers; the last three pair
//! coefficients inside one register, so each pair of registers is first transposed by 128-,
//! 64- and then 32-bit blocks (`vperm2i128`, `vpunpck[lh]qdq`, shift and `vpblendd`), which
//! puts partners in the same lane of two registers, and transposed back after the last
//! layer; each transposition is its own inverse. The inverse NTT does the same in reverse.
//! The twiddle factors of the transposed layers are laid out lane by lane at compile time.
//!
//! The product in T_q works on pairs (a₀, a₁)·(b₀, b₁) in adjacent lanes with `vpmaddwd`:
//! a₀b₀ + a₁·(b₁ζ) and a₀b₁ + a₁b₀ as 32-bit sums, each Montgomery-reduced to 16 bits.
//!
//! ByteEncode_d/ByteDecode_d (d = 1, 4, 5, 10, 11, 12) are one pair of generic kernels over
//! 128-bit lanes of eight values in `d` bytes (`pack` and `unpack`), Compress_d runs
//! `poly::compress`'s multiply-and-correct on 32-bit lanes, and Decompress_d is one
//! `vpmulhrsw`; the test `encodings_agree_with_poly` checks them against `poly`'s for every
//! coefficient Compress takes. ML-KEM-768 decapsulation: 1.4× faster than with `poly`'s
//! byte-at-a-time encodings (`speed`, Zen 5).
//!
//! Nothing branches on or indexes by a coefficient, and nothing divides.

use super::poly::{N, Poly, Q};
use super::portable::{INV_NTT_SCALE, QINV, R2, ZETAS};
use crate::shake::ShakeX4;
use crate::x86_avx2::{swap32, swap64, swap128};
use core::arch::x86_64::{
    __m128i, __m256i, _mm_cvtsi32_si128, _mm_loadu_si128, _mm_shuffle_epi8, _mm_storeu_si128,
    _mm256_add_epi16, _mm256_add_epi32, _mm256_and_si256, _mm256_blend_epi16, _mm256_blend_epi32,
    _mm256_bslli_epi128, _mm256_bsrli_epi128, _mm256_castsi256_si128, _mm256_cmpgt_epi16,
    _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_loadu2_m128i, _mm256_madd_epi16,
    _mm256_movemask_epi8, _mm256_mulhi_epi16, _mm256_mulhrs_epi16, _mm256_mullo_epi16,
    _mm256_mullo_epi32, _mm256_or_si256, _mm256_packs_epi16, _mm256_packus_epi32,
    _mm256_set1_epi16, _mm256_set1_epi32, _mm256_setr_epi8, _mm256_setzero_si256,
    _mm256_shuffle_epi8, _mm256_sll_epi16, _mm256_sll_epi32, _mm256_sll_epi64, _mm256_slli_epi32,
    _mm256_srai_epi16, _mm256_srai_epi32, _mm256_srl_epi64, _mm256_srli_epi32, _mm256_srli_epi64,
    _mm256_srlv_epi32, _mm256_storeu_si256, _mm256_sub_epi16, _mm256_sub_epi32,
    _mm256_unpackhi_epi16, _mm256_unpacklo_epi16,
};
use core_cpu::Avx2;
use zeroize::Zeroize;

/// Registers per polynomial.
const VECS: usize = N / 16;

/// ⌊2^26/q⌉, Barrett's reciprocal.
const BARRETT_V: i16 = 20159;

/// A constant multiplier for [`fqmul`]: the value and the value times q^−1 mod 2^16, lane by
/// lane.
#[derive(Clone, Copy)]
struct Twiddles {
    z: [i16; 16],
    zq: [i16; 16],
}

/// The coefficient index whose twiddle lane `l` of the first operand carries, in the layer
/// whose butterflies are `len` apart (8, 4 or 2), for the pair of registers `m` (coefficients
/// 32m..32m + 32) after the transpositions described in the module docs.
const fn lane_coefficient(len: usize, m: usize, l: usize) -> usize {
    let (h, i) = (l / 8, l % 8);
    let offset = match len {
        // [a0..a7 | b0..b7]
        8 => i,
        // [a0..a3, a8..a11 | b0..b3, b8..b11]
        4 => {
            if i < 4 {
                i
            } else {
                i + 4
            }
        }
        // [a0 a1, a4 a5, a8 a9, a12 a13 | the same of b]
        _ => 4 * (i / 2) + i % 2,
    };
    32 * m + 16 * h + offset
}

/// The twiddles of the transposed layer `len` for each pair of registers: ζ^BitRev7(i)·R of
/// the butterfly block each lane is in, the forward NTT's (block i of the layer uses
/// `ZETAS[N/(2·len) + i]`) or the inverse's (`ZETAS[N/len − 1 − i]`).
const fn transposed_twiddles(len: usize, inverse: bool) -> [Twiddles; 8] {
    let mut out = [Twiddles { z: [0; 16], zq: [0; 16] }; 8];
    let mut m = 0;
    while m < 8 {
        let mut l = 0;
        while l < 16 {
            let block = lane_coefficient(len, m, l) / (2 * len);
            let z = if inverse { ZETAS[N / len - 1 - block] } else { ZETAS[N / (2 * len) + block] };
            out[m].z[l] = z;
            out[m].zq[l] = z.wrapping_mul(QINV);
            l += 1;
        }
        m += 1;
    }
    out
}

const FWD8: [Twiddles; 8] = transposed_twiddles(8, false);
const FWD4: [Twiddles; 8] = transposed_twiddles(4, false);
const FWD2: [Twiddles; 8] = transposed_twiddles(2, false);
const INV8: [Twiddles; 8] = transposed_twiddles(8, true);
const INV4: [Twiddles; 8] = transposed_twiddles(4, true);
const INV2: [Twiddles; 8] = transposed_twiddles(2, true);

/// For each register of a product in T_q: ζ for the odd lanes (the b₁ of each pair, pair p
/// taking ζ^(2·BitRev7(p)+1) = ±`ZETAS[64 + p/2]`), and even lanes 0.
const BASEMUL: [Twiddles; VECS] = {
    let mut out = [Twiddles { z: [0; 16], zq: [0; 16] }; VECS];
    let mut v = 0;
    while v < VECS {
        let mut l = 1;
        while l < 16 {
            let pair = 8 * v + l / 2;
            let z = if pair % 2 == 0 { ZETAS[64 + pair / 2] } else { -ZETAS[64 + pair / 2] };
            out[v].z[l] = z;
            out[v].zq[l] = z.wrapping_mul(QINV);
            l += 2;
        }
        v += 1;
    }
    out
};

/// Loads a polynomial into registers.
#[inline]
#[target_feature(enable = "avx2")]
fn load(p: &Poly) -> [__m256i; VECS] {
    core::array::from_fn(|i| load16(&p.0[16 * i..16 * i + 16]))
}

/// Stores registers into a polynomial.
#[inline]
#[target_feature(enable = "avx2")]
fn store(v: &[__m256i; VECS], p: &mut Poly) {
    for (x, out) in v.iter().zip(p.0.chunks_exact_mut(16)) {
        // SAFETY: `out` is 16 `i16`s, 32 writable bytes; `storeu` takes any alignment. AVX2
        // is enabled on this function, which only the `Avx2` token's holders reach.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), *x) }
    }
}

/// Sixteen `i16`s into a register.
#[inline]
#[target_feature(enable = "avx2")]
fn load16(s: &[i16]) -> __m256i {
    assert!(s.len() >= 16);
    // SAFETY: `s` has at least 16 `i16`s (checked), 32 readable bytes; `loadu` takes any
    // alignment. AVX2 is enabled on this function, reached only through the `Avx2` token.
    unsafe { _mm256_loadu_si256(s.as_ptr().cast()) }
}

/// A twiddle table entry into its two registers.
#[inline]
#[target_feature(enable = "avx2")]
fn twiddles(t: &Twiddles) -> (__m256i, __m256i) {
    (load16(&t.z), load16(&t.zq))
}

/// Lane-wise `a·z·R^−1 mod q` in `-q+1..q` for `|a·z| < q·2^15`, with `zq = z·q^−1 mod 2^16`.
#[inline]
#[target_feature(enable = "avx2")]
fn fqmul(a: __m256i, z: __m256i, zq: __m256i) -> __m256i {
    let lo = _mm256_mullo_epi16(a, zq);
    let hi = _mm256_mulhi_epi16(a, z);
    _mm256_sub_epi16(hi, _mm256_mulhi_epi16(lo, _mm256_set1_epi16(Q)))
}

/// Lane-wise Barrett reduction of any `i16` to a representative of it mod q in
/// `-(q+1)/2..=(q+1)/2` (the test `barrett_range_and_residue` checks all 2^16 inputs).
#[inline]
#[target_feature(enable = "avx2")]
fn barrett(a: __m256i) -> __m256i {
    // t = round(⌊a·V / 2^16⌋ / 2^10): `vpmulhrsw` by 2^5 is (x·2^5 + 2^14) >> 15.
    let t = _mm256_mulhi_epi16(a, _mm256_set1_epi16(BARRETT_V));
    let t = _mm256_mulhrs_epi16(t, _mm256_set1_epi16(1 << 5));
    _mm256_sub_epi16(a, _mm256_mullo_epi16(t, _mm256_set1_epi16(Q)))
}

/// Cooley–Tukey butterfly: `(a + ζb, a − ζb)`.
#[inline]
#[target_feature(enable = "avx2")]
fn ct(a: &mut __m256i, b: &mut __m256i, z: __m256i, zq: __m256i) {
    let t = fqmul(*b, z, zq);
    *b = _mm256_sub_epi16(*a, t);
    *a = _mm256_add_epi16(*a, t);
}

/// Gentleman–Sande butterfly: `(Barrett(a + b), ζ(b − a))`.
#[inline]
#[target_feature(enable = "avx2")]
fn gs(a: &mut __m256i, b: &mut __m256i, z: __m256i, zq: __m256i) {
    let t = *a;
    *a = barrett(_mm256_add_epi16(t, *b));
    *b = fqmul(_mm256_sub_epi16(*b, t), z, zq);
}

/// A broadcast twiddle of the untransposed layers: `ZETAS[k]` and its q^−1 multiple.
#[inline]
#[target_feature(enable = "avx2")]
fn broadcast(k: usize) -> (__m256i, __m256i) {
    (_mm256_set1_epi16(ZETAS[k]), _mm256_set1_epi16(ZETAS[k].wrapping_mul(QINV)))
}

/// NTT (FIPS 203 Algorithm 9), as `portable::ntt`: coefficients in `-q..q` in, the NTT in
/// standard order and Barrett-reduced out.
pub(crate) fn ntt(token: Avx2, p: &mut Poly) {
    // SAFETY: the `Avx2` token proves AVX2 was detected.
    unsafe { ntt_avx2(token, p) }
}

#[target_feature(enable = "avx2")]
fn ntt_avx2(_: Avx2, p: &mut Poly) {
    let mut v = load(p);
    // Layers 128, 64, 32, 16 apart: `step` registers apart, one twiddle per block.
    let mut k = 1;
    let mut step = VECS / 2;
    while step >= 1 {
        for start in (0..VECS).step_by(2 * step) {
            let (z, zq) = broadcast(k);
            k += 1;
            for j in start..start + step {
                let (lo, hi) = v.split_at_mut(j + step);
                ct(&mut lo[j], &mut hi[0], z, zq);
            }
        }
        step /= 2;
    }
    // Layers 8, 4, 2 apart, inside each pair of registers.
    for m in 0..VECS / 2 {
        let (a, b) = swap128(v[2 * m], v[2 * m + 1]);
        let (mut a, mut b) = (a, b);
        let (z, zq) = twiddles(&FWD8[m]);
        ct(&mut a, &mut b, z, zq);
        let (mut a, mut b) = swap64(a, b);
        let (z, zq) = twiddles(&FWD4[m]);
        ct(&mut a, &mut b, z, zq);
        let (mut a, mut b) = swap32(a, b);
        let (z, zq) = twiddles(&FWD2[m]);
        ct(&mut a, &mut b, z, zq);
        let (a, b) = swap32(a, b);
        let (a, b) = swap64(a, b);
        let (a, b) = swap128(a, b);
        v[2 * m] = barrett(a);
        v[2 * m + 1] = barrett(b);
    }
    store(&v, p);
}

/// NTT^−1 (FIPS 203 Algorithm 10) times R, as `portable::inv_ntt`: coefficients in `-8q..8q`
/// in, `-q..q` out.
pub(crate) fn inv_ntt(token: Avx2, p: &mut Poly) {
    // SAFETY: the `Avx2` token proves AVX2 was detected.
    unsafe { inv_ntt_avx2(token, p) }
}

#[target_feature(enable = "avx2")]
fn inv_ntt_avx2(_: Avx2, p: &mut Poly) {
    let mut v = load(p);
    // Layers 2, 4, 8 apart, inside each pair of registers.
    for m in 0..VECS / 2 {
        let (a, b) = swap128(barrett(v[2 * m]), barrett(v[2 * m + 1]));
        let (a, b) = swap64(a, b);
        let (mut a, mut b) = swap32(a, b);
        let (z, zq) = twiddles(&INV2[m]);
        gs(&mut a, &mut b, z, zq);
        let (mut a, mut b) = swap32(a, b);
        let (z, zq) = twiddles(&INV4[m]);
        gs(&mut a, &mut b, z, zq);
        let (mut a, mut b) = swap64(a, b);
        let (z, zq) = twiddles(&INV8[m]);
        gs(&mut a, &mut b, z, zq);
        let (a, b) = swap128(a, b);
        v[2 * m] = a;
        v[2 * m + 1] = b;
    }
    // Layers 16, 32, 64, 128 apart: block i of the layer `len` apart uses ZETAS[N/len − 1 − i].
    let mut step = 1;
    while step < VECS {
        for (block, start) in (0..VECS).step_by(2 * step).enumerate() {
            let (z, zq) = broadcast(N / (16 * step) - 1 - block);
            for j in start..start + step {
                let (lo, hi) = v.split_at_mut(j + step);
                gs(&mut lo[j], &mut hi[0], z, zq);
            }
        }
        step *= 2;
    }
    let (z, zq) =
        (_mm256_set1_epi16(INV_NTT_SCALE), _mm256_set1_epi16(INV_NTT_SCALE.wrapping_mul(QINV)));
    for x in &mut v {
        *x = fqmul(*x, z, zq);
    }
    store(&v, p);
}

/// `acc += a ∘ b · R^−1`, as `portable::basemul_acc` (each call adds less than q in absolute
/// value to each coefficient).
pub(crate) fn basemul_acc(token: Avx2, acc: &mut Poly, a: &Poly, b: &Poly) {
    // SAFETY: the `Avx2` token proves AVX2 was detected.
    unsafe { basemul_acc_avx2(token, acc, a, b) }
}

#[target_feature(enable = "avx2")]
fn basemul_acc_avx2(_: Avx2, acc: &mut Poly, a: &Poly, b: &Poly) {
    // Swaps the two `i16`s of each 32-bit lane.
    let swap = _mm256_setr_epi8(
        2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9,
        14, 15, 12, 13,
    );
    let q = _mm256_set1_epi16(Q);
    let qinv = _mm256_set1_epi16(QINV);
    for (i, out) in acc.0.chunks_exact_mut(16).enumerate() {
        let x = load16(&a.0[16 * i..]);
        let y = load16(&b.0[16 * i..]);
        let (z, zq) = twiddles(&BASEMUL[i]);
        // (b₀, b₁ζ) and (b₁, b₀) for each pair.
        let y_zeta = _mm256_blend_epi16::<0xaa>(y, fqmul(y, z, zq));
        let y_swap = _mm256_shuffle_epi8(y, swap);
        // a₀b₀ + a₁b₁ζ and a₀b₁ + a₁b₀ as 32-bit sums, below 2q² in absolute value.
        let even = _mm256_madd_epi16(x, y_zeta);
        let odd = _mm256_madd_epi16(x, y_swap);
        // Montgomery reduction of 32-bit lanes: the high half less the high half of t·q,
        // t = low half · q^−1, which the low half of t·q equals exactly (no borrow).
        let t_even = _mm256_mulhi_epi16(_mm256_mullo_epi16(even, qinv), q);
        let t_odd = _mm256_mulhi_epi16(_mm256_mullo_epi16(odd, qinv), q);
        let r_even = _mm256_sub_epi16(_mm256_srli_epi32::<16>(even), t_even);
        let r_odd = _mm256_sub_epi16(odd, _mm256_slli_epi32::<16>(t_odd));
        let r = _mm256_blend_epi16::<0xaa>(r_even, r_odd);
        let sum = _mm256_add_epi16(load16(out), r);
        // SAFETY: `out` is 16 `i16`s, 32 writable bytes; `storeu` takes any alignment. AVX2
        // is enabled on this function, reached only through the `Avx2` token.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), sum) }
    }
}

/// SampleNTT (FIPS 203 Algorithm 7) of up to four matrix entries at once: `out[k]` from
/// SHAKE128(ρ ‖ `index[k]`). Each entry takes blocks until it is full; when one needs more
/// blocks than the others, the others' sponges run along and their output is ignored. The
/// matrix is public, so the data-dependent loop leaks nothing secret.
pub(crate) fn sample_ntt_x4(token: Avx2, rho: &[u8], index: &[[u8; 2]], out: &mut [Poly]) {
    let suffixes: [&[u8]; 4] = core::array::from_fn(|k| index.get(k).map_or(&[][..], |i| &i[..]));
    let count = index.len().min(out.len()).min(4);
    let mut xof = ShakeX4::<168>::new(token, rho, &suffixes[..count]);
    let mut filled = [0usize; 4];
    let mut blocks = [[0u8; 168]; 4];
    while filled[..count].iter().any(|&n| n < N) {
        xof.squeeze(&mut blocks);
        for ((p, n), block) in out[..count].iter_mut().zip(&mut filled).zip(&blocks) {
            if *n < N {
                *n = rejection_fill(token, block, p, *n);
            }
        }
    }
}

/// For each 8-bit mask of kept values among eight `i16`s, the byte shuffle that moves the
/// kept ones to the front in order.
const COMPACT: [[u8; 16]; 256] = {
    let mut out = [[0x80u8; 16]; 256];
    let mut m = 0;
    while m < 256 {
        let (mut j, mut at) = (0usize, 0);
        while j < 8 {
            if m >> j & 1 == 1 {
                out[m][2 * at] = 2 * j as u8;
                out[m][2 * at + 1] = 2 * j as u8 + 1;
                at += 1;
            }
            j += 1;
        }
        m += 1;
    }
    out
};

/// SampleNTT's rejection loop over one 168-byte block, as `poly::rejection_fill`: sixteen
/// 12-bit values at a time are unpacked, compared with q, and the kept ones of each eight
/// moved to the front by a byte shuffle chosen by their mask ([`COMPACT`]) and stored; the
/// count advances by the mask's population. The last few places are filled by
/// `poly::rejection_fill`. The matrix is public, so indexing by the mask leaks nothing secret.
fn rejection_fill(token: Avx2, block: &[u8; 168], p: &mut Poly, n: usize) -> usize {
    // SAFETY: the `Avx2` token proves AVX2 (with BMI1/BMI2) was detected.
    unsafe { rejection_fill_avx2(token, block, p, n) }
}

#[target_feature(enable = "avx2")]
fn rejection_fill_avx2(_: Avx2, block: &[u8; 168], p: &mut Poly, mut n: usize) -> usize {
    // The loads read 16 bytes from each 12-byte half: pad the block.
    let mut buf = [0u8; 168 + 16];
    buf[..168].copy_from_slice(block);
    let t = &UNPACK[12];
    let shuffle = [load8(&t.shuffle[0]), load8(&t.shuffle[1])];
    let shift = [load8_u32(&t.shift[0]), load8_u32(&t.shift[1])];
    let mask = _mm256_set1_epi32(0xfff);
    let q = _mm256_set1_epi16(Q);
    for r in 0..7 {
        if n + 16 > N {
            return super::poly::rejection_fill(&block[24 * r..], p, n);
        }
        let x = load_halves(&buf, 24 * r, 12);
        let [a, b] = core::array::from_fn(|h| {
            _mm256_and_si256(_mm256_srlv_epi32(_mm256_shuffle_epi8(x, shuffle[h]), shift[h]), mask)
        });
        let x = _mm256_packus_epi32(a, b);
        let keep = _mm256_cmpgt_epi16(q, x);
        let bits = _mm256_movemask_epi8(_mm256_packs_epi16(keep, keep)).cast_unsigned();
        for (half, m) in [
            (_mm256_castsi256_si128(x), bits & 0xff),
            (_mm256_extracti128_si256::<1>(x), bits >> 16 & 0xff),
        ] {
            let kept = _mm_shuffle_epi8(half, load16_u8(&COMPACT[m as usize]));
            let out = &mut p.0[n..n + 8];
            // SAFETY: `out` is 8 `i16`s, 16 writable bytes (indexing checked); `storeu` takes
            // any alignment. AVX2 is enabled on this function, reached only through the token.
            unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), kept) };
            n += m.count_ones() as usize;
        }
    }
    n
}

/// Sixteen bytes of a table into a register.
#[inline]
#[target_feature(enable = "avx2")]
fn load16_u8(b: &[u8; 16]) -> __m128i {
    // SAFETY: `b` is 16 readable bytes; `loadu` takes any alignment. AVX2 is enabled on this
    // function, reached only through the `Avx2` token.
    unsafe { _mm_loadu_si128(b.as_ptr().cast()) }
}

/// SamplePolyCBD_η(PRF_η(`seed`, `nonces[k]`)) (FIPS 203 Algorithm 8, §4.1) into `out[k]` for
/// up to four polynomials at once, the four SHAKE256 sponges side by side: coefficients in
/// `-η..=η`.
pub(crate) fn sample_cbd_x4(
    token: Avx2,
    eta: u32,
    seed: &[u8; 32],
    nonces: &[u8],
    out: &mut [Poly],
) {
    let suffixes: [&[u8]; 4] = core::array::from_fn(|k| nonces.get(k..k + 1).unwrap_or(&[]));
    let count = nonces.len().min(out.len()).min(4);
    let mut prf = ShakeX4::<136>::new(token, seed, &suffixes[..count]);
    // 64·η ≤ 192 bytes: one block (17 lanes) for η = 2, two for η = 3; kept as words, whose
    // wipe is a few stores.
    let mut words = [[0u64; 34]; 4];
    let blocks = if eta <= 2 { 1 } else { 2 };
    for b in 0..blocks {
        prf.permute();
        for (k, w) in words.iter_mut().enumerate() {
            for (word, lane) in w[17 * b..17 * b + 17].iter_mut().zip(&prf.state) {
                *word = lane[k].to_le();
            }
        }
    }
    for (p, w) in out[..count].iter_mut().zip(&words) {
        // SAFETY: `w` is 34 `u64`s, 272 readable bytes, and `u8` has no alignment; the bytes
        // are the words' little-endian encodings (`to_le` above), the SHAKE output stream.
        let bytes: &[u8] = unsafe { core::slice::from_raw_parts(w.as_ptr().cast(), 8 * 34) };
        super::poly::cbd(eta, &bytes[..64 * eta as usize], p);
    }
    words.zeroize();
}

/// Multiplies every coefficient by R (into Montgomery form): `-8q..8q` to `-q..q`.
pub(crate) fn to_mont(token: Avx2, p: &mut Poly) {
    // SAFETY: the `Avx2` token proves AVX2 was detected.
    unsafe { to_mont_avx2(token, p) }
}

#[target_feature(enable = "avx2")]
fn to_mont_avx2(_: Avx2, p: &mut Poly) {
    let (z, zq) = (_mm256_set1_epi16(R2), _mm256_set1_epi16(R2.wrapping_mul(QINV)));
    let mut v = load(p);
    for x in &mut v {
        *x = fqmul(*x, z, zq);
    }
    store(&v, p);
}

/// Barrett-reduces every coefficient.
pub(crate) fn reduce(token: Avx2, p: &mut Poly) {
    // SAFETY: the `Avx2` token proves AVX2 was detected.
    unsafe { reduce_avx2(token, p) }
}

#[target_feature(enable = "avx2")]
fn reduce_avx2(_: Avx2, p: &mut Poly) {
    let mut v = load(p);
    for x in &mut v {
        *x = barrett(*x);
    }
    store(&v, p);
}

/// The byte shuffles and shifts that unpack eight `d`-bit values from the first `d` bytes of
/// a 128-bit lane into 32-bit lanes: `shuffle[h]` gathers the three bytes holding value
/// `4h + j` into 32-bit lane `j` (both 128-bit halves alike), `shift[h]` aligns its bits.
#[derive(Clone, Copy)]
struct Unpack {
    shuffle: [[u8; 32]; 2],
    shift: [[u32; 8]; 2],
}

/// [`Unpack`] for every width `d` in `0..=12` (entry 0 unused).
const UNPACK: [Unpack; 13] = {
    let mut out = [Unpack { shuffle: [[0; 32]; 2], shift: [[0; 8]; 2] }; 13];
    let mut d = 1;
    while d <= 12 {
        let mut h = 0;
        while h < 2 {
            let mut l = 0;
            while l < 8 {
                let bit = (4 * h + l % 4) * d;
                let mut b = 0;
                while b < 4 {
                    // Three bytes cover the at most 7 + 12 bits; the fourth is zero.
                    out[d].shuffle[h][4 * l + b] = if b < 3 { (bit / 8 + b) as u8 } else { 0x80 };
                    b += 1;
                }
                out[d].shift[h][l] = (bit % 8) as u32;
                l += 1;
            }
            h += 1;
        }
        d += 1;
    }
    out
};

/// Thirty-two bytes from `b[at..at + 32]`, the first half from `at`, the second from
/// `at + d`.
#[inline]
#[target_feature(enable = "avx2")]
fn load_halves(b: &[u8], at: usize, d: usize) -> __m256i {
    let (lo, hi) = (&b[at..at + 16], &b[at + d..at + d + 16]);
    // SAFETY: both slices have 16 readable bytes (indexing checked); `loadu` takes any
    // alignment. AVX2 is enabled on this function, reached only through the `Avx2` token.
    unsafe { _mm256_loadu2_m128i(hi.as_ptr().cast(), lo.as_ptr().cast()) }
}

/// ByteDecode_d (FIPS 203 Algorithm 6) without a reduction, `d` ≤ 12: the 256 values packed
/// in `input` (`32·d` bytes), sixteen per register. Each 128-bit lane takes eight values from
/// `d` bytes: two byte shuffles put each value's three bytes in a 32-bit lane, a variable
/// shift and a mask extract it, and an unsigned pack joins the halves back in order.
#[inline]
#[target_feature(enable = "avx2")]
fn unpack(input: &[u8], d: usize) -> [__m256i; VECS] {
    // Loads read up to 16 bytes past a value's first byte: copy into a padded buffer.
    let mut buf = [0u8; 384 + 16];
    buf[..32 * d].copy_from_slice(&input[..32 * d]);
    let t = &UNPACK[d];
    let shuffle = [load8(&t.shuffle[0]), load8(&t.shuffle[1])];
    let shift = [load8_u32(&t.shift[0]), load8_u32(&t.shift[1])];
    let mask = _mm256_set1_epi32((1 << d) - 1);
    core::array::from_fn(|r| {
        let x = load_halves(&buf, 2 * d * r, d);
        let [a, b] = core::array::from_fn(|h| {
            _mm256_and_si256(_mm256_srlv_epi32(_mm256_shuffle_epi8(x, shuffle[h]), shift[h]), mask)
        });
        _mm256_packus_epi32(a, b)
    })
}

/// ByteEncode_d (FIPS 203 Algorithm 5), `d` ≤ 12, of the values in `v` (each below 2^d)
/// into `out[..32·d]`; `out` has 16 bytes of slack after them, which it may overwrite. Pairs
/// of values join by `vpmaddwd` (a + b·2^d), pairs of those by 64-bit shifts, and the two
/// 64-bit halves of each 128-bit lane by a shift across them: each lane then holds its eight
/// values in its first `d` bytes and zeros after, stored `d` bytes apart.
#[inline]
#[target_feature(enable = "avx2")]
fn pack(v: &[__m256i; VECS], d: usize, out: &mut [u8]) {
    let pair = _mm256_set1_epi32(1 | (1 << (16 + d)));
    let two_d = shift_count(2 * d);
    let four_d = shift_count(4 * d);
    let rest = shift_count(64 - 4 * d);
    let zero = _mm256_setzero_si256();
    for (r, x) in v.iter().enumerate() {
        let t = _mm256_madd_epi16(*x, pair);
        let u = _mm256_or_si256(
            _mm256_blend_epi32::<0xaa>(t, zero),
            _mm256_sll_epi64(_mm256_srli_epi64::<32>(t), two_d),
        );
        let upper = _mm256_bsrli_epi128::<8>(u);
        let low = _mm256_or_si256(u, _mm256_sll_epi64(upper, four_d));
        let high = _mm256_bslli_epi128::<8>(_mm256_srl_epi64(upper, rest));
        let w = _mm256_blend_epi32::<0xcc>(low, high);
        let (lo, hi) = (&mut out[2 * d * r..2 * d * r + 16], _mm256_extracti128_si256::<1>(w));
        // SAFETY: `lo` is 16 writable bytes (indexing checked); `storeu` takes any
        // alignment. AVX2 is enabled on this function, reached only through the `Avx2` token.
        unsafe { _mm_storeu_si128(lo.as_mut_ptr().cast(), _mm256_castsi256_si128(w)) };
        let hi_out = &mut out[2 * d * r + d..2 * d * r + d + 16];
        // SAFETY: as above, for `hi_out`.
        unsafe { _mm_storeu_si128(hi_out.as_mut_ptr().cast(), hi) };
    }
}

/// Thirty-two bytes of a table into a register.
#[inline]
#[target_feature(enable = "avx2")]
fn load8(b: &[u8; 32]) -> __m256i {
    // SAFETY: `b` is 32 readable bytes; `loadu` takes any alignment. AVX2 is enabled on this
    // function, reached only through the `Avx2` token.
    unsafe { _mm256_loadu_si256(b.as_ptr().cast()) }
}

/// Eight `u32`s of a table into a register.
#[inline]
#[target_feature(enable = "avx2")]
fn load8_u32(w: &[u32; 8]) -> __m256i {
    // SAFETY: `w` is 32 readable bytes; `loadu` takes any alignment. AVX2 is enabled on this
    // function, reached only through the `Avx2` token.
    unsafe { _mm256_loadu_si256(w.as_ptr().cast()) }
}

/// A shift count for the `vpsll`/`vpsrl` forms that take it in a register.
#[inline]
#[target_feature(enable = "avx2")]
fn shift_count(n: usize) -> __m128i {
    _mm_cvtsi32_si128(i32::try_from(n).unwrap_or(i32::MAX))
}

/// Lane-wise representative in `0..q` of a coefficient in `-q..q`.
#[inline]
#[target_feature(enable = "avx2")]
fn to_unsigned(x: __m256i) -> __m256i {
    _mm256_add_epi16(x, _mm256_and_si256(_mm256_srai_epi16::<15>(x), _mm256_set1_epi16(Q)))
}

/// Compress_d, lane-wise, of coefficients in `-q..q`: `poly::compress` on 32-bit lanes (a
/// multiplication by ⌈2^21/q⌉, a shift and a masked correction, no division).
#[inline]
#[target_feature(enable = "avx2")]
fn compress(x: __m256i, d: usize) -> __m256i {
    let count = shift_count(d);
    let half_q = _mm256_set1_epi32(i32::from(Q >> 1));
    let q = _mm256_set1_epi32(i32::from(Q));
    let reciprocal = _mm256_set1_epi32(super::poly::RECIPROCAL.cast_signed());
    let x = to_unsigned(x);
    let zero = _mm256_setzero_si256();
    let [lo, hi] = [_mm256_unpacklo_epi16(x, zero), _mm256_unpackhi_epi16(x, zero)].map(|x| {
        let n = _mm256_add_epi32(_mm256_sll_epi32(x, count), half_q);
        let t = _mm256_srli_epi32::<21>(_mm256_mullo_epi32(n, reciprocal));
        let r = _mm256_sub_epi32(n, _mm256_mullo_epi32(t, q));
        _mm256_add_epi32(t, _mm256_srai_epi32::<31>(r))
    });
    _mm256_and_si256(_mm256_packus_epi32(lo, hi), _mm256_set1_epi16((1 << d) - 1))
}

/// Decompress_d, lane-wise, of values below 2^d: `⌊(y·q + 2^(d−1)) / 2^d⌋` is `vpmulhrsw` of
/// `y·2^(15−d)` (below 2^15) by q, exactly.
#[inline]
#[target_feature(enable = "avx2")]
fn decompress(y: __m256i, d: usize) -> __m256i {
    let y = _mm256_sll_epi16(y, shift_count(15 - d));
    _mm256_mulhrs_epi16(y, _mm256_set1_epi16(Q))
}

/// ByteEncode_12 of a polynomial with coefficients in `-q..q`, as `poly::encode12`.
pub(crate) fn encode12(token: Avx2, p: &Poly, out: &mut [u8]) {
    // SAFETY: the `Avx2` token proves AVX2 was detected.
    unsafe { encode12_avx2(token, p, out) }
}

#[target_feature(enable = "avx2")]
fn encode12_avx2(_: Avx2, p: &Poly, out: &mut [u8]) {
    let v = load(p).map(|x| to_unsigned(x));
    let mut buf = [0u8; 384 + 16];
    pack(&v, 12, &mut buf);
    out[..384].copy_from_slice(&buf[..384]);
}

/// ByteDecode_12 with the reduction modulo q, as `poly::decode12`: coefficients in `0..q`.
pub(crate) fn decode12(token: Avx2, input: &[u8], p: &mut Poly) {
    // SAFETY: the `Avx2` token proves AVX2 was detected.
    unsafe { decode12_avx2(token, input, p) }
}

#[target_feature(enable = "avx2")]
fn decode12_avx2(_: Avx2, input: &[u8], p: &mut Poly) {
    let q = _mm256_set1_epi16(Q);
    let v = unpack(input, 12).map(|x| {
        let x = _mm256_sub_epi16(x, q);
        _mm256_add_epi16(x, _mm256_and_si256(_mm256_srai_epi16::<15>(x), q))
    });
    store(&v, p);
}

/// Whether every 12-bit value of the encoded polynomials in `input` is below q, as
/// `poly::all_below_q` (public data).
pub(crate) fn all_below_q(token: Avx2, input: &[u8]) -> bool {
    // SAFETY: the `Avx2` token proves AVX2 was detected.
    unsafe { all_below_q_avx2(token, input) }
}

#[target_feature(enable = "avx2")]
fn all_below_q_avx2(_: Avx2, input: &[u8]) -> bool {
    let q = _mm256_set1_epi16(Q);
    let mut below = _mm256_set1_epi16(-1);
    for chunk in input.chunks(384) {
        if chunk.len() != 384 {
            return super::poly::all_below_q(input);
        }
        for x in unpack(chunk, 12) {
            below = _mm256_and_si256(below, _mm256_cmpgt_epi16(q, x));
        }
    }
    _mm256_movemask_epi8(below) == -1
}

/// Compress_d then ByteEncode_d of a polynomial with coefficients in `-q..q`, as
/// `poly::compress_encode`, into `out[..32·d]` (`d` ≤ 11); `out` has 16 bytes of slack after
/// them.
pub(crate) fn compress_encode(token: Avx2, p: &Poly, d: u32, out: &mut [u8]) {
    // SAFETY: the `Avx2` token proves AVX2 was detected.
    unsafe { compress_encode_avx2(token, p, d as usize, out) }
}

#[target_feature(enable = "avx2")]
fn compress_encode_avx2(_: Avx2, p: &Poly, d: usize, out: &mut [u8]) {
    let v = load(p).map(|x| compress(x, d));
    pack(&v, d, out);
}

/// ByteDecode_d then Decompress_d, as `poly::decode_decompress` (`d` ≤ 11): coefficients in
/// `0..q`.
pub(crate) fn decode_decompress(token: Avx2, input: &[u8], d: u32, p: &mut Poly) {
    // SAFETY: the `Avx2` token proves AVX2 was detected.
    unsafe { decode_decompress_avx2(token, input, d as usize, p) }
}

#[target_feature(enable = "avx2")]
fn decode_decompress_avx2(_: Avx2, input: &[u8], d: usize, p: &mut Poly) {
    let v = unpack(input, d).map(|y| decompress(y, d));
    store(&v, p);
}

#[cfg(test)]
mod tests {
    use super::super::portable;
    use super::*;

    fn modq(x: i16) -> i16 {
        x.rem_euclid(Q)
    }

    /// A pseudorandom polynomial with coefficients in `-bound..bound`.
    fn poly(seed: u32, bound: i16) -> Poly {
        let span = u32::from(bound.unsigned_abs()) * 2 - 1;
        let mut s = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
        Poly(core::array::from_fn(|_| {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            i16::try_from(i32::try_from(s % span).unwrap() - i32::from(bound) + 1).unwrap()
        }))
    }

    fn assert_congruent(got: &Poly, want: &Poly, bound: i16, what: &str) {
        for (i, (g, w)) in got.0.iter().zip(&want.0).enumerate() {
            assert!(g.abs() < bound, "{what}: coefficient {i} = {g} out of range");
            assert_eq!(modq(*g), modq(*w), "{what}: coefficient {i}");
        }
    }

    #[test]
    fn barrett_range_and_residue() {
        let Some(token) = Avx2::get() else { return };
        for chunk in (i16::MIN..=i16::MAX).collect::<std::vec::Vec<_>>().chunks(N) {
            let mut p = Poly(chunk.try_into().unwrap());
            reduce(token, &mut p);
            for (r, a) in p.0.iter().zip(chunk) {
                assert!(r.abs() <= (Q + 1) / 2, "{a} -> {r}");
                assert_eq!(modq(*r), modq(*a));
            }
        }
    }

    /// Every function agrees with `portable` modulo q and keeps to the same output ranges.
    #[test]
    fn agrees_with_portable() {
        let Some(token) = Avx2::get() else { return };
        for seed in 0..200 {
            let a = poly(seed, Q);
            let (mut ours, mut theirs) = (a.clone(), a.clone());
            ntt(token, &mut ours);
            portable::ntt(&mut theirs);
            assert_congruent(&ours, &theirs, Q, "ntt");

            let b = poly(seed + 1000, Q);
            let mut ours = poly(seed + 2000, 4 * Q);
            let mut theirs = ours.clone();
            basemul_acc(token, &mut ours, &a, &b);
            portable::basemul_acc(&mut theirs, &a, &b);
            assert_congruent(&ours, &theirs, 5 * Q, "basemul_acc");

            let c = poly(seed + 3000, 8 * Q);
            let (mut ours, mut theirs) = (c.clone(), c.clone());
            inv_ntt(token, &mut ours);
            portable::inv_ntt(&mut theirs);
            assert_congruent(&ours, &theirs, Q, "inv_ntt");

            let (mut ours, mut theirs) = (c.clone(), c.clone());
            to_mont(token, &mut ours);
            portable::to_mont(&mut theirs);
            assert_congruent(&ours, &theirs, Q, "to_mont");
        }
    }

    /// Four-way SampleNTT gives what the one-at-a-time sampler gives, for one to four entries.
    #[test]
    fn sample_ntt_x4_matches_sample_ntt() {
        let Some(token) = Avx2::get() else { return };
        let keccak = <core_hash::KeccakImpl as core_hash::Implementation>::best();
        let rho: [u8; 32] = core::array::from_fn(|i| i as u8 * 7);
        let index = [[0, 0], [1, 0], [0, 2], [3, 1]];
        for count in 1..=4 {
            let mut ours: [Poly; 4] = core::array::from_fn(|_| Poly::ZERO);
            sample_ntt_x4(token, &rho, &index[..count], &mut ours[..count]);
            for (k, [a, b]) in index[..count].iter().enumerate() {
                let mut want = Poly::ZERO;
                super::super::poly::sample_ntt(keccak, &rho, *a, *b, &mut want);
                assert_eq!(ours[k].0, want.0, "entry {k} of {count}");
            }
        }
    }

    /// Four-way noise sampling gives what the one-at-a-time sampler gives, for both η and one
    /// to four polynomials.
    #[test]
    fn sample_cbd_x4_matches_sample_cbd() {
        let Some(token) = Avx2::get() else { return };
        let keccak = <core_hash::KeccakImpl as core_hash::Implementation>::best();
        let seed: [u8; 32] = core::array::from_fn(|i| (i * 13 + 5) as u8);
        let nonces = [0, 7, 200, 255];
        for eta in [2, 3] {
            for count in 1..=4 {
                let mut ours: [Poly; 4] = core::array::from_fn(|_| Poly::ZERO);
                sample_cbd_x4(token, eta, &seed, &nonces[..count], &mut ours[..count]);
                for (k, nonce) in nonces[..count].iter().enumerate() {
                    let mut want = Poly::ZERO;
                    super::super::poly::sample_cbd(keccak, eta, &seed, *nonce, &mut want);
                    assert_eq!(ours[k].0, want.0, "eta {eta}, entry {k} of {count}");
                }
            }
        }
    }

    /// The encodings agree with `poly`'s byte for byte: Compress_d of every coefficient in
    /// `-q..q` for every width, and decoding of pseudorandom bytes (12-bit values from q up
    /// included).
    #[test]
    fn encodings_agree_with_poly() {
        use super::super::poly;
        let Some(token) = Avx2::get() else { return };
        for d in [1u32, 4, 5, 10, 11] {
            let len = 32 * d as usize;
            for start in (-Q..Q).step_by(N) {
                let p =
                    Poly(core::array::from_fn(|i| (start + i16::try_from(i).unwrap()).min(Q - 1)));
                let mut ours = [0u8; 32 * 11 + 16];
                compress_encode(token, &p, d, &mut ours);
                let mut want = [0u8; 32 * 11];
                poly::compress_encode(&p, d, |k, b| want[k..k + b.len()].copy_from_slice(b));
                assert_eq!(ours[..len], want[..len], "compress_encode, d = {d}, from {start}");
            }
        }
        for seed in 0..50u32 {
            let bytes: [u8; 384] = core::array::from_fn(|i| {
                (seed.wrapping_mul(2_654_435_761) ^ (i as u32).wrapping_mul(40_503)) as u8
            });
            for d in [1u32, 4, 5, 10, 11] {
                let input = &bytes[..32 * d as usize];
                let (mut ours, mut want) = (Poly::ZERO, Poly::ZERO);
                decode_decompress(token, input, d, &mut ours);
                poly::decode_decompress(input, d, &mut want);
                assert_eq!(ours.0, want.0, "decode_decompress, d = {d}, seed {seed}");
            }
            let (mut ours, mut want) = (Poly::ZERO, Poly::ZERO);
            decode12(token, &bytes, &mut ours);
            poly::decode12(&bytes, &mut want);
            assert_eq!(ours.0, want.0, "decode12, seed {seed}");
            assert_eq!(all_below_q(token, &bytes), poly::all_below_q(&bytes), "seed {seed}");

            let p = poly(seed, Q);
            let (mut ours, mut want) = ([0u8; 384], [0u8; 384]);
            encode12(token, &p, &mut ours);
            poly::encode12(&p, &mut want);
            assert_eq!(ours, want, "encode12, seed {seed}");
            let mut back = Poly::ZERO;
            decode12(token, &ours, &mut back);
            assert!(all_below_q(token, &ours));
            assert_congruent(&back, &p, Q, "decode12(encode12)");
        }
        // A value of q or more at any position fails the modulus check.
        for at in 0..N {
            let mut bytes = [0u8; 384];
            poly::encode_with(12, &mut bytes, |i| {
                if i == at { 3329 + (at as u16 % 767) } else { 3328 }
            });
            assert!(!all_below_q(token, &bytes), "value q+ at {at}");
        }
    }

    /// The extreme inputs each function allows stay in range (no `i16` overflow).
    #[test]
    fn extreme_inputs_stay_in_range() {
        let Some(token) = Avx2::get() else { return };
        for c in [Q - 1, -(Q - 1)] {
            let (mut ours, mut theirs) = (Poly([c; N]), Poly([c; N]));
            ntt(token, &mut ours);
            portable::ntt(&mut theirs);
            assert_congruent(&ours, &theirs, Q, "ntt of extremes");
            let (mut ours, mut theirs) = (Poly([8 * c; N]), Poly([8 * c; N]));
            inv_ntt(token, &mut ours);
            portable::inv_ntt(&mut theirs);
            assert_congruent(&ours, &theirs, Q, "inv_ntt of extremes");
            let (x, mut ours, mut theirs) = (Poly([c; N]), Poly([4 * c; N]), Poly([4 * c; N]));
            basemul_acc(token, &mut ours, &x, &x);
            portable::basemul_acc(&mut theirs, &x, &x);
            assert_congruent(&ours, &theirs, 5 * Q, "basemul_acc of extremes");
        }
    }
}
