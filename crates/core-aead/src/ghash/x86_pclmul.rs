//! GHASH with PCLMULQDQ and aggregated reduction: eight blocks are multiplied by H⁸…H¹
//! (precomputed at key setup), their Karatsuba partial products summed, and the sum reduced
//! once — three `pclmulqdq` per block plus two per eight blocks. The same steps serve the
//! stitched AES-GCM loop in [`crate::gcm`].
//!
//! In registers a field element is the 128-bit integer of the module's representation
//! (`u128::from_be_bytes` of the block) in the usual little-endian lane order, so a block is
//! loaded with one byte reversal.

use super::h_times_x_inverse;
use crate::chacha20::wipe;
use core::arch::x86_64::{
    __m128i, _mm_clmulepi64_si128, _mm_loadu_si128, _mm_set_epi64x, _mm_setzero_si128,
    _mm_shuffle_epi8, _mm_shuffle_epi32, _mm_slli_si128, _mm_srli_si128, _mm_storeu_si128,
    _mm_xor_si128,
};
use core_cpu::ClMul;

/// Blocks per reduction.
pub(crate) const BATCH: usize = 8;

/// Powers of the key: `h[i]` is `(H·x⁻¹)`-form `H^(i+1)`, and `k[i]` holds the XOR of its two
/// halves (the Karatsuba middle operand) in the low lane. Kept as bytes and read in place
/// (folded into `pclmulqdq`'s memory operand where the encoding allows), so a short message
/// does not pay for copying all sixteen into registers or onto the stack first.
#[derive(Clone)]
pub(crate) struct Key {
    pub(crate) h: [[u8; 16]; BATCH],
    pub(crate) k: [[u8; 16]; BATCH],
}

/// The key powers, as the batch code reads them.
pub(crate) type Powers = Key;

impl Key {
    pub(super) fn new(token: ClMul, h: &[u8; 16]) -> Self {
        let _ = token;
        // SAFETY: the `ClMul` token proves PCLMULQDQ, SSE2 and SSSE3 were detected.
        unsafe { Self::new_unchecked(h) }
    }

    /// The key, for callers that hold a token implying PCLMULQDQ (the wide backends').
    ///
    /// # Safety
    ///
    /// PCLMULQDQ, SSE2 and SSSE3 must be available.
    pub(super) unsafe fn new_unchecked(h: &[u8; 16]) -> Self {
        let mut key = Key { h: [[0; 16]; BATCH], k: [[0; 16]; BATCH] };
        // SAFETY: the caller guarantees the features.
        unsafe { power_table(h, &mut key.h, &mut key.k) };
        key
    }
}

impl Drop for Key {
    // A vectorised fill behind a barrier, as for the wide key.
    fn drop(&mut self) {
        wipe(&mut self.h);
        wipe(&mut self.k);
    }
}

/// Absorbs whole blocks into `y`.
pub(super) fn update(token: ClMul, key: &Key, y: &mut [u8; 16], blocks: &[[u8; 16]]) {
    // SAFETY: the `ClMul` token proves PCLMULQDQ, SSE2 and SSSE3 were detected.
    unsafe { update_clmul(token, key, y, blocks) }
}

#[inline(always)]
fn load(bytes: &[u8; 16]) -> __m128i {
    // SAFETY: `bytes` is 16 readable bytes and `loadu` has no alignment requirement.
    unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) }
}

#[inline(always)]
fn store(bytes: &mut [u8; 16], x: __m128i) {
    // SAFETY: `bytes` is 16 writable bytes and `storeu` has no alignment requirement.
    unsafe { _mm_storeu_si128(bytes.as_mut_ptr().cast(), x) }
}

/// Reverses the bytes of a block: memory order to the integer's lane order and back.
#[target_feature(enable = "sse2")]
#[inline]
pub(crate) fn bswap_mask() -> __m128i {
    _mm_set_epi64x(0x0001_0203_0405_0607, 0x0809_0a0b_0c0d_0e0f)
}

/// Unreduced Karatsuba partial products `(lo, mid, hi)`, summed over blocks.
#[derive(Clone, Copy)]
pub(crate) struct Sums {
    lo: __m128i,
    mid: __m128i,
    hi: __m128i,
}

