//! The full 256-bit square in Thumb-1 assembly for the Cortex-M0, by subtractive Karatsuba on
//! two levels: the square of `A0 + 2^128 A1` from the squares of `A0`, `A1` and `|A0 − A1|`
//! (one 128-bit subroutine called three times), each of those from the squares of its 64-bit
//! halves and of their difference, and those by schoolbook from 16×16-bit `MULS` products
//! (the Cortex-M0 has only the low 32 bits of a product). A squared difference needs no sign,
//! so the only data-dependent step is a conditional negation by mask.
//!
//! 868 Cortex-M0+ cycles (instructions counted on the disassembly: loads and stores 2,
//! `LDM`/`STM`/`PUSH`/`POP` 1 + N, `BL` 3, `BX` and `B` 2, the rest 1) and 624 bytes. The
//! technique is the one of Düll et al., "High-speed Curve25519 on 8-bit, 16-bit and 32-bit
//! microcontrollers" (2015; X25519 in 3,589,850 cycles on the Cortex-M0); the code is our own.
//! Straight-line: the only branches are the three calls of the 128-bit subroutine
//! ([`square128`]) and its returns; no address depends on data; `MULS` is fixed-time on every Cortex-M0/M0+.
//!
//! Those figures are the 512-bit square's: the ×38 fold at the end of the routine
//! (`reduce_wide!`) adds about 175 cycles and 256 bytes (890 bytes in all).

use core::mem::MaybeUninit;

/// The 64-bit square of the word in `$x` into `$lo` (low) and `$hi`, from its 16-bit halves
/// `l`, `h`: `l² + 2lh·2^16 + h²·2^32`, the middle product shifted by 17 and 15 bits so that it
/// is doubled for free. `$x` and `$t` are clobbered.
#[rustfmt::skip]
macro_rules! sq32 {
    ($x:literal, $lo:literal, $hi:literal, $t:literal) => {
        concat!(
            "uxth ", $lo, ", ", $x, "\n",
            "lsrs ", $hi, ", ", $x, ", #16\n",
            "mov ", $x, ", ", $lo, "\n",
            "muls ", $x, ", ", $hi, "\n",
            "muls ", $lo, ", ", $lo, "\n",
            "muls ", $hi, ", ", $hi, "\n",
            "lsls ", $t, ", ", $x, ", #17\n",
            "lsrs ", $x, ", ", $x, ", #15\n",
            "adds ", $lo, ", ", $t, "\n",
            "adcs ", $hi, ", ", $x, "\n",
        )
    };
}

/// The 128-bit square of `x0 + 2^32 x1` (words in `$x0`, `$x1`) by schoolbook: `x0·x1` from
/// four 16×16-bit products (into `$p` low, `$a1` high), the two word squares, and the product
/// added twice at word 1. The result's words end in `$hs` (a high register: seven low ones are
/// not enough), `$b0`, `$x0` and `$b1`; `$x1`, `$a0`, `$a1` and `$p` are clobbered.
#[rustfmt::skip]
macro_rules! sq64 {
    (
        $x0:literal, $x1:literal, $a0:literal, $a1:literal, $b0:literal, $b1:literal,
        $p:literal, $hs:literal $(,)?
    ) => {
        concat!(
            // x0·x1 = a0·b0 + (a1·b0 + a0·b1)·2^16 + a1·b1·2^32.
            "uxth ", $a0, ", ", $x0, "\n",
            "lsrs ", $a1, ", ", $x0, ", #16\n",
            "uxth ", $b0, ", ", $x1, "\n",
            "lsrs ", $b1, ", ", $x1, ", #16\n",
            "mov ", $p, ", ", $a0, "\n",
            "muls ", $p, ", ", $b0, "\n",
            "muls ", $b0, ", ", $a1, "\n",
            "muls ", $a1, ", ", $b1, "\n",
            "muls ", $b1, ", ", $a0, "\n",
            "lsls ", $a0, ", ", $b0, ", #16\n",
            "lsrs ", $b0, ", ", $b0, ", #16\n",
            "adds ", $p, ", ", $a0, "\n",
            "adcs ", $a1, ", ", $b0, "\n",
            "lsls ", $a0, ", ", $b1, ", #16\n",
            "lsrs ", $b1, ", ", $b1, ", #16\n",
            "adds ", $p, ", ", $a0, "\n",
            "adcs ", $a1, ", ", $b1, "\n",
            // x0² into (a0, b0), the low word parked in the high register; x1² into (x0, b1).
            sq32!($x0, $a0, $b0, $b1),
            "mov ", $hs, ", ", $a0, "\n",
            sq32!($x1, $x0, $b1, $a0),
            // Words 1 to 3 += 2·x0·x1.
            "movs ", $x1, ", #0\n",
            "adds ", $b0, ", ", $p, "\n",
            "adcs ", $x0, ", ", $a1, "\n",
            "adcs ", $b1, ", ", $x1, "\n",
            "adds ", $b0, ", ", $p, "\n",
            "adcs ", $x0, ", ", $a1, "\n",
            "adcs ", $b1, ", ", $x1, "\n",
        )
    };
}

