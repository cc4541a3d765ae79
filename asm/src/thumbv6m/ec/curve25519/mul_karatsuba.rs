//! The 256×256→512-bit product for the Cortex-M0 by subtractive Karatsuba on two levels, all
//! in one block of Thumb-1 assembly: the product of `A0 + 2^128 A1` and `B0 + 2^128 B1` from
//! three 128×128 products (`A0·B0`, `A1·B1`, `|A0 − A1|·|B0 − B1|`) by one subroutine, which
//! makes each of them from three 64×64 products the same way, those by schoolbook from four
//! 32×32→64 word products. `MULS` gives only the low 32 bits, so a word product is four
//! 16×16-bit `MULS` on the halves, combined with shifts and carries (17 instructions): 36 of
//! them where one level needed 48 and schoolbook 64.
//!
//! 1500 Cortex-M0+ cycles and 1020 bytes counted on the disassembly (loads and stores 2,
//! `LDM`/`STM`/`PUSH`/`POP` 1 + N, `BL` 3, `BX` and `B` 2, the rest 1), against 1748 and 1244
//! for one level of Karatsuba over a product-scanning 128×128: 801 of them are the nine 64×64
//! products with their loads, the rest moves words between memory and the seven usable low
//! registers. The technique is the one of Düll et al., "High-speed Curve25519 on 8-bit,
//! 16-bit and 32-bit microcontrollers" (2015; X25519 in 3,589,850 cycles on the Cortex-M0);
//! the code is our own. Each difference's sign is a mask, and the product of the two signs is
//! applied by a masked conditional negation while adding: nothing branches on the values (the
//! only branches are the three calls of the 128×128 subroutine, [`mul128`], and
//! its returns), and every address is a fixed offset.
//!
//! Those figures are the 512-bit product's: the ×38 fold at the end of the routine
//! (`reduce_wide!`) adds about 175 cycles and 260 bytes (1280 bytes in all).

/// The 64-bit product of the words in `$a` and `$b` into `$lo` (low) and `$a` (high), from
/// the four 16×16-bit products of their halves: `al·bl + (ah·bl + al·bh)·2^16 + ah·bh·2^32`,
/// each middle product split at bit 16 and added on its own (their sum could carry out of a
/// word); nothing carries out of the top word since the product is below 2^64. `$b`, `$t0`
/// and `$t1` are clobbered.
#[rustfmt::skip]
macro_rules! mul32 {
    ($a:literal, $b:literal, $lo:literal, $t0:literal, $t1:literal) => {
        concat!(
            "uxth ", $t0, ", ", $a, "\n",
            "lsrs ", $a, ", ", $a, ", #16\n",
            "uxth ", $t1, ", ", $b, "\n",
            "lsrs ", $b, ", ", $b, ", #16\n",
            "mov ", $lo, ", ", $t0, "\n",
            "muls ", $lo, ", ", $t1, "\n",
            "muls ", $t1, ", ", $a, "\n",
            "muls ", $a, ", ", $b, "\n",
            "muls ", $b, ", ", $t0, "\n",
            "lsls ", $t0, ", ", $t1, ", #16\n",
            "lsrs ", $t1, ", ", $t1, ", #16\n",
            "adds ", $lo, ", ", $t0, "\n",
            "adcs ", $a, ", ", $t1, "\n",
            "lsls ", $t0, ", ", $b, ", #16\n",
            "lsrs ", $b, ", ", $b, ", #16\n",
            "adds ", $lo, ", ", $t0, "\n",
            "adcs ", $a, ", ", $b, "\n",
        )
    };
}

/// Loads an operand word into `$d`: from `sp + $o`, or from the high register in
/// `(reg $r)`.
macro_rules! get {
    ($d:literal, $o:literal) => {
        concat!("ldr ", $d, ", [sp, #", $o, "]\n")
    };
    ($d:literal, (reg $r:literal)) => {
        concat!("mov ", $d, ", ", $r, "\n")
    };
}

