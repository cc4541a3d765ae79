//! SHA-1 compression with the x86 SHA extensions: `sha1rnds4` does four rounds,
//! `sha1nexte` folds the rotated `e` into the next message words, and
//! `sha1msg1`/`sha1msg2` with an XOR extend the schedule. ABCD is kept word-reversed and `e`
//! in the top lane, as the instructions want.

use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_extract_epi32, _mm_loadu_si128, _mm_set_epi32, _mm_set_epi64x,
    _mm_sha1msg1_epu32, _mm_sha1msg2_epu32, _mm_sha1nexte_epu32, _mm_sha1rnds4_epu32,
    _mm_shuffle_epi8, _mm_shuffle_epi32, _mm_storeu_si128, _mm_xor_si128,
};
use core_cpu::Sha;

/// Compresses each 64-byte block into `state`.
pub(super) fn compress(token: Sha, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    // SAFETY: the `Sha` token proves SHA, SSE2, SSSE3 and SSE4.1 were detected.
    unsafe { compress_shani(token, state, blocks) }
}

#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn compress_shani(_: Sha, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    // Reverses all 16 bytes: big-endian words, with word 0 in the top lane.
    let reverse = _mm_set_epi64x(0x0001_0203_0405_0607, 0x0809_0a0b_0c0d_0e0f);
    // SAFETY: `state` has at least 4 words.
    let mut abcd = _mm_shuffle_epi32(unsafe { _mm_loadu_si128(state.as_ptr().cast()) }, 0x1B);
    let mut e = _mm_set_epi32(state[4].cast_signed(), 0, 0, 0);
    for block in blocks {
        let (abcd_in, e_in) = (abcd, e);
        let mut m: [__m128i; 4] = core::array::from_fn(|i| {
            // SAFETY: `block` is 64 bytes; this reads bytes 16i..16i+16 for i < 4.
            let words = unsafe { _mm_loadu_si128(block.as_ptr().add(16 * i).cast()) };
            _mm_shuffle_epi8(words, reverse)
        });
        // `prev` is ABCD before the previous group: its A, rotated, is this group's E.
        let mut prev = abcd;
        for g in 0..20 {
            let e_w =
                if g == 0 { _mm_add_epi32(e, m[0]) } else { _mm_sha1nexte_epu32(prev, m[g % 4]) };
            if (3..19).contains(&g) {
                m[(g + 1) % 4] = _mm_sha1msg2_epu32(m[(g + 1) % 4], m[g % 4]);
            }
            prev = abcd;
            abcd = match g / 5 {
                0 => _mm_sha1rnds4_epu32(abcd, e_w, 0),
                1 => _mm_sha1rnds4_epu32(abcd, e_w, 1),
                2 => _mm_sha1rnds4_epu32(abcd, e_w, 2),
                _ => _mm_sha1rnds4_epu32(abcd, e_w, 3),
            };
            if (1..17).contains(&g) {
                m[(g + 3) % 4] = _mm_sha1msg1_epu32(m[(g + 3) % 4], m[g % 4]);
            }
            if (2..18).contains(&g) {
                m[(g + 2) % 4] = _mm_xor_si128(m[(g + 2) % 4], m[g % 4]);
            }
        }
        e = _mm_sha1nexte_epu32(prev, e_in);
        abcd = _mm_add_epi32(abcd, abcd_in);
    }
    // SAFETY: `state` has at least 4 words.
    unsafe { _mm_storeu_si128(state.as_mut_ptr().cast(), _mm_shuffle_epi32(abcd, 0x1B)) };
    state[4] = _mm_extract_epi32(e, 3).cast_unsigned();
}
