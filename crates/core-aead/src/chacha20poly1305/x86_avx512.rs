//! ChaCha20-Poly1305 for short messages (up to [`MAX_LEN`] bytes) on `x86_64` with AVX-512VL
//! and BMI2, in one function per direction. The Poly1305 key block and the message's blocks
//! come out of one row-layout ChaCha20 pass (two or four blocks in YMM registers); the one-time
//! key goes from its register straight into Poly1305's radix-2^64 state, the message is XOR-ed
//! with byte-masked loads and stores, and Poly1305's partial blocks are read the same way. A
//! record this short is bound by the latency of the twenty rounds; this path adds to it as
//! little as it can: none of the general keystream loop's set-up, a ChaCha20 state put
//! together in registers from the key and the caller's nonce bytes (never stored and reloaded),
//! no one-time key through memory, and on opening no stack copy (the keystream waits in registers until the tag checks).

use super::Nonce;
use crate::Error;
use crate::chacha20::x86_avx512::{key_and_block, key_and_blocks, row_blocks, xor_halves};
use crate::poly1305::portable_r64::State;
use core::arch::x86_64::{
    __m128i, __m256i, _mm_bslli_si128, _mm_cvtsi128_si64, _mm_extract_epi64, _mm_loadl_epi64,
    _mm_maskz_loadu_epi8, _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_setzero_si256,
};
use core_cpu::Avx512;
use zeroize::Zeroize;

/// The longest message this path takes: three blocks, which with the key block fill a
/// four-block pass.
pub(crate) const MAX_LEN: usize = 192;

/// Seals `buf` (at most [`MAX_LEN`] bytes) in place under the ChaCha20 state `state` (block
/// counter 0) and returns the tag (RFC 8439 §2.8).
pub(crate) fn seal(
    token: Avx512,
    key: &[u32; 8],
    nonce: Nonce<'_>,
    aad: &[u8],
    buf: &mut [u8],
) -> [u8; 16] {
    // SAFETY: the `Avx512` token proves AVX-512 F, VL, BW with AVX2, BMI1 and BMI2.
    unsafe { seal_avx512(token, key, nonce, aad, buf) }
}

/// Opens `buf` (at most [`MAX_LEN`] bytes) in place if `tag` is right; otherwise zeroes it.
pub(crate) fn open(
    token: Avx512,
    key: &[u32; 8],
    nonce: Nonce<'_>,
    aad: &[u8],
    buf: &mut [u8],
    tag: &[u8; 16],
) -> Result<(), Error> {
    // SAFETY: the `Avx512` token proves AVX-512 F, VL, BW with AVX2, BMI1 and BMI2.
    unsafe { open_avx512(token, key, nonce, aad, buf, tag) }
}

#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx2,bmi2")]
fn seal_avx512(
    token: Avx512,
    key: &[u32; 8],
    nonce: Nonce<'_>,
    aad: &[u8],
    buf: &mut [u8],
) -> [u8; 16] {
    let chacha_key = key;
    let mut key = [0; 4];
    if buf.len() <= 64 {
        key = gpr_key(chacha_key, nonce, |lo, hi| xor_block(buf, 0, lo, hi));
    } else if buf.len() <= 128 {
        key = gpr_keys(chacha_key, nonce, |b, lo, hi| xor_block(buf, 64 * b, lo, hi));
    } else {
        keystream(token, chacha_key, nonce, |b, lo, hi| {
            if b == 0 {
                key = key_words(lo);
            } else {
                xor_block(buf, 64 * (b - 1), lo, hi);
            }
        });
    }
    let tag = tag(&key, aad, buf);
    key.zeroize();
    tag
}

#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx2,bmi2")]
fn open_avx512(
    token: Avx512,
    key: &[u32; 8],
    nonce: Nonce<'_>,
    aad: &[u8],
    buf: &mut [u8],
    tag: &[u8; 16],
) -> Result<(), Error> {
    let chacha_key = key;
    let mut key = [0; 4];
    let mut ks = [[_mm256_setzero_si256(); 2]; 3];
    if buf.len() <= 64 {
        key = gpr_key(chacha_key, nonce, |lo, hi| ks[0] = [lo, hi]);
    } else if buf.len() <= 128 {
        key = gpr_keys(chacha_key, nonce, |b, lo, hi| {
            if let Some(k) = ks.get_mut(b) {
                *k = [lo, hi];
            }
        });
    } else {
        keystream(token, chacha_key, nonce, |b, lo, hi| {
            if b == 0 {
                key = key_words(lo);
            } else if let Some(k) = ks.get_mut(b - 1) {
                *k = [lo, hi];
            }
        });
    }
    let mut ours = self::tag(&key, aad, buf);
    key.zeroize();
    let ok = crate::tag_eq(&ours, tag);
    ours.zeroize();
    let result = if ok {
        for (b, [lo, hi]) in ks.iter().enumerate() {
            xor_block(buf, 64 * b, *lo, *hi);
        }
        Ok(())
    } else {
        buf.fill(0);
        Err(Error::AuthenticationFailed)
    };
    ks = [[_mm256_setzero_si256(); 2]; 3];
    zeroize::optimization_barrier(&ks);
    result
}

