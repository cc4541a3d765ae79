//! Keccak-f\[1600\] with the Armv8.2 SHA-3 instructions, one lane per vector register, so the
//! 25 lanes and the column parities fit in the 32 registers. The instructions were made for
//! this: `eor3` does θ's parities two lanes per instruction, `rax1` θ's `c ^ rol(c', 1)`,
//! `xar` θ's update together with ρ's rotation, and `bcax` χ's `a ^ (c & !b)`.

use super::{RC, RHO, pi_source};
use core::arch::aarch64::{
    uint64x2_t, vbcaxq_u64, vdupq_n_u64, veor3q_u64, veorq_u64, vgetq_lane_u64, vrax1q_u64,
    vxarq_u64,
};
use core_cpu::ArmSha3;

/// Keccak-f\[1600\] on the standard state.
pub(super) fn permute(token: ArmSha3, state: &mut [u64; 25]) {
    // SAFETY: the `ArmSha3` token proves NEON and the SHA-3 instructions were detected.
    unsafe { absorb_sha3::<0>(token, state, &[[]]) }
}

/// XORs each block into the state and permutes.
pub(super) fn absorb<const R: usize>(token: ArmSha3, state: &mut [u64; 25], blocks: &[[u8; R]]) {
    // SAFETY: the `ArmSha3` token proves NEON and the SHA-3 instructions were detected.
    unsafe { absorb_sha3(token, state, blocks) }
}

/// Runs `$body` once for each listed index, with `$i` a constant.
macro_rules! each {
    ($i:ident => $body:block; $($n:literal)*) => {
        $({
            const $i: usize = $n;
            $body
        })*
    };
}

/// Expands `$body` once for each listed index, with `$i` a constant, into an array.
macro_rules! lanes {
    ($i:ident => $body:expr; $($n:literal)*) => {
        [$({
            const $i: usize = $n;
            $body
        }),*]
    };
}

/// Loads the state into registers, absorbs every block (none for a bare permutation, where
/// `R` is 0 and `blocks` one empty block) and stores it back. Both halves of each register
/// hold the same lane; only the low one is stored.
#[target_feature(enable = "neon,sha3")]
fn absorb_sha3<const R: usize>(_: ArmSha3, state: &mut [u64; 25], blocks: &[[u8; R]]) {
    let mut a: [uint64x2_t; 25] = state.map(|lane| vdupq_n_u64(lane));
    for block in blocks {
        let words = block.as_chunks::<8>().0;
        each!(I => {
            if I < R / 8 {
                a[I] = veorq_u64(a[I], vdupq_n_u64(u64::from_le_bytes(words[I])));
            }
        }; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20);
        for &rc in &RC {
            round(&mut a, rc);
        }
    }
    for (lane, reg) in state.iter_mut().zip(a) {
        *lane = vgetq_lane_u64::<0>(reg);
    }
}

/// One round, θ ρ π χ ι (FIPS 202 §3.3).
#[inline]
#[target_feature(enable = "neon,sha3")]
fn round(a: &mut [uint64x2_t; 25], rc: u64) {
    // θ: column parities, then what each column adds: d[x] = c[x - 1] ^ rol(c[x + 1], 1).
    let c: [uint64x2_t; 5] = lanes!(X => {
        veor3q_u64(veor3q_u64(a[X], a[X + 5], a[X + 10]), a[X + 15], a[X + 20])
    }; 0 1 2 3 4);
    let d: [uint64x2_t; 5] = lanes!(X => vrax1q_u64(c[(X + 4) % 5], c[(X + 1) % 5]); 0 1 2 3 4);
    // θ's update, ρ and π: position `I` takes lane `pi_source(I)`, updated and rotated
    // (`xar` rotates right, so by `64 - ρ`).
    let b: [uint64x2_t; 25] = lanes!(I => {
        const SRC: usize = pi_source(I);
        const ROR: i32 = ((64 - RHO[SRC]) % 64).cast_signed();
        vxarq_u64::<ROR>(a[SRC], d[SRC % 5])
    }; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24);
    // χ within each row: `bcax(a, b, c)` is `a ^ (b & !c)`.
    *a = lanes!(I => {
        let (x, row) = (I % 5, I - I % 5);
        vbcaxq_u64(b[I], b[row + (x + 2) % 5], b[row + (x + 1) % 5])
    }; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24);
    // ι
    a[0] = veorq_u64(a[0], vdupq_n_u64(rc));
}
