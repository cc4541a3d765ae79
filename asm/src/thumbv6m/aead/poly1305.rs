//! Poly1305's five-term dot product in Thumb-1 assembly, for the Cortex-M0: the pairs of
//! 13-bit halves come in two at a time with `LDM` (three cycles for two words), each term is
//! four `MULS` into three sums kept in high registers (`ADD` reaches them, one cycle), about
//! 15 cycles a term. Constant time: straight-line code, fixed offsets, and `MULS` is
//! single-cycle or fixed-time on every Cortex-M0/M0+.

/// The dot product of `core_aead`'s `poly1305/portable32.rs` (`State::blocks_halves`): see
/// its Rust twin (`dot13` there, for other targets and builds without `asm`) for the
/// operands, the result and the bounds that keep each sum inside 32 bits.
#[inline(always)]
#[must_use]
pub fn dot13(a: &[[u32; 2]; 5], b: &[[u32; 2]; 5]) -> (u32, u32, u32) {
    let (lo, mid, hi): (u32, u32, u32);
    // SAFETY: reads the ten words of `a` and of `b` through `LDM` from their start, nothing
    // else; `r6`, which the compiler may reserve, is saved on the stack and restored, `r7` is
    // not touched, and every other register written is an operand.
    unsafe {
        core::arch::asm!(
            "push {{r6}}",
            // Term 0: (a0, a1) in r2, r3 and (b0, b1) in r4, r5; the sums start here.
            "ldm r0!, {{r2, r3}}",
            "ldm r1!, {{r4, r5}}",
            "movs r6, r2",
            "muls r6, r4, r6",
            "mov r8, r6",
            "muls r2, r5, r2",
            "muls r4, r3, r4",
            "adds r2, r2, r4",
            "mov r9, r2",
            "muls r3, r5, r3",
            "mov r10, r3",
            // Terms 1 to 4: the same, added to the sums.
            "ldm r0!, {{r2, r3}}",
            "ldm r1!, {{r4, r5}}",
            "movs r6, r2",
            "muls r6, r4, r6",
            "add r8, r6",
            "muls r2, r5, r2",
            "muls r4, r3, r4",
            "adds r2, r2, r4",
            "add r9, r2",
            "muls r3, r5, r3",
            "add r10, r3",
            "ldm r0!, {{r2, r3}}",
            "ldm r1!, {{r4, r5}}",
            "movs r6, r2",
            "muls r6, r4, r6",
            "add r8, r6",
            "muls r2, r5, r2",
            "muls r4, r3, r4",
            "adds r2, r2, r4",
            "add r9, r2",
            "muls r3, r5, r3",
            "add r10, r3",
            "ldm r0!, {{r2, r3}}",
            "ldm r1!, {{r4, r5}}",
            "movs r6, r2",
            "muls r6, r4, r6",
            "add r8, r6",
            "muls r2, r5, r2",
            "muls r4, r3, r4",
            "adds r2, r2, r4",
            "add r9, r2",
            "muls r3, r5, r3",
            "add r10, r3",
            "ldm r0!, {{r2, r3}}",
            "ldm r1!, {{r4, r5}}",
            "movs r6, r2",
            "muls r6, r4, r6",
            "add r8, r6",
            "muls r2, r5, r2",
            "muls r4, r3, r4",
            "adds r2, r2, r4",
            "add r9, r2",
            "muls r3, r5, r3",
            "add r10, r3",
            "pop {{r6}}",
            // The sums out through low registers (high ones can only be clobbers).
            "mov r2, r8",
            "mov r3, r9",
            "mov r4, r10",
            inout("r0") a.as_ptr() => _,
            inout("r1") b.as_ptr() => _,
            lateout("r2") lo, lateout("r3") mid, lateout("r4") hi, out("r5") _,
            out("r8") _, out("r9") _, out("r10") _,
        );
    }
    (lo, mid, hi)
}
