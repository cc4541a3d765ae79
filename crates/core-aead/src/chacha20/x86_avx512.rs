//! ChaCha20 for `x86_64` with AVX-512 (F, VL, BW). Long inputs go 32 blocks per pass as two
//! interleaved sets of sixteen (one set's dependency chains leave half the vector ports idle),
//! the last such pass taking whatever is left past 1 KiB, then sixteen: each ZMM register
//! holds one state word of sixteen consecutive blocks, every rotation is one `vprold`, and a
//! 16×16 transpose (two unpack levels inside 128-bit lanes, two levels of 128-bit lane
//! shuffles) turns the words back into keystream blocks. Shorter tails take eight blocks in
//! YMM registers with the same layout, and the last few blocks the row layout (one block per
//! 128-bit lane, two per YMM register), so a short message pays neither for sixteen blocks nor
//! for the lower clock that 512-bit instructions bring. Partial blocks are read and written
//! with byte-masked loads and stores: nothing is copied to the stack.

use super::Sink;
use core::arch::x86_64::{
    __m128i, __m256i, __m512i, _mm_add_epi32, _mm_blend_epi32, _mm_cvtsi32_si128, _mm_loadu_si128,
    _mm_rol_epi32, _mm_setr_epi32, _mm_shuffle_epi32, _mm_xor_si128, _mm256_add_epi32,
    _mm256_blend_epi32, _mm256_broadcastsi128_si256, _mm256_loadu_si256, _mm256_mask_loadu_epi8,
    _mm256_mask_storeu_epi8, _mm256_permute2x128_si256, _mm256_rol_epi32, _mm256_set_m128i,
    _mm256_set1_epi32, _mm256_setr_epi32, _mm256_setzero_si256, _mm256_shuffle_epi32,
    _mm256_storeu_si256, _mm256_unpackhi_epi32, _mm256_unpackhi_epi64, _mm256_unpacklo_epi32,
    _mm256_unpacklo_epi64, _mm256_xor_si256, _mm512_add_epi32, _mm512_castsi512_si256,
    _mm512_loadu_si512, _mm512_mask_loadu_epi8, _mm512_mask_storeu_epi8, _mm512_rol_epi32,
    _mm512_set1_epi32, _mm512_setr_epi32, _mm512_setzero_si512, _mm512_shuffle_i32x4,
    _mm512_storeu_si512, _mm512_unpackhi_epi32, _mm512_unpackhi_epi64, _mm512_unpacklo_epi32,
    _mm512_unpacklo_epi64, _mm512_xor_si512,
};
use core_cpu::Avx512;

/// Writes the keystream of blocks `state[12]`, `state[12] + 1`, … to `out`.
pub(super) fn keystream(token: Avx512, state: &[u32; 16], out: Sink<'_>) {
    // SAFETY: the `Avx512` token proves AVX-512 F, VL, BW and DQ (and AVX2) were detected.
    unsafe { keystream_avx512(token, state, out) }
}

#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx2")]
fn keystream_avx512(_: Avx512, state: &[u32; 16], mut out: Sink<'_>) {
    let mut counter = state[12];
    if out.bytes_left() >= WIDE_MIN {
        counter = wide(state, counter, &mut out);
    }
    ymm_passes(state, counter, &mut out);
}

super::x86_ymm::ymm_passes!(
    features: "avx512f,avx512vl,avx512bw,avx2",
    quarter: quarter_vl,
    write: write_halves,
);

/// The keystream of the `2 * N` blocks from block 0 on under `key` and the nonce row `row3`
/// (state words 12–15, the counter word ignored) in the row layout, block by block (two YMM
/// halves) to `emit`: ChaCha20-Poly1305's path for short messages takes its key block and
/// message blocks from this in registers. The state is put together in registers, never
/// stored: a vector load of words just stored one by one waits for the stores to complete
/// rather than taking their values from the store buffer.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx2")]
pub(crate) fn row_blocks<const N: usize>(
    _: Avx512,
    key: &[u32; 8],
    row3: __m128i,
    emit: impl FnMut(usize, __m256i, __m256i),
) {
    let [s0, s1, s2, s3] = super::SIGMA.map(u32::cast_signed);
    // SAFETY: `key` is 8 words; the loads read words 0..4 and 4..8.
    let (k0, k1) = unsafe {
        (_mm_loadu_si128(key.as_ptr().cast()), _mm_loadu_si128(key.as_ptr().add(4).cast()))
    };
    let rows = [
        _mm256_setr_epi32(s0, s1, s2, s3, s0, s1, s2, s3),
        _mm256_broadcastsi128_si256(k0),
        _mm256_broadcastsi128_si256(k1),
        _mm256_broadcastsi128_si256(row3),
    ];
    rows_from::<N>(rows, 0, emit);
}