/// The square of `a` (eight little-endian 32-bit words, any 256-bit value) reduced below
/// 2^256.
#[inline(always)]
pub fn square(a: &[u32; 8]) -> [u32; 8] {
    let mut r = MaybeUninit::<[u32; 8]>::uninit();
    // SAFETY: `a` is eight readable words, `r` eight writable ones.
    unsafe { square_raw(a, r.as_mut_ptr()) };
    // SAFETY: `square_raw` wrote all eight words of `r`.
    unsafe { r.assume_init() }
}

/// `*r = a²` reduced below 2^256, straight into the caller's words.
#[inline(always)]
pub fn square_to(a: &[u32; 8], r: &mut [u32; 8]) {
    // SAFETY: `a` is eight readable words, `r` eight writable ones.
    unsafe { square_raw(a, r) };
}

/// `a` replaced by its square reduced below 2^256, with no copy (`Field::square_n`).
#[inline(always)]
pub fn square_assign(a: &mut [u32; 8]) {
    let a: *mut [u32; 8] = a;
    // SAFETY: `a` is eight readable and writable words; `square_raw` allows `r == a`.
    unsafe { square_raw(a, a) };
}

/// The 128-bit square, a subroutine (r0 = X, r1 = R, returns with `bx lr`):
/// R = L + 2^128 H + 2^64 (L + H - S) with L = X0², H = X1², S = |X0 - X1|² (64-bit
/// halves).
#[rustfmt::skip]
macro_rules! square128 {
    () => {
        concat!(
            "mov r9, r1\n",
            "mov r10, r0\n",
            // L -> R[0..4).
            "ldm r0!, {{r4, r6}}\n",
            sq64!("r4", "r6", "r0", "r1", "r3", "r5", "r2", "r8"),
            "mov r2, r8\n",
            "mov r0, r9\n",
            "stm r0!, {{r2, r3, r4, r5}}\n",
            // H -> R[4..8).
            "mov r1, r10\n",
            "adds r1, #8\n",
            "ldm r1!, {{r4, r6}}\n",
            sq64!("r4", "r6", "r0", "r1", "r3", "r5", "r2", "r8"),
            "mov r2, r8\n",
            "mov r0, r9\n",
            "adds r0, #16\n",
            "stm r0!, {{r2, r3, r4, r5}}\n",
            // |X0 - X1|: the difference, negated (XOR with the borrow mask, minus it) if it
            // borrowed.
            "mov r0, r10\n",
            "ldm r0!, {{r1, r2, r3, r4}}\n",
            "subs r1, r3\n",
            "sbcs r2, r4\n",
            "sbcs r3, r3\n",
            "eors r1, r3\n",
            "eors r2, r3\n",
            "subs r1, r3\n",
            "sbcs r2, r3\n",
            // S in r0, r4, r1, r5; then N = S - H - L in them, its top word (-2 to 0) in r6.
            sq64!("r1", "r2", "r0", "r3", "r4", "r5", "r6", "r8"),
            "mov r0, r8\n",
            "mov r6, r9\n",
            "adds r6, #16\n",
            "ldm r6!, {{r2, r3}}\n",
            "subs r0, r2\n",
            "sbcs r4, r3\n",
            "ldm r6!, {{r2, r3}}\n",
            "sbcs r1, r2\n",
            "sbcs r5, r3\n",
            "sbcs r2, r2\n",
            "mov r8, r2\n",
            "mov r6, r9\n",
            "ldm r6!, {{r2, r3}}\n",
            "subs r0, r2\n",
            "sbcs r4, r3\n",
            "ldm r6!, {{r2, r3}}\n",
            "sbcs r1, r2\n",
            "sbcs r5, r3\n",
            // R[2..8) -= N with its top word t (r6) sign-extended: R2 and R3 (L2 and L3) are still
            // in r2 and r3; t's sign is the OR of the two borrows, t their sum.
            "sbcs r6, r6\n",
            "subs r2, r0\n",
            "sbcs r3, r4\n",
            "mov r0, r9\n",
            "str r2, [r0, #8]\n",
            "str r3, [r0, #12]\n",
            "mov r4, r8\n",
            "orrs r4, r6\n",
            "add r6, r8\n",
            "ldr r2, [r0, #16]\n",
            "sbcs r2, r1\n",
            "str r2, [r0, #16]\n",
            "ldr r2, [r0, #20]\n",
            "sbcs r2, r5\n",
            "str r2, [r0, #20]\n",
            "ldr r2, [r0, #24]\n",
            "sbcs r2, r6\n",
            "str r2, [r0, #24]\n",
            "ldr r2, [r0, #28]\n",
            "sbcs r2, r4\n",
            "str r2, [r0, #28]\n",
            "bx lr\n",
        )
    };
}

