//! Poly1305 for `x86_64` with AVX-512: eight blocks per step. Each ZMM register holds one
//! radix-2^26 limb of eight accumulators, one per lane; every step multiplies all of them by
//! r^8 with `vpmuludq` (25 products, the top ones folded back times 5) and adds the next eight
//! blocks, so lane `i` accumulates blocks `i`, `i + 8`, …. The last step multiplies each lane
//! by the power of `r` its blocks still need instead (r^8 … r^1), and the lanes are summed into
//! the scalar accumulator. Those powers come from three lane-masked vector multiplications per
//! call, so inputs below [`MIN_LEN`] bytes stay on `portable_r64`.

// The five limbs of eight lanes are register values passed between inlined helpers.
#![allow(clippy::large_types_passed_by_value)]

use super::portable_r64::{State, partial_words};
use super::r26;
use core::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_and_si512, _mm512_broadcastq_epi64, _mm512_castsi512_si128,
    _mm512_loadu_si512, _mm512_mask_blend_epi64, _mm512_or_si512, _mm512_reduce_add_epi64,
    _mm512_set1_epi64, _mm512_setr_epi64, _mm512_slli_epi64, _mm512_srli_epi64,
    _mm512_unpackhi_epi64, _mm512_unpacklo_epi64,
};
use core_cpu::Avx512;
use zeroize::Zeroize;

/// The shortest input worth the set-up, in bytes (measured: below it `portable_r64` wins).
pub(super) const MIN_LEN: usize = 384;

super::x86_r26::r26_vector! {
    token: Avx512, features: "avx512f",
    vector: __m512i, mul: mul32_zmm, mul_rust: _mm512_mul_epu32, group: 128,
    kernel: blocks_avx512,
    add: _mm512_add_epi64, and: _mm512_and_si512, srli: _mm512_srli_epi64,
    slli: _mm512_slli_epi64, set1: _mm512_set1_epi64,
}

impl Key {
    /// `r` in the lanes whose bit is set in `MASK`, 1 in the others.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn select<const MASK: u8>(r: &[__m512i; 5]) -> Self {
        let one = [1, 0, 0, 0, 0].map(|l| _mm512_set1_epi64(l));
        Self::from_limbs(core::array::from_fn(|i| _mm512_mask_blend_epi64(MASK, one[i], r[i])))
    }
}

/// Eight blocks as radix-2^26 limbs with the 2^128 bit. Lane order is the order of the
/// unpacks: blocks 0, 4, 1, 5, 2, 6, 3, 7.
#[inline]
#[target_feature(enable = "avx512f")]
fn load(group: &[u8; 128]) -> [__m512i; 5] {
    // SAFETY: `group` is 128 bytes; two unaligned 64-byte loads.
    let (a, b) = unsafe {
        (
            _mm512_loadu_si512(group.as_ptr().cast()),
            _mm512_loadu_si512(group.as_ptr().add(64).cast()),
        )
    };
    let lo = _mm512_unpacklo_epi64(a, b);
    let hi = _mm512_unpackhi_epi64(a, b);
    let mask = _mm512_set1_epi64(M26.cast_signed());
    [
        _mm512_and_si512(lo, mask),
        _mm512_and_si512(_mm512_srli_epi64::<26>(lo), mask),
        _mm512_and_si512(
            _mm512_or_si512(_mm512_srli_epi64::<52>(lo), _mm512_slli_epi64::<12>(hi)),
            mask,
        ),
        _mm512_and_si512(_mm512_srli_epi64::<14>(hi), mask),
        _mm512_or_si512(_mm512_srli_epi64::<40>(hi), _mm512_set1_epi64(1 << 24)),
    ]
}

#[target_feature(enable = "avx512f,avx2")]
fn blocks_avx512(_: Avx512, st: &mut State, data: &[u8]) {
    // The last step multiplies the lane holding block position p by r^(8 − p): lanes need
    // r^8, r^4, r^7, r^3, r^6, r^2, r^5, r^1 (see [`load`]). Starting from r everywhere,
    // three multiplications by r, r² and r⁴ in the lanes whose exponent minus one has that
    // bit set (the others are multiplied by 1) give exactly that, with r^8 in lane 0.
    let r: [__m512i; 5] = {
        let r = st.r();
        let limbs = r26::from_r64([r as u64, (r >> 64) as u64, 0]);
        core::array::from_fn(|i| _mm512_set1_epi64(i64::from(limbs[i])))
    };
    let mut x = r;
    x = mul(x, &Key::select::<0x33>(&r));
    x = mul(
        x,
        &Key::select::<0x0F>(&x.map(|v| _mm512_broadcastq_epi64(_mm512_castsi512_si128(v)))),
    );
    x = mul(
        x,
        &Key::select::<0x55>(&x.map(|v| _mm512_broadcastq_epi64(_mm512_castsi512_si128(v)))),
    );
    let step = Key::from_limbs(x.map(|v| _mm512_broadcastq_epi64(_mm512_castsi512_si128(v))));
    let last = Key::from_limbs(x);

    // The running accumulator enters in the lane of block position 0.
    let h26 = r26::from_r64(st.h);
    let mut h: [__m512i; 5] =
        core::array::from_fn(|i| _mm512_setr_epi64(i64::from(h26[i]), 0, 0, 0, 0, 0, 0, 0));
    // `data` is a whole, non-zero number of groups: all but the last step by r^8.
    let (body, last_group) = data.split_at(data.len() - 128);
    let absorb = |h: [__m512i; 5], group: &[u8], key: &Key| {
        let group: &[u8; 128] = group.try_into().unwrap_or_else(|_| unreachable!());
        let m = load(group);
        mul(core::array::from_fn(|i| _mm512_add_epi64(h[i], m[i])), key)
    };
    for group in body.chunks_exact(128) {
        h = absorb(h, group, &step);
    }
    h = absorb(h, last_group, &last);
    let lanes: [u64; 5] = core::array::from_fn(|i| _mm512_reduce_add_epi64(h[i]).cast_unsigned());
    st.h = r26::to_r64(lanes);
}
