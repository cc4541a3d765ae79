//! Multi-buffer SHA-256 in AVX-512: sixteen messages at once, one per 32-bit element of the
//! ZMM registers, on the rounds of [`x86_avx2_mb`](super::x86_avx2_mb). AVX-512 makes each
//! Σ and σ four instructions (three `vprord`/`vpsrld` and one `vpternlogd` for the three-way
//! XOR) and Ch and Maj one `vpternlogd` each, and its 32 registers hold the working state and
//! the whole 16-word schedule ring without spilling.
//!
//! Loading transposes as the AVX2 code does, with four 16-byte pieces per register (lanes
//! `q`, `q + 4`, `q + 8`, `q + 12`, one `vinserti32x4` each) and the same in-lane 4×4
//! transposes, which again leave element `4k + q` holding lane `4k + q`.

use super::mb::{LaneState, MAX_LANES};
use super::x86_avx2_mb::{Lanes, compress_lanes, piece};
use core::arch::x86_64::{
    __m512i, _mm512_add_epi32, _mm512_castsi128_si512, _mm512_inserti32x4, _mm512_loadu_si512,
    _mm512_ror_epi32, _mm512_set1_epi32, _mm512_set4_epi32, _mm512_shuffle_epi8, _mm512_srli_epi32,
    _mm512_storeu_si512, _mm512_ternarylogic_epi32, _mm512_unpackhi_epi32, _mm512_unpackhi_epi64,
    _mm512_unpacklo_epi32, _mm512_unpacklo_epi64,
};
use core_cpu::Avx512;

/// `vpternlogd` truth table of `a ^ b ^ c`.
const XOR3: i32 = 0x96;
/// `vpternlogd` truth table of `a ? b : c` (Ch).
const CH: i32 = 0xCA;
/// `vpternlogd` truth table of the majority of `a`, `b`, `c` (Maj).
const MAJ: i32 = 0xE8;

/// Runs each of the sixteen lanes over its blocks (the shortest lane's count of them).
pub(super) fn compress(token: Avx512, state: &mut LaneState, blocks: &[&[[u8; 64]]; MAX_LANES]) {
    // SAFETY: the `Avx512` token proves AVX-512F, VL and BW were detected.
    unsafe { compress_avx512(token, state, blocks) }
}

#[target_feature(enable = "avx2,avx512f,avx512vl,avx512bw")]
fn compress_avx512(token: Avx512, state: &mut LaneState, blocks: &[&[[u8; 64]]; MAX_LANES]) {
    compress_lanes(token, state, blocks);
}

/// Σ0 and Σ1: the XOR of `x` rotated right by `A`, `B` and `C`.
#[inline(always)]
fn big_sigma<const A: i32, const B: i32, const C: i32>(x: __m512i) -> __m512i {
    // SAFETY: called only from the `Lanes` methods of `Avx512`, within AVX-512 functions.
    unsafe {
        let (a, b, c) =
            (_mm512_ror_epi32::<A>(x), _mm512_ror_epi32::<B>(x), _mm512_ror_epi32::<C>(x));
        _mm512_ternarylogic_epi32::<XOR3>(a, b, c)
    }
}

/// σ0 and σ1: the XOR of `x` rotated right by `A` and `B` and shifted right by `C`.
#[inline(always)]
fn small_sigma<const A: i32, const B: i32, const C: u32>(x: __m512i) -> __m512i {
    // SAFETY: called only from the `Lanes` methods of `Avx512`, within AVX-512 functions.
    unsafe {
        let (a, b, c) =
            (_mm512_ror_epi32::<A>(x), _mm512_ror_epi32::<B>(x), _mm512_srli_epi32::<C>(x));
        _mm512_ternarylogic_epi32::<XOR3>(a, b, c)
    }
}

// SAFETY: an `Avx512` token is only obtained once AVX-512F, VL and BW (and AVX2) were
// detected.
unsafe impl Lanes for Avx512 {
    type V = __m512i;
    const LANES: usize = 16;

