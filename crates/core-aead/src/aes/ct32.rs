//! Bitsliced AES on 32-bit words, two blocks at a time: the portable implementation on 32-bit
//! CPUs. It needs only 32-bit AND, XOR, NOT, shifts and rotations by constants, so it is
//! constant-time on any core (see [`bitslice`]).
//!
//! Layout: plane `i` holds bit `i` of the 32 state bytes of two blocks, at bit
//! `8·row + 2·column + block`. Each row is an 8-bit lane, so `ShiftRows` rotates within lanes
//! and `MixColumns`' row rotations are 8-bit word rotations.
//!
//! The Cortex-M0's `thumb1` implementation shares the key schedule, the loading and storing
//! and the loops here, and replaces the hot [`Steps`] with Thumb-1 assembly; the Rust steps
//! here are what it computes and what the tests compare it with.

use super::bitslice;
use core::marker::PhantomData;
use zeroize::Zeroize;

/// The round keys as bit planes, each bit repeated for the two blocks, for the steps `S`
/// ([`Ct32`] or `thumb1`'s): one schedule type per implementation, each the
/// [`Backend`](super::Backend) of its file.
pub(crate) struct Key<S> {
    rk: [[u32; 8]; 15],
    rounds: usize,
    steps: PhantomData<S>,
}

// Not derived: that would ask `S: Clone` of the step types, which hold nothing.
impl<S> Clone for Key<S> {
    fn clone(&self) -> Self {
        Self { rk: self.rk, rounds: self.rounds, steps: PhantomData }
    }
}

impl<S: Steps> Key<S> {
    /// Expands a key of a length `key_rounds` accepted. The words of the expansion go into
    /// the first half of the planes' storage and are spread from the last round key down, so
    /// no round key overtakes one not yet read: the key schedule needs no other copy of
    /// itself. Out of line, so that its caller moves it straight into place (a Cortex-M0 has
    /// little stack for 480-byte temporaries).
    #[inline(never)]
    pub(super) fn new(key: &[u8]) -> Self {
        let mut rk = [[0u32; 8]; 15];
        let rounds = super::expand_words_with(key, rk.as_flattened_mut(), sub_word::<S>);
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
            S::ortho(planes);
        }
        Self { rk, rounds, steps: PhantomData }
    }
}

impl<S> Key<S> {
    pub(super) fn used(&self) -> &[[u32; 8]] {
        &self.rk[..=self.rounds]
    }
}

impl<S> Drop for Key<S> {
    fn drop(&mut self) {
        self.rk.zeroize();
    }
}

/// Exchanges the bits of `x` above `mask << shift` with the bits of `y` under `mask`.
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

/// The steps of the cipher a backend may run in its own code: [`Ct32`] is the Rust here, and
/// `thumb1` the Cortex-M0's Thumb-1 assembly. The key schedule, the loading and storing of
/// blocks, the CTR loop and the inverse cipher's linear steps are shared.
pub(crate) trait Steps: Sized {
    /// [`ortho`]: blocks into planes and back.
    fn ortho(q: &mut [u32; 8]);
    /// [`sub_bytes`] on the planes.
    fn sub_bytes(q: &mut [u32; 8]);
    /// The cipher on the planes of two blocks ([`encrypt_planes`]).
    fn encrypt_planes(key: &Key<Self>, q: &mut [u32; 8]);
    /// XORs at most 32 bytes of keystream from the planes into `chunk`
    /// ([`xor_keystream_bytes`]).
    fn xor_keystream(q: &[u32; 8], chunk: &mut [u8]);
}

/// The Rust steps: the portable implementation.
pub(crate) struct Ct32;

impl Steps for Ct32 {
    #[inline(always)]
    fn ortho(q: &mut [u32; 8]) {
        ortho(q);
    }

    #[inline(always)]
    fn sub_bytes(q: &mut [u32; 8]) {
        sub_bytes(q);
    }

    #[inline(always)]
    fn encrypt_planes(key: &Key<Self>, q: &mut [u32; 8]) {
        encrypt_planes(key, q);
    }

    #[inline(always)]
    fn xor_keystream(q: &[u32; 8], chunk: &mut [u8]) {
        xor_keystream_bytes(q, chunk);
    }
}

/// Two blocks into bit planes: word `2·column + block` is that column of that block (byte
/// `row` at bits `8·row`), so after [`ortho`] bit `8·row + word` is `8·row + 2·column + block`.
#[inline(always)]
fn load<S: Steps>(blocks: &[[u8; 16]; 2]) -> [u32; 8] {
    let mut q = [0u32; 8];
    for (b, block) in blocks.iter().enumerate() {
        for (c, col) in block.chunks_exact(4).enumerate() {
            q[2 * c + b] = u32::from_le_bytes([col[0], col[1], col[2], col[3]]);
        }
    }
    S::ortho(&mut q);
    q
}

