//! ChaCha20 for aarch64 with NEON: four blocks per pass, each vector register holding one state
//! word of four consecutive blocks. The 16-bit rotation is `rev32` on halfwords, the 8-bit one
//! a byte table lookup, and 12 and 7 bits a shift plus a shift-right-and-insert; two levels of
//! `trn1`/`trn2` turn the words back into blocks.

use super::Sink;
use core::arch::aarch64::{
    uint32x4_t, vaddq_u32, vdupq_n_u32, veorq_u8, veorq_u32, vld1q_u8, vld1q_u32, vqtbl1q_u8,
    vreinterpretq_u8_u32, vreinterpretq_u16_u32, vreinterpretq_u32_u8, vreinterpretq_u32_u16,
    vreinterpretq_u32_u64, vreinterpretq_u64_u32, vrev32q_u16, vshlq_n_u32, vsriq_n_u32, vst1q_u8,
    vtrn1q_u32, vtrn1q_u64, vtrn2q_u32, vtrn2q_u64,
};
use core_cpu::Neon;

/// Writes the keystream of blocks `state[12]`, `state[12] + 1`, … to `out`.
pub(super) fn keystream(token: Neon, state: &[u32; 16], out: Sink<'_>) {
    // SAFETY: the `Neon` token proves Advanced SIMD was detected.
    unsafe { keystream_neon(token, state, out) }
}

#[target_feature(enable = "neon")]
fn keystream_neon(_: Neon, state: &[u32; 16], mut out: Sink<'_>) {
    let mut counter = state[12];
    while out.blocks_left() > 0 {
        let start = out.position();
        let blocks = four_blocks(state, counter);
        for (i, block) in blocks.iter().enumerate() {
            write_block(&mut out, start + (64 * i).cast_signed(), block);
        }
        out.advance(4);
        counter = counter.wrapping_add(4);
    }
}

/// Sends a keystream block to where `out` wants the block starting at `at`: the key, a whole
/// block of the buffer, a partial last block (through the stack), or nowhere.
#[inline]
#[target_feature(enable = "neon")]
fn write_block(out: &mut Sink<'_>, at: isize, ks: &[uint32x4_t; 4]) {
    if at < 0 {
        if let Some(key) = out.key.as_deref_mut() {
            // SAFETY: `key` is 32 bytes; two 16-byte stores.
            unsafe {
                vst1q_u8(key.as_mut_ptr(), vreinterpretq_u8_u32(ks[0]));
                vst1q_u8(key.as_mut_ptr().add(16), vreinterpretq_u8_u32(ks[1]));
            }
        }
        return;
    }
    let at = at.cast_unsigned();
    let Some(rest) = out.buf.get_mut(at..) else { return };
    if let Some(block) = rest.first_chunk_mut::<64>() {
        for (i, k) in ks.iter().enumerate() {
            // SAFETY: `block` is 64 bytes; this loads and stores bytes 16i..16i+16, i < 4.
            unsafe {
                let p = block.as_mut_ptr().add(16 * i);
                vst1q_u8(p, veorq_u8(vld1q_u8(p), vreinterpretq_u8_u32(*k)));
            }
        }
    } else if !rest.is_empty() {
        let mut bytes = [0u8; 64];
        for (i, k) in ks.iter().enumerate() {
            // SAFETY: `bytes` is 64 bytes; this stores bytes 16i..16i+16, i < 4.
            unsafe { vst1q_u8(bytes.as_mut_ptr().add(16 * i), vreinterpretq_u8_u32(*k)) };
        }
        for (b, k) in rest.iter_mut().zip(bytes) {
            *b ^= k;
        }
        super::wipe(&mut bytes);
    }
}

/// Rotates each lane left by `L` bits (`R` = 32 − `L`): a shift, then the high bits inserted.
#[inline]
#[target_feature(enable = "neon")]
fn rotl<const L: i32, const R: i32>(x: uint32x4_t) -> uint32x4_t {
    vsriq_n_u32::<R>(vshlq_n_u32::<L>(x), x)
}

