//! The `thumb1` Poly1305 implementation, for the Cortex-M0: [`portable32`](super::portable32)'s
//! radix-2^26 state with the dot products of a block in Thumb-1 assembly
//! (`core_asm::thumbv6m::aead::poly1305`), 53 cycles a byte against 77 compiled. portable32 is
//! what it computes, what every other target and a build without `asm` run, and what the tests
//! compare it with.

use super::portable32::State;

/// Absorbs whole 16-byte blocks, as `State::blocks` does.
pub(super) fn blocks(state: &mut State, data: &[u8], hibit: bool) {
    state.blocks_halves_with(data, hibit, core_asm::thumbv6m::aead::poly1305::dot13);
}
