//! GF(2^255 − 19) on eight packed 32-bit words for the Cortex-M0, any value below 2^256,
//! reduced modulo p only by [`canonical`]: the 512-bit product and square by two levels of
//! Karatsuba ([`mul_karatsuba`], [`square_karatsuba`]), folded with 2^256 ≡ 38 (mod p) at the
//! end of the same routine (`reduce_wide!`: one call an operation, no 16-word result handed
//! back); the additions, subtractions, [`mul_a24`] and [`add_mul_a24`] fold their carry or
//! borrow the same way. Against the radix-2^13 product of core-ec's `portable32` this needs 36
//! word products for a multiplication (four 16×16-bit `MULS` each) where that one has 400 limb
//! products with two loads each: about 1.9k cycles a multiplication against 3.7k, and 1.2k a
//! squaring against 1.8k, on the Cortex-M0+ model (m0-cost's rows).
//!
//! Everything here is straight-line (no branch on data, fixed addresses): the compiled word
//! loops were about twice as long, and one compiled masked select (in `to_bytes`) became a
//! branch on the mask. The `Field` impl around these is core-ec's `curve25519::thumb1`; the
//! Cortex-M0 firmware (`cargo xtask m0`) checks it against `portable32`. The only obligation
//! of these kernels is the memory one their references already carry, so they are safe
//! functions, [`mul_to`] and [`square_to`] included: each writes straight into the caller's
//! `&mut` words (the one raw-pointer routine, the square that [`square_assign`] runs in place,
//! stays private behind them).

use core::arch::asm;

/// Loads `hi[i]` into `$d` for `reduce_word!`: from byte offset `$hi` from r0, or from the
/// high register in `(reg $r)`.
macro_rules! reduce_hi {
    ($d:literal, $hi:literal) => {
        concat!("ldr ", $d, ", [r0, #", $hi, "]\n")
    };
    ($d:literal, (reg $r:literal)) => {
        concat!("mov ", $d, ", ", $r, "\n")
    };
}

/// One word of the reduction's first pass: `t[i] = lo[i] + 38·hi[i] + carry` (`lo[i]` at
/// byte offset `$lo` from r0, `hi[i]` as `reduce_hi!` takes it), the carry (below 2^12) in
/// `$c` on entry and in `$h` on exit (the two alternate between r2 and r6 word by word, so
/// that no move is needed), 38 in r1; r3 is zero, r4 and r5 are scratch. The carry in is
/// added to the low half's product (below 2^22), where it cannot carry out.
#[rustfmt::skip]
macro_rules! reduce_word {
    ($c:literal, $h:literal, $lo:literal, $hi:tt) => {
        concat!(
            reduce_hi!($h, $hi),
            "uxth r4, ", $h, "\n",
            "lsrs ", $h, ", ", $h, ", #16\n",
            "muls r4, r1, r4\n",
            "muls ", $h, ", r1, ", $h, "\n",
            "adds r4, r4, ", $c, "\n",
            "lsls r5, ", $h, ", #16\n",
            "lsrs ", $h, ", ", $h, ", #16\n",
            "adds r4, r4, r5\n",
            "adcs ", $h, ", r3\n",
            "ldr r5, [r0, #", $lo, "]\n",
            "adds r4, r4, r5\n",
            "adcs ", $h, ", r3\n",
            "str r4, [r0, #", $lo, "]\n",
        )
    };
}

