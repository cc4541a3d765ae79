//! GHASH with VPCLMULQDQ: the carry-less multiply on every 128-bit lane of a YMM register
//! (`x86_vpclmul`, with AVX2) or ZMM register (`x86_vpclmul512`, with AVX-512). Four
//! registers of blocks — 8 or 16 blocks — are multiplied lane by lane by a table of key powers
//! H^n…H^1 laid out in the same lanes, the Karatsuba partial products summed across registers,
//! then across lanes, and reduced once with 128-bit PCLMULQDQ. Fewer blocks than a group go
//! through [`x86_pclmul`].
//!
//! As for [`crate::aes`]'s VAES loops, the code is a macro over the register width and the
//! multiply instruction, so the tests also run it over a model of VPCLMULQDQ built from
//! PCLMULQDQ on each lane: no CPU or emulator available here has VPCLMULQDQ, but this one
//! runs the AVX-512 model natively.

use super::x86_pclmul::{self, BATCH, absorb};
use crate::chacha20::wipe;
use core::arch::x86_64::{
    __m128i, __m256i, __m512i, _MM_PERM_ENUM, _mm_loadu_si128, _mm_set_epi64x, _mm_shuffle_epi8,
    _mm_slli_si128, _mm_srli_si128, _mm_storeu_si128, _mm_xor_si128, _mm256_broadcastsi128_si256,
    _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_setzero_si256,
    _mm256_shuffle_epi8, _mm256_shuffle_epi32, _mm256_xor_si256, _mm256_zextsi128_si256,
    _mm512_broadcast_i32x4, _mm512_castsi512_si128, _mm512_extracti32x4_epi32, _mm512_loadu_si512,
    _mm512_setzero_si512, _mm512_shuffle_epi8, _mm512_shuffle_epi32, _mm512_xor_si512,
    _mm512_zextsi128_si512,
};
use core_cpu::{Vaes, Vaes512};

/// Registers of blocks per group.
const REGS: usize = 4;

/// Table entries: the 32 powers the stitched AES-GCM loop multiplies by (two ZMM groups).
const TABLE: usize = 32;

/// The largest group of this module's own loops: four ZMM registers of four blocks.
const MAX_GROUP: usize = 16;

/// A key for groups of `per · 4` blocks: `h[b]` is H^(32 − b) in register form, so that
/// register `j` of the table's last `group` entries holds the powers for blocks `per·j …` of
/// a group (entries below are filled for ZMM keys only, for AES-GCM's 32-block groups); `k`
/// the XOR of each power's halves, for the last 16 entries only (the AES-GCM loop computes its
/// own: 256 bytes less per key); `narrow` the 128-bit powers for the blocks left over.
#[derive(Clone)]
pub(crate) struct Key {
    h: [[u8; 16]; TABLE],
    k: [[u8; 16]; MAX_GROUP],
    narrow: x86_pclmul::Key,
}

impl Key {
    /// The key for YMM groups of 8 blocks.
    pub(super) fn new(token: Vaes, h: &[u8; 16]) -> Self {
        let _ = token;
        // SAFETY: the `Vaes` token proves PCLMULQDQ, SSE2 and SSSE3 among its features.
        unsafe { Self::table(h, 8) }
    }

    /// The key for ZMM groups of 16 blocks, with all 32 powers for AES-GCM.
    pub(super) fn new512(token: Vaes512, h: &[u8; 16]) -> Self {
        let _ = token;
        // SAFETY: the `Vaes512` token proves PCLMULQDQ, SSE2 and SSSE3 among its features.
        unsafe { Self::table(h, TABLE) }
    }

    /// The key with the `n` powers Hⁿ…H¹ in the table's last `n` entries.
    ///
    /// # Safety
    ///
    /// PCLMULQDQ, SSE2 and SSSE3 must be available.
    unsafe fn table(h: &[u8; 16], n: usize) -> Self {
        let mut key = Key {
            h: [[0; 16]; TABLE],
            k: [[0; 16]; MAX_GROUP],
            narrow: x86_pclmul::Key { h: [[0; 16]; BATCH], k: [[0; 16]; BATCH] },
        };
        debug_assert!((BATCH..=TABLE).contains(&n));
        // Hⁱ to the i-th entry from the end of `h`, and the first 16 powers' halves to `k`:
        // computed in place, each power once.
        // SAFETY: the caller guarantees the features.
        unsafe {
            x86_pclmul::power_table_rev(
                h,
                &mut key.h[TABLE - n..],
                &mut key.k[MAX_GROUP - n.min(MAX_GROUP)..],
            );
        }
        // The narrow key's H¹…H⁸ are the last eight of each table, in ascending order.
        let powers = key.h.iter().rev().zip(key.k.iter().rev());
        for ((nh, nk), (h, k)) in key.narrow.h.iter_mut().zip(&mut key.narrow.k).zip(powers) {
            *nh = *h;
            *nk = *k;
        }
        key
    }
}

