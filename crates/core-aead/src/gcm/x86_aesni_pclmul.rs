//! AES-GCM with AES-NI and PCLMULQDQ stitched into one loop (the "function stitching" of
//! Gopal et al. for OpenSSL 1.0.2): each iteration runs the AES rounds of eight counter
//! blocks and, between them, the GHASH multiplications of eight ciphertext blocks, so the two
//! instruction streams — `aesenc` on one port, `pclmulqdq` and shuffles on another — overlap
//! instead of running one after the other.
//!
//! Encryption hashes the eight ciphertext blocks of two iterations back while encrypting the
//! next eight (one back would leave the multiplications waiting for the last rounds);
//! decryption hashes the eight blocks it is decrypting. `aesenc` and `pclmulqdq` are issued
//! through `asm!` one instruction at a time: left to itself the compiler groups all 80
//! `aesenc` of a batch together, which fills the scheduler with work for one port and
//! serialises the two streams again.
//!
//! The whole message is handled here — AAD, batches, the tail, the length block and the tag
//! mask E(J₀), which rides along as one more lane of the tail's AES — so a short record costs
//! one pass over the round keys and as few GHASH reductions as possible.

use crate::aes::HwKey;
use crate::aes::x86_aesni::{self, load, load_keys, store};
use crate::ghash::x86_pclmul::{self, Powers, Sums};
use core::arch::asm;
use core::arch::x86_64::{
    __m128i, _mm_add_epi8, _mm_add_epi32, _mm_aesenclast_si128, _mm_cvtsi128_si32, _mm_set_epi8,
    _mm_set_epi32, _mm_setzero_si128, _mm_shuffle_epi8, _mm_shuffle_epi32, _mm_xor_si128,
};
use core_cpu::{Aes, ClMul};
use zeroize::Zeroize;

/// Blocks per iteration: one GHASH batch.
const LANES: usize = x86_pclmul::BATCH;

/// Encrypts (or decrypts) `buf` in CTR mode from `j0 + 1` and returns the tag over `aad` and
/// the ciphertext.
#[allow(clippy::too_many_arguments)]
pub(super) fn crypt<const ENCRYPT: bool>(
    aes: Aes,
    clmul: ClMul,
    key: &HwKey,
    hkey: &x86_pclmul::Key,
    j0: &[u8; 16],
    aad: &[u8],
    buf: &mut [u8],
) -> [u8; 16] {
    let _ = (aes, clmul);
    // SAFETY: the `Aes` and `ClMul` tokens prove AES-NI, PCLMULQDQ, SSE2 and SSSE3.
    unsafe { crypt_stitched::<ENCRYPT>(key, hkey, j0, aad, buf) }
}

/// One `aesenc`, kept in program order with the other `asm!` blocks. The round key is a
/// register operand: loading it once per round for all eight blocks, rather than as a memory
/// operand of each `aesenc`, halves the loads of a batch.
#[inline(always)]
fn aesenc(x: &mut __m128i, k: __m128i) {
    // SAFETY: register-only instruction; the callers run only under an `Aes` token.
    unsafe {
        asm!("aesenc {x}, {k}", x = inout(xmm_reg) *x, k = in(xmm_reg) k,
             options(nomem, nostack, preserves_flags));
    }
}

/// One `pclmulqdq`, kept in program order with the other `asm!` blocks.
#[inline(always)]
fn clmul<const IMM: u8>(a: __m128i, b: __m128i) -> __m128i {
    let mut a = a;
    // SAFETY: register-only instruction; the callers run only under a `ClMul` token.
    unsafe {
        asm!("pclmulqdq {a}, {b}, {imm}", a = inout(xmm_reg) a, b = in(xmm_reg) b,
             imm = const IMM, options(nomem, nostack, preserves_flags));
    }
    a
}

/// Adds `x · H^(i+1)` to the Karatsuba sums, through the ordered `pclmulqdq`.
#[target_feature(enable = "sse2")]
#[inline]
fn hash_one(s: &mut (__m128i, __m128i, __m128i), x: __m128i, p: &Powers, i: usize) {
    let halves = _mm_xor_si128(x, _mm_shuffle_epi32::<0x4e>(x));
    let h = p.h[i];
    s.0 = _mm_xor_si128(s.0, clmul::<0x00>(x, h));
    s.1 = _mm_xor_si128(s.1, clmul::<0x00>(halves, p.k[i]));
    s.2 = _mm_xor_si128(s.2, clmul::<0x11>(x, h));
}