/// The 128-bit product `(x0 + 2^32 x1)·(y0 + 2^32 y1)` by schoolbook (operand words at
/// `sp + $x0`… byte offsets, or in a high register: `get!`), in three steps between which the
/// caller moves the finished low words out. First `x0·y0` and `x0·y1`, the halves of `x0`
/// split once and kept for both (nothing else is live yet, so the seven low registers
/// suffice): word 0 in r2, and what words 1 and 2 have so far in r0 and r1. Clobbers r3–r6.
#[rustfmt::skip]
macro_rules! mul64_a {
    ($x0:tt, $y0:tt, $y1:tt) => {
        concat!(
            get!("r0", $x0),
            get!("r1", $y0),
            // x0's halves in r5 and r6, y0's in r3 and r1.
            "uxth r5, r0\n",
            "lsrs r6, r0, #16\n",
            "uxth r3, r1\n",
            "lsrs r1, r1, #16\n",
            "mov r2, r5\n",
            "muls r2, r3\n",
            "mov r0, r6\n",
            "muls r0, r1\n",
            "muls r3, r6\n",
            "muls r1, r5\n",
            "lsls r4, r3, #16\n",
            "lsrs r3, r3, #16\n",
            "adds r2, r4\n",
            "adcs r0, r3\n",
            "lsls r4, r1, #16\n",
            "lsrs r1, r1, #16\n",
            "adds r2, r4\n",
            "adcs r0, r1\n",
            // x0·y1 into r4 (low) and r1 (high), y1's halves in r3 and r1.
            get!("r1", $y1),
            "uxth r3, r1\n",
            "lsrs r1, r1, #16\n",
            "mov r4, r5\n",
            "muls r4, r3\n",
            "muls r3, r6\n",
            "muls r5, r1\n",
            "muls r1, r6\n",
            "lsls r6, r3, #16\n",
            "lsrs r3, r3, #16\n",
            "adds r4, r6\n",
            "adcs r1, r3\n",
            "lsls r6, r5, #16\n",
            "lsrs r5, r5, #16\n",
            "adds r4, r6\n",
            "adcs r1, r5\n",
            "adds r0, r4\n",
            "movs r4, #0\n",
            "adcs r1, r4\n",
        )
    };
}

/// Then `x1·y0`: word 1 in r0, and what words 2 and 3 have so far in r1 and r2 (the carry).
/// Clobbers r3–r6 (the caller has moved word 0 out of r2).
#[rustfmt::skip]
macro_rules! mul64_b {
    ($x1:tt, $y0:tt) => {
        concat!(
            get!("r2", $x1),
            get!("r3", $y0),
            mul32!("r2", "r3", "r4", "r5", "r6"),
            "adds r0, r4\n",
            "adcs r1, r2\n",
            "movs r2, #0\n",
            "adcs r2, r2\n",
        )
    };
}

/// Last `x1·y1`: words 2 and 3 in r4 and r5. Clobbers r0, r1, r3 and r6 (the caller has
/// moved word 1 out of r0).
#[rustfmt::skip]
macro_rules! mul64_c {
    ($x1:tt, $y1:tt) => {
        concat!(
            get!("r5", $x1),
            get!("r3", $y1),
            mul32!("r5", "r3", "r4", "r0", "r6"),
            "adds r4, r1\n",
            "adcs r5, r2\n",
        )
    };
}

/// `|x0 − x1|` for the two 64-bit halves of the four words at r0 (advancing it), into r1
/// and r2, and the mask (all ones when `x0 < x1`) in `$m`: the difference, then
/// `(d ^ m) − m`. r1, r2 and `$t` are clobbered.
#[rustfmt::skip]
macro_rules! abs_diff64 {
    ($m:literal, $t:literal) => {
        concat!(
            "ldm r0!, {{r1, r2, ", $m, ", ", $t, "}}\n",
            "subs r1, ", $m, "\n",
            "sbcs r2, ", $t, "\n",
            "sbcs ", $m, ", ", $m, "\n",
            "eors r1, ", $m, "\n",
            "eors r2, ", $m, "\n",
            "subs r1, ", $m, "\n",
            "sbcs r2, ", $m, "\n",
        )
    };
}