/// The shortest run (key block included) that goes sixteen blocks at a time.
const WIDE_MIN: usize = 768;

/// 32-block passes from block `counter` while more than 1 KiB is left (a pass costs about
/// the chain of its double rounds, so one pass over up to 2 KiB beats a sixteen-block pass and
/// a shorter one after it), then sixteen-block passes while at least [`WIDE_MIN`] bytes are
/// left; returns the next counter.
/// Kept out of line so that its ZMM set-up is not hoisted into the short paths.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx2")]
fn wide(state: &[u32; 16], mut counter: u32, out: &mut Sink<'_>) -> u32 {
    while out.bytes_left() > 1024 {
        let start = out.position();
        blocks::<2>(state, counter, |b, ks| {
            write_block(out, start + (64 * b).cast_signed(), ks);
        });
        out.advance(32);
        counter = counter.wrapping_add(32);
    }
    while out.bytes_left() >= WIDE_MIN {
        let start = out.position();
        sixteen_blocks(state, counter, |b, ks| {
            write_block(out, start + (64 * b).cast_signed(), ks);
        });
        out.advance(16);
        counter = counter.wrapping_add(16);
    }
    counter
}

/// Sends 64 bytes of keystream to where `out` wants the block starting at `at`: the key, a
/// whole block of the buffer, a partial last block (byte-masked), or nowhere.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn write_block(out: &mut Sink<'_>, at: isize, ks: __m512i) {
    if at < 0 {
        if let Some(key) = out.key.as_deref_mut() {
            // SAFETY: `key` is 32 bytes; an unaligned 32-byte store.
            unsafe { _mm256_storeu_si256(key.as_mut_ptr().cast(), _mm512_castsi512_si256(ks)) };
        }
        return;
    }
    let at = at.cast_unsigned();
    let Some(rest) = out.buf.get_mut(at..) else { return };
    if let Some(block) = rest.first_chunk_mut::<64>() {
        // SAFETY: `block` is 64 bytes; an unaligned load and store.
        unsafe {
            let p = block.as_mut_ptr();
            _mm512_storeu_si512(p.cast(), _mm512_xor_si512(_mm512_loadu_si512(p.cast()), ks));
        }
    } else if !rest.is_empty() {
        let mask = (1u64 << rest.len()) - 1;
        // SAFETY: the mask selects the first `rest.len()` (< 64) bytes, all inside `rest`;
        // masked-off bytes are neither read nor written (AVX-512BW suppresses their faults).
        unsafe {
            let p = rest.as_mut_ptr();
            let data = _mm512_mask_loadu_epi8(_mm512_setzero_si512(), mask, p.cast());
            _mm512_mask_storeu_epi8(p.cast(), mask, _mm512_xor_si512(data, ks));
        }
    }
}

/// [`write_block`] for a block given as two YMM halves, with YMM instructions only: the short
/// paths stay clear of 512-bit instructions, which lower the clock of the whole core for a
/// while after they run.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx2")]
fn write_halves(out: &mut Sink<'_>, at: isize, lo: __m256i, hi: __m256i) {
    if at < 0 {
        if let Some(key) = out.key.as_deref_mut() {
            // SAFETY: `key` is 32 bytes; an unaligned 32-byte store.
            unsafe { _mm256_storeu_si256(key.as_mut_ptr().cast(), lo) };
        }
        return;
    }
    if let Some(rest) = out.buf.get_mut(at.cast_unsigned()..) {
        xor_halves(rest, lo, hi);
    }
}

