//! SHA-512 compression for `x86_64` with AVX-512 (VL, on 256-bit registers) and BMI2: the
//! two-block message schedule of [`x86_avx2`](super::x86_avx2), with σ0 and σ1 each taking
//! four instructions instead of eight: `vprorq` rotates a 64-bit lane in one instruction and
//! `vpternlogq` XORs three vectors in one. The schedule's vector work shares execution ports
//! with the scalar `rorx` rounds, so halving it speeds up the whole compression.

use super::K;
use core::arch::x86_64::{
    __m256i, _mm_loadu_si128, _mm256_add_epi64, _mm256_alignr_epi8, _mm256_broadcastsi128_si256,
    _mm256_ror_epi64, _mm256_setzero_si256, _mm256_srli_epi64, _mm256_storeu_si256,
    _mm256_ternarylogic_epi64,
};
use core_cpu::Avx512;

/// `vpternlogq` truth table of `a ^ b ^ c`.
const XOR3: i32 = 0x96;

/// Compresses each 128-byte block into `state`.
pub(super) fn compress(token: Avx512, state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    // SAFETY: the `Avx512` token proves AVX-512F/VL, AVX2, BMI1 and BMI2 were detected.
    unsafe { compress_avx512(token, state, blocks) }
}

/// W[t] + K[t] for two blocks: entry `s` holds words 2s and 2s+1 of block A, then of B.
type Schedule = [[u64; 4]; 40];

#[target_feature(enable = "avx2,bmi1,bmi2,avx512f,avx512vl")]
fn compress_avx512(_: Avx512, state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    let mut wk: Schedule = [[0; 4]; 40];
    // Blocks go in pairs, one per 128-bit lane; a lone last block fills both lanes.
    for pair in blocks.chunks(2) {
        let (a, b) = (&pair[0], pair.last().unwrap_or(&pair[0]));
        let mut expander = Expander::new(a, b);
        for (s, out) in wk[..8].iter_mut().enumerate() {
            expander.load(s, out);
        }
        // As in `x86_avx2`: steps 8–39 run sixteen rounds ahead of the first block's rounds,
        // and the second block's rounds only read the stored schedule.
        super::rounds_unrolled(state, |t| {
            if t % 2 == 0 && t < 64 {
                expander.expand(t / 2 + 8, &mut wk[t / 2 + 8]);
            }
            // Read back from memory as an operand of the round's addition, not extracted from
            // the stored vector (see `x86_avx2`).
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
#[target_feature(enable = "avx512f,avx512vl")]
fn small_sigma0(x: __m256i) -> __m256i {
    let (r1, r8, s7) =
        (_mm256_ror_epi64::<1>(x), _mm256_ror_epi64::<8>(x), _mm256_srli_epi64::<7>(x));
    _mm256_ternarylogic_epi64::<XOR3>(r1, r8, s7)
}

/// σ1(x) = ROTR¹⁹(x) ⊕ ROTR⁶¹(x) ⊕ SHR⁶(x), on each 64-bit lane.
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
fn small_sigma1(x: __m256i) -> __m256i {
    let (r19, r61, s6) =
        (_mm256_ror_epi64::<19>(x), _mm256_ror_epi64::<61>(x), _mm256_srli_epi64::<6>(x));
    _mm256_ternarylogic_epi64::<XOR3>(r19, r61, s6)
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
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
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
