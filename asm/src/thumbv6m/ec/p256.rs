//! P-256's field on the Cortex-M0 (`p = 2^256 − 2^224 + 2^192 + 2^96 − 1`, eight packed
//! 32-bit words in Montgomery form, `R = 2^256`, kept below `p`): the Montgomery reduction of
//! the Curve25519 kernels' 512-bit product, specialised to `p`, and the addition, subtraction
//! and halving. `p ≡ −1 (mod 2^96)`, so each Montgomery step's multiplier is the current low
//! word `q` itself, and adding `q·p` is adding `q` three, six and eight words up and
//! subtracting it seven up — no multiplication: taken column by column with a signed carry,
//! the eight steps are 45 word loads and additions. The final corrections are masks (compiled
//! masked selects can become branches on Thumb-1). The `Field` impl around these is core-ec's
//! `nist::p256_thumb1`; the Cortex-M0 firmware checks it against `mont15`, its Rust twin.

use core::arch::asm;

/// One term of a reduction column: the word at byte offset `$off` from r0 added to (`adds`,
/// `adcs`) or subtracted from (`subs`, `sbcs`) the signed accumulator r3:r2; r5 is zero.
macro_rules! term {
    ($off:literal, $op:literal, $chain:literal) => {
        concat!("ldr r4, [r0, #", $off, "]\n", $op, " r2, r2, r4\n", $chain, " r3, r5\n")
    };
}

/// The end of a reduction column: its low word r2 to `[$base + $off]`, and the accumulator
/// shifts down a word with its sign.
macro_rules! column_end {
    ($base:literal, $off:literal) => {
        concat!("str r2, [", $base, ", #", $off, "]\n", "mov r2, r3\n", "asrs r3, r3, #31\n")
    };
}

/// Whether `c·2^256 + v ≥ p` for the eight words `v` at r1 and the carry `c` (0 or 1) in r3,
/// where `c·2^256 + v < 2p`: the carry out of `v + (2^256 − p)` plus `c`, computed and not
/// stored. Leaves in r4 the mask that is all ones when it is (`p` is to come off) and in r6
/// the mask's low bit; r5 is zero; r0, r2, r3 and r12 are clobbered, r1 is kept.
macro_rules! at_least_p {
    () => {
        concat!(
            "mov r12, r3\n",
            "mov r0, r1\n",
            "ldm r0!, {{r2, r3, r4}}\n",
            "adds r2, r2, #1\n",
            "adcs r3, r5\n",
            "adcs r4, r5\n",
            // MVNS, MOVS with an immediate, EORS, ANDS, LDM, STM and high-register MOV leave
            // the carry alone.
            "mvns r6, r5\n",
            "ldm r0!, {{r2, r3, r4}}\n",
            "adcs r2, r6\n",
            "adcs r3, r6\n",
            "adcs r4, r6\n",
            "movs r4, #1\n",
            "mvns r4, r4\n",
            "ldm r0!, {{r2, r3}}\n",
            "adcs r2, r4\n",
            "adcs r3, r5\n",
            "mov r4, r12\n",
            "adcs r4, r5\n",
            "negs r4, r4\n",
            "movs r6, #1\n",
            "ands r6, r4\n",
        )
    };
}

/// The eight words at r1 plus `2^256 − p` masked by r4 (its words `s & 1, 0, 0, s, s, s,
/// s & ~1, 0`, the low bit in r6, zero in r5), written back (r1 advancing), the carry out
/// dropped: `v − p` where `at_least_p!` set the mask, `v` elsewhere.
macro_rules! minus_masked_p {
    () => {
        concat!(
            "mov r0, r1\n",
            "ldm r0!, {{r2, r3}}\n",
            "adds r2, r2, r6\n",
            "adcs r3, r5\n",
            "stm r1!, {{r2, r3}}\n",
            "ldm r0!, {{r2, r3}}\n",
            "adcs r2, r5\n",
            "adcs r3, r4\n",
            "stm r1!, {{r2, r3}}\n",
            "ldm r0!, {{r2, r3}}\n",
            "adcs r2, r4\n",
            "adcs r3, r4\n",
            "stm r1!, {{r2, r3}}\n",
            "eors r6, r4\n",
            "ldm r0!, {{r2, r3}}\n",
            "adcs r2, r6\n",
            "adcs r3, r5\n",
            "stm r1!, {{r2, r3}}\n",
        )
    };
}

