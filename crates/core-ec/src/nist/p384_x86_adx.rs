//! GF(p) and the scalars for P-384 with BMI2 and ADX: the representation of
//! [`Mont64`](super::Mont64) with six limbs (Montgomery form, so the two share the comb table
//! and the conversions), the Montgomery product in `asm!` as word-by-word CIOS rows, each
//! row's `a·b[i]` and `q·m` summed on two independent carry chains (`adcx` on CF for the low
//! halves, `adox` on OF for the high halves). The modulus and `−m⁻¹ mod 2^64` are read from a
//! static, so one routine serves the prime `p` and the group order `n`. Modulo `p` each
//! row's reduction is specialised to the prime's shape ([`reduce_p!`]: two `mulx` instead of
//! six, which took P-384 ECDH from about 6550 to 7050 operations per second here). The final
//! subtraction of the modulus is kept or dropped with `cmov`, never a branch.
//!
//! Inversion mod `p` and mod `n` is constant-time [`safegcd`](super::safegcd) (Fermat took 385
//! squarings and 14 multiplications).
//!
//! Every instruction here needs BMI2 and ADX: [`P384X86Adx`] and [`P384ScalarX86Adx`] hold a
//! `core_cpu::Adx` token, the proof the `unsafe` blocks rely on.

use core::arch::asm;

use super::safegcd::Modulus;
use super::{Field, Modulus64, Mont64};
use crate::p384::{P, Q};
use subtle::Choice;

/// P-384's prime as little-endian limbs, then `−p⁻¹ mod 2^64`: the memory operands of
/// [`mont_mul`] for the field.
static PM: [u64; 7] = <P as Modulus64<6>>::MONT.limbs_and_m0inv6();
/// `2^384 − p = 2^128 + 2^96 − 2^32 + 1`'s two low limbs (the third is 1): the memory
/// operands of [`reduce_p!`].
static PC: [u64; 2] = [0xffff_ffff_0000_0001, 0xffff_ffff];
/// The same for the group order.
static NM: [u64; 7] = <Q as Modulus64<6>>::MONT.limbs_and_m0inv6();

