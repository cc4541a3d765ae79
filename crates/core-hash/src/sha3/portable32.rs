//! Keccak-f\[1600\] on 32-bit words (FIPS 202 §3.3) for 32-bit CPUs, the Cortex-M0 above all.
//! Each 64-bit lane is kept bit-interleaved: its even bits in one word, its odd bits in
//! another. A 64-bit rotation is then two 32-bit rotations (and a swap of the words when the
//! amount is odd) instead of a four-shift dance across two words. The sponge keeps its state
//! in this form, so only the lanes that are absorbed or squeezed are converted.
//!
//! A round sums θ's column parities, then, row half by row half, gathers five words through
//! θ, ρ and π in straight-line code (each word one load, one XOR and one rotation by a
//! constant: no table is read at run time, which on Thumb-1 is what a loop over a table of
//! indices and amounts costs most in) and applies χ to them at once, storing each output word
//! once, into a second buffer, which is copied back. Both buffers are in the permutation's own
//! frame, so every access is `sp`-relative. On the Cortex-M0+ model (`cargo xtask m0 --cost`,
//! opt-level z) a block of SHA3-256 costs about 29 300 cycles (216 cycles/B; 39 000 with a
//! separate χ pass, three times that with a walk over a ρ-π table). Every index and amount is
//! a constant; none comes from the data.

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
pub(super) const RC_INTERLEAVED: [[u32; 2]; 24] = {
    let mut t = [[0; 2]; 24];
    let mut i = 0;
    while i < 24 {
        let l = interleave(RC[i]);
        t[i] = [l as u32, (l >> 32) as u32];
        i += 1;
    }
    t
};

/// Where ρ and π take each word of the state from, for the gather of [`round`]: output word
/// `2i + h` (half `h` of lane `i`, 0 even, 1 odd) is `rotl(s[.0] ^ d[.1], .2)`. Lane `i`
/// comes from lane `pi_source(i)` rotated by its ρ offset `r`; an odd `r` sends the odd half,
/// rotated by `(r + 1) / 2`, to the even half, and the even half, rotated by `(r − 1) / 2`,
/// to the odd one. `d` is θ's column term, also interleaved, whose half is that of the
/// source word.
const GATHER: [(u8, u8, u8); 50] = {
    let mut t = [(0, 0, 0); 50];
    let mut w = 0;
    while w < 50 {
        let (lane, h) = (w / 2, w % 2);
        let src = pi_source(lane);
        let r = RHO[src] as usize;
        let from = h ^ (r % 2);
        let amount = if h == 0 { r.div_ceil(2) } else { r / 2 };
        t[w] = ((2 * src + from) as u8, (2 * (src % 5) + from) as u8, amount as u8);
        w += 1;
    }
    t
};

/// XORs each block into the interleaved state and permutes.
pub(super) fn absorb<const R: usize>(state: &mut [u64; 25], blocks: &[[u8; R]]) {
    for block in blocks {
        xor_block(state, block);
        permute_interleaved(state);
    }
}

/// XORs one block (whole lanes, standard byte order) into the interleaved state.
pub(super) fn xor_block<const R: usize>(state: &mut [u64; 25], block: &[u8; R]) {
    for (lane, word) in state.iter_mut().zip(block.as_chunks::<8>().0) {
        *lane ^= interleave(u64::from_le_bytes(*word));
    }
}

/// Applies `f` ([`interleave`] or [`uninterleave`]) to every lane.
pub(super) fn convert(state: &mut [u64; 25], f: fn(u64) -> u64) {
    for lane in state.iter_mut() {
        *lane = f(*lane);
    }
}

/// Keccak-f\[1600\] on the standard state, converting it in and out.
pub(super) fn permute(state: &mut [u64; 25]) {
    convert(state, interleave);
    permute_interleaved(state);
    convert(state, uninterleave);
}

/// Keccak-f\[1600\] on an interleaved state. The state is copied into 50 words of this
/// function's frame, beside a second 50 and θ's terms, so that on Thumb-1 every word is one
/// `sp`-relative load or store away and no register is spent on a base address. Each round
/// writes the second copy and is copied back (a word copy): alternating the two copies saves
/// that copy but needs the round's code twice, 1.3 KB more flash for 3 % fewer cycles.
pub(super) fn permute_interleaved(state: &mut [u64; 25]) {
    let mut s = [0u32; 50];
    for (w, &lane) in s.as_chunks_mut::<2>().0.iter_mut().zip(state.iter()) {
        *w = [lane as u32, (lane >> 32) as u32];
    }
    let mut t = [0u32; 50];
    for &rc in &RC_INTERLEAVED {
        round(&s, &mut t, rc);
        s = t;
    }
    for (lane, w) in state.iter_mut().zip(s.as_chunks::<2>().0) {
        *lane = u64::from(w[0]) | u64::from(w[1]) << 32;
    }
}

