//! Keccak-f\[1600\] for the Cortex-M0 with the `asm` feature: [`portable32`](super::portable32)'s
//! bit-interleaved state, encoding and rounds, the permutation in Thumb-1 assembly
//! (`core_asm::thumbv6m::hash`). The compiled round spends a third of its time on what the
//! register allocator does with eight registers; written out, SHA3-256 costs 156.9
//! Cortex-M0+ cycles/B against 215.7 (`cargo xtask m0 --cost`). Absorbing and the
//! lane conversions are `portable32`'s.

use super::portable32::{self, RC_INTERLEAVED};

/// XORs each block into the interleaved state and permutes.
pub(super) fn absorb<const R: usize>(state: &mut [u64; 25], blocks: &[[u8; R]]) {
    for block in blocks {
        portable32::xor_block(state, block);
        permute_interleaved(state);
    }
}

/// Keccak-f\[1600\] on the standard state, converting it in and out.
pub(super) fn permute(state: &mut [u64; 25]) {
    portable32::convert(state, portable32::interleave);
    permute_interleaved(state);
    portable32::convert(state, portable32::uninterleave);
}

/// Keccak-f\[1600\] on an interleaved state.
pub(super) fn permute_interleaved(state: &mut [u64; 25]) {
    core_asm::thumbv6m::hash::keccak_f1600_interleaved(state, &RC_INTERLEAVED);
}
