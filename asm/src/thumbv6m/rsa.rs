//! Thumb-1 (Cortex-M0) kernels for core-rsa: the row loops of the 15-bit Montgomery product.
//! The instructions are the oldest Thumb subset in unified syntax, which also assembles as
//! Thumb-2 and as A32, so the loops serve every 32-bit Arm target (checked with GNU as for
//! architecture versions 5TE, 6-M, 7-M and 7-A; run and tested on the Cortex-M0 only).

/// Where the whole groups of four digits of `from..to` begin: `from` plus `(to − from) mod 4`,
/// which lies in `from..=to` for `from ≤ to`. The rows' callers do the digits before it.
#[inline(always)]
#[must_use]
pub fn head(from: usize, to: usize) -> usize {
    from + ((to - from) & 3)
}

/// The whole groups of four digits at the end of one row of a Montgomery product on 15-bit
/// digits, four digits a pass: for `j` in [`head`]`(from, to)..to`,
/// `p = r[j] + x[j]·xi + n[j]·m + c`, `r[j−1] = p mod 2^15`, `c = p >> 15`; returns the last
/// carry, or `c` when there is no whole group (`mac_row` in `core_rsa`'s `mont/portable15.rs`
/// is its Rust twin, and the caller does the digits of `from..head(from, to)` before). For
/// the sums to stay inside 32 bits, `xi < 2^16`, `m < 2^15` and `c < 2^17`.
/// 17.5 cycles a digit on the Cortex-M0 against about 31 compiled at opt-level z, which keeps
/// the loop's nine live values in eight low registers by spilling. Constant time: the loop
/// runs a public number of times, and `muls` is single-cycle or fixed-time on every
/// Cortex-M0/M0+.
///
/// # Panics
///
/// Unless `1 ≤ from ≤ to` and `to` is at most the length of `r`, `x` and `n` (the loop runs to
/// `x + to` with no other bound). Inlined after a caller's assertion of the same (core-rsa's
/// `thumb1` rows), the check compiles to nothing.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub fn mac_quads(
    r: &mut [u16],
    x: &[u16],
    n: &[u16],
    from: usize,
    to: usize,
    xi: u32,
    m: u32,
    c: u32,
) -> u32 {
    assert!(1 <= from && from <= to && to <= r.len() && to <= x.len() && to <= n.len());
    let from = head(from, to);
    if from == to {
        return c;
    }
    let c_out: u32;
    // SAFETY: the loop reads x[from..to], n[from..to] and r[from..to] and writes
    // r[from-1..to-1], all in bounds as `1 ≤ from < to ≤` every length (asserted, and `head`
    // lies between the asserted `from` and `to`); the end (r5 on entry, then r10) is x + to,
    // reached after (to − from)/4 passes of four digits, as `to − from` is a nonzero multiple
    // of four. `xi < 2^16` and `m < 2^15` come packed in r4 (no
    // low register is left for the end otherwise). r6 and r7 (which Rust reserves) are
    // saved in r8 and r12 and restored; the stack is not touched.
    unsafe {
        core::arch::asm!(
            "mov r8, r6",
            "mov r12, r7",
            "mov r10, r5",
            "lsrs r5, r4, #16",
            "lsls r4, r4, #16",
            "lsrs r4, r4, #16",
            "2:",
            "ldrh r6, [r1]",
            "muls r6, r4, r6",
            "ldrh r7, [r2]",
            "muls r7, r5, r7",
            "adds r6, r6, r7",
            "ldrh r7, [r0, #2]",
            "adds r6, r6, r7",
            "adds r6, r6, r3",
            "lsrs r3, r6, #15",
            "lsls r6, r6, #17",
            "lsrs r6, r6, #17",
            "strh r6, [r0]",
            "ldrh r6, [r1, #2]",
            "muls r6, r4, r6",
            "ldrh r7, [r2, #2]",
            "muls r7, r5, r7",
            "adds r6, r6, r7",
            "ldrh r7, [r0, #4]",
            "adds r6, r6, r7",
            "adds r6, r6, r3",
            "lsrs r3, r6, #15",
            "lsls r6, r6, #17",
            "lsrs r6, r6, #17",
            "strh r6, [r0, #2]",
            "ldrh r6, [r1, #4]",
            "muls r6, r4, r6",
            "ldrh r7, [r2, #4]",
            "muls r7, r5, r7",
            "adds r6, r6, r7",
            "ldrh r7, [r0, #6]",
            "adds r6, r6, r7",
            "adds r6, r6, r3",
            "lsrs r3, r6, #15",
            "lsls r6, r6, #17",
            "lsrs r6, r6, #17",
            "strh r6, [r0, #4]",
            "ldrh r6, [r1, #6]",
            "muls r6, r4, r6",
            "ldrh r7, [r2, #6]",
            "muls r7, r5, r7",
            "adds r6, r6, r7",
            "ldrh r7, [r0, #8]",
            "adds r6, r6, r7",
            "adds r6, r6, r3",
            "lsrs r3, r6, #15",
            "lsls r6, r6, #17",
            "lsrs r6, r6, #17",
            "strh r6, [r0, #6]",
            "adds r0, #8",
            "adds r1, #8",
            "adds r2, #8",
            "cmp r1, r10",
            "bne 2b",
            "mov r6, r8",
            "mov r7, r12",
            inout("r0") r.as_mut_ptr().wrapping_add(from - 1) => _,
            inout("r1") x.as_ptr().wrapping_add(from) => _,
            inout("r2") n.as_ptr().wrapping_add(from) => _,
            inout("r3") c => c_out,
            inout("r4") xi | m << 16 => _,
            inout("r5") x.as_ptr().wrapping_add(to) => _,
            out("r8") _,
            out("r10") _,
            out("r12") _,
            options(nostack),
        );
    }
    c_out
}