/// The key block and three message blocks: one pass of four blocks.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx2")]
fn keystream(
    token: Avx512,
    key: &[u32; 8],
    nonce: Nonce<'_>,
    emit: impl FnMut(usize, __m256i, __m256i),
) {
    row_blocks::<2>(token, key, nonce_row(nonce), emit);
}

/// For messages of one block: that block's keystream to `emit` and the one-time key as four
/// little-endian words, the key block computed in general-purpose registers beside the
/// message block's vector rounds ([`key_and_block`]), so Poly1305 can start before the
/// message block is done.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx2")]
fn gpr_key(key: &[u32; 8], nonce: Nonce<'_>, emit: impl FnOnce(__m256i, __m256i)) -> [u64; 4] {
    let k = key_and_block(key, &nonce.words(), nonce_row(nonce), emit);
    core::array::from_fn(|i| u64::from(k[2 * i]) | (u64::from(k[2 * i + 1]) << 32))
}

/// [`gpr_key`] for two message blocks, in YMM registers ([`key_and_blocks`]), to `emit` with
/// their index in the message. (For three, the vector pass of four blocks with the key block
/// measured faster.)
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx2")]
fn gpr_keys(
    key: &[u32; 8],
    nonce: Nonce<'_>,
    emit: impl FnMut(usize, __m256i, __m256i),
) -> [u64; 4] {
    let k = key_and_blocks(key, &nonce.words(), nonce_row(nonce), emit);
    core::array::from_fn(|i| u64::from(k[2 * i]) | (u64::from(k[2 * i + 1]) << 32))
}

/// State words 12–15 with the counter word 0, loaded straight from the caller's nonce bytes.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx2")]
fn nonce_row(nonce: Nonce<'_>) -> __m128i {
    // SAFETY: the first load's mask selects the nonce's 12 bytes (masked-off bytes are not
    // read, AVX-512BW suppresses their faults); the second reads the 8 bytes of `n`.
    unsafe {
        match nonce {
            Nonce::Full(n) => _mm_bslli_si128::<4>(_mm_maskz_loadu_epi8(0x0fff, n.as_ptr().cast())),
            Nonce::ZeroThen(n) => _mm_bslli_si128::<8>(_mm_loadl_epi64(n.as_ptr().cast())),
        }
    }
}

/// The one-time key `r || s` (the key block's first 32 bytes) as four little-endian words.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx2")]
fn key_words(lo: __m256i) -> [u64; 4] {
    let r = _mm256_castsi256_si128(lo);
    let s = _mm256_extracti128_si256::<1>(lo);
    [
        _mm_cvtsi128_si64(r),
        _mm_extract_epi64::<1>(r),
        _mm_cvtsi128_si64(s),
        _mm_extract_epi64::<1>(s),
    ]
    .map(i64::cast_unsigned)
}

/// XORs a keystream block (two halves) into `buf` at byte `at`, as far as `buf` goes.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx2")]
fn xor_block(buf: &mut [u8], at: usize, lo: __m256i, hi: __m256i) {
    if let Some(rest) = buf.get_mut(at..) {
        xor_halves(rest, lo, hi);
    }
}

/// The two little-endian words of `tail` (under 16 bytes) padded with zeros, read with one
/// byte-masked load.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx2")]
fn partial_words(tail: &[u8]) -> (u64, u64) {
    let mask = (1u16 << tail.len()) - 1;
    // SAFETY: `tail` is under 16 bytes and the mask selects exactly its bytes; masked-off bytes
    // are not read (AVX-512BW suppresses their faults).
    let v = unsafe { _mm_maskz_loadu_epi8(mask, tail.as_ptr().cast()) };
    (_mm_cvtsi128_si64(v).cast_unsigned(), _mm_extract_epi64::<1>(v).cast_unsigned())
}

