//! Poly1305 for `x86_64` with AVX-512 IFMA: eight blocks per step in radix 2^44. Each ZMM
//! register holds one limb (44, 44 and 42 bits) of eight accumulators, one per lane, and a
//! multiplication is nine 52×52-bit products with `vpmadd52luq`/`vpmadd52huq`, each giving its
//! low and high 52 bits, against the 25 `vpmuludq` of radix 2^26. Groups of eight blocks go in
//! pairs on two independent sets of accumulators, each multiplied by r^16 per step, so one
//! set's products overlap the other's carries (one set alone waits on that latency); the last
//! step multiplies each lane by the power of `r` its blocks still need (r^16 … r^1), found with
//! three lane-masked multiplications as in `x86_avx512` and one more by r^8, and the lanes are
//! summed into the scalar accumulator. Inputs below [`MIN_LEN`] bytes stay on `portable_r64`.

// The three limbs of eight lanes are register values passed between inlined helpers.
#![allow(clippy::large_types_passed_by_value)]

use super::portable_r64::{State, partial_words};
use core::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_and_si512, _mm512_broadcastq_epi64, _mm512_castsi512_si128,
    _mm512_loadu_si512, _mm512_madd52hi_epu64, _mm512_madd52lo_epu64, _mm512_mask_blend_epi64,
    _mm512_or_si512, _mm512_reduce_add_epi64, _mm512_set1_epi64, _mm512_setr_epi64,
    _mm512_setzero_si512, _mm512_slli_epi64, _mm512_srli_epi64, _mm512_unpackhi_epi64,
    _mm512_unpacklo_epi64,
};
use core_cpu::Avx512Ifma;
use zeroize::Zeroize;

/// The shortest input worth the set-up, in bytes (the crossover of `x86_avx512`, kept).
pub(super) const MIN_LEN: usize = 384;

const M44: u64 = (1 << 44) - 1;
const M42: u64 = (1 << 42) - 1;

/// Absorbs whole 16-byte blocks: whole groups of eight in vector lanes, the rest on
/// `portable_r64`.
pub(super) fn blocks(token: Avx512Ifma, st: &mut State, data: &[u8]) {
    let vector = if data.len() >= MIN_LEN { data.len() & !127 } else { 0 };
    let (head, tail) = data.split_at(vector);
    if !head.is_empty() {
        // SAFETY: the token proves AVX-512 F and IFMA were detected.
        unsafe { blocks_ifma(token, st, head) };
    }
    // SAFETY: the token proves BMI2 (`mulx`) was detected.
    unsafe { scalar_bmi2(st, tail) };
}

/// The ChaCha20-Poly1305 tag (see [`super::aead_tag`]), laid out as `x86_avx512`'s: scalar
/// parts compiled for BMI2 with partial blocks assembled in registers, the ciphertext's whole
/// blocks through [`blocks`].
pub(super) fn aead_tag(
    token: Avx512Ifma,
    otk: &[u8; 32],
    aad: &[u8],
    ciphertext: &[u8],
) -> [u8; 16] {
    // SAFETY: the token proves BMI2 was detected.
    unsafe { aead_tag_bmi2(token, otk, aad, ciphertext) }
}

