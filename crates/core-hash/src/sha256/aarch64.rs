//! SHA-256 compression with the Armv8 SHA-2 instructions: `sha256h`/`sha256h2` do four
//! rounds on the ABCD/EFGH halves of the state, `sha256su0`/`sha256su1` the schedule.

use super::K;
use core::arch::aarch64::{
    vaddq_u32, vld1q_u8, vld1q_u32, vreinterpretq_u32_u8, vrev32q_u8, vsha256h2q_u32,
    vsha256hq_u32, vsha256su0q_u32, vsha256su1q_u32, vst1q_u32,
};
use core_cpu::ArmSha2;

/// Compresses each 64-byte block into `state`.
pub(super) fn compress(token: ArmSha2, state: &mut [u32; 8], blocks: &[[u8; 64]]) {
    // SAFETY: the `ArmSha2` token proves NEON and the SHA-2 instructions were detected.
    unsafe { compress_sha2(token, state, blocks) }
}

#[target_feature(enable = "neon,sha2")]
fn compress_sha2(_: ArmSha2, state: &mut [u32; 8], blocks: &[[u8; 64]]) {
    // SAFETY: `state` is 8 words; two loads of 4 words at offsets 0 and 4.
    let (mut abcd, mut efgh) =
        unsafe { (vld1q_u32(state.as_ptr()), vld1q_u32(state.as_ptr().add(4))) };
    for block in blocks {
        let (abcd_in, efgh_in) = (abcd, efgh);
        // SAFETY: `block` is 64 bytes; these read bytes 16i..16i+16 for i < 4.
        let mut m = core::array::from_fn::<_, 4, _>(|i| unsafe {
            vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(block.as_ptr().add(16 * i))))
        });
        for i in 0..16 {
            // SAFETY: K has 64 words; this reads K[4i..4i+4].
            let wk = vaddq_u32(m[i % 4], unsafe { vld1q_u32(K.as_ptr().add(4 * i)) });
            if i < 12 {
                // W[4(i+4)..] from W[4i..], W[4i+4..], W[4i+8..], W[4i+12..].
                let s0 = vsha256su0q_u32(m[i % 4], m[(i + 1) % 4]);
                m[i % 4] = vsha256su1q_u32(s0, m[(i + 2) % 4], m[(i + 3) % 4]);
            }
            let abcd_prev = abcd;
            abcd = vsha256hq_u32(abcd, efgh, wk);
            efgh = vsha256h2q_u32(efgh, abcd_prev, wk);
        }
        abcd = vaddq_u32(abcd, abcd_in);
        efgh = vaddq_u32(efgh, efgh_in);
    }
    // SAFETY: `state` is 8 words; two stores of 4 words at offsets 0 and 4.
    unsafe {
        vst1q_u32(state.as_mut_ptr(), abcd);
        vst1q_u32(state.as_mut_ptr().add(4), efgh);
    }
}