/// The subroutine of `square_raw` and `square_wide`: a naked function, not a global symbol, reached
/// only by their `bl`s through a `sym` operand (so two versions of this crate link side by
/// side). Its calling convention is its own (see `square128!`), so nothing calls it from Rust.
// SAFETY: the body is `square128!`, which keeps to the frame and registers its callers declare.
#[unsafe(naked)]
unsafe extern "C" fn square128() {
    core::arch::naked_asm!(square128!())
}

/// The square's top quarter, in r0–r3 at the end of `karatsuba_square!`: `memory` stores it
/// (r6 is 16 bytes past its place), `registers` moves it to r8, r9, r10 and lr (r11 holds
/// the wide buffer's pointer), where the fold takes it.
macro_rules! top_quarter {
    (memory) => {
        concat!("subs r6, #16\n", "stm r6!, {{r0, r1, r2, r3}}\n")
    };
    (registers) => {
        concat!("mov r8, r0\n", "mov r9, r1\n", "mov r10, r2\n", "mov lr, r3\n")
    };
}

/// The whole square but its tail, as one template: `a` (r0) squared into the sixteen words at
/// r1, ending with the wide buffer in r0 and the result pointer (r2 on entry) in r1: the
/// caller writes the tail after it, the fold (`reduce_wide!`) for [`square_raw`],
/// nothing for [`square_wide`]. `$top` says where the top quarter goes (`top_quarter!`).
/// Ends with r6 still pushed.
#[rustfmt::skip]
macro_rules! karatsuba_square {
    ($top:ident) => {
        concat!(
            // The 256-bit square: out = L + 2^256 H + 2^128 (L + H - S) with L = A0², H = A1²,
            // S = |A0 - A1|² (128-bit halves, squared by the subroutine). Stack frame: S at
            // sp[0..32), |A0 - A1| at sp[32..48), the result's pointer at 48; `a` stays in r12,
            // `out` (the wide buffer) in r11.
            "push {{r6}}\n",
            "sub sp, #52\n",
            "str r2, [sp, #48]\n",
            "mov r12, r0\n",
            "mov r11, r1\n",
            "bl {square128}\n",
            "mov r0, r12\n",
            "adds r0, #16\n",
            "mov r1, r11\n",
            "adds r1, #32\n",
            "bl {square128}\n",
            // |A0 - A1| -> sp[32..48).
            "mov r0, r12\n",
            "ldm r0!, {{r1, r2, r3, r4}}\n",
            "ldm r0!, {{r5, r6}}\n",
            "subs r1, r5\n",
            "sbcs r2, r6\n",
            "ldm r0!, {{r5, r6}}\n",
            "sbcs r3, r5\n",
            "sbcs r4, r6\n",
            "sbcs r5, r5\n",
            "eors r1, r5\n",
            "eors r2, r5\n",
            "eors r3, r5\n",
            "eors r4, r5\n",
            "subs r1, r5\n",
            "sbcs r2, r5\n",
            "sbcs r3, r5\n",
            "sbcs r4, r5\n",
            "add r0, sp, #32\n",
            "stm r0!, {{r1, r2, r3, r4}}\n",
            "add r0, sp, #32\n",
            "mov r1, sp\n",
            "bl {square128}\n",
            // V = L_hi + H_lo (carry in r8), kept in r9, r10, r12 and lr;
            // out[4..8) = V + L_lo - S_lo (signed carry in r4).
            "mov r6, r11\n",
            "adds r6, #16\n",
            "ldm r6!, {{r0, r1, r2, r3}}\n",
            "ldm r6!, {{r4, r5}}\n",
            "adds r0, r4\n",
            "adcs r1, r5\n",
            "ldm r6!, {{r4, r5}}\n",
            "adcs r2, r4\n",
            "adcs r3, r5\n",
            "movs r4, #0\n",
            "adcs r4, r4\n",
            "mov r8, r4\n",
            "mov r9, r0\n",
            "mov r10, r1\n",
            "mov r12, r2\n",
            "mov lr, r3\n",
            "subs r6, #48\n",
            "ldm r6!, {{r4, r5}}\n",
            "adds r0, r4\n",
            "adcs r1, r5\n",
            "ldm r6!, {{r4, r5}}\n",
            "adcs r2, r4\n",
            "adcs r3, r5\n",
            "movs r4, #0\n",
            "adcs r4, r4\n",
            "ldr r5, [sp, #0]\n",
            "subs r0, r5\n",
            "ldr r5, [sp, #4]\n",
            "sbcs r1, r5\n",
            "ldr r5, [sp, #8]\n",
            "sbcs r2, r5\n",
            "ldr r5, [sp, #12]\n",
            "sbcs r3, r5\n",
            "sbcs r5, r5\n",
            "adds r4, r5\n",
            "stm r6!, {{r0, r1, r2, r3}}\n",
            // out[8..12) = V + H_hi - S_hi + the carries into it (r4: the one above and V's).
            "add r4, r8\n",
            "mov r0, r9\n",
            "mov r1, r10\n",
            "mov r2, r12\n",
            "mov r3, lr\n",
            "asrs r5, r4, #31\n",
            "adds r0, r4\n",
            "adcs r1, r5\n",
            "adcs r2, r5\n",
            "adcs r3, r5\n",
            "movs r4, #0\n",
            "adcs r5, r4\n",
            "ldr r4, [r6, #16]\n",
            "adds r0, r4\n",
            "ldr r4, [r6, #20]\n",
            "adcs r1, r4\n",
            "ldr r4, [r6, #24]\n",
            "adcs r2, r4\n",
            "ldr r4, [r6, #28]\n",
            "adcs r3, r4\n",
            "movs r4, #0\n",
            "adcs r5, r4\n",
            "ldr r4, [sp, #16]\n",
            "subs r0, r4\n",
            "ldr r4, [sp, #20]\n",
            "sbcs r1, r4\n",
            "ldr r4, [sp, #24]\n",
            "sbcs r2, r4\n",
            "ldr r4, [sp, #28]\n",
            "sbcs r3, r4\n",
            "sbcs r4, r4\n",
            "adds r5, r4\n",
            "stm r6!, {{r0, r1, r2, r3}}\n",
            // out[12..16) = H_hi + the carries into it (r5 and V's). Stored, or kept in r8,
            // r9, r10 and lr for the fold.
            "add r5, r8\n",
            "ldm r6!, {{r0, r1, r2, r3}}\n",
            "asrs r4, r5, #31\n",
            "adds r0, r5\n",
            "adcs r1, r4\n",
            "adcs r2, r4\n",
            "adcs r3, r4\n",
            top_quarter!($top),
            // The fold, after the subroutine: the wide buffer (r0) into the result (r1).
            "mov r0, r11\n",
            "ldr r1, [sp, #48]\n",
            "add sp, #52\n",
        )
    };
}