/// Copies the two 128-bit halves of the eight words at r0 to `sp + $x0` and `sp + $x0 + 32`
/// (the operands of the outer products) and stores `|x0 − x1|` at `sp + $d`, leaving the
/// mask (all ones when `x0 < x1`) in r5: the difference, then `(d ^ m) − m` with `m` the
/// mask in every word. The second half comes by pairs into r5 and r6 and is stored
/// sp-relative (no pointer register), between the borrows (`ldm` and `str` leave the flags).
macro_rules! split_abs_diff {
    ($x0:literal, $d:literal) => {
        concat!(
            "add r6, sp, #",
            $x0,
            "\n",
            "ldm r0!, {{r1, r2, r3, r4}}\n",
            "stm r6!, {{r1, r2, r3, r4}}\n",
            "ldm r0!, {{r5, r6}}\n",
            "str r5, [sp, #(",
            $x0,
            " + 32)]\n",
            "str r6, [sp, #(",
            $x0,
            " + 36)]\n",
            "subs r1, r1, r5\n",
            "sbcs r2, r6\n",
            "ldm r0!, {{r5, r6}}\n",
            "str r5, [sp, #(",
            $x0,
            " + 40)]\n",
            "str r6, [sp, #(",
            $x0,
            " + 44)]\n",
            "sbcs r3, r5\n",
            "sbcs r4, r6\n",
            "sbcs r5, r5\n",
            "eors r1, r5\n",
            "eors r2, r5\n",
            "eors r3, r5\n",
            "eors r4, r5\n",
            "subs r1, r1, r5\n",
            "sbcs r2, r5\n",
            "sbcs r3, r5\n",
            "sbcs r4, r5\n",
            "add r6, sp, #",
            $d,
            "\n",
            "stm r6!, {{r1, r2, r3, r4}}\n",
        )
    };
}

/// Eight words returned by the C ABI (through the caller's memory, whose address arrives in
/// r0), which [`mul_to`] relies on.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub struct Words8(pub [u32; 8]);

/// The product's top quarter, in r0–r3 at the end of `karatsuba_mul!`: `memory` stores it
/// (r4 is 16 bytes past its place), `registers` moves it to r8–r11, where the fold takes it.
macro_rules! top_quarter {
    (memory) => {
        concat!("subs r4, #16\n", "stm r4!, {{r0, r1, r2, r3}}\n")
    };
    (registers) => {
        concat!("mov r8, r0\n", "mov r9, r1\n", "mov r10, r2\n", "mov r11, r3\n")
    };
}

