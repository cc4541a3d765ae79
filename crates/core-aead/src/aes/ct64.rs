//! Bitsliced AES on 64-bit words, four blocks at a time: the portable implementation on 64-bit
//! CPUs without AES instructions. Constant-time by construction (see [`bitslice`]).
//!
//! Layout: plane `i` holds bit `i` of all 64 state bytes of four blocks, bit
//! `16·row + 4·column + block` of the word. Each row is a 16-bit lane, so `ShiftRows` rotates
//! within lanes and `MixColumns`' row rotations are 16-bit word rotations.

use super::RoundKeys;
use super::bitslice;
use zeroize::Zeroize;

/// The round keys as bit planes, each bit repeated for the four blocks.
#[derive(Clone)]
pub(crate) struct Key {
    rk: [[u64; 8]; 15],
    rounds: usize,
}

impl Key {
    pub(super) fn new(keys: &RoundKeys) -> Self {
        let mut rk = [[0u64; 8]; 15];
        for (i, planes) in rk[..=keys.rounds].iter_mut().enumerate() {
            let mut bytes = [keys.bytes(i); 4];
            *planes = load(&bytes);
            bytes.zeroize();
        }
        Self { rk, rounds: keys.rounds }
    }

    fn used(&self) -> &[[u64; 8]] {
        &self.rk[..=self.rounds]
    }
}

/// The portable 64-bit implementation (only 64-bit targets list it).
#[cfg(target_pointer_width = "64")]
impl super::Backend for Key {
    fn implementation(&self) -> super::AesImpl {
        super::AesImpl::Ct64
    }

    #[inline(always)]
    fn encrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
        super::batched::<4>(blocks, |b| encrypt4(self, b));
    }

    #[inline(always)]
    fn decrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
        super::batched::<4>(blocks, |b| decrypt4(self, b));
    }

    #[inline(always)]
    fn ctr32(&self, ctr: &mut [u8; 16], buf: &mut [u8]) {
        super::ctr32_batched::<4>(ctr, buf, |b| encrypt4(self, b));
    }
}

impl Drop for Key {
    fn drop(&mut self) {
        self.rk.zeroize();
    }
}

/// Bytes 0..4 of `x` spread to the even bytes of the result.
#[inline(always)]
fn spread(x: u32) -> u64 {
    let x = u64::from(x);
    let x = (x | (x << 16)) & 0x0000_FFFF_0000_FFFF;
    (x | (x << 8)) & 0x00FF_00FF_00FF_00FF
}

/// The even bytes of `x`, packed: the inverse of [`spread`].
#[inline(always)]
fn gather(x: u64) -> u32 {
    let x = x & 0x00FF_00FF_00FF_00FF;
    let x = (x | (x >> 8)) & 0x0000_FFFF_0000_FFFF;
    (x | (x >> 16)) as u32
}

/// Exchanges the bits of `a` above `mask << shift` with the bits of `b` under `mask`.
#[inline(always)]
fn swap(q: &mut [u64; 8], a: usize, b: usize, mask: u64, shift: u32) {
    let (x, y) = (q[a], q[b]);
    q[a] = (x & mask) | ((y & mask) << shift);
    q[b] = ((x >> shift) & mask) | (y & !mask);
}

/// Transposes the 8×8 bit matrices formed by bit `8k + j` of word `i`: afterwards word `j`
/// holds at bit `8k + i` what word `i` held at bit `8k + j`. It is its own inverse.
#[inline(always)]
fn ortho(q: &mut [u64; 8]) {
    for i in (0..8).step_by(2) {
        swap(q, i, i + 1, 0x5555_5555_5555_5555, 1);
    }
    for i in [0, 1, 4, 5] {
        swap(q, i, i + 2, 0x3333_3333_3333_3333, 2);
    }
    for i in 0..4 {
        swap(q, i, i + 4, 0x0F0F_0F0F_0F0F_0F0F, 4);
    }
}

/// Four blocks into bit planes. Word `4·(column & 1) + block` gets byte `2·row + column / 2`
/// from the block, so that after [`ortho`] bit `8·byte + word` is `16·row + 4·column + block`.
#[inline(always)]
fn load(blocks: &[[u8; 16]; 4]) -> [u64; 8] {
    let mut q = [0u64; 8];
    for (b, block) in blocks.iter().enumerate() {
        let col = |c: usize| {
            u32::from_le_bytes([block[4 * c], block[4 * c + 1], block[4 * c + 2], block[4 * c + 3]])
        };
        q[b] = spread(col(0)) | (spread(col(2)) << 8);
        q[4 + b] = spread(col(1)) | (spread(col(3)) << 8);
    }
    ortho(&mut q);
    q
}

/// The inverse of [`load`].
#[inline(always)]
fn store(mut q: [u64; 8], blocks: &mut [[u8; 16]; 4]) {
    ortho(&mut q);
    for (b, block) in blocks.iter_mut().enumerate() {
        let cols = [gather(q[b]), gather(q[4 + b]), gather(q[b] >> 8), gather(q[4 + b] >> 8)];
        for (c, word) in cols.iter().enumerate() {
            block[4 * c..4 * c + 4].copy_from_slice(&word.to_le_bytes());
        }
    }
    q.zeroize();
}

/// `ShiftRows`: row `r`'s 16-bit lane rotated right by `4r` bits (one column per 4 bits).
#[inline(always)]
pub(super) fn shift_rows(x: u64) -> u64 {
    (x & 0x0000_0000_0000_FFFF)
        | ((x >> 4) & 0x0000_0000_0FFF_0000)
        | ((x << 12) & 0x0000_0000_F000_0000)
        | ((x >> 8) & 0x0000_00FF_0000_0000)
        | ((x << 8) & 0x0000_FF00_0000_0000)
        | ((x >> 12) & 0x000F_0000_0000_0000)
        | ((x << 4) & 0xFFF0_0000_0000_0000)
}

/// `InvShiftRows`: row `r`'s lane rotated left by `4r` bits.
#[inline(always)]
pub(super) fn inv_shift_rows(x: u64) -> u64 {
    (x & 0x0000_0000_0000_FFFF)
        | ((x << 4) & 0x0000_0000_FFF0_0000)
        | ((x >> 12) & 0x0000_0000_000F_0000)
        | ((x >> 8) & 0x0000_00FF_0000_0000)
        | ((x << 8) & 0x0000_FF00_0000_0000)
        | ((x >> 4) & 0x0FFF_0000_0000_0000)
        | ((x << 12) & 0xF000_0000_0000_0000)
}

/// Encrypts four blocks in place.
#[inline]
pub(super) fn encrypt4(key: &Key, blocks: &mut [[u8; 16]; 4]) {
    let mut q = load(blocks);
    bitslice::encrypt(&mut q, key.used());
    store(q, blocks);
}

/// Decrypts four blocks in place.
#[inline]
pub(super) fn decrypt4(key: &Key, blocks: &mut [[u8; 16]; 4]) {
    let mut q = load(blocks);
    bitslice::decrypt(&mut q, key.used());
    store(q, blocks);
}