/// The tag over `aad` and `ciphertext` under the one-time key `key` (RFC 8439 §2.8), on
/// `portable_r64` compiled with BMI2.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx2,bmi2")]
fn tag(key: &[u64; 4], aad: &[u8], ciphertext: &[u8]) -> [u8; 16] {
    let mut st = State::from_words(*key);
    for part in [aad, ciphertext] {
        let (whole, tail) = part.split_at(part.len() & !15);
        st.blocks(whole, true);
        if !tail.is_empty() {
            let (w0, w1) = partial_words(tail);
            st.block_words(w0, w1, true);
        }
    }
    st.block_words(aad.len() as u64, ciphertext.len() as u64, true);
    let tag = st.finish();
    st.zeroize();
    tag
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chacha20::{self, ChaCha20Impl};
    use crate::poly1305::Poly1305Impl;
    use crate::{Aead, ChaCha20Poly1305, Implementation};

    /// Every length this path takes, around each block edge, with and without AAD (and AAD
    /// around its own block edge): the same ciphertext and tag as the general composition on
    /// the portable backends, opening restores the message, and a changed tag is refused with
    /// the buffer zeroed.
    #[test]
    fn matches_the_general_path_at_every_length() {
        let Some(token) = Avx512::get() else {
            std::println!("x86_avx512 short path: AVX-512 unavailable, not tested");
            return;
        };
        let key: [u8; 32] = core::array::from_fn(|i| (i as u8).wrapping_mul(29) ^ 0x5c);
        let nonce = [0x24, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8];
        let reference =
            ChaCha20Poly1305::with_impls(&key, ChaCha20Impl::Portable, Poly1305Impl::Portable64)
                .unwrap();
        let key_words = chacha20::words(&key);
        let nonce_words = Nonce::Full(&nonce);
        // XChaCha20's form of the same nonce: four zero bytes, then eight.
        let zero_nonce = [0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8];
        let tail = [1, 2, 3, 4, 5, 6, 7, 8];
        let data: std::vec::Vec<u8> = (0..MAX_LEN).map(|i| (i * 7 + 3) as u8).collect();
        for len in 0..=MAX_LEN {
            for aad_len in [0, 1, 13, 15, 16, 17, 33] {
                let aad = &data[..aad_len];
                let mut want = data[..len].to_vec();
                let want_tag = reference.seal_in_place_detached(&nonce, aad, &mut want).unwrap();
                let mut got = data[..len].to_vec();
                let tag = seal(token, &key_words, nonce_words, aad, &mut got);
                let mut zero_full = data[..len].to_vec();
                let mut zero_then = data[..len].to_vec();
                assert_eq!(
                    seal(token, &key_words, Nonce::Full(&zero_nonce), aad, &mut zero_full),
                    seal(token, &key_words, Nonce::ZeroThen(&tail), aad, &mut zero_then),
                    "zero-prefixed nonce {len}"
                );
                assert_eq!(zero_full, zero_then, "zero-prefixed nonce {len}");
                assert_eq!((&got, tag), (&want, want_tag), "seal {len}, aad {aad_len}");
                assert_eq!(
                    open(token, &key_words, nonce_words, aad, &mut got, &tag),
                    Ok(()),
                    "open {len}"
                );
                assert_eq!(got, &data[..len], "open {len}, aad {aad_len}");
                let mut bad = tag;
                bad[len % 16] ^= 1 << (len % 8);
                assert_eq!(
                    open(token, &key_words, nonce_words, aad, &mut want, &bad),
                    Err(Error::AuthenticationFailed),
                    "forged {len}"
                );
                assert!(want.iter().all(|&b| b == 0), "forged {len} zeroed");
            }
        }
    }

    /// The key block in general-purpose registers and the message blocks beside it (one in
    /// XMM, two in YMM) are those of the four-block vector pass, for both nonce forms.
    #[test]
    fn gpr_key_block_matches_the_vector_pass() {
        let Some(token) = Avx512::get() else { return };
        let key: [u32; 8] = core::array::from_fn(|i| (i as u32).wrapping_mul(0x9e37_79b9) ^ 0x5c);
        let full = [9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0xff, 0x80];
        let tail = [0xfe, 1, 2, 3, 4, 5, 6, 0x81];
        for nonce in [Nonce::Full(&full), Nonce::ZeroThen(&tail)] {
            let mut want = std::vec::Vec::new();
            // SAFETY: the token proves the features.
            unsafe {
                keystream(token, &key, nonce, |_, lo, hi| {
                    let mut b = [0u8; 64];
                    xor_halves(&mut b, lo, hi);
                    want.push(b);
                });
            }
            let mut block = [0u8; 64];
            // SAFETY: as above.
            let otk = unsafe { gpr_key(&key, nonce, |lo, hi| xor_halves(&mut block, lo, hi)) };
            let otk: std::vec::Vec<u8> = otk.iter().flat_map(|w| w.to_le_bytes()).collect();
            assert_eq!(otk, want[0][..32]);
            assert_eq!(block, want[1]);
            let mut blocks = [[0u8; 64]; 2];
            // SAFETY: as above.
            let otk =
                unsafe { gpr_keys(&key, nonce, |b, lo, hi| xor_halves(&mut blocks[b], lo, hi)) };
            let otk: std::vec::Vec<u8> = otk.iter().flat_map(|w| w.to_le_bytes()).collect();
            assert_eq!(otk, want[0][..32]);
            assert_eq!(blocks, want[1..3]);
        }
    }

    /// The AEAD takes this path exactly when the key runs on AVX-512 ChaCha20 and a Poly1305
    /// whose short inputs go to `portable_r64`.
    #[test]
    fn chosen_for_the_right_pairings() {
        for c in ChaCha20Impl::available() {
            for p in Poly1305Impl::available() {
                let a = ChaCha20Poly1305::with_impls(&[1; 32], c, p).unwrap();
                let want = matches!(c, ChaCha20Impl::X86Avx512(_))
                    && !matches!(p, Poly1305Impl::Portable32 | Poly1305Impl::Portable64);
                assert_eq!(a.0.short.is_some(), want, "{} + {}", c.name(), p.name());
            }
        }
    }
}
