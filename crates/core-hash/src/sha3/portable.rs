//! Keccak-f\[1600\] on 64-bit lanes (FIPS 202 §3.3): the default on 64-bit CPUs without SHA-3
//! instructions. Each round is straight-line code over constant lane indices, so the
//! compiler keeps lanes in registers and turns every ρ rotation into one instruction. Rounds
//! go in pairs between two copies of the state, which saves copying it back each round; each
//! output row is finished (π, ρ, χ) before the next one is started, and the column parities
//! of the next θ are summed as the rows come out.
//!
//! χ's `a ^ (!b & c)` costs a NOT per lane on CPUs without an and-not instruction (x86-64
//! before BMI1). Lane complementing (from the Keccak team's "Keccak implementation
//! overview") removes most of them: six lanes are kept complemented between rounds, and
//! each χ output uses AND or OR on inputs whose complement is known in advance, so only one
//! NOT per row is left. That makes this about 15% faster than plain code on x86-64.

use super::{RC, RHO, pi_source};

/// XORs each block into the state and permutes.
#[inline]
pub(super) fn absorb<const R: usize>(state: &mut [u64; 25], blocks: &[[u8; R]]) {
    for block in blocks {
        let (words, _) = block.as_chunks::<8>();
        for (lane, word) in state.iter_mut().zip(words) {
            *lane ^= u64::from_le_bytes(*word);
        }
        permute(state);
    }
}

/// Keccak-f\[1600\] on the standard state.
pub(super) fn permute(state: &mut [u64; 25]) {
    let mut a = *state;
    complement(&mut a);
    let mut e = [0u64; 25];
    let mut c = parities(&a);
    for rc in RC.as_chunks::<2>().0 {
        c = round(&a, c, &mut e, rc[0]);
        c = round(&e, c, &mut a, rc[1]);
    }
    complement(&mut a);
    *state = a;
}

/// Lanes kept complemented between rounds: (1, 0), (2, 0), (3, 1), (2, 2), (2, 3), (0, 4).
const COMPLEMENTED: [bool; 25] = {
    let mut t = [false; 25];
    t[1] = true;
    t[2] = true;
    t[8] = true;
    t[12] = true;
    t[17] = true;
    t[20] = true;
    t
};

/// Complements the lanes of [`COMPLEMENTED`], into or out of the form the rounds work on.
#[inline(always)]
fn complement(a: &mut [u64; 25]) {
    for (lane, &c) in a.iter_mut().zip(&COMPLEMENTED) {
        if c {
            *lane = !*lane;
        }
    }
}

/// θ's column parities.
#[inline(always)]
fn parities(a: &[u64; 25]) -> [u64; 5] {
    core::array::from_fn(|x| a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20])
}

/// How χ computes output lane `x + 5y` from the row `b[0..5]` as stored (some lanes
/// complemented) and `nb`, the complement of the one lane of the row that [`chi_plan`]
/// picks: `b'[x] ^ (b'[x + 1] op b'[x + 2])`, where `b'` is `nb` at the flagged inputs.
#[derive(Clone, Copy)]
struct ChiStep {
    /// OR instead of AND.
    or: bool,
    /// Which of the inputs `x`, `x + 1`, `x + 2` are taken from `nb`.
    use_not: [bool; 3],
}

/// Whether column `x` has an odd number of complemented lanes.
const fn complemented_parity(x: usize) -> bool {
    let mut p = false;
    let mut y = 0;
    while y < 5 {
        p ^= COMPLEMENTED[x + 5 * y];
        y += 1;
    }
    p
}

/// Whether position `j` holds a complemented lane when χ reads it: its π source was
/// complemented, flipped if θ added the parities of an odd number of complemented columns.
const fn complemented_at_chi(j: usize) -> bool {
    let src = pi_source(j);
    let x = src % 5;
    COMPLEMENTED[src] ^ complemented_parity((x + 4) % 5) ^ complemented_parity((x + 1) % 5)
}