/// Eight counter blocks from `*c` (the counter block byte-reversed; it advances) through all
/// rounds, with the GHASH of the eight blocks of `hash` (if any) issued between the rounds
/// and `*acc` folded in as `acc · H⁸`, so no multiplication waits for the previous batch's
/// reduction. Returns the keystream.
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3")]
#[inline]
fn batch(
    rk: &[__m128i; 15],
    nr: usize,
    c: &mut __m128i,
    hash: Option<&[u8; 16 * LANES]>,
    acc: &mut __m128i,
    p: &Powers,
) -> [__m128i; LANES] {
    let bswap = x86_aesni::bswap_mask();
    let mut x = [_mm_setzero_si128(); LANES];
    // While the counter's low byte does not carry within the batch, the blocks are the
    // counter block plus 0..8 in its last byte: one shuffle per batch instead of eight.
    let low = _mm_cvtsi128_si32(*c) & 0xff;
    if low <= 0xff - 8 {
        let base = _mm_shuffle_epi8(*c, bswap);
        for (j, b) in x.iter_mut().enumerate() {
            let inc = _mm_set_epi8(j as i8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
            *b = _mm_xor_si128(_mm_add_epi8(base, inc), rk[0]);
        }
        *c = _mm_add_epi32(*c, _mm_set_epi32(0, 0, 0, 8));
    } else {
        let one = _mm_set_epi32(0, 0, 0, 1);
        for b in &mut x {
            *b = _mm_xor_si128(_mm_shuffle_epi8(*c, bswap), rk[0]);
            *c = _mm_add_epi32(*c, one);
        }
    }
    let zero = _mm_setzero_si128();
    let mut s = (zero, zero, zero);
    // Rounds 1..=8 each carry one block's three multiplications (every key has ≥ 10 rounds).
    for i in 0..LANES {
        let k = rk[i + 1];
        for b in &mut x {
            aesenc(b, k);
        }
        if let Some(hash) = hash {
            let h = _mm_shuffle_epi8(load(&hash.as_chunks::<16>().0[i]), bswap);
            hash_one(&mut s, h, p, LANES - 1 - i);
        }
    }
    if hash.is_some() {
        // (acc ⊕ X₀)·H⁸ ⊕ … = acc·H⁸ ⊕ X₀·H⁸ ⊕ …
        hash_one(&mut s, *acc, p, LANES - 1);
        let sums = Sums::from_parts(s.0, s.1, s.2);
        *acc = sums.reduce();
    }
    for &k in &rk[LANES + 1..nr] {
        for b in &mut x {
            aesenc(b, k);
        }
    }
    for b in &mut x {
        *b = _mm_aesenclast_si128(*b, rk[nr]);
    }
    x
}

/// Blocks waiting to be hashed, loaded and byte-reversed, so that a short message's AAD,
/// tail and length block share reductions.
struct Pending {
    x: [__m128i; 3 * LANES],
    n: usize,
}

impl Pending {
    /// Queues the zero-padded blocks of `data`.
    #[target_feature(enable = "sse2,ssse3")]
    #[inline]
    fn push(&mut self, data: &[u8]) {
        let bswap = x86_aesni::bswap_mask();
        let (blocks, rest) = data.as_chunks::<16>();
        for block in blocks {
            self.x[self.n] = _mm_shuffle_epi8(load(block), bswap);
            self.n += 1;
        }
        if !rest.is_empty() {
            let mut last = [0u8; 16];
            last[..rest.len()].copy_from_slice(rest);
            self.x[self.n] = _mm_shuffle_epi8(load(&last), bswap);
            self.n += 1;
            last.zeroize();
        }
    }

    /// Hashes everything queued into `acc`.
    #[target_feature(enable = "pclmulqdq,sse2")]
    #[inline]
    fn flush(&mut self, acc: __m128i, p: &Powers) -> __m128i {
        let mut acc = acc;
        for group in self.x[..self.n].chunks(LANES) {
            acc = x86_pclmul::absorb_loaded(acc, group, p);
        }
        self.n = 0;
        acc
    }
}

#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3")]
fn crypt_stitched<const ENCRYPT: bool>(
    key: &HwKey,
    hkey: &x86_pclmul::Key,
    j0: &[u8; 16],
    aad: &[u8],
    buf: &mut [u8],
) -> [u8; 16] {
    let rk = load_keys(&key.enc);
    let nr = key.rounds;
    let p = hkey.load();
    let bswap = x86_aesni::bswap_mask();
    let one = _mm_set_epi32(0, 0, 0, 1);
    let j0 = load(j0);
    let mut c = _mm_add_epi32(_mm_shuffle_epi8(j0, bswap), one);
    let mut acc = _mm_setzero_si128();

    // The AAD's whole batches now; its last partial batch waits in `pending`, to be hashed
    // with the tail and the length block unless full batches of data come first.
    let mut pending = Pending { x: [_mm_setzero_si128(); 3 * LANES], n: 0 };
    let whole = aad.len() / (16 * LANES) * (16 * LANES);
    for group in aad[..whole].as_chunks::<16>().0.chunks_exact(LANES) {
        acc = x86_pclmul::absorb(acc, group, &p);
    }
    pending.push(&aad[whole..]);

    let (batches, rest) = buf.as_chunks_mut::<{ 16 * LANES }>();
    if !batches.is_empty() {
        acc = pending.flush(acc, &p);
    }
    if ENCRYPT {
        // Batch i hashes the ciphertext of batch i − 2, so that the multiplications never
        // wait for the rounds they are interleaved with.
        for i in 0..batches.len() {
            let (done, todo) = batches.split_at_mut(i);
            let hash = done.len().checked_sub(2).map(|j| &done[j]);
            let ks = batch(&rk, nr, &mut c, hash, &mut acc, &p);
            xor_batch(&mut todo[0], &ks);
        }
        for last in &batches[batches.len().saturating_sub(2)..] {
            acc = x86_pclmul::absorb(acc, last.as_chunks::<16>().0, &p);
        }
    } else {
        for b in batches.iter_mut() {
            let ks = batch(&rk, nr, &mut c, Some(b), &mut acc, &p);
            xor_batch(b, &ks);
        }
    }

    // The tail (up to 127 bytes) and E(J₀) in one pass of the rounds.
    if !ENCRYPT {
        pending.push(rest);
    }
    let blocks = rest.len().div_ceil(16);
    let mut x = [_mm_setzero_si128(); LANES];
    for b in &mut x[..blocks] {
        *b = _mm_shuffle_epi8(c, bswap);
        c = _mm_add_epi32(c, one);
    }
    let mask = if blocks < LANES {
        x[blocks] = j0;
        x86_aesni::rounds::<true>(&rk, nr, &mut x, blocks + 1);
        x[blocks]
    } else {
        x86_aesni::rounds::<true>(&rk, nr, &mut x, blocks);
        let mut m = [_mm_setzero_si128(); LANES];
        m[0] = j0;
        x86_aesni::rounds::<true>(&rk, nr, &mut m, 1);
        m[0]
    };
    let (full, partial) = rest.as_chunks_mut::<16>();
    for (block, ks) in full.iter_mut().zip(&x) {
        store(block, _mm_xor_si128(load(block), *ks));
    }
    if !partial.is_empty() {
        let mut last = [0u8; 16];
        last[..partial.len()].copy_from_slice(partial);
        let v = _mm_xor_si128(load(&last), x[full.len()]);
        store(&mut last, v);
        partial.copy_from_slice(&last[..partial.len()]);
        last.zeroize();
    }
    if ENCRYPT {
        pending.push(rest);
    }

    let mut lengths = [0u8; 16];
    lengths[..8].copy_from_slice(&(8 * aad.len() as u64).to_be_bytes());
    lengths[8..].copy_from_slice(&(8 * buf.len() as u64).to_be_bytes());
    pending.push(&lengths);
    acc = pending.flush(acc, &p);

    let mut tag = [0u8; 16];
    store(&mut tag, _mm_xor_si128(_mm_shuffle_epi8(acc, bswap), mask));
    tag
}

/// XORs a batch with its keystream.
#[target_feature(enable = "sse2")]
#[inline]
fn xor_batch(batch: &mut [u8; 16 * LANES], ks: &[__m128i; LANES]) {
    let (blocks, _) = batch.as_chunks_mut::<16>();
    for (block, k) in blocks.iter_mut().zip(ks) {
        store(block, _mm_xor_si128(load(block), *k));
    }
}
