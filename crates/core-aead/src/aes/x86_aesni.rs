//! AES with AES-NI: `aesenc`/`aesdec` on one block per XMM register, eight blocks in flight so
//! that the instruction's latency (3–4 cycles) is hidden behind seven independent blocks.
//! Single blocks and short tails go through the same loops with fewer lanes.

use super::{AesImpl, Backend, Hw, HwKey, RoundKeys};
use crate::Error;
use core::arch::x86_64::{
    __m128i, _mm_add_epi32, _mm_aesdec_si128, _mm_aesdeclast_si128, _mm_aesenc_si128,
    _mm_aesenclast_si128, _mm_aesimc_si128, _mm_aeskeygenassist_si128, _mm_cvtsi32_si128,
    _mm_cvtsi128_si32, _mm_loadu_si128, _mm_set_epi32, _mm_set_epi64x, _mm_setzero_si128,
    _mm_shuffle_epi8, _mm_slli_si128, _mm_storeu_si128, _mm_xor_si128,
};
use core_cpu::Aes;
use zeroize::Zeroize;

/// The key schedule for the AES instructions, expanded with them: `aeskeygenassist` for
/// `SubWord` and `aesimc` for the decryption keys, where the portable steps (a bitsliced S-box
/// per word) cost more than the few blocks a TLS handshake's keys encrypt.
pub(super) fn expand_key(token: Aes, key: &[u8]) -> Result<HwKey, Error> {
    let _ = token;
    // SAFETY: the `Aes` token proves AES-NI and SSE2 were detected.
    let keys = RoundKeys::expand_with(key, |w| unsafe { sub_word(w) })?;
    // SAFETY: as above.
    Ok(HwKey::with_inv_mix(&keys, |b| unsafe { inv_mix_columns(b) }))
}

/// FIPS 197 `SubWord` (the S-box on each byte of a little-endian word) for the key
/// expansion: `aeskeygenassist` puts `SubWord` of the state's word 1 in word 0 (and rotated,
/// with the round constant, in word 1); the word is placed in lane 1 by the shift.
///
/// # Safety
///
/// AES-NI and SSE2 must be available.
#[target_feature(enable = "aes,sse2")]
unsafe fn sub_word(w: u32) -> u32 {
    let x = _mm_slli_si128::<4>(_mm_cvtsi32_si128(w.cast_signed()));
    _mm_cvtsi128_si32(_mm_aeskeygenassist_si128::<0>(x)).cast_unsigned()
}

/// FIPS 197 §5.3.3 `InvMixColumns` on one round key (`aesimc`), for the decryption keys.
///
/// # Safety
///
/// AES-NI and SSE2 must be available.
#[target_feature(enable = "aes,sse2")]
unsafe fn inv_mix_columns(block: &[u8; 16]) -> [u8; 16] {
    let mut out = [0u8; 16];
    store(&mut out, _mm_aesimc_si128(load(block)));
    out
}

/// Blocks processed together.
const LANES: usize = 8;

/// Encrypts independent blocks in place.
pub(crate) fn encrypt_blocks(token: Aes, key: &HwKey, blocks: &mut [[u8; 16]]) {
    let _ = token;
    // SAFETY: the `Aes` token proves AES-NI, SSE2 and SSSE3 were detected.
    unsafe { crypt_blocks_ni::<true>(key, blocks) }
}

/// Decrypts independent blocks in place.
pub(crate) fn decrypt_blocks(token: Aes, key: &HwKey, blocks: &mut [[u8; 16]]) {
    let _ = token;
    // SAFETY: the `Aes` token proves AES-NI, SSE2 and SSSE3 were detected.
    unsafe { crypt_blocks_ni::<false>(key, blocks) }
}