/// The tail of the product and square routines: the 512-bit `t` (its first twelve words at
/// r0, scratch; the last four, `hi[4..8)`, in the high registers `$h4`…`$h7`, never
/// stored) reduced below 2^256 with 2^256 ≡ 38, `lo + 38·hi`, into the eight words at r1.
/// Each `38·hi[i]` is two `MULS` on 16-bit halves. The top word goes first: of
/// `lo[7] + 38·hi[7]`, the low 31 bits stay in `t[7]` and the rest (bit 255 up, below 2^7)
/// comes back as 19 times it (2^255 ≡ 19) as the carry into word 0; then words 0 to 6 in
/// one carried pass, and their carry (below 2^6) goes into word 7 while copying out, where
/// it cannot carry out of 2^256 (word 7 is below 2^31). Clobbers r0–r6 and r12 (the caller
/// saves r6); no branch.
macro_rules! reduce_wide {
    ($h4:literal, $h5:literal, $h6:literal, $h7:literal) => {
        concat!(
            "mov r12, r1\n",
            "movs r1, #38\n",
            "movs r3, #0\n",
            reduce_hi!("r6", (reg $h7)),
            "uxth r4, r6\n",
            "lsrs r6, r6, #16\n",
            "muls r4, r1, r4\n",
            "muls r6, r1, r6\n",
            "lsls r5, r6, #16\n",
            "lsrs r6, r6, #16\n",
            "adds r4, r4, r5\n",
            "adcs r6, r3\n",
            "ldr r5, [r0, #28]\n",
            "adds r4, r4, r5\n",
            "adcs r6, r3\n",
            // Bit 31 out through the carry into the top (r6), then the 31 bits back.
            "lsls r4, r4, #1\n",
            "adcs r6, r6\n",
            "lsrs r4, r4, #1\n",
            "str r4, [r0, #28]\n",
            "movs r2, #19\n",
            "muls r2, r6, r2\n",
            reduce_word!("r2", "r6", "0", "32"),
            reduce_word!("r6", "r2", "4", "36"),
            reduce_word!("r2", "r6", "8", "40"),
            reduce_word!("r6", "r2", "12", "44"),
            reduce_word!("r2", "r6", "16", (reg $h4)),
            reduce_word!("r6", "r2", "20", (reg $h5)),
            reduce_word!("r2", "r6", "24", (reg $h6)),
            "mov r1, r12\n",
            "ldm r0!, {{r2, r3, r4, r5}}\n",
            "stm r1!, {{r2, r3, r4, r5}}\n",
            "ldm r0!, {{r2, r3, r4, r5}}\n",
            "adds r5, r5, r6\n",
            "stm r1!, {{r2, r3, r4, r5}}\n",
        )
    };
}

/// Two words of an addition or subtraction chain (`$op` is `adcs` or `sbcs`): the next two
/// words at r1 and at r2, the result to r0 (all three advancing: the registers the
/// arguments arrive in).
macro_rules! add_words {
    ($op:literal) => {
        concat!(
            "ldm r1!, {{r3, r4}}\n",
            "ldm r2!, {{r5, r6}}\n",
            $op,
            " r3, r5\n",
            $op,
            " r4, r6\n",
            "stm r0!, {{r3, r4}}\n",
        )
    };
}
pub(crate) use add_words;

/// An eight-word addition or subtraction chain (`$first` `adds` or `subs`, `$op` `adcs` or
/// `sbcs`): the words at r1 and r2, the result to r0 (all three advancing); the carry or
/// borrow out is left in the flags.
macro_rules! add_chain {
    ($first:literal, $op:literal) => {
        concat!(
            "ldm r1!, {{r3, r4}}\n",
            "ldm r2!, {{r5, r6}}\n",
            $first,
            " r3, r3, r5\n",
            $op,
            " r4, r6\n",
            "stm r0!, {{r3, r4}}\n",
            $crate::thumbv6m::ec::curve25519::add_words!($op),
            $crate::thumbv6m::ec::curve25519::add_words!($op),
            $crate::thumbv6m::ec::curve25519::add_words!($op),
        )
    };
}
pub(crate) use add_chain;

/// After an addition (subtraction) whose eight result words end before r0: `$flag` turns
/// the carry (borrow) into r3 (1, or all ones) and `$scale` makes that 38 (by r4 = 38); 38
/// is then added (`$op` `adds`, `$chain` `adcs`) or subtracted (`subs`, `sbcs`) through the eight words, and 38 once
/// more for a second carry (borrow), in the lowest word only, where it cannot carry again.
macro_rules! fold_carry {
    ($flag:literal, $scale:literal, $op:literal, $chain:literal) => {
        concat!(
            "movs r3, #0\n",
            $flag,
            "\n",
            "movs r4, #38\n",
            $scale,
            "\n",
            "movs r1, #0\n",
            "subs r0, #32\n",
            "mov r2, r0\n",
            "ldm r2!, {{r4, r5, r6}}\n",
            $op,
            " r4, r4, r3\n",
            $chain,
            " r5, r1\n",
            $chain,
            " r6, r1\n",
            "stm r0!, {{r4, r5, r6}}\n",
            "ldm r2!, {{r4, r5, r6}}\n",
            $chain,
            " r4, r1\n",
            $chain,
            " r5, r1\n",
            $chain,
            " r6, r1\n",
            "stm r0!, {{r4, r5, r6}}\n",
            "ldm r2!, {{r4, r5}}\n",
            $chain,
            " r4, r1\n",
            $chain,
            " r5, r1\n",
            "stm r0!, {{r4, r5}}\n",
            "movs r3, #0\n",
            $flag,
            "\n",
            "movs r4, #38\n",
            $scale,
            "\n",
            "subs r0, #32\n",
            "ldr r4, [r0]\n",
            $op,
            " r4, r4, r3\n",
            "str r4, [r0]\n",
        )
    };
}

