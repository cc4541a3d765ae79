//! `x86_avx2`: ML-DSA's ring arithmetic eight coefficients at a time, one `i32` per lane of a
//! 256-bit register, for x86-64 CPUs with AVX2.
//!
//! The arithmetic is `portable`'s, operation for operation, so every output is the same
//! `i32` as `portable`'s (the tests compare them exactly). A 32-bit Montgomery product is the
//! Dilithium AVX2 technique: `vpmuldq` multiplies the even lanes into 64-bit products, and the
//! odd lanes after a 32-bit shift; t = (a·b mod 2^32)·q^−1 is one more `vpmuldq` on the low
//! half of each product, and the result is the high half of a·b − t·q (whose low half is
//! zero), the even and odd results blended back into one register.
//!
//! The NTT keeps the standard coefficient order in and out, as ML-KEM's AVX2 NTT does. Its
//! first five layers (butterflies 128 to 8 apart) pair whole registers; the last three pair
//! coefficients inside one register, so each pair of registers is first transposed by 128-,
//! 64- and then 32-bit blocks (`vperm2i128`, `vpunpck[lh]qdq`, shift and `vpblendd`), which
//! puts partners in the same lane of two registers, and transposed back after the last
//! layer; each transposition is its own inverse. The twiddles of the transposed layers are
//! laid out lane by lane at compile time.
//!
//! Nothing branches on or indexes by a coefficient, and nothing divides.

use super::poly::{N, Poly, Q, bounded_fill, rejection_fill};
use super::portable::{F, QINV, ZETAS};
use crate::shake::{KeccakX4, ShakeX4, ShakeX8, Sponges};
use crate::x86_avx2::{swap32, swap64, swap128};
use core::arch::x86_64::{
    __m256i, _mm_cvtsi64_si128, _mm_loadu_si128, _mm256_add_epi32, _mm256_and_si256,
    _mm256_blend_epi32, _mm256_castsi128_si256, _mm256_castsi256_ps, _mm256_cmpgt_epi32,
    _mm256_cvtepu8_epi32, _mm256_inserti128_si256, _mm256_loadu_si256, _mm256_movemask_ps,
    _mm256_mul_epi32, _mm256_permute4x64_epi64, _mm256_permutevar8x32_epi32, _mm256_set1_epi32,
    _mm256_setr_epi8, _mm256_setr_epi32, _mm256_shuffle_epi8, _mm256_slli_epi32, _mm256_srai_epi32,
    _mm256_srli_epi64, _mm256_srlv_epi32, _mm256_storeu_si256, _mm256_sub_epi32, _mm256_sub_epi64,
};
use core_cpu::{Avx2, Avx512};

/// Registers per polynomial.
const VECS: usize = N / 8;

/// A multiplier for [`montmul`]: the value and the value times q^−1 mod 2^32, lane by lane.
#[derive(Clone, Copy)]
struct Twiddles {
    z: [i32; 8],
    zq: [i32; 8],
}

/// The coefficient whose twiddle lane `l` of the first operand carries, in the layer whose
/// butterflies are `len` apart (4, 2 or 1), for the pair of registers `m` (coefficients
/// 16m..16m + 16) after the transpositions described in the module docs.
const fn lane_coefficient(len: usize, m: usize, l: usize) -> usize {
    let (h, i) = (l / 4, l % 4);
    let offset = match len {
        // [a0..a3 | a8..a11]
        4 => i,
        // [a0 a1 a4 a5 | a8 a9 a12 a13]
        2 => 4 * (i / 2) + i % 2,
        // [a0 a2 a4 a6 | a8 a10 a12 a14]
        _ => 2 * i,
    };
    16 * m + 8 * h + offset
}

