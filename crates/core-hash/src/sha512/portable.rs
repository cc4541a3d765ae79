//! Portable SHA-512 compression (FIPS 180-4 §6.4.2) on 64-bit words, with the message
//! schedule in a 16-word ring. Rotations are by constants: nothing secret-dependent.

use super::K;

/// Compresses each 128-byte block into `state`.
pub(super) fn compress(state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    for block in blocks {
        compress_block(state, block);
    }
}

#[inline]
fn compress_block(state: &mut [u64; 8], block: &[u8; 128]) {
    let mut w = [0u64; 16];
    for (word, bytes) in w.iter_mut().zip(block.as_chunks::<8>().0) {
        *word = u64::from_be_bytes(*bytes);
    }
    super::rounds(state, |t| {
        if t >= 16 {
            // W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16], in a 16-word ring.
            let w15 = w[(t + 1) & 15];
            let w2 = w[(t + 14) & 15];
            let s0 = w15.rotate_right(1) ^ w15.rotate_right(8) ^ (w15 >> 7);
            let s1 = w2.rotate_right(19) ^ w2.rotate_right(61) ^ (w2 >> 6);
            w[t & 15] = w[t & 15].wrapping_add(s0).wrapping_add(w[(t + 9) & 15]).wrapping_add(s1);
        }
        K[t].wrapping_add(w[t & 15])
    });
}