/// One word of `mul_a24`: the next word at r0 times 121665 (K = 0xdb41 in r6) plus the
/// carry in r2, its low word to r1 (both advancing) and its high word the new carry.
macro_rules! mul_a24_word {
    () => {
        concat!(
            "ldm r0!, {{r3}}\n",
            "uxth r4, r3\n",
            "lsrs r3, r3, #16\n",
            "mov r5, r3\n",
            "muls r5, r6, r5\n",
            "adds r5, r5, r4\n",
            "muls r4, r6, r4\n",
            "adds r4, r4, r2\n",
            "lsls r2, r5, #16\n",
            "lsrs r5, r5, #16\n",
            "adds r4, r4, r2\n",
            "adcs r3, r5\n",
            "stm r1!, {{r4}}\n",
            "mov r2, r3\n",
        )
    };
}

/// One word of `add_mul_a24`: the next word at r0 times 121665 (K in r6) plus the carry in
/// r2 plus the word at r1, which it replaces (both pointers advancing); the high word (below
/// 2^18: the sum is below 2^32·121667) is the new carry.
macro_rules! add_mul_a24_word {
    () => {
        concat!(
            "ldm r0!, {{r3}}\n",
            "uxth r4, r3\n",
            "lsrs r3, r3, #16\n",
            "mov r5, r3\n",
            "muls r5, r6, r5\n",
            "adds r5, r5, r4\n",
            "muls r4, r6, r4\n",
            "adds r4, r4, r2\n",
            "lsls r2, r5, #16\n",
            "lsrs r5, r5, #16\n",
            "adds r4, r4, r2\n",
            "adcs r3, r5\n",
            "ldr r2, [r1]\n",
            "adds r4, r4, r2\n",
            "movs r2, #0\n",
            "adcs r2, r3\n",
            "stm r1!, {{r4}}\n",
        )
    };
}

/// The top word of `add_mul_a24` first: `e[7]·121665 + self[7]` (below 2^32·121666), its
/// low 31 bits back to `self[7]` and the rest (bit 255 up, below 2^18) as 19 times it
/// (2^255 ≡ 19; below 2^23) into r2, the carry into word 0. That carry added to the low
/// half's product (at most 0xffff·0xdb41) cannot carry out; the words' carries stay below
/// 2^18, so the last, into word 7 (below 2^31), cannot carry out of 2^256. K in r6.
#[rustfmt::skip]
macro_rules! add_mul_a24_top {
    () => {
        concat!(
            "ldr r3, [r0, #28]\n",
            "uxth r4, r3\n",
            "lsrs r3, r3, #16\n",
            "mov r5, r3\n",
            "muls r5, r6, r5\n",
            "adds r5, r5, r4\n",
            "muls r4, r6, r4\n",
            "lsls r2, r5, #16\n",
            "lsrs r5, r5, #16\n",
            "adds r4, r4, r2\n",
            "adcs r3, r5\n",
            "ldr r2, [r1, #28]\n",
            "adds r4, r4, r2\n",
            "movs r2, #0\n",
            "adcs r2, r3\n",
            // Bit 31 out through the carry into the top (r2), then the 31 bits back.
            "lsls r4, r4, #1\n",
            "adcs r2, r2\n",
            "lsrs r4, r4, #1\n",
            "str r4, [r1, #28]\n",
            "movs r3, #19\n",
            "muls r2, r3, r2\n",
        )
    };
}

/// After `mul_a24`, whose eight result words end before r1: the carry in
/// r2 (below 2^18) folded as 38 times it through the eight words, and the carry out of that
/// (at most one) as 38 into the lowest word, where it cannot carry again. Clobbers r0–r5.
macro_rules! fold_a24_carry {
    () => {
        concat!(
            "movs r4, #38\n",
            "muls r2, r4, r2\n",
            "subs r1, #32\n",
            "mov r0, r1\n",
            "ldm r0!, {{r3, r4, r5}}\n",
            "adds r3, r3, r2\n",
            "movs r2, #0\n",
            "adcs r4, r2\n",
            "adcs r5, r2\n",
            "stm r1!, {{r3, r4, r5}}\n",
            "ldm r0!, {{r3, r4, r5}}\n",
            "adcs r3, r2\n",
            "adcs r4, r2\n",
            "adcs r5, r2\n",
            "stm r1!, {{r3, r4, r5}}\n",
            "ldm r0!, {{r3, r4}}\n",
            "adcs r3, r2\n",
            "adcs r4, r2\n",
            "stm r1!, {{r3, r4}}\n",
            "adcs r2, r2\n",
            "movs r3, #38\n",
            "muls r2, r3, r2\n",
            "subs r1, #32\n",
            "ldr r3, [r1]\n",
            "adds r3, r3, r2\n",
            "str r3, [r1]\n",
        )
    };
}