/// The twiddles of the transposed layer `len` for each pair of registers: the forward NTT's
/// ζ of the butterfly block each lane is in (block b of the layer uses `ZETAS[N/(2·len) + b]`),
/// or the inverse's −ζ (`ZETAS[N/len − 1 − b]`), as `portable` takes them.
const fn transposed_twiddles(len: usize, inverse: bool) -> [Twiddles; VECS / 2] {
    let mut out = [Twiddles { z: [0; 8], zq: [0; 8] }; VECS / 2];
    let mut m = 0;
    while m < VECS / 2 {
        let mut l = 0;
        while l < 8 {
            let block = lane_coefficient(len, m, l) / (2 * len);
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

const FWD4: [Twiddles; VECS / 2] = transposed_twiddles(4, false);
const FWD2: [Twiddles; VECS / 2] = transposed_twiddles(2, false);
const FWD1: [Twiddles; VECS / 2] = transposed_twiddles(1, false);
const INV4: [Twiddles; VECS / 2] = transposed_twiddles(4, true);
const INV2: [Twiddles; VECS / 2] = transposed_twiddles(2, true);
const INV1: [Twiddles; VECS / 2] = transposed_twiddles(1, true);

/// Loads a polynomial into registers.
#[inline]
#[target_feature(enable = "avx2")]
fn load(p: &Poly) -> [__m256i; VECS] {
    core::array::from_fn(|i| load8(p.0[8 * i..8 * i + 8].try_into().unwrap_or(&[0; 8])))
}

/// Stores registers into a polynomial.
#[inline]
#[target_feature(enable = "avx2")]
fn store(v: &[__m256i; VECS], p: &mut Poly) {
    for (out, x) in p.0.chunks_exact_mut(8).zip(v) {
        // SAFETY: `out` is eight `i32`s, 32 writable bytes; `storeu` takes any alignment.
        // AVX2 is enabled on this function, reached only through the `Avx2` token.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), *x) }
    }
}

/// Eight `i32`s into a register.
#[inline]
#[target_feature(enable = "avx2")]
fn load8(s: &[i32; 8]) -> __m256i {
    // SAFETY: `s` is 32 readable bytes; `loadu` takes any alignment. AVX2 is enabled on this
    // function, reached only through the `Avx2` token.
    unsafe { _mm256_loadu_si256(s.as_ptr().cast()) }
}

/// A lane-by-lane table as registers.
#[inline]
#[target_feature(enable = "avx2")]
fn twiddles(t: &Twiddles) -> (__m256i, __m256i) {
    (load8(&t.z), load8(&t.zq))
}

/// One multiplier in every lane.
#[inline]
#[target_feature(enable = "avx2")]
fn broadcast(z: i32) -> (__m256i, __m256i) {
    (_mm256_set1_epi32(z), _mm256_set1_epi32(z.wrapping_mul(QINV)))
}

/// The high halves of the 64-bit lanes of `even` and of `odd`, as the even and the odd lanes
/// of one register.
#[inline]
#[target_feature(enable = "avx2")]
fn high_halves(even: __m256i, odd: __m256i) -> __m256i {
    _mm256_blend_epi32::<0xaa>(_mm256_srli_epi64::<32>(even), odd)
}

/// `portable::montgomery_reduce(a·z)` in each lane, with `zq` = z·q^−1 mod 2^32 lane by lane.
#[inline]
#[target_feature(enable = "avx2")]
fn montmul(a: __m256i, z: __m256i, zq: __m256i) -> __m256i {
    let q = _mm256_set1_epi32(Q);
    let (a_odd, z_odd, zq_odd) =
        (_mm256_srli_epi64::<32>(a), _mm256_srli_epi64::<32>(z), _mm256_srli_epi64::<32>(zq));
    let even = _mm256_mul_epi32(a, z);
    let odd = _mm256_mul_epi32(a_odd, z_odd);
    let t_even = _mm256_mul_epi32(_mm256_mul_epi32(a, zq), q);
    let t_odd = _mm256_mul_epi32(_mm256_mul_epi32(a_odd, zq_odd), q);
    high_halves(_mm256_sub_epi64(even, t_even), _mm256_sub_epi64(odd, t_odd))
}

/// `portable::montgomery_reduce(a·b)` in each lane, for two variable operands: t is the low
/// half of each product times q^−1.
#[inline]
#[target_feature(enable = "avx2")]
fn montmul_var(a: __m256i, b: __m256i) -> __m256i {
    let (q, qinv) = (_mm256_set1_epi32(Q), _mm256_set1_epi32(QINV));
    let even = _mm256_mul_epi32(a, b);
    let odd = _mm256_mul_epi32(_mm256_srli_epi64::<32>(a), _mm256_srli_epi64::<32>(b));
    let t_even = _mm256_mul_epi32(_mm256_mul_epi32(even, qinv), q);
    let t_odd = _mm256_mul_epi32(_mm256_mul_epi32(odd, qinv), q);
    high_halves(_mm256_sub_epi64(even, t_even), _mm256_sub_epi64(odd, t_odd))
}

/// `portable::reduce32` in each lane: a − ⌊(a + 2^22)/2^23⌋·q, with t·q as
/// t·2^23 − t·2^13 + t.
#[inline]
#[target_feature(enable = "avx2")]
fn reduce32(a: __m256i) -> __m256i {
    let t = _mm256_srai_epi32::<23>(_mm256_add_epi32(a, _mm256_set1_epi32(1 << 22)));
    let tq = _mm256_sub_epi32(_mm256_slli_epi32::<23>(t), _mm256_slli_epi32::<13>(t));
    _mm256_sub_epi32(a, _mm256_add_epi32(tq, t))
}

/// The forward (Cooley–Tukey) butterfly: (a + ζb, a − ζb).
#[inline]
#[target_feature(enable = "avx2")]
fn ct(a: __m256i, b: __m256i, z: __m256i, zq: __m256i) -> (__m256i, __m256i) {
    let t = montmul(b, z, zq);
    (_mm256_add_epi32(a, t), _mm256_sub_epi32(a, t))
}

/// The inverse (Gentleman–Sande) butterfly: (a + b, −ζ(a − b)), with −ζ in `z`.
#[inline]
#[target_feature(enable = "avx2")]
fn gs(a: __m256i, b: __m256i, z: __m256i, zq: __m256i) -> (__m256i, __m256i) {
    (_mm256_add_epi32(a, b), montmul(_mm256_sub_epi32(a, b), z, zq))
}

/// The NTT (FIPS 204 Algorithm 41), in place; the same output as `portable::ntt`.
pub(crate) fn ntt(token: Avx2, p: &mut Poly) {
    // SAFETY: the `Avx2` token proves AVX2 was detected.
    unsafe { ntt_avx2(token, p) }
}

#[target_feature(enable = "avx2")]
fn ntt_avx2(_: Avx2, p: &mut Poly) {
    let mut v = load(p);
    let mut k = 0;
    // Layers 128 to 8 apart: `len` registers.
    let mut len = VECS / 2;
    while len >= 1 {
        for start in (0..VECS).step_by(2 * len) {
            k += 1;
            let (z, zq) = broadcast(ZETAS[k]);
            for j in start..start + len {
                (v[j], v[j + len]) = ct(v[j], v[j + len], z, zq);
            }
        }
        len /= 2;
    }
    // Layers 4, 2 and 1 apart, inside each pair of registers.
    for m in 0..VECS / 2 {
        let (a, b) = swap128(v[2 * m], v[2 * m + 1]);
        let (a, b) = ct(a, b, twiddles(&FWD4[m]).0, twiddles(&FWD4[m]).1);
        let (a, b) = swap64(a, b);
        let (a, b) = ct(a, b, twiddles(&FWD2[m]).0, twiddles(&FWD2[m]).1);
        let (a, b) = swap32(a, b);
        let (a, b) = ct(a, b, twiddles(&FWD1[m]).0, twiddles(&FWD1[m]).1);
        let (a, b) = swap32(a, b);
        let (a, b) = swap64(a, b);
        (v[2 * m], v[2 * m + 1]) = swap128(a, b);
    }
    store(&v, p);
}

/// The inverse NTT (FIPS 204 Algorithm 42) times R, in place; the same output as
/// `portable::inv_ntt`.
pub(crate) fn inv_ntt(token: Avx2, p: &mut Poly) {
    // SAFETY: the `Avx2` token proves AVX2 was detected.
    unsafe { inv_ntt_avx2(token, p) }
}

#[target_feature(enable = "avx2")]
fn inv_ntt_avx2(_: Avx2, p: &mut Poly) {
    let mut v = load(p);
    for x in &mut v {
        *x = reduce32(*x);
    }
    // Layers 1, 2 and 4 apart, inside each pair of registers.
    for m in 0..VECS / 2 {
        let (a, b) = swap128(v[2 * m], v[2 * m + 1]);
        let (a, b) = swap64(a, b);
        let (a, b) = swap32(a, b);
        let (a, b) = gs(a, b, twiddles(&INV1[m]).0, twiddles(&INV1[m]).1);
        let (a, b) = swap32(a, b);
        let (a, b) = gs(a, b, twiddles(&INV2[m]).0, twiddles(&INV2[m]).1);
        let (a, b) = swap64(a, b);
        let (a, b) = gs(a, b, twiddles(&INV4[m]).0, twiddles(&INV4[m]).1);
        (v[2 * m], v[2 * m + 1]) = swap128(a, b);
    }
    // Layers 8 to 128 apart: `len` registers; block b of each uses −ZETAS[N/(8·len) − 1 − b].
    let mut len = 1;
    while len < VECS {
        for (b, start) in (0..VECS).step_by(2 * len).enumerate() {
            let (z, zq) = broadcast(-ZETAS[N / (8 * len) - 1 - b]);
            for j in start..start + len {
                (v[j], v[j + len]) = gs(v[j], v[j + len], z, zq);
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
pub(crate) fn pointwise_acc(token: Avx2, acc: &mut Poly, a: &Poly, b: &Poly) {
    // SAFETY: the `Avx2` token proves AVX2 was detected.
    unsafe { pointwise_acc_avx2(token, acc, a, b) }
}

#[target_feature(enable = "avx2")]
fn pointwise_acc_avx2(_: Avx2, acc: &mut Poly, a: &Poly, b: &Poly) {
    for ((c, x), y) in acc.0.chunks_exact_mut(8).zip(a.0.chunks_exact(8)).zip(b.0.chunks_exact(8)) {
        let load = |s: &[i32]| load8(s.try_into().unwrap_or(&[0; 8]));
        let sum = _mm256_add_epi32(load(c), montmul_var(load(x), load(y)));
        // SAFETY: `c` is eight `i32`s, 32 writable bytes; `storeu` takes any alignment. AVX2
        // is enabled on this function, reached only through the `Avx2` token.
        unsafe { _mm256_storeu_si256(c.as_mut_ptr().cast(), sum) }
    }
}

/// Runs `f`, a loop over coefficients that `dsa` hands over (the reductions, Decompose, the
/// norm checks and the hints, written once in `poly`), compiled with AVX2 enabled: the loop
/// vectorizes to eight lanes per instruction (`vpmulld`, shifts, masks), and the results are
/// `portable`'s by construction, being the same code.
#[inline]
pub(crate) fn vectorized<R>(token: Avx2, f: impl FnOnce() -> R) -> R {
    // SAFETY: the `Avx2` token proves AVX2 was detected.
    unsafe { vectorized_avx2(token, f) }
}

#[target_feature(enable = "avx2")]
fn vectorized_avx2<R>(_: Avx2, f: impl FnOnce() -> R) -> R {
    f()
}

/// [`vectorized`](fn@vectorized) with AVX-512 (F, BW, DQ, VL) enabled: the same loops on sixteen lanes per
/// instruction, for CPUs with full-width 512-bit units; the same code, so the same results.
#[inline]
pub(crate) fn vectorized_512<R>(token: Avx512, f: impl FnOnce() -> R) -> R {
    // SAFETY: the `Avx512` token proves AVX-512F, BW, DQ and VL (and AVX2) were detected.
    unsafe { vectorized_avx512(token, f) }
}

#[target_feature(enable = "avx2,avx512f,avx512bw,avx512dq,avx512vl")]
fn vectorized_avx512<R>(_: Avx512, f: impl FnOnce() -> R) -> R {
    f()
}

/// The many-way Keccak-f the x86 samplers run their sponges on: four-way (AVX2 or
/// AVX-512VL), or eight-way with AVX-512F on 512-bit registers, which runs batches of more
/// than four sponges (ExpandA's matrix, ExpandS, ExpandMask for ℓ > 4) in one pass and
/// smaller ones on the four-way AVX-512VL permutation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Wide {
    /// Four sponges at a time.
    X4(KeccakX4),
    /// Up to eight sponges at a time.
    X8(Avx512),
}

impl Wide {
    /// How many sponges one pass runs.
    pub(crate) const fn width(self) -> usize {
        match self {
            Self::X4(_) => 4,
            Self::X8(_) => 8,
        }
    }
}

/// Runs `f` on the sponges over `prefix ‖ suffixes[k]`, on `keccak`: eight-way if it has it
/// and more than four are asked for, else four-way.
fn with_sponges<const RATE: usize, R>(
    keccak: Wide,
    prefix: &[u8],
    suffixes: &[&[u8]],
    f: impl FnOnce(&mut dyn FnMut(&mut [[u8; RATE]])) -> R,
) -> R {
    match keccak {
        Wide::X8(token) if suffixes.len() > 4 => {
            let mut xof = ShakeX8::<RATE>::new(token, prefix, suffixes);
            f(&mut |out| xof.squeeze_into(out))
        }
        Wide::X8(token) => {
            let mut xof = ShakeX4::<RATE>::new(KeccakX4::Avx512Vl(token), prefix, suffixes);
            f(&mut |out| xof.squeeze_into(out))
        }
        Wide::X4(keccak) => {
            let mut xof = ShakeX4::<RATE>::new(keccak, prefix, &suffixes[..suffixes.len().min(4)]);
            f(&mut |out| xof.squeeze_into(out))
        }
    }
}

/// RejNTTPoly (FIPS 204 Algorithm 30) of up to [`Wide::width`] entries of Â at once:
/// `out[k]` from SHAKE128(ρ ‖ `index[k]`), `index[k]` being \[s, r\] for Â\[r, s\]. Each
/// entry takes blocks until it is full; when one needs more than the others, their sponges
/// run along and their output is ignored. The matrix is public, so the data-dependent loop
/// leaks nothing.
pub(crate) fn sample_uniform_wide(
    token: Avx2,
    keccak: Wide,
    rho: &[u8; 32],
    index: &[[u8; 2]],
    out: &mut [Poly],
) {
    let count = index.len().min(out.len()).min(keccak.width());
    let suffixes: [&[u8]; 8] = core::array::from_fn(|k| index.get(k).map_or(&[][..], |i| &i[..]));
    with_sponges::<168, _>(keccak, rho, &suffixes[..count], |squeeze| {
        let mut filled = [0usize; 8];
        let mut blocks = [[0u8; 168]; 8];
        while filled[..count].iter().any(|&n| n < N) {
            squeeze(&mut blocks[..count]);
            for ((p, n), block) in out[..count].iter_mut().zip(&mut filled).zip(&blocks) {
                if *n < N {
                    // SAFETY: the `Avx2` token proves AVX2 was detected.
                    *n = unsafe { rejection_fill_avx2(token, block, p, *n) };
                }
            }
        }
    });
}

/// For each 8-bit mask of kept lanes, the lane numbers of the kept ones in order (the rest
/// zero), one per byte, for `vpermd`.
const COMPACT: [u64; 256] = {
    let mut out = [0u64; 256];
    let mut m = 0;
    while m < 256 {
        let (mut lane, mut at) = (0u64, 0);
        while lane < 8 {
            if m >> lane & 1 == 1 {
                out[m] |= lane << (8 * at);
                at += 1;
            }
            lane += 1;
        }
        m += 1;
    }
    out
};

/// RejNTTPoly's loop over one 168-byte block, as `poly::rejection_fill`: eight 3-byte
/// candidates at a time are spread one per lane (`vpermq`, `vpshufb`), their top bit masked
/// off, compared with q, and the kept ones moved to the front by `vpermd` with the lane
/// order their mask picks ([`COMPACT`]) and stored; the count advances by the mask's
/// population. The places from the returned count on may hold rejected candidates (the next
/// block overwrites them). The last few places are filled by `poly::rejection_fill`. The
/// matrix is public, so indexing by the mask leaks nothing secret.
#[target_feature(enable = "avx2")]
fn rejection_fill_avx2(_: Avx2, block: &[u8; 168], p: &mut Poly, mut n: usize) -> usize {
    // Each load reads 32 bytes for 24: pad the block.
    let mut buf = [0u8; 168 + 8];
    buf[..168].copy_from_slice(block);
    // Bytes 0..16 in the low half and 8..24 in the high half; then candidate l's three
    // bytes into lane l, the fourth byte zero.
    let spread = _mm256_setr_epi8(
        0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1, 4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12,
        -1, 13, 14, 15, -1,
    );
    let (low23, q) = (_mm256_set1_epi32(0x7f_ffff), _mm256_set1_epi32(Q));
    for g in 0..7 {
        if n + 8 > N {
            return rejection_fill(&block[24 * g..], p, n);
        }
        let bytes: &[u8; 32] = buf[24 * g..24 * g + 32].try_into().unwrap_or(&[0; 32]);
        // SAFETY: `bytes` is 32 readable bytes; `loadu` takes any alignment. AVX2 is enabled
        // on this function, reached only through the `Avx2` token.
        let x = unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) };
        let x = _mm256_shuffle_epi8(_mm256_permute4x64_epi64::<0x94>(x), spread);
        let x = _mm256_and_si256(x, low23);
        let keep = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(q, x)));
        let order = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(
            COMPACT[keep.cast_unsigned() as usize & 0xff].cast_signed(),
        ));
        let out = &mut p.0[n..n + 8];
        // SAFETY: `out` is 8 `i32`s, 32 writable bytes (indexing checked); `storeu` takes any
        // alignment. AVX2 is enabled on this function, reached only through the token.
        unsafe {
            _mm256_storeu_si256(out.as_mut_ptr().cast(), _mm256_permutevar8x32_epi32(x, order));
        }
        n += keep.count_ones() as usize;
    }
    n
}

/// Overwrites secret bytes with zeros: a plain (vectorized) fill that the optimization
/// barrier keeps from being elided. `zeroize`'s volatile store per byte took 6 % of ML-DSA-44
/// signing on ExpandMask's 6.5 KiB of buffers (`perf`).
fn wipe(bytes: &mut [u8]) {
    bytes.fill(0);
    zeroize::optimization_barrier(&*bytes);
}

/// RejBoundedPoly (FIPS 204 Algorithm 31) of up to [`Wide::width`] rows of ExpandS at
/// once, the SHAKE256 sponges side by side: `out[k]` from SHAKE256(ρ′ ‖
/// IntegerToBytes(`r[k]`, 2)), as `poly::sample_bounded` gives it. Lanes squeeze until all
/// are full, so the block count depends only on which half-bytes were rejected, as in
/// `poly::sample_bounded`.
pub(crate) fn sample_bounded_wide(
    keccak: Wide,
    seed: &[u8; 64],
    r: &[u16],
    eta: u32,
    out: &mut [Poly],
) {
    let count = r.len().min(out.len()).min(keccak.width());
    let nonces: [[u8; 2]; 8] =
        core::array::from_fn(|k| r.get(k).copied().unwrap_or(0).to_le_bytes());
    let suffixes: [&[u8]; 8] = core::array::from_fn(|k| &nonces[k][..]);
    with_sponges::<136, _>(keccak, seed, &suffixes[..count], |squeeze| {
        let mut filled = [0usize; 8];
        let mut blocks = [[0u8; 136]; 8];
        while filled[..count].iter().any(|&n| n < N) {
            squeeze(&mut blocks[..count]);
            for ((p, n), block) in out[..count].iter_mut().zip(&mut filled).zip(&blocks) {
                *n = bounded_fill(block, eta, p, *n);
            }
        }
        wipe(blocks[..count].as_flattened_mut());
    });
}

/// ExpandMask's polynomials (FIPS 204 Algorithm 34) for up to [`Wide::width`] counters at
/// once, the SHAKE256 sponges side by side: `out[k]` from SHAKE256(ρ″ ‖
/// IntegerToBytes(`kappa[k]`, 2)), as `poly::expand_mask` gives it, unpacked eight
/// coefficients at a time ([`unpack_mask_avx2`]). The seed is secret; every lane squeezes the
/// same five blocks.
pub(crate) fn expand_mask_wide(
    token: Avx2,
    keccak: Wide,
    seed: &[u8; 64],
    kappa: &[u16],
    gamma1_bits: u32,
    out: &mut [Poly],
) {
    let count = kappa.len().min(out.len()).min(keccak.width());
    let nonces: [[u8; 2]; 8] =
        core::array::from_fn(|k| kappa.get(k).copied().unwrap_or(0).to_le_bytes());
    let suffixes: [&[u8]; 8] = core::array::from_fn(|k| &nonces[k][..]);
    with_sponges::<136, _>(keccak, seed, &suffixes[..count], |squeeze| {
        let mut bytes = [[0u8; 5 * 136]; 8];
        let mut blocks = [[0u8; 136]; 8];
        for at in (0..5 * 136).step_by(136) {
            squeeze(&mut blocks[..count]);
            for (b, block) in bytes.iter_mut().zip(&blocks[..count]) {
                b[at..at + 136].copy_from_slice(block);
            }
        }
        for (p, b) in out[..count].iter_mut().zip(&bytes) {
            // SAFETY: the `Avx2` token proves AVX2 was detected.
            unsafe { unpack_mask_avx2(token, b, gamma1_bits, p) };
        }
        wipe(bytes[..count].as_flattened_mut());
        wipe(blocks[..count].as_flattened_mut());
    });
}

/// BitUnpack(`bytes`, γ₁ − 1, γ₁) (FIPS 204 Algorithm 19) for γ₁ = 2^`gamma1_bits` (17 or
/// 19), as `poly::unpack_signed` gives it: each group of eight (γ₁ + 1)-bit values (18 or 20
/// bytes) is loaded as two 16-byte halves, one per 128-bit lane; `vpshufb` puts the three
/// bytes holding each value in a 32-bit lane, a shift by its bit offset and a mask leave the
/// value, and the coefficient is γ₁ minus it. `bytes` extends past the last group.
#[target_feature(enable = "avx2")]
fn unpack_mask_avx2(_: Avx2, bytes: &[u8; 5 * 136], gamma1_bits: u32, p: &mut Poly) {
    let wide = gamma1_bits == 19;
    // Values 0..3 of a half start at bits 0, 18, 36, 54 (bytes 0, 2, 4, 6, shifts 0, 2, 4,
    // 6), or at bits 0, 20, 40, 60 (bytes 0, 2, 5, 7, shifts 0, 4, 0, 4).
    let (group, spread, shifts) = if wide {
        let spread = _mm256_setr_epi8(
            0, 1, 2, -1, 2, 3, 4, -1, 5, 6, 7, -1, 7, 8, 9, -1, 0, 1, 2, -1, 2, 3, 4, -1, 5, 6, 7,
            -1, 7, 8, 9, -1,
        );
        (20, spread, _mm256_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4))
    } else {
        let spread = _mm256_setr_epi8(
            0, 1, 2, -1, 2, 3, 4, -1, 4, 5, 6, -1, 6, 7, 8, -1, 0, 1, 2, -1, 2, 3, 4, -1, 4, 5, 6,
            -1, 6, 7, 8, -1,
        );
        (18, spread, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6))
    };
    let mask = _mm256_set1_epi32((2 << gamma1_bits) - 1);
    let gamma1 = _mm256_set1_epi32(1 << gamma1_bits);
    for (g, out) in p.0.chunks_exact_mut(8).enumerate() {
        let at = group * g;
        let half = |from: usize| {
            let h: &[u8; 16] = bytes[from..from + 16].try_into().unwrap_or(&[0; 16]);
            // SAFETY: `h` is 16 readable bytes; `loadu` takes any alignment. AVX2 is enabled
            // on this function, reached only through the `Avx2` token.
            unsafe { _mm_loadu_si128(h.as_ptr().cast()) }
        };
        let x =
            _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(half(at)), half(at + group / 2));
        let v = _mm256_and_si256(_mm256_srlv_epi32(_mm256_shuffle_epi8(x, spread), shifts), mask);
        // SAFETY: `out` is eight `i32`s, 32 writable bytes; `storeu` takes any alignment. AVX2
        // is enabled on this function, reached only through the `Avx2` token.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), _mm256_sub_epi32(gamma1, v)) }
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

    /// The vector rejection loop keeps exactly `poly::rejection_fill`'s values and count, from
    /// starting counts up to a full polynomial, on blocks with many and with few rejections.
    #[test]
    fn rejection_fill_agrees_with_poly() {
        let Some(token) = Avx2::get() else {
            std::eprintln!("x86_avx2: not available on this CPU");
            return;
        };
        for seed in 0..40u32 {
            let mut x = seed.wrapping_mul(2_654_435_761) | 1;
            let block: [u8; 168] = core::array::from_fn(|i| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                // Every third byte holds bits 16..24: make about half the candidates ≥ q.
                if i % 3 == 2 && seed % 2 == 0 { 0x7f } else { x as u8 }
            });
            for n in [0, 1, 100, 200, 230, 248, 249, 250, 255, 256] {
                let (mut ours, mut want) = (poly(seed, Q), poly(seed, Q));
                // SAFETY: the token proves AVX2 was detected.
                let got = unsafe { rejection_fill_avx2(token, &block, &mut ours, n) };
                assert_eq!(got, super::super::poly::rejection_fill(&block, &mut want, n));
                // Places from the count on may hold leftovers of the stores.
                assert_eq!(ours.0[..got], want.0[..got], "seed {seed}, from {n}");
            }
        }
    }

    /// NTT, inverse NTT and the product in T_q give exactly `portable`'s outputs, at the
    /// largest inputs each accepts and at small ones.
    #[test]
    fn agrees_with_portable() {
        let Some(token) = Avx2::get() else {
            std::eprintln!("x86_avx2: not available on this CPU");
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

    /// The many-way Keccak-fs this CPU runs.
    fn keccaks(token: Avx2) -> impl Iterator<Item = Wide> {
        let avx512 = core_cpu::Avx512::get();
        if avx512.is_none() {
            std::eprintln!("keccak x4/x86_avx512vl, x8/x86_avx512: not available on this CPU");
        }
        let vl = avx512.map(|t| Wide::X4(KeccakX4::Avx512Vl(t)));
        [Some(Wide::X4(KeccakX4::Avx2(token))), vl, avx512.map(Wide::X8)].into_iter().flatten()
    }

    /// Many-way ExpandMask gives what the one-at-a-time one gives, for one counter to the
    /// width, both widths of γ₁ and every many-way Keccak-f.
    #[test]
    fn expand_mask_wide_matches_expand_mask() {
        let Some(token) = Avx2::get() else {
            std::eprintln!("x86_avx2: not available on this CPU");
            return;
        };
        let keccak = <core_hash::KeccakImpl as core_hash::Implementation>::best();
        let seed: [u8; 64] = core::array::from_fn(|k| k as u8 ^ 0x5a);
        for wide in keccaks(token) {
            for bits in [17, 19] {
                for count in 1..=wide.width() {
                    let kappa = [7, 0, 300, 65_535, 1, 2, 9, 65_534];
                    let mut ours = [const { Poly::ZERO }; 8];
                    expand_mask_wide(token, wide, &seed, &kappa[..count], bits, &mut ours[..count]);
                    for (k, got) in ours[..count].iter().enumerate() {
                        let mut want = Poly::ZERO;
                        super::super::poly::expand_mask(keccak, &seed, kappa[k], bits, &mut want);
                        assert_eq!(got.0, want.0, "{wide:?}, γ₁ = 2^{bits}, lane {k} of {count}");
                    }
                }
            }
        }
    }

    /// Many-way RejBoundedPoly gives what the one-at-a-time sampler gives, for one row to
    /// the width, both η and every many-way Keccak-f.
    #[test]
    fn sample_bounded_wide_matches_sample_bounded() {
        let Some(token) = Avx2::get() else {
            std::eprintln!("x86_avx2: not available on this CPU");
            return;
        };
        let keccak = <core_hash::KeccakImpl as core_hash::Implementation>::best();
        let seed: [u8; 64] = core::array::from_fn(|k| k as u8 ^ 0xc3);
        for wide in keccaks(token) {
            for eta in [2, 4] {
                for count in 1..=wide.width() {
                    let rows = [0, 1, 2, 3, 4, 5, 14, 300];
                    let mut ours = [const { Poly::ZERO }; 8];
                    sample_bounded_wide(wide, &seed, &rows[..count], eta, &mut ours[..count]);
                    for (k, got) in ours[..count].iter().enumerate() {
                        let mut want = Poly::ZERO;
                        super::super::poly::sample_bounded(keccak, &seed, rows[k], eta, &mut want);
                        assert_eq!(got.0, want.0, "{wide:?}, η = {eta}, lane {k} of {count}");
                    }
                }
            }
        }
    }

    /// Many-way RejNTTPoly gives what the one-at-a-time sampler gives, for one entry to the
    /// width and every many-way Keccak-f.
    #[test]
    fn sample_uniform_wide_matches_sample_uniform() {
        let Some(token) = Avx2::get() else {
            std::eprintln!("x86_avx2: not available on this CPU");
            return;
        };
        let keccak = <core_hash::KeccakImpl as core_hash::Implementation>::best();
        let rho: [u8; 32] = core::array::from_fn(|k| k as u8 * 7);
        for wide in keccaks(token) {
            for count in 1..=wide.width() {
                let index = [[3, 5], [0, 5], [6, 2], [1, 0], [0, 0], [4, 7], [2, 2], [6, 7]];
                let mut ours = [const { Poly::ZERO }; 8];
                sample_uniform_wide(token, wide, &rho, &index[..count], &mut ours[..count]);
                for (k, got) in ours[..count].iter().enumerate() {
                    let mut want = Poly::ZERO;
                    let [s, r] = index[k];
                    super::super::poly::sample_uniform(keccak, &rho, s, r, &mut want);
                    assert_eq!(got.0, want.0, "{wide:?}, entry {k} of {count}");
                }
            }
        }
    }
}