impl Sums {
    #[target_feature(enable = "sse2")]
    #[inline]
    pub(crate) fn new() -> Self {
        Self { lo: _mm_setzero_si128(), mid: _mm_setzero_si128(), hi: _mm_setzero_si128() }
    }

    /// Adds `x · h` where `k` is the XOR of `h`'s halves.
    #[target_feature(enable = "pclmulqdq,sse2")]
    #[inline]
    pub(crate) fn add(&mut self, x: __m128i, h: __m128i, k: __m128i) {
        self.lo = _mm_xor_si128(self.lo, _mm_clmulepi64_si128::<0x00>(x, h));
        self.hi = _mm_xor_si128(self.hi, _mm_clmulepi64_si128::<0x11>(x, h));
        let x_halves = _mm_xor_si128(x, _mm_shuffle_epi32::<0x4e>(x));
        self.mid = _mm_xor_si128(self.mid, _mm_clmulepi64_si128::<0x00>(x_halves, k));
    }

    /// The reduced field element.
    #[target_feature(enable = "pclmulqdq,sse2")]
    #[inline]
    pub(crate) fn reduce(self) -> __m128i {
        let mid = _mm_xor_si128(self.mid, _mm_xor_si128(self.lo, self.hi));
        let lo = _mm_xor_si128(self.lo, _mm_slli_si128::<8>(mid));
        let hi = _mm_xor_si128(self.hi, _mm_srli_si128::<8>(mid));
        reduce(hi, lo)
    }
}

/// Montgomery reduction of the 256-bit product `(hi, lo)` as in [`super::reduce`]: each of
/// the two steps multiplies the low 64 bits by `y^57 + y^62 + y^63` (0xC2 << 56) and folds
/// the product and the word itself 64 bits up.
#[target_feature(enable = "pclmulqdq,sse2")]
#[inline]
pub(crate) fn reduce(hi: __m128i, lo: __m128i) -> __m128i {
    let q = _mm_set_epi64x(0, 0xC200_0000_0000_0000_u64.cast_signed());
    let t = _mm_clmulepi64_si128::<0x00>(lo, q);
    let lo = _mm_xor_si128(_mm_shuffle_epi32::<0x4e>(lo), t);
    let t = _mm_clmulepi64_si128::<0x00>(lo, q);
    let lo = _mm_xor_si128(_mm_shuffle_epi32::<0x4e>(lo), t);
    _mm_xor_si128(hi, lo)
}

/// The field product of two elements in register form.
#[target_feature(enable = "pclmulqdq,sse2")]
#[inline]
fn mul(a: __m128i, b: __m128i) -> __m128i {
    let mut s = Sums::new();
    s.add(a, b, _mm_xor_si128(b, _mm_shuffle_epi32::<0x4e>(b)));
    s.reduce()
}

/// `h[i]` = H^(i+1) in register form (the little-endian bytes of the `H·x⁻¹`-form integer),
/// and `k[i]` the XOR of its halves, for `i < h.len()`.
#[target_feature(enable = "pclmulqdq,sse2,ssse3")]
pub(super) fn power_table(h: &[u8; 16], out_h: &mut [[u8; 16]], out_k: &mut [[u8; 16]]) {
    let h1 = load(&h_times_x_inverse(h).to_le_bytes());
    let mut p = h1;
    for (ph, pk) in out_h.iter_mut().zip(out_k.iter_mut()) {
        store(ph, p);
        store(pk, _mm_xor_si128(p, _mm_shuffle_epi32::<0x4e>(p)));
        p = mul(p, h1);
    }
}

/// Independent chains [`power_table_rev`] multiplies along: each product waits for the
/// one before it in its chain only, so four run in the time of about one.
const CHAINS: usize = 4;

