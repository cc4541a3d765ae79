//! Bitsliced AES on 32-bit words, two blocks at a time: the Cortex-M0 path and the portable
//! implementation on 32-bit CPUs. It needs only 32-bit AND, XOR, NOT, shifts and rotations by
//! constants, so it is constant-time on any core (see [`bitslice`]).
//!
//! Layout: plane `i` holds bit `i` of the 32 state bytes of two blocks, at bit
//! `8·row + 2·column + block`. Each row is an 8-bit lane, so `ShiftRows` rotates within lanes
//! and `MixColumns`' row rotations are 8-bit word rotations.
//!
//! On Arm (the Cortex-M0) the S-box, a middle round's linear steps and CTR's keystream XOR
//! are Thumb-1 assembly (`thumb1.rs` and [`xor_keystream`]); the Rust here is what they
//! compute and what every other target runs.

use super::bitslice;
use zeroize::Zeroize;

/// The round keys as bit planes, each bit repeated for the two blocks.
#[derive(Clone)]
pub(crate) struct Key {
    rk: [[u32; 8]; 15],
    rounds: usize,
}

impl Key {
    /// Expands a key of a length `key_rounds` accepted. The words of the expansion go into
    /// the first half of the planes' storage and are spread from the last round key down, so
    /// no round key overtakes one not yet read: the key schedule needs no other copy of
    /// itself. Out of line, so that its caller moves it straight into place (a Cortex-M0 has
    /// little stack for 480-byte temporaries).
    #[inline(never)]
    pub(super) fn new(key: &[u8]) -> Self {
        let mut rk = [[0u32; 8]; 15];
        let rounds = super::expand_words(key, rk.as_flattened_mut());
        for i in (0..=rounds.min(14)).rev() {
            // Each round key's column words go straight into the words of both blocks (what
            // `load` of two copies of its bytes gives, without building them).
            let w = rk.as_flattened();
            let cols = [w[4 * i], w[4 * i + 1], w[4 * i + 2], w[4 * i + 3]];
            let planes = &mut rk[i];
            for (c, w) in cols.into_iter().enumerate() {
                planes[2 * c] = w;
                planes[2 * c + 1] = w;
            }
            ortho(planes);
        }
        Self { rk, rounds }
    }

    pub(super) fn used(&self) -> &[[u32; 8]] {
        &self.rk[..=self.rounds]
    }
}

impl Drop for Key {
    fn drop(&mut self) {
        self.rk.zeroize();
    }
}

/// Exchanges the bits of `x` above `mask << shift` with the bits of `y` under `mask`.
#[cfg(not(all(feature = "asm", target_arch = "arm")))]
#[inline(always)]
fn swap(x: u32, y: u32, mask: u32, shift: u32) -> (u32, u32) {
    // A delta swap: one mask and five operations.
    let t = ((x >> shift) ^ y) & mask;
    (x ^ (t << shift), y ^ t)
}

/// Transposes the 8×8 bit matrices formed by bit `8k + j` of word `i`: afterwards word `j`
/// holds at bit `8k + i` what word `i` held at bit `8k + j`. It is its own inverse. Written
/// out word by word: at the size-optimised levels a Cortex-M0 is built with, a loop over the
/// pairs stays a loop that addresses every word on the stack through its index. Out of line:
/// the key schedule, CTR and the block functions share one copy (about 200 bytes each), and
/// a call costs a few cycles of the ten thousand two blocks take.
#[cfg(not(all(feature = "asm", target_arch = "arm")))]
#[inline(never)]
fn ortho(q: &mut [u32; 8]) {
    let [q0, q1, q2, q3, q4, q5, q6, q7] = *q;
    let (q0, q1) = swap(q0, q1, 0x5555_5555, 1);
    let (q2, q3) = swap(q2, q3, 0x5555_5555, 1);
    let (q4, q5) = swap(q4, q5, 0x5555_5555, 1);
    let (q6, q7) = swap(q6, q7, 0x5555_5555, 1);
    let (q0, q2) = swap(q0, q2, 0x3333_3333, 2);
    let (q1, q3) = swap(q1, q3, 0x3333_3333, 2);
    let (q4, q6) = swap(q4, q6, 0x3333_3333, 2);
    let (q5, q7) = swap(q5, q7, 0x3333_3333, 2);
    let (q0, q4) = swap(q0, q4, 0x0F0F_0F0F, 4);
    let (q1, q5) = swap(q1, q5, 0x0F0F_0F0F, 4);
    let (q2, q6) = swap(q2, q6, 0x0F0F_0F0F, 4);
    let (q3, q7) = swap(q3, q7, 0x0F0F_0F0F, 4);
    *q = [q0, q1, q2, q3, q4, q5, q6, q7];
}

