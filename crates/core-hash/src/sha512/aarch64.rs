//! SHA-512 compression with the Armv8.2 SHA-512 instructions. The state sits in four
//! registers (ab, cd, ef, gh); `sha512h` computes T1 for two rounds and `sha512h2` the two new
//! values of `a`, so each pair of rounds is two instructions plus register renaming.

use super::K;
use core::arch::aarch64::{
    uint64x2_t, vaddq_u64, vextq_u64, vld1q_u8, vld1q_u64, vreinterpretq_u64_u8, vrev64q_u8,
    vsha512h2q_u64, vsha512hq_u64, vsha512su0q_u64, vsha512su1q_u64, vst1q_u64,
};
use core_cpu::ArmSha512;

/// Compresses each 128-byte block into `state`.
pub(super) fn compress(token: ArmSha512, state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    // SAFETY: the `ArmSha512` token proves NEON and the SHA-512 instructions were detected.
    unsafe { compress_sha512(token, state, blocks) }
}

#[target_feature(enable = "neon,sha3")]
fn compress_sha512(_: ArmSha512, state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    // SAFETY: `state` is 8 words; four loads of 2 words at offsets 0, 2, 4, 6.
    let mut s: [uint64x2_t; 4] =
        core::array::from_fn(|i| unsafe { vld1q_u64(state.as_ptr().add(2 * i)) });
    for block in blocks {
        let saved = s;
        // SAFETY: `block` is 128 bytes; these read bytes 16i..16i+16 for i < 8.
        let mut m: [uint64x2_t; 8] = core::array::from_fn(|i| unsafe {
            vreinterpretq_u64_u8(vrev64q_u8(vld1q_u8(block.as_ptr().add(16 * i))))
        });
        let [mut ab, mut cd, mut ef, mut gh] = s;
        for i in 0..40 {
            // SAFETY: K has 80 words; this reads K[2i..2i+2].
            let kw = vaddq_u64(m[i % 8], unsafe { vld1q_u64(K.as_ptr().add(2 * i)) });
            if i < 32 {
                // W[2(i+8)..]: σ0 from the next pair, σ1 from W[t-2], W[t-7] across pairs.
                let s0 = vsha512su0q_u64(m[i % 8], m[(i + 1) % 8]);
                let w7 = vextq_u64::<1>(m[(i + 4) % 8], m[(i + 5) % 8]);
                m[i % 8] = vsha512su1q_u64(s0, m[(i + 7) % 8], w7);
            }
            // [g + KW(t+1), h + KW(t)], [f, g], [d, e] as the instructions expect.
            let h_kw = vaddq_u64(gh, vextq_u64::<1>(kw, kw));
            let fg = vextq_u64::<1>(ef, gh);
            let de = vextq_u64::<1>(cd, ef);
            let t1 = vsha512hq_u64(h_kw, fg, de);
            let new_ab = vsha512h2q_u64(t1, cd, ab);
            gh = ef;
            ef = vaddq_u64(cd, t1);
            cd = ab;
            ab = new_ab;
        }
        s = [ab, cd, ef, gh];
        for (x, y) in s.iter_mut().zip(saved) {
            *x = vaddq_u64(*x, y);
        }
    }
    for (i, v) in s.into_iter().enumerate() {
        // SAFETY: `state` is 8 words; this stores words 2i and 2i+1.
        unsafe { vst1q_u64(state.as_mut_ptr().add(2 * i), v) };
    }
}
