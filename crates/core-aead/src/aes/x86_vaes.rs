//! AES with VAES on 256-bit registers: `vaesenc ymm` runs a round on two blocks at once, and
//! eight registers keep sixteen blocks in flight. Needs only VAES and AVX2 (the
//! [`VaesAvx2`] token), so it also runs where VPCLMULQDQ or AVX-512 are missing.
//!
//! The loops are written once, in a macro over the four VAES round instructions, so that the
//! tests can also run them over a model of those instructions built from AES-NI on each
//! 128-bit half: the development machine has no VAES, and QEMU 7.2's `vaesenc`/`vaesdec` on
//! YMM registers compute the upper half from the lower half's data.

use super::{HwKey, VaesAvx2, counter, set_counter};
use core::arch::x86_64::{
    __m256i, _mm_loadu_si128, _mm256_add_epi32, _mm256_broadcastsi128_si256, _mm256_loadu_si256,
    _mm256_set_epi32, _mm256_set_epi64x, _mm256_setzero_si256, _mm256_shuffle_epi8,
    _mm256_storeu_si256, _mm256_xor_si256,
};
use zeroize::Zeroize;

/// Registers processed together, two blocks each.
const LANES: usize = 8;

/// Encrypts independent blocks in place.
pub(super) fn encrypt_blocks(token: VaesAvx2, key: &HwKey, blocks: &mut [[u8; 16]]) {
    let _ = token;
    // SAFETY: the `VaesAvx2` token proves VAES, AES-NI and AVX2 were detected.
    unsafe { vaes::crypt_blocks::<true>(key, blocks) }
}

/// Decrypts independent blocks in place.
pub(super) fn decrypt_blocks(token: VaesAvx2, key: &HwKey, blocks: &mut [[u8; 16]]) {
    let _ = token;
    // SAFETY: the `VaesAvx2` token proves VAES, AES-NI and AVX2 were detected.
    unsafe { vaes::crypt_blocks::<false>(key, blocks) }
}

/// CTR with a 32-bit big-endian counter; see `Aes::ctr32`.
pub(super) fn ctr32(token: VaesAvx2, key: &HwKey, ctr: &mut [u8; 16], buf: &mut [u8]) {
    let _ = token;
    // SAFETY: the `VaesAvx2` token proves VAES, AES-NI and AVX2 were detected.
    unsafe { vaes::ctr32(key, ctr, buf) }
}

/// An unaligned 32-byte load.
#[inline(always)]
fn load2(bytes: &[u8; 32]) -> __m256i {
    // SAFETY: `bytes` is 32 readable bytes and `loadu` has no alignment requirement.
    unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) }
}

/// An unaligned 32-byte store.
#[inline(always)]
fn store2(bytes: &mut [u8; 32], x: __m256i) {
    // SAFETY: `bytes` is 32 writable bytes and `storeu` has no alignment requirement.
    unsafe { _mm256_storeu_si256(bytes.as_mut_ptr().cast(), x) }
}

/// Each round key in both halves of a register.
#[target_feature(enable = "avx2")]
#[inline]
fn broadcast_keys(keys: &[[u8; 16]; 15]) -> [__m256i; 15] {
    // SAFETY: each key is 16 readable bytes; `loadu` has no alignment requirement.
    keys.map(|k| _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(k.as_ptr().cast()) }))
}