/// CTR with a 32-bit big-endian counter; see `Aes::ctr32`.
pub(crate) fn ctr32(token: Aes, key: &HwKey, ctr: &mut [u8; 16], buf: &mut [u8]) {
    // SAFETY: the `Aes` token proves AES-NI, SSE2 and SSSE3 were detected.
    unsafe { ctr32_ni(token, key, ctr, buf) }
}

/// CBC encryption of whole blocks (the chain value `iv` is updated), round keys in registers.
pub(crate) fn cbc_encrypt(token: Aes, key: &HwKey, iv: &mut [u8; 16], blocks: &mut [[u8; 16]]) {
    let _ = token;
    // SAFETY: the `Aes` token proves AES-NI, SSE2 and SSSE3 were detected.
    unsafe { cbc_encrypt_ni(key, iv, blocks) }
}

/// CBC decryption of whole blocks (the chain value `iv` is updated), eight in flight, the
/// previous ciphertext blocks kept in registers.
pub(crate) fn cbc_decrypt(token: Aes, key: &HwKey, iv: &mut [u8; 16], blocks: &mut [[u8; 16]]) {
    let _ = token;
    // SAFETY: the `Aes` token proves AES-NI, SSE2 and SSSE3 were detected.
    unsafe { cbc_decrypt_ni(key, iv, blocks) }
}

/// CCM's payload pass (see `Aes::ccm_payload`), round keys in registers.
pub(crate) fn ccm<const ENCRYPT: bool>(
    token: Aes,
    key: &HwKey,
    mac: &mut [u8; 16],
    ks: &mut [u8; 16],
    ctr: &mut [u8; 16],
    buf: &mut [u8],
) {
    let _ = token;
    // SAFETY: the `Aes` token proves AES-NI, SSE2 and SSSE3 were detected.
    unsafe { ccm_ni::<ENCRYPT>(key, mac, ks, ctr, buf) }
}

/// AES-NI, eight blocks in flight.
impl Backend for Hw<Aes> {
    fn implementation(&self) -> AesImpl {
        AesImpl::X86Aesni(self.0)
    }

    #[inline(always)]
    fn encrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
        encrypt_blocks(self.0, &self.1, blocks);
    }

    #[inline(always)]
    fn decrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
        decrypt_blocks(self.0, &self.1, blocks);
    }

    #[inline(always)]
    fn ctr32(&self, ctr: &mut [u8; 16], buf: &mut [u8]) {
        ctr32(self.0, &self.1, ctr, buf);
    }

    #[inline(always)]
    fn cbc_encrypt_blocks(&self, iv: &mut [u8; 16], blocks: &mut [[u8; 16]]) {
        cbc_encrypt(self.0, &self.1, iv, blocks);
    }

    #[inline(always)]
    fn cbc_decrypt_blocks(&self, iv: &mut [u8; 16], blocks: &mut [[u8; 16]]) -> bool {
        cbc_decrypt(self.0, &self.1, iv, blocks);
        true
    }

    #[inline(always)]
    fn ccm_payload<const ENCRYPT: bool>(
        &self,
        mac: &mut [u8; 16],
        ks: &mut [u8; 16],
        ctr: &mut [u8; 16],
        buf: &mut [u8],
    ) {
        ccm::<ENCRYPT>(self.0, &self.1, mac, ks, ctr, buf);
    }

    #[inline(always)]
    fn x86_enc_keys(&self) -> Option<(&[[u8; 16]; 15], usize)> {
        Some((&self.1.enc, self.1.rounds))
    }
}

/// An unaligned 16-byte load.
#[inline(always)]
pub(crate) fn load(bytes: &[u8; 16]) -> __m128i {
    // SAFETY: `bytes` is 16 readable bytes and `loadu` has no alignment requirement.
    unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) }
}

/// An unaligned 16-byte store.
#[inline(always)]
pub(crate) fn store(bytes: &mut [u8; 16], x: __m128i) {
    // SAFETY: `bytes` is 16 writable bytes and `storeu` has no alignment requirement.
    unsafe { _mm_storeu_si128(bytes.as_mut_ptr().cast(), x) }
}

