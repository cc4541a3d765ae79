//! AES with VAES: `vaesenc` on a 256-bit register runs a round on two blocks at once, on a
//! 512-bit one on four; eight registers keep 16 or 32 blocks in flight.
//!
//! - `x86_vaes` (YMM) needs only VAES and AVX2 (the [`VaesAvx2`] token), so it also runs
//!   where VPCLMULQDQ or AVX-512 are missing;
//! - `x86_vaes512` (ZMM) needs VAES with AVX-512 (`core_cpu::Vaes512`).
//!
//! The loops are written once, in a macro over the register width and the four VAES round
//! instructions, so that the tests can also run them over a model of those instructions built
//! from AES-NI on each 128-bit lane: the development machine has no VAES, and QEMU 7.2's
//! `vaesenc`/`vaesdec` on YMM registers compute the upper half from the lower half's data.

use super::{AesImpl, Backend, FEW, Hw, HwKey, counter, set_counter, x86_aesni};
use core::arch::x86_64::{
    __m128i, __m256i, __m512i, _mm_loadu_si128, _mm_set_epi32, _mm_set_epi64x, _mm256_add_epi32,
    _mm256_broadcastsi128_si256, _mm256_loadu_si256, _mm256_permute2x128_si256, _mm256_set_epi32,
    _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_storeu_si256, _mm256_xor_si256,
    _mm512_add_epi32, _mm512_alignr_epi64, _mm512_broadcast_i32x4, _mm512_loadu_si512,
    _mm512_set_epi32, _mm512_setzero_si512, _mm512_shuffle_epi8, _mm512_storeu_si512,
    _mm512_xor_si512,
};
use core_cpu::Vaes512;
use core_cpu::VaesAvx2;
use zeroize::Zeroize;

/// Registers processed together.
const LANES: usize = 8;

/// The [`Backend`] of one VAES width: `$token` proves the features its loops need, `$regs` is
/// the module of those loops (see the module docs); CBC encryption (a serial chain) and CCM run
/// on the AES-NI loops, as do fewer than [`FEW`] blocks.
macro_rules! vaes_backend {
    ($(#[$doc:meta])* $token:ident => $variant:ident, $regs:ident) => {
        $(#[$doc])*
        impl Backend for Hw<$token> {
            fn implementation(&self) -> AesImpl {
                AesImpl::$variant(self.0)
            }

            #[inline(always)]
            fn encrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
                if blocks.len() < FEW {
                    return x86_aesni::encrypt_blocks(self.0.weaken(), &self.1, blocks);
                }
                // SAFETY: the token proves VAES, AES-NI and the register width's features.
                unsafe { $regs::crypt_blocks::<true>(&self.1, blocks) }
            }

            #[inline(always)]
            fn decrypt_blocks(&self, blocks: &mut [[u8; 16]]) {
                if blocks.len() < FEW {
                    return x86_aesni::decrypt_blocks(self.0.weaken(), &self.1, blocks);
                }
                // SAFETY: the token proves VAES, AES-NI and the register width's features.
                unsafe { $regs::crypt_blocks::<false>(&self.1, blocks) }
            }

            #[inline(always)]
            fn ctr32(&self, ctr: &mut [u8; 16], buf: &mut [u8]) {
                // SAFETY: the token proves VAES, AES-NI and the register width's features.
                unsafe { $regs::ctr32(&self.1, ctr, buf) }
            }

            #[inline(always)]
            fn cbc_encrypt_blocks(&self, iv: &mut [u8; 16], blocks: &mut [[u8; 16]]) {
                x86_aesni::cbc_encrypt(self.0.weaken(), &self.1, iv, blocks);
            }

            #[inline(always)]
            fn cbc_decrypt_blocks(&self, iv: &mut [u8; 16], blocks: &mut [[u8; 16]]) -> bool {
                if blocks.len() < FEW {
                    x86_aesni::cbc_decrypt(self.0.weaken(), &self.1, iv, blocks);
                } else {
                    // SAFETY: the token proves VAES, AES-NI and the register width's features.
                    unsafe { $regs::cbc_decrypt(&self.1, iv, blocks) }
                }
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
                x86_aesni::ccm::<ENCRYPT>(self.0.weaken(), &self.1, mac, ks, ctr, buf);
            }

            #[inline(always)]
            fn x86_enc_keys(&self) -> Option<(&[[u8; 16]; 15], usize)> {
                Some((&self.1.enc, self.1.rounds))
            }
        }
    };
}

vaes_backend! {
    /// VAES on YMM registers, two blocks per register ([`VaesAvx2`]: VAES, AES-NI and AVX2).
    VaesAvx2 => X86Vaes, ymm
}

vaes_backend! {
    /// VAES on ZMM registers, four blocks per register ([`Vaes512`]: VAES, AES-NI and AVX-512
    /// F/BW/VL/DQ).
    Vaes512 => X86Vaes512, zmm
}

/// An unaligned 16-byte load.
#[inline(always)]
fn load1(bytes: &[u8; 16]) -> __m128i {
    // SAFETY: `bytes` is 16 readable bytes and `loadu` has no alignment requirement.
    unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) }
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