/// One word of `conditional_select`: `a ^ ((a ^ b) & mask)` from the words at r1 and r2 to
/// r0 (all three advancing), the mask in r3.
macro_rules! select_word {
    () => {
        concat!(
            "ldm r1!, {{r4}}\n",
            "ldm r2!, {{r5}}\n",
            "eors r5, r4\n",
            "ands r5, r3\n",
            "eors r4, r5\n",
            "stm r0!, {{r4}}\n",
        )
    };
}

/// One word of `conditional_swap` at byte offset `$k` from r0 and r1, the mask in r2.
macro_rules! swap_word {
    ($k:literal) => {
        concat!(
            "ldr r3, [r0, #",
            $k,
            "]\n",
            "ldr r4, [r1, #",
            $k,
            "]\n",
            "mov r5, r3\n",
            "eors r5, r4\n",
            "ands r5, r2\n",
            "eors r3, r5\n",
            "eors r4, r5\n",
            "str r3, [r0, #",
            $k,
            "]\n",
            "str r4, [r1, #",
            $k,
            "]\n",
        )
    };
}

mod mul_karatsuba;
mod square_karatsuba;

pub use mul_karatsuba::{Words8, mul, mul_to, mul_wide};
pub use square_karatsuba::{square, square_assign, square_to, square_wide};

/// `a ^ ((a ^ b) & mask)` a word at a time: `b` where `mask` is all ones, `a` where it is zero.
#[inline(always)]
#[must_use]
pub fn select(a: &[u32; 8], b: &[u32; 8], mask: u32) -> [u32; 8] {
    let mut r = core::mem::MaybeUninit::<[u32; 8]>::uninit();
    // SAFETY: reads the eight words at `a` and at `b` and writes the eight of `r`, through
    // the pointers in r0–r2; r0–r5 are declared clobbered (r6 and r7 are not touched);
    // no branch.
    unsafe {
        asm!(
            select_word!(),
            select_word!(),
            select_word!(),
            select_word!(),
            select_word!(),
            select_word!(),
            select_word!(),
            select_word!(),
            inout("r1") a.as_ptr() => _,
            inout("r2") b.as_ptr() => _,
            inout("r0") r.as_mut_ptr() => _,
            in("r3") mask,
            out("r4") _, out("r5") _,
            options(nostack),
        );
    }
    // SAFETY: the assembly wrote all eight words.
    unsafe { r.assume_init() }
}

/// Swaps `a` and `b` where `mask` is all ones, a word at a time: `t = (a ^ b) & mask`, then
/// `a ^= t` and `b ^= t`.
#[inline(always)]
pub fn swap(a: &mut [u32; 8], b: &mut [u32; 8], mask: u32) {
    // SAFETY: reads and writes the eight words at `a` and at `b` (distinct, as `&mut`)
    // through the pointers in r0 and r1; r3–r5 are declared clobbered (r6 and r7 are not
    // touched); no branch.
    unsafe {
        asm!(
            swap_word!("0"),
            swap_word!("4"),
            swap_word!("8"),
            swap_word!("12"),
            swap_word!("16"),
            swap_word!("20"),
            swap_word!("24"),
            swap_word!("28"),
            in("r0") a.as_mut_ptr(),
            in("r1") b.as_mut_ptr(),
            in("r2") mask,
            out("r3") _, out("r4") _, out("r5") _,
            options(nostack),
        );
    }
}

