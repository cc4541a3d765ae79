//! Multi-buffer CBC encryption with VAES on ZMM registers: sixteen streams, four per register
//! (one per 128-bit lane, each with its own round keys: one row of the transposed key table
//! is one 64-byte load), four registers in flight. Each step gathers block `i` of four
//! streams into a register (`vinserti32x4`) and scatters the ciphertext back
//! (`vextracti32x4`); the chaining values stay in registers across the whole run.

use super::{CBC_MAX_LANES, LaneKeys};
use core::arch::x86_64::{
    __m512i, _mm_loadu_si128, _mm_storeu_si128, _mm512_aesenc_epi128, _mm512_aesenclast_epi128,
    _mm512_castsi128_si512, _mm512_castsi512_si128, _mm512_extracti32x4_epi32, _mm512_inserti32x4,
    _mm512_loadu_si512, _mm512_setzero_si512, _mm512_storeu_si512, _mm512_xor_si512,
};
use core_cpu::Vaes512;

/// ZMM registers, each holding four streams.
const REGS: usize = 4;

/// Encrypts lanes `0..16`, each over its blocks (all the same number), chaining from and
/// updating `chain`.
pub(super) fn cbc_encrypt(
    token: Vaes512,
    rounds: usize,
    keys: &LaneKeys,
    chain: &mut [[u8; 16]; CBC_MAX_LANES],
    blocks: &mut [&mut [[u8; 16]]; CBC_MAX_LANES],
) {
    let _ = token;
    // SAFETY: the `Vaes512` token proves VAES, AES-NI and AVX-512 F/BW/VL/DQ were detected.
    unsafe { cbc_encrypt_vaes512(rounds, keys, chain, blocks) }
}

/// Round key `row` of the four lanes of register `g`.
#[target_feature(enable = "avx512f")]
#[inline]
fn key4(row: &[[u8; 16]; CBC_MAX_LANES], g: usize) -> __m512i {
    let four = &row.as_chunks::<4>().0[g];
    // SAFETY: `four` is 64 readable bytes and `loadu` has no alignment requirement.
    unsafe { _mm512_loadu_si512(four.as_ptr().cast()) }
}

/// Block `i` of lanes `4g..4g + 4` in one register.
#[target_feature(enable = "avx512f")]
#[inline]
fn gather(blocks: &[&mut [[u8; 16]]; CBC_MAX_LANES], g: usize, i: usize) -> __m512i {
    let lane = |q: usize| {
        let block: &[u8; 16] = &blocks[4 * g + q][i];
        // SAFETY: `block` is 16 readable bytes and `loadu` has no alignment requirement.
        unsafe { _mm_loadu_si128(block.as_ptr().cast()) }
    };
    let v = _mm512_castsi128_si512(lane(0));
    let v = _mm512_inserti32x4::<1>(v, lane(1));
    let v = _mm512_inserti32x4::<2>(v, lane(2));
    _mm512_inserti32x4::<3>(v, lane(3))
}

/// Stores the four lanes of `v` as block `i` of lanes `4g..4g + 4`.
#[target_feature(enable = "avx512f")]
#[inline]
fn scatter(blocks: &mut [&mut [[u8; 16]]; CBC_MAX_LANES], g: usize, i: usize, v: __m512i) {
    let parts = [
        _mm512_castsi512_si128(v),
        _mm512_extracti32x4_epi32::<1>(v),
        _mm512_extracti32x4_epi32::<2>(v),
        _mm512_extracti32x4_epi32::<3>(v),
    ];
    for (q, part) in parts.into_iter().enumerate() {
        let block: &mut [u8; 16] = &mut blocks[4 * g + q][i];
        // SAFETY: `block` is 16 writable bytes and `storeu` has no alignment requirement.
        unsafe { _mm_storeu_si128(block.as_mut_ptr().cast(), part) }
    }
}

#[target_feature(enable = "aes,vaes,avx512f")]
fn cbc_encrypt_vaes512(
    rounds: usize,
    keys: &LaneKeys,
    chain: &mut [[u8; 16]; CBC_MAX_LANES],
    blocks: &mut [&mut [[u8; 16]]; CBC_MAX_LANES],
) {
    let n = blocks[0].len();
    let (first, middle, last) = (&keys[0], &keys[1..rounds], &keys[rounds.min(14)]);
    let mut x = [_mm512_setzero_si512(); REGS];
    for (v, c) in x.iter_mut().zip(chain.as_chunks::<4>().0) {
        // SAFETY: `c` is 64 readable bytes and `loadu` has no alignment requirement.
        *v = unsafe { _mm512_loadu_si512(c.as_ptr().cast()) };
    }
    // `i` indexes block `i` of every lane, not one slice.
    #[allow(clippy::needless_range_loop)]
    for i in 0..n {
        for (g, v) in x.iter_mut().enumerate() {
            *v = _mm512_xor_si512(*v, _mm512_xor_si512(gather(blocks, g, i), key4(first, g)));
        }
        for row in middle {
            for (g, v) in x.iter_mut().enumerate() {
                *v = _mm512_aesenc_epi128(*v, key4(row, g));
            }
        }
        for (g, v) in x.iter_mut().enumerate() {
            *v = _mm512_aesenclast_epi128(*v, key4(last, g));
            scatter(blocks, g, i, *v);
        }
    }
    for (v, c) in x.iter().zip(chain.as_chunks_mut::<4>().0) {
        // SAFETY: `c` is 64 writable bytes and `storeu` has no alignment requirement.
        unsafe { _mm512_storeu_si512(c.as_mut_ptr().cast(), *v) };
    }
}