/// The eight words at r0 plus `p` masked by r4 (its words `m, m, m, 0, 0, 0, m & 1, m`, the
/// low bit in r6, zero in r5) to the eight at r1 (both advancing); the carry out is left in
/// the flag.
macro_rules! plus_masked_p {
    () => {
        concat!(
            "ldm r0!, {{r2, r3}}\n",
            "adds r2, r2, r4\n",
            "adcs r3, r4\n",
            "stm r1!, {{r2, r3}}\n",
            "ldm r0!, {{r2, r3}}\n",
            "adcs r2, r4\n",
            "adcs r3, r5\n",
            "stm r1!, {{r2, r3}}\n",
            "ldm r0!, {{r2, r3}}\n",
            "adcs r2, r5\n",
            "adcs r3, r5\n",
            "stm r1!, {{r2, r3}}\n",
            "ldm r0!, {{r2, r3}}\n",
            "adcs r2, r6\n",
            "adcs r3, r4\n",
            "stm r1!, {{r2, r3}}\n",
        )
    };
}

/// `t·R⁻¹ mod p` for a 512-bit `t < p·R` (`t` is scratch): Montgomery reduction a column at
/// a time. With `q_k` the multiplier of step `k` (`q_k·p` makes word `k` zero, so `q_k` is
/// word `k` of the running sum, `p ≡ −1 mod 2^96`), column `k` sums `t[k]`, `q_{k−3}`,
/// `q_{k−6}`, `−q_{k−7}` and `q_{k−8}` (from `p`'s words at 2^96, 2^192, 2^224 and 2^256) and
/// the signed carry from below; its low word is `q_k` for `k < 8` (stored over `t[k]`, read
/// by the later columns) and result word `k − 8` above. The result `(t + Q·p)/R < 2p` then
/// loses `p` unless that borrows (a mask, no branch).
#[inline(always)]
#[must_use]
pub fn redc(t: &mut [u32; 16]) -> [u32; 8] {
    let mut r = core::mem::MaybeUninit::<[u32; 8]>::uninit();
    // SAFETY: reads the sixteen words of `t` and writes its words 3 to 7, and writes the eight
    // of `r`, through the pointers in r0 and r1 (r1 restored before the last pass); r0–r5 and
    // r12 are declared clobbered, r6 (reserved by Rust) is pushed and popped, r7 is not
    // touched; no branch.
    unsafe {
        asm!(
            "push {{r6}}",
            "movs r5, #0",
            // Columns 0–2: q0, q1, q2 are t[0], t[1], t[2] themselves, no carry.
            // Column 3.
            "ldr r2, [r0, #12]",
            "movs r3, #0",
            term!("0", "adds", "adcs"),
            column_end!("r0", "12"),
            // Column 4.
            term!("16", "adds", "adcs"),
            term!("4", "adds", "adcs"),
            column_end!("r0", "16"),
            // Column 5.
            term!("20", "adds", "adcs"),
            term!("8", "adds", "adcs"),
            column_end!("r0", "20"),
            // Column 6.
            term!("24", "adds", "adcs"),
            term!("12", "adds", "adcs"),
            term!("0", "adds", "adcs"),
            column_end!("r0", "24"),
            // Column 7.
            term!("28", "adds", "adcs"),
            term!("16", "adds", "adcs"),
            term!("4", "adds", "adcs"),
            term!("0", "subs", "sbcs"),
            column_end!("r0", "28"),
            // Column 8: result word 0.
            term!("32", "adds", "adcs"),
            term!("20", "adds", "adcs"),
            term!("8", "adds", "adcs"),
            term!("4", "subs", "sbcs"),
            term!("0", "adds", "adcs"),
            column_end!("r1", "0"),
            // Column 9.
            term!("36", "adds", "adcs"),
            term!("24", "adds", "adcs"),
            term!("12", "adds", "adcs"),
            term!("8", "subs", "sbcs"),
            term!("4", "adds", "adcs"),
            column_end!("r1", "4"),
            // Column 10.
            term!("40", "adds", "adcs"),
            term!("28", "adds", "adcs"),
            term!("16", "adds", "adcs"),
            term!("12", "subs", "sbcs"),
            term!("8", "adds", "adcs"),
            column_end!("r1", "8"),
            // Column 11.
            term!("44", "adds", "adcs"),
            term!("20", "adds", "adcs"),
            term!("16", "subs", "sbcs"),
            term!("12", "adds", "adcs"),
            column_end!("r1", "12"),
            // Column 12.
            term!("48", "adds", "adcs"),
            term!("24", "adds", "adcs"),
            term!("20", "subs", "sbcs"),
            term!("16", "adds", "adcs"),
            column_end!("r1", "16"),
            // Column 13.
            term!("52", "adds", "adcs"),
            term!("28", "adds", "adcs"),
            term!("24", "subs", "sbcs"),
            term!("20", "adds", "adcs"),
            column_end!("r1", "20"),
            // Column 14.
            term!("56", "adds", "adcs"),
            term!("28", "subs", "sbcs"),
            term!("24", "adds", "adcs"),
            column_end!("r1", "24"),
            // Column 15, and the top carry (0 or 1) in r3.
            term!("60", "adds", "adcs"),
            term!("28", "adds", "adcs"),
            "str r2, [r1, #28]",
            at_least_p!(),
            minus_masked_p!(),
            "pop {{r6}}",
            inout("r0") t.as_mut_ptr() => _,
            inout("r1") r.as_mut_ptr() => _,
            out("r2") _, out("r3") _, out("r4") _, out("r5") _, out("r12") _,
        );
    }
    // SAFETY: the assembly wrote all eight words.
    unsafe { r.assume_init() }
}

