//! ChaCha20-Poly1305 sealing of long messages on `x86_64` with AVX-512 and IFMA, stitched: the
//! ChaCha20 passes (32 blocks, then 16) and the IFMA Poly1305 of the ciphertext already written
//! run in one loop, a 256-byte pair of Poly1305 groups after each double round. A double round
//! is a dependency chain of two-cycle vector operations (on AMD Zen 5) that leaves vector ports
//! idle, so the multiplications run in its shadow instead of in a second pass afterwards (the
//! "function stitching" of the AES-GCM backends).
//!
//! Pass 0 (the Poly1305 key block and the first 960 bytes) takes the ordinary keystream path,
//! then each pass hashes the pairs below the bytes it writes; what follows the last whole
//! pass, and the pairs the passes did not reach, take the ordinary paths.

use crate::chacha20::{self, ChaCha20Impl, wipe, x86_avx512::blocks_with};
use crate::poly1305::portable_r64::{State, partial_words};
use crate::poly1305::x86_ifma::{self, Lanes};
use core::arch::x86_64::{__m512i, _mm512_loadu_si512, _mm512_storeu_si512, _mm512_xor_si512};
use core_cpu::{Avx512, Avx512Ifma};
use zeroize::Zeroize;

/// The shortest message this path takes: pass 0 and two stitched passes.
pub(crate) const MIN_LEN: usize = 960 + 2 * 1024;

/// Seals `buf` (at least [`MIN_LEN`] bytes, at most the AEAD's limit) in place under `key` and
/// `nonce` and returns the tag (RFC 8439 §2.8).
pub(crate) fn seal(
    chacha: Avx512,
    poly: Avx512Ifma,
    key: &[u32; 8],
    nonce: &[u32; 3],
    aad: &[u8],
    buf: &mut [u8],
) -> [u8; 16] {
    // SAFETY: the tokens prove AVX-512 F, VL, BW with AVX2 and BMI2, and AVX-512 IFMA.
    unsafe { seal_stitched(chacha, poly, key, nonce, aad, buf) }
}

#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512ifma,avx2,bmi2")]
fn seal_stitched(
    chacha: Avx512,
    poly: Avx512Ifma,
    key: &[u32; 8],
    nonce: &[u32; 3],
    aad: &[u8],
    buf: &mut [u8],
) -> [u8; 16] {
    let mut state = chacha20::state(key, 0, nonce);
    let mut otk = [0; 32];
    ChaCha20Impl::X86Avx512(chacha).key_then_xor(&state, &mut otk, &mut buf[..960]);
    let mut st = State::new(&otk);
    wipe(&mut otk);
    let (whole, tail) = aad.split_at(aad.len() & !15);
    x86_ifma::scalar_bmi2(&mut st, whole);
    if !tail.is_empty() {
        let (w0, w1) = partial_words(tail);
        st.block_words(w0, w1, true);
    }

    let mut lanes = Lanes::start(poly, &st, at(buf, 0));
    let mut next = 1;
    // The ciphertext offset and counter of the next block.
    let mut pos = 960;
    let mut counter = 16;
    while buf.len() - pos >= 2048 {
        pass::<2>(&state, counter, buf, pos, &mut lanes, &mut next);
        pos += 2048;
        counter += 32;
    }
    if buf.len() - pos >= 1024 {
        pass::<1>(&state, counter, buf, pos, &mut lanes, &mut next);
        pos += 1024;
        counter += 16;
    }
    if pos < buf.len() {
        state[12] = counter;
        ChaCha20Impl::X86Avx512(chacha).xor_keystream(&state, &mut buf[pos..]);
    }
    wipe(&mut state);
    // The whole pairs left go through the same lanes, so no second set-up of the powers.
    while 256 * (next + 1) <= buf.len() {
        lanes.absorb(at(buf, next));
        next += 1;
    }
    lanes.finish(&mut st);
    let (whole, tail) = buf[256 * next..].split_at((buf.len() - 256 * next) & !15);
    x86_ifma::blocks(poly, &mut st, whole);
    if !tail.is_empty() {
        let (w0, w1) = partial_words(tail);
        st.block_words(w0, w1, true);
    }
    st.block_words(aad.len() as u64, buf.len() as u64, true);
    let tag = st.finish();
    st.zeroize();
    tag
}

