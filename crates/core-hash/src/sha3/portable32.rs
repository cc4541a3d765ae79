//! Keccak-f\[1600\] on 32-bit words (FIPS 202 §3.3) for 32-bit CPUs, the Cortex-M0 above all.
//! Each 64-bit lane is kept bit-interleaved: its even bits in one word, its odd bits in
//! another. A 64-bit rotation is then two 32-bit rotations (and a swap of the words when the
//! amount is odd) instead of a four-shift dance across two words. The sponge keeps its state
//! in this form, so only the lanes that are absorbed or squeezed are converted. The rounds
//! are loops over small tables, which keeps the code small; every rotation amount and index
//! comes from the tables, never from the data.

use super::{RC, RHO, pi_source};

/// Gathers the even bits of `x` into its low half and the odd bits into its high half, in
/// order, by four swaps of bit groups (an unshuffle, as in Hacker's Delight §7-2).
const fn unshuffle(mut x: u32) -> u32 {
    let mut t = (x ^ (x >> 1)) & 0x2222_2222;
    x ^= t ^ (t << 1);
    t = (x ^ (x >> 2)) & 0x0C0C_0C0C;
    x ^= t ^ (t << 2);
    t = (x ^ (x >> 4)) & 0x00F0_00F0;
    x ^= t ^ (t << 4);
    t = (x ^ (x >> 8)) & 0x0000_FF00;
    x ^ t ^ (t << 8)
}

/// The inverse of [`unshuffle`]: the same swaps in the opposite order.
const fn shuffle(mut x: u32) -> u32 {
    let mut t = (x ^ (x >> 8)) & 0x0000_FF00;
    x ^= t ^ (t << 8);
    t = (x ^ (x >> 4)) & 0x00F0_00F0;
    x ^= t ^ (t << 4);
    t = (x ^ (x >> 2)) & 0x0C0C_0C0C;
    x ^= t ^ (t << 2);
    t = (x ^ (x >> 1)) & 0x2222_2222;
    x ^ t ^ (t << 1)
}

/// A lane in interleaved form: bit `2i` of `lane` becomes bit `i` of the low word, bit
/// `2i + 1` bit `i` of the high word.
pub(super) const fn interleave(lane: u64) -> u64 {
    let lo = unshuffle(lane as u32);
    let hi = unshuffle((lane >> 32) as u32);
    let even = (lo & 0xFFFF) | (hi << 16);
    let odd = (lo >> 16) | (hi & 0xFFFF_0000);
    even as u64 | (odd as u64) << 32
}

/// The inverse of [`interleave`].
pub(super) const fn uninterleave(lane: u64) -> u64 {
    let (even, odd) = (lane as u32, (lane >> 32) as u32);
    let lo = shuffle((even & 0xFFFF) | (odd << 16));
    let hi = shuffle((even >> 16) | (odd & 0xFFFF_0000));
    lo as u64 | (hi as u64) << 32
}

/// The round constants, interleaved, as `[even, odd]` words.
const RC_INTERLEAVED: [[u32; 2]; 24] = {
    let mut t = [[0; 2]; 24];
    let mut i = 0;
    while i < 24 {
        let l = interleave(RC[i]);
        t[i] = [l as u32, (l >> 32) as u32];
        i += 1;
    }
    t
};

/// ρ and π as one walk along the single 24-lane cycle of π, starting from lane 1: step `k`
/// moves the lane in hand to position `.0`, rotated left by `.1`, and picks up the lane
/// that was there.
const RHO_PI: [(u8, u8); 24] = {
    let mut t = [(0, 0); 24];
    let mut src = 1;
    let mut k = 0;
    while k < 24 {
        // The position whose π source is `src`.
        let mut dst = 0;
        while pi_source(dst) != src {
            dst += 1;
        }
        t[k] = (dst as u8, RHO[src] as u8);
        src = dst;
        k += 1;
    }
    t
};

/// XORs each block into the interleaved state and permutes.
pub(super) fn absorb<const R: usize>(state: &mut [u64; 25], blocks: &[[u8; R]]) {
    for block in blocks {
        for (lane, word) in state.iter_mut().zip(block.as_chunks::<8>().0) {
            *lane ^= interleave(u64::from_le_bytes(*word));
        }
        permute_interleaved(state);
    }
}

/// Keccak-f\[1600\] on the standard state, converting it in and out.
pub(super) fn permute(state: &mut [u64; 25]) {
    for lane in state.iter_mut() {
        *lane = interleave(*lane);
    }
    permute_interleaved(state);
    for lane in state.iter_mut() {
        *lane = uninterleave(*lane);
    }
}

