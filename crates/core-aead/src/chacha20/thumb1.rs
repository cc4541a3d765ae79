//! ChaCha20 on the Cortex-M0: the keystream and key-block forms around the Thumb-1 block
//! kernel (`core_asm::thumbv6m::aead::chacha20`), which does the 20 rounds, the final
//! addition and the XOR into a word-aligned block in one call (about 2 700 cycles a block
//! against about 3 700 compiled). The Rust of [`portable`](super::portable) is what it
//! computes, what every other target and a build without `asm` run, and what the tests
//! compare it with.

use core_asm::ct::value_barrier_u32;
use core_asm::thumbv6m::aead::chacha20::{as_words, xor_block, xor_bytes};

/// `portable::keystream` on the Cortex-M0: the counter is stepped in `state` itself and put back,
/// so there is no copy of the state on its stack.
pub(super) fn keystream(state: &mut [u32; 16], out: super::Sink<'_>) {
    let counter = state[12];
    if let Some(key) = out.key {
        key_block(state, key);
        state[12] = counter.wrapping_add(1);
    }
    xor_keystream_from(state, out.buf);
    // Through a barrier: held in a register across the blocks, it was reloaded in every one.
    state[12] = value_barrier_u32(counter);
}

/// XORs the keystream of blocks `s[12]`, `s[12] + 1`, … into `buf`, stepping `s[12]` past
/// them: whole blocks in place when `buf` is word-aligned (the Cortex-M0 faults on unaligned
/// words; the address is public), the rest (whole blocks of an unaligned buffer, and a short
/// tail) from an aligned keystream block ([`xor_copy`]).
fn xor_keystream_from(s: &mut [u32; 16], buf: &mut [u8]) {
    for chunk in buf.chunks_mut(64) {
        match <&mut [u8; 64]>::try_from(&mut *chunk).ok().and_then(as_words) {
            Some(words) => xor_block(s, words),
            None => xor_copy(s, chunk),
        }
        s[12] = s[12].wrapping_add(1);
    }
}

/// [`xor_block`] on up to 64 bytes anywhere: the keystream block goes into aligned zeros,
/// and from there into `chunk` ([`xor_bytes`]). Out of line, so that its buffer is on the
/// stack only when it runs.
#[inline(never)]
fn xor_copy(state: &[u32; 16], chunk: &mut [u8]) {
    let mut words = [0u32; 16];
    xor_block(state, &mut words);
    xor_bytes(&words, chunk);
    super::wipe(&mut words);
}

/// The first 32 bytes of the keystream block of `state` into `key` (the AEAD's Poly1305
/// key): [`xor_copy`] into the zeroed key, so that the block is on the stack only while that
/// runs, not under the whole keystream pass (72 bytes off the AEAD's stack), in no new code.
#[inline]
fn key_block(state: &[u32; 16], key: &mut [u8; 32]) {
    key.fill(0);
    xor_copy(state, key);
}
