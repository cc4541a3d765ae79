//! GF(p) for P-256's prime `p = 2^256 − 2^224 + 2^192 + 2^96 − 1` on the Cortex-M0 with the
//! `asm` feature: eight packed 32-bit words in Montgomery form (`R = 2^256`), kept below `p`.
//! The 512-bit product is the Curve25519 field's Thumb-1 one (`curve25519/thumb1`); the
//! reduction is specialised to `p` in Thumb-1 assembly: `p ≡ −1 (mod 2^96)`, so each
//! Montgomery step's multiplier is the current low word `q` itself, and adding `q·p` is adding
//! `q` three, six and eight words up and subtracting it seven up — no multiplication. Taken
//! column by column with a signed carry, the eight steps are 45 word loads and additions,
//! against the 324 limb products of `mont15`'s 15-bit Montgomery product. Addition,
//! subtraction, halving and the select are Thumb-1 too: fixed addresses, straight-line but
//! for halving's shift (a loop of fixed count), the final corrections masks (compiled masked selects can become branches on Thumb-1). The comb
//! table, and apart from it verification's `G, 3G, 5G, 7G`, are converted into this form at
//! compile time; inversion is Fermat's.

use super::Field;
use crate::curve25519::thumb1::{self, add_chain, select_word};
use subtle::{Choice, ConstantTimeEq};

/// `p`, little-endian words.
const P: [u32; 8] = [u32::MAX, u32::MAX, u32::MAX, 0, 0, 0, 1, u32::MAX];

/// `R mod p = 2^256 − p`: one in Montgomery form.
const ONE: [u32; 8] = [1, 0, 0, u32::MAX, u32::MAX, u32::MAX, u32::MAX - 1, 0];

/// `R² mod p`, which converts into Montgomery form.
const R2: [u32; 8] = {
    let mut x = ONE;
    let mut i = 0;
    while i < 256 {
        x = const_add(&x, &x);
        i += 1;
    }
    x
};

/// The 256×256→512-bit product: every product of this field goes through here.
#[inline(always)]
fn mul_wide(a: &[u32; 8], b: &[u32; 8]) -> [u32; 16] {
    thumb1::mul_wide(a, b)
}

/// The 512-bit square: every square of this field goes through here.
#[inline(always)]
fn square_wide(a: &[u32; 8]) -> [u32; 16] {
    thumb1::square_wide(a)
}

/// `a + b mod p` for `a, b < p`, at compile time.
const fn const_add(a: &[u32; 8], b: &[u32; 8]) -> [u32; 8] {
    let mut s = [0u32; 8];
    let mut c = 0u64;
    let mut i = 0;
    while i < 8 {
        let v = a[i] as u64 + b[i] as u64 + c;
        s[i] = v as u32;
        c = v >> 32;
        i += 1;
    }
    const_reduce_once(&s, c as u32)
}

/// `t − p` if `c·2^256 + t ≥ p`, else `t`, at compile time.
const fn const_reduce_once(t: &[u32; 8], c: u32) -> [u32; 8] {
    let mut d = [0u32; 8];
    let mut borrow = 0u64;
    let mut i = 0;
    while i < 8 {
        let v = (t[i] as u64).wrapping_sub(P[i] as u64).wrapping_sub(borrow);
        d[i] = v as u32;
        borrow = v >> 63;
        i += 1;
    }
    if c == 1 || borrow == 0 { d } else { *t }
}