/// [`mac_quads`] without the `x` term: a row of the Montgomery reduction alone (`red_row` in
/// `mont/portable15.rs` is its Rust twin).
///
/// # Panics
///
/// Unless `1 ≤ from ≤ to` and `to` is at most the length of `r` and `n`; as in [`mac_quads`],
/// the check compiles to nothing after a caller's assertion of the same.
#[inline(always)]
pub fn red_quads(r: &mut [u16], n: &[u16], from: usize, to: usize, m: u32, c: u32) -> u32 {
    assert!(1 <= from && from <= to && to <= r.len() && to <= n.len());
    let from = head(from, to);
    if from == to {
        return c;
    }
    let c_out: u32;
    // SAFETY: the loop reads n[from..to] and r[from..to] and writes r[from-1..to-1], all in
    // bounds as `1 ≤ from < to ≤` both lengths (asserted, with `head` between the asserted
    // `from` and `to`); the end (r1 on entry, then r8) is n + to, reached after (to − from)/4
    // passes, as `to − from` is a nonzero multiple of four. Only
    // operand registers are used; the stack is not touched.
    unsafe {
        core::arch::asm!(
            "mov r8, r1",
            "2:",
            "ldrh r1, [r2]",
            "muls r1, r5, r1",
            "ldrh r4, [r0, #2]",
            "adds r1, r1, r4",
            "adds r1, r1, r3",
            "lsrs r3, r1, #15",
            "lsls r1, r1, #17",
            "lsrs r1, r1, #17",
            "strh r1, [r0]",
            "ldrh r1, [r2, #2]",
            "muls r1, r5, r1",
            "ldrh r4, [r0, #4]",
            "adds r1, r1, r4",
            "adds r1, r1, r3",
            "lsrs r3, r1, #15",
            "lsls r1, r1, #17",
            "lsrs r1, r1, #17",
            "strh r1, [r0, #2]",
            "ldrh r1, [r2, #4]",
            "muls r1, r5, r1",
            "ldrh r4, [r0, #6]",
            "adds r1, r1, r4",
            "adds r1, r1, r3",
            "lsrs r3, r1, #15",
            "lsls r1, r1, #17",
            "lsrs r1, r1, #17",
            "strh r1, [r0, #4]",
            "ldrh r1, [r2, #6]",
            "muls r1, r5, r1",
            "ldrh r4, [r0, #8]",
            "adds r1, r1, r4",
            "adds r1, r1, r3",
            "lsrs r3, r1, #15",
            "lsls r1, r1, #17",
            "lsrs r1, r1, #17",
            "strh r1, [r0, #6]",
            "adds r0, #8",
            "adds r2, #8",
            "cmp r2, r8",
            "bne 2b",
            inout("r0") r.as_mut_ptr().wrapping_add(from - 1) => _,
            inout("r1") n.as_ptr().wrapping_add(to) => _,
            inout("r2") n.as_ptr().wrapping_add(from) => _,
            inout("r3") c => c_out,
            out("r4") _,
            in("r5") m,
            out("r8") _,
            options(nostack),
        );
    }
    c_out
}
