//! P-256 on BMI2 and ADX: the field (Montgomery form, four 64-bit limbs, `−p⁻¹ ≡ 1`) and the
//! scalars mod the group order `n`, and the Jacobian point formulas as one `asm!` block each.
//!
//! The field's 512-bit product is taken by `mulx` on two independent carry chains (`adcx` on
//! CF for the low halves, `adox` on OF for the high halves) and the squaring as six doubled
//! cross products plus four squares; each Montgomery step is one `mulx` (`q` times `p`'s top
//! limb) and shifts and additions (`q·2^32`), and the final subtraction of `p` is kept or dropped with
//! `cmov`, never a branch. Additions, subtractions and halving are baseline x86-64 (carry
//! chains and `cmov`) and need no CPU feature. The scalars use word-by-word Montgomery
//! multiplication (CIOS), each row's products summed on the two carry chains. The Rust around
//! these (the `Field` impls, table scans) and their Rust twins (`p256_mont64`) are in core-ec's
//! `nist::p256_x86_adx`, whose tests compare the two.

use core::arch::asm;
use core_cpu::Adx;

/// The asm that turns the 512-bit `t7..t0` into `t·R⁻¹ mod p` in `t3..t0`: four Montgomery
/// steps on the window `t3..t0` (each leaves the window rotated by one limb, so after four the
/// limbs are back in place), then `+ t7..t4`, then `p` subtracted unless that borrows.
/// `$p3` names the register or memory operand holding `p`'s top limb (for the steps' products
/// and the final subtraction); clobbers `rdx`, `t4`–`t7`, `hi` and `lo`.
macro_rules! redc {
    ($p3:literal) => {
        concat!(
            step!("{t0}", "{t1}", "{t2}", "{t3}", $p3),
            step!("{t1}", "{t2}", "{t3}", "{t0}", $p3),
            step!("{t2}", "{t3}", "{t0}", "{t1}", $p3),
            step!("{t3}", "{t0}", "{t1}", "{t2}", $p3),
            // t3..t0 + t7..t4, the carry in lo.
            "xor {lo:e}, {lo:e}\n",
            "add {t0}, {t4}\n",
            "adc {t1}, {t5}\n",
            "adc {t2}, {t6}\n",
            "adc {t3}, {t7}\n",
            "adc {lo}, 0\n",
            // t7..t4 = (lo:t3..t0) − p; keep t3..t0 if that borrows.
            "mov {hi:e}, 0xffffffff\n",
            "mov {t4}, {t0}\n",
            "sub {t4}, -1\n",
            "mov {t5}, {t1}\n",
            "sbb {t5}, {hi}\n",
            "mov {t6}, {t2}\n",
            "sbb {t6}, 0\n",
            "mov {t7}, {t3}\n",
            "sbb {t7}, ",
            $p3,
            "\n",
            "sbb {lo}, 0\n",
            "cmovnc {t0}, {t4}\n",
            "cmovnc {t1}, {t5}\n",
            "cmovnc {t2}, {t6}\n",
            "cmovnc {t3}, {t7}\n",
        )
    };
}

/// One Montgomery step on the window `w3..w0` with `q = w0` (`−p⁻¹ ≡ 1 mod 2^64`): `w1 += q·2^32`
/// (over `w1`, `w2`), `w3..w3+1 += q·p3` with `p3 = 2^64 − 2^32 + 1` (the operand `$p3`) by one
/// `mulx`, and the new top limb written to `w0`. The product had been three shifts and
/// subtractions, which were fewer micro-ops on AMD Zen 5; on the Intel core measured since,
/// the `mulx` step is nine instructions against twelve and made the point doubling about 3%
/// faster (227 → 219 TSC ticks). See core-ec's `p256_mont64` for why nothing overflows.
/// Clobbers `rdx`, `hi` and `lo`.
macro_rules! step {
    ($w0:literal, $w1:literal, $w2:literal, $w3:literal, $p3:literal) => {
        concat!(
            "mov rdx, ",
            $w0,
            "\n",
            "mulx {hi}, {lo}, ",
            $p3,
            "\n",
            "shl ",
            $w0,
            ", 32\n",
            "shr rdx, 32\n",
            "add ",
            $w1,
            ", ",
            $w0,
            "\n",
            "adc ",
            $w2,
            ", rdx\n",
            "adc ",
            $w3,
            ", {lo}\n",
            "adc {hi}, 0\n",
            "mov ",
            $w0,
            ", {hi}\n",
        )
    };
}

/// The memory operand `[$base + $off]` (`$base` an asm expression such as `{a}`).
macro_rules! at {
    ($base:literal, $off:literal) => {
        concat!("[", $base, " + ", $off, "]")
    };
}

/// The 512-bit product of the four limbs at `$a` and the four at `$b` (memory bases such as
/// `{a}` or `{w} + 64`) into `t7..t0`: row 0 on one carry chain, then each further row's low
/// halves on CF (`adcx`) and high halves on OF (`adox`). Clobbers `rdx`, `hi` and `lo`.
macro_rules! mul_product {
    ($a:literal, $b:literal) => {
        concat!(
            // Row 0: t4..t0 = a·b0.
            "mov rdx, ",
            at!($b, "0"),
            "\n",
            "mulx {t1}, {t0}, ",
            at!($a, "0"),
            "\n",
            "mulx {t2}, {lo}, ",
            at!($a, "8"),
            "\n",
            "add {t1}, {lo}\n",
            "mulx {t3}, {lo}, ",
            at!($a, "16"),
            "\n",
            "adc {t2}, {lo}\n",
            "mulx {t4}, {lo}, ",
            at!($a, "24"),
            "\n",
            "adc {t3}, {lo}\n",
            "adc {t4}, 0\n",
            mul_row!($a, $b, "8", "{t1}", "{t2}", "{t3}", "{t4}", "{t5}"),
            mul_row!($a, $b, "16", "{t2}", "{t3}", "{t4}", "{t5}", "{t6}"),
            mul_row!($a, $b, "24", "{t3}", "{t4}", "{t5}", "{t6}", "{t7}"),
        )
    };
}

