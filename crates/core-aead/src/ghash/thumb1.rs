//! The `thumb1` GHASH implementation, for the Cortex-M0: [`ct32`](super::ct32)'s word-wise
//! multiplication and reduction with its 32×32-bit carry-less products (three 16×16 ones under
//! a Karatsuba step) in Thumb-1 assembly (`core_asm::thumbv6m::aead::ghash`): GHASH 237.8 →
//! 206.5 cycles a byte on the M0+ model. ct32 is what it computes, what every other target and
//! a build without `asm` run, and what the tests compare it with.

use super::ct32::{Key, update_with};

/// Absorbs whole blocks into `y`.
pub(super) fn update(key: &Key, y: &mut [u8; 16], blocks: &[[u8; 16]]) {
    update_with(key, y, blocks, core_asm::thumbv6m::aead::ghash::clmul32);
}