/// `a·b·R⁻¹ mod p` at compile time (word-serial Montgomery, `−p⁻¹ ≡ 1 mod 2^32`).
const fn const_mul(a: &[u32; 8], b: &[u32; 8]) -> [u32; 8] {
    let mut t = [0u32; 10];
    let mut i = 0;
    while i < 8 {
        let mut c = 0u64;
        let mut j = 0;
        while j < 8 {
            let v = a[i] as u64 * b[j] as u64 + t[j] as u64 + c;
            t[j] = v as u32;
            c = v >> 32;
            j += 1;
        }
        let v = t[8] as u64 + c;
        t[8] = v as u32;
        t[9] = (v >> 32) as u32;
        let q = t[0] as u64;
        let mut c = (q * P[0] as u64 + t[0] as u64) >> 32;
        j = 1;
        while j < 8 {
            let v = q * P[j] as u64 + t[j] as u64 + c;
            t[j - 1] = v as u32;
            c = v >> 32;
            j += 1;
        }
        let v = t[8] as u64 + c;
        t[7] = v as u32;
        t[8] = t[9] + (v >> 32) as u32;
        t[9] = 0;
        i += 1;
    }
    let mut r = [0u32; 8];
    let mut k = 0;
    while k < 8 {
        r[k] = t[k];
        k += 1;
    }
    const_reduce_once(&r, t[8])
}

/// The little-endian words of the 32 big-endian bytes at `bytes[at..]`.
const fn const_words(bytes: &[u8], at: usize) -> [u32; 8] {
    let mut w = [0u32; 8];
    let mut i = 0;
    while i < 32 {
        w[i / 4] |= (bytes[at + 31 - i] as u32) << (8 * (i % 4));
        i += 1;
    }
    w
}

/// A comb table of affine points `x‖y` (32 big-endian bytes each, the layout of
/// [`tables`](super::tables)) in Montgomery form, at compile time.
const fn const_comb<const K: usize>(bytes: &[u8]) -> [[[u32; 8]; 2]; K] {
    let mut out = [[[0u32; 8]; 2]; K];
    let mut e = 0;
    while e < K {
        out[e][0] = const_mul(&const_words(bytes, 64 * e), &R2);
        out[e][1] = const_mul(&const_words(bytes, 64 * e + 32), &R2);
        e += 1;
    }
    out
}

/// The comb table ([`Field::comb`]) in this field's form, converted at compile time.
static COMB: [[[u32; 8]; 2]; super::tables::P256_COMB.len() / 64] =
    const_comb(&super::tables::P256_COMB);

