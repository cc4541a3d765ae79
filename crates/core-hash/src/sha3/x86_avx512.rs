//! Keccak-f\[1600\] with AVX-512 instructions on 128-bit registers (AVX-512VL): one lane per
//! register, so the 25 lanes and the column parities fit in the 32 vector registers.
//! `vpternlogq` computes any three-input function in one instruction (the five-way XORs of
//! θ in two, θ's update in one, χ's `a ^ (!b & c)` in one) and `vprolq` rotates a lane in
//! place, where plain x86-64 code needs two to three instructions for each.

use super::{RC, RHO, pi_source};
use core::arch::x86_64::{
    __m128i, _mm_cvtsi64_si128, _mm_cvtsi128_si64, _mm_rol_epi64, _mm_ternarylogic_epi64,
    _mm_xor_si128,
};
use core_cpu::Avx512;

/// `vpternlogq` truth table of `a ^ b ^ c`.
pub(super) const XOR3: i32 = 0x96;
/// `vpternlogq` truth table of `a ^ (!b & c)` (χ).
pub(super) const CHI: i32 = 0xD2;

/// Keccak-f\[1600\] on the standard state.
pub(super) fn permute(token: Avx512, state: &mut [u64; 25]) {
    // SAFETY: the `Avx512` token proves AVX-512F and AVX-512VL were detected.
    unsafe { absorb_avx512::<0>(token, state, &[[]]) }
}

/// XORs each block into the state and permutes.
pub(super) fn absorb<const R: usize>(token: Avx512, state: &mut [u64; 25], blocks: &[[u8; R]]) {
    // SAFETY: the `Avx512` token proves AVX-512F and AVX-512VL were detected.
    unsafe { absorb_avx512(token, state, blocks) }
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
/// `R` is 0 and `blocks` one empty block) and stores it back.
#[target_feature(enable = "avx512f,avx512vl")]
fn absorb_avx512<const R: usize>(_: Avx512, state: &mut [u64; 25], blocks: &[[u8; R]]) {
    let mut a: [__m128i; 25] = state.map(|lane| _mm_cvtsi64_si128(lane.cast_signed()));
    for block in blocks {
        let words = block.as_chunks::<8>().0;
        each!(I => {
            if I < R / 8 {
                a[I] = _mm_xor_si128(a[I], _mm_cvtsi64_si128(i64::from_le_bytes(words[I])));
            }
        }; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20);
        for &rc in &RC {
            round(&mut a, _mm_cvtsi64_si128(rc.cast_signed()));
        }
    }
    for (lane, reg) in state.iter_mut().zip(a) {
        *lane = _mm_cvtsi128_si64(reg).cast_unsigned();
    }
}

/// Defines `$name`, one round θ ρ π χ ι (FIPS 202 §3.3) on 25 registers of type `$reg`,
/// with the AVX-512VL intrinsics for that width (`$ternlog`: `vpternlogq`, `$rol`: `vprolq`,
/// `$xor`), the round constant already broadcast to `rc`. The one-state permutation here
/// (128-bit registers, one lane each) and the four-way one in `x86_avx512vl_x4` (256-bit
/// registers, one lane of four states each) share it, as they differ only in register width.
macro_rules! keccak_round {
    ($name:ident, $reg:ty, $ternlog:ident, $rol:ident, $xor:ident) => {
        #[inline]
        #[target_feature(enable = "avx512f,avx512vl")]
        fn $name(a: &mut [$reg; 25], rc: $reg) {
            // θ: column parities, then each lane takes those of its two neighbouring columns.
            let c: [$reg; 5] = lanes!(X => {
                let t = $ternlog::<XOR3>(a[X], a[X + 5], a[X + 10]);
                $ternlog::<XOR3>(t, a[X + 15], a[X + 20])
            }; 0 1 2 3 4);
            let c1: [$reg; 5] = lanes!(X => $rol::<1>(c[X]); 0 1 2 3 4);
            // θ's update, ρ and π: position `I` takes lane `pi_source(I)`, updated and rotated.
            let b: [$reg; 25] = lanes!(I => {
                const SRC: usize = pi_source(I);
                const ROT: i32 = RHO[SRC].cast_signed();
                let t = $ternlog::<XOR3>(a[SRC], c[(SRC + 4) % 5], c1[(SRC + 1) % 5]);
                $rol::<ROT>(t)
            }; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24);
            // χ within each row.
            *a = lanes!(I => {
                let (x, row) = (I % 5, I - I % 5);
                $ternlog::<CHI>(b[I], b[row + (x + 1) % 5], b[row + (x + 2) % 5])
            }; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24);
            // ι
            a[0] = $xor(a[0], rc);
        }
    };
}

keccak_round!(round, __m128i, _mm_ternarylogic_epi64, _mm_rol_epi64, _mm_xor_si128);