/// The 128×128 product of X, the four words at sp, by Y, the four at sp + 16, into
/// the eight at r2 (kept in r9), by Karatsuba again: L = X0·Y0 and H = X1·Y1, then
/// D = |X0 − X1|·|Y0 − Y1| in registers and R = L + (L + H ∓ D)·2^64 + H·2^128.
/// L's low half goes to R at once; its high half and H go to the subroutine's own
/// frame (sp-relative stores, which need no pointer in a low register), as does
/// |Y0 − Y1|; |X0 − X1| is kept in r10 and r12. The frame is 32 bytes (X and Y 32
/// bytes up): |Y0 − Y1| at 0, L's high half at 8, H at 16. Clobbers r0–r6 and
/// r8–r12; returns through lr (it calls nothing).
#[rustfmt::skip]
macro_rules! mul128 {
    () => {
        concat!(
            "mov r9, r2\n",
            "sub sp, #32\n",
            "add r0, sp, #32\n",
            abs_diff64!("r3", "r4"),
            "mov r10, r1\n",
            "mov r12, r2\n",
            abs_diff64!("r4", "r5"),
            "str r1, [sp, #0]\n",
            "str r2, [sp, #4]\n",
            // S (r11): all ones when (X0 − X1)·(Y0 − Y1) ≥ 0, that is when D is subtracted.
            "eors r3, r4\n",
            "mvns r3, r3\n",
            "mov r11, r3\n",
            // L: its low half into R[0..2), its high half into the frame.
            mul64_a!("32", "48", "52"),
            "mov r3, r9\n",
            "str r2, [r3, #0]\n",
            mul64_b!("36", "48"),
            "mov r3, r9\n",
            "str r0, [r3, #4]\n",
            mul64_c!("36", "52"),
            "str r4, [sp, #8]\n",
            "str r5, [sp, #12]\n",
            // H into the frame.
            mul64_a!("40", "56", "60"),
            "str r2, [sp, #16]\n",
            mul64_b!("44", "56"),
            "str r0, [sp, #20]\n",
            mul64_c!("44", "60"),
            "str r4, [sp, #24]\n",
            "str r5, [sp, #28]\n",
            // D in r8, r10, r4, r5 (|X0 − X1| is read from r10 and r12, its first word for
            // the last time before r10 takes D's second word).
            mul64_a!((reg "r10"), "0", "4"),
            "mov r8, r2\n",
            mul64_b!((reg "r12"), "0"),
            "mov r10, r0\n",
            mul64_c!((reg "r12"), "4"),
            // T = (D ^ S) + (S & 1) + L + H in r0, r1, r4, r5 and r6 (S plus the carries).
            "mov r6, r11\n",
            "mov r0, r8\n",
            "mov r1, r10\n",
            "eors r0, r6\n",
            "eors r1, r6\n",
            "eors r4, r6\n",
            "eors r5, r6\n",
            "mov r2, r9\n",
            "lsrs r3, r6, #1\n",
            "ldr r3, [r2, #0]\n",
            "adcs r0, r3\n",
            "ldr r3, [r2, #4]\n",
            "adcs r1, r3\n",
            "ldr r3, [sp, #8]\n",
            "adcs r4, r3\n",
            "ldr r3, [sp, #12]\n",
            "adcs r5, r3\n",
            "movs r3, #0\n",
            "adcs r6, r3\n",
            "ldr r3, [sp, #16]\n",
            "adds r0, r3\n",
            "ldr r3, [sp, #20]\n",
            "adcs r1, r3\n",
            "ldr r3, [sp, #24]\n",
            "adcs r4, r3\n",
            "ldr r3, [sp, #28]\n",
            "adcs r5, r3\n",
            "movs r3, #0\n",
            "adcs r6, r3\n",
            // R[2..8) = (L's high half, H) + T, by pairs: each sum into T's registers (r0
            // and r1 once free), stored with r2 walking R; H read with r3 walking the frame.
            // `add r3, sp, #16`, `ldm`, `stm` and `movs r4, #0` leave the carry alone.
            "adds r2, #8\n",
            "ldr r3, [sp, #8]\n",
            "adds r0, r3\n",
            "ldr r3, [sp, #12]\n",
            "adcs r1, r3\n",
            "stm r2!, {{r0, r1}}\n",
            "add r3, sp, #16\n",
            "ldm r3!, {{r0, r1}}\n",
            "adcs r0, r4\n",
            "adcs r1, r5\n",
            "stm r2!, {{r0, r1}}\n",
            "ldm r3!, {{r0, r1}}\n",
            "adcs r0, r6\n",
            "movs r4, #0\n",
            "adcs r1, r4\n",
            "stm r2!, {{r0, r1}}\n",
            "add sp, #32\n",
            "bx lr\n",
        )
    };
}

/// The subroutine of `mul` and `mul_wide`: a naked function, not a global symbol, reached
/// only by their `bl`s through a `sym` operand (so two versions of this crate link side by
/// side). Its calling convention is its own (see `mul128!`), so nothing calls it from Rust.
// SAFETY: the body is `mul128!`, which keeps to the frame and registers its callers declare.
#[unsafe(naked)]
unsafe extern "C" fn mul128() {
    core::arch::naked_asm!(mul128!())
}