/// The canonical value of `a` (below p), as eight little-endian words: bit 255 folded as 19,
/// then 19 added and bit 255 cleared when that sets it (the value was at least p).
#[inline(always)]
#[must_use]
pub fn canonical(a: &[u32; 8]) -> [u32; 8] {
    let mut r = core::mem::MaybeUninit::<[u32; 8]>::uninit();
    // SAFETY: reads the eight words at `a` and writes and rereads the eight of `r`,
    // through the pointers in r0 and r1; r0–r5 are declared clobbered, r6 (reserved by
    // Rust) is pushed and popped, r7 is not touched; no branch.
    unsafe {
        asm!(
            "push {{r6}}",
            // v = self mod 2^255 + 19·bit255, below 2^255 + 19.
            "ldr r2, [r0, #28]",
            "lsrs r3, r2, #31",
            "movs r4, #19",
            "muls r3, r4, r3",
            "lsls r2, r2, #1",
            "lsrs r2, r2, #1",
            "ldm r0!, {{r4, r5, r6}}",
            "adds r4, r4, r3",
            "movs r3, #0",
            "adcs r5, r3",
            "adcs r6, r3",
            "stm r1!, {{r4, r5, r6}}",
            "ldm r0!, {{r4, r5, r6}}",
            "adcs r4, r3",
            "adcs r5, r3",
            "adcs r6, r3",
            "stm r1!, {{r4, r5, r6}}",
            "ldr r4, [r0]",
            "adcs r4, r3",
            "adcs r2, r3",
            "mov r5, r2",
            "stm r1!, {{r4, r5}}",
            // ge = bit 255 of v + 19: whether v ≥ p.
            "subs r1, #32",
            "ldm r1!, {{r2, r3, r4, r5}}",
            "movs r0, #19",
            "adds r2, r2, r0",
            "movs r0, #0",
            "adcs r3, r0",
            "adcs r4, r0",
            "adcs r5, r0",
            "ldm r1!, {{r2, r3, r4, r5}}",
            "adcs r2, r0",
            "adcs r3, r0",
            "adcs r4, r0",
            "adcs r5, r0",
            "lsrs r5, r5, #31",
            "movs r0, #19",
            "muls r5, r0, r5",
            // v + 19·ge with bit 255 cleared: v − p when v ≥ p, v otherwise.
            "subs r1, #32",
            "mov r0, r1",
            "ldm r0!, {{r2, r3, r4}}",
            "adds r2, r2, r5",
            "movs r5, #0",
            "adcs r3, r5",
            "adcs r4, r5",
            "stm r1!, {{r2, r3, r4}}",
            "ldm r0!, {{r2, r3, r4}}",
            "adcs r2, r5",
            "adcs r3, r5",
            "adcs r4, r5",
            "stm r1!, {{r2, r3, r4}}",
            "ldm r0!, {{r2, r3}}",
            "adcs r2, r5",
            "adcs r3, r5",
            "lsls r3, r3, #1",
            "lsrs r3, r3, #1",
            "stm r1!, {{r2, r3}}",
            "pop {{r6}}",
            inout("r0") a.as_ptr() => _,
            inout("r1") r.as_mut_ptr() => _,
            out("r2") _, out("r3") _, out("r4") _, out("r5") _,
        );
    }
    // SAFETY: the assembly wrote all eight words.
    unsafe { r.assume_init() }
}

/// The canonical encoding of `a` (RFC 7748 §5): [`canonical`]'s words, whose little-endian
/// bytes it is. A reinterpretation rather than a `to_le_bytes` loop, which the compiler
/// builds byte by byte into the unaligned array (68 bytes more in the X25519 image, 168 in
/// the fixed-base one).
#[inline(always)]
#[must_use]
pub fn canonical_bytes(a: &[u32; 8]) -> [u8; 32] {
    // SAFETY: the same size, and any 32 bytes are a valid `[u8; 32]`; this module is built
    // for little-endian Thumb-1 only, so the words' bytes in memory are the encoding.
    unsafe { core::mem::transmute::<[u32; 8], [u8; 32]>(canonical(a)) }
}

/// `a + b`, then 38 added for a carry out of 2^256, and once more, to the lowest word alone,
/// if that carries again.
#[inline(always)]
#[must_use]
pub fn add(a: &[u32; 8], b: &[u32; 8]) -> [u32; 8] {
    let mut r = core::mem::MaybeUninit::<[u32; 8]>::uninit();
    // SAFETY: reads the eight words at `a` and at `b` and writes the eight of `r`,
    // through the pointers in r0–r2; r0–r5 are declared clobbered, r6 (reserved by Rust)
    // is pushed and popped, r7 is not touched; no branch.
    unsafe {
        asm!(
            "push {{r6}}",
            add_chain!("adds", "adcs"),
            fold_carry!("adcs r3, r3", "muls r3, r4, r3", "adds", "adcs"),
            "pop {{r6}}",
            inout("r1") a.as_ptr() => _,
            inout("r2") b.as_ptr() => _,
            inout("r0") r.as_mut_ptr() => _,
            out("r3") _, out("r4") _, out("r5") _,
        );
    }
    // SAFETY: the assembly wrote all eight words.
    unsafe { r.assume_init() }
}