impl Key {
    /// The 32 powers H³²…H¹ of a key built by [`Key::new512`], for the stitched AES-GCM loop.
    pub(crate) fn powers32(&self) -> &[[u8; 16]; TABLE] {
        &self.h
    }
}

impl Drop for Key {
    // A vectorised fill behind a barrier, not a volatile write per byte: 768 bytes are
    // wiped for every AES-GCM key dropped, four per TLS 1.2 handshake.
    fn drop(&mut self) {
        wipe(&mut self.h);
        wipe(&mut self.k);
    }
}

/// Absorbs whole blocks into `y`, 8 per YMM group.
pub(super) fn update(token: Vaes, key: &Key, y: &mut [u8; 16], blocks: &[[u8; 16]]) {
    let _ = token;
    // SAFETY: the `Vaes` token proves VPCLMULQDQ, PCLMULQDQ and AVX2.
    unsafe { ymm::update(key, y, blocks) }
}

/// Absorbs whole blocks into `y`, 16 per ZMM group.
pub(super) fn update512(token: Vaes512, key: &Key, y: &mut [u8; 16], blocks: &[[u8; 16]]) {
    let _ = token;
    // SAFETY: the `Vaes512` token proves VPCLMULQDQ, PCLMULQDQ and AVX-512 F/BW.
    unsafe { zmm::update(key, y, blocks) }
}

#[inline(always)]
fn load1(bytes: &[u8; 16]) -> __m128i {
    // SAFETY: `bytes` is 16 readable bytes and `loadu` has no alignment requirement.
    unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) }
}

#[inline(always)]
fn store1(bytes: &mut [u8; 16], x: __m128i) {
    // SAFETY: `bytes` is 16 writable bytes and `storeu` has no alignment requirement.
    unsafe { _mm_storeu_si128(bytes.as_mut_ptr().cast(), x) }
}

/// `per` consecutive blocks as one register.
#[inline(always)]
fn load2(blocks: &[[u8; 16]]) -> __m256i {
    let bytes: &[u8; 32] = blocks.as_flattened().first_chunk().expect("two blocks");
    // SAFETY: `bytes` is 32 readable bytes and `loadu` has no alignment requirement.
    unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) }
}

#[target_feature(enable = "avx512f")]
#[inline]
fn load4(blocks: &[[u8; 16]]) -> __m512i {
    let bytes: &[u8; 64] = blocks.as_flattened().first_chunk().expect("four blocks");
    // SAFETY: `bytes` is 64 readable bytes and `loadu` has no alignment requirement.
    unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
}

#[target_feature(enable = "avx2")]
#[inline]
fn fold2(x: __m256i) -> __m128i {
    _mm_xor_si128(_mm256_castsi256_si128(x), _mm256_extracti128_si256::<1>(x))
}

#[target_feature(enable = "avx512f")]
#[inline]
fn fold4(x: __m512i) -> __m128i {
    let a = _mm_xor_si128(_mm512_castsi512_si128(x), _mm512_extracti32x4_epi32::<1>(x));
    let b = _mm_xor_si128(_mm512_extracti32x4_epi32::<2>(x), _mm512_extracti32x4_epi32::<3>(x));
    _mm_xor_si128(a, b)
}

#[target_feature(enable = "avx2")]
#[inline]
fn swap_halves2(x: __m256i) -> __m256i {
    _mm256_shuffle_epi32::<0x4e>(x)
}

#[target_feature(enable = "avx512f")]
#[inline]
fn swap_halves4(x: __m512i) -> __m512i {
    _mm512_shuffle_epi32::<{ 0x4e as _MM_PERM_ENUM }>(x)
}

/// Byte reversal of a 128-bit block.
#[target_feature(enable = "sse2")]
#[inline]
fn bswap_mask() -> __m128i {
    _mm_set_epi64x(0x0001_0203_0405_0607, 0x0809_0a0b_0c0d_0e0f)
}

