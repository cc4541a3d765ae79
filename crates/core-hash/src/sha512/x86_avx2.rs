//! SHA-512 compression for `x86_64` with AVX2 and BMI2: the message schedule of two blocks is
//! computed together in YMM registers (each 128-bit lane holds two words of one block, so no
//! lane-crossing shuffles are needed), stored with the round constants added, and the rounds
//! then run on scalar registers with `rorx`. This follows the two-block layout of Intel's
//! "Fast SHA-512 Implementations on Intel Architecture Processors" that OpenSSL ships.
//!
//! The compression loop and the schedule ([`Expander`]) are generic over [`SmallSigmas`], the
//! only part that differs in [`x86_avx512`](super::x86_avx512).

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

#[target_feature(enable = "avx2,bmi1,bmi2")]
fn compress_avx2(token: Avx2, state: &mut [u64; 8], blocks: &[[u8; 128]]) {
    compress_pairs!(token, state, blocks);
}

/// σ0 and σ1 (FIPS 180-4 §4.1.3) on each 64-bit lane of a YMM register, implemented by
/// CPU-feature tokens. [`Expander`] and [`compress_pairs!`] are inlined into a caller
/// compiled with the token's target features.
///
/// # Safety
///
/// A value of an implementing type must prove that AVX2 is available: [`Expander`] runs its
/// AVX2 instructions on that proof alone.
pub(super) unsafe trait SmallSigmas: Copy {
    /// σ0(x) = ROTR¹(x) ⊕ ROTR⁸(x) ⊕ SHR⁷(x).
    fn sigma0(self, x: __m256i) -> __m256i;
    /// σ1(x) = ROTR¹⁹(x) ⊕ ROTR⁶¹(x) ⊕ SHR⁶(x).
    fn sigma1(self, x: __m256i) -> __m256i;
}

/// AVX2 has no 64-bit rotate: each rotation is two shifts and an OR.
// SAFETY: an `Avx2` token is only obtained once AVX2 was detected.
unsafe impl SmallSigmas for Avx2 {
    #[inline(always)]
    fn sigma0(self, x: __m256i) -> __m256i {
        // SAFETY: the `Avx2` token proves AVX2 was detected.
        unsafe {
            let r1 = _mm256_or_si256(_mm256_srli_epi64::<1>(x), _mm256_slli_epi64::<63>(x));
            let r8 = _mm256_or_si256(_mm256_srli_epi64::<8>(x), _mm256_slli_epi64::<56>(x));
            _mm256_xor_si256(_mm256_xor_si256(r1, r8), _mm256_srli_epi64::<7>(x))
        }
    }

    #[inline(always)]
    fn sigma1(self, x: __m256i) -> __m256i {
        // SAFETY: the `Avx2` token proves AVX2 was detected.
        unsafe {
            let r19 = _mm256_or_si256(_mm256_srli_epi64::<19>(x), _mm256_slli_epi64::<45>(x));
            let r61 = _mm256_or_si256(_mm256_srli_epi64::<61>(x), _mm256_slli_epi64::<3>(x));
            _mm256_xor_si256(_mm256_xor_si256(r19, r61), _mm256_srli_epi64::<6>(x))
        }
    }
}

/// The compression loop of both vector backends, over `$sigmas`, a [`SmallSigmas`] token,
/// `$state` and `$blocks`. A macro rather than a generic function so that it expands inside
/// the caller, a function compiled with the token's target features (and BMI1/BMI2): the
/// closures it hands to [`rounds_unrolled`](super::rounds_unrolled) then inherit them, and
/// the schedule's intrinsics are inlined into the rounds instead of being called.
macro_rules! compress_pairs {
    ($sigmas:expr, $state:expr, $blocks:expr) => {{
        let (sigmas, state, blocks): (_, &mut [u64; 8], &[[u8; 128]]) = ($sigmas, $state, $blocks);
        // W[t] + K[t] for two blocks: entry `s` holds words 2s and 2s+1 of block A, then of B.
        let mut wk = [[0u64; 4]; 40];
        // Blocks go in pairs, one per YMM lane; a lone last block fills both lanes.
        for pair in blocks.chunks(2) {
            let (a, b) = (&pair[0], pair.last().unwrap_or(&pair[0]));
            let mut expander = $crate::sha512::x86_avx2::Expander::new(sigmas, a, b);
            for (s, out) in wk[..8].iter_mut().enumerate() {
                expander.load(s, out);
            }
            // Steps 8–39 run sixteen rounds ahead of the rounds of the first block, which
            // read W + K from memory, so the vector work fills the gaps in the scalar round
            // chain.
            $crate::sha512::rounds_unrolled(state, |t| {
                if t % 2 == 0 && t < 64 {
                    expander.expand(t / 2 + 8, &mut wk[t / 2 + 8]);
                }
                // Read back from memory as an operand of the round's addition: left to
                // itself, the compiler forwards the stored vector and extracts each word with
                // `vpextr*`, two uops on ports the rounds need.
                // SAFETY: a read of an initialised element of `wk`.
                unsafe { core::ptr::read_volatile(&raw const wk[t / 2][t % 2]) }
            });
            if pair.len() == 2 {
                $crate::sha512::rounds_unrolled(state, |t| wk[t / 2][2 + t % 2]);
            }
        }
    }};
}
pub(super) use compress_pairs;