/// The square of the eight words at `a` reduced below 2^256 into the eight at `r`: the full
/// 512-bit square into a local buffer, folded with 2^256 ≡ 38 (`reduce_wide!`) in the same
/// block. Out of line: each inlined copy would be another 900 bytes. Raw pointers, because
/// [`square_assign`] passes the same words as both; [`square`], [`square_to`] and
/// [`square_assign`] are its safe forms.
///
/// # Safety
///
/// `a` must be valid for reading eight words and `r` for writing eight; they may be the
/// same (`a` is read in full before `r` is written).
#[inline(never)]
unsafe fn square_raw(a: *const [u32; 8], r: *mut [u32; 8]) {
    let mut t = MaybeUninit::<[u32; 16]>::uninit();
    // SAFETY: reads the eight words at `a` (the caller's promise), writes the first twelve
    // words of `t` (the last four stay in registers) and rereads them, and then writes the
    // eight at `r` (the caller's promise; all reads of `a` are done by then); uses 56 bytes
    // of stack below `sp`, which it restores; r0–r5, r8–r12 and lr are declared clobbered,
    // r6 (which Rust reserves) is saved on the stack and restored, r7 is not touched. The
    // flags are clobbered, which `asm!` assumes by default.
    unsafe {
        core::arch::asm!(
            karatsuba_square!(registers),
            reduce_wide!("r8", "r9", "r10", "lr"),
            "pop {{r6}}",
            square128 = sym square128,
            inout("r0") a => _,
            inout("r1") t.as_mut_ptr() => _,
            inout("r2") r => _,
            out("r3") _, out("r4") _, out("r5") _,
            out("r8") _, out("r9") _, out("r10") _, out("r11") _, out("r12") _, out("lr") _,
        );
    }
}

