//! Multi-buffer SHA-256 in AVX2: eight messages at once, one per 32-bit element of the YMM
//! registers, so every round and schedule step is the scalar one written with vector
//! instructions (rotations are a shift pair and an OR). The rounds are written once, over
//! [`Lanes`], and shared with the 16-lane [`x86_avx512_mb`](super::x86_avx512_mb), which
//! differs in the register width and in having a rotate and three-input logic instruction.
//!
//! Loading transposes: each lane's block is a row of sixteen words, and the rounds want word
//! `t` of every lane in one register. Four 16-byte pieces (one per lane) are paired across the
//! two 128-bit halves with `vinserti128`, then a 4×4 transpose of 32-bit words in each half
//! (`vpunpck{l,h}dq`, `vpunpck{l,h}qdq`) leaves element `4k + q` holding lane `4k + q`, in
//! lane order, with no further permutation.

use super::K;
use super::mb::{LaneState, MAX_LANES};
use core::arch::x86_64::{
    __m128i, __m256i, _mm_loadu_si128, _mm256_add_epi32, _mm256_and_si256, _mm256_andnot_si256,
    _mm256_castsi128_si256, _mm256_inserti128_si256, _mm256_loadu_si256, _mm256_or_si256,
    _mm256_set_epi64x, _mm256_set1_epi32, _mm256_shuffle_epi8, _mm256_slli_epi32,
    _mm256_srli_epi32, _mm256_storeu_si256, _mm256_unpackhi_epi32, _mm256_unpackhi_epi64,
    _mm256_unpacklo_epi32, _mm256_unpacklo_epi64, _mm256_xor_si256,
};
use core_cpu::Avx2;

/// Runs each of the first eight lanes over its blocks (the shortest lane's count of them).
pub(super) fn compress(token: Avx2, state: &mut LaneState, blocks: &[&[[u8; 64]]; MAX_LANES]) {
    // SAFETY: the `Avx2` token proves AVX2 was detected.
    unsafe { compress_avx2(token, state, blocks) }
}

#[target_feature(enable = "avx2")]
fn compress_avx2(token: Avx2, state: &mut LaneState, blocks: &[&[[u8; 64]]; MAX_LANES]) {
    compress_lanes(token, state, blocks);
}

/// The lane-wise operations SHA-256's rounds need, on one register of `LANES` 32-bit lanes.
///
/// # Safety
///
/// Implemented only on a CPU-feature token that proves the instructions the methods use;
/// they are called from functions compiled with those features.
pub(super) unsafe trait Lanes: Copy {
    /// A register of `LANES` words.
    type V: Copy;
    /// How many lanes a register holds.
    const LANES: usize;
    /// Loads the first `LANES` words of a state row.
    fn load_row(self, row: &[u32; MAX_LANES]) -> Self::V;
    /// Stores a register into the first `LANES` words of a state row.
    fn store_row(self, row: &mut [u32; MAX_LANES], v: Self::V);
    /// W\[0..16\] of block `i` of each lane, transposed and as big-endian words.
    fn load_words(self, blocks: &[&[[u8; 64]]; MAX_LANES], i: usize) -> [Self::V; 16];
    /// `a + b` in each lane.
    fn add(self, a: Self::V, b: Self::V) -> Self::V;
    /// `a + k` in each lane.
    fn add_k(self, a: Self::V, k: u32) -> Self::V;
    /// Σ0 (FIPS 180-4 (4.4)).
    fn big_sigma0(self, x: Self::V) -> Self::V;
    /// Σ1 (4.5).
    fn big_sigma1(self, x: Self::V) -> Self::V;
    /// σ0 (4.6).
    fn small_sigma0(self, x: Self::V) -> Self::V;
    /// σ1 (4.7).
    fn small_sigma1(self, x: Self::V) -> Self::V;
    /// Ch(e, f, g) (4.2).
    fn ch(self, e: Self::V, f: Self::V, g: Self::V) -> Self::V;
    /// Maj(a, b, c) (4.3).
    fn maj(self, a: Self::V, b: Self::V, c: Self::V) -> Self::V;
}

