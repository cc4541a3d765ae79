//! SHA-1 compression for `x86_64` with AVX2 and BMI2: the message schedule of two blocks is
//! expanded together in YMM registers (each 128-bit lane holds four words of one block) one
//! step ahead of the scalar rounds, with the round constant already added. W[t+3] depends on
//! W\[t\] of the same group, so each group is finished with one fix-up.

use super::K;
use core::arch::x86_64::{
    __m256i, _mm256_add_epi32, _mm256_alignr_epi8, _mm256_or_si256, _mm256_set1_epi32,
    _mm256_setzero_si256, _mm256_slli_epi32, _mm256_slli_si256, _mm256_srli_epi32,
    _mm256_srli_si256, _mm256_storeu_si256, _mm256_xor_si256,
};
use core_cpu::Avx2;

/// Compresses each 64-byte block into `state`.
pub(super) fn compress(token: Avx2, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    // SAFETY: the `Avx2` token proves AVX2, BMI1 and BMI2 were detected.
    unsafe { compress_avx2(token, state, blocks) }
}

/// W\[t\] + K\[t\] for two blocks: entry `s` holds words 4s..4s+4 of block A, then of B.
type Schedule = [[u32; 8]; 20];

#[target_feature(enable = "avx2,bmi1,bmi2")]
fn compress_avx2(_: Avx2, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
    let mut wk: Schedule = [[0; 8]; 20];
    // Blocks go in pairs, one per YMM lane; a lone last block fills both lanes.
    for pair in blocks.chunks(2) {
        let (a, b) = (&pair[0], pair.last().unwrap_or(&pair[0]));
        let mut expander = Expander::new(a, b);
        for (s, out) in wk[..4].iter_mut().enumerate() {
            expander.load(s, out);
        }
        // Steps 4–19 run sixteen rounds ahead of the rounds of the first block, which read
        // W + K from memory, so the vector work fills the gaps in the scalar round chain.
        super::rounds_unrolled(state, |t| {
            if t % 4 == 0 && t < 64 {
                expander.expand(t / 4 + 4, &mut wk[t / 4 + 4]);
            }
            // Read back from memory as an operand of the round's addition: left to itself, the
            // compiler forwards the stored vector and extracts each word with `vpextr*`, two
            // uops on ports the rounds need.
            // SAFETY: a read of an initialised element of `wk`.
            unsafe { core::ptr::read_volatile(&raw const wk[t / 4][t % 4]) }
        });
        if pair.len() == 2 {
            super::rounds_unrolled(state, |t| wk[t / 4][4 + t % 4]);
        }
    }
}

/// Rotates each 32-bit word left by one.
#[inline]
#[target_feature(enable = "avx2")]
fn rol1(x: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_slli_epi32::<1>(x), _mm256_srli_epi32::<31>(x))
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

    /// Expands W[4s..4s+4] (4 ≤ s < 20) of both blocks and writes them plus K to `out`;
    /// steps must run in order, after the loads.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn expand(&mut self, s: usize, out: &mut [u32; 8]) {
        let x = &mut self.x;
        {
            // W[t] = ROTL¹(W[t-3] ⊕ W[t-8] ⊕ W[t-14] ⊕ W[t-16]) for t = 4s..4s+4; the ring
            // slot x[s % 4] holds W[t-16..] and is overwritten.
            let w16 = x[s % 4];
            let w14 = _mm256_alignr_epi8::<8>(x[(s + 1) % 4], w16);
            let w8 = x[(s + 2) % 4];
            // W[t-3..t]: words 1..3 of the previous group, and 0 where W[t] will go.
            let w3 = _mm256_srli_si256::<4>(x[(s + 3) % 4]);
            let partial =
                rol1(_mm256_xor_si256(_mm256_xor_si256(w16, w14), _mm256_xor_si256(w8, w3)));
            // W[t+3] still lacks ROTL¹(W[t]), and W[t] is final now.
            let fix = rol1(_mm256_slli_si256::<12>(partial));
            x[s % 4] = _mm256_xor_si256(partial, fix);
        }
        self.store(s, out);
    }

    /// Writes W[4s..4s+4] + K of both blocks to `out`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn store(&self, s: usize, out: &mut [u32; 8]) {
        let k = _mm256_set1_epi32(K[(s / 5) % 4].cast_signed());
        let sum = _mm256_add_epi32(self.x[s % 4], k);
        // SAFETY: `out` is 32 bytes.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), sum) };
    }
}
