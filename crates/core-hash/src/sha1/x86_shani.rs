//! SHA-1 compression with the x86 SHA extensions: `sha1rnds4` does four rounds,
//! `sha1nexte` folds the rotated `e` into the next message words, and
//! `sha1msg1`/`sha1msg2` with an XOR extend the schedule to W\[47\]. ABCD is kept word-reversed
//! and `e` in the top lane, as the instructions want.
//!
//! W\[48..80\] come from the equivalent recurrence W\[i\] = ROL2(W\[i-6\] ⊕ W\[i-16\] ⊕ W\[i-28\] ⊕
//! W[i-32]) (Locktyukhin's, from Intel's SSSE3 SHA-1), in SSSE3/SSE2 `palignr`, XORs and
//! shifts: measured here, `sha1msg2` competes with `sha1rnds4` for one execution unit, and
//! taking eight of its sixteen uses off it shortens each block. Starting at W\[48\] rather than
//! W\[32\] (where the identity starts to hold) keeps the slower software chain from delaying
//! the rounds of short messages: 16 KiB 1.06 against 1.03–1.06 cycles/byte, 64 bytes 2.16
//! against 2.62 (2.41 with the SHA instructions alone).

use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_alignr_epi8, _mm_extract_epi32, _mm_loadu_si128, _mm_or_si128,
    _mm_set_epi32, _mm_set_epi64x, _mm_setzero_si128, _mm_sha1msg1_epu32, _mm_sha1msg2_epu32,
    _mm_sha1nexte_epu32, _mm_sha1rnds4_epu32, _mm_shuffle_epi8, _mm_shuffle_epi32, _mm_slli_epi32,
    _mm_srli_epi32, _mm_storeu_si128, _mm_xor_si128,
};
use core_cpu::Sha;

/// Compresses each 64-byte block into `state`.
pub(super) fn compress(token: Sha, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    compress2(token, state, &[], blocks);
}

/// Compresses `first`'s blocks, then `rest`'s, into `state`, which stays in registers
/// throughout (a one-shot digest passes the message's whole blocks and its padded tail).
pub(super) fn compress2(token: Sha, state: &mut [u32; 5], first: &[[u8; 64]], rest: &[[u8; 64]]) {
    // SAFETY: the `Sha` token proves SHA, SSE2, SSSE3 and SSE4.1 were detected.
    unsafe { compress_shani(token, state, [first, rest]) }
}

/// Runs `$body` once for each listed index, with `$i` a constant: the twenty groups of
/// four rounds are written out, so the schedule words stay in registers and each
/// `sha1rnds4` gets its round function as an immediate, with no loop counter, index
/// arithmetic or branch between the rounds (LLVM does not unroll a loop this large itself).
macro_rules! each {
    ($i:ident => $body:block; $($n:literal)*) => {
        $({
            const $i: usize = $n;
            $body
        })*
    };
}

/// The compression loop, written once over the four SHA-1 instructions so that a test can
/// also run it against a software model of them (see the tests below), which checks the
/// data flow on any x86 CPU.
macro_rules! compress_with {
    ($rnds4:path, $nexte:path, $msg1:path, $msg2:path, $state:expr, $parts:expr) => {{
        let (state, parts): (&mut [u32; 5], [&[[u8; 64]]; 2]) = ($state, $parts);
        // Reverses all 16 bytes: big-endian words, with word 0 in the top lane.
        let reverse = _mm_set_epi64x(0x0001_0203_0405_0607, 0x0809_0a0b_0c0d_0e0f);
        // SAFETY: `state` has at least 4 words.
        let mut abcd = _mm_shuffle_epi32(unsafe { _mm_loadu_si128(state.as_ptr().cast()) }, 0x1B);
        let mut e = _mm_set_epi32(state[4].cast_signed(), 0, 0, 0);
        for blocks in parts {
        for block in blocks {
            let (abcd_in, e_in) = (abcd, e);
            // w[g]: the message words W[4g..4g+4] of group g, W[4g] in the top lane.
            let mut w: [__m128i; 20] = [_mm_setzero_si128(); 20];
            for (i, w) in w[..4].iter_mut().enumerate() {
                // SAFETY: `block` is 64 bytes; this reads bytes 16i..16i+16 for i < 4.
                let words = unsafe { _mm_loadu_si128(block.as_ptr().add(16 * i).cast()) };
                *w = _mm_shuffle_epi8(words, reverse);
            }
            let mut e_w = _mm_add_epi32(e, w[0]);
            each!(G => {
                // Group G + 1's words, one group ahead of its rounds.
                if 3 <= G && G < 11 {
                    // W[i] = ROL1(W[i-3] ⊕ W[i-8] ⊕ W[i-14] ⊕ W[i-16]) with the SHA
                    // instructions (`sha1msg2` resolves W[i-3] inside the group).
                    let t = _mm_xor_si128($msg1(w[G - 3], w[G - 2]), w[G - 1]);
                    w[(G + 1) % 20] = $msg2(t, w[G]);
                } else if 11 <= G && G < 19 {
                    // From W[48] on, W[i] = ROL2(W[i-6] ⊕ W[i-16] ⊕ W[i-28] ⊕ W[i-32]) (it
                    // holds from W[32]): no word depends on another of its group, so plain
                    // SSE2 does it, off the unit that `sha1rnds4` and `sha1msg2` share.
                    let g = G + 1;
                    // W[i-6..i-2] straddles the last two groups; it is XORed last, so each
                    // group is four steps after the one before.
                    let x = _mm_xor_si128(_mm_xor_si128(w[g - 8], w[g - 7]), w[g - 4]);
                    let x = _mm_xor_si128(x, _mm_alignr_epi8::<8>(w[g - 2], w[g - 1]));
                    w[g] = _mm_or_si128(_mm_slli_epi32::<2>(x), _mm_srli_epi32::<30>(x));
                }
                // The next group's words plus E, made from ABCD before this group's
                // `sha1rnds4`, which then takes ABCD's last use: the copy that the destructive
                // SSE encoding needs goes to `sha1nexte`'s operand, off the chain of
                // `sha1rnds4`s.
                let next = $nexte(abcd, if G < 19 { w[(G + 1) % 20] } else { e_in });
                abcd = match G / 5 {
                    0 => $rnds4(abcd, e_w, 0),
                    1 => $rnds4(abcd, e_w, 1),
                    2 => $rnds4(abcd, e_w, 2),
                    _ => $rnds4(abcd, e_w, 3),
                };
                e_w = next;
            }; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19);
            // After group 19, `e_w` is E for the next block: ROL30 of A before that group.
            e = e_w;
            abcd = _mm_add_epi32(abcd, abcd_in);
        }
        }
        // SAFETY: `state` has at least 4 words.
        unsafe { _mm_storeu_si128(state.as_mut_ptr().cast(), _mm_shuffle_epi32(abcd, 0x1B)) };
        state[4] = _mm_extract_epi32(e, 3).cast_unsigned();
    }};
}