/// The `i`-th 16-byte block of `buf`, which must hold at least `16·(i + 1)` bytes.
#[inline(always)]
pub(crate) fn block_mut(buf: &mut [u8], i: usize) -> &mut [u8; 16] {
    let (blocks, _) = buf.as_chunks_mut::<16>();
    &mut blocks[i]
}

/// The round keys as registers.
#[inline(always)]
pub(crate) fn load_keys(keys: &[[u8; 16]; 15]) -> [__m128i; 15] {
    keys.map(|k| load(&k))
}

/// Byte reversal: a counter block with its bytes reversed has the big-endian counter in the
/// low 32-bit lane, where `paddd` can increment it modulo 2^32.
#[target_feature(enable = "sse2")]
#[inline]
pub(crate) fn bswap_mask() -> __m128i {
    _mm_set_epi64x(0x0001_0203_0405_0607, 0x0809_0a0b_0c0d_0e0f)
}

/// Runs all rounds on `x[..n]` (`n ≤ LANES`), encrypting or decrypting.
#[target_feature(enable = "aes,sse2,ssse3")]
#[inline]
pub(crate) fn rounds<const ENCRYPT: bool>(
    rk: &[__m128i; 15],
    nr: usize,
    x: &mut [__m128i; LANES],
    n: usize,
) {
    for b in &mut x[..n] {
        *b = _mm_xor_si128(*b, rk[0]);
    }
    for k in &rk[1..nr] {
        for b in &mut x[..n] {
            *b = if ENCRYPT { _mm_aesenc_si128(*b, *k) } else { _mm_aesdec_si128(*b, *k) };
        }
    }
    for b in &mut x[..n] {
        *b = if ENCRYPT {
            _mm_aesenclast_si128(*b, rk[nr])
        } else {
            _mm_aesdeclast_si128(*b, rk[nr])
        };
    }
}

/// Encrypts or decrypts independent blocks in place, eight at a time (also the VAES
/// implementations' path for a few blocks, where a wide register would be mostly empty).
/// Each group runs through a copy of the rounds for its exact size, so one or three blocks
/// (CCM's steps, GCM's hash key) cost a straight line of instructions, not a loop over lanes.
#[target_feature(enable = "aes,sse2,ssse3")]
pub(crate) fn crypt_blocks_ni<const ENCRYPT: bool>(key: &HwKey, blocks: &mut [[u8; 16]]) {
    let rk = load_keys(if ENCRYPT { &key.enc } else { &key.dec });
    for group in blocks.chunks_mut(LANES) {
        match group.len() {
            1 => crypt_n::<ENCRYPT, 1>(&rk, key.rounds, group),
            2 => crypt_n::<ENCRYPT, 2>(&rk, key.rounds, group),
            3 => crypt_n::<ENCRYPT, 3>(&rk, key.rounds, group),
            4 => crypt_n::<ENCRYPT, 4>(&rk, key.rounds, group),
            5 => crypt_n::<ENCRYPT, 5>(&rk, key.rounds, group),
            6 => crypt_n::<ENCRYPT, 6>(&rk, key.rounds, group),
            7 => crypt_n::<ENCRYPT, 7>(&rk, key.rounds, group),
            _ => crypt_n::<ENCRYPT, LANES>(&rk, key.rounds, group),
        }
    }
}

/// All rounds on the `N` blocks of `group`.
#[target_feature(enable = "aes,sse2,ssse3")]
#[inline]
fn crypt_n<const ENCRYPT: bool, const N: usize>(
    rk: &[__m128i; 15],
    nr: usize,
    group: &mut [[u8; 16]],
) {
    let mut x = [_mm_setzero_si128(); N];
    for (r, b) in x.iter_mut().zip(group.iter()) {
        *r = load(b);
    }
    rounds_n::<ENCRYPT, N>(rk, nr, &mut x);
    for (r, b) in x.iter().zip(group.iter_mut()) {
        store(b, *r);
    }
}

