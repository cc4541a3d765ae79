//! ChaCha20 for `x86_64` with AVX2. Long inputs go eight blocks per pass: each YMM register
//! holds one state word of eight consecutive blocks (the counter word differs by lane), the
//! rounds run on whole registers, and an 8×8 transpose per half-block turns the words back
//! into keystream blocks. 16- and 8-bit rotations are byte shuffles, 12- and 7-bit ones
//! shift pairs. Tails of up to four blocks use the row layout instead, two blocks per register,
//! so short messages do not pay for eight. Only a partial last block goes through the stack.

use super::Sink;
use core::arch::x86_64::{
    __m256i, _mm_loadu_si128, _mm256_add_epi32, _mm256_blend_epi32, _mm256_broadcastsi128_si256,
    _mm256_loadu_si256, _mm256_or_si256, _mm256_permute2x128_si256, _mm256_set1_epi32,
    _mm256_setr_epi32, _mm256_shuffle_epi32, _mm256_slli_epi32, _mm256_srli_epi32,
    _mm256_storeu_si256, _mm256_unpackhi_epi32, _mm256_unpackhi_epi64, _mm256_unpacklo_epi32,
    _mm256_unpacklo_epi64, _mm256_xor_si256,
};
use core_cpu::Avx2;

/// Writes the keystream of blocks `state[12]`, `state[12] + 1`, … to `out`.
pub(super) fn keystream(token: Avx2, state: &[u32; 16], out: Sink<'_>) {
    // SAFETY: the `Avx2` token proves AVX2 was detected.
    unsafe { keystream_avx2(token, state, out) }
}

#[target_feature(enable = "avx2")]
fn keystream_avx2(_: Avx2, state: &[u32; 16], mut out: Sink<'_>) {
    ymm_passes(state, state[12], &mut out);
}

super::x86_ymm::ymm_passes!(features: "avx2", quarter: quarter, write: write_block);

/// Sends 64 bytes of keystream (two halves) to where `out` wants the block starting at `at`:
/// the key, a whole block of the buffer, a partial last block (through the stack), or nowhere.
#[inline]
#[target_feature(enable = "avx2")]
fn write_block(out: &mut Sink<'_>, at: isize, lo: __m256i, hi: __m256i) {
    if at < 0 {
        if let Some(key) = out.key.as_deref_mut() {
            // SAFETY: `key` is 32 bytes; an unaligned 32-byte store.
            unsafe { _mm256_storeu_si256(key.as_mut_ptr().cast(), lo) };
        }
        return;
    }
    let at = at.cast_unsigned();
    let Some(rest) = out.buf.get_mut(at..) else { return };
    if let Some(block) = rest.first_chunk_mut::<64>() {
        // SAFETY: `block` is 64 bytes; unaligned loads and stores of its two halves.
        unsafe {
            let p = block.as_mut_ptr().cast::<__m256i>();
            _mm256_storeu_si256(p, _mm256_xor_si256(_mm256_loadu_si256(p), lo));
            _mm256_storeu_si256(p.add(1), _mm256_xor_si256(_mm256_loadu_si256(p.add(1)), hi));
        }
    } else if !rest.is_empty() {
        let mut ks = [0u8; 64];
        // SAFETY: `ks` is 64 bytes; two unaligned 32-byte stores.
        unsafe {
            _mm256_storeu_si256(ks.as_mut_ptr().cast(), lo);
            _mm256_storeu_si256(ks.as_mut_ptr().add(32).cast(), hi);
        }
        for (b, k) in rest.iter_mut().zip(ks) {
            *b ^= k;
        }
        super::wipe(&mut ks);
    }
}

/// Rotates each 32-bit lane left by `L` bits (`R` = 32 − `L`) with two shifts.
#[inline]
#[target_feature(enable = "avx2")]
fn rotl<const L: i32, const R: i32>(x: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_slli_epi32::<L>(x), _mm256_srli_epi32::<R>(x))
}

/// Rotations by 16 and by 8 bits: with `asm`, a `vpshufb` by a pattern in memory
/// (`core_asm::x86_64::aead::chacha20`), as left to itself LLVM rewrites `shuffle(d ^ a)` as
/// `shuffle(d) ^ shuffle(a)`, splits the 16-bit rotation into `vpshuflw` and `vpshufhw`, and
/// keeps the patterns in registers that the state words need; without, [`rotl`].
#[cfg(feature = "asm")]
use core_asm::x86_64::aead::chacha20::{rotl8_ymm as rotl8, rotl16_ymm as rotl16};

/// [`rotl`] by 16 (the `asm` build shuffles instead).
#[cfg(not(feature = "asm"))]
#[inline]
#[target_feature(enable = "avx2")]
fn rotl16(x: __m256i) -> __m256i {
    rotl::<16, 16>(x)
}

/// [`rotl`] by 8 (the `asm` build shuffles instead).
#[cfg(not(feature = "asm"))]
#[inline]
#[target_feature(enable = "avx2")]
fn rotl8(x: __m256i) -> __m256i {
    rotl::<8, 24>(x)
}

/// The quarter round on four registers (RFC 8439 §2.1), lane by lane.
#[inline]
#[target_feature(enable = "avx2")]
fn quarter(a: &mut __m256i, b: &mut __m256i, c: &mut __m256i, d: &mut __m256i) {
    *a = _mm256_add_epi32(*a, *b);
    *d = rotl16(_mm256_xor_si256(*d, *a));
    *c = _mm256_add_epi32(*c, *d);
    *b = rotl::<12, 20>(_mm256_xor_si256(*b, *c));
    *a = _mm256_add_epi32(*a, *b);
    *d = rotl8(_mm256_xor_si256(*d, *a));
    *c = _mm256_add_epi32(*c, *d);
    *b = rotl::<7, 25>(_mm256_xor_si256(*b, *c));
}

#[cfg(all(test, feature = "asm"))]
mod tests {
    use super::*;
    use core::arch::x86_64::__m256i;

    /// The shuffle kernels against their Rust twin, [`rotl`], on random lanes.
    #[test]
    fn rotations_match_rust_twin() {
        #[target_feature(enable = "avx2")]
        fn check(words: [u32; 8]) {
            // SAFETY: 32 bytes read from and written to arrays of 32 bytes.
            let x = unsafe { _mm256_loadu_si256(words.as_ptr().cast()) };
            let out = |v: __m256i| {
                let mut w = [0u32; 8];
                // SAFETY: as above.
                unsafe { _mm256_storeu_si256(w.as_mut_ptr().cast(), v) };
                w
            };
            assert_eq!(out(rotl16(x)), out(rotl::<16, 16>(x)), "{words:x?}");
            assert_eq!(out(rotl8(x)), out(rotl::<8, 24>(x)), "{words:x?}");
            assert_eq!(out(rotl16(x)), words.map(|w| w.rotate_left(16)));
        }
        if Avx2::get().is_none() {
            std::println!("x86_avx2: AVX2 not available on this CPU");
            return;
        }
        let mut seed = 0x853C_49E6_748F_EA9Bu64;
        for _ in 0..1000 {
            let words = core::array::from_fn(|_| {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                (seed >> 32) as u32
            });
            // SAFETY: AVX2 was detected above.
            unsafe { check(words) };
        }
    }
}