/// `a²`, the full 512-bit square (little-endian words): [`square_raw`] without the fold, for
/// P-256's Montgomery field, which reduces it its own way. Out of line, as `square_raw`.
#[inline(never)]
pub fn square_wide(a: &[u32; 8]) -> [u32; 16] {
    let mut t = MaybeUninit::<[u32; 16]>::uninit();
    // SAFETY: as in `square_raw`, with `t` as the wide buffer and the empty tail: reads the
    // eight words at `a`, writes the sixteen of `t`; the result pointer it keeps in its frame
    // (r2, a null) is reloaded into r1 but never used; 56 bytes of stack, restored;
    // r0–r5, r8–r12 and lr are declared clobbered, r6 is saved and restored, r7 untouched.
    unsafe {
        core::arch::asm!(
            karatsuba_square!(memory),
            "pop {{r6}}",
            square128 = sym square128,
            inout("r0") a.as_ptr() => _,
            inout("r1") t.as_mut_ptr() => _,
            inout("r2") 0usize => _,
            out("r3") _, out("r4") _, out("r5") _,
            out("r8") _, out("r9") _, out("r10") _, out("r11") _, out("r12") _, out("lr") _,
        );
    }
    // SAFETY: the assembly wrote all sixteen words of `t`.
    unsafe { t.assume_init() }
}