/// The message expansion of two blocks, one step (two words of each) at a time.
pub(super) struct Expander<'a, S> {
    sigmas: S,
    blocks: [&'a [u8; 128]; 2],
    /// W[2s-16..2s] as a ring of eight pairs of words per lane.
    x: [__m256i; 8],
}

impl<'a, S: SmallSigmas> Expander<'a, S> {
    #[inline(always)]
    pub(super) fn new(sigmas: S, a: &'a [u8; 128], b: &'a [u8; 128]) -> Self {
        // SAFETY: `S` proves AVX2 is available (`SmallSigmas`' contract).
        let zero = unsafe { _mm256_setzero_si256() };
        Self { sigmas, blocks: [a, b], x: [zero; 8] }
    }

    /// Loads W[2s..2s+2] (s < 8) of both blocks and writes them plus K to `out`.
    #[inline(always)]
    pub(super) fn load(&mut self, s: usize, out: &mut [u64; 4]) {
        let [a, b] = self.blocks;
        // SAFETY: `S` proves AVX2 is available (`SmallSigmas`' contract).
        self.x[s % 8] = unsafe { crate::x86_avx2::load_pair::<8, 128>(a, b, s) };
        self.store(s, out);
    }

    /// Expands W[2s..2s+2] (8 ≤ s < 40) of both blocks and writes them plus K to `out`;
    /// steps must run in order, after the loads.
    #[inline(always)]
    pub(super) fn expand(&mut self, s: usize, out: &mut [u64; 4]) {
        let x = &mut self.x;
        // W[t..t+2] = σ1(W[t-2..]) + W[t-7..] + σ0(W[t-15..]) + W[t-16..], t = 2s; the ring
        // slot x[s % 8] holds W[t-16..] and is overwritten with W[t..].
        let w16 = x[s % 8];
        let w2 = x[(s + 7) % 8];
        // SAFETY: `S` proves AVX2 is available (`SmallSigmas`' contract).
        let (w15, w7) = unsafe {
            (
                _mm256_alignr_epi8::<8>(x[(s + 1) % 8], w16),
                _mm256_alignr_epi8::<8>(x[(s + 5) % 8], x[(s + 4) % 8]),
            )
        };
        let (s0, s1) = (self.sigmas.sigma0(w15), self.sigmas.sigma1(w2));
        // SAFETY: `S` proves AVX2 is available (`SmallSigmas`' contract).
        x[s % 8] = unsafe { _mm256_add_epi64(_mm256_add_epi64(_mm256_add_epi64(w16, w7), s0), s1) };
        self.store(s, out);
    }

    /// Writes W[2s..2s+2] + K[2s..2s+2] of both blocks to `out`.
    #[inline(always)]
    fn store(&self, s: usize, out: &mut [u64; 4]) {
        // SAFETY: `S` proves AVX2 is available (`SmallSigmas`' contract); K has 80 words
        // and s < 40, so this reads K[2s..2s+2]; `out` is 32 bytes.
        unsafe {
            let k = _mm_loadu_si128(K.as_ptr().add(2 * (s % 40)).cast());
            let sum = _mm256_add_epi64(self.x[s % 8], _mm256_broadcastsi128_si256(k));
            _mm256_storeu_si256(out.as_mut_ptr().cast(), sum);
        }
    }
}