/// Output word `w` of θ's addition, ρ and π: `rotl(s[src] ^ d[col], amount)` from
/// [`GATHER`], with constant indices and amount.
macro_rules! gathered {
    ($s:ident, $d:ident, $w:expr) => {{
        const G: (u8, u8, u8) = GATHER[$w];
        ($s[G.0 as usize] ^ $d[G.1 as usize]).rotate_left(G.2 as u32)
    }};
}

/// One row half of θ's addition, ρ, π and χ: the five output words `w`, `w + 2`, … `w + 8`
/// (row `w / 10`, half `w % 2`) are gathered from [`GATHER`] as
/// `rotl(s[src] ^ d[col], amount)` and combined by χ straight into `t`. Every index and
/// amount is a constant.
macro_rules! row {
    ($t:ident, $s:ident, $d:ident; $($w:literal)*) => {
        $(
            let b0 = gathered!($s, $d, $w);
            let b1 = gathered!($s, $d, $w + 2);
            let b2 = gathered!($s, $d, $w + 4);
            $t[$w] = b0 ^ (!b1 & b2);
            let b3 = gathered!($s, $d, $w + 6);
            $t[$w + 2] = b1 ^ (!b2 & b3);
            let b4 = gathered!($s, $d, $w + 8);
            $t[$w + 4] = b2 ^ (!b3 & b4);
            $t[$w + 6] = b3 ^ (!b4 & b0);
            $t[$w + 8] = b4 ^ (!b0 & b1);
        )*
    };
}

/// θ's column parities of the interleaved words `s`, each half on its own: word `i` of the
/// result is the XOR of `s[i]`, `s[i + 10]`, … `s[i + 40]`. Written out: the array built by
/// `core::array::from_fn` can become a call per word at opt-level z.
#[inline(always)]
fn parities(s: &[u32; 50]) -> [u32; 10] {
    macro_rules! column {
        ($($i:literal)*) => { [$(s[$i] ^ s[$i + 10] ^ s[$i + 20] ^ s[$i + 30] ^ s[$i + 40]),*] };
    }
    column!(0 1 2 3 4 5 6 7 8 9)
}

/// One round, θ ρ π χ ι, from the interleaved words `s` (word `2i + h` is half `h` of lane
/// `i`) into `t`.
#[inline(always)]
fn round(s: &[u32; 50], t: &mut [u32; 50], rc: [u32; 2]) {
    // θ: the column parities, each half on its own.
    let c = parities(s);
    // θ's term for column x, C[x − 1] ^ rotl(C[x + 1], 1): a one-bit rotation of an
    // interleaved lane moves the odd half, rotated by one, to the even half, and the even
    // half, unrotated, to the odd half.
    let d = [
        c[8] ^ c[3].rotate_left(1),
        c[9] ^ c[2],
        c[0] ^ c[5].rotate_left(1),
        c[1] ^ c[4],
        c[2] ^ c[7].rotate_left(1),
        c[3] ^ c[6],
        c[4] ^ c[9].rotate_left(1),
        c[5] ^ c[8],
        c[6] ^ c[1].rotate_left(1),
        c[7] ^ c[0],
    ];
    // θ's addition, ρ, π and χ, row half by row half, into `t`.
    row!(t, s, d; 0 1 10 11 20 21 30 31 40 41);
    // ι
    t[0] ^= rc[0];
    t[1] ^= rc[1];
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

    /// ρ and π move every word exactly once, taking θ's term from the source's column and
    /// half, and leave lane 0 where it is, unrotated.
    #[test]
    fn gather_is_a_permutation_of_words() {
        let mut seen = [false; 50];
        for &(src, col, _) in &GATHER {
            assert!(!seen[usize::from(src)], "word {src} read twice");
            seen[usize::from(src)] = true;
            assert_eq!(usize::from(col), usize::from(src) / 2 % 5 * 2 + usize::from(src) % 2);
        }
        assert_eq!(GATHER[0], (0, 0, 0));
        assert_eq!(GATHER[1], (1, 1, 0));
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