/// One pass of `16 * S` blocks from block `counter`, XOR-ed into `buf` at `pos`, with the
/// pairs of ciphertext below `pos` that `lanes` has not had yet absorbed between its double
/// rounds (one after each, at most ten). `counter` fits: the AEAD's length limit.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma,avx2")]
fn pass<const S: usize>(
    state: &[u32; 16],
    counter: u32,
    buf: &mut [u8],
    pos: usize,
    lanes: &mut Lanes,
    next: &mut usize,
) {
    let (done, todo) = buf.split_at_mut(pos);
    let ready = done.len() / 256;
    let out = &mut todo[..1024 * S];
    blocks_with::<S>(
        state,
        counter,
        |b, ks| xor_block(out, b, ks),
        |_| {
            if *next < ready {
                lanes.absorb(at(done, *next));
                *next += 1;
            }
        },
    );
}

/// Pair `k` (bytes `256k .. 256k + 256`) of `buf`.
#[inline(always)]
fn at(buf: &[u8], k: usize) -> &[u8; 256] {
    buf[256 * k..256 * (k + 1)].try_into().unwrap_or_else(|_| unreachable!())
}

/// XORs keystream block `b` into `out`.
#[inline]
#[target_feature(enable = "avx512f")]
fn xor_block(out: &mut [u8], b: usize, ks: __m512i) {
    let block: &mut [u8; 64] =
        (&mut out[64 * b..64 * b + 64]).try_into().unwrap_or_else(|_| unreachable!());
    // SAFETY: `block` is 64 bytes; an unaligned load and store.
    unsafe {
        let p = block.as_mut_ptr();
        _mm512_storeu_si512(p.cast(), _mm512_xor_si512(_mm512_loadu_si512(p.cast()), ks));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poly1305::Poly1305Impl;
    use crate::{Aead, ChaCha20Poly1305};

    /// Lengths around every edge this path has (its minimum, whole passes, what follows the
    /// last pass, partial blocks), with AAD of several lengths: the same ciphertext and tag
    /// as the general composition on the portable backends.
    #[test]
    fn matches_the_general_path() {
        let (Some(chacha), Some(poly)) = (Avx512::get(), Avx512Ifma::get()) else {
            std::println!("stitched ChaCha20-Poly1305: AVX-512 IFMA unavailable, not tested");
            return;
        };
        let key: [u8; 32] = core::array::from_fn(|i| (i as u8).wrapping_mul(41) ^ 0x3a);
        let nonce = [9, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8];
        let reference =
            ChaCha20Poly1305::with_impls(&key, ChaCha20Impl::Portable, Poly1305Impl::PortableR64)
                .unwrap();
        let data: std::vec::Vec<u8> = (0..20000usize).map(|i| (i * 13 + 5) as u8).collect();
        let mut lens: std::vec::Vec<usize> = (MIN_LEN..MIN_LEN + 300).collect();
        for base in [4 * 1024 - 64, 4 * 1024, 5 * 1024 - 64, 16 * 1024 - 64, 16 * 1024] {
            lens.extend(base - 17..base + 20);
        }
        lens.push(20000);
        for len in lens {
            for aad_len in [0, 13, 16, 31] {
                let aad = &data[..aad_len];
                let mut want = data[..len].to_vec();
                let want_tag = reference.seal_in_place_detached(&nonce, aad, &mut want).unwrap();
                let mut got = data[..len].to_vec();
                let tag = seal(
                    chacha,
                    poly,
                    &chacha20::words(&key),
                    &chacha20::words(&nonce),
                    aad,
                    &mut got,
                );
                assert!(got == want && tag == want_tag, "seal {len}, aad {aad_len}");
            }
        }
    }
}
