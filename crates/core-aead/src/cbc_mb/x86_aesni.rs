//! Multi-buffer CBC encryption with AES-NI: eight streams, one per XMM register, so each
//! round issues eight independent `aesenc`s and the instruction's latency (3–4 cycles at a
//! throughput of one or two per cycle) is covered; a single CBC stream waits out that latency
//! in every round. Each lane has its own key: round keys are `aesenc` memory operands from
//! the transposed table, as there are too many to keep in registers.

use super::{CBC_MAX_LANES, LaneKeys};
use crate::aes::x86_aesni::{load, store};
use core::arch::x86_64::{
    _mm_aesenc_si128, _mm_aesenclast_si128, _mm_setzero_si128, _mm_xor_si128,
};
use core_cpu::Aes;

/// Streams encrypted side by side.
const LANES: usize = 8;

/// Encrypts lanes `0..8`, each over its blocks (all the same number), chaining from and
/// updating `chain`.
pub(super) fn cbc_encrypt(
    token: Aes,
    rounds: usize,
    keys: &LaneKeys,
    chain: &mut [[u8; 16]; CBC_MAX_LANES],
    blocks: &mut [&mut [[u8; 16]]; CBC_MAX_LANES],
) {
    let _ = token;
    // SAFETY: the `Aes` token proves AES-NI, SSE2 and SSSE3 were detected.
    unsafe { cbc_encrypt_ni(rounds, keys, chain, blocks) }
}

#[target_feature(enable = "aes,sse2")]
fn cbc_encrypt_ni(
    rounds: usize,
    keys: &LaneKeys,
    chain: &mut [[u8; 16]; CBC_MAX_LANES],
    blocks: &mut [&mut [[u8; 16]]; CBC_MAX_LANES],
) {
    let n = blocks[0].len();
    let (first, middle, last) = (&keys[0], &keys[1..rounds], &keys[rounds.min(14)]);
    let mut x = [_mm_setzero_si128(); LANES];
    for (l, v) in x.iter_mut().enumerate() {
        *v = load(&chain[l]);
    }
    // `i` indexes block `i` of every lane, not one slice.
    #[allow(clippy::needless_range_loop)]
    for i in 0..n {
        for (l, v) in x.iter_mut().enumerate() {
            *v = _mm_xor_si128(*v, _mm_xor_si128(load(&blocks[l][i]), load(&first[l])));
        }
        for row in middle {
            for (v, k) in x.iter_mut().zip(row) {
                *v = _mm_aesenc_si128(*v, load(k));
            }
        }
        for (l, v) in x.iter_mut().enumerate() {
            *v = _mm_aesenclast_si128(*v, load(&last[l]));
            store(&mut blocks[l][i], *v);
        }
    }
    for (l, v) in x.iter().enumerate() {
        store(&mut chain[l], *v);
    }
}