/// The block and CTR loops over the round instructions `$enc`, `$enclast`, `$dec`, `$declast`
/// (each `fn(__m256i, __m256i) -> __m256i`), compiled with `$features`.
macro_rules! vaes_loops {
    ($features:literal, $enc:path, $enclast:path, $dec:path, $declast:path) => {
        /// Runs all rounds on `x[..n]`.
        #[target_feature(enable = $features)]
        #[inline]
        fn rounds<const ENCRYPT: bool>(
            rk: &[__m256i; 15],
            nr: usize,
            x: &mut [__m256i; LANES],
            n: usize,
        ) {
            for b in &mut x[..n] {
                *b = _mm256_xor_si256(*b, rk[0]);
            }
            for k in &rk[1..nr] {
                for b in &mut x[..n] {
                    *b = if ENCRYPT { $enc(*b, *k) } else { $dec(*b, *k) };
                }
            }
            for b in &mut x[..n] {
                *b = if ENCRYPT { $enclast(*b, rk[nr]) } else { $declast(*b, rk[nr]) };
            }
        }

        #[target_feature(enable = $features)]
        pub(super) fn crypt_blocks<const ENCRYPT: bool>(key: &HwKey, blocks: &mut [[u8; 16]]) {
            let rk = broadcast_keys(if ENCRYPT { &key.enc } else { &key.dec });
            let mut groups = blocks.chunks_exact_mut(2 * LANES);
            for group in &mut groups {
                let (pairs, _) = group.as_flattened_mut().as_chunks_mut::<32>();
                let mut x = [_mm256_setzero_si256(); LANES];
                for (r, p) in x.iter_mut().zip(pairs.iter()) {
                    *r = load2(p);
                }
                rounds::<ENCRYPT>(&rk, key.rounds, &mut x, LANES);
                for (r, p) in x.iter().zip(pairs.iter_mut()) {
                    store2(p, *r);
                }
            }
            let rest = groups.into_remainder();
            if !rest.is_empty() {
                let mut tmp = [[0u8; 32]; LANES];
                tmp.as_flattened_mut()[..16 * rest.len()].copy_from_slice(rest.as_flattened());
                let n = rest.len().div_ceil(2);
                let mut x = [_mm256_setzero_si256(); LANES];
                for (r, p) in x.iter_mut().zip(&tmp).take(n) {
                    *r = load2(p);
                }
                rounds::<ENCRYPT>(&rk, key.rounds, &mut x, n);
                for (r, p) in x.iter().zip(tmp.iter_mut()).take(n) {
                    store2(p, *r);
                }
                let len = 16 * rest.len();
                rest.as_flattened_mut().copy_from_slice(&tmp.as_flattened()[..len]);
                tmp[..n].as_flattened_mut().zeroize();
            }
        }

        #[target_feature(enable = $features)]
        pub(super) fn ctr32(key: &HwKey, ctr: &mut [u8; 16], buf: &mut [u8]) {
            let rk = broadcast_keys(&key.enc);
            let start = counter(ctr);
            // Byte reversal in each half: the big-endian counter lands in each half's low lane.
            let bswap = _mm256_set_epi64x(
                0x0001_0203_0405_0607,
                0x0809_0a0b_0c0d_0e0f,
                0x0001_0203_0405_0607,
                0x0809_0a0b_0c0d_0e0f,
            );
            let two = _mm256_set_epi32(0, 0, 0, 2, 0, 0, 0, 2);
            // SAFETY: `ctr` is 16 readable bytes; `loadu` has no alignment requirement.
            let c = _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(ctr.as_ptr().cast()) });
            let mut c = _mm256_add_epi32(
                _mm256_shuffle_epi8(c, bswap),
                _mm256_set_epi32(0, 0, 0, 1, 0, 0, 0, 0),
            );

            let mut chunks = buf.chunks_exact_mut(32 * LANES);
            for chunk in &mut chunks {
                let mut x = [_mm256_setzero_si256(); LANES];
                for b in &mut x {
                    *b = _mm256_shuffle_epi8(c, bswap);
                    c = _mm256_add_epi32(c, two);
                }
                rounds::<true>(&rk, key.rounds, &mut x, LANES);
                let (pairs, _) = chunk.as_chunks_mut::<32>();
                for (p, ks) in pairs.iter_mut().zip(&x) {
                    store2(p, _mm256_xor_si256(load2(p), *ks));
                }
            }
            let rest = chunks.into_remainder();
            if !rest.is_empty() {
                let n = rest.len().div_ceil(32);
                let mut x = [_mm256_setzero_si256(); LANES];
                for b in &mut x[..n] {
                    *b = _mm256_shuffle_epi8(c, bswap);
                    c = _mm256_add_epi32(c, two);
                }
                rounds::<true>(&rk, key.rounds, &mut x, n);
                let (pairs, partial) = rest.as_chunks_mut::<32>();
                for (pair, ks) in pairs.iter_mut().zip(&x) {
                    store2(pair, _mm256_xor_si256(load2(pair), *ks));
                }
                if !partial.is_empty() {
                    let mut last = [0u8; 32];
                    last[..partial.len()].copy_from_slice(partial);
                    let v = _mm256_xor_si256(load2(&last), x[pairs.len()]);
                    store2(&mut last, v);
                    partial.copy_from_slice(&last[..partial.len()]);
                    last.zeroize();
                }
            }
            set_counter(ctr, start.wrapping_add(buf.len().div_ceil(16) as u32));
        }
    };
}

