//! SHA-512 compression for `x86_64` with AVX2 and BMI2: the message schedule of two blocks is
//! computed together in YMM registers (each 128-bit lane holds two words of one block, so no
//! lane-crossing shuffles are needed), stored with the round constants added, and the rounds
//! then run on scalar registers with `rorx`. This follows the two-block layout of Intel's
//! "Fast SHA-512 Implementations on Intel Architecture Processors" that OpenSSL ships.

use super::K;
use core::arch::x86_64::{
    __m256i, _mm_loadu_si128, _mm256_add_epi64, _mm256_alignr_epi8, _mm256_broadcastsi128_si256,
    _mm256_or_si256, _mm256_setzero_si256, _mm256_slli_epi64, _mm256_srli_epi64,
    _mm256_storeu_si256, _mm256_xor_si256,
};
use core_cpu::Avx2;

/// Compresses each 128-byte block into `state`.
pub(super) fn compress(token: Avx2, state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    // SAFETY: the `Avx2` token proves AVX2, BMI1 and BMI2 were detected.
    unsafe { compress_avx2(token, state, blocks) }
}

/// W[t] + K[t] for two blocks: entry `s` holds words 2s and 2s+1 of block A, then of B.
type Schedule = [[u64; 4]; 40];

#[target_feature(enable = "avx2,bmi1,bmi2")]
fn compress_avx2(_: Avx2, state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    let mut wk: Schedule = [[0; 4]; 40];
    // Blocks go in pairs, one per YMM lane; a lone last block fills both lanes.
    for pair in blocks.chunks(2) {
        let (a, b) = (&pair[0], pair.last().unwrap_or(&pair[0]));
        let mut expander = Expander::new(a, b);
        for (s, out) in wk[..8].iter_mut().enumerate() {
            expander.load(s, out);
        }
        // Steps 8–39 run sixteen rounds ahead of the rounds of the first block, which read
        // W + K from memory, so the vector work fills the gaps in the scalar round chain.
        super::rounds_unrolled(state, |t| {
            if t % 2 == 0 && t < 64 {
                expander.expand(t / 2 + 8, &mut wk[t / 2 + 8]);
            }
            // Read back from memory as an operand of the round's addition: left to itself, the
            // compiler forwards the stored vector and extracts each word with `vpextr*`, two
            // uops on ports the rounds need.
            // SAFETY: a read of an initialised element of `wk`.
            unsafe { core::ptr::read_volatile(&raw const wk[t / 2][t % 2]) }
        });
        if pair.len() == 2 {
            super::rounds_unrolled(state, |t| wk[t / 2][2 + t % 2]);
        }
    }
}

/// σ0(x) = ROTR¹(x) ⊕ ROTR⁸(x) ⊕ SHR⁷(x), on each 64-bit lane.
#[inline]
#[target_feature(enable = "avx2")]
fn small_sigma0(x: __m256i) -> __m256i {
    let r1 = _mm256_or_si256(_mm256_srli_epi64::<1>(x), _mm256_slli_epi64::<63>(x));
    let r8 = _mm256_or_si256(_mm256_srli_epi64::<8>(x), _mm256_slli_epi64::<56>(x));
    _mm256_xor_si256(_mm256_xor_si256(r1, r8), _mm256_srli_epi64::<7>(x))
}

/// σ1(x) = ROTR¹⁹(x) ⊕ ROTR⁶¹(x) ⊕ SHR⁶(x), on each 64-bit lane.
#[inline]
#[target_feature(enable = "avx2")]
fn small_sigma1(x: __m256i) -> __m256i {
    let r19 = _mm256_or_si256(_mm256_srli_epi64::<19>(x), _mm256_slli_epi64::<45>(x));
    let r61 = _mm256_or_si256(_mm256_srli_epi64::<61>(x), _mm256_slli_epi64::<3>(x));
    _mm256_xor_si256(_mm256_xor_si256(r19, r61), _mm256_srli_epi64::<6>(x))
}

/// The message expansion of two blocks, one step (two words of each) at a time.
struct Expander<'a> {
    blocks: [&'a [u8; 128]; 2],
    /// W[2s-16..2s] as a ring of eight pairs of words per lane.
    x: [__m256i; 8],
}

impl<'a> Expander<'a> {
    #[inline]
    #[target_feature(enable = "avx2")]
    fn new(a: &'a [u8; 128], b: &'a [u8; 128]) -> Self {
        Self { blocks: [a, b], x: [_mm256_setzero_si256(); 8] }
    }

    /// Loads W[2s..2s+2] (s < 8) of both blocks and writes them plus K to `out`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn load(&mut self, s: usize, out: &mut [u64; 4]) {
        let [a, b] = self.blocks;
        self.x[s % 8] = crate::x86_avx2::load_pair::<8, 128>(a, b, s);
        self.store(s, out);
    }

    /// Expands W[2s..2s+2] (8 ≤ s < 40) of both blocks and writes them plus K to `out`;
    /// steps must run in order, after the loads.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn expand(&mut self, s: usize, out: &mut [u64; 4]) {
        let x = &mut self.x;
        {
            // W[t..t+2] = σ1(W[t-2..]) + W[t-7..] + σ0(W[t-15..]) + W[t-16..], t = 2s; the
            // ring slot x[s % 8] holds W[t-16..] and is overwritten with W[t..].
            let w16 = x[s % 8];
            let w15 = _mm256_alignr_epi8::<8>(x[(s + 1) % 8], w16);
            let w7 = _mm256_alignr_epi8::<8>(x[(s + 5) % 8], x[(s + 4) % 8]);
            let w2 = x[(s + 7) % 8];
            let sum = _mm256_add_epi64(_mm256_add_epi64(w16, w7), small_sigma0(w15));
            x[s % 8] = _mm256_add_epi64(sum, small_sigma1(w2));
        }
        self.store(s, out);
    }

    /// Writes W[2s..2s+2] + K[2s..2s+2] of both blocks to `out`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn store(&self, s: usize, out: &mut [u64; 4]) {
        // SAFETY: K has 80 words and s < 40; this reads K[2s..2s+2].
        let k = unsafe { _mm_loadu_si128(K.as_ptr().add(2 * (s % 40)).cast()) };
        let sum = _mm256_add_epi64(self.x[s % 8], _mm256_broadcastsi128_si256(k));
        // SAFETY: `out` is 32 bytes.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), sum) };
    }
}