/// [`ortho`], [`shift_rows`], [`sub_bytes`], the cipher on the planes and the keystream XOR on
/// the Cortex-M0: the same steps in Thumb-1 assembly.
#[cfg(all(feature = "asm", target_arch = "arm"))]
use super::thumb1::{encrypt_planes, ortho, xor_keystream};
#[cfg(all(feature = "asm", target_arch = "arm"))]
pub(super) use super::thumb1::{shift_rows, sub_bytes};

/// Two blocks into bit planes: word `2·column + block` is that column of that block (byte
/// `row` at bits `8·row`), so after [`ortho`] bit `8·row + word` is `8·row + 2·column + block`.
#[inline(always)]
fn load(blocks: &[[u8; 16]; 2]) -> [u32; 8] {
    let mut q = [0u32; 8];
    for (b, block) in blocks.iter().enumerate() {
        for (c, col) in block.chunks_exact(4).enumerate() {
            q[2 * c + b] = u32::from_le_bytes([col[0], col[1], col[2], col[3]]);
        }
    }
    ortho(&mut q);
    q
}

/// The inverse of [`load`].
#[inline(always)]
fn store(mut q: [u32; 8], blocks: &mut [[u8; 16]; 2]) {
    ortho(&mut q);
    for (b, block) in blocks.iter_mut().enumerate() {
        for (c, col) in block.chunks_exact_mut(4).enumerate() {
            col.copy_from_slice(&q[2 * c + b].to_le_bytes());
        }
    }
    q.zeroize();
}

/// `ShiftRows`: row `r`'s 8-bit lane rotated right by `2r` bits (one column per 2 bits).
#[cfg(not(all(feature = "asm", target_arch = "arm")))]
#[inline(always)]
pub(super) fn shift_rows(x: u32) -> u32 {
    shift_rows_masks(x)
}

/// [`shift_rows`] as masks and shifts, the form compilers generate well where a mask fits in
/// an instruction or stays in a register.
#[cfg_attr(all(feature = "asm", target_arch = "arm"), allow(dead_code))]
#[inline(always)]
fn shift_rows_masks(x: u32) -> u32 {
    (x & 0x0000_00FF)
        | ((x >> 2) & 0x0000_3F00)
        | ((x << 6) & 0x0000_C000)
        | ((x >> 4) & 0x000F_0000)
        | ((x << 4) & 0x00F0_0000)
        | ((x >> 6) & 0x0300_0000)
        | ((x << 2) & 0xFC00_0000)
}

/// `InvShiftRows`: row `r`'s lane rotated left by `2r` bits.
#[inline(always)]
pub(super) fn inv_shift_rows(x: u32) -> u32 {
    (x & 0x0000_00FF)
        | ((x << 2) & 0x0000_FC00)
        | ((x >> 6) & 0x0000_0300)
        | ((x >> 4) & 0x000F_0000)
        | ((x << 4) & 0x00F0_0000)
        | ((x >> 2) & 0x3F00_0000)
        | ((x << 6) & 0xC000_0000)
}

/// `SubBytes` on the planes: the circuit of [`bitslice::sub_bytes`], kept out of line so the
/// cipher, its inverse and the key expansion share one copy.
#[cfg(not(all(feature = "asm", target_arch = "arm")))]
#[inline(never)]
pub(super) fn sub_bytes(q: &mut [u32; 8]) {
    bitslice::sub_bytes(q);
}

