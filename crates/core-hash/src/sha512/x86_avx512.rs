//! SHA-512 compression for `x86_64` with AVX-512 (VL, on 256-bit registers) and BMI2: the
//! two-block message schedule of [`x86_avx2`](super::x86_avx2), with σ0 and σ1 each taking
//! four instructions instead of eight: `vprorq` rotates a 64-bit lane in one instruction and
//! `vpternlogq` XORs three vectors in one. The schedule's vector work shares execution ports
//! with the scalar `rorx` rounds, so halving it leaves them more room.

use super::x86_avx2::{SmallSigmas, compress_pairs};
use core::arch::x86_64::{__m256i, _mm256_ror_epi64, _mm256_srli_epi64, _mm256_ternarylogic_epi64};
use core_cpu::Avx512;

/// `vpternlogq` truth table of `a ^ b ^ c`.
const XOR3: i32 = 0x96;

/// Compresses each 128-byte block into `state`.
pub(super) fn compress(token: Avx512, state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    // SAFETY: the `Avx512` token proves AVX-512F/VL, AVX2, BMI1 and BMI2 were detected.
    unsafe { compress_avx512(token, state, blocks) }
}

#[target_feature(enable = "avx2,bmi1,bmi2,avx512f,avx512vl")]
fn compress_avx512(token: Avx512, state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    compress_pairs!(token, state, blocks);
}

// SAFETY: an `Avx512` token is only obtained once AVX-512F/VL and AVX2 were detected.
unsafe impl SmallSigmas for Avx512 {
    #[inline(always)]
    fn sigma0(self, x: __m256i) -> __m256i {
        // SAFETY: the `Avx512` token proves AVX-512F and AVX-512VL were detected.
        unsafe {
            let (r1, r8, s7) =
                (_mm256_ror_epi64::<1>(x), _mm256_ror_epi64::<8>(x), _mm256_srli_epi64::<7>(x));
            _mm256_ternarylogic_epi64::<XOR3>(r1, r8, s7)
        }
    }

    #[inline(always)]
    fn sigma1(self, x: __m256i) -> __m256i {
        // SAFETY: the `Avx512` token proves AVX-512F and AVX-512VL were detected.
        unsafe {
            let (r19, r61, s6) =
                (_mm256_ror_epi64::<19>(x), _mm256_ror_epi64::<61>(x), _mm256_srli_epi64::<6>(x));
            _mm256_ternarylogic_epi64::<XOR3>(r19, r61, s6)
        }
    }
}