/// An unaligned 64-byte load.
#[target_feature(enable = "avx512f")]
#[inline]
fn load4(bytes: &[u8; 64]) -> __m512i {
    // SAFETY: `bytes` is 64 readable bytes and `loadu` has no alignment requirement.
    unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
}

/// An unaligned 64-byte store.
#[target_feature(enable = "avx512f")]
#[inline]
fn store4(bytes: &mut [u8; 64], x: __m512i) {
    // SAFETY: `bytes` is 64 writable bytes and `storeu` has no alignment requirement.
    unsafe { _mm512_storeu_si512(bytes.as_mut_ptr().cast(), x) }
}

/// A 128-bit value in both halves of a YMM register.
#[target_feature(enable = "avx2")]
#[inline]
fn broadcast2(x: __m128i) -> __m256i {
    _mm256_broadcastsi128_si256(x)
}

/// A 128-bit value in all four lanes of a ZMM register.
#[target_feature(enable = "avx512f")]
#[inline]
fn broadcast4(x: __m128i) -> __m512i {
    _mm512_broadcast_i32x4(x)
}

/// CBC's chaining values for the two ciphertext blocks of `c`: the top block of `prev` and
/// `c`'s first block.
#[target_feature(enable = "avx2")]
#[inline]
fn chain2(c: __m256i, prev: __m256i) -> __m256i {
    _mm256_permute2x128_si256::<0x21>(prev, c)
}

/// CBC's chaining values for the four ciphertext blocks of `c`: the top block of `prev` and
/// `c`'s first three blocks.
#[target_feature(enable = "avx512f")]
#[inline]
fn chain4(c: __m512i, prev: __m512i) -> __m512i {
    _mm512_alignr_epi64::<6>(c, prev)
}

/// Byte reversal of each 128-bit lane: the big-endian counter lands in each lane's low word.
#[target_feature(enable = "sse2")]
#[inline]
fn bswap_mask() -> __m128i {
    _mm_set_epi64x(0x0001_0203_0405_0607, 0x0809_0a0b_0c0d_0e0f)
}

