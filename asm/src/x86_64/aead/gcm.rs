//! AES-GCM kernels: the stitched AES-NI/PCLMULQDQ batch ([`stitched_batch`]), the main loop
//! of the VAES/VPCLMULQDQ code ([`wide_loop`]) and the scheduling fence of its Rust groups
//! ([`fence_zmm`]), for `core_aead`'s `gcm/x86_aesni_pclmul.rs` and `gcm/x86_vaes_vpclmul.rs`.

use core::arch::asm;
use core::arch::x86_64::{__m128i, __m512i, _mm_cvtsi128_si32};

/// Constants the batch reads from memory.
#[repr(C, align(16))]
struct Consts {
    /// `vpshufb` mask reversing the 16 bytes of a block.
    bswap: [u8; 16],
    /// 1 in the low 32-bit lane: the counter increment in byte-reversed form.
    one: [u8; 16],
    /// The reduction constant `y^57 + y^62 + y^63` in the low 64-bit lane.
    q: [u8; 16],
    /// 8 in the low 32-bit lane: a batch's counter advance, in byte-reversed form.
    eight: [u8; 16],
    /// `i` in the last byte, for `i` = 1…7: added byte-wise to a big-endian counter block whose
    /// last byte is at most 248, they give the next seven counter blocks without a shuffle.
    inc: [[u8; 16]; 7],
    /// 4 in the low 32-bit lane: a register's counter advance, in byte-reversed form.
    four: [u8; 16],
    /// 32 in the low 32-bit lane: a wide iteration's counter advance, in byte-reversed form.
    thirty_two: [u8; 16],
}