#[target_feature(enable = "bmi2")]
fn aead_tag_bmi2(token: Avx512Ifma, otk: &[u8; 32], aad: &[u8], ciphertext: &[u8]) -> [u8; 16] {
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

/// `portable_r64`'s blocks compiled with BMI2 (`mulx`).
#[target_feature(enable = "bmi2")]
fn scalar_bmi2(st: &mut State, data: &[u8]) {
    st.blocks(data, true);
}

/// `r`'s limbs and 20 times its upper two (2^132 ≡ 20 modulo 2^130 − 5), ready for [`mul`].
#[derive(Clone, Copy)]
struct Key {
    r: [__m512i; 3],
    s: [__m512i; 2],
}

impl Key {
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn from_limbs(r: [__m512i; 3]) -> Self {
        let s = [r[1], r[2]]
            .map(|v| _mm512_add_epi64(_mm512_slli_epi64::<4>(v), _mm512_slli_epi64::<2>(v)));
        Self { r, s }
    }

    /// `r` in the lanes whose bit is set in `MASK`, 1 in the others.
    #[inline]
    #[target_feature(enable = "avx512f")]
    fn select<const MASK: u8>(r: &[__m512i; 3]) -> Self {
        let one = [1, 0, 0].map(|l| _mm512_set1_epi64(l));
        Self::from_limbs(core::array::from_fn(|i| _mm512_mask_blend_epi64(MASK, one[i], r[i])))
    }
}

/// Lane 0 of each limb in every lane.
#[inline]
#[target_feature(enable = "avx512f")]
fn broadcast(x: [__m512i; 3]) -> [__m512i; 3] {
    x.map(|v| _mm512_broadcastq_epi64(_mm512_castsi512_si128(v)))
}

/// `h · key` per lane, partly reduced: limbs below 2^44 + 2^15, 2^44 + 2^13 and 2^42 + 2^11.
/// Inputs must stay below 2^52 per limb (IFMA reads 52 bits); those below 2^47 keep every
/// sum below 2^57.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn mul(h: [__m512i; 3], k: &Key) -> [__m512i; 3] {
    let z = _mm512_setzero_si512();
    let lo = _mm512_madd52lo_epu64;
    let hi = _mm512_madd52hi_epu64;
    let [h0, h1, h2] = h;
    let [r0, r1, r2] = k.r;
    let [s1, s2] = k.s;
    // Column sums of the low halves (at 2^0, 2^44, 2^88) and of the high halves, which lie
    // 52 bits up: 8 bits above the next column, and for the top one at 2^140 ≡ 5 · 2^10.
    let l0 = _mm512_add_epi64(lo(lo(z, h0, r0), h1, s2), lo(z, h2, s1));
    let l1 = _mm512_add_epi64(lo(lo(z, h0, r1), h1, r0), lo(z, h2, s2));
    let l2 = _mm512_add_epi64(lo(lo(z, h0, r2), h1, r1), lo(z, h2, r0));
    let g0 = _mm512_add_epi64(hi(hi(z, h0, r0), h1, s2), hi(z, h2, s1));
    let g1 = _mm512_add_epi64(hi(hi(z, h0, r1), h1, r0), hi(z, h2, s2));
    let g2 = _mm512_add_epi64(hi(hi(z, h0, r2), h1, r1), hi(z, h2, r0));
    let t0 = _mm512_add_epi64(
        l0,
        _mm512_add_epi64(_mm512_slli_epi64::<12>(g2), _mm512_slli_epi64::<10>(g2)),
    );
    let t1 = _mm512_add_epi64(l1, _mm512_slli_epi64::<8>(g0));
    let t2 = _mm512_add_epi64(l2, _mm512_slli_epi64::<8>(g1));
    // One carry pass with the three carries taken at once (shorter latency than a chain).
    let m44 = _mm512_set1_epi64(M44.cast_signed());
    let c0 = _mm512_srli_epi64::<44>(t0);
    let c1 = _mm512_srli_epi64::<44>(t1);
    let c2 = _mm512_srli_epi64::<42>(t2);
    [
        _mm512_add_epi64(
            _mm512_and_si512(t0, m44),
            _mm512_add_epi64(c2, _mm512_slli_epi64::<2>(c2)),
        ),
        _mm512_add_epi64(_mm512_and_si512(t1, m44), c0),
        _mm512_add_epi64(_mm512_and_si512(t2, _mm512_set1_epi64(M42.cast_signed())), c1),
    ]
}

/// Eight blocks as radix-2^44 limbs with the 2^128 bit. Lane order is the order of the
/// unpacks: blocks 0, 4, 1, 5, 2, 6, 3, 7.
#[inline]
#[target_feature(enable = "avx512f")]
fn load(group: &[u8; 128]) -> [__m512i; 3] {
    // SAFETY: `group` is 128 bytes; two unaligned 64-byte loads.
    let (a, b) = unsafe {
        (
            _mm512_loadu_si512(group.as_ptr().cast()),
            _mm512_loadu_si512(group.as_ptr().add(64).cast()),
        )
    };
    let lo = _mm512_unpacklo_epi64(a, b);
    let hi = _mm512_unpackhi_epi64(a, b);
    let mask = _mm512_set1_epi64(M44.cast_signed());
    [
        _mm512_and_si512(lo, mask),
        _mm512_and_si512(
            _mm512_or_si512(_mm512_srli_epi64::<44>(lo), _mm512_slli_epi64::<20>(hi)),
            mask,
        ),
        _mm512_or_si512(_mm512_srli_epi64::<24>(hi), _mm512_set1_epi64(1 << 40)),
    ]
}

