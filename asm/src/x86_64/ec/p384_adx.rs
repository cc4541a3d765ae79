//! P-384 on BMI2 and ADX: the field and the scalars (mod the group order `n`) in Montgomery
//! form on six 64-bit limbs, as word-by-word CIOS rows, each row's `a·b[i]` and `q·m` summed
//! on two independent carry chains (`adcx` on CF for the low halves, `adox` on OF for the high
//! halves). The modulus and `−m⁻¹ mod 2^64` are read from a static ([`PM`], [`NM`]), so one
//! routine serves the prime `p` and the group order `n`; modulo `p` each row's reduction is
//! specialised to the prime's shape (`reduce_p!`: shifts and carries instead of six `mulx`).
//! The final subtraction of the modulus is kept or dropped with `cmov`, never a branch; the
//! additions, subtractions and halving are baseline x86-64. The Jacobian point doubling and
//! mixed addition are one `asm!` block each over the same operations. The Rust around these
//! and their Rust twin (`Mont64<6>`) are in core-ec's `nist::p384_x86_adx`, whose tests
//! compare the two.

use core::arch::asm;
use core_cpu::Adx;

/// P-384's prime as little-endian limbs, then `−p⁻¹ mod 2^64`: the memory operands of
/// `mont_mul` for the field.
pub static PM: [u64; 7] = [
    0x0000_0000_ffff_ffff,
    0xffff_ffff_0000_0000,
    0xffff_ffff_ffff_fffe,
    0xffff_ffff_ffff_ffff,
    0xffff_ffff_ffff_ffff,
    0xffff_ffff_ffff_ffff,
    0x0000_0001_0000_0001,
];
/// The same for the group order.
pub static NM: [u64; 7] = [
    0xecec_196a_ccc5_2973,
    0x581a_0db2_48b0_a77a,
    0xc763_4d81_f437_2ddf,
    0xffff_ffff_ffff_ffff,
    0xffff_ffff_ffff_ffff,
    0xffff_ffff_ffff_ffff,
    0x6ed4_6089_e88f_dc45,
];

/// The memory operand `[$base + $off]` (`$base` an asm expression such as `{a}` or
/// `{w} + 96`).
macro_rules! at {
    ($base:literal, $off:literal) => {
        concat!("[", $base, " + ", $off, "]")
    };
}

/// One CIOS row after the first: `w += a·b[i]` (`a` at the memory base `$a`, `b[i]` at byte
/// offset `$off` from the base `$b`) on the window `w0..w6` (`w7` the fresh top limb, zeroed
/// here), then `$reduce` (`reduce!` or `reduce_p!`).
macro_rules! row {
    ($reduce:ident, $a:literal, $b:literal, $off:literal, $w0:literal, $w1:literal, $w2:literal, $w3:literal, $w4:literal, $w5:literal, $w6:literal, $w7:literal) => {
        concat!(
            "xor {",
            $w7,
            ":e}, {",
            $w7,
            ":e}\n",
            "mov rdx, ",
            at!($b, $off),
            "\n",
            "mulx {hi}, {lo}, ",
            at!($a, "0"),
            "\n",
            "adcx {",
            $w0,
            "}, {lo}\n",
            "adox {",
            $w1,
            "}, {hi}\n",
            "mulx {hi}, {lo}, ",
            at!($a, "8"),
            "\n",
            "adcx {",
            $w1,
            "}, {lo}\n",
            "adox {",
            $w2,
            "}, {hi}\n",
            "mulx {hi}, {lo}, ",
            at!($a, "16"),
            "\n",
            "adcx {",
            $w2,
            "}, {lo}\n",
            "adox {",
            $w3,
            "}, {hi}\n",
            "mulx {hi}, {lo}, ",
            at!($a, "24"),
            "\n",
            "adcx {",
            $w3,
            "}, {lo}\n",
            "adox {",
            $w4,
            "}, {hi}\n",
            "mulx {hi}, {lo}, ",
            at!($a, "32"),
            "\n",
            "adcx {",
            $w4,
            "}, {lo}\n",
            "adox {",
            $w5,
            "}, {hi}\n",
            "mulx {hi}, {lo}, ",
            at!($a, "40"),
            "\n",
            "adcx {",
            $w5,
            "}, {lo}\n",
            "adox {",
            $w6,
            "}, {hi}\n",
            // The two carries out: CF into w6, OF into w7 (still zero), then w6's carry.
            "adcx {",
            $w6,
            "}, {",
            $w7,
            "}\n",
            "adox {",
            $w7,
            "}, {",
            $w7,
            "}\n",
            "adc {",
            $w7,
            "}, 0\n",
            $reduce!($w0, $w1, $w2, $w3, $w4, $w5, $w6, $w7),
        )
    };
}

/// One Montgomery step on the window `w0..w7`: `w += q·m` with `q = w0·(−m⁻¹)`, which clears
/// `w0` (so `w0` serves as the zero register for the carries). The window stays below `2m`.
macro_rules! reduce {
    ($w0:literal, $w1:literal, $w2:literal, $w3:literal, $w4:literal, $w5:literal, $w6:literal, $w7:literal) => {
        concat!(
            "mov rdx, {",
            $w0,
            "}\n",
            "imul rdx, qword ptr [rip + {m} + 48]\n",
            // Clears CF and OF.
            "xor {hi:e}, {hi:e}\n",
            "mulx {hi}, {lo}, qword ptr [rip + {m}]\n",
            "adcx {",
            $w0,
            "}, {lo}\n",
            "adox {",
            $w1,
            "}, {hi}\n",
            "mulx {hi}, {lo}, qword ptr [rip + {m} + 8]\n",
            "adcx {",
            $w1,
            "}, {lo}\n",
            "adox {",
            $w2,
            "}, {hi}\n",
            "mulx {hi}, {lo}, qword ptr [rip + {m} + 16]\n",
            "adcx {",
            $w2,
            "}, {lo}\n",
            "adox {",
            $w3,
            "}, {hi}\n",
            "mulx {hi}, {lo}, qword ptr [rip + {m} + 24]\n",
            "adcx {",
            $w3,
            "}, {lo}\n",
            "adox {",
            $w4,
            "}, {hi}\n",
            "mulx {hi}, {lo}, qword ptr [rip + {m} + 32]\n",
            "adcx {",
            $w4,
            "}, {lo}\n",
            "adox {",
            $w5,
            "}, {hi}\n",
            "mulx {hi}, {lo}, qword ptr [rip + {m} + 40]\n",
            "adcx {",
            $w5,
            "}, {lo}\n",
            "adox {",
            $w6,
            "}, {hi}\n",
            "adcx {",
            $w6,
            "}, {",
            $w0,
            "}\n",
            "adox {",
            $w7,
            "}, {",
            $w0,
            "}\n",
            "adc {",
            $w7,
            "}, 0\n",
        )
    };
}

