//! ChaCha20 on the Cortex-M0: the keystream and key-block forms around the Thumb-1 block
//! kernel (`core_asm::thumbv6m::aead::chacha20`), which does the 20 rounds, the final
//! addition and the XOR into a word-aligned block in one call (about 2 700 cycles a block
//! against about 3 700 compiled). The Rust of [`portable`](super::portable) is what it
//! computes, what every other target and a build without `asm` run, and what the tests
//! compare it with.

use core_asm::thumbv6m::aead::chacha20::{xor_block, xor_bytes};

/// `portable::keystream` on the Cortex-M0: the counter is stepped in `state` itself and put back,
/// so there is no copy of the state on its stack.
pub(super) fn keystream(state: &mut [u32; 16], out: super::Sink<'_>) {
    let counter = state[12];
    if let Some(key) = out.key {
        key_block(state, key);
        state[12] = counter.wrapping_add(1);
    }
    xor_keystream_from(state, out.buf);
    // Read back from memory: held in a register, it was reloaded in every block.
    // SAFETY: reads a local `u32`, aligned and initialised.
    state[12] = unsafe { core::ptr::read_volatile(&raw const counter) };
}

/// XORs the keystream of blocks `s[12]`, `s[12] + 1`, … into `buf`, stepping `s[12]` past
/// them: whole blocks in place when `buf` is word-aligned (the Cortex-M0 faults on unaligned
/// words; the address is public), the rest (whole blocks of an unaligned buffer, and a short
/// tail) from an aligned keystream block ([`xor_copy`]).
fn xor_keystream_from(s: &mut [u32; 16], buf: &mut [u8]) {
    let aligned = buf.as_ptr().addr().is_multiple_of(4);
    for chunk in buf.chunks_mut(64) {
        if aligned && chunk.len() == 64 {
            // SAFETY: `chunk` is 64 bytes on a word boundary (`buf` is, and it starts a
            // multiple of 64 bytes in), so it is a valid `[u32; 16]`, exclusively borrowed
            // for as long as `chunk` is; every bit pattern is a valid `u32` and `u8`.
            xor_block(s, unsafe { &mut *chunk.as_mut_ptr().cast::<[u32; 16]>() });
        } else {
            xor_copy(s, chunk);
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
