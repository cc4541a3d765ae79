//! The column multiplication of core-ec's radix-2^13 Curve25519 field (`portable32`, twenty
//! 13-bit limbs) in Thumb-1 assembly, for the Cortex-M0. Product scanning as that field's Rust
//! `mul_columns` (its twin, which the firmware's known answers check it against), but the second operand is reversed first so that both
//! operands of a column are read in ascending order with `LDM`, two limbs (three cycles) at a
//! time, and each column is carried into 13 bits and folded as it ends. The columns are loops
//! (an inner loop over two limb pairs a pass per column, four columns per outer pass, so
//! that each column's pair-count parity is known where it is written), not written out: about
//! 0.6 KB of code instead of 3.7 KB, for about 10% more cycles a multiplication (pointer
//! compares and branches, and 20 products by a zero limb that even out the columns' lengths). The square stays compiled. Every product still takes two loads: a radix-2^13
//! representation leaves little for assembly to win. Constant time: the branches count limb
//! pairs and columns, the addresses are fixed offsets from the operands; `MULS` is
//! single-cycle or fixed-time on every Cortex-M0/M0+.

use core::arch::asm;
use core::mem::MaybeUninit;

/// Limbs of a radix-2^13 element.
const N: usize = 20;

/// The products of one column: limb pairs from `r1` (up to `r9`) by limb pairs from `r2`,
/// summed into `r0`, two pairs a pass. `$l` names the local labels (`$l` and `$l` + "0");
/// `odd` when the column has an odd number of pairs, which enters at the second.
macro_rules! column {
    ($l:literal, odd) => {
        concat!("b ", $l, "0f\n", column!($l, even))
    };
    ($l:literal, even) => {
        concat!(
            $l,
            ":\n",
            "ldm r1!, {{r3, r4}}\n",
            "ldm r2!, {{r5, r6}}\n",
            "muls r3, r5, r3\n",
            "muls r4, r6, r4\n",
            "adds r0, r0, r3\n",
            "adds r0, r0, r4\n",
            $l,
            "0:\n",
            "ldm r1!, {{r3, r4}}\n",
            "ldm r2!, {{r5, r6}}\n",
            "muls r3, r5, r3\n",
            "muls r4, r6, r4\n",
            "adds r0, r0, r3\n",
            "adds r0, r0, r4\n",
            "cmp r1, r9\n",
            "bne ",
            $l,
            "b\n",
        )
    };
}

/// The end of a column below 20: its 13 low bits are the next output limb (`r12` walks the
/// output), the rest carries into the next column.
macro_rules! store_limb {
    () => {
        concat!(
            "lsls r3, r0, #19\n",
            "lsrs r3, r3, #19\n",
            "lsrs r0, r0, #13\n",
            "mov r4, r12\n",
            "stm r4!, {{r3}}\n",
            "mov r12, r4\n",
        )
    };
}

/// The end of a column from 20 up: its 13 low bits, times 608, are added to output limb
/// `k − 20` (`r12`), the rest carries into the next column.
macro_rules! fold_limb {
    () => {
        concat!(
            "lsls r3, r0, #19\n",
            "lsrs r3, r3, #19\n",
            "lsrs r0, r0, #13\n",
            "movs r5, #19\n",
            "lsls r5, r5, #5\n",
            "muls r3, r5, r3\n",
            "mov r4, r12\n",
            "ldr r6, [r4]\n",
            "adds r3, r3, r6\n",
            "stm r4!, {{r3}}\n",
            "mov r12, r4\n",
        )
    };
}