/// `SubWord` (FIPS 197 §5.2) for the key expansion, through the planes: with `w` as word 0
/// and the others zero, [`ortho`] leaves bit `j` of byte `k` at bit `8k` of plane `j`, the
/// shared [`sub_bytes`] substitutes there, and [`ortho`] brings those bits back to word 0
/// (the other positions hold S(0) and are dropped). Two calls to code the cipher links
/// anyway, instead of 64 single-bit moves. Shifts by constants only: constant time.
pub(super) fn sub_word(w: u32) -> u32 {
    let mut q = [w, 0, 0, 0, 0, 0, 0, 0];
    ortho(&mut q);
    sub_bytes(&mut q);
    ortho(&mut q);
    let out = q[0];
    q.zeroize();
    out
}

/// The cipher on the planes of two blocks: one out-of-line copy for [`encrypt2`] and
/// [`ctr32`] (GCM links both).
#[cfg(not(all(feature = "asm", target_arch = "arm")))]
#[inline(never)]
fn encrypt_planes(key: &Key, q: &mut [u32; 8]) {
    bitslice::encrypt(q, key.used());
}

/// Encrypts two blocks in place.
#[inline]
pub(super) fn encrypt2(key: &Key, blocks: &mut [[u8; 16]; 2]) {
    let mut q = load(blocks);
    encrypt_planes(key, &mut q);
    store(q, blocks);
}

/// CTR mode as [`Aes::ctr32`](super::Aes::ctr32) describes it, two blocks per pass. The
/// counter blocks go straight into the planes as words (the first twelve bytes of `ctr` once,
/// the counter byte-swapped), and the keystream goes into `buf` (by XOR) straight from the planes:
/// no byte buffer, no copy of the state.
pub(super) fn ctr32(key: &Key, ctr: &mut [u8; 16], buf: &mut [u8]) {
    let word =
        |i: usize| u32::from_le_bytes([ctr[4 * i], ctr[4 * i + 1], ctr[4 * i + 2], ctr[4 * i + 3]]);
    let (w0, w1, w2) = (word(0), word(1), word(2));
    let mut c = super::counter(ctr);
    for chunk in buf.chunks_mut(32) {
        let mut q = [w0, w0, w1, w1, w2, w2, c.swap_bytes(), c.wrapping_add(1).swap_bytes()];
        ortho(&mut q);
        encrypt_planes(key, &mut q);
        ortho(&mut q);
        xor_keystream(&q, chunk);
        c = c.wrapping_add(chunk.len().div_ceil(16) as u32);
        q.zeroize();
    }
    super::set_counter(ctr, c);
}

/// XORs `chunk` (at most 32 bytes) with the keystream in the planes after [`ortho`]: word
/// `2·column + block` is bytes `16·block + 4·column..`. A word at a time, its bytes shifted
/// out.
#[inline(always)]
pub(super) fn xor_keystream_bytes(q: &[u32; 8], chunk: &mut [u8]) {
    for (k, bytes) in chunk.chunks_mut(4).enumerate() {
        // `2·(k mod 4) + k/4`, written so that the index is visibly below 8.
        let mut w = q[(2 * k + k / 4) % 8];
        for b in bytes {
            *b ^= w as u8;
            w >>= 8;
        }
    }
}

/// [`xor_keystream_bytes`] where no assembly replaces it.
#[cfg(not(all(feature = "asm", target_arch = "arm")))]
#[inline(always)]
fn xor_keystream(q: &[u32; 8], chunk: &mut [u8]) {
    xor_keystream_bytes(q, chunk);
}

/// Decrypts two blocks in place.
#[inline]
pub(super) fn decrypt2(key: &Key, blocks: &mut [[u8; 16]; 2]) {
    let mut q = load(blocks);
    bitslice::decrypt(&mut q, key.used());
    store(q, blocks);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The transposing `SubWord` equals the bit-by-bit reference on every byte in every
    /// position and on a spread of words.
    #[test]
    fn sub_word_matches_reference() {
        for x in 0..=255u32 {
            for shift in [0, 8, 16, 24] {
                let w = (x << shift) | (0x5a ^ x).rotate_left(shift + 8);
                assert_eq!(sub_word(w), bitslice::sub_word(w), "{w:#010x}");
            }
        }
        let mut w = 0x9e37_79b9u32;
        for _ in 0..1000 {
            w ^= w << 13;
            w ^= w >> 17;
            w ^= w << 5;
            assert_eq!(sub_word(w), bitslice::sub_word(w), "{w:#010x}");
        }
    }
}