/// `a + b mod p` for `a, b < p`: the sum with its carry, then `p` off unless that borrows.
#[inline(always)]
#[must_use]
pub fn add(a: &[u32; 8], b: &[u32; 8]) -> [u32; 8] {
    let mut r = core::mem::MaybeUninit::<[u32; 8]>::uninit();
    // SAFETY: reads the eight words at `a` and at `b` and writes and rereads the eight of
    // `r`, through the pointers in r0–r2; r0–r5 and r12 are declared clobbered, r6 (reserved
    // by Rust) is pushed and popped, r7 is not touched; no branch.
    unsafe {
        asm!(
            "push {{r6}}",
            crate::thumbv6m::ec::curve25519::add_chain!("adds", "adcs"),
            "movs r3, #0",
            "adcs r3, r3",
            "subs r0, #32",
            "mov r1, r0",
            "movs r5, #0",
            at_least_p!(),
            minus_masked_p!(),
            "pop {{r6}}",
            inout("r0") r.as_mut_ptr() => _,
            inout("r1") a.as_ptr() => _,
            inout("r2") b.as_ptr() => _,
            out("r3") _, out("r4") _, out("r5") _, out("r12") _,
        );
    }
    // SAFETY: the assembly wrote all eight words.
    unsafe { r.assume_init() }
}

/// `a − b mod p` for `a, b < p`: the difference, then `p` back on if it borrowed.
#[inline(always)]
#[must_use]
pub fn sub(a: &[u32; 8], b: &[u32; 8]) -> [u32; 8] {
    let mut r = core::mem::MaybeUninit::<[u32; 8]>::uninit();
    // SAFETY: as in `add`.
    unsafe {
        asm!(
            "push {{r6}}",
            crate::thumbv6m::ec::curve25519::add_chain!("subs", "sbcs"),
            // All ones after a borrow.
            "sbcs r4, r4",
            "subs r0, #32",
            "mov r1, r0",
            "movs r5, #0",
            "movs r6, #1",
            "ands r6, r4",
            plus_masked_p!(),
            "pop {{r6}}",
            inout("r0") r.as_mut_ptr() => _,
            inout("r1") a.as_ptr() => _,
            inout("r2") b.as_ptr() => _,
            out("r3") _, out("r4") _, out("r5") _,
        );
    }
    // SAFETY: the assembly wrote all eight words.
    unsafe { r.assume_init() }
}

/// `a/2 mod p` for `a < p`: `a`, plus `p` when `a` is odd (a mask), shifted right by one
/// bit with the carry as the new top bit (the shift a loop: halving is one call a doubling,
/// and written out it was 60 bytes more).
#[inline(always)]
#[must_use]
pub fn halve(a: &[u32; 8]) -> [u32; 8] {
    let mut r = core::mem::MaybeUninit::<[u32; 8]>::uninit();
    // SAFETY: reads the eight words at `a` and writes and rereads the eight of `r`, through
    // the pointers in r0 and r1 (r1 moved back); r0–r5 are declared clobbered, r6 (reserved
    // by Rust) is pushed and popped, r7 is not touched; the one branch is the word loop's,
    // on its fixed count.
    unsafe {
        asm!(
            "push {{r6}}",
            "ldr r2, [r0]",
            "movs r4, #1",
            "ands r4, r2",
            "negs r4, r4",
            "movs r5, #0",
            "movs r6, #1",
            "ands r6, r4",
            plus_masked_p!(),
            "adcs r5, r5",
            "lsls r2, r5, #31",
            // From the top word down: each shifted right by one, the bit from above in its
            // top bit (r2), a loop over the eight (a fixed count).
            "movs r5, #8",
            "2:",
            "subs r1, #4",
            "ldr r3, [r1]",
            "lsrs r4, r3, #1",
            "orrs r4, r2",
            "str r4, [r1]",
            "lsls r2, r3, #31",
            "subs r5, #1",
            "bne 2b",
            "pop {{r6}}",
            inout("r0") a.as_ptr() => _,
            inout("r1") r.as_mut_ptr() => _,
            out("r2") _, out("r3") _, out("r4") _, out("r5") _,
        );
    }
    // SAFETY: the assembly wrote all eight words.
    unsafe { r.assume_init() }
}
