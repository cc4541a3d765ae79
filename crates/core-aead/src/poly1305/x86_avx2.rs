//! Poly1305 for `x86_64` with AVX2: four blocks per step, the technique of [`super::x86_avx512`]
//! on YMM registers. Each register holds one radix-2^26 limb of four accumulators; every step
//! multiplies them by r^4 with `vpmuludq` and adds the next four blocks; the last step
//! multiplies each lane by the power its blocks still need (r^4 … r^1) and the lanes are summed.
//! Inputs below [`MIN_LEN`] bytes stay on `portable_r64`.

use super::portable_r64::{State, partial_words};
use super::r26;
use core::arch::x86_64::{
    __m256i, _mm256_add_epi64, _mm256_and_si256, _mm256_blend_epi32, _mm256_loadu_si256,
    _mm256_or_si256, _mm256_permute4x64_epi64, _mm256_set1_epi64x, _mm256_setr_epi64x,
    _mm256_slli_epi64, _mm256_srli_epi64, _mm256_storeu_si256, _mm256_unpackhi_epi64,
    _mm256_unpacklo_epi64,
};
use core_cpu::Avx2;
use zeroize::Zeroize;

/// The shortest input worth the set-up, in bytes (measured: below it `portable_r64` wins).
pub(super) const MIN_LEN: usize = 384;

super::x86_r26::r26_vector! {
    token: Avx2, features: "avx2",
    vector: __m256i, mul: mul32_ymm, mul_rust: _mm256_mul_epu32, group: 64,
    kernel: blocks_avx2,
    add: _mm256_add_epi64, and: _mm256_and_si256, srli: _mm256_srli_epi64,
    slli: _mm256_slli_epi64, set1: _mm256_set1_epi64x,
}

impl Key {
    /// `r` in the lanes whose 32-bit halves are set in `MASK`, 1 in the others.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn select<const MASK: i32>(r: &[__m256i; 5]) -> Self {
        let one = [1, 0, 0, 0, 0].map(|l| _mm256_set1_epi64x(l));
        Self::from_limbs(core::array::from_fn(|i| _mm256_blend_epi32::<MASK>(one[i], r[i])))
    }
}

/// Four blocks as radix-2^26 limbs with the 2^128 bit. Lane order is the order of the
/// unpacks: blocks 0, 2, 1, 3.
#[inline]
#[target_feature(enable = "avx2")]
fn load(group: &[u8; 64]) -> [__m256i; 5] {
    // SAFETY: `group` is 64 bytes; two unaligned 32-byte loads.
    let (a, b) = unsafe {
        (
            _mm256_loadu_si256(group.as_ptr().cast()),
            _mm256_loadu_si256(group.as_ptr().add(32).cast()),
        )
    };
    let lo = _mm256_unpacklo_epi64(a, b);
    let hi = _mm256_unpackhi_epi64(a, b);
    let mask = _mm256_set1_epi64x(M26.cast_signed());
    [
        _mm256_and_si256(lo, mask),
        _mm256_and_si256(_mm256_srli_epi64::<26>(lo), mask),
        _mm256_and_si256(
            _mm256_or_si256(_mm256_srli_epi64::<52>(lo), _mm256_slli_epi64::<12>(hi)),
            mask,
        ),
        _mm256_and_si256(_mm256_srli_epi64::<14>(hi), mask),
        _mm256_or_si256(_mm256_srli_epi64::<40>(hi), _mm256_set1_epi64x(1 << 24)),
    ]
}

#[target_feature(enable = "avx2")]
fn blocks_avx2(_: Avx2, st: &mut State, data: &[u8]) {
    // The last step multiplies the lane holding block position p by r^(4 − p): lanes need
    // r^4, r^2, r^3, r^1 (see [`load`]). Starting from r everywhere, multiplications by r
    // and r² in the lanes whose exponent minus one has that bit set (the others are multiplied
    // by 1) give exactly that, with r^4 in lane 0.
    let r: [__m256i; 5] = {
        let r = st.r();
        let limbs = r26::from_r64([r as u64, (r >> 64) as u64, 0]);
        core::array::from_fn(|i| _mm256_set1_epi64x(i64::from(limbs[i])))
    };
    let mut x = r;
    x = mul(x, &Key::select::<0x0F>(&r));
    x = mul(x, &Key::select::<0x33>(&x.map(|v| _mm256_permute4x64_epi64::<0>(v))));
    let step = Key::from_limbs(x.map(|v| _mm256_permute4x64_epi64::<0>(v)));
    let last = Key::from_limbs(x);

    // The running accumulator enters in the lane of block position 0.
    let h26 = r26::from_r64(st.h);
    let mut h: [__m256i; 5] =
        core::array::from_fn(|i| _mm256_setr_epi64x(i64::from(h26[i]), 0, 0, 0));
    let mut groups = data.chunks_exact(64).peekable();
    while let Some(group) = groups.next() {
        let group: &[u8; 64] = group.try_into().unwrap_or_else(|_| unreachable!());
        let m = load(group);
        let sum: [__m256i; 5] = core::array::from_fn(|i| _mm256_add_epi64(h[i], m[i]));
        h = mul(sum, if groups.peek().is_some() { &step } else { &last });
    }
    let lanes: [u64; 5] = core::array::from_fn(|i| sum_lanes(h[i]));
    st.h = r26::to_r64(lanes);
}

/// The sum of the four 64-bit lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn sum_lanes(x: __m256i) -> u64 {
    let mut lanes = [0u64; 4];
    // SAFETY: `lanes` is 32 bytes; an unaligned store.
    unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), x) };
    lanes.iter().fold(0, |a, &l| a.wrapping_add(l))
}

#[cfg(all(test, feature = "asm"))]
mod tests {
    use super::*;

    /// The `vpmuludq` kernel ([`mul32`]) against its Rust twin, the intrinsic, on random
    /// lanes (the high halves must be ignored).
    #[test]
    fn mul32_matches_rust_twin() {
        #[target_feature(enable = "avx2")]
        fn check(a: [u64; 4], b: [u64; 4]) {
            // SAFETY: 32 bytes read from and written to arrays of 32 bytes.
            let (x, y) = unsafe {
                (_mm256_loadu_si256(a.as_ptr().cast()), _mm256_loadu_si256(b.as_ptr().cast()))
            };
            let out = |v: __m256i| {
                let mut w = [0u64; 4];
                // SAFETY: as above.
                unsafe { _mm256_storeu_si256(w.as_mut_ptr().cast(), v) };
                w
            };
            let twin = core::arch::x86_64::_mm256_mul_epu32(x, y);
            assert_eq!(out(mul32(x, y)), out(twin));
            let expected: [u64; 4] =
                core::array::from_fn(|i| (a[i] & 0xFFFF_FFFF) * (b[i] & 0xFFFF_FFFF));
            assert_eq!(out(mul32(x, y)), expected);
        }
        if Avx2::get().is_none() {
            std::println!("poly1305 x86_avx2: AVX2 not available on this CPU");
            return;
        }
        let mut seed = 0x853C_49E6_748F_EA9Bu64;
        let mut next = move || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1442695040888963407);
            seed
        };
        for _ in 0..1000 {
            let a = core::array::from_fn(|_| next());
            let b = core::array::from_fn(|_| next());
            // SAFETY: AVX2 was detected above.
            unsafe { check(a, b) };
        }
    }
}