// The macro's body names most of the parent's imports.
#[allow(clippy::wildcard_imports)]
mod vaes {
    use super::*;
    use core::arch::x86_64::{
        _mm256_aesdec_epi128, _mm256_aesdeclast_epi128, _mm256_aesenc_epi128,
        _mm256_aesenclast_epi128,
    };
    vaes_loops!(
        "avx2,vaes",
        _mm256_aesenc_epi128,
        _mm256_aesenclast_epi128,
        _mm256_aesdec_epi128,
        _mm256_aesdeclast_epi128
    );
}

#[cfg(test)]
mod tests {
    use super::super::{Aes, AesImpl, HwKey, RoundKeys};
    use super::*;
    use core::arch::x86_64::{
        __m128i, _mm_aesdec_si128, _mm_aesdeclast_si128, _mm_aesenc_si128, _mm_aesenclast_si128,
        _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_set_m128i,
    };

    /// A VAES instruction as the SDM defines it: the 128-bit one on each half.
    macro_rules! per_half {
        ($name:ident, $one:path) => {
            #[target_feature(enable = "avx2,aes")]
            #[inline]
            fn $name(a: __m256i, k: __m256i) -> __m256i {
                let half = |a: __m128i, k: __m128i| $one(a, k);
                let lo = half(_mm256_castsi256_si128(a), _mm256_castsi256_si128(k));
                let hi = half(_mm256_extracti128_si256::<1>(a), _mm256_extracti128_si256::<1>(k));
                _mm256_set_m128i(hi, lo)
            }
        };
    }

    #[allow(clippy::wildcard_imports)]
    mod model {
        use super::*;
        per_half!(enc, _mm_aesenc_si128);
        per_half!(enclast, _mm_aesenclast_si128);
        per_half!(dec, _mm_aesdec_si128);
        per_half!(declast, _mm_aesdeclast_si128);
        vaes_loops!("avx2,aes", enc, enclast, dec, declast);
    }

    /// The VAES loops over the model agree with AES-NI on every length up to three batches,
    /// all key sizes, and a counter that wraps.
    #[test]
    fn loops_over_a_model_of_vaes_match_aesni() {
        let (Some(avx2), Some(aes)) = (core_cpu::Avx2::get(), core_cpu::Aes::get()) else {
            std::println!("x86_vaes model: needs AVX2 and AES-NI; not checked");
            return;
        };
        let _ = avx2;
        for key_len in [16usize, 24, 32] {
            let key: std::vec::Vec<u8> = (0..key_len).map(|i| (i * 29) as u8).collect();
            let hw = HwKey::new(&RoundKeys::expand(&key).unwrap());
            let reference = Aes::with_impl(AesImpl::X86Aesni(aes), &key).unwrap();
            for len in 0usize..=3 * 256 + 17 {
                let data: std::vec::Vec<u8> = (0..len).map(|i| (i * 7 + len) as u8).collect();
                let mut ctr = [0x5au8; 16];
                ctr[12..].copy_from_slice(&0xffff_fff9u32.to_be_bytes());
                let (mut want, mut want_ctr) = (data.clone(), ctr);
                reference.ctr32(&mut want_ctr, &mut want);
                let (mut got, mut got_ctr) = (data.clone(), ctr);
                // SAFETY: the model needs AVX2 and AES-NI, both detected above.
                unsafe { model::ctr32(&hw, &mut got_ctr, &mut got) };
                assert_eq!(got, want, "CTR, AES-{}, {len} bytes", 8 * key_len);
                assert_eq!(got_ctr, want_ctr);

                let (blocks, _) = data.as_chunks::<16>();
                let mut want = blocks.to_vec();
                reference.encrypt_blocks(&mut want);
                let mut got = blocks.to_vec();
                // SAFETY: as above.
                unsafe { model::crypt_blocks::<true>(&hw, &mut got) };
                assert_eq!(got, want, "encrypt, AES-{}, {} blocks", 8 * key_len, blocks.len());
                // SAFETY: as above.
                unsafe { model::crypt_blocks::<false>(&hw, &mut got) };
                assert_eq!(got, blocks, "decrypt, AES-{}, {} blocks", 8 * key_len, blocks.len());
            }
        }
    }
}