/// `a·b` as twenty limbs below 2^23, for limbs of `a` and `b` at most 2^13 + 2: each
/// column carried into 13 bits as it ends, and those from 2^260 up folded back as 608
/// times them.
///
/// The reversed `b` has a zero limb at each end, `[0, b19, …, b0, 0]`, so that every column
/// has an even number of products: column `k < 20` (`k + 1` products, `a[0..=k]` with the
/// reversed limbs from `20 − k`) takes one more at its top end when `k` is even,
/// `a[k + 1]` by the trailing zero; column `k ≥ 20` (`39 − k` products, from `a[k − 19]`)
/// one more at its bottom end when `k` is even, `a[k − 20]` by the leading zero.
#[inline(always)]
#[must_use]
pub fn mul(a: &[u32; N], b: &[u32; N]) -> [u32; N] {
    // Written out: a loop would first zero the array with a `memclr` call.
    #[rustfmt::skip]
    let rev = [
        0, b[19], b[18], b[17], b[16], b[15], b[14], b[13], b[12], b[11], b[10],
        b[9], b[8], b[7], b[6], b[5], b[4], b[3], b[2], b[1], b[0], 0,
    ];
    let mut t = MaybeUninit::<[u32; N]>::uninit();
    // SAFETY: reads the 20 words at `a` and the 22 at `rev` (every column's pointers start
    // and stop inside them, as the comments below work out) and writes the 20 words of `t`;
    // r0–r5, r8–r10, r12 and lr are declared clobbered, r6 (which Rust reserves) is saved
    // on the stack and restored, r7 is not touched.
    unsafe {
        asm!(
            "push {{r6}}",
            "mov r8, r0",
            "mov r12, r2",
            "movs r0, #0",
            // Columns 0 to 19, four a pass (passes t and t + 1 for even t; k = 2t, 2t + 1,
            // 2t + 2, 2t + 3): both columns of pass t read a from a[0] to a[2t + 1] (t + 1
            // pairs, end pointer r9 = a + 8(t + 1)); the even one with the reversed limbs
            // from rev + 4(20 − 2t) (r10), the odd one from 4 before.
            "adds r1, #80",
            "mov r10, r1",
            "mov r3, r8",
            "adds r3, #8",
            "mov r9, r3",
            "movs r3, #5",
            "mov lr, r3",
            "1:",
            "mov r1, r8",
            "mov r2, r10",
            column!("2", odd),
            store_limb!(),
            "mov r1, r8",
            "mov r2, r10",
            "subs r2, #4",
            column!("3", odd),
            store_limb!(),
            "mov r3, r10",
            "subs r3, #8",
            "mov r10, r3",
            "mov r3, r9",
            "adds r3, #8",
            "mov r9, r3",
            "mov r1, r8",
            "mov r2, r10",
            column!("4", even),
            store_limb!(),
            "mov r1, r8",
            "mov r2, r10",
            "subs r2, #4",
            column!("5", even),
            store_limb!(),
            "mov r3, r10",
            "subs r3, #8",
            "mov r10, r3",
            "mov r3, r9",
            "adds r3, #8",
            "mov r9, r3",
            "mov r3, lr",
            "subs r3, #1",
            "mov lr, r3",
            "bne 1b",
            // Columns 20 to 38, four a pass (u and u + 1 for even u; k = 20 + 2u, …):
            // folded onto limbs k − 20 as 608 times themselves. Both columns of pass u read
            // a up to a[19] (r9 = a + 80); the even one (10 − u pairs) from a[2u] (lr) with
            // the reversed limbs from rev (r10, back at its start), the odd one (9 − u
            // pairs) from a[2u + 2] with them from rev + 4, and none when that is the end.
            "mov r3, r12",
            "subs r3, #80",
            "mov r12, r3",
            "mov r3, r8",
            "adds r3, #80",
            "mov r9, r3",
            "mov lr, r8",
            "6:",
            "mov r1, lr",
            "mov r2, r10",
            column!("7", even),
            fold_limb!(),
            "mov r1, lr",
            "adds r1, #8",
            "mov r2, r10",
            "adds r2, #4",
            column!("8", odd),
            fold_limb!(),
            "mov r3, lr",
            "adds r3, #8",
            "mov lr, r3",
            "mov r1, lr",
            "mov r2, r10",
            column!("9", odd),
            fold_limb!(),
            "mov r1, lr",
            "adds r1, #8",
            "cmp r1, r9",
            "beq 99f",
            "mov r2, r10",
            "adds r2, #4",
            column!("11", even),
            fold_limb!(),
            "mov r3, lr",
            "adds r3, #8",
            "mov lr, r3",
            "b 6b",
            // The carry out of column 38 is column 39: fold it onto limb 19 (r12 is there).
            "99:",
            "movs r5, #19",
            "lsls r5, r5, #5",
            "muls r0, r5, r0",
            "mov r4, r12",
            "ldr r6, [r4]",
            "adds r0, r0, r6",
            "str r0, [r4]",
            "pop {{r6}}",
            inout("r0") a.as_ptr() => _,
            inout("r1") rev.as_ptr() => _,
            inout("r2") t.as_mut_ptr() => _,
            out("r3") _, out("r4") _, out("r5") _,
            out("r8") _, out("r9") _, out("r10") _, out("r12") _, out("lr") _,
        );
    }
    // SAFETY: the assembly stored all twenty limbs (columns 0 to 19) before any fold read
    // one back.
    unsafe { t.assume_init() }
}