/// One Montgomery step modulo P-384's prime, the step of `reduce!` specialised to its
/// shape: `−p⁻¹ ≡ 2^32 + 1 (mod 2^64)`, so `q = w0 + (w0 << 32)`, and
/// `q·p = q·2^384 − q·c` with `c = 2^384 − p` of three limbs `(c0, c1, 1)`. The low limb of
/// `q·c` equals `w0`, so the new window `(w + q·p)/2^64` is `w1..w7 − D + q·2^320` with
/// `D = (q·c) >> 64`, three limbs from shifts of `q` (no `mulx`, against six; two `mulx`
/// took P-384 ECDH about 2.5% longer), a subtraction chain, and `q` added at the top. The result is the same window as `reduce!`'s, and
/// `w0` is left zero likewise.
macro_rules! reduce_p {
    ($w0:literal, $w1:literal, $w2:literal, $w3:literal, $w4:literal, $w5:literal, $w6:literal, $w7:literal) => {
        concat!(
            "mov rdx, {",
            $w0,
            "}\n",
            "shl rdx, 32\n",
            "add rdx, {",
            $w0,
            "}\n",
            // D = (lo, w0, hi): with s = q << 32 and t = q >> 32 (one limb each), q·c is
            // (q − s) + (s − t)·2^64 + (q + t)·2^128, so D0 = s − t − [q < s], and D1 plus
            // D2·2^64 is q + t less that subtraction's borrow (q − borrow never wraps: q = 0
            // makes s = t = 0). Shifts and carries, no `mulx`.
            "mov {lo}, rdx\n",
            "shl {lo}, 32\n",
            "mov {hi}, rdx\n",
            "shr {hi}, 32\n",
            "cmp rdx, {lo}\n",
            "sbb {lo}, {hi}\n",
            "mov {",
            $w0,
            "}, rdx\n",
            "sbb {",
            $w0,
            "}, 0\n",
            "add {",
            $w0,
            "}, {hi}\n",
            "mov {hi:e}, 0\n",
            "adc {hi}, 0\n",
            // w1..w7 −= D (modulo 2^448: the sum below is not negative).
            "sub {",
            $w1,
            "}, {lo}\n",
            "sbb {",
            $w2,
            "}, {",
            $w0,
            "}\n",
            "sbb {",
            $w3,
            "}, {hi}\n",
            "sbb {",
            $w4,
            "}, 0\n",
            "sbb {",
            $w5,
            "}, 0\n",
            "sbb {",
            $w6,
            "}, 0\n",
            "sbb {",
            $w7,
            "}, 0\n",
            // + q·2^320.
            "add {",
            $w6,
            "}, rdx\n",
            "adc {",
            $w7,
            "}, 0\n",
            "xor {",
            $w0,
            ":e}, {",
            $w0,
            ":e}\n",
        )
    };
}

/// The whole product: row 0 as a plain `mulx` chain into `w6..w0`, then its reduction and
/// rows 1–5 on windows rotated by one register each; the result ends up in `w6, w7, w0..w3`
/// (low to high) with its top bit in `w4`, and the modulus is subtracted unless that borrows.
macro_rules! mont_mul_body {
    ($reduce:ident) => {
        concat!(
            "mov rdx, [{b}]\n",
            "mulx {w1}, {w0}, [{a}]\n",
            "mulx {w2}, {lo}, [{a} + 8]\n",
            "add {w1}, {lo}\n",
            "mulx {w3}, {lo}, [{a} + 16]\n",
            "adc {w2}, {lo}\n",
            "mulx {w4}, {lo}, [{a} + 24]\n",
            "adc {w3}, {lo}\n",
            "mulx {w5}, {lo}, [{a} + 32]\n",
            "adc {w4}, {lo}\n",
            "mulx {w6}, {lo}, [{a} + 40]\n",
            "adc {w5}, {lo}\n",
            "adc {w6}, 0\n",
            "xor {w7:e}, {w7:e}\n",
            $reduce!("w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7"),
            row!($reduce, "{a}", "{b}", "8", "w1", "w2", "w3", "w4", "w5", "w6", "w7", "w0"),
            row!($reduce, "{a}", "{b}", "16", "w2", "w3", "w4", "w5", "w6", "w7", "w0", "w1"),
            row!($reduce, "{a}", "{b}", "24", "w3", "w4", "w5", "w6", "w7", "w0", "w1", "w2"),
            row!($reduce, "{a}", "{b}", "32", "w4", "w5", "w6", "w7", "w0", "w1", "w2", "w3"),
            row!($reduce, "{a}", "{b}", "40", "w5", "w6", "w7", "w0", "w1", "w2", "w3", "w4"),
            // (w4: w3 w2 w1 w0 w7 w6) − m into (a b hi lo rdx w5); keep it unless it borrows.
            "mov {a}, {w6}\n",
            "sub {a}, qword ptr [rip + {m}]\n",
            "mov {b}, {w7}\n",
            "sbb {b}, qword ptr [rip + {m} + 8]\n",
            "mov {hi}, {w0}\n",
            "sbb {hi}, qword ptr [rip + {m} + 16]\n",
            "mov {lo}, {w1}\n",
            "sbb {lo}, qword ptr [rip + {m} + 24]\n",
            "mov rdx, {w2}\n",
            "sbb rdx, qword ptr [rip + {m} + 32]\n",
            "mov {w5}, {w3}\n",
            "sbb {w5}, qword ptr [rip + {m} + 40]\n",
            "sbb {w4}, 0\n",
            "cmovnc {w6}, {a}\n",
            "cmovnc {w7}, {b}\n",
            "cmovnc {w0}, {hi}\n",
            "cmovnc {w1}, {lo}\n",
            "cmovnc {w2}, rdx\n",
            "cmovnc {w3}, {w5}\n",
        )
    };
}

