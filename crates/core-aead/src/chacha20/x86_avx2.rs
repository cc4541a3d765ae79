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
    let mut counter = state[12];
    while out.blocks_left() > 0 {
        let start = out.position();
        let emit = |sink: &mut Sink<'_>, block: usize, lo: __m256i, hi: __m256i| {
            write_block(sink, start + (64 * block).cast_signed(), lo, hi);
        };
        let width = match out.bytes_left() {
            257.. => {
                eight_blocks(state, counter, |b, lo, hi| emit(&mut out, b, lo, hi));
                8
            }
            129.. => {
                rows::<2>(state, counter, |b, lo, hi| emit(&mut out, b, lo, hi));
                4
            }
            _ => {
                rows::<1>(state, counter, |b, lo, hi| emit(&mut out, b, lo, hi));
                2
            }
        };
        out.advance(width);
        counter = counter.wrapping_add(width as u32);
    }
}

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

/// The keystream of eight blocks from `counter` on, in the word-per-register layout, block by
/// block (two halves) to `emit`.
#[inline]
#[target_feature(enable = "avx2")]
fn eight_blocks(state: &[u32; 16], counter: u32, mut emit: impl FnMut(usize, __m256i, __m256i)) {
    let mut init: [__m256i; 16] =
        core::array::from_fn(|i| _mm256_set1_epi32(state[i].cast_signed()));
    init[12] = _mm256_add_epi32(
        _mm256_set1_epi32(counter.cast_signed()),
        _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
    );
    let mut x = init;
    for _ in 0..10 {
        let [x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15] = &mut x;
        quarter(x0, x4, x8, x12);
        quarter(x1, x5, x9, x13);
        quarter(x2, x6, x10, x14);
        quarter(x3, x7, x11, x15);
        quarter(x0, x5, x10, x15);
        quarter(x1, x6, x11, x12);
        quarter(x2, x7, x8, x13);
        quarter(x3, x4, x9, x14);
    }
    for (x, s) in x.iter_mut().zip(init) {
        *x = _mm256_add_epi32(*x, s);
    }
    // Words 4g..4g+4 of blocks k and k + 4 in one register, for each group g and k < 4.
    let mut groups = [[x[0]; 4]; 4];
    for (g, group) in groups.iter_mut().enumerate() {
        let [a, b, c, d] = [x[4 * g], x[4 * g + 1], x[4 * g + 2], x[4 * g + 3]];
        let (ab_lo, ab_hi) = (_mm256_unpacklo_epi32(a, b), _mm256_unpackhi_epi32(a, b));
        let (cd_lo, cd_hi) = (_mm256_unpacklo_epi32(c, d), _mm256_unpackhi_epi32(c, d));
        *group = [
            _mm256_unpacklo_epi64(ab_lo, cd_lo),
            _mm256_unpackhi_epi64(ab_lo, cd_lo),
            _mm256_unpacklo_epi64(ab_hi, cd_hi),
            _mm256_unpackhi_epi64(ab_hi, cd_hi),
        ];
    }
    for k in 0..4 {
        let [g0, g1, g2, g3] = groups.map(|g| g[k]);
        emit(
            k,
            _mm256_permute2x128_si256::<0x20>(g0, g1),
            _mm256_permute2x128_si256::<0x20>(g2, g3),
        );
        emit(
            k + 4,
            _mm256_permute2x128_si256::<0x31>(g0, g1),
            _mm256_permute2x128_si256::<0x31>(g2, g3),
        );
    }
}

/// The keystream of `2 * N` blocks from `counter` on in the row layout: one register per state
/// row, two blocks per register, `N` register sets side by side so their rounds overlap.
#[inline]
#[target_feature(enable = "avx2")]
fn rows<const N: usize>(
    state: &[u32; 16],
    counter: u32,
    mut emit: impl FnMut(usize, __m256i, __m256i),
) {
    // SAFETY: `state` is 16 words; each load reads words 4i..4i+4 for i < 4.
    let row = |i: usize| unsafe {
        _mm256_broadcastsi128_si256(_mm_loadu_si128(state.as_ptr().add(4 * i).cast()))
    };
    let [r0, r1, r2, r3] = [row(0), row(1), row(2), row(3)];
    // Row 3 with the counter word of the low lane set to `c` and of the high lane to `c + 1`.
    let d = |c: u32| {
        let ctr =
            _mm256_setr_epi32(c.cast_signed(), 0, 0, 0, c.wrapping_add(1).cast_signed(), 0, 0, 0);
        _mm256_blend_epi32::<0x11>(r3, ctr)
    };
    let init: [[__m256i; 4]; N] =
        core::array::from_fn(|s| [r0, r1, r2, d(counter.wrapping_add(2 * s as u32))]);
    let mut x = init;
    for _ in 0..10 {
        for [a, b, c, d] in &mut x {
            quarter(a, b, c, d);
            // Diagonals into columns: rotate rows 0, 2, 3 by three, one and two words. Row 1,
            // the last one the quarter round writes, stays put, so no shuffle waits on it.
            *a = _mm256_shuffle_epi32::<0x93>(*a);
            *c = _mm256_shuffle_epi32::<0x39>(*c);
            *d = _mm256_shuffle_epi32::<0x4e>(*d);
            quarter(a, b, c, d);
            *a = _mm256_shuffle_epi32::<0x39>(*a);
            *c = _mm256_shuffle_epi32::<0x93>(*c);
            *d = _mm256_shuffle_epi32::<0x4e>(*d);
        }
    }
    for (s, (x, init)) in x.iter().zip(init).enumerate() {
        let v: [__m256i; 4] = core::array::from_fn(|i| _mm256_add_epi32(x[i], init[i]));
        emit(
            2 * s,
            _mm256_permute2x128_si256::<0x20>(v[0], v[1]),
            _mm256_permute2x128_si256::<0x20>(v[2], v[3]),
        );
        emit(
            2 * s + 1,
            _mm256_permute2x128_si256::<0x31>(v[0], v[1]),
            _mm256_permute2x128_si256::<0x31>(v[2], v[3]),
        );
    }
}
