//! ChaCha20 on 32-bit words, one block at a time (RFC 8439 §2.3 as written): the path for
//! CPUs without vector units, and the reference the others (the Cortex-M0's `thumb1`
//! included) are checked against. HChaCha20 runs the rounds here for every implementation.
//! Adds, XORs and fixed rotations only, so it is constant-time everywhere.

use core_asm::ct::keep_in_memory;
use core_hash::rotr;

/// The quarter round on words `a`, `b`, `c`, `d` of `x` (RFC 8439 §2.1, §2.2).
#[inline(always)]
fn quarter_round(x: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize) {
    x[a] = x[a].wrapping_add(x[b]);
    // Left rotations by 16, 12, 8 and 7, as right rotations (see `rotr` for the M0).
    x[d] = rotr::<16>(x[d] ^ x[a]);
    x[c] = x[c].wrapping_add(x[d]);
    x[b] = rotr::<20>(x[b] ^ x[c]);
    x[a] = x[a].wrapping_add(x[b]);
    x[d] = rotr::<24>(x[d] ^ x[a]);
    x[c] = x[c].wrapping_add(x[d]);
    x[b] = rotr::<25>(x[b] ^ x[c]);
}

/// On 32-bit Arm (the Cortex-M0 has eight general registers for sixteen state words), makes
/// the compiler keep `x` in memory between quarter rounds: each then loads its four words,
/// works on them with the rotation counts in registers, and stores them back, instead of
/// spilling whatever the register allocator picks. Elsewhere it does nothing.
#[inline(always)]
fn settle(x: &mut [u32; 16]) {
    keep_in_memory(x, 0);
}

/// The 20 rounds (ten column-then-diagonal double rounds) without the final addition.
#[inline(always)]
fn rounds(x: &mut [u32; 16]) {
    for _ in 0..10 {
        #[cfg(target_os = "none")]
        columns_looped(x);
        #[cfg(not(target_os = "none"))]
        columns_unrolled(x);
        quarter_round(x, 0, 5, 10, 15);
        settle(x);
        quarter_round(x, 1, 6, 11, 12);
        settle(x);
        quarter_round(x, 2, 7, 8, 13);
        settle(x);
        quarter_round(x, 3, 4, 9, 14);
        settle(x);
    }
}

/// The column round, written out (hosts).
#[cfg(any(test, not(target_os = "none")))]
#[inline(always)]
fn columns_unrolled(x: &mut [u32; 16]) {
    quarter_round(x, 0, 4, 8, 12);
    settle(x);
    quarter_round(x, 1, 5, 9, 13);
    settle(x);
    quarter_round(x, 2, 6, 10, 14);
    settle(x);
    quarter_round(x, 3, 7, 11, 15);
    settle(x);
}

/// The column round as a loop over the columns (bare metal): one copy of the quarter round
/// on words at fixed offsets from the column's first, a quarter of the code, for about four
/// cycles a column. The diagonals wrap around their rows, so they stay written out.
#[cfg(any(test, target_os = "none"))]
#[inline(always)]
fn columns_looped(x: &mut [u32; 16]) {
    let mut i = 0;
    loop {
        quarter_round(x, i, i + 4, i + 8, i + 12);
        keep_in_memory(x, i);
        i += 1;
        if i == 4 {
            break;
        }
    }
}

/// The ChaCha20 block function (RFC 8439 §2.3): the keystream words of block `state[12]`.
#[inline]
pub(super) fn block(state: &[u32; 16]) -> [u32; 16] {
    let mut x = *state;
    rounds(&mut x);
    for (x, s) in x.iter_mut().zip(state) {
        *x = x.wrapping_add(*s);
    }
    x
}

/// Writes the keystream of blocks `state[12]`, `state[12] + 1`, … to `out`; `state` is as
/// it was on return.
pub(super) fn keystream(state: &mut [u32; 16], out: super::Sink<'_>) {
    let mut s = *state;
    if let Some(key) = out.key {
        key_block(&s, key);
        s[12] = s[12].wrapping_add(1);
    }
    xor_keystream(&s, out.buf);
}

/// The first 32 bytes of the keystream block of `state` into `key` (`thumb1`'s keeps the
/// block off the keystream pass's stack).
#[inline(always)]
fn key_block(state: &[u32; 16], key: &mut [u8; 32]) {
    let ks = block(state);
    for (k, w) in key.chunks_exact_mut(4).zip(ks) {
        k.copy_from_slice(&w.to_le_bytes());
    }
}

/// XORs the keystream of blocks `state[12]`, `state[12] + 1`, … into `buf`.
pub(super) fn xor_keystream(state: &[u32; 16], buf: &mut [u8]) {
    let mut s = *state;
    let (blocks, tail) = buf.as_chunks_mut::<64>();
    for chunk in blocks {
        xor_block(&s, chunk);
        s[12] = s[12].wrapping_add(1);
    }
    if !tail.is_empty() {
        let mut last = [0u8; 64];
        last[..tail.len()].copy_from_slice(tail);
        xor_block(&s, &mut last);
        tail.copy_from_slice(&last[..tail.len()]);
    }
}

/// XORs the keystream block of `state` into `chunk`, word by word with plain indexing (on
/// the Cortex-M0, at opt-level `z`, iterator adapters here stay out-of-line calls).
#[inline]
fn xor_block(state: &[u32; 16], chunk: &mut [u8; 64]) {
    let mut x = *state;
    rounds(&mut x);
    let words = chunk.as_chunks_mut::<4>().0;
    for i in 0..16 {
        let k = x[i].wrapping_add(state[i]);
        words[i] = (u32::from_le_bytes(words[i]) ^ k).to_le_bytes();
    }
}

/// HChaCha20's core (draft-irtf-cfrg-xchacha §2.2): the 20 rounds on `state` without the
/// final addition, returning words 0–3 and 12–15.
pub(super) fn hchacha(state: &[u32; 16]) -> [u32; 8] {
    let mut x = *state;
    rounds(&mut x);
    [x[0], x[1], x[2], x[3], x[12], x[13], x[14], x[15]]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bare-metal column loop and the hosts' written-out columns agree.
    #[test]
    fn looped_columns_match_unrolled() {
        let mut x = [0u32; 16];
        let mut s = 0x9e37_79b9u32;
        for _ in 0..64 {
            for w in &mut x {
                s ^= s << 13;
                s ^= s >> 17;
                s ^= s << 5;
                *w = s;
            }
            let (mut a, mut b) = (x, x);
            columns_looped(&mut a);
            columns_unrolled(&mut b);
            assert_eq!(a, b);
            assert_ne!(a, x);
        }
    }
}