/// The whole product but its tail, as one template: `a` (r1) times `b` (r2) into the sixteen
/// words at r0, then r0 and r1 reloaded with the wide buffer and the result pointer (r3 on
/// entry) for the tail, which the caller writes after it: the fold
/// (`reduce_wide!`) for [`mul`], nothing for [`mul_wide`]. `$top` says where the top
/// quarter goes (`top_quarter!`). Ends with r6 still pushed.
#[rustfmt::skip]
macro_rules! karatsuba_mul {
    ($top:ident) => {
        concat!(
            "push {{r6}}\n",
            "sub sp, #140\n",
            "str r0, [sp, #128]\n",
            "str r3, [sp, #136]\n",
            "mov r12, r2\n",
            "mov r0, r1\n",
            // a0 at 0, a1 at 32, |a0 − a1| at 64 and its mask at 132; b0 at 16, b1 at 48,
            // |b0 − b1| at 80, then S.
            split_abs_diff!("0", "64"),
            "str r5, [sp, #132]\n",
            "mov r0, r12\n",
            split_abs_diff!("16", "80"),
            "ldr r6, [sp, #132]\n",
            "eors r6, r5\n",
            "mvns r6, r6\n",
            "str r6, [sp, #132]\n",
            // The subroutine multiplies the operands at sp and sp + 16: lo = a0·b0 into
            // r[0..8], then 32 bytes up hi = a1·b1 into r[8..16], then 32 more m into the
            // frame (sp + 32 then), which leaves m at sp + 32, the output pointer at 64 and S
            // at 68.
            "ldr r2, [sp, #128]\n",
            "bl {mul128}\n",
            "add sp, #32\n",
            "ldr r2, [sp, #96]\n",
            "adds r2, #32\n",
            "bl {mul128}\n",
            "add sp, #32\n",
            "add r2, sp, #32\n",
            "bl {mul128}\n",
            // out[4..16) += lo + hi + E with E = (m ^ S) + (S & 1) + S·2^256, by quarters:
            // lo = L0 + 2^128 L1, hi = H0 + 2^128 H1, m = M0 + 2^128 M1, and V = L1 + H0
            // shared by out[4..8) = V + L0 + E0 and out[8..12) = V + H1 + E1.
            // V (r0–r3, its carry in r8) takes H0's place in out[8..12); S in r12.
            "ldr r6, [sp, #68]\n",
            "mov r12, r6\n",
            "ldr r4, [sp, #64]\n",
            "adds r4, #16\n",
            "ldm r4!, {{r0, r1, r2, r3}}\n",
            "ldm r4!, {{r5, r6}}\n",
            "adds r0, r5\n",
            "adcs r1, r6\n",
            "ldm r4!, {{r5, r6}}\n",
            "adcs r2, r5\n",
            "adcs r3, r6\n",
            "movs r5, #0\n",
            "adcs r5, r5\n",
            "mov r8, r5\n",
            "subs r4, #16\n",
            "stm r4!, {{r0, r1, r2, r3}}\n",
            // out[4..8) = V + (M0 ^ S) + (S & 1) + L0; the carries plus V's in r5.
            "mov r6, r12\n",
            "lsrs r5, r6, #1\n",
            "ldr r5, [sp, #32]\n",
            "eors r5, r6\n",
            "adcs r0, r5\n",
            "ldr r5, [sp, #36]\n",
            "eors r5, r6\n",
            "adcs r1, r5\n",
            "ldr r5, [sp, #40]\n",
            "eors r5, r6\n",
            "adcs r2, r5\n",
            "ldr r5, [sp, #44]\n",
            "eors r5, r6\n",
            "adcs r3, r5\n",
            "movs r5, #0\n",
            "adcs r5, r5\n",
            "mov r9, r5\n",
            "subs r4, #48\n",
            "ldm r4!, {{r5, r6}}\n",
            "adds r0, r5\n",
            "adcs r1, r6\n",
            "ldm r4!, {{r5, r6}}\n",
            "adcs r2, r5\n",
            "adcs r3, r6\n",
            "stm r4!, {{r0, r1, r2, r3}}\n",
            "movs r5, #0\n",
            "adcs r5, r5\n",
            "add r5, r9\n",
            "add r5, r8\n",
            // out[8..12) = V + r5 + (M1 ^ S) + H1; x = S + V's carry + the carries (r5).
            "ldm r4!, {{r0, r1, r2, r3}}\n",
            "movs r6, #0\n",
            "adds r0, r5\n",
            "adcs r1, r6\n",
            "adcs r2, r6\n",
            "adcs r3, r6\n",
            "adcs r6, r6\n",
            "mov r9, r6\n",
            "mov r6, r12\n",
            "ldr r5, [sp, #48]\n",
            "eors r5, r6\n",
            "adds r0, r5\n",
            "ldr r5, [sp, #52]\n",
            "eors r5, r6\n",
            "adcs r1, r5\n",
            "ldr r5, [sp, #56]\n",
            "eors r5, r6\n",
            "adcs r2, r5\n",
            "ldr r5, [sp, #60]\n",
            "eors r5, r6\n",
            "adcs r3, r5\n",
            "movs r5, #0\n",
            "adcs r6, r5\n",
            "add r6, r9\n",
            "add r6, r8\n",
            "mov r9, r6\n",
            "ldm r4!, {{r5, r6}}\n",
            "adds r0, r5\n",
            "adcs r1, r6\n",
            "ldm r4!, {{r5, r6}}\n",
            "adcs r2, r5\n",
            "adcs r3, r6\n",
            "movs r5, #0\n",
            "adcs r5, r5\n",
            "add r5, r9\n",
            "subs r4, #32\n",
            "stm r4!, {{r0, r1, r2, r3}}\n",
            // out[12..16) = H1 + x: x is 0 to 5, never negative, since the product's top
            // quarter is at least H1. Stored, or kept in r8–r11 for the fold.
            "ldm r4!, {{r0, r1, r2, r3}}\n",
            "movs r6, #0\n",
            "adds r0, r5\n",
            "adcs r1, r6\n",
            "adcs r2, r6\n",
            "adcs r3, r6\n",
            top_quarter!($top),
            // The fold, after the subroutine: t (r0) into r (r1).
            "ldr r0, [sp, #64]\n",
            "ldr r1, [sp, #72]\n",
            "add sp, #76\n",
        )
    };
}