/// Round `R` (FIPS 180-4 §6.2.2 steps 2–4) on every lane, with the schedule word W\[R\]
/// computed in place in the 16-word ring `w` from R = 16 on. The working variables rotate
/// through `v`, so round `R`'s `a` is `v[(8 - R % 8) % 8]` and nothing is moved.
#[inline(always)]
fn round<T: Lanes, const R: usize>(t: T, v: &mut [T::V; 8], w: &mut [T::V; 16]) {
    if R >= 16 {
        // W[R] = σ1(W[R-2]) + W[R-7] + σ0(W[R-15]) + W[R-16].
        let s0 = t.add(w[R % 16], t.small_sigma0(w[(R + 1) % 16]));
        let s1 = t.add(w[(R + 9) % 16], t.small_sigma1(w[(R + 14) % 16]));
        w[R % 16] = t.add(s0, s1);
    }
    let at = |i: usize| (8 - R % 8 + i) % 8;
    let (a, b, c, e, f, g) = (v[at(0)], v[at(1)], v[at(2)], v[at(4)], v[at(5)], v[at(6)]);
    let h = t.add(v[at(7)], t.add_k(w[R % 16], K[R]));
    let t1 = t.add(h, t.add(t.big_sigma1(e), t.ch(e, f, g)));
    let t2 = t.add(t.big_sigma0(a), t.maj(a, b, c));
    v[at(3)] = t.add(v[at(3)], t1);
    v[at(7)] = t.add(t1, t2);
}

/// The multi-buffer compression loop over any [`Lanes`]: the state stays in registers across
/// all blocks, and the 64 rounds of a block are written out with constant round numbers.
#[inline(always)]
pub(super) fn compress_lanes<T: Lanes>(
    t: T,
    state: &mut LaneState,
    blocks: &[&[[u8; 64]]; MAX_LANES],
) {
    macro_rules! rounds {
        ($v:ident, $w:ident; $($r:literal)*) => { $( round::<T, $r>(t, &mut $v, &mut $w); )* };
    }
    let n = blocks[..T::LANES].iter().map(|b| b.len()).min().unwrap_or(0);
    let mut s: [T::V; 8] = core::array::from_fn(|i| t.load_row(&state[i]));
    for i in 0..n {
        let mut w = t.load_words(blocks, i);
        let mut v = s;
        rounds!(v, w; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63);
        s = core::array::from_fn(|j| t.add(s[j], v[j]));
    }
    for (row, x) in state.iter_mut().zip(s) {
        t.store_row(row, x);
    }
}

/// Each 32-bit element of `x` rotated right by the literal `r` (0 < r < 32).
macro_rules! rotr {
    ($x:expr, $r:literal) => {{
        let x = $x;
        _mm256_or_si256(_mm256_srli_epi32::<$r>(x), _mm256_slli_epi32::<{ 32 - $r }>(x))
    }};
}

/// The XOR of three registers.
#[inline(always)]
fn xor3(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
    // SAFETY: called only from the `Lanes` methods of `Avx2`, within AVX2 functions.
    unsafe { _mm256_xor_si256(_mm256_xor_si256(a, b), c) }
}

/// The `pshufb` mask that reverses the bytes of each 32-bit word.
#[inline(always)]
fn bswap32() -> __m256i {
    // SAFETY: called only from the `Lanes` methods of `Avx2`, within AVX2 functions.
    unsafe {
        _mm256_set_epi64x(
            0x0c0d0e0f08090a0b,
            0x0405060700010203,
            0x0c0d0e0f08090a0b,
            0x0405060700010203,
        )
    }
}

/// Bytes `16g..16g + 16` of block `i` of lane `l` (g < 4), for the transposing loads.
#[inline(always)]
pub(super) fn piece(blocks: &[&[[u8; 64]]; MAX_LANES], l: usize, i: usize, g: usize) -> __m128i {
    let bytes: &[u8; 16] = &blocks[l][i].as_chunks::<16>().0[g];
    // SAFETY: an unaligned load of 16 bytes from a 16-byte array. SSE2 is part of x86-64.
    unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) }
}

// SAFETY: an `Avx2` token is only obtained once AVX2 was detected.
unsafe impl Lanes for Avx2 {
    type V = __m256i;
    const LANES: usize = 8;

