//! Portable SHA-256 compression (FIPS 180-4 §6.2.2) on 32-bit words only: the Cortex-M0
//! path. The rounds are unrolled by eight, which renames the working variables instead of
//! moving them (on the M0 every move of a spilled variable is a load and a store). On hosts
//! the message schedule is a 16-word ring, extended in place 16 words at a time between
//! groups of 16 rounds, all unrolled; on bare-metal targets (`target_os = "none"`) the whole
//! 64-word schedule is computed first and one copy of the eight rounds runs eight times, which
//! is smaller and, on the Cortex-M0, also faster (fewer registers live across the rounds).
//! Rotations are by constants, so there is nothing secret-dependent to time.

use super::K;
use crate::rotr;

/// Compresses each 64-byte block into `state`.
#[cfg(not(target_os = "none"))]
pub(super) fn compress(state: &mut [u32; 8], blocks: &[[u8; 64]]) {
    for block in blocks {
        compress_block_unrolled(state, block);
    }
}

/// Compresses each 64-byte block into `state`: the bare-metal form.
#[cfg(target_os = "none")]
pub(super) fn compress(state: &mut [u32; 8], blocks: &[[u8; 64]]) {
    let mut w = [0u32; 64];
    for block in blocks {
        compress_block_rolled(state, &mut w, block);
    }
}

/// `Σ0(a) = ROTR²(a) ⊕ ROTR¹³(a) ⊕ ROTR²²(a)`, as `ROTR²(a ⊕ ROTR¹¹(a ⊕ ROTR⁹(a)))`: one
/// copy of `a` instead of three (Thumb-1 rotates only in place, by a register).
#[inline(always)]
fn big_sigma0(a: u32) -> u32 {
    rotr::<2>(a ^ rotr::<11>(a ^ rotr::<9>(a)))
}

/// `Σ1(e) = ROTR⁶(e) ⊕ ROTR¹¹(e) ⊕ ROTR²⁵(e)`, as `ROTR⁶(e ⊕ ROTR⁵(e ⊕ ROTR¹⁴(e)))`.
#[inline(always)]
fn big_sigma1(e: u32) -> u32 {
    rotr::<6>(e ^ rotr::<5>(e ^ rotr::<14>(e)))
}

/// `σ0(x) = ROTR⁷(x) ⊕ ROTR¹⁸(x) ⊕ SHR³(x)`.
#[inline(always)]
fn small_sigma0(x: u32) -> u32 {
    rotr::<7>(x ^ rotr::<11>(x)) ^ (x >> 3)
}

/// `σ1(x) = ROTR¹⁷(x) ⊕ ROTR¹⁹(x) ⊕ SHR¹⁰(x)`.
#[inline(always)]
fn small_sigma1(x: u32) -> u32 {
    rotr::<17>(x ^ rotr::<2>(x)) ^ (x >> 10)
}

/// Eight rounds on `w` and `k` (eight words each), with the working variables renamed
/// round by round: after eight rounds every name is back in its place.
#[inline(always)]
fn eight_rounds(v: &mut [u32; 8], w: &[u32], k: &[u32]) {
    let (w, k) = (&w[..8], &k[..8]);
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *v;
    macro_rules! round {
        ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $i:expr) => {
            let t1 = $h
                .wrapping_add(big_sigma1($e))
                .wrapping_add((($f ^ $g) & $e) ^ $g)
                .wrapping_add(k[$i])
                .wrapping_add(w[$i]);
            $d = $d.wrapping_add(t1);
            $h = t1.wrapping_add(big_sigma0($a)).wrapping_add(($a & $b) | ($c & ($a | $b)));
        };
    }
    round!(a, b, c, d, e, f, g, h, 0);
    round!(h, a, b, c, d, e, f, g, 1);
    round!(g, h, a, b, c, d, e, f, 2);
    round!(f, g, h, a, b, c, d, e, 3);
    round!(e, f, g, h, a, b, c, d, 4);
    round!(d, e, f, g, h, a, b, c, 5);
    round!(c, d, e, f, g, h, a, b, 6);
    round!(b, c, d, e, f, g, h, a, 7);
    *v = [a, b, c, d, e, f, g, h];
}

/// Replaces the 16-word ring `w` (`W[t-16..t]`) with the next 16 schedule words:
/// `W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16]`.
#[cfg(any(not(target_os = "none"), test))]
#[inline(always)]
fn extend(w: &mut [u32; 16]) {
    for i in 0..16 {
        let s0 = small_sigma0(w[(i + 1) & 15]);
        let s1 = small_sigma1(w[(i + 14) & 15]);
        w[i] = w[i].wrapping_add(s0).wrapping_add(w[(i + 9) & 15]).wrapping_add(s1);
    }
}

/// The whole 64-word schedule `W[0..64]` of `block`, into `w`.
#[cfg(any(target_os = "none", test))]
#[inline(always)]
fn schedule(w: &mut [u32; 64], block: &[u8; 64]) {
    for (word, bytes) in w.iter_mut().zip(block.as_chunks::<4>().0) {
        *word = u32::from_be_bytes(*bytes);
    }
    for t in 16..64 {
        w[t] = small_sigma1(w[t - 2])
            .wrapping_add(w[t - 7])
            .wrapping_add(small_sigma0(w[t - 15]))
            .wrapping_add(w[t - 16]);
    }
}

/// The schedule first, into `w` (the caller's, so it is not zeroed once per block), then
/// eight passes of one eight-round body.
#[cfg(any(target_os = "none", test))]
#[inline(always)]
fn compress_block_rolled(state: &mut [u32; 8], w: &mut [u32; 64], block: &[u8; 64]) {
    schedule(w, block);
    let mut v = *state;
    for (w, k) in w.as_chunks::<8>().0.iter().zip(K.as_chunks::<8>().0) {
        eight_rounds(&mut v, w, k);
    }
    for (s, x) in state.iter_mut().zip(v) {
        *s = s.wrapping_add(x);
    }
}

/// One block, the host form: a 16-word ring and every round written out.
#[cfg(any(not(target_os = "none"), test))]
#[inline(always)]
fn compress_block_unrolled(state: &mut [u32; 8], block: &[u8; 64]) {
    let mut w = [0u32; 16];
    for (word, bytes) in w.iter_mut().zip(block.as_chunks::<4>().0) {
        *word = u32::from_be_bytes(*bytes);
    }
    let mut v = *state;
    for (t, k) in K.as_chunks::<16>().0.iter().enumerate() {
        if t > 0 {
            extend(&mut w);
        }
        eight_rounds(&mut v, &w[..8], &k[..8]);
        eight_rounds(&mut v, &w[8..], &k[8..]);
    }
    for (s, x) in state.iter_mut().zip(v) {
        *s = s.wrapping_add(x);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bare-metal form gives the host form's state on blocks of every kind.
    #[test]
    fn rolled_matches_unrolled() {
        let mut x = 0x9e37_79b9u32;
        let mut state = [0x6a09_e667u32, 1, 2, 3, 4, 5, 6, 0xffff_ffff];
        let mut other = state;
        for round in 0..64 {
            let mut block = [0u8; 64];
            for b in &mut block {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                *b = x as u8;
            }
            if round == 1 {
                block = [0xff; 64];
            }
            compress_block_rolled(&mut state, &mut [0; 64], &block);
            compress_block_unrolled(&mut other, &block);
            assert_eq!(state, other, "block {round}");
        }
    }
}