/// The inverse of [`load`].
#[inline(always)]
fn store<S: Steps>(mut q: [u32; 8], blocks: &mut [[u8; 16]; 2]) {
    S::ortho(&mut q);
    for (b, block) in blocks.iter_mut().enumerate() {
        for (c, col) in block.chunks_exact_mut(4).enumerate() {
            col.copy_from_slice(&q[2 * c + b].to_le_bytes());
        }
    }
    q.zeroize();
}

/// `ShiftRows`: row `r`'s 8-bit lane rotated right by `2r` bits (one column per 2 bits), as
/// masks and shifts.
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

/// `SubBytes` on the planes: the circuit of [`bitslice::sub_bytes`], kept out of line so the
/// cipher, its inverse and the key expansion share one copy.
#[inline(never)]
pub(super) fn sub_bytes(q: &mut [u32; 8]) {
    bitslice::sub_bytes(q);
}

/// `SubWord` (FIPS 197 §5.2) for the key expansion, through the planes: with `w` as word 0
/// and the others zero, [`ortho`] leaves bit `j` of byte `k` at bit `8k` of plane `j`, the
/// shared [`sub_bytes`] substitutes there, and [`ortho`] brings those bits back to word 0
/// (the other positions hold S(0) and are dropped). Two calls to code the cipher links
/// anyway, instead of 64 single-bit moves. Shifts by constants only: constant time.
pub(super) fn sub_word<S: Steps>(w: u32) -> u32 {
    let mut q = [w, 0, 0, 0, 0, 0, 0, 0];
    S::ortho(&mut q);
    S::sub_bytes(&mut q);
    S::ortho(&mut q);
    let out = q[0];
    q.zeroize();
    out
}

/// The cipher on the planes of two blocks: one out-of-line copy for [`encrypt2`] and
/// [`ctr32`] (GCM links both).
#[inline(never)]
fn encrypt_planes(key: &Key<Ct32>, q: &mut [u32; 8]) {
    bitslice::encrypt(q, key.used());
}

/// Encrypts two blocks in place.
#[inline]
pub(super) fn encrypt2<S: Steps>(key: &Key<S>, blocks: &mut [[u8; 16]; 2]) {
    let mut q = load::<S>(blocks);
    S::encrypt_planes(key, &mut q);
    store::<S>(q, blocks);
}

/// CTR mode as [`Aes::ctr32`](super::Aes::ctr32) describes it, two blocks per pass. The
/// counter blocks go straight into the planes as words (the first twelve bytes of `ctr` once,
/// the counter byte-swapped), and the keystream goes into `buf` (by XOR) straight from the planes:
/// no byte buffer, no copy of the state.
pub(super) fn ctr32<S: Steps>(key: &Key<S>, ctr: &mut [u8; 16], buf: &mut [u8]) {
    let word =
        |i: usize| u32::from_le_bytes([ctr[4 * i], ctr[4 * i + 1], ctr[4 * i + 2], ctr[4 * i + 3]]);
    let (w0, w1, w2) = (word(0), word(1), word(2));
    let mut c = super::counter(ctr);
    for chunk in buf.chunks_mut(32) {
        let mut q = [w0, w0, w1, w1, w2, w2, c.swap_bytes(), c.wrapping_add(1).swap_bytes()];
        S::ortho(&mut q);
        S::encrypt_planes(key, &mut q);
        S::ortho(&mut q);
        S::xor_keystream(&q, chunk);
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

/// Decrypts two blocks in place.
#[inline]
pub(super) fn decrypt2<S: Steps>(key: &Key<S>, blocks: &mut [[u8; 16]; 2]) {
    let mut q = load::<S>(blocks);
    bitslice::decrypt_with(&mut q, key.used(), S::sub_bytes);
    store::<S>(q, blocks);
}

/// The portable 32-bit implementation: its loops with the Rust [`Steps`].
#[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
impl super::Backend for Key<Ct32> {
    fn implementation(&self) -> super::AesImpl {
        super::AesImpl::Ct32
    }

    #[inline(always)]
    fn encrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
        super::batched::<2>(blocks, |b| encrypt2(self, b));
    }

    #[inline(always)]
    fn decrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
        super::batched::<2>(blocks, |b| decrypt2(self, b));
    }

    #[inline(always)]
    fn ctr32(&self, ctr: &mut [u8; 16], buf: &mut [u8]) {
        ctr32(self, ctr, buf);
    }
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
                assert_eq!(sub_word::<Ct32>(w), bitslice::sub_word(w), "{w:#010x}");
            }
        }
        let mut w = 0x9e37_79b9u32;
        for _ in 0..1000 {
            w ^= w << 13;
            w ^= w >> 17;
            w ^= w << 5;
            assert_eq!(sub_word::<Ct32>(w), bitslice::sub_word(w), "{w:#010x}");
        }
    }
}
