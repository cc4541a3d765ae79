//! The 256×256→512-bit product for the Cortex-M0 as one level of Karatsuba over 128-bit
//! halves, all in one block of Thumb-1 assembly: three 128×128 products by one product-
//! scanning subroutine (16 word products, written out, its operands read relative to sp),
//! then the middle term added in.
//!
//! `MULS` gives only the low 32 bits, so a 32×32→64 word product is four 16×16→32 `MULS` on
//! the operands' halves, combined with shifts and carries: 24 cycles a word product with its
//! loads and accumulation, 48 of them instead of 64 thanks to Karatsuba. The middle product
//! is `|a0 − a1|·|b0 − b1|`, its sign applied with masks: nothing branches on the values, and
//! every address is a fixed offset.

/// Adds the word product `a[i]·b[j]` into the column accumulator `$h:$l` and counts its carry
/// out in r12 (operands on the stack: `a` at `sp`, `b` at `sp + 16`; `$a` and `$b` are byte
/// offsets). r0, r1, r4, r5 and r6 are scratch. The halves' products: `al·bl` (r6), `ah·bl`
/// (r5), `ah·bh` (r0), `al·bh` (r1); the two middle ones are added at bit 16 into `r0:r6`,
/// which cannot overflow since the whole product is below 2^64.
macro_rules! mac {
    ($a:literal, $b:literal, $l:literal, $h:literal) => {
        concat!(mac!($a, $b, $l, $h, nocarry), "movs r4, #0\n", "adcs r4, r4\n", "add r12, r4\n")
    };
    // A product that cannot carry out of `$h:$l` (the first and the last one).
    ($a:literal, $b:literal, $l:literal, $h:literal, nocarry) => {
        concat!(
            "ldr r0, [sp, #",
            $a,
            "]\n",
            "ldr r1, [sp, #",
            $b,
            "]\n",
            "uxth r4, r0\n",
            "lsrs r0, r0, #16\n",
            "uxth r5, r1\n",
            "lsrs r1, r1, #16\n",
            "mov r6, r4\n",
            "muls r6, r5, r6\n",
            "muls r5, r0, r5\n",
            "muls r0, r1, r0\n",
            "muls r1, r4, r1\n",
            "lsls r4, r5, #16\n",
            "lsrs r5, r5, #16\n",
            "adds r6, r6, r4\n",
            "adcs r0, r5\n",
            "lsls r4, r1, #16\n",
            "lsrs r1, r1, #16\n",
            "adds r6, r6, r4\n",
            "adcs r0, r1\n",
            "adds ",
            $l,
            ", ",
            $l,
            ", r6\n",
            "adcs ",
            $h,
            ", r0\n",
        )
    };
}

/// The end of a column: its low word `$l` is output word `$k` (byte offset, output pointer
/// in r9), and the accumulator shifts down a word: `$h` becomes the low word and `$l` takes
/// the carries counted in r12, which restarts at zero.
macro_rules! column_end {
    ($k:literal, $l:literal) => {
        concat!(
            "mov r0, r9\n",
            "str ",
            $l,
            ", [r0, #",
            $k,
            "]\n",
            "mov ",
            $l,
            ", r12\n",
            "movs r0, #0\n",
            "mov r12, r0\n",
        )
    };
}