    #[inline(always)]
    fn load_row(self, row: &[u32; MAX_LANES]) -> __m256i {
        // SAFETY: `row` has at least 8 words; an unaligned 32-byte load. AVX2: the token.
        unsafe { _mm256_loadu_si256(row.as_ptr().cast()) }
    }

    #[inline(always)]
    fn store_row(self, row: &mut [u32; MAX_LANES], v: __m256i) {
        // SAFETY: `row` has at least 8 words; an unaligned 32-byte store. AVX2: the token.
        unsafe { _mm256_storeu_si256(row.as_mut_ptr().cast(), v) }
    }

    #[inline(always)]
    fn load_words(self, blocks: &[&[[u8; 64]]; MAX_LANES], i: usize) -> [__m256i; 16] {
        let mut w = [bswap32(); 16];
        for g in 0..4 {
            // SAFETY: AVX2: the token.
            unsafe {
                // z[q]: words 4g..4g+4 of lane q (low half) and of lane q + 4 (high half).
                let z: [__m256i; 4] = core::array::from_fn(|q| {
                    let lo = _mm256_castsi128_si256(piece(blocks, q, i, g));
                    _mm256_inserti128_si256::<1>(lo, piece(blocks, q + 4, i, g))
                });
                let t0 = _mm256_unpacklo_epi32(z[0], z[1]);
                let t1 = _mm256_unpackhi_epi32(z[0], z[1]);
                let t2 = _mm256_unpacklo_epi32(z[2], z[3]);
                let t3 = _mm256_unpackhi_epi32(z[2], z[3]);
                let words = [
                    _mm256_unpacklo_epi64(t0, t2),
                    _mm256_unpackhi_epi64(t0, t2),
                    _mm256_unpacklo_epi64(t1, t3),
                    _mm256_unpackhi_epi64(t1, t3),
                ];
                for (j, x) in words.into_iter().enumerate() {
                    w[4 * g + j] = _mm256_shuffle_epi8(x, w[4 * g + j]);
                }
            }
        }
        w
    }

    #[inline(always)]
    fn add(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2: the token.
        unsafe { _mm256_add_epi32(a, b) }
    }

    #[inline(always)]
    fn add_k(self, a: __m256i, k: u32) -> __m256i {
        // SAFETY: AVX2: the token.
        unsafe { _mm256_add_epi32(a, _mm256_set1_epi32(k.cast_signed())) }
    }

    #[inline(always)]
    fn big_sigma0(self, x: __m256i) -> __m256i {
        // SAFETY: AVX2: the token.
        unsafe { xor3(rotr!(x, 2), rotr!(x, 13), rotr!(x, 22)) }
    }

    #[inline(always)]
    fn big_sigma1(self, x: __m256i) -> __m256i {
        // SAFETY: AVX2: the token.
        unsafe { xor3(rotr!(x, 6), rotr!(x, 11), rotr!(x, 25)) }
    }

    #[inline(always)]
    fn small_sigma0(self, x: __m256i) -> __m256i {
        // SAFETY: AVX2: the token.
        unsafe { xor3(rotr!(x, 7), rotr!(x, 18), _mm256_srli_epi32::<3>(x)) }
    }

    #[inline(always)]
    fn small_sigma1(self, x: __m256i) -> __m256i {
        // SAFETY: AVX2: the token.
        unsafe { xor3(rotr!(x, 17), rotr!(x, 19), _mm256_srli_epi32::<10>(x)) }
    }

    #[inline(always)]
    fn ch(self, e: __m256i, f: __m256i, g: __m256i) -> __m256i {
        // SAFETY: AVX2: the token.
        unsafe { _mm256_xor_si256(_mm256_and_si256(e, f), _mm256_andnot_si256(e, g)) }
    }

    #[inline(always)]
    fn maj(self, a: __m256i, b: __m256i, c: __m256i) -> __m256i {
        // SAFETY: AVX2: the token.
        unsafe {
            let ab = _mm256_xor_si256(a, b);
            _mm256_xor_si256(_mm256_and_si256(ab, _mm256_xor_si256(b, c)), b)
        }
    }
}