/// All rounds on exactly `N` blocks in registers.
#[target_feature(enable = "aes,sse2,ssse3")]
#[inline]
fn rounds_n<const ENCRYPT: bool, const N: usize>(
    rk: &[__m128i; 15],
    nr: usize,
    x: &mut [__m128i; N],
) {
    for b in x.iter_mut() {
        *b = _mm_xor_si128(*b, rk[0]);
    }
    for k in &rk[1..nr] {
        for b in x.iter_mut() {
            *b = if ENCRYPT { _mm_aesenc_si128(*b, *k) } else { _mm_aesdec_si128(*b, *k) };
        }
    }
    for b in x.iter_mut() {
        *b = if ENCRYPT {
            _mm_aesenclast_si128(*b, rk[nr])
        } else {
            _mm_aesdeclast_si128(*b, rk[nr])
        };
    }
}

#[target_feature(enable = "aes,sse2,ssse3")]
fn ctr32_ni(_: Aes, key: &HwKey, ctr: &mut [u8; 16], buf: &mut [u8]) {
    let rk = load_keys(&key.enc);
    let bswap = bswap_mask();
    let one = _mm_set_epi32(0, 0, 0, 1);
    let mut c = _mm_shuffle_epi8(load(ctr), bswap);
    let mut chunks = buf.chunks_exact_mut(16 * LANES);
    for chunk in &mut chunks {
        let mut x = [_mm_setzero_si128(); LANES];
        for b in &mut x {
            *b = _mm_shuffle_epi8(c, bswap);
            c = _mm_add_epi32(c, one);
        }
        rounds::<true>(&rk, key.rounds, &mut x, LANES);
        for (i, ks) in x.iter().enumerate() {
            let block = block_mut(chunk, i);
            store(block, _mm_xor_si128(load(block), *ks));
        }
    }
    let rest = chunks.into_remainder();
    if !rest.is_empty() {
        let n = rest.len().div_ceil(16);
        let mut x = [_mm_setzero_si128(); LANES];
        for b in &mut x[..n] {
            *b = _mm_shuffle_epi8(c, bswap);
            c = _mm_add_epi32(c, one);
        }
        rounds::<true>(&rk, key.rounds, &mut x, n);
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
    }
    store(ctr, _mm_shuffle_epi8(c, bswap));
}

/// # Safety
///
/// AES-NI, SSE2 and SSSE3 must be available (the VAES tokens imply them too).
#[target_feature(enable = "aes,sse2,ssse3")]
pub(crate) fn cbc_encrypt_ni(key: &HwKey, iv: &mut [u8; 16], blocks: &mut [[u8; 16]]) {
    let rk = load_keys(&key.enc);
    let mut x = [_mm_setzero_si128(); LANES];
    x[0] = load(iv);
    for block in blocks {
        x[0] = _mm_xor_si128(x[0], load(block));
        rounds::<true>(&rk, key.rounds, &mut x, 1);
        store(block, x[0]);
    }
    store(iv, x[0]);
}