/// XORs a keystream block given as two YMM halves into the front of `buf`, as far as `buf`
/// goes (up to 64 bytes): whole halves with plain YMM loads and stores, a partial one
/// byte-masked. (Sealing reads the ciphertext straight back into Poly1305, and on Zen 5 a load
/// from a masked store's bytes measured slower to forward: 64-byte seal 3-5% faster.)
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512bw,avx2")]
pub(crate) fn xor_halves(buf: &mut [u8], lo: __m256i, hi: __m256i) {
    for (half, ks) in buf.chunks_mut(32).take(2).zip([lo, hi]) {
        if let Some(whole) = half.first_chunk_mut::<32>() {
            // SAFETY: `whole` is 32 bytes; an unaligned load and store.
            unsafe {
                let p = whole.as_mut_ptr().cast();
                _mm256_storeu_si256(p, _mm256_xor_si256(_mm256_loadu_si256(p), ks));
            }
            continue;
        }
        let mask = (1u32 << half.len()) - 1;
        // SAFETY: the mask selects the first `half.len()` (≤ 32) bytes, all inside `half`;
        // masked-off bytes are neither read nor written (AVX-512BW suppresses their faults).
        unsafe {
            let p = half.as_mut_ptr();
            let data = _mm256_mask_loadu_epi8(_mm256_setzero_si256(), mask, p.cast());
            _mm256_mask_storeu_epi8(p.cast(), mask, _mm256_xor_si256(data, ks));
        }
    }
}

/// One quarter round (RFC 8439 §2.1) per lane, for any register width.
macro_rules! quarter {
    ($add:ident, $xor:ident, $rol:ident, $a:expr, $b:expr, $c:expr, $d:expr) => {{
        $a = $add($a, $b);
        $d = $rol::<16>($xor($d, $a));
        $c = $add($c, $d);
        $b = $rol::<12>($xor($b, $c));
        $a = $add($a, $b);
        $d = $rol::<8>($xor($d, $a));
        $c = $add($c, $d);
        $b = $rol::<7>($xor($b, $c));
    }};
}

/// One scalar quarter round on words `a`, `b`, `c`, `d` of `x` (literal indices, so the
/// words stay in registers).
macro_rules! quarter_gpr {
    ($x:ident, $a:literal, $b:literal, $c:literal, $d:literal) => {
        $x[$a] = $x[$a].wrapping_add($x[$b]);
        $x[$d] = ($x[$d] ^ $x[$a]).rotate_left(16);
        $x[$c] = $x[$c].wrapping_add($x[$d]);
        $x[$b] = ($x[$b] ^ $x[$c]).rotate_left(12);
        $x[$a] = $x[$a].wrapping_add($x[$b]);
        $x[$d] = ($x[$d] ^ $x[$a]).rotate_left(8);
        $x[$c] = $x[$c].wrapping_add($x[$d]);
        $x[$b] = ($x[$b] ^ $x[$c]).rotate_left(7);
    };
}

/// Block 1's keystream under `key` and the nonce row `row3` (state words 12–15, the counter
/// word ignored; `nonce` the same three words) as two YMM halves to `emit`, and block 0's
/// first eight keystream words (ChaCha20-Poly1305's one-time key), returned. Block 1 runs in
/// one XMM register per row, block 0 in general-purpose registers, round by round beside it:
/// on Zen 5 a vector add, XOR or rotation takes two cycles and a scalar one one, so the scalar
/// block finishes first and its instructions fill the vector chain's idle ports, where a
/// two-block vector pass (key block included) waits on its chain alone.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx2")]
pub(crate) fn key_and_block(
    key: &[u32; 8],
    nonce: &[u32; 3],
    row3: __m128i,
    emit: impl FnOnce(__m256i, __m256i),
) -> [u32; 8] {
    let state = super::state(key, 0, nonce);
    let mut x = state;
    let [s0, s1, s2, s3] = super::SIGMA.map(u32::cast_signed);
    // SAFETY: `key` is 8 words; the loads read words 0..4 and 4..8.
    let (k0, k1) = unsafe {
        (_mm_loadu_si128(key.as_ptr().cast()), _mm_loadu_si128(key.as_ptr().add(4).cast()))
    };
    let init =
        [_mm_setr_epi32(s0, s1, s2, s3), k0, k1, _mm_blend_epi32::<1>(row3, _mm_cvtsi32_si128(1))];
    let [mut a, mut b, mut c, mut d] = init;
    for _ in 0..10 {
        quarter!(_mm_add_epi32, _mm_xor_si128, _mm_rol_epi32, a, b, c, d);
        quarter_gpr!(x, 0, 4, 8, 12);
        quarter_gpr!(x, 1, 5, 9, 13);
        quarter_gpr!(x, 2, 6, 10, 14);
        quarter_gpr!(x, 3, 7, 11, 15);
        // Diagonals into columns, as in `rows_from`.
        a = _mm_shuffle_epi32::<0x93>(a);
        c = _mm_shuffle_epi32::<0x39>(c);
        d = _mm_shuffle_epi32::<0x4e>(d);
        quarter!(_mm_add_epi32, _mm_xor_si128, _mm_rol_epi32, a, b, c, d);
        quarter_gpr!(x, 0, 5, 10, 15);
        quarter_gpr!(x, 1, 6, 11, 12);
        quarter_gpr!(x, 2, 7, 8, 13);
        quarter_gpr!(x, 3, 4, 9, 14);
        a = _mm_shuffle_epi32::<0x39>(a);
        c = _mm_shuffle_epi32::<0x93>(c);
        d = _mm_shuffle_epi32::<0x4e>(d);
    }
    let out = [a, b, c, d];
    let [a, b, c, d] = core::array::from_fn(|i| _mm_add_epi32(out[i], init[i]));
    emit(_mm256_set_m128i(b, a), _mm256_set_m128i(d, c));
    core::array::from_fn(|i| x[i].wrapping_add(state[i]))
}

