//! SHA-256 compression for `x86_64` with AVX2 and BMI2: the message schedule of two blocks is
//! computed together in YMM registers (each 128-bit lane holds four words of one block),
//! stored with the round constants added, and the rounds then run on scalar registers with
//! `rorx`. σ1 depends on words two positions back, so each group of four schedule words is
//! finished in two halves. The two-block layout follows Intel's "Fast SHA-256
//! Implementations on Intel Architecture Processors" as shipped by OpenSSL.

use super::K;
use core::arch::x86_64::{
    __m256i, _mm_loadu_si128, _mm256_add_epi32, _mm256_alignr_epi8, _mm256_blend_epi32,
    _mm256_broadcastsi128_si256, _mm256_or_si256, _mm256_setzero_si256, _mm256_shuffle_epi32,
    _mm256_slli_epi32, _mm256_srli_epi32, _mm256_storeu_si256, _mm256_xor_si256,
};
use core_cpu::Avx2;

/// Compresses each 64-byte block into `state`.
pub(super) fn compress(token: Avx2, state: &mut [u32; 8], blocks: &[[u8; 64]]) {
    // SAFETY: the `Avx2` token proves AVX2, BMI1 and BMI2 were detected.
    unsafe { compress_avx2(token, state, blocks) }
}

/// W\[t\] + K\[t\] for two blocks: entry `s` holds words 4s..4s+4 of block A, then of B.
type Schedule = [[u32; 8]; 16];

#[target_feature(enable = "avx2,bmi1,bmi2")]
fn compress_avx2(_: Avx2, state: &mut [u32; 8], blocks: &[[u8; 64]]) {
    let mut wk: Schedule = [[0; 8]; 16];
    // Blocks go in pairs, one per YMM lane; a lone last block fills both lanes.
    for pair in blocks.chunks(2) {
        let (a, b) = (&pair[0], pair.last().unwrap_or(&pair[0]));
        let mut expander = Expander::new(a, b);
        for (s, out) in wk[..4].iter_mut().enumerate() {
            expander.load(s, out);
        }
        // Steps 4–15 run four rounds ahead of the rounds of the first block, which read W + K
        // from memory, so the vector work fills the gaps in the scalar round chain.
        super::rounds_unrolled(state, |t| {
            if t % 4 == 0 && t < 48 {
                expander.expand(t / 4 + 4, &mut wk[t / 4 + 4]);
            }
            // Read back from memory as an operand of the round's addition: left to itself, the
            // compiler forwards the stored vector and extracts each word with `vpextrd`, two
            // uops on ports the rounds need.
            // SAFETY: a read of an initialised element of `wk`.
            unsafe { core::ptr::read_volatile(&raw const wk[t / 4][t % 4]) }
        });
        if pair.len() == 2 {
            super::rounds_unrolled(state, |t| wk[t / 4][4 + t % 4]);
        }
    }
}

/// The message expansion of two blocks, one step (four words of each) at a time.
struct Expander<'a> {
    blocks: [&'a [u8; 64]; 2],
    /// W[4s-16..4s] as a ring of four groups of four words per lane.
    x: [__m256i; 4],
}

impl<'a> Expander<'a> {
    #[inline]
    #[target_feature(enable = "avx2")]
    fn new(a: &'a [u8; 64], b: &'a [u8; 64]) -> Self {
        Self { blocks: [a, b], x: [_mm256_setzero_si256(); 4] }
    }

    /// Loads W[4s..4s+4] (s < 4) of both blocks and writes them plus K to `out`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn load(&mut self, s: usize, out: &mut [u32; 8]) {
        let [a, b] = self.blocks;
        self.x[s % 4] = crate::x86_avx2::load_pair::<4, 64>(a, b, s);
        self.store(s, out);
    }

    /// Expands W[4s..4s+4] (4 ≤ s < 16) of both blocks and writes them plus K to `out`;
    /// steps must run in order, after the loads.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn expand(&mut self, s: usize, out: &mut [u32; 8]) {
        let x = &mut self.x;
        {
            // W[t..t+4], t = 4s; the ring slot x[s % 4] holds W[t-16..] and is overwritten.
            let zero = _mm256_setzero_si256();
            let w16 = x[s % 4];
            let w15 = _mm256_alignr_epi8::<4>(x[(s + 1) % 4], w16);
            let w7 = _mm256_alignr_epi8::<4>(x[(s + 3) % 4], x[(s + 2) % 4]);
            let prev = x[(s + 3) % 4];
            let base = _mm256_add_epi32(_mm256_add_epi32(w16, w7), small_sigma0(w15));
            // W[t], W[t+1] need σ1 of W[t-2], W[t-1]: words 2 and 3 of the previous group.
            let s1 = small_sigma1(_mm256_shuffle_epi32::<0x0E>(prev));
            let half = _mm256_add_epi32(base, _mm256_blend_epi32::<0x33>(zero, s1));
            // W[t+2], W[t+3] need σ1 of the two words just computed.
            let s1 = small_sigma1(_mm256_shuffle_epi32::<0x40>(half));
            x[s % 4] = _mm256_add_epi32(half, _mm256_blend_epi32::<0xCC>(zero, s1));
        }
        self.store(s, out);
    }

    /// Writes W[4s..4s+4] + K[4s..4s+4] of both blocks to `out`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn store(&self, s: usize, out: &mut [u32; 8]) {
        // SAFETY: K has 64 words and s < 16; this reads K[4s..4s+4].
        let k = unsafe { _mm_loadu_si128(K.as_ptr().add(4 * (s % 16)).cast()) };
        let sum = _mm256_add_epi32(self.x[s % 4], _mm256_broadcastsi128_si256(k));
        // SAFETY: `out` is 32 bytes.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), sum) };
    }
}

/// Rotates each 32-bit word right by `R` (`L` = 32 − `R`).
#[inline]
#[target_feature(enable = "avx2")]
fn rotr<const R: i32, const L: i32>(x: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_srli_epi32::<R>(x), _mm256_slli_epi32::<L>(x))
}

/// σ0(x) = ROTR⁷(x) ⊕ ROTR¹⁸(x) ⊕ SHR³(x), on each word.
#[inline]
#[target_feature(enable = "avx2")]
fn small_sigma0(x: __m256i) -> __m256i {
    let r = _mm256_xor_si256(rotr::<7, 25>(x), rotr::<18, 14>(x));
    _mm256_xor_si256(r, _mm256_srli_epi32::<3>(x))
}

/// σ1(x) = ROTR¹⁷(x) ⊕ ROTR¹⁹(x) ⊕ SHR¹⁰(x), on each word.
#[inline]
#[target_feature(enable = "avx2")]
fn small_sigma1(x: __m256i) -> __m256i {
    let r = _mm256_xor_si256(rotr::<17, 15>(x), rotr::<19, 13>(x));
    _mm256_xor_si256(r, _mm256_srli_epi32::<10>(x))
}