/// `a·b·R⁻¹ mod p` for `a, b < p`.
///
/// Safe: the [`Adx`] token proves the CPU has BMI2 and ADX.
#[inline(always)]
pub fn mul_p(_: Adx, a: &[u64; 6], b: &[u64; 6]) -> [u64; 6] {
    let (r0, r1, r2, r3, r4, r5): (u64, u64, u64, u64, u64, u64);
    // SAFETY: `mulx`, `adcx` and `adox` need BMI2 and ADX, which the `Adx` token proves. The
    // asm reads the twelve limbs behind `a` and `b` and the seven words of the static `PM`,
    // writes only registers, and does not touch the stack.
    unsafe {
        asm!(
            mont_mul_body!(reduce_p),
            a = inout(reg) a.as_ptr() => _,
            b = inout(reg) b.as_ptr() => _,
            m = sym PM,
            w0 = out(reg) r2,
            w1 = out(reg) r3,
            w2 = out(reg) r4,
            w3 = out(reg) r5,
            w4 = out(reg) _,
            w5 = out(reg) _,
            w6 = out(reg) r0,
            w7 = out(reg) r1,
            hi = out(reg) _,
            lo = out(reg) _,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3, r4, r5]
}

/// `a·b·R⁻¹ mod n` for `a, b < n`.
///
/// Safe: the [`Adx`] token proves the CPU has BMI2 and ADX.
#[inline(always)]
pub fn mul_n(_: Adx, a: &[u64; 6], b: &[u64; 6]) -> [u64; 6] {
    let (r0, r1, r2, r3, r4, r5): (u64, u64, u64, u64, u64, u64);
    // SAFETY: as in `mul_p`, with the static `NM` for the modulus.
    unsafe {
        asm!(
            mont_mul_body!(reduce),
            a = inout(reg) a.as_ptr() => _,
            b = inout(reg) b.as_ptr() => _,
            m = sym NM,
            w0 = out(reg) r2,
            w1 = out(reg) r3,
            w2 = out(reg) r4,
            w3 = out(reg) r5,
            w4 = out(reg) _,
            w5 = out(reg) _,
            w6 = out(reg) r0,
            w7 = out(reg) r1,
            hi = out(reg) _,
            lo = out(reg) _,
            out("rdx") _,
            options(pure, readonly, nostack),
        );
    }
    [r0, r1, r2, r3, r4, r5]
}

/// The square of the six limbs behind `{a}` modulo the modulus behind `{m}` (see
/// [`sqr_p`]); the scratch `{t}` holds twelve words.
macro_rules! mont_sqr_body {
    ($reduce:ident) => {
        concat!(
            // Cross products: row 0 (a0·a1..a5) into x6 x7 x0 x1 x2 x3 (positions 1–6).
            "mov rdx, [{a}]\n",
            "mulx {x7}, {x6}, [{a} + 8]\n",
            "mulx {x0}, {lo}, [{a} + 16]\n",
            "add {x7}, {lo}\n",
            "mulx {x1}, {lo}, [{a} + 24]\n",
            "adc {x0}, {lo}\n",
            "mulx {x2}, {lo}, [{a} + 32]\n",
            "adc {x1}, {lo}\n",
            "mulx {x3}, {lo}, [{a} + 40]\n",
            "adc {x2}, {lo}\n",
            "adc {x3}, 0\n",
            // Positions 1 and 2 are complete: park them in t.
            "mov [{t} + 8], {x6}\n",
            "mov [{t} + 16], {x7}\n",
            // Row 1 (a1·a2..a5) into positions 3–7 (x0..x4).
            "mov rdx, [{a} + 8]\n",
            "xor {x4:e}, {x4:e}\n",
            "mulx {hi}, {lo}, [{a} + 16]\n",
            "adcx {x0}, {lo}\n",
            "adox {x1}, {hi}\n",
            "mulx {hi}, {lo}, [{a} + 24]\n",
            "adcx {x1}, {lo}\n",
            "adox {x2}, {hi}\n",
            "mulx {hi}, {lo}, [{a} + 32]\n",
            "adcx {x2}, {lo}\n",
            "adox {x3}, {hi}\n",
            "mulx {hi}, {lo}, [{a} + 40]\n",
            "adcx {x3}, {lo}\n",
            "adox {x4}, {hi}\n",
            "adc {x4}, 0\n",
            // Row 2 (a2·a3..a5) into positions 5–8 (x2..x5).
            "mov rdx, [{a} + 16]\n",
            "xor {x5:e}, {x5:e}\n",
            "mulx {hi}, {lo}, [{a} + 24]\n",
            "adcx {x2}, {lo}\n",
            "adox {x3}, {hi}\n",
            "mulx {hi}, {lo}, [{a} + 32]\n",
            "adcx {x3}, {lo}\n",
            "adox {x4}, {hi}\n",
            "mulx {hi}, {lo}, [{a} + 40]\n",
            "adcx {x4}, {lo}\n",
            "adox {x5}, {hi}\n",
            "adc {x5}, 0\n",
            // Row 3 (a3·a4, a3·a5) into positions 7–9 (x4, x5, x6).
            "mov rdx, [{a} + 24]\n",
            "xor {x6:e}, {x6:e}\n",
            "mulx {hi}, {lo}, [{a} + 32]\n",
            "adcx {x4}, {lo}\n",
            "adox {x5}, {hi}\n",
            "mulx {hi}, {lo}, [{a} + 40]\n",
            "adcx {x5}, {lo}\n",
            "adox {x6}, {hi}\n",
            "adc {x6}, 0\n",
            // Row 4 (a4·a5) into positions 9–10 (x6, x7).
            "mov rdx, [{a} + 32]\n",
            "mulx {x7}, {lo}, [{a} + 40]\n",
            "add {x6}, {lo}\n",
            "adc {x7}, 0\n",
            "mov [{t} + 72], {x6}\n",
            "mov [{t} + 80], {x7}\n",
            // Double (CF chain) and add the squares (OF chain): positions 0–2 and 9–11 go
            // to t, 3–8 stay in x0..x5.
            "xor {x6:e}, {x6:e}\n",
            "mov rdx, [{a}]\n",
            "mulx {hi}, {lo}, rdx\n",
            "mov [{t}], {lo}\n",
            "mov {x7}, [{t} + 8]\n",
            "adcx {x7}, {x7}\n",
            "adox {x7}, {hi}\n",
            "mov [{t} + 8], {x7}\n",
            "mov rdx, [{a} + 8]\n",
            "mulx {hi}, {lo}, rdx\n",
            "mov {x7}, [{t} + 16]\n",
            "adcx {x7}, {x7}\n",
            "adox {x7}, {lo}\n",
            "mov [{t} + 16], {x7}\n",
            "adcx {x0}, {x0}\n",
            "adox {x0}, {hi}\n",
            "mov rdx, [{a} + 16]\n",
            "mulx {hi}, {lo}, rdx\n",
            "adcx {x1}, {x1}\n",
            "adox {x1}, {lo}\n",
            "adcx {x2}, {x2}\n",
            "adox {x2}, {hi}\n",
            "mov rdx, [{a} + 24]\n",
            "mulx {hi}, {lo}, rdx\n",
            "adcx {x3}, {x3}\n",
            "adox {x3}, {lo}\n",
            "adcx {x4}, {x4}\n",
            "adox {x4}, {hi}\n",
            "mov rdx, [{a} + 32]\n",
            "mulx {hi}, {lo}, rdx\n",
            "adcx {x5}, {x5}\n",
            "adox {x5}, {lo}\n",
            "mov {x7}, [{t} + 72]\n",
            "adcx {x7}, {x7}\n",
            "adox {x7}, {hi}\n",
            "mov [{t} + 72], {x7}\n",
            "mov rdx, [{a} + 40]\n",
            "mulx {hi}, {lo}, rdx\n",
            "mov {x7}, [{t} + 80]\n",
            "adcx {x7}, {x7}\n",
            "adox {x7}, {lo}\n",
            "mov [{t} + 80], {x7}\n",
            "mov {x7}, 0\n",
            "adcx {x7}, {x7}\n",
            "adox {x7}, {hi}\n",
            "mov [{t} + 88], {x7}\n",
            // Positions 6–8 to t; the low half t0..t5 into the window a x6 x7 x0 x1 x2, with
            // x3 and x4 as its zero top limbs.
            "mov [{t} + 48], {x3}\n",
            "mov [{t} + 56], {x4}\n",
            "mov [{t} + 64], {x5}\n",
            "mov {a}, [{t}]\n",
            "mov {x6}, [{t} + 8]\n",
            "mov {x7}, [{t} + 16]\n",
            "xor {x3:e}, {x3:e}\n",
            "xor {x4:e}, {x4:e}\n",
            $reduce!("a", "x6", "x7", "x0", "x1", "x2", "x3", "x4"),
            $reduce!("x6", "x7", "x0", "x1", "x2", "x3", "x4", "a"),
            $reduce!("x7", "x0", "x1", "x2", "x3", "x4", "a", "x6"),
            $reduce!("x0", "x1", "x2", "x3", "x4", "a", "x6", "x7"),
            $reduce!("x1", "x2", "x3", "x4", "a", "x6", "x7", "x0"),
            $reduce!("x2", "x3", "x4", "a", "x6", "x7", "x0", "x1"),
            // (x1: x0 x7 x6 a x4 x3) + the high half, then − p into (x2 x5 rdx hi lo t).
            "add {x3}, [{t} + 48]\n",
            "adc {x4}, [{t} + 56]\n",
            "adc {a}, [{t} + 64]\n",
            "adc {x6}, [{t} + 72]\n",
            "adc {x7}, [{t} + 80]\n",
            "adc {x0}, [{t} + 88]\n",
            "adc {x1}, 0\n",
            "mov {x2}, {x3}\n",
            "sub {x2}, qword ptr [rip + {m}]\n",
            "mov {x5}, {x4}\n",
            "sbb {x5}, qword ptr [rip + {m} + 8]\n",
            "mov rdx, {a}\n",
            "sbb rdx, qword ptr [rip + {m} + 16]\n",
            "mov {hi}, {x6}\n",
            "sbb {hi}, qword ptr [rip + {m} + 24]\n",
            "mov {lo}, {x7}\n",
            "sbb {lo}, qword ptr [rip + {m} + 32]\n",
            "mov {t}, {x0}\n",
            "sbb {t}, qword ptr [rip + {m} + 40]\n",
            "sbb {x1}, 0\n",
            "cmovnc {x3}, {x2}\n",
            "cmovnc {x4}, {x5}\n",
            "cmovnc {a}, rdx\n",
            "cmovnc {x6}, {hi}\n",
            "cmovnc {x7}, {lo}\n",
            "cmovnc {x0}, {t}\n",
        )
    };
}

/// `a²·R⁻¹ mod p` for `a < p`: the fifteen cross products `a_i·a_j` (`i < j`), doubled on
/// the CF chain while the six squares `a_i²` go in on the OF chain (21 `mulx` against 36 for
/// a product), the 768-bit square partly in the scratch `t`; then six Montgomery steps on its
/// low half (each `reduce_p!`), which leave at most `p`, plus its high half (below `p`), and
/// `p` subtracted unless that borrows.
///
/// Safe: the [`Adx`] token proves the CPU has BMI2 and ADX.
#[inline(always)]
pub fn sqr_p(_: Adx, a: &[u64; 6]) -> [u64; 6] {
    let (r0, r1, r2, r3, r4, r5): (u64, u64, u64, u64, u64, u64);
    let mut t = [0u64; 12];
    // SAFETY: `mulx`, `adcx` and `adox` need BMI2 and ADX, which the `Adx` token proves. The
    // asm reads the six limbs behind `a` and the seven words of the static `PM`, reads and
    // writes the twelve words of the local `t`, and does not touch the stack.
    unsafe {
        asm!(
            mont_sqr_body!(reduce_p),
            a = inout(reg) a.as_ptr() => r2,
            t = inout(reg) t.as_mut_ptr() => _,
            m = sym PM,
            x0 = out(reg) r5,
            x1 = out(reg) _,
            x2 = out(reg) _,
            x3 = out(reg) r0,
            x4 = out(reg) r1,
            x5 = out(reg) _,
            x6 = out(reg) r3,
            x7 = out(reg) r4,
            hi = out(reg) _,
            lo = out(reg) _,
            out("rdx") _,
            options(nostack),
        );
    }
    [r0, r1, r2, r3, r4, r5]
}

/// `a²·R⁻¹ mod n` for `a < n`: as [`sqr_p`] (the bounds hold for any modulus below
/// `2^384`).
///
/// Safe: the [`Adx`] token proves the CPU has BMI2 and ADX.
#[inline(always)]
pub fn sqr_q(_: Adx, a: &[u64; 6]) -> [u64; 6] {
    let (r0, r1, r2, r3, r4, r5): (u64, u64, u64, u64, u64, u64);
    let mut t = [0u64; 12];
    // SAFETY: as in `sqr_p`, with the static `NM` for the modulus.
    unsafe {
        asm!(
            mont_sqr_body!(reduce),
            a = inout(reg) a.as_ptr() => r2,
            t = inout(reg) t.as_mut_ptr() => _,
            m = sym NM,
            x0 = out(reg) r5,
            x1 = out(reg) _,
            x2 = out(reg) _,
            x3 = out(reg) r0,
            x4 = out(reg) r1,
            x5 = out(reg) _,
            x6 = out(reg) r3,
            x7 = out(reg) r4,
            hi = out(reg) _,
            lo = out(reg) _,
            out("rdx") _,
            options(nostack),
        );
    }
    [r0, r1, r2, r3, r4, r5]
}

/// `p & mask` added to `t0..t5` for a `mask` of all ones or zeros (in the register named
/// `$c`), `p`'s limbs made from the mask in `$m0`, `$m1`, `$m2`: `2^32 − 1`, `2^64 − 2^32`,
/// `2^64 − 2`, then three all-ones limbs.
macro_rules! add_masked_p {
    ($c:literal, $m0:literal, $m1:literal, $m2:literal) => {
        concat!(
            "mov {",
            $m0,
            ":e}, {",
            $c,
            ":e}\n",
            "mov {",
            $m1,
            "}, {",
            $c,
            "}\n",
            "shl {",
            $m1,
            "}, 32\n",
            "lea {",
            $m2,
            "}, [{",
            $c,
            "} + {",
            $c,
            "}]\n",
            "add {t0}, {",
            $m0,
            "}\n",
            "adc {t1}, {",
            $m1,
            "}\n",
            "adc {t2}, {",
            $m2,
            "}\n",
            "adc {t3}, {",
            $c,
            "}\n",
            "adc {t4}, {",
            $c,
            "}\n",
            "adc {t5}, {",
            $c,
            "}\n",
        )
    };
}

/// `a/2 mod p` for `a < p`: `p` added when `a` is odd (the mask from the low bit, no
/// branch), then the 385-bit sum shifted right by one.
#[inline(always)]
pub fn halve_p(a: &[u64; 6]) -> [u64; 6] {
    let [mut t0, mut t1, mut t2, mut t3, mut t4, mut t5] = *a;
    // SAFETY: baseline x86-64 instructions on registers only, no memory, no stack.
    unsafe {
        asm!(
            "mov {c:e}, {t0:e}",
            "and {c:e}, 1",
            "neg {c}",
            add_masked_p!("c", "m0", "m1", "m2"),
            "sbb {c}, {c}",
            "shrd {t0}, {t1}, 1",
            "shrd {t1}, {t2}, 1",
            "shrd {t2}, {t3}, 1",
            "shrd {t3}, {t4}, 1",
            "shrd {t4}, {t5}, 1",
            "shrd {t5}, {c}, 1",
            t0 = inout(reg) t0,
            t1 = inout(reg) t1,
            t2 = inout(reg) t2,
            t3 = inout(reg) t3,
            t4 = inout(reg) t4,
            t5 = inout(reg) t5,
            c = out(reg) _,
            m0 = out(reg) _,
            m1 = out(reg) _,
            m2 = out(reg) _,
            options(pure, nomem, nostack),
        );
    }
    [t0, t1, t2, t3, t4, t5]
}

/// `a + b mod p` for `a, b < p`: the sum less `p`, with `p` added back when that went
/// negative (a mask, no branch).
#[inline(always)]
pub fn add_p(a: &[u64; 6], b: &[u64; 6]) -> [u64; 6] {
    let [mut t0, mut t1, mut t2, mut t3, mut t4, mut t5] = *a;
    // SAFETY: baseline x86-64 instructions; reads the six limbs behind `b` and the static
    // `PM`, writes only registers, no stack.
    unsafe {
        asm!(
            "xor {c:e}, {c:e}",
            "add {t0}, [{b}]",
            "adc {t1}, [{b} + 8]",
            "adc {t2}, [{b} + 16]",
            "adc {t3}, [{b} + 24]",
            "adc {t4}, [{b} + 32]",
            "adc {t5}, [{b} + 40]",
            "adc {c}, 0",
            "sub {t0}, qword ptr [rip + {m}]",
            "sbb {t1}, qword ptr [rip + {m} + 8]",
            "sbb {t2}, qword ptr [rip + {m} + 16]",
            "sbb {t3}, qword ptr [rip + {m} + 24]",
            "sbb {t4}, qword ptr [rip + {m} + 32]",
            "sbb {t5}, qword ptr [rip + {m} + 40]",
            "sbb {c}, 0",
            add_masked_p!("c", "m0", "m1", "m2"),
            b = in(reg) b.as_ptr(),
            m = sym PM,
            t0 = inout(reg) t0,
            t1 = inout(reg) t1,
            t2 = inout(reg) t2,
            t3 = inout(reg) t3,
            t4 = inout(reg) t4,
            t5 = inout(reg) t5,
            c = out(reg) _,
            m0 = out(reg) _,
            m1 = out(reg) _,
            m2 = out(reg) _,
            options(pure, readonly, nostack),
        );
    }
    [t0, t1, t2, t3, t4, t5]
}

/// `a − b mod p` for `a, b < p`: the difference, plus `p` masked by the borrow.
#[inline(always)]
pub fn sub_p(a: &[u64; 6], b: &[u64; 6]) -> [u64; 6] {
    let [mut t0, mut t1, mut t2, mut t3, mut t4, mut t5] = *a;
    // SAFETY: baseline x86-64 instructions; reads the six limbs behind `b`, writes only
    // registers, no stack.
    unsafe {
        asm!(
            "sub {t0}, [{b}]",
            "sbb {t1}, [{b} + 8]",
            "sbb {t2}, [{b} + 16]",
            "sbb {t3}, [{b} + 24]",
            "sbb {t4}, [{b} + 32]",
            "sbb {t5}, [{b} + 40]",
            "sbb {c}, {c}",
            add_masked_p!("c", "m0", "m1", "m2"),
            b = in(reg) b.as_ptr(),
            t0 = inout(reg) t0,
            t1 = inout(reg) t1,
            t2 = inout(reg) t2,
            t3 = inout(reg) t3,
            t4 = inout(reg) t4,
            t5 = inout(reg) t5,
            c = out(reg) _,
            m0 = out(reg) _,
            m1 = out(reg) _,
            m2 = out(reg) _,
            options(pure, readonly, nostack),
        );
    }
    [t0, t1, t2, t3, t4, t5]
}

// The whole-point routines: the Jacobian doubling and mixed addition as one `asm!` block
// each over the operations above, with the running value in `t0..t5` and the others in
// 48-byte slots of a scratch array (`{w}`, its first 96 bytes the squaring's scratch).
// Registers: `{p}` and `{w}` (memory bases), `t0..t7`, `hi`, `lo` and `rdx`; too few for
// `cmov` copies of a result, so the reductions add back `p` masked by the borrow (copies in
// two more registers, or through memory, measured no faster).

/// The 385-bit `t6:t5..t0` (below `2p`) reduced: `p` subtracted in place, which leaves `t6`
/// all ones when that borrowed (else zero), and `p` masked by it added back. Clobbers `t7`,
/// `hi` and `lo`.
macro_rules! reduce_top {
    () => {
        concat!(
            "sub {t0}, qword ptr [rip + {m}]\n",
            "sbb {t1}, qword ptr [rip + {m} + 8]\n",
            "sbb {t2}, qword ptr [rip + {m} + 16]\n",
            "sbb {t3}, qword ptr [rip + {m} + 24]\n",
            "sbb {t4}, qword ptr [rip + {m} + 32]\n",
            "sbb {t5}, qword ptr [rip + {m} + 40]\n",
            "sbb {t6}, 0\n",
            add_masked_p!("t6", "t7", "hi", "lo"),
        )
    };
}

/// `t ← a·b·R⁻¹ mod p` for the limbs at the memory bases `$a` and `$b`: the rows of
/// [`mul_p`] on the window `t2..t7, t0, t1` (so the result lands in `t0..t5`, its top bit in
/// `t6`), then [`reduce_top!`]. Clobbers `t6`, `t7`, `hi`, `lo` and `rdx`.
macro_rules! mul_w {
    ($a:literal, $b:literal) => {
        concat!(
            "mov rdx, ",
            at!($b, "0"),
            "\n",
            "mulx {t3}, {t2}, ",
            at!($a, "0"),
            "\n",
            "mulx {t4}, {lo}, ",
            at!($a, "8"),
            "\n",
            "add {t3}, {lo}\n",
            "mulx {t5}, {lo}, ",
            at!($a, "16"),
            "\n",
            "adc {t4}, {lo}\n",
            "mulx {t6}, {lo}, ",
            at!($a, "24"),
            "\n",
            "adc {t5}, {lo}\n",
            "mulx {t7}, {lo}, ",
            at!($a, "32"),
            "\n",
            "adc {t6}, {lo}\n",
            "mulx {t0}, {lo}, ",
            at!($a, "40"),
            "\n",
            "adc {t7}, {lo}\n",
            "adc {t0}, 0\n",
            "xor {t1:e}, {t1:e}\n",
            reduce_p!("t2", "t3", "t4", "t5", "t6", "t7", "t0", "t1"),
            row!(reduce_p, $a, $b, "8", "t3", "t4", "t5", "t6", "t7", "t0", "t1", "t2"),
            row!(reduce_p, $a, $b, "16", "t4", "t5", "t6", "t7", "t0", "t1", "t2", "t3"),
            row!(reduce_p, $a, $b, "24", "t5", "t6", "t7", "t0", "t1", "t2", "t3", "t4"),
            row!(reduce_p, $a, $b, "32", "t6", "t7", "t0", "t1", "t2", "t3", "t4", "t5"),
            row!(reduce_p, $a, $b, "40", "t7", "t0", "t1", "t2", "t3", "t4", "t5", "t6"),
            reduce_top!(),
        )
    };
}

/// `t ← a²·R⁻¹ mod p` for the limbs at the memory base `$a`: the squaring of [`sqr_p`] with
/// its scratch at `{w}` (twelve words), the reduction on the window `t2..t7, t0, t1` (so the
/// result lands in `t0..t5`), then [`reduce_top!`]. Clobbers `t6`, `t7`, `hi`, `lo` and `rdx`.
macro_rules! sqr_w {
    ($a:literal) => {
        sqr_w!($a, "{w}")
    };
    ($a:literal, $t:literal) => {
        concat!(
            // Cross products: row 0 (a0·a1..a5) into t3 t4 t5 t6 t7 t0 (positions 1–6).
            "mov rdx, ",
            at!($a, "0"),
            "\n",
            "mulx {t4}, {t3}, ",
            at!($a, "8"),
            "\n",
            "mulx {t5}, {lo}, ",
            at!($a, "16"),
            "\n",
            "add {t4}, {lo}\n",
            "mulx {t6}, {lo}, ",
            at!($a, "24"),
            "\n",
            "adc {t5}, {lo}\n",
            "mulx {t7}, {lo}, ",
            at!($a, "32"),
            "\n",
            "adc {t6}, {lo}\n",
            "mulx {t0}, {lo}, ",
            at!($a, "40"),
            "\n",
            "adc {t7}, {lo}\n",
            "adc {t0}, 0\n",
            // Positions 1 and 2 are complete: park them in the scratch.
            "mov ",
            at!($t, "8"),
            ", {t3}\n",
            "mov ",
            at!($t, "16"),
            ", {t4}\n",
            // Row 1 (a1·a2..a5) into positions 3–7 (t5 t6 t7 t0 t1).
            "mov rdx, ",
            at!($a, "8"),
            "\n",
            "xor {t1:e}, {t1:e}\n",
            "mulx {hi}, {lo}, ",
            at!($a, "16"),
            "\n",
            "adcx {t5}, {lo}\n",
            "adox {t6}, {hi}\n",
            "mulx {hi}, {lo}, ",
            at!($a, "24"),
            "\n",
            "adcx {t6}, {lo}\n",
            "adox {t7}, {hi}\n",
            "mulx {hi}, {lo}, ",
            at!($a, "32"),
            "\n",
            "adcx {t7}, {lo}\n",
            "adox {t0}, {hi}\n",
            "mulx {hi}, {lo}, ",
            at!($a, "40"),
            "\n",
            "adcx {t0}, {lo}\n",
            "adox {t1}, {hi}\n",
            "adc {t1}, 0\n",
            // Row 2 (a2·a3..a5) into positions 5–8 (t7 t0 t1 t2).
            "mov rdx, ",
            at!($a, "16"),
            "\n",
            "xor {t2:e}, {t2:e}\n",
            "mulx {hi}, {lo}, ",
            at!($a, "24"),
            "\n",
            "adcx {t7}, {lo}\n",
            "adox {t0}, {hi}\n",
            "mulx {hi}, {lo}, ",
            at!($a, "32"),
            "\n",
            "adcx {t0}, {lo}\n",
            "adox {t1}, {hi}\n",
            "mulx {hi}, {lo}, ",
            at!($a, "40"),
            "\n",
            "adcx {t1}, {lo}\n",
            "adox {t2}, {hi}\n",
            "adc {t2}, 0\n",
            // Row 3 (a3·a4, a3·a5) into positions 7–9 (t1 t2 t3).
            "mov rdx, ",
            at!($a, "24"),
            "\n",
            "xor {t3:e}, {t3:e}\n",
            "mulx {hi}, {lo}, ",
            at!($a, "32"),
            "\n",
            "adcx {t1}, {lo}\n",
            "adox {t2}, {hi}\n",
            "mulx {hi}, {lo}, ",
            at!($a, "40"),
            "\n",
            "adcx {t2}, {lo}\n",
            "adox {t3}, {hi}\n",
            "adc {t3}, 0\n",
            // Row 4 (a4·a5) into positions 9–10 (t3 t4).
            "mov rdx, ",
            at!($a, "32"),
            "\n",
            "mulx {t4}, {lo}, ",
            at!($a, "40"),
            "\n",
            "add {t3}, {lo}\n",
            "adc {t4}, 0\n",
            "mov ",
            at!($t, "72"),
            ", {t3}\n",
            "mov ",
            at!($t, "80"),
            ", {t4}\n",
            // Double (CF chain) and add the squares (OF chain): positions 0–2 and 9–11 go
            // to the scratch, 3–8 stay in t5 t6 t7 t0 t1 t2.
            "xor {t3:e}, {t3:e}\n",
            "mov rdx, ",
            at!($a, "0"),
            "\n",
            "mulx {hi}, {lo}, rdx\n",
            "mov ",
            at!($t, "0"),
            ", {lo}\n",
            "mov {t4}, ",
            at!($t, "8"),
            "\n",
            "adcx {t4}, {t4}\n",
            "adox {t4}, {hi}\n",
            "mov ",
            at!($t, "8"),
            ", {t4}\n",
            "mov rdx, ",
            at!($a, "8"),
            "\n",
            "mulx {hi}, {lo}, rdx\n",
            "mov {t4}, ",
            at!($t, "16"),
            "\n",
            "adcx {t4}, {t4}\n",
            "adox {t4}, {lo}\n",
            "mov ",
            at!($t, "16"),
            ", {t4}\n",
            "adcx {t5}, {t5}\n",
            "adox {t5}, {hi}\n",
            "mov rdx, ",
            at!($a, "16"),
            "\n",
            "mulx {hi}, {lo}, rdx\n",
            "adcx {t6}, {t6}\n",
            "adox {t6}, {lo}\n",
            "adcx {t7}, {t7}\n",
            "adox {t7}, {hi}\n",
            "mov rdx, ",
            at!($a, "24"),
            "\n",
            "mulx {hi}, {lo}, rdx\n",
            "adcx {t0}, {t0}\n",
            "adox {t0}, {lo}\n",
            "adcx {t1}, {t1}\n",
            "adox {t1}, {hi}\n",
            "mov rdx, ",
            at!($a, "32"),
            "\n",
            "mulx {hi}, {lo}, rdx\n",
            "adcx {t2}, {t2}\n",
            "adox {t2}, {lo}\n",
            "mov {t4}, ",
            at!($t, "72"),
            "\n",
            "adcx {t4}, {t4}\n",
            "adox {t4}, {hi}\n",
            "mov ",
            at!($t, "72"),
            ", {t4}\n",
            "mov rdx, ",
            at!($a, "40"),
            "\n",
            "mulx {hi}, {lo}, rdx\n",
            "mov {t4}, ",
            at!($t, "80"),
            "\n",
            "adcx {t4}, {t4}\n",
            "adox {t4}, {lo}\n",
            "mov ",
            at!($t, "80"),
            ", {t4}\n",
            "mov {t4}, 0\n",
            "adcx {t4}, {t4}\n",
            "adox {t4}, {hi}\n",
            "mov ",
            at!($t, "88"),
            ", {t4}\n",
            // Positions 6–8 to the scratch; the low half (positions 0–5) into the window
            // t2..t7, with t0 and t1 as its zero top limbs.
            "mov ",
            at!($t, "48"),
            ", {t0}\n",
            "mov ",
            at!($t, "56"),
            ", {t1}\n",
            "mov ",
            at!($t, "64"),
            ", {t2}\n",
            "mov {t2}, ",
            at!($t, "0"),
            "\n",
            "mov {t3}, ",
            at!($t, "8"),
            "\n",
            "mov {t4}, ",
            at!($t, "16"),
            "\n",
            "xor {t0:e}, {t0:e}\n",
            "xor {t1:e}, {t1:e}\n",
            reduce_p!("t2", "t3", "t4", "t5", "t6", "t7", "t0", "t1"),
            reduce_p!("t3", "t4", "t5", "t6", "t7", "t0", "t1", "t2"),
            reduce_p!("t4", "t5", "t6", "t7", "t0", "t1", "t2", "t3"),
            reduce_p!("t5", "t6", "t7", "t0", "t1", "t2", "t3", "t4"),
            reduce_p!("t6", "t7", "t0", "t1", "t2", "t3", "t4", "t5"),
            reduce_p!("t7", "t0", "t1", "t2", "t3", "t4", "t5", "t6"),
            // + the high half (positions 6–11), then reduced.
            "add {t0}, ",
            at!($t, "48"),
            "\n",
            "adc {t1}, ",
            at!($t, "56"),
            "\n",
            "adc {t2}, ",
            at!($t, "64"),
            "\n",
            "adc {t3}, ",
            at!($t, "72"),
            "\n",
            "adc {t4}, ",
            at!($t, "80"),
            "\n",
            "adc {t5}, ",
            at!($t, "88"),
            "\n",
            "adc {t6}, 0\n",
            reduce_top!(),
        )
    };
}

/// `t0..t5` from the six limbs at the memory base `$a`.
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
            "mov {t4}, ",
            at!($a, "32"),
            "\n",
            "mov {t5}, ",
            at!($a, "40"),
            "\n",
        )
    };
}

