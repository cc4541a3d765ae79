//! Pieces shared by the `x86_avx2` backends of SHA-1, SHA-256 and SHA-512, which all expand
//! the message schedules of two blocks at once, one block per 128-bit lane.

use core::arch::x86_64::{
    __m256i, _mm_loadu_si128, _mm256_castsi128_si256, _mm256_inserti128_si256, _mm256_set_epi64x,
    _mm256_shuffle_epi8,
};

/// Big-endian words of `W` bytes: the `pshufb` mask that reverses each `W`-byte word.
#[inline]
#[target_feature(enable = "avx2")]
fn bswap_mask<const W: usize>() -> __m256i {
    if W == 8 {
        _mm256_set_epi64x(
            0x08090a0b0c0d0e0f,
            0x0001020304050607,
            0x08090a0b0c0d0e0f,
            0x0001020304050607,
        )
    } else {
        _mm256_set_epi64x(
            0x0c0d0e0f08090a0b,
            0x0405060700010203,
            0x0c0d0e0f08090a0b,
            0x0405060700010203,
        )
    }
}

/// Bytes `16i..16i + 16` of block `a` in the low lane and of block `b` in the high lane, as
/// big-endian words of `W` bytes (4 for SHA-1/SHA-256, 8 for SHA-512).
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn load_pair<const W: usize, const B: usize>(
    a: &[u8; B],
    b: &[u8; B],
    i: usize,
) -> __m256i {
    let (Some(lo), Some(hi)) = (a.get(16 * i..16 * i + 16), b.get(16 * i..16 * i + 16)) else {
        return _mm256_set_epi64x(0, 0, 0, 0);
    };
    // SAFETY: `lo` and `hi` are 16-byte slices; the loads are unaligned.
    let (lo, hi) =
        unsafe { (_mm_loadu_si128(lo.as_ptr().cast()), _mm_loadu_si128(hi.as_ptr().cast())) };
    let both = _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(lo), hi);
    _mm256_shuffle_epi8(both, bswap_mask::<W>())
}
