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

/// Absorbs whole 16-byte blocks: groups of four in vector lanes, the rest on `portable_r64`.
pub(super) fn blocks(token: Avx2, st: &mut State, data: &[u8]) {
    let vector = if data.len() >= MIN_LEN { data.len() & !63 } else { 0 };
    let (head, tail) = data.split_at(vector);
    if !head.is_empty() {
        // SAFETY: the `Avx2` token proves AVX2 were detected.
        unsafe { blocks_avx2(token, st, head) };
    }
    // SAFETY: the `Avx2` token proves BMI2 (`mulx`) was detected.
    unsafe { scalar_bmi2(st, tail) };
}

/// The ChaCha20-Poly1305 tag (see [`super::aead_tag`]): the scalar blocks, the key set-up and
/// the final reduction inline in one function compiled with BMI2, partial blocks and the
/// lengths assembled in registers, the ciphertext's whole blocks through [`blocks`].
pub(super) fn aead_tag(token: Avx2, otk: &[u8; 32], aad: &[u8], ciphertext: &[u8]) -> [u8; 16] {
    // SAFETY: the `Avx2` token proves BMI2 was detected.
    unsafe { aead_tag_bmi2(token, otk, aad, ciphertext) }
}

#[target_feature(enable = "bmi2")]
fn aead_tag_bmi2(token: Avx2, otk: &[u8; 32], aad: &[u8], ciphertext: &[u8]) -> [u8; 16] {
    let mut st = State::new(otk);
    let (whole, tail) = aad.split_at(aad.len() & !15);
    st.blocks(whole, true);
    if !tail.is_empty() {
        let (w0, w1) = partial_words(tail);
        st.block_words(w0, w1, true);
    }
    let (whole, tail) = ciphertext.split_at(ciphertext.len() & !15);
    blocks(token, &mut st, whole);
    if !tail.is_empty() {
        let (w0, w1) = partial_words(tail);
        st.block_words(w0, w1, true);
    }
    st.block_words(aad.len() as u64, ciphertext.len() as u64, true);
    let tag = st.finish();
    st.zeroize();
    tag
}

/// `portable_r64`'s blocks compiled with BMI2, whose `mulx` leaves the flags and `rdx` alone and
/// so needs fewer register moves around the multiplications of a block.
#[target_feature(enable = "bmi2")]
fn scalar_bmi2(st: &mut State, data: &[u8]) {
    st.blocks(data, true);
}

const M26: u64 = (1 << 26) - 1;

/// `r`'s limbs and their multiples by 5, broadcast or per lane, ready for [`mul`].
#[derive(Clone, Copy)]
struct Key {
    r: [__m256i; 5],
    s: [__m256i; 4],
}

impl Key {
    /// `r` in the lanes whose 32-bit halves are set in `MASK`, 1 in the others.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn select<const MASK: i32>(r: &[__m256i; 5]) -> Self {
        let one = [1, 0, 0, 0, 0].map(|l| _mm256_set1_epi64x(l));
        Self::from_limbs(core::array::from_fn(|i| _mm256_blend_epi32::<MASK>(one[i], r[i])))
    }

    #[inline]
    #[target_feature(enable = "avx2")]
    fn from_limbs(r: [__m256i; 5]) -> Self {
        let s =
            core::array::from_fn(|i| _mm256_add_epi64(r[i + 1], _mm256_slli_epi64::<2>(r[i + 1])));
        Self { r, s }
    }
}

/// `vpmuludq`: the low 32 bits of each 64-bit lane of `a` times those of `b`, as assembly.
/// Written out as an intrinsic, LLVM proves the accumulator limbs fit in 32 bits, drops the
/// implied masking, and then lowers the resulting 64×64 multiply as three `vpmuludq` and two
/// shifts.
#[inline]
#[target_feature(enable = "avx2")]
fn mul32(a: __m256i, b: __m256i) -> __m256i {
    let out: __m256i;
    // SAFETY: `vpmuludq` on registers only; the caller's target features (from the `Avx2`
    // token) include AVX2.
    unsafe {
        core::arch::asm!(
            "vpmuludq {out}, {a}, {b}",
            out = lateout(ymm_reg) out,
            a = in(ymm_reg) a,
            b = in(ymm_reg) b,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    out
}

/// `h · key` per lane, partly reduced: limbs below 2^26 (plus a few bits on limbs 1 and 4).
/// Inputs below 2^27 per limb keep every sum of products below 2^59.
#[inline]
#[target_feature(enable = "avx2")]
fn mul(h: [__m256i; 5], k: &Key) -> [__m256i; 5] {
    let m = mul32;
    let add = _mm256_add_epi64;
    let [h0, h1, h2, h3, h4] = h;
    let [r0, r1, r2, r3, r4] = k.r;
    let [s1, s2, s3, s4] = k.s;
    let d0 = add(add(add(m(h0, r0), m(h1, s4)), add(m(h2, s3), m(h3, s2))), m(h4, s1));
    let d1 = add(add(add(m(h0, r1), m(h1, r0)), add(m(h2, s4), m(h3, s3))), m(h4, s2));
    let d2 = add(add(add(m(h0, r2), m(h1, r1)), add(m(h2, r0), m(h3, s4))), m(h4, s3));
    let d3 = add(add(add(m(h0, r3), m(h1, r2)), add(m(h2, r1), m(h3, r0))), m(h4, s4));
    let d4 = add(add(add(m(h0, r4), m(h1, r3)), add(m(h2, r2), m(h3, r1))), m(h4, r0));
    carry([d0, d1, d2, d3, d4])
}

/// One carry pass over five 64-bit limbs, in two interleaved chains.
#[inline]
#[target_feature(enable = "avx2")]
fn carry(d: [__m256i; 5]) -> [__m256i; 5] {
    let mask = _mm256_set1_epi64x(M26.cast_signed());
    let [mut d0, mut d1, mut d2, mut d3, mut d4] = d;
    let hi = _mm256_srli_epi64::<26>;
    d1 = _mm256_add_epi64(d1, hi(d0));
    d0 = _mm256_and_si256(d0, mask);
    d4 = _mm256_add_epi64(d4, hi(d3));
    d3 = _mm256_and_si256(d3, mask);
    d2 = _mm256_add_epi64(d2, hi(d1));
    d1 = _mm256_and_si256(d1, mask);
    let c = hi(d4);
    d4 = _mm256_and_si256(d4, mask);
    d0 = _mm256_add_epi64(d0, _mm256_add_epi64(c, _mm256_slli_epi64::<2>(c)));
    d3 = _mm256_add_epi64(d3, hi(d2));
    d2 = _mm256_and_si256(d2, mask);
    d1 = _mm256_add_epi64(d1, hi(d0));
    d0 = _mm256_and_si256(d0, mask);
    d4 = _mm256_add_epi64(d4, hi(d3));
    d3 = _mm256_and_si256(d3, mask);
    [d0, d1, d2, d3, d4]
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