/// `t0..t5` to the six limbs at the memory base `$a`.
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
            "mov ",
            at!($a, "32"),
            ", {t4}\n",
            "mov ",
            at!($a, "40"),
            ", {t5}\n",
        )
    };
}

/// `t ← t + a mod p` for the limbs at the memory base `$a`. Clobbers `t6`, `t7`, `hi`, `lo`.
macro_rules! add_mem {
    ($a:literal) => {
        concat!(
            "xor {t6:e}, {t6:e}\n",
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
            "adc {t4}, ",
            at!($a, "32"),
            "\n",
            "adc {t5}, ",
            at!($a, "40"),
            "\n",
            "adc {t6}, 0\n",
            reduce_top!(),
        )
    };
}

/// `t ← 2t mod p`. Clobbers `t6`, `t7`, `hi` and `lo`.
macro_rules! double_t {
    () => {
        concat!(
            "xor {t6:e}, {t6:e}\n",
            "add {t0}, {t0}\n",
            "adc {t1}, {t1}\n",
            "adc {t2}, {t2}\n",
            "adc {t3}, {t3}\n",
            "adc {t4}, {t4}\n",
            "adc {t5}, {t5}\n",
            "adc {t6}, 0\n",
            reduce_top!(),
        )
    };
}

/// `t ← t − a mod p` for the limbs at the memory base `$a`: the difference, plus `p` masked
/// by the borrow. Clobbers `t6`, `t7`, `hi` and `lo`.
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
            "sbb {t4}, ",
            at!($a, "32"),
            "\n",
            "sbb {t5}, ",
            at!($a, "40"),
            "\n",
            "sbb {t6}, {t6}\n",
            add_masked_p!("t6", "t7", "hi", "lo"),
        )
    };
}