/// `a·b` for two values below 2^256 (little-endian words), reduced below 2^256: the full
/// 512-bit product `a0·b0 + (a0·b0 + a1·b1 − (a0 − a1)·(b0 − b1))·2^128 + a1·b1·2^256` for
/// the 128-bit halves, into a local buffer, then folded with 2^256 ≡ 38 (`reduce_wide!`) in
/// the same block: one call a field multiplication, no 16-word result for a caller. The C
/// ABI (the result through memory whose address comes in r0, `a` in r1, `b` in r2) lets
/// [`mul_to`] enter it with a destination of its own.
///
/// Frame (`sp` after the prologue): the three products' operand pairs `a0, b0`, `a1, b1`
/// and `|a0 − a1|, |b0 − b1|` at 0, 32 and 64, so that the subroutine finds each pair at
/// `sp` with sp moved up 32 bytes a call; then `m = |a0 − a1|·|b0 − b1|` at 96, the wide
/// buffer's pointer at 128, the sign mask `S` at 132 (all ones when
/// `(a0 − a1)·(b0 − b1) ≥ 0`, so that `m` is subtracted) and the result's pointer at 136.
/// The middle term is `lo + hi + E` with `E = (m ^ S) + (S & 1)` sign-extended by `S`; it is added by quarters around `V = L1 + H0`, which both middle
/// quarters of the result share.
#[inline(never)]
pub extern "C" fn mul(a: &[u32; 8], b: &[u32; 8]) -> Words8 {
    let mut t = core::mem::MaybeUninit::<[u32; 16]>::uninit();
    let mut r = core::mem::MaybeUninit::<[u32; 8]>::uninit();
    // SAFETY: reads the eight words at `a` and at `b`, writes the sixteen of `t` (all of
    // them: the two outer products fill it before the middle term is added in; the top
    // quarter's final value stays in registers) and then rereads the first twelve, writes
    // the eight of `r`, and uses 140 bytes of stack below sp for its frame and 32 more below
    // that for the subroutine's (both given back before the end). r0–r5, r8–r12 and lr are
    // declared clobbered; r6 (reserved by Rust) is pushed first and popped last; r7 (the
    // frame pointer) is not touched. The subroutine (`mul128!`) clobbers only registers
    // declared here and its 32 bytes of stack.
    unsafe {
        core::arch::asm!(
            karatsuba_mul!(registers),
            reduce_wide!("r8", "r9", "r10", "r11"),
            "pop {{r6}}",
            mul128 = sym mul128,
            inout("r0") t.as_mut_ptr() => _,
            inout("r1") a.as_ptr() => _,
            inout("r2") b.as_ptr() => _,
            inout("r3") r.as_mut_ptr() => _,
            out("r4") _, out("r5") _,
            out("r8") _, out("r9") _, out("r10") _, out("r11") _, out("r12") _, out("lr") _,
        );
    }
    // SAFETY: the assembly wrote all eight words of `r`.
    Words8(unsafe { r.assume_init() })
}