/// [`key_and_block`] for two message blocks (blocks 1 and 2), in the row layout of
/// [`row_blocks`] (one block per 128-bit lane), block by block to `emit`.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx2")]
pub(crate) fn key_and_blocks(
    key: &[u32; 8],
    nonce: &[u32; 3],
    row3: __m128i,
    mut emit: impl FnMut(usize, __m256i, __m256i),
) -> [u32; 8] {
    let state = super::state(key, 0, nonce);
    let mut x = state;
    let [s0, s1, s2, s3] = super::SIGMA.map(u32::cast_signed);
    // SAFETY: `key` is 8 words; the loads read words 0..4 and 4..8.
    let (k0, k1) = unsafe {
        (_mm_loadu_si128(key.as_ptr().cast()), _mm_loadu_si128(key.as_ptr().add(4).cast()))
    };
    let r3 = _mm256_broadcastsi128_si256(row3);
    // Row 3 with the counter word of the low lane set to 1, of the high lane 2.
    let d = _mm256_blend_epi32::<0x11>(r3, _mm256_setr_epi32(1, 0, 0, 0, 2, 0, 0, 0));
    let init: [[__m256i; 4]; 1] = [[
        _mm256_setr_epi32(s0, s1, s2, s3, s0, s1, s2, s3),
        _mm256_broadcastsi128_si256(k0),
        _mm256_broadcastsi128_si256(k1),
        d,
    ]];
    let mut v = init;
    for _ in 0..10 {
        for [a, b, c, d] in &mut v {
            quarter!(_mm256_add_epi32, _mm256_xor_si256, _mm256_rol_epi32, *a, *b, *c, *d);
        }
        quarter_gpr!(x, 0, 4, 8, 12);
        quarter_gpr!(x, 1, 5, 9, 13);
        quarter_gpr!(x, 2, 6, 10, 14);
        quarter_gpr!(x, 3, 7, 11, 15);
        for [a, _, c, d] in &mut v {
            *a = _mm256_shuffle_epi32::<0x93>(*a);
            *c = _mm256_shuffle_epi32::<0x39>(*c);
            *d = _mm256_shuffle_epi32::<0x4e>(*d);
        }
        for [a, b, c, d] in &mut v {
            quarter!(_mm256_add_epi32, _mm256_xor_si256, _mm256_rol_epi32, *a, *b, *c, *d);
        }
        quarter_gpr!(x, 0, 5, 10, 15);
        quarter_gpr!(x, 1, 6, 11, 12);
        quarter_gpr!(x, 2, 7, 8, 13);
        quarter_gpr!(x, 3, 4, 9, 14);
        for [a, _, c, d] in &mut v {
            *a = _mm256_shuffle_epi32::<0x39>(*a);
            *c = _mm256_shuffle_epi32::<0x93>(*c);
            *d = _mm256_shuffle_epi32::<0x4e>(*d);
        }
    }
    for (set, (v, init)) in v.iter().zip(init).enumerate() {
        let w: [__m256i; 4] = core::array::from_fn(|i| _mm256_add_epi32(v[i], init[i]));
        emit(
            2 * set,
            _mm256_permute2x128_si256::<0x20>(w[0], w[1]),
            _mm256_permute2x128_si256::<0x20>(w[2], w[3]),
        );
        emit(
            2 * set + 1,
            _mm256_permute2x128_si256::<0x31>(w[0], w[1]),
            _mm256_permute2x128_si256::<0x31>(w[2], w[3]),
        );
    }
    core::array::from_fn(|i| x[i].wrapping_add(state[i]))
}

/// The keystream of sixteen blocks from `counter` on, block by block to `emit`.
#[inline]
#[target_feature(enable = "avx512f")]
fn sixteen_blocks(state: &[u32; 16], counter: u32, emit: impl FnMut(usize, __m512i)) {
    blocks::<1>(state, counter, emit);
}

