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
    compress2(token, state, &[], blocks);
}

/// Compresses `first`'s blocks, then `rest`'s, into `state`, which stays in registers
/// throughout (a one-shot digest passes the message's whole blocks and its padded tail).
pub(super) fn compress2(token: Sha, state: &mut [u32; 8], first: &[[u8; 64]], rest: &[[u8; 64]]) {
    // SAFETY: the `Sha` token proves SHA, SSE2, SSSE3 and SSE4.1 were detected.
    unsafe { compress_shani(token, state, [first, rest]) }
}

/// Runs `$body` once for each listed index, with `$i` a constant: the sixteen groups of
/// four rounds are written out, so the schedule words stay in registers with no loop
/// counter, index arithmetic or branch between the rounds (LLVM does not unroll a loop this
/// large on its own, and then spills `m` to the stack and indexes it at run time).
macro_rules! each {
    ($i:ident => $body:block; $($n:literal)*) => {
        $({
            const $i: usize = $n;
            $body
        })*
    };
}

/// The compression loop, written once over the three SHA-256 instructions so that a test
/// can also run it against a software model of them (see the tests below), which checks the
/// data flow on any x86 CPU.
macro_rules! compress_with {
    ($rnds2:path, $msg1:path, $msg2:path, $state:expr, $parts:expr) => {{
        let (state, parts): (&mut [u32; 8], [&[[u8; 64]]; 2]) = ($state, $parts);
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

        for blocks in parts {
        for block in blocks {
            let (abef_in, cdgh_in) = (abef, cdgh);
            let mut m: [__m128i; 4] = core::array::from_fn(|i| {
                // SAFETY: `block` is 64 bytes; this reads bytes 16i..16i+16 for i < 4.
                let words = unsafe { _mm_loadu_si128(block.as_ptr().add(16 * i).cast()) };
                _mm_shuffle_epi8(words, bswap)
            });
            // Sixteen groups of four rounds; m[i % 4] holds W[4i..4i+4].
            each!(I => {
                // SAFETY: K has 64 words; this reads K[4I..4I+4].
                let k = unsafe { _mm_loadu_si128(K.as_ptr().add(4 * I).cast::<__m128i>()) };
                let wk = _mm_add_epi32(m[I % 4], k);
                cdgh = $rnds2(cdgh, abef, wk);
                if 3 <= I && I < 15 {
                    // Finish W[4(I+1)..]: add W[t-7] and apply σ1.
                    let w7 = _mm_alignr_epi8(m[I % 4], m[(I + 3) % 4], 4);
                    let next = _mm_add_epi32(m[(I + 1) % 4], w7);
                    m[(I + 1) % 4] = $msg2(next, m[I % 4]);
                }
                abef = $rnds2(abef, cdgh, _mm_shuffle_epi32(wk, 0x0E));
                if 1 <= I && I < 13 {
                    // Start W[4(I+3)..]: W[t-16] + σ0(W[t-15]).
                    m[(I + 3) % 4] = $msg1(m[(I + 3) % 4], m[I % 4]);
                }
            }; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
        abef = _mm_add_epi32(abef, abef_in);
            cdgh = _mm_add_epi32(cdgh, cdgh_in);
        }
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
    }};
}

#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn compress_shani(_: Sha, state: &mut [u32; 8], parts: [&[[u8; 64]]; 2]) {
    compress_with!(_mm_sha256rnds2_epu32, _mm_sha256msg1_epu32, _mm_sha256msg2_epu32, state, parts);
}

#[cfg(test)]
mod tests {
    //! The SHA-NI data flow checked against the portable code, with the three SHA
    //! instructions replaced by a model written from their pseudocode in the Intel SDM
    //! (SHA256RNDS2, SHA256MSG1, SHA256MSG2). On a CPU with SHA-NI the real instructions are
    //! checked by the vector suites as well.

    use super::*;

    fn words(x: __m128i) -> [u32; 4] {
        let mut w = [0u32; 4];
        // SAFETY: `w` is 16 bytes.
        unsafe { _mm_storeu_si128(w.as_mut_ptr().cast(), x) };
        w
    }

    fn vector(w: [u32; 4]) -> __m128i {
        // SAFETY: `w` is 16 bytes.
        unsafe { _mm_loadu_si128(w.as_ptr().cast()) }
    }

    /// SHA256RNDS2 src1, src2, <wk>: two rounds on the state split as ABEF (src2) and CDGH
    /// (src1); returns the new ABEF.
    fn rnds2(src1: __m128i, src2: __m128i, wk: __m128i) -> __m128i {
        let ([h, g, d, c], [f, e, b, a], [wk0, wk1, _, _]) = (words(src1), words(src2), words(wk));
        let (mut v, mut s) = ([a, b, c, d, e, f, g, h], [0u32; 8]);
        for k in [wk0, wk1] {
            let [a, b, c, d, e, f, g, h] = v;
            let ch = (e & f) ^ (!e & g);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let t = ch.wrapping_add(s1).wrapping_add(k).wrapping_add(h);
            s = [t.wrapping_add(maj).wrapping_add(s0), a, b, c, t.wrapping_add(d), e, f, g];
            v = s;
        }
        let [a, b, _, _, e, f, _, _] = s;
        vector([f, e, b, a])
    }

    fn sigma0(x: u32) -> u32 {
        x.rotate_right(7) ^ x.rotate_right(18) ^ (x >> 3)
    }

    fn sigma1(x: u32) -> u32 {
        x.rotate_right(17) ^ x.rotate_right(19) ^ (x >> 10)
    }

    /// SHA256MSG1: W[i] + σ0(W[i+1]) for the four words of src1 followed by src2's lowest.
    fn msg1(src1: __m128i, src2: __m128i) -> __m128i {
        let ([w0, w1, w2, w3], [w4, ..]) = (words(src1), words(src2));
        vector([
            w0.wrapping_add(sigma0(w1)),
            w1.wrapping_add(sigma0(w2)),
            w2.wrapping_add(sigma0(w3)),
            w3.wrapping_add(sigma0(w4)),
        ])
    }

    /// SHA256MSG2: adds σ1 of W[t-2], chaining through the two words it produces.
    fn msg2(src1: __m128i, src2: __m128i) -> __m128i {
        let ([x0, x1, x2, x3], [_, _, w14, w15]) = (words(src1), words(src2));
        let w16 = x0.wrapping_add(sigma1(w14));
        let w17 = x1.wrapping_add(sigma1(w15));
        let w18 = x2.wrapping_add(sigma1(w16));
        let w19 = x3.wrapping_add(sigma1(w17));
        vector([w16, w17, w18, w19])
    }

    #[target_feature(enable = "sse2,ssse3,sse4.1")]
    fn compress_model(state: &mut [u32; 8], parts: [&[[u8; 64]]; 2]) {
        compress_with!(rnds2, msg1, msg2, state, parts);
    }

    #[test]
    fn data_flow_matches_portable() {
        if !std::is_x86_feature_detected!("sse4.1") {
            return;
        }
        let mut blocks = [[0u8; 64]; 3];
        for (i, b) in blocks.iter_mut().flatten().enumerate() {
            *b = (i as u32).wrapping_mul(2_654_435_761).to_le_bytes()[3];
        }
        let (mut ours, mut theirs) = ([0x0123_4567u32; 8], [0x0123_4567u32; 8]);
        for (i, w) in ours.iter_mut().enumerate() {
            *w ^= (i as u32) << 20;
        }
        theirs.copy_from_slice(&ours);
        // SAFETY: SSE4.1 (and so SSSE3 and SSE2) was detected above.
        unsafe { compress_model(&mut ours, [&blocks[..1], &blocks[1..]]) };
        super::super::portable::compress(&mut theirs, &blocks);
        assert_eq!(ours, theirs);
    }
}