#[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
fn compress_shani(_: Sha, state: &mut [u32; 5], parts: [&[[u8; 64]]; 2]) {
    compress_with!(
        _mm_sha1rnds4_epu32,
        _mm_sha1nexte_epu32,
        _mm_sha1msg1_epu32,
        _mm_sha1msg2_epu32,
        state,
        parts
    );
}

#[cfg(test)]
mod tests {
    //! The SHA-NI data flow checked against the portable code, with the four SHA-1
    //! instructions replaced by a model written from their pseudocode in the Intel SDM
    //! (SHA1RNDS4, SHA1NEXTE, SHA1MSG1, SHA1MSG2).

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

    /// SHA1RNDS4: four rounds with function/constant `func`; src1 is A:B:C:D (A in the top
    /// lane), src2 holds W0+E, W1, W2, W3 from the top lane down.
    fn rnds4(src1: __m128i, src2: __m128i, func: i32) -> __m128i {
        let ([d, c, b, a], [w3, w2, w1, w0e]) = (words(src1), words(src2));
        let (f, k): (fn(u32, u32, u32) -> u32, u32) = match func & 3 {
            0 => (|b, c, d| (b & c) ^ (!b & d), 0x5a82_7999),
            1 => (|b, c, d| b ^ c ^ d, 0x6ed9_eba1),
            2 => (|b, c, d| (b & c) ^ (b & d) ^ (c & d), 0x8f1b_bcdc),
            _ => (|b, c, d| b ^ c ^ d, 0xca62_c1d6),
        };
        let (mut a, mut b, mut c, mut d, mut e) = (a, b, c, d, 0u32);
        for w in [w0e, w1, w2, w3] {
            let t = f(b, c, d).wrapping_add(a.rotate_left(5)).wrapping_add(w).wrapping_add(e);
            (a, b, c, d, e) = (t.wrapping_add(k), a, b.rotate_left(30), c, d);
        }
        vector([d, c, b, a])
    }

    /// SHA1NEXTE: src1's top word rotated left by 30, added to src2's top word.
    fn nexte(src1: __m128i, src2: __m128i) -> __m128i {
        let ([.., a], [w3, w2, w1, w0]) = (words(src1), words(src2));
        vector([w3, w2, w1, w0.wrapping_add(a.rotate_left(30))])
    }

    /// SHA1MSG1: W[i] ⊕ W[i+2] for i = 0..4, src1 = W0..W3 and src2 = W4..W7 (top down).
    fn msg1(src1: __m128i, src2: __m128i) -> __m128i {
        let ([w3, w2, w1, w0], [_, _, w5, w4]) = (words(src1), words(src2));
        vector([w3 ^ w5, w2 ^ w4, w1 ^ w3, w0 ^ w2])
    }

    /// SHA1MSG2: finishes W16..W19 = ROL1(src1 ⊕ W13..W16), src2 = W12..W15 (top down).
    fn msg2(src1: __m128i, src2: __m128i) -> __m128i {
        let ([x3, x2, x1, x0], [w15, w14, w13, _]) = (words(src1), words(src2));
        let w16 = (x0 ^ w13).rotate_left(1);
        let w17 = (x1 ^ w14).rotate_left(1);
        let w18 = (x2 ^ w15).rotate_left(1);
        let w19 = (x3 ^ w16).rotate_left(1);
        vector([w19, w18, w17, w16])
    }

    #[target_feature(enable = "sse2,ssse3,sse4.1")]
    fn compress_model(state: &mut [u32; 5], parts: [&[[u8; 64]]; 2]) {
        compress_with!(rnds4, nexte, msg1, msg2, state, parts);
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
        let mut ours = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476, 0xc3d2_e1f0];
        let mut theirs = ours;
        // SAFETY: SSE4.1 (and so SSSE3 and SSE2) was detected above.
        unsafe { compress_model(&mut ours, [&blocks[..1], &blocks[1..]]) };
        super::super::portable::compress(&mut theirs, &blocks);
        assert_eq!(ours, theirs);
    }
}