/// One row of [`mul_product!`]: `w4..w0 += a·b[i]` (`b[i]` at byte `$off`, `w4` fresh).
macro_rules! mul_row {
    ($a:literal, $b:literal, $off:literal,
     $w0:literal, $w1:literal, $w2:literal, $w3:literal, $w4:literal) => {
        concat!(
            "mov rdx, ",
            at!($b, $off),
            "\n",
            "xor ",
            $w4,
            ", ",
            $w4,
            "\n",
            "mulx {hi}, {lo}, ",
            at!($a, "0"),
            "\n",
            "adcx ",
            $w0,
            ", {lo}\n",
            "adox ",
            $w1,
            ", {hi}\n",
            "mulx {hi}, {lo}, ",
            at!($a, "8"),
            "\n",
            "adcx ",
            $w1,
            ", {lo}\n",
            "adox ",
            $w2,
            ", {hi}\n",
            "mulx {hi}, {lo}, ",
            at!($a, "16"),
            "\n",
            "adcx ",
            $w2,
            ", {lo}\n",
            "adox ",
            $w3,
            ", {hi}\n",
            "mulx {hi}, {lo}, ",
            at!($a, "24"),
            "\n",
            "adcx ",
            $w3,
            ", {lo}\n",
            "adox ",
            $w4,
            ", {hi}\n",
            "adc ",
            $w4,
            ", 0\n",
        )
    };
}