/// `t ← t/2 mod p`: `p` added when `t` is odd, the 385-bit sum shifted right by one.
/// Clobbers `t6`, `t7`, `hi` and `lo`.
macro_rules! halve_t {
    () => {
        concat!(
            "mov {t6:e}, {t0:e}\n",
            "and {t6:e}, 1\n",
            "neg {t6}\n",
            add_masked_p!("t6", "t7", "hi", "lo"),
            "sbb {t6}, {t6}\n",
            "shrd {t0}, {t1}, 1\n",
            "shrd {t1}, {t2}, 1\n",
            "shrd {t2}, {t3}, 1\n",
            "shrd {t3}, {t4}, 1\n",
            "shrd {t4}, {t5}, 1\n",
            "shrd {t5}, {t6}, 1\n",
        )
    };
}

/// The OR of `t0..t5` and the six limbs at the memory base `$a`, into `t0` (zero exactly
/// when both values are). Clobbers `t2` and `t4`.
macro_rules! or_mem {
    ($a:literal) => {
        concat!(
            "or {t0}, {t1}\n",
            "or {t2}, {t3}\n",
            "or {t4}, {t5}\n",
            "or {t0}, {t2}\n",
            "or {t0}, {t4}\n",
            "or {t0}, ",
            at!($a, "0"),
            "\n",
            "or {t0}, ",
            at!($a, "8"),
            "\n",
            "or {t0}, ",
            at!($a, "16"),
            "\n",
            "or {t0}, ",
            at!($a, "24"),
            "\n",
            "or {t0}, ",
            at!($a, "32"),
            "\n",
            "or {t0}, ",
            at!($a, "40"),
            "\n",
        )
    };
}