/// `a − b`, then 38 subtracted for a borrow out of 2^256, and once more, from the lowest word
/// alone, if that borrows again (the value is then at least 2^256 − 38).
#[inline(always)]
#[must_use]
pub fn sub(a: &[u32; 8], b: &[u32; 8]) -> [u32; 8] {
    let mut r = core::mem::MaybeUninit::<[u32; 8]>::uninit();
    // SAFETY: as in `add`.
    unsafe {
        asm!(
            "push {{r6}}",
            add_chain!("subs", "sbcs"),
            fold_carry!("sbcs r3, r3", "ands r3, r4", "subs", "sbcs"),
            "pop {{r6}}",
            inout("r1") a.as_ptr() => _,
            inout("r2") b.as_ptr() => _,
            inout("r0") r.as_mut_ptr() => _,
            out("r3") _, out("r4") _, out("r5") _,
        );
    }
    // SAFETY: the assembly wrote all eight words.
    unsafe { r.assume_init() }
}

/// `a·121665`, below 2^256, a word at a time: with `x = xh·2^16 + xl` and 121665 = 2^16 + K,
/// `x·121665 = xl·K + (xl + xh·K)·2^16 + xh·2^32`, where `xl + xh·K` fits a word and so does
/// `xl·K` plus the carry in from the word below (below 2^17); the top carry is folded as 38
/// times it, as in [`add`].
#[inline(always)]
#[must_use]
pub fn mul_a24(a: &[u32; 8]) -> [u32; 8] {
    let mut r = core::mem::MaybeUninit::<[u32; 8]>::uninit();
    // SAFETY: reads the eight words at `a` and writes and rereads the eight of `r`,
    // through the pointers in r0 and r1; r0–r5 are declared clobbered, r6 (reserved by
    // Rust) is pushed and popped, r7 is not touched; no branch.
    unsafe {
        asm!(
            "push {{r6}}",
            "movs r6, #0xdb",
            "lsls r6, r6, #8",
            "adds r6, #0x41",
            "movs r2, #0",
            mul_a24_word!(),
            mul_a24_word!(),
            mul_a24_word!(),
            mul_a24_word!(),
            mul_a24_word!(),
            mul_a24_word!(),
            mul_a24_word!(),
            mul_a24_word!(),
            fold_a24_carry!(),
            "pop {{r6}}",
            inout("r0") a.as_ptr() => _,
            inout("r1") r.as_mut_ptr() => _,
            out("r2") _, out("r3") _, out("r4") _, out("r5") _,
        );
    }
    // SAFETY: the assembly wrote all eight words.
    unsafe { r.assume_init() }
}

/// `a += e·121665` in one pass: each word of `e` times 121665 as in [`mul_a24`], plus the
/// word of `a` it replaces, the top word first (`add_mul_a24_top!`), so that the carry out
/// of words 0 to 6 is added to word 7 alone, with no fold after.
#[inline(always)]
pub fn add_mul_a24(a: &mut [u32; 8], e: &[u32; 8]) {
    // SAFETY: reads the eight words at `e` and reads and rewrites the eight at `a`
    // (distinct: `a` is `&mut`), through the pointers in r0 and r1; r0–r5 are declared
    // clobbered, r6 (reserved by Rust) is pushed and popped, r7 is not touched; no branch.
    unsafe {
        asm!(
            "push {{r6}}",
            "movs r6, #0xdb",
            "lsls r6, r6, #8",
            "adds r6, #0x41",
            add_mul_a24_top!(),
            add_mul_a24_word!(),
            add_mul_a24_word!(),
            add_mul_a24_word!(),
            add_mul_a24_word!(),
            add_mul_a24_word!(),
            add_mul_a24_word!(),
            add_mul_a24_word!(),
            "ldr r3, [r1]",
            "adds r3, r3, r2",
            "str r3, [r1]",
            "pop {{r6}}",
            inout("r0") e.as_ptr() => _,
            inout("r1") a.as_mut_ptr() => _,
            out("r2") _, out("r3") _, out("r4") _, out("r5") _,
        );
    }
}
