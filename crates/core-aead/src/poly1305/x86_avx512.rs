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

/// Absorbs whole 16-byte blocks: groups of eight in vector lanes, the rest on `portable_r64`.
pub(super) fn blocks(token: Avx512, st: &mut State, data: &[u8]) {
    let vector = if data.len() >= MIN_LEN { data.len() & !127 } else { 0 };
    let (head, tail) = data.split_at(vector);
    if !head.is_empty() {
        // SAFETY: the `Avx512` token proves AVX-512 F (and AVX2) were detected.
        unsafe { blocks_avx512(token, st, head) };
    }
    // SAFETY: the `Avx512` token proves BMI2 (`mulx`) was detected.
    unsafe { scalar_bmi2(st, tail) };
}

/// The ChaCha20-Poly1305 tag (see [`super::aead_tag`]): the scalar blocks, the key set-up and
/// the final reduction inline in one function compiled with BMI2, partial blocks and the
/// lengths assembled in registers, the ciphertext's whole blocks through [`blocks`].
pub(super) fn aead_tag(token: Avx512, otk: &[u8; 32], aad: &[u8], ciphertext: &[u8]) -> [u8; 16] {
    // SAFETY: the `Avx512` token proves BMI2 was detected.
    unsafe { aead_tag_bmi2(token, otk, aad, ciphertext) }
}

#[target_feature(enable = "bmi2")]
fn aead_tag_bmi2(token: Avx512, otk: &[u8; 32], aad: &[u8], ciphertext: &[u8]) -> [u8; 16] {
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
    r: [__m512i; 5],
    s: [__m512i; 4],
}

impl Key {
    /// `r` in the lanes whose bit is set in `MASK`, 1 in the others.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn select<const MASK: u8>(r: &[__m512i; 5]) -> Self {
        let one = [1, 0, 0, 0, 0].map(|l| _mm512_set1_epi64(l));
        Self::from_limbs(core::array::from_fn(|i| _mm512_mask_blend_epi64(MASK, one[i], r[i])))
    }

    #[inline]
    #[target_feature(enable = "avx512f")]
    fn from_limbs(r: [__m512i; 5]) -> Self {
        let s =
            core::array::from_fn(|i| _mm512_add_epi64(r[i + 1], _mm512_slli_epi64::<2>(r[i + 1])));
        Self { r, s }
    }
}

/// `vpmuludq`: the low 32 bits of each 64-bit lane of `a` times those of `b`, as assembly.
/// Written out as an intrinsic, LLVM proves the accumulator limbs fit in 32 bits, drops the
/// implied masking, and then lowers the resulting 64×64 multiply as three `vpmuludq` and two
/// shifts.
#[inline]
#[target_feature(enable = "avx512f")]
fn mul32(a: __m512i, b: __m512i) -> __m512i {
    let out: __m512i;
    // SAFETY: `vpmuludq` on registers only; the caller's target features (from the `Avx512`
    // token) include AVX-512F.
    unsafe {
        core::arch::asm!(
            "vpmuludq {out}, {a}, {b}",
            out = lateout(zmm_reg) out,
            a = in(zmm_reg) a,
            b = in(zmm_reg) b,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    out
}

/// `h · key` per lane, partly reduced: limbs below 2^26 (plus a few bits on limbs 1 and 4).
/// Inputs below 2^27 per limb keep every sum of products below 2^59.
#[inline]
#[target_feature(enable = "avx512f")]
fn mul(h: [__m512i; 5], k: &Key) -> [__m512i; 5] {
    let m = mul32;
    let add = _mm512_add_epi64;
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
#[target_feature(enable = "avx512f")]
fn carry(d: [__m512i; 5]) -> [__m512i; 5] {
    let mask = _mm512_set1_epi64(M26.cast_signed());
    let [mut d0, mut d1, mut d2, mut d3, mut d4] = d;
    let hi = _mm512_srli_epi64::<26>;
    d1 = _mm512_add_epi64(d1, hi(d0));
    d0 = _mm512_and_si512(d0, mask);
    d4 = _mm512_add_epi64(d4, hi(d3));
    d3 = _mm512_and_si512(d3, mask);
    d2 = _mm512_add_epi64(d2, hi(d1));
    d1 = _mm512_and_si512(d1, mask);
    let c = hi(d4);
    d4 = _mm512_and_si512(d4, mask);
    d0 = _mm512_add_epi64(d0, _mm512_add_epi64(c, _mm512_slli_epi64::<2>(c)));
    d3 = _mm512_add_epi64(d3, hi(d2));
    d2 = _mm512_and_si512(d2, mask);
    d1 = _mm512_add_epi64(d1, hi(d0));
    d0 = _mm512_and_si512(d0, mask);
    d4 = _mm512_add_epi64(d4, hi(d3));
    d3 = _mm512_and_si512(d3, mask);
    [d0, d1, d2, d3, d4]
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