static CONSTS: Consts = Consts {
    bswap: [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
    one: 1u128.to_le_bytes(),
    q: 0xC200_0000_0000_0000u128.to_le_bytes(),
    eight: 8u128.to_le_bytes(),
    inc: {
        let mut inc = [[0; 16]; 7];
        let mut i = 0;
        while i < 7 {
            inc[i][15] = i as u8 + 1;
            i += 1;
        }
        inc
    },
    four: 4u128.to_le_bytes(),
    thirty_two: 32u128.to_le_bytes(),
};

/// The eight counter blocks of a batch from the byte-reversed counter in xmm15, which
/// advances by 8: each block byte-reversed on its own (eight `vpshufb`, all on the shuffle
/// port that `vpclmulqdq` also needs).
macro_rules! counters_shuffled {
    () => {
        concat!(
            "vpshufb xmm0, xmm15, xmmword ptr [{cst}]\n",
            "vpaddd xmm15, xmm15, xmmword ptr [{cst} + 16]\n",
            "vpshufb xmm1, xmm15, xmmword ptr [{cst}]\n",
            "vpaddd xmm15, xmm15, xmmword ptr [{cst} + 16]\n",
            "vpshufb xmm2, xmm15, xmmword ptr [{cst}]\n",
            "vpaddd xmm15, xmm15, xmmword ptr [{cst} + 16]\n",
            "vpshufb xmm3, xmm15, xmmword ptr [{cst}]\n",
            "vpaddd xmm15, xmm15, xmmword ptr [{cst} + 16]\n",
            "vpshufb xmm4, xmm15, xmmword ptr [{cst}]\n",
            "vpaddd xmm15, xmm15, xmmword ptr [{cst} + 16]\n",
            "vpshufb xmm5, xmm15, xmmword ptr [{cst}]\n",
            "vpaddd xmm15, xmm15, xmmword ptr [{cst} + 16]\n",
            "vpshufb xmm6, xmm15, xmmword ptr [{cst}]\n",
            "vpaddd xmm15, xmm15, xmmword ptr [{cst} + 16]\n",
            "vpshufb xmm7, xmm15, xmmword ptr [{cst}]\n",
            "vpaddd xmm15, xmm15, xmmword ptr [{cst} + 16]\n",
        )
    };
}

/// The same blocks when the counter's low byte is at most 248, so no block carries out of
/// it: one shuffle, then byte additions to the last byte of the big-endian block (the
/// shuffle-free counter of OpenSSL's AES-GCM code).
macro_rules! counters_added {
    () => {
        concat!(
            "vpshufb xmm0, xmm15, xmmword ptr [{cst}]\n",
            "vpaddd xmm15, xmm15, xmmword ptr [{cst} + 48]\n",
            "vpaddb xmm1, xmm0, xmmword ptr [{cst} + 64]\n",
            "vpaddb xmm2, xmm0, xmmword ptr [{cst} + 80]\n",
            "vpaddb xmm3, xmm0, xmmword ptr [{cst} + 96]\n",
            "vpaddb xmm4, xmm0, xmmword ptr [{cst} + 112]\n",
            "vpaddb xmm5, xmm0, xmmword ptr [{cst} + 128]\n",
            "vpaddb xmm6, xmm0, xmmword ptr [{cst} + 144]\n",
            "vpaddb xmm7, xmm0, xmmword ptr [{cst} + 160]\n",
        )
    };
}

/// Eight `vaesenc` with the round key at `[{rk} + $off]`.
macro_rules! round {
    ($off:literal) => {
        concat!(
            "vmovdqa xmm13, xmmword ptr [{rk} + ",
            $off,
            "]\n",
            "vaesenc xmm0, xmm0, xmm13\n",
            "vaesenc xmm1, xmm1, xmm13\n",
            "vaesenc xmm2, xmm2, xmm13\n",
            "vaesenc xmm3, xmm3, xmm13\n",
            "vaesenc xmm4, xmm4, xmm13\n",
            "vaesenc xmm5, xmm5, xmm13\n",
            "vaesenc xmm6, xmm6, xmm13\n",
            "vaesenc xmm7, xmm7, xmm13\n",
        )
    };
}

/// One block at `[{src} + $off]` times the key power at `$pow` (Karatsuba), added to the sums
/// in xmm8 (low), xmm9 (middle), xmm10 (high).
macro_rules! hash_block {
    ($off:literal, $pow:literal) => {
        concat!(
            "vmovdqu xmm11, xmmword ptr [{src} + ",
            $off,
            "]\n",
            "vpshufb xmm11, xmm11, xmmword ptr [{cst}]\n",
            "vpshufd xmm12, xmm11, 0x4e\n",
            "vpxor xmm12, xmm12, xmm11\n",
            "vpclmulqdq xmm12, xmm12, xmmword ptr [{k} + ",
            $pow,
            "], 0x00\n",
            "vpxor xmm9, xmm9, xmm12\n",
            "vpclmulqdq xmm12, xmm11, xmmword ptr [{h} + ",
            $pow,
            "], 0x00\n",
            "vpxor xmm8, xmm8, xmm12\n",
            "vpclmulqdq xmm11, xmm11, xmmword ptr [{h} + ",
            $pow,
            "], 0x11\n",
            "vpxor xmm10, xmm10, xmm11\n",
        )
    };
}

/// The body of [`stitched_batch`], with the counter code `$counters` (one of the two macros above).
/// The operands name `stitched_batch`'s arguments, passed in so that the macro can see them.
macro_rules! stitched {
    ($counters:ident, $rk:ident, $nr:ident, $c:ident, $acc:ident, $h:ident, $k:ident, $src:ident, $dst:ident) => {
        asm!(
            // Counter blocks, whitened with round key 0.
            $counters!(),
            "vmovdqa xmm13, xmmword ptr [{rk}]",
            "vpxor xmm0, xmm0, xmm13",
            "vpxor xmm1, xmm1, xmm13",
            "vpxor xmm2, xmm2, xmm13",
            "vpxor xmm3, xmm3, xmm13",
            "vpxor xmm4, xmm4, xmm13",
            "vpxor xmm5, xmm5, xmm13",
            "vpxor xmm6, xmm6, xmm13",
            "vpxor xmm7, xmm7, xmm13",
            "vpxor xmm8, xmm8, xmm8",
            "vpxor xmm9, xmm9, xmm9",
            "vpxor xmm10, xmm10, xmm10",
            // Rounds 1–8, block i times H^(8−i) after round i + 1.
            round!(16), hash_block!(0, 112),
            round!(32), hash_block!(16, 96),
            round!(48), hash_block!(32, 80),
            round!(64), hash_block!(48, 64),
            round!(80), hash_block!(64, 48),
            round!(96), hash_block!(80, 32),
            round!(112), hash_block!(96, 16),
            round!(128), hash_block!(112, 0),
            // Round 9, acc · H⁸, and the Karatsuba recombination and first reduction step.
            round!(144),
            "vpshufd xmm12, xmm14, 0x4e",
            "vpxor xmm12, xmm12, xmm14",
            "vpclmulqdq xmm12, xmm12, xmmword ptr [{k} + 112], 0x00",
            "vpxor xmm9, xmm9, xmm12",
            "vpclmulqdq xmm12, xmm14, xmmword ptr [{h} + 112], 0x00",
            "vpxor xmm8, xmm8, xmm12",
            "vpclmulqdq xmm11, xmm14, xmmword ptr [{h} + 112], 0x11",
            "vpxor xmm10, xmm10, xmm11",
            "vpxor xmm9, xmm9, xmm8",
            "vpxor xmm9, xmm9, xmm10",
            "vpslldq xmm12, xmm9, 8",
            "vpxor xmm8, xmm8, xmm12",
            "vpsrldq xmm9, xmm9, 8",
            "vpxor xmm10, xmm10, xmm9",
            "vpclmulqdq xmm12, xmm8, xmmword ptr [{cst} + 32], 0x00",
            "vpshufd xmm8, xmm8, 0x4e",
            "vpxor xmm8, xmm8, xmm12",
            // Rounds 10 … Nr − 1 (none for AES-128).
            "lea {i}, [{rk} + 160]",
            "2:",
            "cmp {i}, {last}",
            "je 3f",
            "vmovdqa xmm13, xmmword ptr [{i}]",
            "vaesenc xmm0, xmm0, xmm13",
            "vaesenc xmm1, xmm1, xmm13",
            "vaesenc xmm2, xmm2, xmm13",
            "vaesenc xmm3, xmm3, xmm13",
            "vaesenc xmm4, xmm4, xmm13",
            "vaesenc xmm5, xmm5, xmm13",
            "vaesenc xmm6, xmm6, xmm13",
            "vaesenc xmm7, xmm7, xmm13",
            "add {i}, 16",
            "jmp 2b",
            "3:",
            // Second reduction step, then the last round and the XOR into `dst`.
            "vpclmulqdq xmm12, xmm8, xmmword ptr [{cst} + 32], 0x00",
            "vpshufd xmm8, xmm8, 0x4e",
            "vpxor xmm8, xmm8, xmm12",
            "vpxor xmm14, xmm10, xmm8",
            "vmovdqa xmm13, xmmword ptr [{last}]",
            "vaesenclast xmm0, xmm0, xmm13",
            "vaesenclast xmm1, xmm1, xmm13",
            "vaesenclast xmm2, xmm2, xmm13",
            "vaesenclast xmm3, xmm3, xmm13",
            "vaesenclast xmm4, xmm4, xmm13",
            "vaesenclast xmm5, xmm5, xmm13",
            "vaesenclast xmm6, xmm6, xmm13",
            "vaesenclast xmm7, xmm7, xmm13",
            "vpxor xmm0, xmm0, xmmword ptr [{dst}]",
            "vmovdqu xmmword ptr [{dst}], xmm0",
            "vpxor xmm1, xmm1, xmmword ptr [{dst} + 16]",
            "vmovdqu xmmword ptr [{dst} + 16], xmm1",
            "vpxor xmm2, xmm2, xmmword ptr [{dst} + 32]",
            "vmovdqu xmmword ptr [{dst} + 32], xmm2",
            "vpxor xmm3, xmm3, xmmword ptr [{dst} + 48]",
            "vmovdqu xmmword ptr [{dst} + 48], xmm3",
            "vpxor xmm4, xmm4, xmmword ptr [{dst} + 64]",
            "vmovdqu xmmword ptr [{dst} + 64], xmm4",
            "vpxor xmm5, xmm5, xmmword ptr [{dst} + 80]",
            "vmovdqu xmmword ptr [{dst} + 80], xmm5",
            "vpxor xmm6, xmm6, xmmword ptr [{dst} + 96]",
            "vmovdqu xmmword ptr [{dst} + 96], xmm6",
            "vpxor xmm7, xmm7, xmmword ptr [{dst} + 112]",
            "vmovdqu xmmword ptr [{dst} + 112], xmm7",
            rk = in(reg) $rk.as_ptr(),
            last = in(reg) $rk.as_ptr().add($nr),
            i = out(reg) _,
            h = in(reg) $h.as_ptr(),
            k = in(reg) $k.as_ptr(),
            src = in(reg) $src,
            dst = in(reg) $dst,
            cst = in(reg) &raw const CONSTS,
            inout("xmm15") *$c,
            inout("xmm14") *$acc,
            out("xmm0") _, out("xmm1") _, out("xmm2") _, out("xmm3") _,
            out("xmm4") _, out("xmm5") _, out("xmm6") _, out("xmm7") _,
            out("xmm8") _, out("xmm9") _, out("xmm10") _, out("xmm11") _,
            out("xmm12") _, out("xmm13") _,
            options(nostack),
        );
    };
}

/// One AES-CTR-and-GHASH batch of AES-GCM: eight counter blocks from the byte-reversed
/// counter `*c` (which advances by 8) through the `nr` rounds of `rk` and XOR-ed into the 128
/// bytes at `dst`, while the eight blocks at `src` are multiplied by H⁸…H¹ between the rounds
/// and `*acc` joins as `acc · H⁸`, reduced into the new `*acc` over the last rounds. The
/// powers are in `(H·x⁻¹)` form, `h[i]` = H^(i+1), `k[i]` the XOR of its halves in the low
/// lane (Karatsuba). One `asm!` block, so the schedule is the one written: eight `vaesenc`
/// per round, one block's three `vpclmulqdq` after each of rounds 1–8, the accumulator and
/// the first reduction step after round 9, the second before the last round. Its Rust twin
/// (hash, then encrypt) is in `core_aead`'s `gcm/x86_aesni_pclmul.rs`.
///
/// # Safety
///
/// AES-NI, PCLMULQDQ, SSSE3 and AVX must be available; `nr` must be at most 14; `src` must be
/// readable and `dst` readable and writable for 128 bytes (they may be the same: `src` is read
/// before `dst` is written).
#[inline]
#[allow(clippy::too_many_arguments)]
pub unsafe fn stitched_batch(
    rk: &[__m128i; 15],
    nr: usize,
    c: &mut __m128i,
    acc: &mut __m128i,
    h: &[[u8; 16]; 8],
    k: &[[u8; 16]; 8],
    src: *const u8,
    dst: *mut u8,
) {
    // SAFETY: the caller guarantees the CPU features and the 128 bytes at `src` and `dst`;
    // the round keys (`rk[..=nr]`, `nr ≤ 14` by the contract), the powers and the constants
    // are in bounds.
    // Which counter code runs depends only on the counter, which is public.
    unsafe {
        if (_mm_cvtsi128_si32(*c) & 0xff) <= 0xf8 {
            stitched!(counters_added, rk, nr, c, acc, h, k, src, dst);
        } else {
            stitched!(counters_shuffled, rk, nr, c, acc, h, k, src, dst);
        }
    }
}

/// A middle round of the wide loop with the round key in `$k`, the four pieces `$a`…`$d` of
/// GHASH work after every second `vaesenc`.
macro_rules! wide_round {
    ($k:literal, $a:expr, $b:expr, $c:expr, $d:expr) => {
        concat!(
            "vaesenc zmm0, zmm0, ",
            $k,
            "\n",
            "vaesenc zmm1, zmm1, ",
            $k,
            "\n",
            $a,
            "vaesenc zmm2, zmm2, ",
            $k,
            "\n",
            "vaesenc zmm3, zmm3, ",
            $k,
            "\n",
            $b,
            "vaesenc zmm4, zmm4, ",
            $k,
            "\n",
            "vaesenc zmm5, zmm5, ",
            $k,
            "\n",
            $c,
            "vaesenc zmm6, zmm6, ",
            $k,
            "\n",
            "vaesenc zmm7, zmm7, ",
            $k,
            "\n",
            $d,
        )
    };
}

/// Round key `$r` into all four lanes of zmm8.
macro_rules! wide_key {
    ($r:literal) => {
        concat!("vbroadcasti32x4 zmm8, xmmword ptr [{rk} + 16 * ", $r, "]\n")
    };
}

/// The four pieces of one GHASH input register `$x` (four byte-reversed blocks) times the
/// powers of register `$j` (Karatsuba: low, high, and the product of the halves' sums),
/// added to the sums in zmm16 (low), zmm17 (middle) and zmm18 (high) — or, `init`, written
/// there — followed by `$next`.
macro_rules! wide_ghash {
    ($k:literal, add, $x:literal, $j:literal, $next:expr) => {
        wide_round!(
            $k,
            concat!("vpshufd zmm9, ", $x, ", 0x4e\n", "vpxord zmm9, zmm9, ", $x, "\n"),
            concat!(
                "vpclmulqdq zmm10, ",
                $x,
                ", zmmword ptr [{hp} + 64 * ",
                $j,
                "], 0x00\n",
                "vpxord zmm16, zmm16, zmm10\n"
            ),
            concat!(
                "vpclmulqdq zmm11, ",
                $x,
                ", zmmword ptr [{hp} + 64 * ",
                $j,
                "], 0x11\n",
                "vpxord zmm18, zmm18, zmm11\n"
            ),
            concat!(
                "vpclmulqdq zmm9, zmm9, zmmword ptr [{hp} + 512 + 64 * ",
                $j,
                "], 0x00\n",
                "vpxord zmm17, zmm17, zmm9\n",
                $next
            )
        )
    };
    ($k:literal, init, $x:literal, $j:literal, $next:expr) => {
        wide_round!(
            $k,
            concat!("vpshufd zmm9, ", $x, ", 0x4e\n", "vpxord zmm9, zmm9, ", $x, "\n"),
            concat!("vpclmulqdq zmm16, ", $x, ", zmmword ptr [{hp} + 64 * ", $j, "], 0x00\n"),
            concat!("vpclmulqdq zmm18, ", $x, ", zmmword ptr [{hp} + 64 * ", $j, "], 0x11\n"),
            concat!(
                "vpclmulqdq zmm17, zmm9, zmmword ptr [{hp} + 512 + 64 * ",
                $j,
                "], 0x00\n",
                $next
            )
        )
    };
}

/// GHASH input register `$j` loaded into `$x` and byte-reversed.
macro_rules! wide_load {
    ($x:literal, $j:literal) => {
        concat!(
            "vmovdqu64 ",
            $x,
            ", zmmword ptr [{src} + 64 * ",
            $j,
            "]\n",
            "vpshufb ",
            $x,
            ", ",
            $x,
            ", zmm13\n"
        )
    };
}

/// The first reduction step of the sums (zmm16 low, zmm17 middle with Karatsuba's terms
/// already taken off, zmm18 high): the low word's multiple of the polynomial onto the middle.
macro_rules! wide_reduce_1 {
    () => {
        "vpclmulqdq zmm10, zmm16, zmm14, 0x00\nvpshufd zmm11, zmm16, 0x4e\n"
    };
}

/// Its second half.
macro_rules! wide_reduce_1b {
    () => {
        "vpternlogq zmm17, zmm11, zmm10, 0x96\n"
    };
}

/// The second step, the middle's multiple onto the high word.
macro_rules! wide_reduce_2 {
    () => {
        "vpclmulqdq zmm10, zmm17, zmm14, 0x00\nvpshufd zmm11, zmm17, 0x4e\n"
    };
}

/// The four lanes of the reduced sums added: the hash in xmm15 (zero above).
macro_rules! wide_fold {
    () => {
        concat!(
            "vpternlogq zmm10, zmm11, zmm18, 0x96\n",
            "vextracti64x4 ymm11, zmm10, 1\n",
            "vpxorq ymm10, ymm10, ymm11\n",
            "vextracti32x4 xmm11, ymm10, 1\n",
            "vpxorq xmm15, xmm10, xmm11\n",
        )
    };
}

/// The last round on AES register `$a` with the data at `[{dst} + 64 · $a]` XOR-ed into the
/// key (zmm8), so that the result is the output.
macro_rules! wide_last {
    ($a:literal) => {
        concat!(
            "vpxorq zmm12, zmm8, zmmword ptr [{dst} + 64 * ",
            $a,
            "]\n",
            "vaesenclast zmm",
            $a,
            ", zmm",
            $a,
            ", zmm12\n",
        )
    };
}

/// The wide loop for `$nr` rounds; `$extra` are the rounds past 9 (none for AES-128), which
/// run with no GHASH work between them.
macro_rules! wide {
    ($rk:ident, $hp:ident, $ctr:ident, $acc:ident, $src:ident, $dst:ident, $n:ident, $nr:literal, $($extra:literal),*) => {
        asm!(
            "vbroadcasti32x4 zmm13, xmmword ptr [{cst}]",
            "vbroadcasti32x4 zmm14, xmmword ptr [{cst} + 32]",
            "vbroadcasti32x4 zmm20, xmmword ptr [{cst} + 112]",
            "vbroadcasti32x4 zmm21, xmmword ptr [{cst} + 192]",
            "vbroadcasti32x4 zmm23, xmmword ptr [{rk}]",
            "vbroadcasti32x4 zmm24, xmmword ptr [{rk} + 16]",
            "vbroadcasti32x4 zmm25, xmmword ptr [{rk} + 32]",
            "vbroadcasti32x4 zmm26, xmmword ptr [{rk} + 48]",
            "vbroadcasti32x4 zmm27, xmmword ptr [{rk} + 64]",
            "vbroadcasti32x4 zmm28, xmmword ptr [{rk} + 80]",
            "vbroadcasti32x4 zmm29, xmmword ptr [{rk} + 96]",
            "vbroadcasti32x4 zmm30, xmmword ptr [{rk} + 112]",
            "vbroadcasti32x4 zmm31, xmmword ptr [{rk} + 128]",
            // The incoming hash as a reduced high word: the first reduction passes it through.
            "vpxorq xmm16, xmm16, xmm16",
            "vpxorq xmm17, xmm17, xmm17",
            "vmovdqa64 xmm18, xmm15",
            ".p2align 6",
            "2:",
            "vmovdqu64 zmm12, zmmword ptr [{src} + 64]",
            // Counter blocks, whitened: byte additions when the low byte does not carry.
            "vmovd {t:e}, xmm19",
            "cmp {t:l}, 224",
            "ja 4f",
            "vpshufb zmm9, zmm19, zmm13",
            "vpxord zmm0, zmm9, zmm23",
            "vpaddb zmm9, zmm9, zmm20",
            "vpxord zmm1, zmm9, zmm23",
            "vpaddb zmm9, zmm9, zmm20",
            "vpxord zmm2, zmm9, zmm23",
            "vpaddb zmm9, zmm9, zmm20",
            "vpxord zmm3, zmm9, zmm23",
            "vpaddb zmm9, zmm9, zmm20",
            "vpxord zmm4, zmm9, zmm23",
            "vpaddb zmm9, zmm9, zmm20",
            "vpxord zmm5, zmm9, zmm23",
            "vpaddb zmm9, zmm9, zmm20",
            "vpxord zmm6, zmm9, zmm23",
            "vpaddb zmm9, zmm9, zmm20",
            "vpxord zmm7, zmm9, zmm23",
            "vpaddd zmm19, zmm19, zmm21",
            "jmp 5f",
            "4:",
            "vbroadcasti32x4 zmm8, xmmword ptr [{cst} + 176]",
            "vpshufb zmm0, zmm19, zmm13",
            "vpaddd zmm19, zmm19, zmm8",
            "vpshufb zmm1, zmm19, zmm13",
            "vpaddd zmm19, zmm19, zmm8",
            "vpshufb zmm2, zmm19, zmm13",
            "vpaddd zmm19, zmm19, zmm8",
            "vpshufb zmm3, zmm19, zmm13",
            "vpaddd zmm19, zmm19, zmm8",
            "vpshufb zmm4, zmm19, zmm13",
            "vpaddd zmm19, zmm19, zmm8",
            "vpshufb zmm5, zmm19, zmm13",
            "vpaddd zmm19, zmm19, zmm8",
            "vpshufb zmm6, zmm19, zmm13",
            "vpaddd zmm19, zmm19, zmm8",
            "vpshufb zmm7, zmm19, zmm13",
            "vpaddd zmm19, zmm19, zmm8",
            "vpxord zmm0, zmm0, zmm23",
            "vpxord zmm1, zmm1, zmm23",
            "vpxord zmm2, zmm2, zmm23",
            "vpxord zmm3, zmm3, zmm23",
            "vpxord zmm4, zmm4, zmm23",
            "vpxord zmm5, zmm5, zmm23",
            "vpxord zmm6, zmm6, zmm23",
            "vpxord zmm7, zmm7, zmm23",
            "5:",
            // Rounds 1 and 2: the previous iteration's reduction, the first inputs loaded.
            wide_round!(
                "zmm24",
                wide_reduce_1!(),
                "vpshufb zmm12, zmm12, zmm13\n",
                wide_reduce_1b!(),
                wide_load!("zmm22", 2)
            ),
            wide_round!(
                "zmm25",
                wide_reduce_2!(),
                "",
                wide_fold!(),
                ""
            ),
            // Rounds 3–9, each with one register's products and the load of the register
            // after next; register 0, which takes the reduced hash, in the last round.
            wide_ghash!("zmm26", init, "zmm12", 1, wide_load!("zmm12", 3)),
            wide_ghash!("zmm27", add, "zmm22", 2, wide_load!("zmm22", 4)),
            wide_ghash!("zmm28", add, "zmm12", 3, wide_load!("zmm12", 5)),
            wide_ghash!("zmm29", add, "zmm22", 4, wide_load!("zmm22", 6)),
            wide_ghash!("zmm30", add, "zmm12", 5, wide_load!("zmm12", 7)),
            wide_ghash!("zmm31", add, "zmm22", 6, wide_load!("zmm22", 0)),
            wide_key!(9),
            wide_ghash!("zmm8", add, "zmm12", 7, "vpxorq zmm22, zmm22, zmm15\n"),
            $(wide_key!($extra), wide_round!("zmm8", "", "", "", ""),)*
            wide_key!($nr),
            wide_last!(0),
            wide_last!(1),
            "vpshufd zmm9, zmm22, 0x4e\nvpxord zmm9, zmm9, zmm22\n",
            wide_last!(2),
            wide_last!(3),
            "vpclmulqdq zmm10, zmm22, zmmword ptr [{hp}], 0x00\nvpxord zmm16, zmm16, zmm10\n",
            wide_last!(4),
            wide_last!(5),
            "vpclmulqdq zmm11, zmm22, zmmword ptr [{hp}], 0x11\nvpxord zmm18, zmm18, zmm11\n",
            wide_last!(6),
            wide_last!(7),
            "vpclmulqdq zmm9, zmm9, zmmword ptr [{hp} + 512], 0x00\n",
            "vpternlogq zmm17, zmm9, zmm16, 0x96\n",
            "vmovdqu64 zmmword ptr [{dst}], zmm0",
            "vmovdqu64 zmmword ptr [{dst} + 64], zmm1",
            "vmovdqu64 zmmword ptr [{dst} + 128], zmm2",
            "vmovdqu64 zmmword ptr [{dst} + 192], zmm3",
            "vmovdqu64 zmmword ptr [{dst} + 256], zmm4",
            "vmovdqu64 zmmword ptr [{dst} + 320], zmm5",
            "vmovdqu64 zmmword ptr [{dst} + 384], zmm6",
            "vmovdqu64 zmmword ptr [{dst} + 448], zmm7",
            "vpxord zmm17, zmm17, zmm18\n",
            "add {src}, 512",
            "add {dst}, 512",
            "dec {n}",
            "jnz 2b",
            // The last iteration's reduction.
            wide_reduce_1!(),
            wide_reduce_1b!(),
            wide_reduce_2!(),
            wide_fold!(),
            rk = in(reg) $rk.as_ptr(),
            hp = in(reg) $hp.as_ptr(),
            cst = in(reg) &raw const CONSTS,
            src = inout(reg) $src => _,
            dst = inout(reg) $dst => _,
            n = inout(reg) $n => _,
            t = out(reg) _,
            inout("zmm19") *$ctr,
            inout("xmm15") *$acc,
            out("zmm0") _, out("zmm1") _, out("zmm2") _, out("zmm3") _,
            out("zmm4") _, out("zmm5") _, out("zmm6") _, out("zmm7") _,
            out("zmm8") _, out("zmm9") _, out("zmm10") _, out("zmm11") _,
            out("zmm12") _, out("zmm13") _, out("zmm14") _,
            out("zmm16") _, out("zmm17") _, out("zmm18") _,
            out("zmm20") _, out("zmm21") _, out("zmm22") _, out("zmm23") _,
            out("zmm24") _, out("zmm25") _, out("zmm26") _, out("zmm27") _,
            out("zmm28") _, out("zmm29") _, out("zmm30") _, out("zmm31") _,
            options(nostack),
        )
    };
}

/// The main loop of the VAES/VPCLMULQDQ AES-GCM in `core_aead`'s `gcm/x86_vaes_vpclmul.rs`:
/// `n` iterations, each running 32 counter blocks (eight registers of four, from the
/// byte-reversed counters `*ctr`, four consecutive lanes, which advance by 32) through the
/// `nr` rounds of `rk` and XOR-ing them into the 512 bytes at `dst` (in place), while the
/// 512 bytes at `src` are multiplied by H³²…H¹ and summed with `*acc` added to the first
/// block. The powers `hp` are the eight registers of H³²…H¹ then the eight of the XORs of
/// their halves (Karatsuba's middle factors); the hash `*acc` is the reduced result.
///
/// One `asm!` block, so the schedule is the one written, not the compiler's (measured on
/// Zen 5: `vpclmulqdq` one per two cycles on a port of its own, `vaesenc` two per cycle at
/// latency four): round keys 1–8 stay in registers (the others are broadcast as used); the
/// previous iteration's sums are reduced over rounds 1–2, so the reduction's latency hides
/// under this iteration's rounds; each GHASH input register is loaded and byte-reversed two
/// rounds before its three products, which go between the `vaesenc`s of rounds 3–9, one
/// piece after every second; the register that takes the reduced hash goes with the last
/// round, whose key carries the data; AES-192/256's extra rounds carry no GHASH work. The
/// loop head is 64-byte aligned.
///
/// Its Rust twin is the `group!` loop in `gcm/x86_vaes_vpclmul.rs` (built without the `asm`
/// feature); the AES-GCM tests compare both with the other implementations.
///
/// # Safety
///
/// VAES, VPCLMULQDQ and AVX-512 F/BW/VL must be available; `nr` must be 10, 12 or 14; `src`
/// must be readable and `dst` readable and writable for `512 n` bytes. Iteration `i` reads
/// the 512 bytes at `src + 512 i` before it writes those at `dst + 512 i`, so `src` may be
/// `dst` (decryption hashes the ciphertext it decrypts) or `dst − 512` (encryption hashes
/// the ciphertext of the iteration before).
#[target_feature(enable = "avx512f,avx512bw,avx512vl,vaes,vpclmulqdq")]
#[inline]
#[allow(clippy::too_many_arguments)]
pub unsafe fn wide_loop(
    rk: &[[u8; 16]; 15],
    nr: usize,
    hp: &[__m512i; 16],
    ctr: &mut __m512i,
    acc: &mut __m128i,
    src: *const u8,
    dst: *mut u8,
    n: usize,
) {
    if n == 0 {
        return;
    }
    // SAFETY: the caller guarantees the CPU features and the `512 n` bytes at `src` and
    // `dst`, read and written in the order the contract states; the round keys (`rk[..=nr]`,
    // `nr ≤ 14`), the powers (16 registers) and the constants (offsets below 208) are in
    // bounds. The loop runs `n ≥ 1` times and branches only on `n` and the public counter.
    unsafe {
        match nr {
            10 => wide!(rk, hp, ctr, acc, src, dst, n, 10,),
            12 => wide!(rk, hp, ctr, acc, src, dst, n, 12, 10, 11),
            _ => wide!(rk, hp, ctr, acc, src, dst, n, 14, 10, 11, 12, 13),
        }
    }
}

/// Nothing, as far as the CPU is concerned; to the compiler, a point that the AES state `x`
/// (`A` = 8 or 4 registers) and the four values of `more` (the GHASH sums and the next GHASH
/// input) all pass through, so that it emits the GHASH steps between the rounds' `vaesenc`s
/// rather than all of them in one run (measured on Zen 5 in `gcm/x86_vaes_vpclmul.rs`: the
/// multiplies then wait behind a long queue of rounds). Other `A` pass through nothing.
///
/// # Safety
///
/// The CPU must have AVX-512 F: a caller compiled with that target feature calls it safely.
#[target_feature(enable = "avx512f")]
#[inline]
pub fn fence_zmm<const A: usize>(x: &mut [__m512i; A], more: [&mut __m512i; 4]) {
    let [a, b, c, d] = more;
    if A == 8 {
        // SAFETY: the template is a comment: no instructions, no memory, registers unchanged.
        unsafe {
            asm!(
                "/* {0} {1} {2} {3} {4} {5} {6} {7} {8} {9} {10} {11} */",
                inout(zmm_reg) *a,
                inout(zmm_reg) *b,
                inout(zmm_reg) *c,
                inout(zmm_reg) *d,
                inout(zmm_reg) x[0],
                inout(zmm_reg) x[1],
                inout(zmm_reg) x[2],
                inout(zmm_reg) x[3],
                inout(zmm_reg) x[4],
                inout(zmm_reg) x[5],
                inout(zmm_reg) x[6],
                inout(zmm_reg) x[7],
                options(pure, nomem, nostack, preserves_flags),
            );
        }
    } else if A == 4 {
        // SAFETY: as above.
        unsafe {
            asm!(
                "/* {0} {1} {2} {3} {4} {5} {6} {7} */",
                inout(zmm_reg) *a,
                inout(zmm_reg) *b,
                inout(zmm_reg) *c,
                inout(zmm_reg) *d,
                inout(zmm_reg) x[0],
                inout(zmm_reg) x[1],
                inout(zmm_reg) x[2],
                inout(zmm_reg) x[3],
                options(pure, nomem, nostack, preserves_flags),
            );
        }
    }
}