/// How χ can compute output `x + 5y` with no NOT of its own, when the row's lane `k` is also
/// at hand complemented: `s0 ^ (s1 & s2)` is right when `s1` holds `!b1` and `s2` holds
/// `b2`; `s0 ^ (s1 | s2)` when `s1` holds `b1` and `s2` holds `!b2`, as it is then
/// `s0 ^ !(!b1 & b2)`. Either way the output's complement must come out as [`COMPLEMENTED`]
/// says.
const fn chi_step(x: usize, y: usize, k: usize) -> Option<ChiStep> {
    let xs = [x, (x + 1) % 5, (x + 2) % 5];
    let mut choice = 0;
    while choice < 8 {
        // Bit i of `choice`: input i is taken complemented, which only lane k can be.
        let use_not = [choice & 1 != 0, choice & 2 != 0, choice & 4 != 0];
        let mut usable = true;
        let mut flipped = [false; 3];
        let mut i = 0;
        while i < 3 {
            usable &= !use_not[i] || xs[i] == k;
            flipped[i] = complemented_at_chi(xs[i] + 5 * y) ^ use_not[i];
            i += 1;
        }
        let or = flipped[2];
        if usable && flipped[1] != flipped[2] && flipped[0] ^ or == COMPLEMENTED[x + 5 * y] {
            return Some(ChiStep { or, use_not });
        }
        choice += 1;
    }
    None
}

/// For each row, the first lane whose complement lets every output of the row do without
/// another NOT, and the resulting steps. It fails to compile if a row has none.
const fn chi_plan() -> ([usize; 5], [ChiStep; 25]) {
    let mut not_lane = [5; 5];
    let mut plan = [ChiStep { or: false, use_not: [false; 3] }; 25];
    let mut y = 0;
    while y < 5 {
        let mut k = 0;
        while k < 5 && not_lane[y] == 5 {
            let mut row = [ChiStep { or: false, use_not: [false; 3] }; 5];
            let mut x = 0;
            while x < 5 {
                match chi_step(x, y, k) {
                    Some(step) => row[x] = step,
                    None => break,
                }
                x += 1;
            }
            if x == 5 {
                not_lane[y] = k;
                let mut x = 0;
                while x < 5 {
                    plan[x + 5 * y] = row[x];
                    x += 1;
                }
            }
            k += 1;
        }
        assert!(not_lane[y] < 5, "no χ plan with one NOT in this row");
        y += 1;
    }
    (not_lane, plan)
}

/// The row lanes to complement and the χ steps, worked out at compile time.
const CHI_PLAN: ([usize; 5], [ChiStep; 25]) = chi_plan();

/// One round, θ ρ π χ ι (FIPS 202 §3.3), from `a` into `e`, given θ's column parities of `a`;
/// returns those of `e`.
#[inline(always)]
fn round(a: &[u64; 25], c: [u64; 5], e: &mut [u64; 25], rc: u64) -> [u64; 5] {
    let (not_lane, plan) = CHI_PLAN;
    // θ: each lane takes the parities of the two neighbouring columns.
    let d: [u64; 5] = core::array::from_fn(|x| c[(x + 4) % 5] ^ c[(x + 1) % 5].rotate_left(1));
    let mut next = [0u64; 5];
    for y in 0..5 {
        // π brings the five lanes of output row `y` together; θ and ρ are applied on the way.
        let b: [u64; 5] = core::array::from_fn(|x| {
            let src = pi_source(x + 5 * y);
            (a[src] ^ d[src % 5]).rotate_left(RHO[src])
        });
        // χ: the only non-linear step, within the row.
        let nb = !b[not_lane[y]];
        for x in 0..5 {
            let step = plan[x + 5 * y];
            let s = [x, (x + 1) % 5, (x + 2) % 5].map(|i| b[i]);
            let s: [u64; 3] = core::array::from_fn(|i| if step.use_not[i] { nb } else { s[i] });
            let out = s[0] ^ if step.or { s[1] | s[2] } else { s[1] & s[2] };
            let out = if x + 5 * y == 0 { out ^ rc } else { out }; // ι
            e[x + 5 * y] = out;
            next[x] ^= out;
        }
    }
    next
}