/// `a·b`, the full 512-bit product (little-endian words): [`mul`] without the fold, for
/// P-256's Montgomery field, which reduces it its own way. Out of line, as `mul`.
#[inline(never)]
pub fn mul_wide(a: &[u32; 8], b: &[u32; 8]) -> [u32; 16] {
    let mut t = core::mem::MaybeUninit::<[u32; 16]>::uninit();
    // SAFETY: as in `mul`, with `t` as the wide buffer and the empty tail: reads the eight
    // words at `a` and at `b`, writes the sixteen of `t`; the result pointer it keeps in its
    // frame (r3, a null) is reloaded into r1 but never used; 172 bytes of stack, restored;
    // r0–r5, r8–r12 and lr are declared clobbered, r6 is saved and restored, r7 untouched.
    unsafe {
        core::arch::asm!(
            karatsuba_mul!(memory),
            "pop {{r6}}",
            mul128 = sym mul128,
            inout("r0") t.as_mut_ptr() => _,
            inout("r1") a.as_ptr() => _,
            inout("r2") b.as_ptr() => _,
            inout("r3") 0usize => _,
            out("r4") _, out("r5") _,
            out("r8") _, out("r9") _, out("r10") _, out("r11") _, out("r12") _, out("lr") _,
        );
    }
    // SAFETY: the assembly wrote all sixteen words of `t`.
    unsafe { t.assume_init() }
}

/// `*r = a·b` reduced below 2^256: [`mul`] entered with `r` as its result's address (the
/// same registers: r0, r1, r2, by the C ABI), by a jump. `r` is `&mut`, so it overlaps
/// neither `a` nor `b`, which `mul` reads as shared references while it writes its result.
// SAFETY: two instructions: the address of `mul` (a Thumb function, bit 0 set) into r3,
// which `mul` does not take an argument in, and a jump to it with lr and the arguments as
// they came (references are pointers in the C ABI: eight writable words in r0, eight
// readable ones in r1 and r2), so that `mul` returns to our caller.
#[unsafe(naked)]
pub extern "C" fn mul_to(r: &mut [u32; 8], a: &[u32; 8], b: &[u32; 8]) {
    core::arch::naked_asm!("ldr r3, ={mul}", "bx r3", mul = sym mul)
}
