//! Portable SHA-1 compression (FIPS 180-4 §6.1.2) on 32-bit words, with the message schedule
//! in a 16-word ring.

use super::K;

/// Compresses each 64-byte block into `state`.
pub(super) fn compress(state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    for block in blocks {
        compress_block(state, block);
    }
}

#[inline]
fn compress_block(state: &mut [u32; 5], block: &[u8; 64]) {
    let mut w = [0u32; 16];
    for (word, bytes) in w.iter_mut().zip(block.as_chunks::<4>().0) {
        *word = u32::from_be_bytes(*bytes);
    }
    let [mut a, mut b, mut c, mut d, mut e] = *state;
    for i in 0..80 {
        if i >= 16 {
            w[i & 15] =
                (w[(i + 13) & 15] ^ w[(i + 8) & 15] ^ w[(i + 2) & 15] ^ w[i & 15]).rotate_left(1);
        }
        let f = match i / 20 {
            0 => (b & c) | (!b & d),
            2 => (b & c) | (b & d) | (c & d),
            _ => b ^ c ^ d,
        };
        let t = a
            .rotate_left(5)
            .wrapping_add(f)
            .wrapping_add(e)
            .wrapping_add(K[i / 20])
            .wrapping_add(w[i & 15]);
        e = d;
        d = c;
        c = b.rotate_left(30);
        b = a;
        a = t;
    }
    for (s, v) in state.iter_mut().zip([a, b, c, d, e]) {
        *s = s.wrapping_add(v);
    }
}