/// `G, 3G, 5G, 7G` ([`Field::odd_g`]: entries 1, 3, 5 and 7 of the comb's first row), apart
/// from the comb so that verification links 256 bytes of table rather than 2.5 KiB.
static ODD_G4: [[[u32; 8]; 2]; 4] = {
    let row: [[[u32; 8]; 2]; 8] = const_comb(&super::tables::P256_COMB);
    [row[0], row[2], row[4], row[6]]
};

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
/// dropped: `v − p` where [`at_least_p`] set the mask, `v` elsewhere.
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
#[inline(never)]
fn redc(t: &mut [u32; 16]) -> [u32; 8] {
    let mut r = core::mem::MaybeUninit::<[u32; 8]>::uninit();
    // SAFETY: reads the sixteen words of `t` and writes its words 3 to 7, and writes the eight
    // of `r`, through the pointers in r0 and r1 (r1 restored before the last pass); r0–r5 and
    // r12 are declared clobbered, r6 (reserved by Rust) is pushed and popped, r7 is not
    // touched; no branch.
    unsafe {
        core::arch::asm!(
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

/// `a·b·R⁻¹ mod p`.
#[inline(never)]
fn mul(a: &[u32; 8], b: &[u32; 8]) -> [u32; 8] {
    redc(&mut mul_wide(a, b))
}

/// `a²·R⁻¹ mod p`.
#[inline(never)]
fn sqr(a: &[u32; 8]) -> [u32; 8] {
    redc(&mut square_wide(a))
}

/// `a + b mod p` for `a, b < p`: the sum with its carry, then `p` off unless that borrows.
#[inline(never)]
fn add(a: &[u32; 8], b: &[u32; 8]) -> [u32; 8] {
    let mut r = core::mem::MaybeUninit::<[u32; 8]>::uninit();
    // SAFETY: reads the eight words at `a` and at `b` and writes and rereads the eight of
    // `r`, through the pointers in r0–r2; r0–r5 and r12 are declared clobbered, r6 (reserved
    // by Rust) is pushed and popped, r7 is not touched; no branch.
    unsafe {
        core::arch::asm!(
            "push {{r6}}",
            add_chain!("adds", "adcs"),
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
#[inline(never)]
fn sub(a: &[u32; 8], b: &[u32; 8]) -> [u32; 8] {
    let mut r = core::mem::MaybeUninit::<[u32; 8]>::uninit();
    // SAFETY: as in `add`.
    unsafe {
        core::arch::asm!(
            "push {{r6}}",
            add_chain!("subs", "sbcs"),
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
#[inline(never)]
fn halve(a: &[u32; 8]) -> [u32; 8] {
    let mut r = core::mem::MaybeUninit::<[u32; 8]>::uninit();
    // SAFETY: reads the eight words at `a` and writes and rereads the eight of `r`, through
    // the pointers in r0 and r1 (r1 moved back); r0–r5 are declared clobbered, r6 (reserved
    // by Rust) is pushed and popped, r7 is not touched; the one branch is the word loop's,
    // on its fixed count.
    unsafe {
        core::arch::asm!(
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

/// `b` if `choice` is set, else `a`: `a ^ ((a ^ b) & mask)` a word at a time.
#[inline(never)]
fn select(a: &[u32; 8], b: &[u32; 8], choice: Choice) -> [u32; 8] {
    let mask = 0u32.wrapping_sub(u32::from(choice.unwrap_u8()));
    let mut r = core::mem::MaybeUninit::<[u32; 8]>::uninit();
    // SAFETY: reads the eight words at `a` and at `b` and writes the eight of `r`, through the
    // pointers in r0–r2; r0–r5 are declared clobbered (r6 and r7 are not touched); no branch.
    unsafe {
        core::arch::asm!(
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

/// The value of up to 32 big-endian bytes as words, those bytes right-aligned in 32, and
/// whether bytes beyond 32 (if any) were all zero.
fn words_of(bytes: &[u8]) -> ([u32; 8], [u8; 32], Choice) {
    let mut buf = [0u8; 32];
    let n = bytes.len().min(32);
    let (spill, tail) = bytes.split_at(bytes.len() - n);
    buf[32 - n..].copy_from_slice(tail);
    let spill = spill.iter().fold(0u8, |acc, &b| acc | b);
    let mut w = [0u32; 8];
    for (i, word) in w.iter_mut().enumerate() {
        let at = 28 - 4 * i;
        *word = u32::from_be_bytes([buf[at], buf[at + 1], buf[at + 2], buf[at + 3]]);
    }
    (w, buf, spill.ct_eq(&0))
}

/// The P-256 field on the Cortex-M0 in Thumb-1 assembly.
#[derive(Debug)]
pub(crate) struct P256Thumb1;

impl Field for P256Thumb1 {
    type E = [u32; 8];

    fn modulus(&self) -> &'static [u8] {
        &crate::p256::P_BYTES
    }

    #[inline]
    fn zero(&self) -> [u32; 8] {
        [0; 8]
    }

    #[inline]
    fn one(&self) -> [u32; 8] {
        ONE
    }

    #[inline]
    fn add(&self, a: &[u32; 8], b: &[u32; 8]) -> [u32; 8] {
        add(a, b)
    }

    #[inline]
    fn sub(&self, a: &[u32; 8], b: &[u32; 8]) -> [u32; 8] {
        sub(a, b)
    }

    #[inline]
    fn mul(&self, a: &[u32; 8], b: &[u32; 8]) -> [u32; 8] {
        mul(a, b)
    }

    #[inline]
    fn sqr(&self, a: &[u32; 8]) -> [u32; 8] {
        sqr(a)
    }

    #[inline]
    fn halve(&self, a: &[u32; 8]) -> [u32; 8] {
        halve(a)
    }

    #[inline]
    fn select(a: &[u32; 8], b: &[u32; 8], choice: Choice) -> [u32; 8] {
        select(a, b, choice)
    }

    fn is_zero(a: &[u32; 8]) -> Choice {
        let acc = a[0] | a[1] | a[2] | a[3] | a[4] | a[5] | a[6] | a[7];
        Choice::from(((acc | acc.wrapping_neg()) >> 31) as u8 ^ 1)
    }

    /// Any `x < 2^256` converts as `x·R² ·R⁻¹`, reduced (`x·R² < p·R`); `x < p` exactly
    /// when converting back gives `x` again (rather than a comparison of its own: imports are
    /// few, and this keeps their code small).
    fn import_be(&self, bytes: &[u8]) -> ([u32; 8], Choice) {
        let (x, buf, fits) = words_of(bytes);
        let y = mul(&x, &R2);
        let mut back = [0u8; 32];
        self.to_be(&y, &mut back);
        let ok = fits & back.ct_eq(&buf);
        (select(&[0; 8], &y, ok), ok)
    }

    fn import_be_reduce(&self, bytes: &[u8]) -> [u32; 8] {
        mul(&words_of(bytes).0, &R2)
    }

    fn to_be(&self, a: &[u32; 8], out: &mut [u8]) {
        let mut t = [0u32; 16];
        t[..8].copy_from_slice(a);
        let w = redc(&mut t);
        let n = out.len();
        for (i, o) in out.iter_mut().enumerate() {
            let k = n - 1 - i;
            *o = if k < 32 { (w[k / 4] >> (8 * (k % 4))) as u8 } else { 0 };
        }
    }

    fn comb(&self) -> &'static [[[u32; 8]; 2]] {
        &COMB
    }

    fn odd_g(&self) -> &'static [[[u32; 8]; 2]] {
        &ODD_G4
    }
}

/// The results of every field operation on the big-endian `a` and `b` in field `f`, as
/// canonical big-endian bytes, with the names of the operations: what the firmware's checks
/// compare between this field and `mont15` (the host cannot run this one). Inputs not below
/// `p` are refused by `import_be` (their flags and zeros are compared too).
pub(crate) fn field_results<F: Field>(
    f: &F,
    a: &[u8; 32],
    b: &[u8; 32],
) -> [(&'static str, [u8; 32]); 17] {
    let out = |v: &F::E| {
        let mut o = [0u8; 32];
        f.to_be(v, &mut o);
        o
    };
    let flag = |c: Choice| {
        let mut o = [0u8; 32];
        o[0] = c.unwrap_u8();
        o
    };
    let (x, okx) = f.import_be(a);
    let (y, oky) = f.import_be(b);
    [
        ("import a", out(&x)),
        ("import a flag", flag(okx)),
        ("import b flag", flag(oky)),
        ("import_be_reduce", out(&f.import_be_reduce(a))),
        ("add", out(&f.add(&x, &y))),
        ("sub", out(&f.sub(&x, &y))),
        ("sub reversed", out(&f.sub(&y, &x))),
        ("mul", out(&f.mul(&x, &y))),
        ("sqr", out(&f.sqr(&x))),
        ("neg", out(&f.neg(&x))),
        ("halve", out(&f.halve(&x))),
        ("invert", out(&f.invert(&x))),
        ("eq", flag(f.eq(&x, &y))),
        ("is_zero", flag(F::is_zero(&x))),
        ("select 0", out(&F::select(&x, &y, Choice::from(0)))),
        ("select 1", out(&F::select(&x, &y, Choice::from(1)))),
        ("chain", out(&f.mul(&f.sqr(&f.add(&x, &y)), &f.halve(&f.sub(&y, &x))))),
    ]
}

/// The big-endian value whose Montgomery form in this field is the words `w` (any value
/// below `p`): `w·R⁻¹ mod p`, so that the firmware's checks reach edge values of the
/// representation itself (all-ones words, words near `p`).
pub(crate) fn plain_of_words(w: &[u32; 8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    P256Thumb1.to_be(w, &mut out);
    out
}

/// [`mul`] for the cost model's field rows.
pub(crate) fn mul_raw(a: &[u32; 8], b: &[u32; 8]) -> [u32; 8] {
    mul(a, b)
}

/// [`sqr`] for the cost model's field rows.
pub(crate) fn sqr_raw(a: &[u32; 8]) -> [u32; 8] {
    sqr(a)
}
