//! Eight Keccak-f\[1600\] permutations at once with AVX-512F on 512-bit registers: lane `i`
//! of the eight states in one `zmm` register, one state per 64-bit element, with the round
//! of `x86_avx512` (`vpternlogq` for θ's parities and update and for χ, `vprolq` for ρ). The
//! 25 lanes, the five parities and the round's output fit in the 32 registers. On a CPU with
//! full-width 512-bit units (AMD Zen 5, Intel server cores) a call costs about what the
//! four-way `x86_avx512vl_x4` costs, for twice the states: ML-DSA's matrix sampling runs
//! eight sponges at a time on it. Tested beside the four-way ones, in `x86_avx2_x4`.

use super::x86_avx512::{CHI, XOR3};
use super::{RC, RHO, pi_source};
use core::arch::x86_64::{
    __m512i, _mm512_loadu_si512, _mm512_rol_epi64, _mm512_set1_epi64, _mm512_storeu_si512,
    _mm512_ternarylogic_epi64, _mm512_xor_si512,
};
use core_cpu::Avx512;

/// Keccak-f\[1600\] on eight states, interleaved: `state[i][k]` is lane `i` (= x + 5y) of
/// state `k`, in the standard lane encoding.
pub(crate) fn permute_x8(token: Avx512, state: &mut [[u64; 8]; 25]) {
    // SAFETY: the `Avx512` token proves AVX-512F (and VL, which the shared round enables)
    // was detected.
    unsafe { permute_x8_avx512(token, state) }
}

keccak_round!(round, __m512i, _mm512_ternarylogic_epi64, _mm512_rol_epi64, _mm512_xor_si512);

#[target_feature(enable = "avx512f,avx512vl")]
fn permute_x8_avx512(_: Avx512, state: &mut [[u64; 8]; 25]) {
    let mut a: [__m512i; 25] = core::array::from_fn(|i| {
        // SAFETY: `state[i]` is 64 readable bytes; `loadu` takes any alignment. AVX-512F is
        // enabled on this function, reached only through the `Avx512` token.
        unsafe { _mm512_loadu_si512(state[i].as_ptr().cast()) }
    });
    for &rc in &RC {
        round(&mut a, _mm512_set1_epi64(rc.cast_signed()));
    }
    for (lane, out) in a.iter().zip(state.iter_mut()) {
        // SAFETY: `out` is 64 writable bytes; `storeu` takes any alignment. AVX-512F is
        // enabled on this function, reached only through the `Avx512` token.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), *lane) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each of the eight states comes out as the scalar permutation makes it, over several
    /// rounds of chaining (different states in each position, one all zero).
    #[test]
    fn eight_way_permutation_matches_the_scalar_one() {
        let Some(token) = Avx512::get() else {
            std::println!("keccak x8/x86_avx512: not available on this CPU");
            return;
        };
        let mut x = 0x0123_4567_89ab_cdef_u64;
        let mut scalar: [[u64; 25]; 8] = core::array::from_fn(|_| {
            core::array::from_fn(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            })
        });
        scalar[5] = [0; 25];
        let mut eight: [[u64; 8]; 25] =
            core::array::from_fn(|i| core::array::from_fn(|k| scalar[k][i]));
        for _ in 0..3 {
            permute_x8(token, &mut eight);
            for s in &mut scalar {
                super::super::portable::permute(s);
            }
            for (k, s) in scalar.iter().enumerate() {
                for (i, lane) in s.iter().enumerate() {
                    assert_eq!(eight[i][k], *lane, "state {k}, lane {i}");
                }
            }
        }
    }
}
