//! `x86_64` kernels for core-rsa: the MULX/ADCX/ADOX multiply-accumulate row and the SBB
//! chain of the final subtraction, for `mont/x86_adx.rs` (whose Rust twins run without `asm`).

use core::arch::asm;
use core::mem::MaybeUninit;

/// `t += x·y` over `len = min(t.len(), x.len())` limbs; returns the carry limb. MULX leaves the
/// flags alone, and ADCX and ADOX carry through CF and OF separately, so the low halves of the
/// products go into the accumulator on one carry chain while the high halves of the previous
/// products go in on the other, without the flag round trips a single chain needs. Four limbs
/// per loop turn (the high halves alternate between two registers), then one at a time; loop
/// control uses only LEA and JRCXZ, which touch no flags.
///
/// # Safety
///
/// The CPU must have BMI2 (MULX) and ADX (ADCX/ADOX).
#[inline]
#[must_use]
pub unsafe fn mul_add_row(t: &mut [u64], x: &[u64], y: u64) -> u64 {
    let len = t.len().min(x.len());
    let carry: u64;
    // SAFETY: the caller guarantees BMI2 (MULX) and ADX (ADCX/ADOX). The two loops read
    // `4·(len/4) + len%4 = len` limbs of `x` and read and write as many of `t`, both at least
    // `len` long; only LEA, MOV and JRCXZ run between the additions, so CF and OF carry on.
    unsafe {
        asm!(
            "xor {zero:e}, {zero:e}",
            "xor {prev:e}, {prev:e}",
            "jrcxz 4f",
            "2:",
            "mulx {h0}, {l0}, qword ptr [{x}]",
            "adcx {l0}, qword ptr [{t}]",
            "adox {l0}, {prev}",
            "mov qword ptr [{t}], {l0}",
            "mulx {prev}, {l0}, qword ptr [{x} + 8]",
            "adcx {l0}, qword ptr [{t} + 8]",
            "adox {l0}, {h0}",
            "mov qword ptr [{t} + 8], {l0}",
            "mulx {h0}, {l0}, qword ptr [{x} + 16]",
            "adcx {l0}, qword ptr [{t} + 16]",
            "adox {l0}, {prev}",
            "mov qword ptr [{t} + 16], {l0}",
            "mulx {prev}, {l0}, qword ptr [{x} + 24]",
            "adcx {l0}, qword ptr [{t} + 24]",
            "adox {l0}, {h0}",
            "mov qword ptr [{t} + 24], {l0}",
            "lea {x}, [{x} + 32]",
            "lea {t}, [{t} + 32]",
            "lea rcx, [rcx - 1]",
            "jrcxz 4f",
            "jmp 2b",
            "4:",
            "mov rcx, {rem}",
            "jrcxz 6f",
            "5:",
            "mulx {h0}, {l0}, qword ptr [{x}]",
            "adcx {l0}, qword ptr [{t}]",
            "adox {l0}, {prev}",
            "mov qword ptr [{t}], {l0}",
            "mov {prev}, {h0}",
            "lea {x}, [{x} + 8]",
            "lea {t}, [{t} + 8]",
            "lea rcx, [rcx - 1]",
            "jrcxz 6f",
            "jmp 5b",
            "6:",
            "adcx {prev}, {zero}",
            "adox {prev}, {zero}",
            x = inout(reg) x.as_ptr() => _,
            t = inout(reg) t.as_mut_ptr() => _,
            inout("rcx") len / 4 => _,
            rem = in(reg) len % 4,
            in("rdx") y,
            zero = out(reg) _,
            prev = out(reg) carry,
            h0 = out(reg) _,
            l0 = out(reg) _,
            options(nostack),
        );
    }
    carry
}

/// `t = r − n` over `l = min(r.len(), n.len(), t.len())` limbs, as one SBB chain (DEC and LEA
/// leave CF alone); returns the borrow out of it as an all-ones or zero mask (`sbb x, x`). Only
/// the first `l` limbs of `t` are written (initialised). Baseline x86-64.
#[inline]
#[must_use]
pub fn sub_borrow(r: &[u64], n: &[u64], t: &mut [MaybeUninit<u64>]) -> u64 {
    let l = r.len().min(n.len()).min(t.len());
    if l == 0 {
        return 0;
    }
    let borrow: u64;
    // SAFETY: SBB, DEC, LEA and MOV are baseline x86-64. The loop runs `l ≥ 1` times and
    // reads `l` limbs of `r` and `n` and writes the first `l` of `t`, all at least that long.
    unsafe {
        asm!(
            "xor {tmp:e}, {tmp:e}",
            "2:",
            "mov {tmp}, qword ptr [{r}]",
            "sbb {tmp}, qword ptr [{n}]",
            "mov qword ptr [{t}], {tmp}",
            "lea {r}, [{r} + 8]",
            "lea {n}, [{n} + 8]",
            "lea {t}, [{t} + 8]",
            "dec {cnt}",
            "jnz 2b",
            "sbb {tmp}, {tmp}",
            r = inout(reg) r.as_ptr() => _,
            n = inout(reg) n.as_ptr() => _,
            t = inout(reg) t.as_mut_ptr() => _,
            cnt = inout(reg) l => _,
            tmp = out(reg) borrow,
            options(nostack),
        );
    }
    borrow
}
