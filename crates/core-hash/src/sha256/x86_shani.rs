//! SHA-256 compression with the x86 SHA extensions: `sha256rnds2` does two rounds,
//! `sha256msg1`/`sha256msg2` the message schedule. The state lives in two registers in the
//! order the instructions want (ABEF and CDGH), shuffled in and out once per call.

use super::K;
use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_alignr_epi8, _mm_blend_epi16, _mm_loadu_si128, _mm_set_epi64x,
    _mm_sha256msg1_epu32, _mm_sha256msg2_epu32, _mm_sha256rnds2_epu32, _mm_shuffle_epi8,
    _mm_shuffle_epi32, _mm_storeu_si128,
};
use core_cpu::Sha;

/// Compresses each 64-byte block into `state`.
pub(super) fn compress(token: Sha, state: &mut [u32; 8], blocks: &[[u8; 64]]) {
    // SAFETY: the `Sha` token proves SHA, SSE2, SSSE3 and SSE4.1 were detected.
    unsafe { compress_shani(token, state, blocks) }
}

#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn compress_shani(_: Sha, state: &mut [u32; 8], blocks: &[[u8; 64]]) {
    // Big-endian words: reverse the bytes of each 32-bit lane.
    let bswap = _mm_set_epi64x(0x0c0d_0e0f_0809_0a0b, 0x0405_0607_0001_0203);
    // SAFETY: `state` is 32 bytes; unaligned loads of 16 bytes at offsets 0 and 16.
    let (dcba, hgfe) = unsafe {
        (
            _mm_loadu_si128(state.as_ptr().cast::<__m128i>()),
            _mm_loadu_si128(state.as_ptr().add(4).cast::<__m128i>()),
        )
    };
    let cdab = _mm_shuffle_epi32(dcba, 0xB1);
    let efgh = _mm_shuffle_epi32(hgfe, 0x1B);
    let mut abef = _mm_alignr_epi8(cdab, efgh, 8);
    let mut cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);

    for block in blocks {
        let (abef_in, cdgh_in) = (abef, cdgh);
        let mut m = [_mm_set_epi64x(0, 0); 4];
        for (i, w) in m.iter_mut().enumerate() {
            // SAFETY: `block` is 64 bytes; this reads bytes 16i..16i+16.
            *w = _mm_shuffle_epi8(
                unsafe { _mm_loadu_si128(block.as_ptr().add(16 * i).cast::<__m128i>()) },
                bswap,
            );
        }
        // Sixteen groups of four rounds; m[i % 4] holds W[4i..4i+4].
        for i in 0..16 {
            // SAFETY: K has 64 words; this reads K[4i..4i+4].
            let k = unsafe { _mm_loadu_si128(K.as_ptr().add(4 * i).cast::<__m128i>()) };
            let wk = _mm_add_epi32(m[i % 4], k);
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
            if (3..15).contains(&i) {
                // Finish W[4(i+1)..]: add W[t-7] and apply σ1.
                let w7 = _mm_alignr_epi8(m[i % 4], m[(i + 3) % 4], 4);
                let next = _mm_add_epi32(m[(i + 1) % 4], w7);
                m[(i + 1) % 4] = _mm_sha256msg2_epu32(next, m[i % 4]);
            }
            abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0E));
            if (1..13).contains(&i) {
                // Start W[4(i+3)..]: W[t-16] + σ0(W[t-15]).
                m[(i + 3) % 4] = _mm_sha256msg1_epu32(m[(i + 3) % 4], m[i % 4]);
            }
        }
        abef = _mm_add_epi32(abef, abef_in);
        cdgh = _mm_add_epi32(cdgh, cdgh_in);
    }

    let feba = _mm_shuffle_epi32(abef, 0x1B);
    let dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    let dcba = _mm_blend_epi16(feba, dchg, 0xF0);
    let hgfe = _mm_alignr_epi8(dchg, feba, 8);
    // SAFETY: `state` is 32 bytes; unaligned stores of 16 bytes at offsets 0 and 16.
    unsafe {
        _mm_storeu_si128(state.as_mut_ptr().cast::<__m128i>(), dcba);
        _mm_storeu_si128(state.as_mut_ptr().add(4).cast::<__m128i>(), hgfe);
    }
}
