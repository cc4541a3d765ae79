//! The AVX2 lane shuffles both NTTs use to transpose registers between butterfly layers
//! (ML-KEM's 16 × i16 and ML-DSA's 8 × i32 lanes alike: they move 128-, 64- and 32-bit blocks).

use core::arch::x86_64::{
    __m256i, _mm256_blend_epi32, _mm256_permute2x128_si256, _mm256_slli_epi64, _mm256_srli_epi64,
    _mm256_unpackhi_epi64, _mm256_unpacklo_epi64,
};

/// The 2×2 transposition of 128-bit halves: `([a.0, b.0], [a.1, b.1])`.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn swap128(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    (_mm256_permute2x128_si256::<0x20>(a, b), _mm256_permute2x128_si256::<0x31>(a, b))
}

/// The 2×2 transposition of 64-bit blocks in each 128-bit half.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn swap64(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    (_mm256_unpacklo_epi64(a, b), _mm256_unpackhi_epi64(a, b))
}

/// The 2×2 transposition of 32-bit blocks in each 64-bit block.
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn swap32(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    (
        _mm256_blend_epi32::<0xaa>(a, _mm256_slli_epi64::<32>(b)),
        _mm256_blend_epi32::<0xaa>(_mm256_srli_epi64::<32>(a), b),
    )
}
