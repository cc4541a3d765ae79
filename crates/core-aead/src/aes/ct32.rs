//! Bitsliced AES on 32-bit words, two blocks at a time: the Cortex-M0 path and the portable
//! implementation on 32-bit CPUs. It needs only 32-bit AND, XOR, NOT, shifts and rotations by
//! constants, so it is constant-time on any core (see [`bitslice`](super::bitslice)).
//!
//! Layout: plane `i` holds bit `i` of the 32 state bytes of two blocks, at bit
//! `8·row + 2·column + block`. Each row is an 8-bit lane, so `ShiftRows` rotates within lanes
//! and `MixColumns`' row rotations are 8-bit word rotations.

use super::RoundKeys;
use super::bitslice;
use zeroize::Zeroize;

/// The round keys as bit planes, each bit repeated for the two blocks.
#[derive(Clone)]
pub(crate) struct Key {
    rk: [[u32; 8]; 15],
    rounds: usize,
}

impl Key {
    pub(super) fn new(keys: &RoundKeys) -> Self {
        let mut rk = [[0u32; 8]; 15];
        for (planes, bytes) in rk.iter_mut().zip(keys.used()) {
            *planes = load(&[*bytes; 2]);
        }
        Self { rk, rounds: keys.rounds }
    }

    fn used(&self) -> &[[u32; 8]] {
        &self.rk[..=self.rounds]
    }
}

impl Drop for Key {
    fn drop(&mut self) {
        self.rk.zeroize();
    }
}

/// Exchanges the bits of `a` above `mask << shift` with the bits of `b` under `mask`.
#[inline(always)]
fn swap(q: &mut [u32; 8], a: usize, b: usize, mask: u32, shift: u32) {
    let (x, y) = (q[a], q[b]);
    q[a] = (x & mask) | ((y & mask) << shift);
    q[b] = ((x >> shift) & mask) | (y & !mask);
}

/// Transposes the 8×8 bit matrices formed by bit `8k + j` of word `i`: afterwards word `j`
/// holds at bit `8k + i` what word `i` held at bit `8k + j`. It is its own inverse.
#[inline(always)]
fn ortho(q: &mut [u32; 8]) {
    for i in (0..8).step_by(2) {
        swap(q, i, i + 1, 0x5555_5555, 1);
    }
    for i in [0, 1, 4, 5] {
        swap(q, i, i + 2, 0x3333_3333, 2);
    }
    for i in 0..4 {
        swap(q, i, i + 4, 0x0F0F_0F0F, 4);
    }
}

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
#[inline(always)]
pub(super) fn shift_rows(x: u32) -> u32 {
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

/// Encrypts two blocks in place.
#[inline]
pub(super) fn encrypt2(key: &Key, blocks: &mut [[u8; 16]; 2]) {
    let mut q = load(blocks);
    bitslice::encrypt(&mut q, key.used());
    store(q, blocks);
}

/// Decrypts two blocks in place.
#[inline]
pub(super) fn decrypt2(key: &Key, blocks: &mut [[u8; 16]; 2]) {
    let mut q = load(blocks);
    bitslice::decrypt(&mut q, key.used());
    store(q, blocks);
}