/// Keccak-f\[1600\] on an interleaved state.
pub(super) fn permute_interleaved(state: &mut [u64; 25]) {
    let mut s = [[0u32; 2]; 25];
    for (w, &lane) in s.iter_mut().zip(state.iter()) {
        *w = [lane as u32, (lane >> 32) as u32];
    }
    for &rc in &RC_INTERLEAVED {
        round(&mut s, rc);
    }
    for (lane, w) in state.iter_mut().zip(s) {
        *lane = u64::from(w[0]) | u64::from(w[1]) << 32;
    }
}

/// One round, θ ρ π χ ι, in place on `[even, odd]` word pairs.
#[inline]
fn round(s: &mut [[u32; 2]; 25], rc: [u32; 2]) {
    // θ. A one-bit rotation of an interleaved lane moves the odd word, rotated by one, to
    // the even position, and the even word, unrotated, to the odd position.
    let mut c = [[0u32; 2]; 5];
    for (x, cx) in c.iter_mut().enumerate() {
        for h in 0..2 {
            cx[h] = s[x][h] ^ s[x + 5][h] ^ s[x + 10][h] ^ s[x + 15][h] ^ s[x + 20][h];
        }
    }
    for x in 0..5 {
        let (l, r) = (c[(x + 4) % 5], c[(x + 1) % 5]);
        let d = [l[0] ^ r[1].rotate_left(1), l[1] ^ r[0]];
        for y in 0..5 {
            s[x + 5 * y][0] ^= d[0];
            s[x + 5 * y][1] ^= d[1];
        }
    }
    // ρ and π. Rotating by an odd amount `r` sends the odd word, rotated by `(r + 1) / 2`,
    // to the even position, and the even word, rotated by `(r - 1) / 2`, to the odd one.
    let mut carry = s[1];
    for &(dst, r) in &RHO_PI {
        let [even, odd] = carry;
        let (p, q) = if r % 2 == 0 { (even, odd) } else { (odd, even) };
        carry = s[dst as usize];
        s[dst as usize] =
            [p.rotate_left(u32::from(r).div_ceil(2)), q.rotate_left(u32::from(r) / 2)];
    }
    // χ, row by row, on each word of the pairs independently.
    for y in 0..5 {
        let row: [[u32; 2]; 5] = core::array::from_fn(|x| s[x + 5 * y]);
        for x in 0..5 {
            for h in 0..2 {
                s[x + 5 * y][h] = row[x][h] ^ (!row[(x + 1) % 5][h] & row[(x + 2) % 5][h]);
            }
        }
    }
    // ι
    s[0][0] ^= rc[0];
    s[0][1] ^= rc[1];
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bit-by-bit interleaving, as the definition says.
    fn interleave_slowly(lane: u64) -> u64 {
        let mut out = 0;
        for i in 0..32 {
            out |= (lane >> (2 * i) & 1) << i;
            out |= (lane >> (2 * i + 1) & 1) << (32 + i);
        }
        out
    }

    #[test]
    fn interleaving_round_trips() {
        let mut x = 0x0123_4567_89ab_cdefu64;
        for _ in 0..1000 {
            assert_eq!(interleave(x), interleave_slowly(x), "{x:#x}");
            assert_eq!(uninterleave(interleave(x)), x);
            x = x.rotate_left(7).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 1;
        }
        for bit in 0..64 {
            assert_eq!(interleave(1 << bit), interleave_slowly(1 << bit));
        }
    }

    /// Rotating an interleaved lane as `round` does matches rotating the lane itself.
    #[test]
    fn interleaved_rotation() {
        let lane = 0xf1258f7940e1dde7u64;
        for r in 0..64u32 {
            let l = interleave(lane);
            let [even, odd] = [l as u32, (l >> 32) as u32];
            let (p, q) = if r % 2 == 0 { (even, odd) } else { (odd, even) };
            let got =
                u64::from(p.rotate_left(r.div_ceil(2))) | u64::from(q.rotate_left(r / 2)) << 32;
            assert_eq!(uninterleave(got), lane.rotate_left(r), "{r}");
        }
    }

    #[test]
    fn rho_pi_walk_covers_every_lane_but_zero() {
        let mut seen = [false; 25];
        for &(dst, _) in &RHO_PI {
            seen[dst as usize] = true;
        }
        assert_eq!(RHO_PI[23].0, 1, "the walk closes on lane 1");
        assert!(!seen[0] && seen[1..].iter().all(|&s| s));
    }

    #[test]
    fn same_as_portable() {
        let mut a: [u64; 25] =
            core::array::from_fn(|i| (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut b = a;
        for _ in 0..3 {
            permute(&mut a);
            super::super::portable::permute(&mut b);
            assert_eq!(a, b);
        }
    }
}