/// Copies the two 128-bit halves of the eight words at r0 to `sp + $x0` and `sp + $x0 + 32`
/// (the operands of the outer products) and stores `|x0 − x1|` at `sp + $d`, leaving the
/// mask (all ones when `x0 < x1`) in r5: the difference, then `(d ^ m) − m` with `m` the
/// mask in every word.
macro_rules! split_abs_diff {
    ($x0:literal, $d:literal) => {
        concat!(
            "add r6, sp, #",
            $x0,
            "\n",
            "ldm r0!, {{r1, r2, r3, r4}}\n",
            "stm r6!, {{r1, r2, r3, r4}}\n",
            "adds r6, #16\n",
            "ldm r0!, {{r5}}\n",
            "stm r6!, {{r5}}\n",
            "subs r1, r1, r5\n",
            "ldm r0!, {{r5}}\n",
            "stm r6!, {{r5}}\n",
            "sbcs r2, r5\n",
            "ldm r0!, {{r5}}\n",
            "stm r6!, {{r5}}\n",
            "sbcs r3, r5\n",
            "ldm r0!, {{r5}}\n",
            "stm r6!, {{r5}}\n",
            "sbcs r4, r5\n",
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

/// Two words of the middle term's first pass: `m[k..k + 2] ^= S`, plus the next two words
/// of `lo` (at r0, advancing), with the carry chain; `m` is at `sp + $k`.
macro_rules! add_lo {
    ($k0:literal, $k1:literal) => {
        concat!(
            "ldr r2, [sp, #",
            $k0,
            "]\n",
            "ldr r3, [sp, #",
            $k1,
            "]\n",
            "eors r2, r6\n",
            "eors r3, r6\n",
            "ldm r0!, {{r4, r5}}\n",
            "adcs r2, r4\n",
            "adcs r3, r5\n",
            "str r2, [sp, #",
            $k0,
            "]\n",
            "str r3, [sp, #",
            $k1,
            "]\n",
        )
    };
}

/// Two words of the second pass: `m[k..k + 2] +=` the next two words of `hi` (at r0).
macro_rules! add_hi {
    ($k0:literal, $k1:literal, $op:literal) => {
        concat!(
            "ldr r2, [sp, #",
            $k0,
            "]\n",
            "ldr r3, [sp, #",
            $k1,
            "]\n",
            "ldm r0!, {{r4, r5}}\n",
            $op,
            " r2, r4\n",
            "adcs r3, r5\n",
            "str r2, [sp, #",
            $k0,
            "]\n",
            "str r3, [sp, #",
            $k1,
            "]\n",
        )
    };
}

/// Two words of the last pass: `r[4 + i..]` (at r0 plus `$r`) `+=` the middle term's words
/// at `sp + $k`.
macro_rules! add_mid {
    ($r0:literal, $r1:literal, $k0:literal, $k1:literal, $op:literal) => {
        concat!(
            "ldr r2, [r0, #",
            $r0,
            "]\n",
            "ldr r3, [r0, #",
            $r1,
            "]\n",
            "ldr r4, [sp, #",
            $k0,
            "]\n",
            "ldr r5, [sp, #",
            $k1,
            "]\n",
            $op,
            " r2, r4\n",
            "adcs r3, r5\n",
            "str r2, [r0, #",
            $r0,
            "]\n",
            "str r3, [r0, #",
            $r1,
            "]\n",
        )
    };
}

/// `a·b`, the full 512-bit product of two values below 2^256 (little-endian words):
/// `a0·b0 + (a0·b0 + a1·b1 − (a0 − a1)·(b0 − b1))·2^128 + a1·b1·2^256` for the 128-bit
/// halves.
///
/// Frame (`sp` after the prologue): the three products' operand pairs `a0, b0`, `a1, b1`
/// and `|a0 − a1|, |b0 − b1|` at 0, 32 and 64, so that the subroutine finds each pair at
/// `sp` with sp moved up 32 bytes a call; then `m = |a0 − a1|·|b0 − b1|` at 96, the output
/// pointer at 128 and the sign mask `S` at 132 (all ones when `(a0 − a1)·(b0 − b1) ≥ 0`, so
/// that `m` is subtracted). The middle term is `lo + hi + (m ^ S) + (S & 1)`, nine words
/// whose top one is the two carries plus `S`.
#[inline(never)]
pub(super) fn mul(a: &[u32; 8], b: &[u32; 8]) -> [u32; 16] {
    let mut r = core::mem::MaybeUninit::<[u32; 16]>::uninit();
    // SAFETY: reads the eight words at `a` and at `b`, writes the sixteen of `r` (all of
    // them: the two outer products fill it before the middle term is added in), and uses
    // 136 bytes of stack below sp for its frame (given back before the end; the subroutine
    // uses none). r0–r5, r9, r12 and lr are declared clobbered; r6 (reserved by Rust)
    // is pushed first and popped last; r7 (the frame pointer) is not touched. The subroutine
    // at label 8 is only reached by `bl` from this block.
    unsafe {
        core::arch::asm!(
            "push {{r6}}",
            "sub sp, #136",
            "str r0, [sp, #128]",
            "mov r12, r2",
            "mov r0, r1",
            // a0 at 0, a1 at 32, |a0 − a1| at 64 and its mask at 132; b0 at 16, b1 at 48,
            // |b0 − b1| at 80, then S.
            split_abs_diff!("0", "64"),
            "str r5, [sp, #132]",
            "mov r0, r12",
            split_abs_diff!("16", "80"),
            "ldr r6, [sp, #132]",
            "eors r6, r5",
            "mvns r6, r6",
            "str r6, [sp, #132]",
            // The subroutine multiplies the operands at sp and sp + 16: lo = a0·b0 into
            // r[0..8], then 32 bytes up hi = a1·b1 into r[8..16], then 32 more m into the
            // frame (sp + 32 then), which leaves m at sp + 32, the output pointer at 64 and S
            // at 68.
            "ldr r2, [sp, #128]",
            "bl 8f",
            "add sp, #32",
            "ldr r2, [sp, #96]",
            "adds r2, #32",
            "bl 8f",
            "add sp, #32",
            "add r2, sp, #32",
            "bl 8f",
            // m = (m ^ S) + lo + (S & 1), carry in r1.
            "ldr r0, [sp, #64]",
            "ldr r6, [sp, #68]",
            "lsrs r1, r6, #1",
            add_lo!("32", "36"),
            add_lo!("40", "44"),
            add_lo!("48", "52"),
            add_lo!("56", "60"),
            "movs r1, #0",
            "adcs r1, r1",
            // m += hi (r0 now points at it), the carry added to r1; the ninth word
            // r6 = carries + S.
            add_hi!("32", "36", "adds"),
            add_hi!("40", "44", "adcs"),
            add_hi!("48", "52", "adcs"),
            add_hi!("56", "60", "adcs"),
            "movs r2, #0",
            "adcs r2, r2",
            "adds r1, r1, r2",
            "adds r6, r6, r1",
            // r[4..13] += the nine words, the carry on into r[13..16].
            "ldr r0, [sp, #64]",
            add_mid!("16", "20", "32", "36", "adds"),
            add_mid!("24", "28", "40", "44", "adcs"),
            add_mid!("32", "36", "48", "52", "adcs"),
            add_mid!("40", "44", "56", "60", "adcs"),
            "ldr r2, [r0, #48]",
            "ldr r3, [r0, #52]",
            "ldr r4, [r0, #56]",
            "ldr r5, [r0, #60]",
            "adcs r2, r6",
            "movs r6, #0",
            "adcs r3, r6",
            "adcs r4, r6",
            "adcs r5, r6",
            "str r2, [r0, #48]",
            "str r3, [r0, #52]",
            "str r4, [r0, #56]",
            "str r5, [r0, #60]",
            "add sp, #72",
            "pop {{r6}}",
            "b 9f",
            // The 128×128 product of the four words at sp by the four at sp + 16 into the
            // eight at r2. Clobbers r0–r6, r9 and r12; returns through lr (it calls
            // nothing).
            "8:",
            "mov r9, r2",
            "movs r2, #0",
            "movs r3, #0",
            "mov r12, r2",
            // Column 0.
            mac!("0", "16", "r2", "r3", nocarry),
            column_end!("0", "r2"),
            // Column 1 (low word r3, high r2).
            mac!("0", "20", "r3", "r2"),
            mac!("4", "16", "r3", "r2"),
            column_end!("4", "r3"),
            // Column 2.
            mac!("0", "24", "r2", "r3"),
            mac!("4", "20", "r2", "r3"),
            mac!("8", "16", "r2", "r3"),
            column_end!("8", "r2"),
            // Column 3.
            mac!("0", "28", "r3", "r2"),
            mac!("4", "24", "r3", "r2"),
            mac!("8", "20", "r3", "r2"),
            mac!("12", "16", "r3", "r2"),
            column_end!("12", "r3"),
            // Column 4.
            mac!("4", "28", "r2", "r3"),
            mac!("8", "24", "r2", "r3"),
            mac!("12", "20", "r2", "r3"),
            column_end!("16", "r2"),
            // Column 5.
            mac!("8", "28", "r3", "r2"),
            mac!("12", "24", "r3", "r2"),
            column_end!("20", "r3"),
            // Column 6 and the top word: the product is below 2^256, nothing carries out.
            mac!("12", "28", "r2", "r3", nocarry),
            "mov r0, r9",
            "str r2, [r0, #24]",
            "str r3, [r0, #28]",
            "bx lr",
            "9:",
            // The registers the arguments arrive in (the result's pointer first).
            inout("r0") r.as_mut_ptr() => _,
            inout("r1") a.as_ptr() => _,
            inout("r2") b.as_ptr() => _,
            out("r3") _, out("r4") _, out("r5") _,
            out("r9") _, out("r12") _, out("lr") _,
        );
    }
    // SAFETY: the assembly wrote all sixteen words.
    unsafe { r.assume_init() }
}