/// Doubles the Jacobian `p` in place by the generic formula ("dbl-2004-hmv", see
/// core-ec's `point::Curve`), the same field operations giving the same
/// (reduced) values, as one `asm!` block: the limbs read and written where they are, the
/// intermediate values in scratch slots, the running one in registers. Not inlined: a copy
/// per call site would crowd the instruction cache (the window loop unrolls its doublings).
///
/// Safe: the [`Adx`] token proves the CPU has BMI2 and ADX.
#[inline(never)]
pub fn jac_double(_: Adx, p: &mut [[u64; 6]; 3]) {
    // The squaring's 12 words, then slots of 48 bytes from offset 96: y2 = 2y, zz = z²,
    // yy = y2², a = x − zz, b = x + zz, t = a·b, m = 3t, s = yy·x, 2s, y4 = yy²/2,
    // d = s − x3. Then x3 = m² − 2s over x, z3 = y2·z over z and y3 = d·m − y4 over y (each
    // read for the last time before).
    let mut w = core::mem::MaybeUninit::<[u64; 12 + 6 * 11]>::uninit();
    // SAFETY: `mulx`, `adcx` and `adox` need BMI2 and ADX, which the `Adx` token proves. The
    // asm reads and writes the eighteen limbs behind `p`, writes the words of `w` (offsets
    // below 624) before reading each, reads the static `PM`, and does not touch
    // the stack.
    unsafe {
        asm!(
            load!("{p} + 48"),
            double_t!(),
            store!("{w} + 96"),
            sqr_w!("{p} + 96"),
            store!("{w} + 144"),
            sqr_w!("{w} + 96"),
            store!("{w} + 192"),
            load!("{p} + 0"),
            sub_mem!("{w} + 144"),
            store!("{w} + 240"),
            load!("{p} + 0"),
            add_mem!("{w} + 144"),
            store!("{w} + 288"),
            mul_w!("{w} + 240", "{w} + 288"),
            store!("{w} + 336"),
            double_t!(),
            add_mem!("{w} + 336"),
            store!("{w} + 384"),
            mul_w!("{w} + 192", "{p} + 0"),
            store!("{w} + 432"),
            double_t!(),
            store!("{w} + 480"),
            sqr_w!("{w} + 192"),
            halve_t!(),
            store!("{w} + 528"),
            sqr_w!("{w} + 384"),
            sub_mem!("{w} + 480"),
            store!("{p} + 0"),
            mul_w!("{w} + 96", "{p} + 96"),
            store!("{p} + 96"),
            load!("{w} + 432"),
            sub_mem!("{p} + 0"),
            store!("{w} + 576"),
            mul_w!("{w} + 576", "{w} + 384"),
            sub_mem!("{w} + 528"),
            store!("{p} + 48"),
            p = in(reg) p.as_mut_ptr(),
            w = in(reg) w.as_mut_ptr(),
            m = sym PM,
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

/// `p + (x2, y2)` by the generic mixed addition ("madd-2004-hmv", see
/// core-ec's `point::Curve`), the same field operations giving the same values,
/// as one `asm!` block, and a word that is zero exactly when `H = R = 0` (`p = (x2, y2)`). Not inlined, as
/// [`jac_double`].
///
/// Safe: the [`Adx`] token proves the CPU has BMI2 and ADX.
#[inline(never)]
pub fn jac_add_affine(
    _: Adx,
    p: &[[u64; 6]; 3],
    x2: &[u64; 6],
    y2: &[u64; 6],
) -> ([[u64; 6]; 3], u64) {
    // The squaring's 12 words, then slots of 48 bytes from offset 96: x2, y2 (then y3),
    // z1z1 = z1², h = x2·z1z1 − x1, z1·z1z1, r = y2·z1·z1z1 − y1, z3 = z1·h, hh = h²,
    // hhh = hh·h, v = hh·x1, 2v, hhh·y1, x3 = r² − 2v − hhh, d = v − x3, and the flag word
    // (H | R).
    let mut w = core::mem::MaybeUninit::<[u64; 12 + 6 * 14 + 1]>::uninit();
    let slots = w.as_mut_ptr().cast::<u64>();
    // SAFETY: the words 12..24 are inside `w`.
    unsafe {
        slots.add(12).cast::<[u64; 6]>().write(*x2);
        slots.add(18).cast::<[u64; 6]>().write(*y2);
    }
    // SAFETY: `mulx`, `adcx` and `adox` need BMI2 and ADX, which the `Adx` token proves. The
    // asm reads the eighteen limbs behind `p` and the static `PM`, writes the words of `w`
    // (offsets below 776) before reading each but x2's and y2's, and does not touch the
    // stack.
    unsafe {
        asm!(
            sqr_w!("{p} + 96"),
            store!("{w} + 192"),
            mul_w!("{w} + 96", "{w} + 192"),
            sub_mem!("{p} + 0"),
            store!("{w} + 240"),
            mul_w!("{p} + 96", "{w} + 192"),
            store!("{w} + 288"),
            mul_w!("{w} + 144", "{w} + 288"),
            sub_mem!("{p} + 48"),
            store!("{w} + 336"),
            or_mem!("{w} + 240"),
            "mov [{w} + 768], {t0}",
            mul_w!("{p} + 96", "{w} + 240"),
            store!("{w} + 384"),
            sqr_w!("{w} + 240"),
            store!("{w} + 432"),
            mul_w!("{w} + 432", "{w} + 240"),
            store!("{w} + 480"),
            mul_w!("{w} + 432", "{p} + 0"),
            store!("{w} + 528"),
            double_t!(),
            store!("{w} + 576"),
            mul_w!("{w} + 480", "{p} + 48"),
            store!("{w} + 624"),
            sqr_w!("{w} + 336"),
            sub_mem!("{w} + 576"),
            sub_mem!("{w} + 480"),
            store!("{w} + 672"),
            load!("{w} + 528"),
            sub_mem!("{w} + 672"),
            store!("{w} + 720"),
            mul_w!("{w} + 720", "{w} + 336"),
            sub_mem!("{w} + 624"),
            store!("{w} + 144"),
            p = in(reg) p.as_ptr(),
            w = in(reg) slots,
            m = sym PM,
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
    // SAFETY: the asm wrote x3 (words 84..90), y3 (18..24), z3 (48..54) and the flag word
    // (96).
    let (x3, y3, z3, hr) = unsafe {
        (
            slots.add(84).cast::<[u64; 6]>().read(),
            slots.add(18).cast::<[u64; 6]>().read(),
            slots.add(48).cast::<[u64; 6]>().read(),
            slots.add(96).read(),
        )
    };
    ([x3, y3, z3], hr)
}