/// A radix-2^64 accumulator (below 2^131) as limbs of 44, 44 and 43 bits.
#[inline(always)]
fn from_r64(h: [u64; 3]) -> [u64; 3] {
    let [h0, h1, h2] = h;
    [h0 & M44, ((h0 >> 44) | (h1 << 20)) & M44, (h1 >> 24) | (h2 << 40)]
}

/// Three radix-2^44 limbs of up to 63 bits each (sums of lanes) as a radix-2^64 accumulator
/// (top word at most 4), folding what lies above 2^130 back in times 5.
#[inline(always)]
fn to_r64(l: [u64; 3]) -> [u64; 3] {
    let [mut l0, mut l1, mut l2] = l;
    // Two carry passes, then a last one up to l2: l0 and l1 below 2^44, l2 at most 2^42.
    for _ in 0..2 {
        l1 += l0 >> 44;
        l0 &= M44;
        l2 += l1 >> 44;
        l1 &= M44;
        l0 += (l2 >> 42) * 5;
        l2 &= M42;
    }
    l1 += l0 >> 44;
    l0 &= M44;
    l2 += l1 >> 44;
    l1 &= M44;
    [l0 | (l1 << 44), (l1 >> 20) | (l2 << 24), l2 >> 40]
}

#[target_feature(enable = "avx512f,avx512ifma,avx2")]
fn blocks_ifma(_: Avx512Ifma, st: &mut State, data: &[u8]) {
    // The last step multiplies the lane holding block position p by r^(8 − p): lanes need
    // r^8, r^4, r^7, r^3, r^6, r^2, r^5, r^1 (see [`load`]). Starting from r everywhere,
    // three multiplications by r, r² and r⁴ in the lanes whose exponent minus one has that
    // bit set (the others are multiplied by 1) give exactly that, with r^8 in lane 0.
    let r: [__m512i; 3] = {
        let r = st.r();
        let limbs = [r as u64 & M44, (r >> 44) as u64 & M44, (r >> 88) as u64];
        limbs.map(|l| _mm512_set1_epi64(l.cast_signed()))
    };
    let mut x = mul(r, &Key::select::<0x33>(&r));
    x = mul(x, &Key::select::<0x0F>(&broadcast(x)));
    x = mul(x, &Key::select::<0x55>(&broadcast(x)));
    let step = Key::from_limbs(broadcast(x));
    let last = Key::from_limbs(x);

    // The running accumulator enters in the lane of block position 0.
    let h44 = from_r64(st.h);
    let mut h: [__m512i; 3] = h44.map(|l| _mm512_setr_epi64(l.cast_signed(), 0, 0, 0, 0, 0, 0, 0));
    let absorb = |h: [__m512i; 3], group: &[u8], key: &Key| {
        let group: &[u8; 128] = group.try_into().unwrap_or_else(|_| unreachable!());
        let m = load(group);
        mul(core::array::from_fn(|i| _mm512_add_epi64(h[i], m[i])), key)
    };
    // `data` is a whole, non-zero number of groups. An odd one goes first on its own, by r^8
    // (or by the lane powers if it is the only one), leaving an even number.
    let groups = data.len() / 128;
    let mut chunks = data.chunks_exact(128);
    let mut next = || chunks.next().unwrap_or_else(|| unreachable!());
    if groups % 2 == 1 {
        h = absorb(h, next(), if groups == 1 { &last } else { &step });
    }
    if groups >= 2 {
        // The rest in pairs on two independent accumulators, so that one's multiplication
        // runs while the other's waits on its carries: `h` takes the first group of each pair
        // and `g` the second, both times r^16 per step; at the end `h` by the lane powers
        // times r^8 and `g` by the lane powers.
        let step2 = Key::from_limbs(mul(broadcast(x), &step));
        let last_h = Key::from_limbs(mul(x, &step));
        let mut g = [_mm512_setzero_si512(); 3];
        for _ in 1..groups / 2 {
            h = absorb(h, next(), &step2);
            g = absorb(g, next(), &step2);
        }
        h = absorb(h, next(), &last_h);
        g = absorb(g, next(), &last);
        h = core::array::from_fn(|i| _mm512_add_epi64(h[i], g[i]));
    }
    let lanes: [u64; 3] = core::array::from_fn(|i| _mm512_reduce_add_epi64(h[i]).cast_unsigned());
    st.h = to_r64(lanes);
}
