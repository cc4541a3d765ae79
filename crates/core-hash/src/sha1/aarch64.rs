//! SHA-1 compression with the Armv8 SHA-1 instructions: `sha1c`/`sha1p`/`sha1m` do four
//! rounds with the choose/parity/majority function, `sha1h` rotates `e` in, and
//! `sha1su0`/`sha1su1` extend the schedule.

use super::K;
use core::arch::aarch64::{
    vaddq_u32, vdupq_n_u32, vgetq_lane_u32, vld1q_u8, vld1q_u32, vreinterpretq_u32_u8, vrev32q_u8,
    vsha1cq_u32, vsha1h_u32, vsha1mq_u32, vsha1pq_u32, vsha1su0q_u32, vsha1su1q_u32, vst1q_u32,
};
use core_cpu::ArmSha2;

/// Compresses each 64-byte block into `state`.
pub(super) fn compress(token: ArmSha2, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    // SAFETY: the `ArmSha2` token proves NEON and the SHA-1/SHA-2 instructions were detected.
    unsafe { compress_sha1(token, state, blocks) }
}

#[target_feature(enable = "neon,sha2")]
fn compress_sha1(_: ArmSha2, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    // SAFETY: `state` has at least 4 words.
    let mut abcd = unsafe { vld1q_u32(state.as_ptr()) };
    let mut e = state[4];
    for block in blocks {
        let (abcd_in, e_in) = (abcd, e);
        // SAFETY: `block` is 64 bytes; these read bytes 16i..16i+16 for i < 4.
        let mut m = core::array::from_fn::<_, 4, _>(|i| unsafe {
            vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(block.as_ptr().add(16 * i))))
        });
        for g in 0..20 {
            let wk = vaddq_u32(m[g % 4], vdupq_n_u32(K[g / 5]));
            let e_next = vsha1h_u32(vgetq_lane_u32::<0>(abcd));
            abcd = match g / 5 {
                0 => vsha1cq_u32(abcd, e, wk),
                2 => vsha1mq_u32(abcd, e, wk),
                _ => vsha1pq_u32(abcd, e, wk),
            };
            e = e_next;
            if g < 16 {
                let t = vsha1su0q_u32(m[g % 4], m[(g + 1) % 4], m[(g + 2) % 4]);
                m[g % 4] = vsha1su1q_u32(t, m[(g + 3) % 4]);
            }
        }
        abcd = vaddq_u32(abcd, abcd_in);
        e = e.wrapping_add(e_in);
    }
    // SAFETY: `state` has at least 4 words.
    unsafe { vst1q_u32(state.as_mut_ptr(), abcd) };
    state[4] = e;
}