/// The quarter round (RFC 8439 §2.1) on four registers, lane by lane.
#[inline]
#[target_feature(enable = "neon")]
fn quarter(
    a: &mut uint32x4_t,
    b: &mut uint32x4_t,
    c: &mut uint32x4_t,
    d: &mut uint32x4_t,
    rot8: &[u8; 16],
) {
    // SAFETY: `rot8` is 16 bytes.
    let rot8 = unsafe { vld1q_u8(rot8.as_ptr()) };
    *a = vaddq_u32(*a, *b);
    *d = vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(veorq_u32(*d, *a))));
    *c = vaddq_u32(*c, *d);
    *b = rotl::<12, 20>(veorq_u32(*b, *c));
    *a = vaddq_u32(*a, *b);
    *d = vreinterpretq_u32_u8(vqtbl1q_u8(vreinterpretq_u8_u32(veorq_u32(*d, *a)), rot8));
    *c = vaddq_u32(*c, *d);
    *b = rotl::<7, 25>(veorq_u32(*b, *c));
}

/// The byte permutation that rotates each 32-bit lane left by 8.
const ROT8: [u8; 16] = [3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14];

/// The keystream of four blocks from `counter` on, each as four registers of four words.
#[inline]
#[target_feature(enable = "neon")]
fn four_blocks(state: &[u32; 16], counter: u32) -> [[uint32x4_t; 4]; 4] {
    let mut init: [uint32x4_t; 16] = core::array::from_fn(|i| vdupq_n_u32(state[i]));
    let ctr = [counter, counter.wrapping_add(1), counter.wrapping_add(2), counter.wrapping_add(3)];
    // SAFETY: `ctr` is four words.
    init[12] = unsafe { vld1q_u32(ctr.as_ptr()) };
    let mut x = init;
    for _ in 0..10 {
        let [x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15] = &mut x;
        quarter(x0, x4, x8, x12, &ROT8);
        quarter(x1, x5, x9, x13, &ROT8);
        quarter(x2, x6, x10, x14, &ROT8);
        quarter(x3, x7, x11, x15, &ROT8);
        quarter(x0, x5, x10, x15, &ROT8);
        quarter(x1, x6, x11, x12, &ROT8);
        quarter(x2, x7, x8, x13, &ROT8);
        quarter(x3, x4, x9, x14, &ROT8);
    }
    for (x, s) in x.iter_mut().zip(init) {
        *x = vaddq_u32(*x, s);
    }
    // Words 4g..4g+4 of the four blocks: transpose each 4×4 group of words.
    let mut blocks = [[x[0]; 4]; 4];
    for g in 0..4 {
        let [a, b, c, d] = [x[4 * g], x[4 * g + 1], x[4 * g + 2], x[4 * g + 3]];
        let (ab0, ab1) = (vtrn1q_u32(a, b), vtrn2q_u32(a, b));
        let (cd0, cd1) = (vtrn1q_u32(c, d), vtrn2q_u32(c, d));
        let lo = |p: uint32x4_t, q: uint32x4_t| {
            vreinterpretq_u32_u64(vtrn1q_u64(vreinterpretq_u64_u32(p), vreinterpretq_u64_u32(q)))
        };
        let hi = |p: uint32x4_t, q: uint32x4_t| {
            vreinterpretq_u32_u64(vtrn2q_u64(vreinterpretq_u64_u32(p), vreinterpretq_u64_u32(q)))
        };
        blocks[0][g] = lo(ab0, cd0);
        blocks[1][g] = lo(ab1, cd1);
        blocks[2][g] = hi(ab0, cd0);
        blocks[3][g] = hi(ab1, cd1);
    }
    blocks
}

#[cfg(test)]
mod tests {
    #[test]
    fn rot8_table_rotates_left_by_8() {
        let x: u32 = 0x1122_3344;
        let bytes = x.to_le_bytes();
        let out: [u8; 4] = core::array::from_fn(|i| bytes[usize::from(super::ROT8[i])]);
        assert_eq!(u32::from_le_bytes(out), x.rotate_left(8));
    }
}