/// One CIOS row after the first: `w += a·b[i]` (`b[i]` at byte offset `$off`) on the window
/// `w0..w6` (`w7` the fresh top limb, zeroed here), then [`reduce!`].
macro_rules! row {
    ($reduce:ident, $off:literal, $w0:literal, $w1:literal, $w2:literal, $w3:literal, $w4:literal, $w5:literal, $w6:literal, $w7:literal) => {
        concat!(
            "xor {",
            $w7,
            ":e}, {",
            $w7,
            ":e}\n",
            "mov rdx, [{b} + ",
            $off,
            "]\n",
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
            "mulx {hi}, {lo}, [{a} + 32]\n",
            "adcx {",
            $w4,
            "}, {lo}\n",
            "adox {",
            $w5,
            "}, {hi}\n",
            "mulx {hi}, {lo}, [{a} + 40]\n",
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

/// One Montgomery step modulo P-384's prime, the step of [`reduce!`] specialised to its
/// shape: `−p⁻¹ ≡ 2^32 + 1 (mod 2^64)`, so `q = w0 + (w0 << 32)`, and
/// `q·p = q·2^384 − q·c` with `c = 2^384 − p` of three limbs `(c0, c1, 1)`. The low limb of
/// `q·c` equals `w0`, so the new window `(w + q·p)/2^64` is `w1..w7 − D + q·2^320` with
/// `D = (q·c) >> 64 = hi(q·c0) + q·c1 + q·2^64`: two `mulx` against six, a subtraction
/// chain, and `q` added at the top. The result is the same window as [`reduce!`]'s, and
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
            // D = (w0, hi, lo) = hi(q·c0) + q·c1 + q·2^64, the low half of q·c0 (= w0) dropped.
            "mulx {",
            $w0,
            "}, {lo}, qword ptr [rip + {c}]\n",
            "mulx {hi}, {lo}, qword ptr [rip + {c} + 8]\n",
            "add {",
            $w0,
            "}, {lo}\n",
            "adc {hi}, rdx\n",
            "mov {lo:e}, 0\n",
            "adc {lo}, 0\n",
            // w1..w7 −= D (modulo 2^448: the sum below is not negative).
            "sub {",
            $w1,
            "}, {",
            $w0,
            "}\n",
            "sbb {",
            $w2,
            "}, {hi}\n",
            "sbb {",
            $w3,
            "}, {lo}\n",
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
            row!($reduce, "8", "w1", "w2", "w3", "w4", "w5", "w6", "w7", "w0"),
            row!($reduce, "16", "w2", "w3", "w4", "w5", "w6", "w7", "w0", "w1"),
            row!($reduce, "24", "w3", "w4", "w5", "w6", "w7", "w0", "w1", "w2"),
            row!($reduce, "32", "w4", "w5", "w6", "w7", "w0", "w1", "w2", "w3"),
            row!($reduce, "40", "w5", "w6", "w7", "w0", "w1", "w2", "w3", "w4"),
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
#[inline(always)]
fn mul_p(_: core_cpu::Adx, a: &[u64; 6], b: &[u64; 6]) -> [u64; 6] {
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
            c = sym PC,
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
#[inline(always)]
fn mul_n(_: core_cpu::Adx, a: &[u64; 6], b: &[u64; 6]) -> [u64; 6] {
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
/// low half (each [`reduce_p!`]), which leave at most `p`, plus its high half (below `p`), and
/// `p` subtracted unless that borrows.
#[inline(always)]
fn sqr_p(_: core_cpu::Adx, a: &[u64; 6]) -> [u64; 6] {
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
            c = sym PC,
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
#[inline(always)]
fn sqr_q(_: core_cpu::Adx, a: &[u64; 6]) -> [u64; 6] {
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

/// `p & mask` added to `t0..t5` for a `mask` of all ones or zeros (in `{c}`), `p`'s limbs
/// made from the mask: `2^32 − 1`, `2^64 − 2^32`, `2^64 − 2`, then three all-ones limbs.
macro_rules! add_masked_p {
    () => {
        concat!(
            "mov {m0:e}, {c:e}\n",
            "mov {m1}, {c}\n",
            "shl {m1}, 32\n",
            "lea {m2}, [{c} + {c}]\n",
            "add {t0}, {m0}\n",
            "adc {t1}, {m1}\n",
            "adc {t2}, {m2}\n",
            "adc {t3}, {c}\n",
            "adc {t4}, {c}\n",
            "adc {t5}, {c}\n",
        )
    };
}

/// `a/2 mod p` for `a < p`: `p` added when `a` is odd (the mask from the low bit, no
/// branch), then the 385-bit sum shifted right by one.
#[inline(always)]
fn halve_p(a: &[u64; 6]) -> [u64; 6] {
    let [mut t0, mut t1, mut t2, mut t3, mut t4, mut t5] = *a;
    // SAFETY: baseline x86-64 instructions on registers only, no memory, no stack.
    unsafe {
        asm!(
            "mov {c:e}, {t0:e}",
            "and {c:e}, 1",
            "neg {c}",
            add_masked_p!(),
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
fn add_p(a: &[u64; 6], b: &[u64; 6]) -> [u64; 6] {
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
            add_masked_p!(),
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
fn sub_p(a: &[u64; 6], b: &[u64; 6]) -> [u64; 6] {
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
            add_masked_p!(),
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

/// `p` and `n` for [`safegcd`](super::safegcd), which inverts both.
const SAFEGCD_P: Modulus<7> = Modulus::new(<P as Modulus64<6>>::MONT.limbs_le());
const SAFEGCD_N: Modulus<7> = Modulus::new(<Q as Modulus64<6>>::MONT.limbs_le());

/// The P-384 field on MULX/ADCX/ADOX; holding the token proves the CPU has BMI2 and ADX.
#[derive(Clone, Copy, Debug)]
pub(crate) struct P384X86Adx(pub(crate) core_cpu::Adx);

impl Field for P384X86Adx {
    type E = [u64; 6];

    fn modulus(&self) -> &'static [u8] {
        <P as Modulus64<6>>::MONT.modulus_be()
    }

    #[inline]
    fn zero(&self) -> [u64; 6] {
        [0; 6]
    }

    #[inline]
    fn one(&self) -> [u64; 6] {
        <P as Modulus64<6>>::MONT.one()
    }

    #[inline]
    fn add(&self, a: &[u64; 6], b: &[u64; 6]) -> [u64; 6] {
        add_p(a, b)
    }

    #[inline]
    fn sub(&self, a: &[u64; 6], b: &[u64; 6]) -> [u64; 6] {
        sub_p(a, b)
    }

    #[inline]
    fn halve(&self, a: &[u64; 6]) -> [u64; 6] {
        halve_p(a)
    }

    #[inline]
    fn mul(&self, a: &[u64; 6], b: &[u64; 6]) -> [u64; 6] {
        mul_p(self.0, a, b)
    }

    #[inline]
    fn sqr(&self, a: &[u64; 6]) -> [u64; 6] {
        sqr_p(self.0, a)
    }

    #[inline]
    fn select(a: &[u64; 6], b: &[u64; 6], choice: Choice) -> [u64; 6] {
        Mont64::<6>::select(a, b, choice)
    }

    fn is_zero(a: &[u64; 6]) -> Choice {
        Mont64::<6>::is_zero(a)
    }

    fn import_be(&self, bytes: &[u8]) -> ([u64; 6], Choice) {
        <P as Modulus64<6>>::MONT.import_be(bytes)
    }

    fn import_be_reduce(&self, bytes: &[u8]) -> [u64; 6] {
        <P as Modulus64<6>>::MONT.import_be_reduce(bytes)
    }

    fn to_be(&self, a: &[u64; 6], out: &mut [u8]) {
        <P as Modulus64<6>>::MONT.to_be(a, out);
    }

    fn comb(&self) -> &'static [[[u64; 6]; 2]] {
        <P as Modulus64<6>>::COMB
    }

    fn odd_g(&self) -> &'static [[[u64; 6]; 2]] {
        <P as Modulus64<6>>::ODD_G
    }

    fn invert(&self, a: &[u64; 6]) -> [u64; 6] {
        <P as Modulus64<6>>::MONT.invert_safegcd(&SAFEGCD_P, a)
    }
}

/// The scalars mod P-384's group order on MULX/ADCX/ADOX; holding the token proves the CPU
/// has BMI2 and ADX.
#[derive(Clone, Copy, Debug)]
pub(crate) struct P384ScalarX86Adx(pub(crate) core_cpu::Adx);

impl Field for P384ScalarX86Adx {
    type E = [u64; 6];

    fn modulus(&self) -> &'static [u8] {
        <Q as Modulus64<6>>::MONT.modulus_be()
    }

    #[inline]
    fn zero(&self) -> [u64; 6] {
        [0; 6]
    }

    #[inline]
    fn one(&self) -> [u64; 6] {
        <Q as Modulus64<6>>::MONT.one()
    }

    #[inline]
    fn add(&self, a: &[u64; 6], b: &[u64; 6]) -> [u64; 6] {
        <Q as Modulus64<6>>::MONT.add(a, b)
    }

    #[inline]
    fn sub(&self, a: &[u64; 6], b: &[u64; 6]) -> [u64; 6] {
        <Q as Modulus64<6>>::MONT.sub(a, b)
    }

    #[inline]
    fn mul(&self, a: &[u64; 6], b: &[u64; 6]) -> [u64; 6] {
        mul_n(self.0, a, b)
    }

    #[inline]
    fn sqr(&self, a: &[u64; 6]) -> [u64; 6] {
        sqr_q(self.0, a)
    }

    #[inline]
    fn select(a: &[u64; 6], b: &[u64; 6], choice: Choice) -> [u64; 6] {
        Mont64::<6>::select(a, b, choice)
    }

    fn is_zero(a: &[u64; 6]) -> Choice {
        Mont64::<6>::is_zero(a)
    }

    fn import_be(&self, bytes: &[u8]) -> ([u64; 6], Choice) {
        <Q as Modulus64<6>>::MONT.import_be(bytes)
    }

    fn import_be_reduce(&self, bytes: &[u8]) -> [u64; 6] {
        <Q as Modulus64<6>>::MONT.import_be_reduce(bytes)
    }

    fn to_be(&self, a: &[u64; 6], out: &mut [u8]) {
        <Q as Modulus64<6>>::MONT.to_be(a, out);
    }

    fn invert(&self, a: &[u64; 6]) -> [u64; 6] {
        <Q as Modulus64<6>>::MONT.invert_safegcd(&SAFEGCD_N, a)
    }

    fn invert_vartime(&self, a: &[u64; 6]) -> [u64; 6] {
        <Q as Modulus64<6>>::MONT.invert_safegcd_vartime(&SAFEGCD_N, a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// `a + b`, `a − b`, `a·b`, `a²`, `a⁻¹`, `a/2` of big-endian inputs below the modulus, as
    /// bytes (`a/2` checked to double back to `a`).
    fn run<F: Field>(f: &F, a: &[u8; 48], b: &[u8; 48]) -> [[u8; 48]; 6] {
        let (x, okx) = f.import_be(a);
        let (y, oky) = f.import_be(b);
        assert!(bool::from(okx & oky), "inputs below the modulus");
        let half = f.halve(&x);
        assert!(bool::from(f.eq(&f.add(&half, &half), &x)), "a/2 + a/2 = a");
        [f.add(&x, &y), f.sub(&x, &y), f.mul(&x, &y), f.sqr(&x), f.invert(&x), half].map(|v| {
            let mut out = [0u8; 48];
            f.to_be(&v, &mut out);
            out
        })
    }

    /// Both ADX fields against the generic `mont64` ones.
    fn agree(a: &[u8; 48], b: &[u8; 48]) {
        let Some(t) = core_cpu::Adx::get() else {
            std::eprintln!("x86_adx not available here, not checked");
            return;
        };
        assert_eq!(run(&P384X86Adx(t), a, b), run(&crate::p384::FP64, a, b), "mod p");
        assert_eq!(run(&crate::p384::FP15, a, b), run(&crate::p384::FP64, a, b), "mod p, mont15");
        assert_eq!(run(&P384ScalarX86Adx(t), a, b), run(&crate::p384::FQ64, a, b), "mod n");
    }

    /// Values near zero, near both moduli and with long runs of ones, in every pairing.
    #[test]
    fn agree_on_edge_values() {
        let n: [u8; 48] = <Q as Modulus64<6>>::MONT.modulus_be().try_into().unwrap();
        let minus = |k: u8| {
            let mut v = n;
            v[47] -= k;
            v
        };
        let small = |k: u8| {
            let mut v = [0u8; 48];
            v[47] = k;
            v
        };
        let mut ones = [0xffu8; 48];
        ones[0] = 0x7f;
        let mut top = [0u8; 48];
        top[..24].fill(0xff);
        let edges = [small(0), small(1), small(2), minus(1), minus(2), ones, top];
        for a in &edges {
            for b in &edges {
                agree(a, b);
            }
        }
    }

    /// The field alone on values just below `p` (above `n`, so not for the scalars).
    #[test]
    fn field_agrees_near_p() {
        let Some(t) = core_cpu::Adx::get() else {
            std::eprintln!("x86_adx not available here, not checked");
            return;
        };
        let p: [u8; 48] = <P as Modulus64<6>>::MONT.modulus_be().try_into().unwrap();
        let minus = |k: u8| {
            let mut v = p;
            v[47] -= k;
            v
        };
        let mut half = [0u8; 48];
        half[0] = 0x80;
        let edges = [minus(1), minus(2), minus(0xfe), half, [0; 48]];
        for a in &edges {
            for b in &edges {
                assert_eq!(run(&P384X86Adx(t), a, b), run(&crate::p384::FP64, a, b));
            }
        }
    }

    proptest! {
        #[test]
        fn agree_on_random_values(a in any::<[u8; 48]>(), b in any::<[u8; 48]>()) {
            // Below n (and so below p): clear the top bit.
            let (mut a, mut b) = (a, b);
            a[0] &= 0x7f;
            b[0] &= 0x7f;
            agree(&a, &b);
        }
    }
}
