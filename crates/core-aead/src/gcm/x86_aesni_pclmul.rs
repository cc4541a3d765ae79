//! AES-GCM with AES-NI and PCLMULQDQ stitched into one loop (the "function stitching" of
//! Gopal et al. for OpenSSL 1.0.2): each iteration runs the AES rounds of eight counter
//! blocks and, between them, the GHASH multiplications of eight ciphertext blocks, so the two
//! instruction streams — which use different execution ports — overlap instead of running
//! one after the other.
//!
//! Encryption hashes the previous eight ciphertext blocks while encrypting the next eight;
//! decryption hashes the eight blocks it is decrypting (the ciphertext is known up front).
//! The last partial batch goes through the plain AES-NI and PCLMULQDQ code.

use crate::aes::HwKey;
use crate::aes::x86_aesni::{self, block_mut, load, load_keys, store};
use crate::ghash::x86_pclmul::{self, Powers, Sums};
use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_aesenc_si128, _mm_aesenclast_si128, _mm_set_epi32,
    _mm_setzero_si128, _mm_shuffle_epi8, _mm_xor_si128,
};
use core_cpu::{Aes, ClMul};
use zeroize::Zeroize;

/// Blocks per iteration: one GHASH batch.
const LANES: usize = x86_pclmul::BATCH;

/// Encrypts (or decrypts) `buf` in CTR mode from `ctr` and hashes the ciphertext into `y`.
#[allow(clippy::too_many_arguments)]
pub(super) fn crypt<const ENCRYPT: bool>(
    aes: Aes,
    clmul: ClMul,
    key: &HwKey,
    hkey: &x86_pclmul::Key,
    ctr: &mut [u8; 16],
    y: &mut [u8; 16],
    buf: &mut [u8],
) {
    let _ = (aes, clmul);
    // SAFETY: the `Aes` and `ClMul` tokens prove AES-NI, PCLMULQDQ, SSE2 and SSSE3.
    unsafe { crypt_stitched::<ENCRYPT>(key, hkey, ctr, y, buf) }
}

/// Eight counter blocks encrypted from `*c` (which advances), with the GHASH of `hash` (if
/// any, `acc` added to its first block) computed between the rounds.
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3")]
#[inline]
fn stitched_batch(
    rk: &[__m128i; 15],
    nr: usize,
    c: &mut __m128i,
    hash: Option<&[u8; 16 * LANES]>,
    acc: &mut __m128i,
    p: &Powers,
) -> [__m128i; LANES] {
    let bswap = x86_aesni::bswap_mask();
    let one = _mm_set_epi32(0, 0, 0, 1);
    let mut x = [_mm_setzero_si128(); LANES];
    for b in &mut x {
        *b = _mm_xor_si128(_mm_shuffle_epi8(*c, bswap), rk[0]);
        *c = _mm_add_epi32(*c, one);
    }
    let mut s = Sums::new();
    // Rounds 1..=8, each with one block's multiplication (every key size has ≥ 10 rounds).
    for (i, k) in rk[1..=LANES].iter().enumerate() {
        for b in &mut x {
            *b = _mm_aesenc_si128(*b, *k);
        }
        if let Some(hash) = hash {
            let (blocks, _) = hash.as_chunks::<16>();
            let mut h = _mm_shuffle_epi8(load(&blocks[i]), bswap);
            if i == 0 {
                h = _mm_xor_si128(h, *acc);
            }
            s.add(h, p.h[LANES - 1 - i], p.k[LANES - 1 - i]);
        }
    }
    for k in &rk[LANES + 1..nr] {
        for b in &mut x {
            *b = _mm_aesenc_si128(*b, *k);
        }
    }
    if hash.is_some() {
        *acc = s.reduce();
    }
    for b in &mut x {
        *b = _mm_aesenclast_si128(*b, rk[nr]);
    }
    x
}

#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3")]
fn crypt_stitched<const ENCRYPT: bool>(
    key: &HwKey,
    hkey: &x86_pclmul::Key,
    ctr: &mut [u8; 16],
    y: &mut [u8; 16],
    buf: &mut [u8],
) {
    let rk = load_keys(&key.enc);
    let nr = key.rounds;
    let p = hkey.load();
    let bswap = x86_aesni::bswap_mask();
    let mut c = _mm_shuffle_epi8(load(ctr), bswap);
    let mut acc = _mm_shuffle_epi8(load(y), bswap);

    let (batches, rest) = buf.as_chunks_mut::<{ 16 * LANES }>();
    if ENCRYPT {
        for i in 0..batches.len() {
            let (done, todo) = batches.split_at_mut(i);
            let ks = stitched_batch(&rk, nr, &mut c, done.last(), &mut acc, &p);
            xor_batch(&mut todo[0], &ks);
        }
        if let Some(last) = batches.last() {
            acc = x86_pclmul::absorb(acc, last.as_chunks::<16>().0, &p);
        }
    } else {
        for batch in batches.iter_mut() {
            let ks = stitched_batch(&rk, nr, &mut c, Some(batch), &mut acc, &p);
            xor_batch(batch, &ks);
        }
    }

    if !rest.is_empty() {
        let n = rest.len().div_ceil(16);
        let mut tail = [[0u8; 16]; LANES];
        tail.as_flattened_mut()[..rest.len()].copy_from_slice(rest);
        if !ENCRYPT {
            acc = x86_pclmul::absorb(acc, &tail[..n], &p);
        }
        let one = _mm_set_epi32(0, 0, 0, 1);
        let mut x = [_mm_setzero_si128(); LANES];
        for b in &mut x[..n] {
            *b = _mm_shuffle_epi8(c, bswap);
            c = _mm_add_epi32(c, one);
        }
        x86_aesni::rounds::<true>(&rk, nr, &mut x, n);
        for (block, ks) in tail.iter_mut().zip(&x).take(n) {
            store(block, _mm_xor_si128(load(block), *ks));
        }
        rest.copy_from_slice(&tail.as_flattened()[..rest.len()]);
        if ENCRYPT {
            // Hash the ciphertext zero-padded, not the keystream past the message.
            tail.as_flattened_mut()[rest.len()..].fill(0);
            acc = x86_pclmul::absorb(acc, &tail[..n], &p);
        }
        tail.zeroize();
    }
    store(ctr, _mm_shuffle_epi8(c, bswap));
    store(y, _mm_shuffle_epi8(acc, bswap));
}

/// XORs a batch with its keystream.
#[target_feature(enable = "sse2")]
#[inline]
fn xor_batch(batch: &mut [u8; 16 * LANES], ks: &[__m128i; LANES]) {
    for (i, k) in ks.iter().enumerate() {
        let block = block_mut(batch, i);
        store(block, _mm_xor_si128(load(block), *k));
    }
}