/// The keystream of `16 * S` blocks from `counter` on, block by block to `emit`. A double
/// round is a dependency chain of two-cycle vector operations (on AMD Zen 5), four quarter
/// rounds wide: one set of sixteen blocks keeps only half the vector ports busy, so long
/// inputs go two sets side by side (`S = 2`, all 32 ZMM registers).
#[inline]
#[target_feature(enable = "avx512f")]
fn blocks<const S: usize>(state: &[u32; 16], counter: u32, mut emit: impl FnMut(usize, __m512i)) {
    let init: [[__m512i; 16]; S] = core::array::from_fn(|set| {
        let mut init: [__m512i; 16] =
            core::array::from_fn(|i| _mm512_set1_epi32(state[i].cast_signed()));
        init[12] = _mm512_add_epi32(
            _mm512_set1_epi32(counter.wrapping_add(16 * set as u32).cast_signed()),
            _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
        );
        init
    });
    let mut x = init;
    macro_rules! q {
        ($a:literal, $b:literal, $c:literal, $d:literal) => {
            for x in &mut x {
                quarter!(
                    _mm512_add_epi32,
                    _mm512_xor_si512,
                    _mm512_rol_epi32,
                    x[$a],
                    x[$b],
                    x[$c],
                    x[$d]
                );
            }
        };
    }
    for _ in 0..10 {
        q!(0, 4, 8, 12);
        q!(1, 5, 9, 13);
        q!(2, 6, 10, 14);
        q!(3, 7, 11, 15);
        q!(0, 5, 10, 15);
        q!(1, 6, 11, 12);
        q!(2, 7, 8, 13);
        q!(3, 4, 9, 14);
    }
    for (set, (x, init)) in x.iter_mut().zip(init).enumerate() {
        for (x, s) in x.iter_mut().zip(init) {
            *x = _mm512_add_epi32(*x, s);
        }
        // groups[g][k]: words 4g..4g+4 of block 4l + k in 128-bit lane l.
        let groups: [[__m512i; 4]; 4] = core::array::from_fn(|g| {
            let [a, b, c, d] = [x[4 * g], x[4 * g + 1], x[4 * g + 2], x[4 * g + 3]];
            let (ab_lo, ab_hi) = (_mm512_unpacklo_epi32(a, b), _mm512_unpackhi_epi32(a, b));
            let (cd_lo, cd_hi) = (_mm512_unpacklo_epi32(c, d), _mm512_unpackhi_epi32(c, d));
            [
                _mm512_unpacklo_epi64(ab_lo, cd_lo),
                _mm512_unpackhi_epi64(ab_lo, cd_lo),
                _mm512_unpacklo_epi64(ab_hi, cd_hi),
                _mm512_unpackhi_epi64(ab_hi, cd_hi),
            ]
        });
        for k in 0..4 {
            let [t0, t1, t2, t3] = transpose_lanes(groups.map(|g| g[k]));
            emit(16 * set + k, t0);
            emit(16 * set + 4 + k, t1);
            emit(16 * set + 8 + k, t2);
            emit(16 * set + 12 + k, t3);
        }
    }
}

/// A 4×4 transpose of 128-bit lanes: lane `l` of result `i` is lane `i` of input `l`.
#[inline]
#[target_feature(enable = "avx512f")]
fn transpose_lanes([a, b, c, d]: [__m512i; 4]) -> [__m512i; 4] {
    let t0 = _mm512_shuffle_i32x4::<0x44>(a, b);
    let t1 = _mm512_shuffle_i32x4::<0x44>(c, d);
    let t2 = _mm512_shuffle_i32x4::<0xee>(a, b);
    let t3 = _mm512_shuffle_i32x4::<0xee>(c, d);
    [
        _mm512_shuffle_i32x4::<0x88>(t0, t1),
        _mm512_shuffle_i32x4::<0xdd>(t0, t1),
        _mm512_shuffle_i32x4::<0x88>(t2, t3),
        _mm512_shuffle_i32x4::<0xdd>(t2, t3),
    ]
}

/// The quarter round on four YMM registers, with AVX-512VL's `vprold` for the rotations.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx2")]
fn quarter_vl(a: &mut __m256i, b: &mut __m256i, c: &mut __m256i, d: &mut __m256i) {
    quarter!(_mm256_add_epi32, _mm256_xor_si256, _mm256_rol_epi32, *a, *b, *c, *d);
}