/// The wide tables' layout of [`power_table`]: counting from the end, `out_h[len − i]` is Hⁱ
/// for every entry and `out_k[len − i]` the XOR of its halves for the last `out_k.len()`
/// entries (no more of them than of `out_h`). Written in place, so no table is copied.
/// H¹…H⁴ come one from the other, then each chain steps by H⁴ (for 32 powers, 12 products
/// on the longest dependency path rather than 31: a fresh AES-GCM key for a short TLS
/// handshake record costs about a quarter as much).
#[target_feature(enable = "pclmulqdq,sse2,ssse3")]
pub(super) fn power_table_rev(h: &[u8; 16], out_h: &mut [[u8; 16]], out_k: &mut [[u8; 16]]) {
    let h1 = load(&h_times_x_inverse(h).to_le_bytes());
    let mut p = [h1; CHAINS];
    for j in 1..CHAINS {
        p[j] = mul(p[j - 1], h1);
    }
    // H⁴ = H² · H².
    let step = mul(p[1], p[1]);
    let n = out_h.len();
    let mut ks = out_k.iter_mut().rev();
    for (i, group) in out_h.rchunks_mut(CHAINS).enumerate() {
        for (j, ph) in group.iter_mut().rev().enumerate() {
            store(ph, p[j]);
            if let Some(pk) = ks.next() {
                store(pk, _mm_xor_si128(p[j], _mm_shuffle_epi32::<0x4e>(p[j])));
            }
        }
        if (i + 1) * CHAINS < n {
            for x in &mut p {
                *x = mul(*x, step);
            }
        }
    }
}

/// Multiplies `blocks` (with `acc` added to the first) by `H^n…H^1` and reduces once.
#[target_feature(enable = "pclmulqdq,sse2,ssse3")]
#[inline]
pub(crate) fn absorb(acc: __m128i, blocks: &[[u8; 16]], p: &Powers) -> __m128i {
    let bswap = bswap_mask();
    let n = blocks.len();
    let mut s = Sums::new();
    for (i, block) in blocks.iter().enumerate() {
        let mut x = _mm_shuffle_epi8(load(block), bswap);
        if i == 0 {
            x = _mm_xor_si128(x, acc);
        }
        s.add(x, load(&p.h[n - 1 - i]), load(&p.k[n - 1 - i]));
    }
    s.reduce()
}

/// Like [`absorb`], for blocks already loaded and byte-reversed.
#[target_feature(enable = "pclmulqdq,sse2")]
#[inline]
pub(crate) fn absorb_loaded(acc: __m128i, xs: &[__m128i], p: &Powers) -> __m128i {
    let n = xs.len();
    let mut s = Sums::new();
    for (i, x) in xs.iter().enumerate() {
        let x = if i == 0 { _mm_xor_si128(*x, acc) } else { *x };
        s.add(x, load(&p.h[n - 1 - i]), load(&p.k[n - 1 - i]));
    }
    s.reduce()
}

#[target_feature(enable = "pclmulqdq,sse2,ssse3")]
fn update_clmul(_: ClMul, key: &Key, y: &mut [u8; 16], blocks: &[[u8; 16]]) {
    let p = key;
    let bswap = bswap_mask();
    let mut acc = _mm_shuffle_epi8(load(y), bswap);
    let mut chunks = blocks.chunks_exact(BATCH);
    for chunk in &mut chunks {
        acc = absorb(acc, chunk, p);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        acc = absorb(acc, rest, p);
    }
    store(y, _mm_shuffle_epi8(acc, bswap));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reversed, chained table holds the same powers and half-XORs as the one-chain
    /// [`power_table`], for every table length (lengths not a multiple of the chain count
    /// too) and every `k` length up to it.
    #[test]
    fn chained_reversed_table_is_the_plain_one_reversed() {
        let Some(clmul) = core_cpu::ClMul::get() else {
            std::println!("x86_pclmul power tables: need PCLMULQDQ; not checked");
            return;
        };
        let _ = clmul;
        let h: [u8; 16] = core::array::from_fn(|i| (i as u8).wrapping_mul(37) ^ 0x5a);
        let (mut want_h, mut want_k) = ([[0u8; 16]; 32], [[0u8; 16]; 32]);
        // SAFETY: the `ClMul` token proves PCLMULQDQ, SSE2 and SSSE3.
        unsafe { power_table(&h, &mut want_h, &mut want_k) };
        for n in 1..=32 {
            for nk in [0, n / 2, n] {
                let (mut got_h, mut got_k) = ([[0u8; 16]; 32], [[0u8; 16]; 32]);
                // SAFETY: as above.
                unsafe { power_table_rev(&h, &mut got_h[..n], &mut got_k[..nk]) };
                for i in 0..n {
                    assert_eq!(got_h[n - 1 - i], want_h[i], "H^{}, {n} powers", i + 1);
                }
                for i in 0..nk {
                    assert_eq!(got_k[nk - 1 - i], want_k[i], "k of H^{}, {n} powers", i + 1);
                }
            }
        }
    }
}