/// `a·b·R⁻¹ mod p` for `a, b < p`, `R = 2^256`.
///
/// Safe: the [`Adx`] token proves the CPU has BMI2 and ADX.
#[inline(always)]
pub fn mul(_: Adx, a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let (t0, t1, t2, t3): (u64, u64, u64, u64);
    // SAFETY: `mulx`, `adcx` and `adox` need BMI2 and ADX, which the `Adx` token proves. The
    // asm reads the eight limbs behind `a` and `b`, writes only registers, and does not touch
    // the stack.
    unsafe {
        asm!(
            mul_product!("{a}", "{b}"),
            "mov {b}, 0xffffffff00000001",
            redc!("{b}"),
            a = in(reg) a.as_ptr(),
            b = inout(reg) b.as_ptr() => _,
            t0 = out(reg) t0,
            t1 = out(reg) t1,
            t2 = out(reg) t2,
            t3 = out(reg) t3,
            t4 = out(reg) _,
            t5 = out(reg) _,
            t6 = out(reg) _,
            t7 = out(reg) _,
            hi = out(reg) _,
            lo = out(reg) _,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }
    [t0, t1, t2, t3]
}

/// The 512-bit square of the four limbs at `$a` (a memory base) into `t7..t0`: six cross products
/// doubled plus four squares (10 `mulx`). Clobbers `rdx`, `hi` and `lo`.
macro_rules! sqr_product {
    ($a:literal) => {
        concat!(
            // Cross products a_i·a_j (i < j) into t6..t1.
            "mov rdx, ",
            at!($a, "0"),
            "\n",
            "mulx {t2}, {t1}, ",
            at!($a, "8"),
            "\n",
            "mulx {t3}, {lo}, ",
            at!($a, "16"),
            "\n",
            "add {t2}, {lo}\n",
            "mulx {t4}, {lo}, ",
            at!($a, "24"),
            "\n",
            "adc {t3}, {lo}\n",
            "mov rdx, ",
            at!($a, "8"),
            "\n",
            "mulx {t5}, {lo}, ",
            at!($a, "24"),
            "\n",
            "adc {t4}, {lo}\n",
            "mov rdx, ",
            at!($a, "16"),
            "\n",
            "mulx {t6}, {lo}, ",
            at!($a, "24"),
            "\n",
            "adc {t5}, {lo}\n",
            "adc {t6}, 0\n",
            "mov rdx, ",
            at!($a, "8"),
            "\n",
            "mulx {hi}, {lo}, ",
            at!($a, "16"),
            "\n",
            "add {t3}, {lo}\n",
            "adc {t4}, {hi}\n",
            "adc {t5}, 0\n",
            "adc {t6}, 0\n",
            // Double them (CF chain) and add the squares a_i² (OF chain).
            "xor {t7:e}, {t7:e}\n",
            "mov rdx, ",
            at!($a, "0"),
            "\n",
            "mulx {hi}, {t0}, rdx\n",
            "adcx {t1}, {t1}\n",
            "adox {t1}, {hi}\n",
            "mov rdx, ",
            at!($a, "8"),
            "\n",
            "mulx {hi}, {lo}, rdx\n",
            "adcx {t2}, {t2}\n",
            "adox {t2}, {lo}\n",
            "adcx {t3}, {t3}\n",
            "adox {t3}, {hi}\n",
            "mov rdx, ",
            at!($a, "16"),
            "\n",
            "mulx {hi}, {lo}, rdx\n",
            "adcx {t4}, {t4}\n",
            "adox {t4}, {lo}\n",
            "adcx {t5}, {t5}\n",
            "adox {t5}, {hi}\n",
            "mov rdx, ",
            at!($a, "24"),
            "\n",
            "mulx {hi}, {lo}, rdx\n",
            "adcx {t6}, {t6}\n",
            "adox {t6}, {lo}\n",
            "adcx {t7}, {t7}\n",
            "adox {t7}, {hi}\n",
        )
    };
}

/// `a²·R⁻¹ mod p` for `a < p`: six cross products doubled plus four squares (10 `mulx`).
///
/// Safe: the [`Adx`] token proves the CPU has BMI2 and ADX.
#[inline(always)]
pub fn sqr(_: Adx, a: &[u64; 4]) -> [u64; 4] {
    let (t0, t1, t2, t3): (u64, u64, u64, u64);
    // SAFETY: as in `mul`: BMI2 and ADX by the `Adx` token; reads the four limbs behind `a`,
    // writes only registers, no stack.
    unsafe {
        asm!(
            sqr_product!("{a}"),
            "mov {a}, 0xffffffff00000001",
            redc!("{a}"),
            a = inout(reg) a.as_ptr() => _,
            t0 = out(reg) t0,
            t1 = out(reg) t1,
            t2 = out(reg) t2,
            t3 = out(reg) t3,
            t4 = out(reg) _,
            t5 = out(reg) _,
            t6 = out(reg) _,
            t7 = out(reg) _,
            hi = out(reg) _,
            lo = out(reg) _,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }
    [t0, t1, t2, t3]
}

/// `a + b mod p` for `a, b < p`: the sum with its carry, less `p` unless that borrows.
#[inline(always)]
pub fn add(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let [mut t0, mut t1, mut t2, mut t3] = *a;
    // SAFETY: baseline x86-64 instructions on registers only; reads the four limbs behind
    // `b`, no stack.
    unsafe {
        asm!(
            "xor {c:e}, {c:e}",
            "add {t0}, [{b}]",
            "adc {t1}, [{b} + 8]",
            "adc {t2}, [{b} + 16]",
            "adc {t3}, [{b} + 24]",
            "adc {c}, 0",
            "mov {m:e}, 0xffffffff",
            "mov {d0}, {t0}",
            "sub {d0}, -1",
            "mov {d1}, {t1}",
            "sbb {d1}, {m}",
            "mov {d2}, {t2}",
            "sbb {d2}, 0",
            "mov {d3}, {t3}",
            "mov {m}, 0xffffffff00000001",
            "sbb {d3}, {m}",
            "sbb {c}, 0",
            "cmovnc {t0}, {d0}",
            "cmovnc {t1}, {d1}",
            "cmovnc {t2}, {d2}",
            "cmovnc {t3}, {d3}",
            b = in(reg) b.as_ptr(),
            t0 = inout(reg) t0,
            t1 = inout(reg) t1,
            t2 = inout(reg) t2,
            t3 = inout(reg) t3,
            d0 = out(reg) _,
            d1 = out(reg) _,
            d2 = out(reg) _,
            d3 = out(reg) _,
            c = out(reg) _,
            m = out(reg) _,
            options(pure, readonly, nostack),
        );
    }
    [t0, t1, t2, t3]
}

/// `p & mask` added to `t0..t3` (the carry out left in CF) for a `mask` of all ones or zeros
/// in `{m}`, `p`'s limbs made from the mask: all ones, `2^32 − 1`, zero, `2^64 − 2^32 + 1`.
macro_rules! add_masked_p {
    ($m:literal, $m1:literal, $m3:literal) => {
        concat!(
            "mov {",
            $m1,
            ":e}, {",
            $m,
            ":e}\n",
            "mov {",
            $m3,
            "}, 0xffffffff00000001\n",
            "and {",
            $m3,
            "}, {",
            $m,
            "}\n",
            "add {t0}, {",
            $m,
            "}\n",
            "adc {t1}, {",
            $m1,
            "}\n",
            "adc {t2}, 0\n",
            "adc {t3}, {",
            $m3,
            "}\n",
        )
    };
}

/// `a − b mod p` for `a, b < p`: the difference, plus `p` masked by the borrow.
#[inline(always)]
pub fn sub(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let [mut t0, mut t1, mut t2, mut t3] = *a;
    // SAFETY: baseline x86-64 instructions on registers only; reads the four limbs behind
    // `b`, no stack.
    unsafe {
        asm!(
            "sub {t0}, [{b}]",
            "sbb {t1}, [{b} + 8]",
            "sbb {t2}, [{b} + 16]",
            "sbb {t3}, [{b} + 24]",
            // mask = all ones on a borrow; add back p & mask.
            "sbb {m}, {m}",
            add_masked_p!("m", "m1", "m3"),
            b = in(reg) b.as_ptr(),
            t0 = inout(reg) t0,
            t1 = inout(reg) t1,
            t2 = inout(reg) t2,
            t3 = inout(reg) t3,
            m = out(reg) _,
            m1 = out(reg) _,
            m3 = out(reg) _,
            options(pure, readonly, nostack),
        );
    }
    [t0, t1, t2, t3]
}

/// `a/2 mod p` for `a < p`: `p` added when `a` is odd (a mask from the low bit, no branch),
/// then the 257-bit sum shifted right by one.
#[inline(always)]
pub fn halve(a: &[u64; 4]) -> [u64; 4] {
    let [mut t0, mut t1, mut t2, mut t3] = *a;
    // SAFETY: baseline x86-64 instructions on registers only, no memory, no stack.
    unsafe {
        asm!(
            // m = all ones when a is odd; add p & m.
            "mov {m:e}, {t0:e}",
            "and {m:e}, 1",
            "neg {m}",
            add_masked_p!("m", "m1", "m3"),
            "sbb {m}, {m}",
            "shrd {t0}, {t1}, 1",
            "shrd {t1}, {t2}, 1",
            "shrd {t2}, {t3}, 1",
            "shrd {t3}, {m}, 1",
            t0 = inout(reg) t0,
            t1 = inout(reg) t1,
            t2 = inout(reg) t2,
            t3 = inout(reg) t3,
            m = out(reg) _,
            m1 = out(reg) _,
            m3 = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    [t0, t1, t2, t3]
}

/// `t3..t0` from the four limbs at the memory base `$a`.
macro_rules! load {
    ($a:literal) => {
        concat!(
            "mov {t0}, ",
            at!($a, "0"),
            "\n",
            "mov {t1}, ",
            at!($a, "8"),
            "\n",
            "mov {t2}, ",
            at!($a, "16"),
            "\n",
            "mov {t3}, ",
            at!($a, "24"),
            "\n",
        )
    };
}

/// `t3..t0` to the four limbs at the memory base `$a`.
macro_rules! store {
    ($a:literal) => {
        concat!(
            "mov ",
            at!($a, "0"),
            ", {t0}\n",
            "mov ",
            at!($a, "8"),
            ", {t1}\n",
            "mov ",
            at!($a, "16"),
            ", {t2}\n",
            "mov ",
            at!($a, "24"),
            ", {t3}\n",
        )
    };
}

/// `p`'s top limb, a memory operand of the point routines' reductions.
static P3: u64 = 0xffff_ffff_0000_0001;

/// The 257-bit `lo:t3..t0` (below `2p`) reduced: `p` subtracted into `t7..t4` and kept unless
/// that borrows. Clobbers `hi`.
macro_rules! reduce_once {
    () => {
        concat!(
            "mov {hi:e}, 0xffffffff\n",
            "mov {t4}, {t0}\n",
            "sub {t4}, -1\n",
            "mov {t5}, {t1}\n",
            "sbb {t5}, {hi}\n",
            "mov {t6}, {t2}\n",
            "sbb {t6}, 0\n",
            "mov {t7}, {t3}\n",
            "sbb {t7}, qword ptr [rip + {p3}]\n",
            "sbb {lo}, 0\n",
            "cmovnc {t0}, {t4}\n",
            "cmovnc {t1}, {t5}\n",
            "cmovnc {t2}, {t6}\n",
            "cmovnc {t3}, {t7}\n",
        )
    };
}

/// `t ← t + a mod p` for the limbs at the memory base `$a`. Clobbers `t4`–`t7`, `hi`, `lo`.
macro_rules! add_mem {
    ($a:literal) => {
        concat!(
            "xor {lo:e}, {lo:e}\n",
            "add {t0}, ",
            at!($a, "0"),
            "\n",
            "adc {t1}, ",
            at!($a, "8"),
            "\n",
            "adc {t2}, ",
            at!($a, "16"),
            "\n",
            "adc {t3}, ",
            at!($a, "24"),
            "\n",
            "adc {lo}, 0\n",
            reduce_once!(),
        )
    };
}

/// `t ← 2t mod p`. Clobbers `t4`–`t7`, `hi` and `lo`.
macro_rules! double_t {
    () => {
        concat!(
            "xor {lo:e}, {lo:e}\n",
            "add {t0}, {t0}\n",
            "adc {t1}, {t1}\n",
            "adc {t2}, {t2}\n",
            "adc {t3}, {t3}\n",
            "adc {lo}, 0\n",
            reduce_once!(),
        )
    };
}

/// `t ← t − a mod p` for the limbs at the memory base `$a`: the difference, plus `p` masked
/// by the borrow. Clobbers `t4`, `hi` and `lo`.
macro_rules! sub_mem {
    ($a:literal) => {
        concat!(
            "sub {t0}, ",
            at!($a, "0"),
            "\n",
            "sbb {t1}, ",
            at!($a, "8"),
            "\n",
            "sbb {t2}, ",
            at!($a, "16"),
            "\n",
            "sbb {t3}, ",
            at!($a, "24"),
            "\n",
            "sbb {lo}, {lo}\n",
            add_masked_p!("lo", "hi", "t4"),
        )
    };
}

/// `t ← t/2 mod p`: `p` added when `t` is odd, the 257-bit sum shifted right by one. Clobbers
/// `t4`, `hi` and `lo`.
macro_rules! halve_t {
    () => {
        concat!(
            "mov {lo:e}, {t0:e}\n",
            "and {lo:e}, 1\n",
            "neg {lo}\n",
            add_masked_p!("lo", "hi", "t4"),
            "sbb {lo}, {lo}\n",
            "shrd {t0}, {t1}, 1\n",
            "shrd {t1}, {t2}, 1\n",
            "shrd {t2}, {t3}, 1\n",
            "shrd {t3}, {lo}, 1\n",
        )
    };
}

/// `t ← a·b·R⁻¹ mod p` for the limbs at the memory bases `$a` and `$b`.
macro_rules! mul_w {
    ($a:literal, $b:literal) => {
        concat!(mul_product!($a, $b), redc!("qword ptr [rip + {p3}]"))
    };
}

/// `t ← a²·R⁻¹ mod p` for the limbs at the memory base `$a`.
macro_rules! sqr_w {
    ($a:literal) => {
        concat!(sqr_product!($a), redc!("qword ptr [rip + {p3}]"))
    };
}

/// Doubles the Jacobian `p` in place by the generic formula ("dbl-2004-hmv", see
/// core-ec's `point::Curve`), the same field operations giving the same
/// (reduced) values, as one `asm!` block: the limbs read and written where they are (8 bytes
/// at a time, so every load is forwarded from one store), the intermediate values in a
/// scratch array, the running one in registers, and the independent products side by side
/// for the out-of-order core. Not inlined: a copy per call site would crowd the
/// instruction cache (the window loop unrolls its doublings).
///
/// Safe: the [`Adx`] token proves the CPU has BMI2 and ADX.
#[inline(never)]
pub fn jac_double(_: Adx, p: &mut [[u64; 4]; 3]) {
    // Slots of 32 bytes: y2 = 2y, zz = z², yy = y2², a = x − zz, b = x + zz, t = a·b,
    // m = 3t, s = yy·x, 2s, y4 = yy²/2, d = s − x3. Then x3 = m² − 2s over x, z3 = y2·z over
    // z and y3 = d·m − y4 over y (each read for the last time before).
    let mut w = core::mem::MaybeUninit::<[[u64; 4]; 11]>::uninit();
    // SAFETY: `mulx`, `adcx` and `adox` need BMI2 and ADX, which the `Adx` token proves. The
    // asm reads and writes the twelve limbs behind `p`, writes the 11 slots of `w` (offsets
    // below 352) before reading each, reads the static `P3`, and does not touch the stack.
    unsafe {
        asm!(
            load!("{p} + 32"),
            double_t!(),
            store!("{w} + 0"),
            sqr_w!("{p} + 64"),
            store!("{w} + 32"),
            sqr_w!("{w} + 0"),
            store!("{w} + 64"),
            load!("{p} + 0"),
            sub_mem!("{w} + 32"),
            store!("{w} + 96"),
            load!("{p} + 0"),
            add_mem!("{w} + 32"),
            store!("{w} + 128"),
            mul_w!("{w} + 96", "{w} + 128"),
            store!("{w} + 160"),
            double_t!(),
            add_mem!("{w} + 160"),
            store!("{w} + 192"),
            mul_w!("{w} + 64", "{p} + 0"),
            store!("{w} + 224"),
            double_t!(),
            store!("{w} + 256"),
            sqr_w!("{w} + 64"),
            halve_t!(),
            store!("{w} + 288"),
            sqr_w!("{w} + 192"),
            sub_mem!("{w} + 256"),
            store!("{p} + 0"),
            mul_w!("{w} + 0", "{p} + 64"),
            store!("{p} + 64"),
            load!("{w} + 224"),
            sub_mem!("{p} + 0"),
            store!("{w} + 320"),
            mul_w!("{w} + 320", "{w} + 192"),
            sub_mem!("{w} + 288"),
            store!("{p} + 32"),
            p = in(reg) p.as_mut_ptr(),
            w = in(reg) w.as_mut_ptr(),
            p3 = sym P3,
            t0 = out(reg) _,
            t1 = out(reg) _,
            t2 = out(reg) _,
            t3 = out(reg) _,
            t4 = out(reg) _,
            t5 = out(reg) _,
            t6 = out(reg) _,
            t7 = out(reg) _,
            hi = out(reg) _,
            lo = out(reg) _,
            out("rdx") _,
            options(nostack),
        );
    }
}

/// `p + (x2, y2)` by the generic mixed addition ("madd-2004-hmv", see core-ec's
/// `point::Curve`): the sum and the word that is zero exactly when
/// `H = R = 0`.
///
/// Safe: the [`Adx`] token proves the CPU has BMI2 and ADX.
#[inline(always)]
pub fn jac_add_affine(
    _: Adx,
    p: &[[u64; 4]; 3],
    x2: &[u64; 4],
    y2: &[u64; 4],
) -> ([[u64; 4]; 3], u64) {
    // Slots of 32 bytes: x2, y2, z1z1 = z1², h = x2·z1z1 − x1, z1·z1z1,
    // r = y2·z1·z1z1 − y1, z3 = z1·h, hh = h², hhh = hh·h, v = hh·x1, 2v, hhh·y1,
    // x3 = r² − 2v − hhh, d = v − x3, and the flag word; then y3 = d·r − hhh·y1 in
    // registers.
    let mut w = core::mem::MaybeUninit::<[[u64; 4]; 15]>::uninit();
    // SAFETY: the first two slots are written here, inside `w`.
    unsafe {
        let slots = w.as_mut_ptr().cast::<[u64; 4]>();
        slots.write(*x2);
        slots.add(1).write(*y2);
    }
    let (x0, x1, x2, x3): (u64, u64, u64, u64);
    let (y0, y1, y2, y3): (u64, u64, u64, u64);
    let (z0, z1, z2, z3, hr): (u64, u64, u64, u64, u64);
    // SAFETY: `mulx`, `adcx` and `adox` need BMI2 and ADX, which the `Adx` token proves. The
    // asm reads the twelve limbs behind `p` and the static `P3`, writes the slots of `w`
    // (offsets below 480) before reading each but the first two, and does not touch the stack.
    unsafe {
        asm!(
            sqr_w!("{p} + 64"),
            store!("{w} + 64"),
            mul_w!("{w} + 0", "{w} + 64"),
            sub_mem!("{p} + 0"),
            store!("{w} + 96"),
            mul_w!("{p} + 64", "{w} + 64"),
            store!("{w} + 128"),
            mul_w!("{w} + 32", "{w} + 128"),
            sub_mem!("{p} + 32"),
            store!("{w} + 160"),
            // H | R, limb by limb, for the equality flag.
            "or {t0}, {t1}",
            "or {t2}, {t3}",
            "or {t0}, {t2}",
            "or {t0}, [{w} + 96]",
            "or {t0}, [{w} + 104]",
            "or {t0}, [{w} + 112]",
            "or {t0}, [{w} + 120]",
            "mov [{w} + 448], {t0}",
            mul_w!("{p} + 64", "{w} + 96"),
            store!("{w} + 192"),
            sqr_w!("{w} + 96"),
            store!("{w} + 224"),
            mul_w!("{w} + 224", "{w} + 96"),
            store!("{w} + 256"),
            mul_w!("{w} + 224", "{p} + 0"),
            store!("{w} + 288"),
            double_t!(),
            store!("{w} + 320"),
            mul_w!("{w} + 256", "{p} + 32"),
            store!("{w} + 352"),
            sqr_w!("{w} + 160"),
            sub_mem!("{w} + 320"),
            sub_mem!("{w} + 256"),
            store!("{w} + 384"),
            load!("{w} + 288"),
            sub_mem!("{w} + 384"),
            store!("{w} + 416"),
            mul_w!("{w} + 416", "{w} + 160"),
            sub_mem!("{w} + 352"),
            // y3 is in t3..t0; x3, z3 and the flag word to registers.
            "mov {t4}, [{w} + 384]",
            "mov {t5}, [{w} + 392]",
            "mov {t6}, [{w} + 400]",
            "mov {t7}, [{w} + 408]",
            "mov {hi}, [{w} + 192]",
            "mov {lo}, [{w} + 200]",
            "mov rdx, [{w} + 208]",
            "mov {p}, [{w} + 448]",
            "mov {w}, [{w} + 216]",
            p = inout(reg) p.as_ptr() => hr,
            w = inout(reg) w.as_mut_ptr() => z3,
            p3 = sym P3,
            t0 = out(reg) y0,
            t1 = out(reg) y1,
            t2 = out(reg) y2,
            t3 = out(reg) y3,
            t4 = out(reg) x0,
            t5 = out(reg) x1,
            t6 = out(reg) x2,
            t7 = out(reg) x3,
            hi = out(reg) z0,
            lo = out(reg) z1,
            out("rdx") z2,
            options(nostack),
        );
    }
    ([[x0, x1, x2, x3], [y0, y1, y2, y3], [z0, z1, z2, z3]], hr)
}

/// `p + q` by the generic Jacobian addition ("add-1998-cmo-2", see
/// core-ec's `point::Curve`), the same field operations giving the same values,
/// as one `asm!` block, and whether `p = q` (`H = R = 0`). The result comes back in
/// registers; not inlined, as [`jac_double`].
///
/// Safe: the [`Adx`] token proves the CPU has BMI2 and ADX.
#[inline(never)]
pub fn jac_add(_: Adx, p: &[[u64; 4]; 3], q: &[[u64; 4]; 3]) -> ([[u64; 4]; 3], u64) {
    // Slots of 32 bytes: q's x y z, z1z1 = z1², z2z2 = z2², u1 = x1·z2z2,
    // h = x2·z1z1 − u1, s1 = y1·z2·z2z2, z2·z2z2, z1·z1z1, r = y2·z1·z1z1 − s1, hh = h²,
    // hhh = h·hh, v = u1·hh, 2v, x3 = r² − hhh − 2v, d = v − x3, s1·hhh, z1·z2, z3 = z1·z2·h,
    // and the flag word; then y3 = r·d − s1·hhh in registers.
    let mut w = core::mem::MaybeUninit::<[[u64; 4]; 21]>::uninit();
    // SAFETY: the first three slots are written here, inside `w`.
    unsafe {
        w.as_mut_ptr().cast::<[[u64; 4]; 3]>().write(*q);
    }
    let (x0, x1, x2, x3): (u64, u64, u64, u64);
    let (y0, y1, y2, y3): (u64, u64, u64, u64);
    let (z0, z1, z2, z3, hr): (u64, u64, u64, u64, u64);
    // SAFETY: `mulx`, `adcx` and `adox` need BMI2 and ADX, which the `Adx` token proves. The
    // asm reads the twelve limbs behind `p` and the static `P3`, writes the slots of `w`
    // (offsets below 672) before reading each but the first three, and does not touch the
    // stack.
    unsafe {
        asm!(
            sqr_w!("{p} + 64"),
            store!("{w} + 96"),
            sqr_w!("{w} + 64"),
            store!("{w} + 128"),
            mul_w!("{p} + 0", "{w} + 128"),
            store!("{w} + 160"),
            mul_w!("{w} + 0", "{w} + 96"),
            sub_mem!("{w} + 160"),
            store!("{w} + 192"),
            mul_w!("{w} + 64", "{w} + 128"),
            store!("{w} + 256"),
            mul_w!("{p} + 32", "{w} + 256"),
            store!("{w} + 224"),
            mul_w!("{p} + 64", "{w} + 96"),
            store!("{w} + 288"),
            mul_w!("{w} + 32", "{w} + 288"),
            sub_mem!("{w} + 224"),
            store!("{w} + 320"),
            // H | R, limb by limb, for the equality flag.
            "or {t0}, {t1}",
            "or {t2}, {t3}",
            "or {t0}, {t2}",
            "or {t0}, [{w} + 192]",
            "or {t0}, [{w} + 200]",
            "or {t0}, [{w} + 208]",
            "or {t0}, [{w} + 216]",
            "mov [{w} + 640], {t0}",
            sqr_w!("{w} + 192"),
            store!("{w} + 352"),
            mul_w!("{w} + 192", "{w} + 352"),
            store!("{w} + 384"),
            mul_w!("{w} + 160", "{w} + 352"),
            store!("{w} + 416"),
            double_t!(),
            store!("{w} + 448"),
            mul_w!("{w} + 224", "{w} + 384"),
            store!("{w} + 544"),
            mul_w!("{p} + 64", "{w} + 64"),
            store!("{w} + 576"),
            mul_w!("{w} + 576", "{w} + 192"),
            store!("{w} + 608"),
            sqr_w!("{w} + 320"),
            sub_mem!("{w} + 384"),
            sub_mem!("{w} + 448"),
            store!("{w} + 480"),
            load!("{w} + 416"),
            sub_mem!("{w} + 480"),
            store!("{w} + 512"),
            mul_w!("{w} + 320", "{w} + 512"),
            sub_mem!("{w} + 544"),
            // y3 is in t3..t0; x3, z3 and the flag word to registers.
            "mov {t4}, [{w} + 480]",
            "mov {t5}, [{w} + 488]",
            "mov {t6}, [{w} + 496]",
            "mov {t7}, [{w} + 504]",
            "mov {hi}, [{w} + 608]",
            "mov {lo}, [{w} + 616]",
            "mov rdx, [{w} + 624]",
            "mov {p}, [{w} + 640]",
            "mov {w}, [{w} + 632]",
            p = inout(reg) p.as_ptr() => hr,
            w = inout(reg) w.as_mut_ptr() => z3,
            p3 = sym P3,
            t0 = out(reg) y0,
            t1 = out(reg) y1,
            t2 = out(reg) y2,
            t3 = out(reg) y3,
            t4 = out(reg) x0,
            t5 = out(reg) x1,
            t6 = out(reg) x2,
            t7 = out(reg) x3,
            hi = out(reg) z0,
            lo = out(reg) z1,
            out("rdx") z2,
            options(nostack),
        );
    }
    ([[x0, x1, x2, x3], [y0, y1, y2, y3], [z0, z1, z2, z3]], hr)
}

/// P-256's group order as little-endian limbs, then `−n⁻¹ mod 2^64`: the memory operands of
/// [`scalar_mul`].
pub static N: [u64; 5] = [
    0xf3b9_cac2_fc63_2551,
    0xbce6_faad_a717_9e84,
    0xffff_ffff_ffff_ffff,
    0xffff_ffff_0000_0000,
    0xccd1_c8aa_ee00_bc4f,
];

/// One CIOS row on the window `w0..w5` (`w5` the fresh top limb): `w += a·b[i]` with `b[i]` at
/// byte offset `$off`, then `w += q·n` with `q = w0·(−n⁻¹)`, which clears `w0`; the window
/// moves up one limb, and `w0` becomes the next row's fresh top. Each sum runs the low halves
/// on CF and the high halves on OF, and the two carries out meet in `w5`. The window stays
/// below `2n` between rows.
macro_rules! cios_row {
    ($off:literal, $w0:literal, $w1:literal, $w2:literal, $w3:literal, $w4:literal, $w5:literal) => {
        concat!(
            "xor {",
            $w5,
            ":e}, {",
            $w5,
            ":e}\n",
            "mov rdx, [{b} + ",
            $off,
            "]\n",
            "xor {z:e}, {z:e}\n",
            "mulx {hi}, {lo}, [{a}]\n",
            "adcx {",
            $w0,
            "}, {lo}\n",
            "adox {",
            $w1,
            "}, {hi}\n",
            "mulx {hi}, {lo}, [{a} + 8]\n",
            "adcx {",
            $w1,
            "}, {lo}\n",
            "adox {",
            $w2,
            "}, {hi}\n",
            "mulx {hi}, {lo}, [{a} + 16]\n",
            "adcx {",
            $w2,
            "}, {lo}\n",
            "adox {",
            $w3,
            "}, {hi}\n",
            "mulx {hi}, {lo}, [{a} + 24]\n",
            "adcx {",
            $w3,
            "}, {lo}\n",
            "adox {",
            $w4,
            "}, {hi}\n",
            "adcx {",
            $w4,
            "}, {z}\n",
            "adox {",
            $w5,
            "}, {z}\n",
            "adcx {",
            $w5,
            "}, {z}\n",
            // Reduce: q = w0·(−n⁻¹), w += q·n.
            "mov rdx, {",
            $w0,
            "}\n",
            "imul rdx, qword ptr [rip + {n} + 32]\n",
            "xor {z:e}, {z:e}\n",
            "mulx {hi}, {lo}, qword ptr [rip + {n}]\n",
            "adcx {",
            $w0,
            "}, {lo}\n",
            "adox {",
            $w1,
            "}, {hi}\n",
            "mulx {hi}, {lo}, qword ptr [rip + {n} + 8]\n",
            "adcx {",
            $w1,
            "}, {lo}\n",
            "adox {",
            $w2,
            "}, {hi}\n",
            "mulx {hi}, {lo}, qword ptr [rip + {n} + 16]\n",
            "adcx {",
            $w2,
            "}, {lo}\n",
            "adox {",
            $w3,
            "}, {hi}\n",
            "mulx {hi}, {lo}, qword ptr [rip + {n} + 24]\n",
            "adcx {",
            $w3,
            "}, {lo}\n",
            "adox {",
            $w4,
            "}, {hi}\n",
            "adcx {",
            $w4,
            "}, {z}\n",
            "adox {",
            $w5,
            "}, {z}\n",
            "adcx {",
            $w5,
            "}, {z}\n",
        )
    };
}

/// `a·b·R⁻¹ mod n` for `a, b < n`.
///
/// Safe: the [`Adx`] token proves the CPU has BMI2 and ADX.
#[inline(always)]
pub fn scalar_mul(_: Adx, a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: `mulx`, `adcx` and `adox` need BMI2 and ADX, which the `Adx` token proves. The
    // asm reads the eight limbs behind `a` and `b` and the five words of the static `N`,
    // writes only registers, and does not touch the stack.
    unsafe {
        asm!(
            "xor {t0:e}, {t0:e}",
            "xor {t1:e}, {t1:e}",
            "xor {t2:e}, {t2:e}",
            "xor {t3:e}, {t3:e}",
            "xor {t4:e}, {t4:e}",
            cios_row!("0", "t0", "t1", "t2", "t3", "t4", "t5"),
            cios_row!("8", "t1", "t2", "t3", "t4", "t5", "t0"),
            cios_row!("16", "t2", "t3", "t4", "t5", "t0", "t1"),
            cios_row!("24", "t3", "t4", "t5", "t0", "t1", "t2"),
            // The window is t2:t1:t0:t5:t4, below 2n: subtract n unless that borrows.
            "mov {a}, {t4}",
            "sub {a}, qword ptr [rip + {n}]",
            "mov {b}, {t5}",
            "sbb {b}, qword ptr [rip + {n} + 8]",
            "mov {hi}, {t0}",
            "sbb {hi}, qword ptr [rip + {n} + 16]",
            "mov {lo}, {t1}",
            "sbb {lo}, qword ptr [rip + {n} + 24]",
            "sbb {t2}, 0",
            "cmovnc {t4}, {a}",
            "cmovnc {t5}, {b}",
            "cmovnc {t0}, {hi}",
            "cmovnc {t1}, {lo}",
            a = inout(reg) a.as_ptr() => _,
            b = inout(reg) b.as_ptr() => _,
            n = sym N,
            t0 = out(reg) r2,
            t1 = out(reg) r3,
            t2 = out(reg) _,
            t3 = out(reg) _,
            t4 = out(reg) r0,
            t5 = out(reg) r1,
            hi = out(reg) _,
            lo = out(reg) _,
            z = out(reg) _,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3]
}

/// One Montgomery step on the window `w0..w5` (`w5` the fresh top, zero): `w += q·n` with
/// `q = w0·(−n⁻¹)`, which clears `w0` (then the zero register for the carries).
macro_rules! reduce_n {
    ($w0:literal, $w1:literal, $w2:literal, $w3:literal, $w4:literal, $w5:literal) => {
        concat!(
            "mov rdx, {",
            $w0,
            "}\n",
            "imul rdx, qword ptr [rip + {n} + 32]\n",
            "xor {hi:e}, {hi:e}\n",
            "mulx {hi}, {lo}, qword ptr [rip + {n}]\n",
            "adcx {",
            $w0,
            "}, {lo}\n",
            "adox {",
            $w1,
            "}, {hi}\n",
            "mulx {hi}, {lo}, qword ptr [rip + {n} + 8]\n",
            "adcx {",
            $w1,
            "}, {lo}\n",
            "adox {",
            $w2,
            "}, {hi}\n",
            "mulx {hi}, {lo}, qword ptr [rip + {n} + 16]\n",
            "adcx {",
            $w2,
            "}, {lo}\n",
            "adox {",
            $w3,
            "}, {hi}\n",
            "mulx {hi}, {lo}, qword ptr [rip + {n} + 24]\n",
            "adcx {",
            $w3,
            "}, {lo}\n",
            "adox {",
            $w4,
            "}, {hi}\n",
            "adcx {",
            $w4,
            "}, {",
            $w0,
            "}\n",
            "adox {",
            $w5,
            "}, {",
            $w0,
            "}\n",
            "adc {",
            $w5,
            "}, 0\n",
        )
    };
}

/// `a²·R⁻¹ mod n` for `a < n`: the square as for the field, then four Montgomery steps on its
/// low half (leaving at most `n`), plus its high half (below `n`), and `n` subtracted unless
/// that borrows.
///
/// Safe: the [`Adx`] token proves the CPU has BMI2 and ADX.
#[inline(always)]
pub fn scalar_sqr(_: Adx, a: &[u64; 4]) -> [u64; 4] {
    let (r0, r1, r2, r3): (u64, u64, u64, u64);
    // SAFETY: `mulx`, `adcx` and `adox` need BMI2 and ADX, which the `Adx` token proves. The
    // asm reads the four limbs behind `a` and the five words of the static `N`, writes only
    // registers, and does not touch the stack.
    unsafe {
        asm!(
            sqr_product!("{a}"),
            "xor {x:e}, {x:e}",
            "xor {a:e}, {a:e}",
            reduce_n!("t0", "t1", "t2", "t3", "a", "x"),
            reduce_n!("t1", "t2", "t3", "a", "x", "t0"),
            reduce_n!("t2", "t3", "a", "x", "t0", "t1"),
            reduce_n!("t3", "a", "x", "t0", "t1", "t2"),
            // (t2: t1 t0 x a) + t7..t4, then − n into t3..t6; keep it unless it borrows.
            "add {a}, {t4}",
            "adc {x}, {t5}",
            "adc {t0}, {t6}",
            "adc {t1}, {t7}",
            "adc {t2}, 0",
            "mov {t3}, {a}",
            "sub {t3}, qword ptr [rip + {n}]",
            "mov {t4}, {x}",
            "sbb {t4}, qword ptr [rip + {n} + 8]",
            "mov {t5}, {t0}",
            "sbb {t5}, qword ptr [rip + {n} + 16]",
            "mov {t6}, {t1}",
            "sbb {t6}, qword ptr [rip + {n} + 24]",
            "sbb {t2}, 0",
            "cmovnc {a}, {t3}",
            "cmovnc {x}, {t4}",
            "cmovnc {t0}, {t5}",
            "cmovnc {t1}, {t6}",
            a = inout(reg) a.as_ptr() => r0,
            n = sym N,
            x = out(reg) r1,
            t0 = out(reg) r2,
            t1 = out(reg) r3,
            t2 = out(reg) _,
            t3 = out(reg) _,
            t4 = out(reg) _,
            t5 = out(reg) _,
            t6 = out(reg) _,
            t7 = out(reg) _,
            hi = out(reg) _,
            lo = out(reg) _,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3]
}