/// # Safety
///
/// AES-NI, SSE2 and SSSE3 must be available (the VAES tokens imply them too).
#[target_feature(enable = "aes,sse2,ssse3")]
pub(crate) fn ccm_ni<const ENCRYPT: bool>(
    key: &HwKey,
    mac: &mut [u8; 16],
    ks: &mut [u8; 16],
    ctr: &mut [u8; 16],
    buf: &mut [u8],
) {
    let rk = load_keys(&key.enc);
    let nr = key.rounds;
    let bswap = bswap_mask();
    let one = _mm_set_epi32(0, 0, 0, 1);
    let mut c = _mm_shuffle_epi8(load(ctr), bswap);
    let (mut m, mut k) = (load(mac), load(ks));
    let (blocks, partial) = buf.as_chunks_mut::<16>();
    let mut blocks = blocks.iter_mut();
    if let Some(first) = blocks.next() {
        // The chain is the critical path: the MAC of block i+1 starts from
        // `E(x) ⊕ p ⊕ rk₀ = SubShift(…) ⊕ (rk_last ⊕ rk₀ ⊕ p)`, so the last round of one
        // step takes the next step's plaintext and first round key as its round key and
        // no XOR is left between the AES rounds of consecutive blocks (for decryption the
        // plaintext comes out of the keystream lane of the same step: one XOR remains).
        let fold = _mm_xor_si128(rk[nr], rk[0]);
        let d = load(first);
        let out = _mm_xor_si128(d, k);
        store(first, out);
        let mut x = _mm_xor_si128(_mm_xor_si128(m, if ENCRYPT { d } else { out }), rk[0]);
        for block in blocks {
            // The MAC of the previous block and the keystream of this one, side by side.
            let mut y = _mm_xor_si128(_mm_shuffle_epi8(c, bswap), rk[0]);
            c = _mm_add_epi32(c, one);
            for r in &rk[1..nr] {
                x = _mm_aesenc_si128(x, *r);
                y = _mm_aesenc_si128(y, *r);
            }
            k = _mm_aesenclast_si128(y, rk[nr]);
            let d = load(block);
            let out = _mm_xor_si128(d, k);
            store(block, out);
            x = if ENCRYPT {
                _mm_aesenclast_si128(x, _mm_xor_si128(fold, d))
            } else {
                _mm_xor_si128(_mm_aesenclast_si128(x, fold), out)
            };
        }
        // The last whole block's MAC and the keystream after it.
        let mut y = _mm_xor_si128(_mm_shuffle_epi8(c, bswap), rk[0]);
        c = _mm_add_epi32(c, one);
        for r in &rk[1..nr] {
            x = _mm_aesenc_si128(x, *r);
            y = _mm_aesenc_si128(y, *r);
        }
        k = _mm_aesenclast_si128(y, rk[nr]);
        m = _mm_aesenclast_si128(x, rk[nr]);
    }
    if !partial.is_empty() {
        let n = partial.len();
        let mut last = [0u8; 16];
        last[..n].copy_from_slice(partial);
        let d = load(&last);
        store(&mut last, _mm_xor_si128(d, k));
        partial.copy_from_slice(&last[..n]);
        if ENCRYPT {
            store(&mut last, d);
        } else {
            last[n..].fill(0);
        }
        let mut x = [_mm_xor_si128(m, load(&last))];
        rounds_n::<true, 1>(&rk, key.rounds, &mut x);
        [m] = x;
        last.zeroize();
    }
    store(mac, m);
    store(ks, k);
    store(ctr, _mm_shuffle_epi8(c, bswap));
}

/// # Safety
///
/// AES-NI, SSE2 and SSSE3 must be available (the VAES tokens imply them too).
#[target_feature(enable = "aes,sse2,ssse3")]
pub(crate) fn cbc_decrypt_ni(key: &HwKey, iv: &mut [u8; 16], blocks: &mut [[u8; 16]]) {
    let rk = load_keys(&key.dec);
    let mut prev = load(iv);
    for group in blocks.chunks_mut(LANES) {
        let n = group.len();
        let mut c = [_mm_setzero_si128(); LANES];
        for (r, b) in c.iter_mut().zip(group.iter()) {
            *r = load(b);
        }
        let mut x = c;
        if n == LANES {
            rounds::<false>(&rk, key.rounds, &mut x, LANES);
        } else {
            rounds::<false>(&rk, key.rounds, &mut x, n);
        }
        for (i, b) in group.iter_mut().enumerate() {
            let chain = if i == 0 { prev } else { c[i - 1] };
            store(b, _mm_xor_si128(x[i], chain));
        }
        prev = c[n - 1];
    }
    store(iv, prev);
}