    #[inline(always)]
    fn load_row(self, row: &[u32; MAX_LANES]) -> __m512i {
        // SAFETY: `row` is 64 bytes; an unaligned load. AVX-512F: the token.
        unsafe { _mm512_loadu_si512(row.as_ptr().cast()) }
    }

    #[inline(always)]
    fn store_row(self, row: &mut [u32; MAX_LANES], v: __m512i) {
        // SAFETY: `row` is 64 bytes; an unaligned store. AVX-512F: the token.
        unsafe { _mm512_storeu_si512(row.as_mut_ptr().cast(), v) }
    }

    #[inline(always)]
    fn load_words(self, blocks: &[&[[u8; 64]]; MAX_LANES], i: usize) -> [__m512i; 16] {
        // SAFETY: AVX-512F and BW: the token.
        unsafe {
            let bswap = _mm512_set4_epi32(0x0c0d0e0f, 0x08090a0b, 0x04050607, 0x00010203);
            let mut w = [bswap; 16];
            for g in 0..4 {
                // z[q]: words 4g..4g+4 of lanes q, q + 4, q + 8, q + 12, one per 128 bits.
                let z: [__m512i; 4] = core::array::from_fn(|q| {
                    let x = _mm512_castsi128_si512(piece(blocks, q, i, g));
                    let x = _mm512_inserti32x4::<1>(x, piece(blocks, q + 4, i, g));
                    let x = _mm512_inserti32x4::<2>(x, piece(blocks, q + 8, i, g));
                    _mm512_inserti32x4::<3>(x, piece(blocks, q + 12, i, g))
                });
                let t0 = _mm512_unpacklo_epi32(z[0], z[1]);
                let t1 = _mm512_unpackhi_epi32(z[0], z[1]);
                let t2 = _mm512_unpacklo_epi32(z[2], z[3]);
                let t3 = _mm512_unpackhi_epi32(z[2], z[3]);
                let words = [
                    _mm512_unpacklo_epi64(t0, t2),
                    _mm512_unpackhi_epi64(t0, t2),
                    _mm512_unpacklo_epi64(t1, t3),
                    _mm512_unpackhi_epi64(t1, t3),
                ];
                for (j, x) in words.into_iter().enumerate() {
                    w[4 * g + j] = _mm512_shuffle_epi8(x, bswap);
                }
            }
            w
        }
    }

    #[inline(always)]
    fn add(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512F: the token.
        unsafe { _mm512_add_epi32(a, b) }
    }

    #[inline(always)]
    fn add_k(self, a: __m512i, k: u32) -> __m512i {
        // SAFETY: AVX-512F: the token.
        unsafe { _mm512_add_epi32(a, _mm512_set1_epi32(k.cast_signed())) }
    }

    #[inline(always)]
    fn big_sigma0(self, x: __m512i) -> __m512i {
        big_sigma::<2, 13, 22>(x)
    }

    #[inline(always)]
    fn big_sigma1(self, x: __m512i) -> __m512i {
        big_sigma::<6, 11, 25>(x)
    }

    #[inline(always)]
    fn small_sigma0(self, x: __m512i) -> __m512i {
        small_sigma::<7, 18, 3>(x)
    }

    #[inline(always)]
    fn small_sigma1(self, x: __m512i) -> __m512i {
        small_sigma::<17, 19, 10>(x)
    }

    #[inline(always)]
    fn ch(self, e: __m512i, f: __m512i, g: __m512i) -> __m512i {
        // SAFETY: AVX-512F: the token.
        unsafe { _mm512_ternarylogic_epi32::<CH>(e, f, g) }
    }

    #[inline(always)]
    fn maj(self, a: __m512i, b: __m512i, c: __m512i) -> __m512i {
        // SAFETY: AVX-512F: the token.
        unsafe { _mm512_ternarylogic_epi32::<MAJ>(a, b, c) }
    }
}