/// The update loop for one register width: `$vec` of `$per` blocks, its helpers, and the
/// multiply `$clmul` (`fn::<IMM>(a, b)`), compiled with `$features`.
macro_rules! wide_update {
    (
        $features:literal, $vec:ty, $per:literal, $load:path, $xor:path, $shuffle:path,
        $swap:path, $zero:path, $zext:path, $broadcast:path, $fold:path, $clmul:ident
    ) => {
        #[target_feature(enable = $features)]
        pub(super) fn update(key: &Key, y: &mut [u8; 16], blocks: &[[u8; 16]]) {
            const GROUP: usize = $per * REGS;
            let bswap1 = bswap_mask();
            let bswap = $broadcast(bswap1);
            let (hf, kf) = (TABLE - GROUP, MAX_GROUP - GROUP);
            let h: [$vec; REGS] = core::array::from_fn(|j| $load(&key.h[hf + $per * j..]));
            let k: [$vec; REGS] = core::array::from_fn(|j| $load(&key.k[kf + $per * j..]));
            let mut acc = _mm_shuffle_epi8(load1(y), bswap1);
            let mut groups = blocks.chunks_exact(GROUP);
            for group in &mut groups {
                let (mut lo, mut mid, mut hi) = ($zero(), $zero(), $zero());
                for j in 0..REGS {
                    let mut x = $shuffle($load(&group[$per * j..]), bswap);
                    if j == 0 {
                        x = $xor(x, $zext(acc));
                    }
                    lo = $xor(lo, $clmul::<0x00>(x, h[j]));
                    hi = $xor(hi, $clmul::<0x11>(x, h[j]));
                    mid = $xor(mid, $clmul::<0x00>($xor(x, $swap(x)), k[j]));
                }
                let (lo, mid, hi) = ($fold(lo), $fold(mid), $fold(hi));
                let mid = _mm_xor_si128(mid, _mm_xor_si128(lo, hi));
                let lo = _mm_xor_si128(lo, _mm_slli_si128::<8>(mid));
                let hi = _mm_xor_si128(hi, _mm_srli_si128::<8>(mid));
                acc = x86_pclmul::reduce(hi, lo);
            }
            let p = &key.narrow;
            for rest in groups.remainder().chunks(x86_pclmul::BATCH) {
                acc = absorb(acc, rest, p);
            }
            store1(y, _mm_shuffle_epi8(acc, bswap1));
        }
    };
}

// The macro's body names most of the parent's imports.
#[allow(clippy::wildcard_imports)]
mod ymm {
    use super::*;
    use core::arch::x86_64::_mm256_clmulepi64_epi128 as clmul;
    wide_update!(
        "avx2,vpclmulqdq,pclmulqdq,sse2,ssse3",
        __m256i,
        2,
        load2,
        _mm256_xor_si256,
        _mm256_shuffle_epi8,
        swap_halves2,
        _mm256_setzero_si256,
        _mm256_zextsi128_si256,
        _mm256_broadcastsi128_si256,
        fold2,
        clmul
    );
}