/// The block and CTR loops for one register width: `$vec` holding `$per` blocks (`$bytes`
/// bytes), its load, store, XOR, 32-bit add, byte shuffle, zero and 128-bit broadcast, the
/// per-lane counter offsets `$first`, CBC's `$chain` (see [`chain2`]), and the round
/// instructions `$enc`, `$enclast`, `$dec`, `$declast`, compiled with `$features`.
macro_rules! vaes_loops {
    (
        $features:literal, $vec:ty, $per:literal, $bytes:literal,
        $load:path, $store:path, $xor:path, $add:path, $shuffle:path, $zero:path,
        $broadcast:path, $first:expr, $chain:path,
        $enc:path, $enclast:path, $dec:path, $declast:path
    ) => {
        /// Each round key in every lane of a register.
        #[target_feature(enable = $features)]
        #[inline]
        fn broadcast_keys(keys: &[[u8; 16]; 15]) -> [$vec; 15] {
            keys.map(|k| $broadcast(load1(&k)))
        }

        /// Runs all rounds on `x[..n]`.
        #[target_feature(enable = $features)]
        #[inline]
        fn rounds<const ENCRYPT: bool>(
            rk: &[$vec; 15],
            nr: usize,
            x: &mut [$vec; LANES],
            n: usize,
        ) {
            for b in &mut x[..n] {
                *b = $xor(*b, rk[0]);
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
            let mut groups = blocks.chunks_exact_mut($per * LANES);
            for group in &mut groups {
                let (regs, _) = group.as_flattened_mut().as_chunks_mut::<$bytes>();
                let mut x = [$zero(); LANES];
                for (r, p) in x.iter_mut().zip(regs.iter()) {
                    *r = $load(p);
                }
                rounds::<ENCRYPT>(&rk, key.rounds, &mut x, LANES);
                for (r, p) in x.iter().zip(regs.iter_mut()) {
                    $store(p, *r);
                }
            }
            let rest = groups.into_remainder();
            if !rest.is_empty() {
                let mut tmp = [[0u8; $bytes]; LANES];
                tmp.as_flattened_mut()[..16 * rest.len()].copy_from_slice(rest.as_flattened());
                let n = rest.len().div_ceil($per);
                let mut x = [$zero(); LANES];
                for (r, p) in x.iter_mut().zip(&tmp).take(n) {
                    *r = $load(p);
                }
                rounds::<ENCRYPT>(&rk, key.rounds, &mut x, n);
                for (r, p) in x.iter().zip(tmp.iter_mut()).take(n) {
                    $store(p, *r);
                }
                let len = 16 * rest.len();
                rest.as_flattened_mut().copy_from_slice(&tmp.as_flattened()[..len]);
                tmp[..n].as_flattened_mut().zeroize();
            }
        }

        /// CBC decryption: every block's `aesdec` rounds are independent, so whole registers
        /// of ciphertext run side by side; each register's chaining values are the ciphertext
        /// shifted by one block (`$chain`), the first taken from the register before. Fewer
        /// blocks than fill a register go through AES-NI.
        #[target_feature(enable = $features)]
        pub(super) fn cbc_decrypt(key: &HwKey, iv: &mut [u8; 16], blocks: &mut [[u8; 16]]) {
            let rk = broadcast_keys(&key.dec);
            let whole = blocks.len() / $per * $per;
            let (wide, tail) = blocks.split_at_mut(whole);
            // The top lane of `prev` is the ciphertext block before the next register.
            let mut prev = $broadcast(load1(iv));
            if let Some(last) = wide.last() {
                *iv = *last;
            }
            let (regs, _) = wide.as_flattened_mut().as_chunks_mut::<$bytes>();
            for group in regs.chunks_mut(LANES) {
                let n = group.len();
                let mut c = [$zero(); LANES];
                for (r, p) in c.iter_mut().zip(group.iter()) {
                    *r = $load(p);
                }
                let mut x = c;
                if n == LANES {
                    rounds::<false>(&rk, key.rounds, &mut x, LANES);
                } else {
                    rounds::<false>(&rk, key.rounds, &mut x, n);
                }
                for (i, p) in group.iter_mut().enumerate() {
                    let before = if i == 0 { prev } else { c[i - 1] };
                    $store(p, $xor(x[i], $chain(c[i], before)));
                }
                prev = c[n - 1];
            }
            // Every feature set here includes AES-NI, SSE2 and SSSE3, so the call is safe.
            crate::aes::x86_aesni::cbc_decrypt_ni(key, iv, tail);
        }

        #[target_feature(enable = $features)]
        pub(super) fn ctr32(key: &HwKey, ctr: &mut [u8; 16], buf: &mut [u8]) {
            let rk = broadcast_keys(&key.enc);
            let start = counter(ctr);
            let bswap = $broadcast(bswap_mask());
            let step = $broadcast(_mm_set_epi32(0, 0, 0, $per));
            let mut c = $add($shuffle($broadcast(load1(ctr)), bswap), $first);

            let mut chunks = buf.chunks_exact_mut($bytes * LANES);
            for chunk in &mut chunks {
                let mut x = [$zero(); LANES];
                for b in &mut x {
                    *b = $shuffle(c, bswap);
                    c = $add(c, step);
                }
                rounds::<true>(&rk, key.rounds, &mut x, LANES);
                let (regs, _) = chunk.as_chunks_mut::<$bytes>();
                for (p, ks) in regs.iter_mut().zip(&x) {
                    $store(p, $xor($load(p), *ks));
                }
            }
            let rest = chunks.into_remainder();
            if !rest.is_empty() {
                let n = rest.len().div_ceil($bytes);
                let mut x = [$zero(); LANES];
                for b in &mut x[..n] {
                    *b = $shuffle(c, bswap);
                    c = $add(c, step);
                }
                rounds::<true>(&rk, key.rounds, &mut x, n);
                let (regs, partial) = rest.as_chunks_mut::<$bytes>();
                for (p, ks) in regs.iter_mut().zip(&x) {
                    $store(p, $xor($load(p), *ks));
                }
                if !partial.is_empty() {
                    let mut last = [0u8; $bytes];
                    last[..partial.len()].copy_from_slice(partial);
                    let v = $xor($load(&last), x[regs.len()]);
                    $store(&mut last, v);
                    partial.copy_from_slice(&last[..partial.len()]);
                    last.zeroize();
                }
            }
            set_counter(ctr, start.wrapping_add(buf.len().div_ceil(16) as u32));
        }
    };
}

/// The YMM loops' parameters, for a given set of round instructions.
macro_rules! ymm_loops {
    ($features:literal, $enc:path, $enclast:path, $dec:path, $declast:path) => {
        vaes_loops!(
            $features,
            __m256i,
            2,
            32,
            load2,
            store2,
            _mm256_xor_si256,
            _mm256_add_epi32,
            _mm256_shuffle_epi8,
            _mm256_setzero_si256,
            broadcast2,
            _mm256_set_epi32(0, 0, 0, 1, 0, 0, 0, 0),
            chain2,
            $enc,
            $enclast,
            $dec,
            $declast
        );
    };
}

/// The ZMM loops' parameters, for a given set of round instructions.
macro_rules! zmm_loops {
    ($features:literal, $enc:path, $enclast:path, $dec:path, $declast:path) => {
        vaes_loops!(
            $features,
            __m512i,
            4,
            64,
            load4,
            store4,
            _mm512_xor_si512,
            _mm512_add_epi32,
            _mm512_shuffle_epi8,
            _mm512_setzero_si512,
            broadcast4,
            _mm512_set_epi32(0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0),
            chain4,
            $enc,
            $enclast,
            $dec,
            $declast
        );
    };
}

// The macros' bodies name most of the parent's imports.
#[allow(clippy::wildcard_imports)]
mod ymm {
    use super::*;
    use core::arch::x86_64::{
        _mm256_aesdec_epi128, _mm256_aesdeclast_epi128, _mm256_aesenc_epi128,
        _mm256_aesenclast_epi128,
    };
    ymm_loops!(
        "avx2,vaes",
        _mm256_aesenc_epi128,
        _mm256_aesenclast_epi128,
        _mm256_aesdec_epi128,
        _mm256_aesdeclast_epi128
    );
}

#[allow(clippy::wildcard_imports)]
mod zmm {
    use super::*;
    use core::arch::x86_64::{
        _mm512_aesdec_epi128, _mm512_aesdeclast_epi128, _mm512_aesenc_epi128,
        _mm512_aesenclast_epi128,
    };
    zmm_loops!(
        "avx512f,avx512bw,vaes",
        _mm512_aesenc_epi128,
        _mm512_aesenclast_epi128,
        _mm512_aesdec_epi128,
        _mm512_aesdeclast_epi128
    );
}

#[cfg(test)]
mod tests {
    use super::super::{Aes, AesImpl, HwKey, RoundKeys};
    use super::*;
    use core::arch::x86_64::{
        _mm_aesdec_si128, _mm_aesdeclast_si128, _mm_aesenc_si128, _mm_aesenclast_si128,
        _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_set_m128i,
        _mm512_extracti32x4_epi32, _mm512_inserti32x4,
    };

    /// A YMM VAES instruction as the SDM defines it: the 128-bit one on each half.
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

    /// A ZMM VAES instruction as the SDM defines it: the 128-bit one on each lane.
    macro_rules! per_lane {
        ($name:ident, $one:path) => {
            #[target_feature(enable = "avx512f,aes")]
            #[inline]
            fn $name(a: __m512i, k: __m512i) -> __m512i {
                let lane0 =
                    $one(_mm512_extracti32x4_epi32::<0>(a), _mm512_extracti32x4_epi32::<0>(k));
                let lane1 =
                    $one(_mm512_extracti32x4_epi32::<1>(a), _mm512_extracti32x4_epi32::<1>(k));
                let lane2 =
                    $one(_mm512_extracti32x4_epi32::<2>(a), _mm512_extracti32x4_epi32::<2>(k));
                let lane3 =
                    $one(_mm512_extracti32x4_epi32::<3>(a), _mm512_extracti32x4_epi32::<3>(k));
                let r = _mm512_inserti32x4::<0>(a, lane0);
                let r = _mm512_inserti32x4::<1>(r, lane1);
                let r = _mm512_inserti32x4::<2>(r, lane2);
                _mm512_inserti32x4::<3>(r, lane3)
            }
        };
    }

    #[allow(clippy::wildcard_imports)]
    mod ymm_model {
        use super::*;
        per_half!(enc, _mm_aesenc_si128);
        per_half!(enclast, _mm_aesenclast_si128);
        per_half!(dec, _mm_aesdec_si128);
        per_half!(declast, _mm_aesdeclast_si128);
        ymm_loops!("avx2,aes", enc, enclast, dec, declast);
    }

    #[allow(clippy::wildcard_imports)]
    mod zmm_model {
        use super::*;
        per_lane!(enc, _mm_aesenc_si128);
        per_lane!(enclast, _mm_aesenclast_si128);
        per_lane!(dec, _mm_aesdec_si128);
        per_lane!(declast, _mm_aesdeclast_si128);
        zmm_loops!("avx512f,avx512bw,aes", enc, enclast, dec, declast);
    }

    /// Runs `ctr` and `crypt` (encrypt, then decrypt) against AES-NI on every length up to
    /// three batches of the widest loop, all key sizes, and a counter that wraps.
    fn check_against_aesni(
        name: &str,
        ctr32: unsafe fn(&HwKey, &mut [u8; 16], &mut [u8]),
        encrypt: unsafe fn(&HwKey, &mut [[u8; 16]]),
        decrypt: unsafe fn(&HwKey, &mut [[u8; 16]]),
        cbc_decrypt: unsafe fn(&HwKey, &mut [u8; 16], &mut [[u8; 16]]),
    ) {
        let aes = core_cpu::Aes::get().expect("callers check AES-NI");
        for key_len in [16usize, 24, 32] {
            let key: std::vec::Vec<u8> = (0..key_len).map(|i| (i * 29) as u8).collect();
            let hw = HwKey::new(&RoundKeys::expand(&key).unwrap());
            let reference = Aes::with_impl(AesImpl::X86Aesni(aes), &key).unwrap();
            for len in 0usize..=3 * 512 + 17 {
                let data: std::vec::Vec<u8> = (0..len).map(|i| (i * 7 + len) as u8).collect();
                let mut ctr = [0x5au8; 16];
                ctr[12..].copy_from_slice(&0xffff_fff9u32.to_be_bytes());
                let (mut want, mut want_ctr) = (data.clone(), ctr);
                reference.ctr32(&mut want_ctr, &mut want);
                let (mut got, mut got_ctr) = (data.clone(), ctr);
                // SAFETY: the caller checked the model's features.
                unsafe { ctr32(&hw, &mut got_ctr, &mut got) };
                assert_eq!(got, want, "{name} CTR, AES-{}, {len} bytes", 8 * key_len);
                assert_eq!(got_ctr, want_ctr);

                let (blocks, _) = data.as_chunks::<16>();
                let mut want = blocks.to_vec();
                reference.encrypt_blocks(&mut want);
                let mut got = blocks.to_vec();
                // SAFETY: as above.
                unsafe { encrypt(&hw, &mut got) };
                assert_eq!(
                    got,
                    want,
                    "{name} encrypt, AES-{}, {} blocks",
                    8 * key_len,
                    blocks.len()
                );
                // SAFETY: as above.
                unsafe { decrypt(&hw, &mut got) };
                assert_eq!(
                    got,
                    blocks,
                    "{name} decrypt, AES-{}, {} blocks",
                    8 * key_len,
                    blocks.len()
                );

                let (mut want, mut want_iv) = (blocks.to_vec(), [0xa5u8; 16]);
                reference.cbc_decrypt(&mut want_iv, want.as_flattened_mut()).unwrap();
                let (mut got, mut got_iv) = (blocks.to_vec(), [0xa5u8; 16]);
                // SAFETY: as above.
                unsafe { cbc_decrypt(&hw, &mut got_iv, &mut got) };
                assert_eq!(got, want, "{name} CBC decrypt, AES-{}, {len} bytes", 8 * key_len);
                assert_eq!(got_iv, want_iv, "{name} CBC chain, AES-{}", 8 * key_len);
            }
        }
    }

    /// The YMM loops over the model agree with AES-NI.
    #[test]
    fn ymm_loops_over_a_model_of_vaes_match_aesni() {
        if core_cpu::Avx2::get().is_none() || core_cpu::Aes::get().is_none() {
            std::println!("x86_vaes model: needs AVX2 and AES-NI; not checked");
            return;
        }
        check_against_aesni(
            "ymm",
            ymm_model::ctr32,
            ymm_model::crypt_blocks::<true>,
            ymm_model::crypt_blocks::<false>,
            ymm_model::cbc_decrypt,
        );
    }

    /// The ZMM loops over the model agree with AES-NI.
    #[test]
    fn zmm_loops_over_a_model_of_vaes_match_aesni() {
        if core_cpu::Avx512::get().is_none() || core_cpu::Aes::get().is_none() {
            std::println!("x86_vaes512 model: needs AVX-512 and AES-NI; not checked");
            return;
        }
        check_against_aesni(
            "zmm",
            zmm_model::ctr32,
            zmm_model::crypt_blocks::<true>,
            zmm_model::crypt_blocks::<false>,
            zmm_model::cbc_decrypt,
        );
    }
}
