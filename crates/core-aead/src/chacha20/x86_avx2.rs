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

/// `vpshufb` patterns that rotate each 32-bit lane left by 16 and by 8 bits. They stay in
/// memory and are used as memory operands, so the eight-block pass keeps both registers for
/// state words.
#[repr(align(32))]
// Read only by the assembly, through the symbol.
#[allow(dead_code)]
struct Pattern([u8; 32]);
static ROT16: Pattern = Pattern([
    2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14,
    15, 12, 13,
]);
static ROT8: Pattern = Pattern([
    3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15,
    12, 13, 14,
]);

/// Rotates each 32-bit lane left by `L` bits (`R` = 32 − `L`) with two shifts.
#[inline]
#[target_feature(enable = "avx2")]
fn rotl<const L: i32, const R: i32>(x: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_slli_epi32::<L>(x), _mm256_srli_epi32::<R>(x))
}

/// `vpshufb` by a pattern in memory, written as assembly: left to itself LLVM rewrites
/// `shuffle(d ^ a)` as `shuffle(d) ^ shuffle(a)` when `d` came out of a shuffle, and splits the
/// 16-bit rotation into `vpshuflw` and `vpshufhw`, doubling the work on the one port that does
/// shuffles; and it would keep the patterns in registers that the state words need.
macro_rules! shuffle_by {
    ($name:ident, $pattern:ident) => {
        #[inline]
        #[target_feature(enable = "avx2")]
        fn $name(x: __m256i) -> __m256i {
            let mut x = x;
            // SAFETY: `vpshufb` reading the 32-byte static pattern; the caller's `Avx2` token
            // (required through `target_feature`) proves AVX2.
            unsafe {
                core::arch::asm!(
                    "vpshufb {x}, {x}, ymmword ptr [rip + {pattern}]",
                    x = inout(ymm_reg) x,
                    pattern = sym $pattern,
                    options(pure, readonly, nostack, preserves_flags),
                );
            }
            x
        }
    };
}
shuffle_by!(rotl16, ROT16);
shuffle_by!(rotl8, ROT8);

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