#[allow(clippy::wildcard_imports)]
mod zmm {
    use super::*;
    use core::arch::x86_64::_mm512_clmulepi64_epi128 as clmul;
    wide_update!(
        "avx512f,avx512bw,vpclmulqdq,pclmulqdq,sse2,ssse3",
        __m512i,
        4,
        load4,
        _mm512_xor_si512,
        _mm512_shuffle_epi8,
        swap_halves4,
        _mm512_setzero_si512,
        _mm512_zextsi128_si512,
        _mm512_broadcast_i32x4,
        fold4,
        clmul
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::arch::x86_64::{_mm_clmulepi64_si128, _mm256_set_m128i, _mm512_inserti32x4};

    /// VPCLMULQDQ on YMM as the SDM defines it: PCLMULQDQ on each 128-bit lane.
    #[target_feature(enable = "avx2,pclmulqdq")]
    #[inline]
    fn model2<const IMM: i32>(a: __m256i, b: __m256i) -> __m256i {
        let lo = _mm_clmulepi64_si128::<IMM>(_mm256_castsi256_si128(a), _mm256_castsi256_si128(b));
        let hi = _mm_clmulepi64_si128::<IMM>(
            _mm256_extracti128_si256::<1>(a),
            _mm256_extracti128_si256::<1>(b),
        );
        _mm256_set_m128i(hi, lo)
    }

    /// VPCLMULQDQ on ZMM as the SDM defines it: PCLMULQDQ on each 128-bit lane.
    #[target_feature(enable = "avx512f,pclmulqdq")]
    #[inline]
    fn model4<const IMM: i32>(a: __m512i, b: __m512i) -> __m512i {
        let l0 = _mm_clmulepi64_si128::<IMM>(
            _mm512_extracti32x4_epi32::<0>(a),
            _mm512_extracti32x4_epi32::<0>(b),
        );
        let l1 = _mm_clmulepi64_si128::<IMM>(
            _mm512_extracti32x4_epi32::<1>(a),
            _mm512_extracti32x4_epi32::<1>(b),
        );
        let l2 = _mm_clmulepi64_si128::<IMM>(
            _mm512_extracti32x4_epi32::<2>(a),
            _mm512_extracti32x4_epi32::<2>(b),
        );
        let l3 = _mm_clmulepi64_si128::<IMM>(
            _mm512_extracti32x4_epi32::<3>(a),
            _mm512_extracti32x4_epi32::<3>(b),
        );
        let r = _mm512_inserti32x4::<0>(a, l0);
        let r = _mm512_inserti32x4::<1>(r, l1);
        let r = _mm512_inserti32x4::<2>(r, l2);
        _mm512_inserti32x4::<3>(r, l3)
    }

    #[allow(clippy::wildcard_imports)]
    mod ymm_model {
        use super::model2 as clmul;
        use super::*;
        wide_update!(
            "avx2,pclmulqdq,sse2,ssse3",
            __m256i,
            2,
            load2,
            _mm256_xor_si256,
            _mm256_shuffle_epi8,
            swap_halves2,
            _mm256_setzero_si256,
            _mm256_zextsi128_si256,
            _mm256_broadcastsi128_si256,
            fold2,
            clmul
        );
    }

    #[allow(clippy::wildcard_imports)]
    mod zmm_model {
        use super::model4 as clmul;
        use super::*;
        wide_update!(
            "avx512f,avx512bw,pclmulqdq,sse2,ssse3",
            __m512i,
            4,
            load4,
            _mm512_xor_si512,
            _mm512_shuffle_epi8,
            swap_halves4,
            _mm512_setzero_si512,
            _mm512_zextsi128_si512,
            _mm512_broadcast_i32x4,
            fold4,
            clmul
        );
    }

    /// The wide loops over the models agree with the 128-bit PCLMULQDQ code on random keys
    /// and every block count up to four groups.
    #[test]
    fn wide_loops_over_models_of_vpclmulqdq_match_pclmul() {
        let Some(clmul) = core_cpu::ClMul::get() else {
            std::println!("x86_vpclmul models: need PCLMULQDQ; not checked");
            return;
        };
        let ymm_ok = core_cpu::Avx2::get().is_some();
        let zmm_ok = core_cpu::Avx512::get().is_some();
        if !ymm_ok {
            std::println!("x86_vpclmul model: needs AVX2; not checked");
        }
        if !zmm_ok {
            std::println!("x86_vpclmul512 model: needs AVX-512; not checked");
        }
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as u8
        };
        for _ in 0..8 {
            let h: [u8; 16] = core::array::from_fn(|_| next());
            let y0: [u8; 16] = core::array::from_fn(|_| next());
            let data: std::vec::Vec<[u8; 16]> =
                (0..4 * 16 + 9).map(|_| core::array::from_fn(|_| next())).collect();
            let narrow = x86_pclmul::Key::new(clmul, &h);
            for n in 0..=data.len() {
                let mut want = y0;
                x86_pclmul::update(clmul, &narrow, &mut want, &data[..n]);
                if ymm_ok {
                    // SAFETY: PCLMULQDQ, SSE2 and SSSE3 come with the `ClMul` token.
                    let key = unsafe { Key::table(&h, 8) };
                    let mut got = y0;
                    // SAFETY: AVX2 and PCLMULQDQ were detected above.
                    unsafe { ymm_model::update(&key, &mut got, &data[..n]) };
                    assert_eq!(got, want, "ymm, {n} blocks");
                }
                if zmm_ok {
                    // SAFETY: as above.
                    let key = unsafe { Key::table(&h, 16) };
                    let mut got = y0;
                    // SAFETY: AVX-512 and PCLMULQDQ were detected above.
                    unsafe { zmm_model::update(&key, &mut got, &data[..n]) };
                    assert_eq!(got, want, "zmm, {n} blocks");
                }
            }
        }
    }
}
