//! AES-GCM kernels: the stitched AES-NI/PCLMULQDQ batch ([`stitched_batch`]) and the
//! scheduling fence of the VAES/VPCLMULQDQ loop ([`fence_zmm`]), for `core_aead`'s
//! `gcm/x86_aesni_pclmul.rs` and `gcm/x86_vaes_vpclmul.rs`.

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
