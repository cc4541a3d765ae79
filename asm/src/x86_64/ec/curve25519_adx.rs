//! GF(2^255 − 19) products on four 64-bit limbs with BMI2 and ADX: `mulx` for the limb
//! products and two independent carry chains (`adcx` on CF, `adox` on OF) to sum them, then
//! the upper half folded back with 2^256 ≡ 38. Inputs and outputs are below 2^256, not
//! necessarily below p. The rest of the field (additions, the final reduction) is Rust in
//! core-ec's `curve25519::x86_adx`, whose tests compare these against the portable field.

use core::arch::asm;

/// The asm that folds the 512-bit product in `t7..t0` to 256 bits in `t3..t0` with
/// 2^256 ≡ 38: `t3..t0 += 38·(t7..t4)` on two carry chains, the word above collected in `t5`
/// and folded again, then a last possible carry. Clobbers `rdx`, `t4`–`t7`, `hi` and `lo`.
macro_rules! reduce {
    () => {
        concat!(
            // Fold: t3..t0 += 38·(t7..t4), the top carry collected in t5.
            "mov edx, 38\n",
            "mulx {hi}, {lo}, {t4}\n",
            "xor {t4:e}, {t4:e}\n",
            "adcx {t0}, {lo}\n",
            "adox {t1}, {hi}\n",
            "mulx {hi}, {lo}, {t5}\n",
            "adcx {t1}, {lo}\n",
            "adox {t2}, {hi}\n",
            "mulx {hi}, {lo}, {t6}\n",
            "adcx {t2}, {lo}\n",
            "adox {t3}, {hi}\n",
            "mulx {t5}, {lo}, {t7}\n",
            "adcx {t3}, {lo}\n",
            "adox {t5}, {t4}\n",
            "adcx {t5}, {t4}\n",
            // Fold the top word (below 2^7) again, then a last possible carry.
            "imul {t5}, {t5}, 38\n",
            "add {t0}, {t5}\n",
            "adc {t1}, 0\n",
            "adc {t2}, 0\n",
            "adc {t3}, 0\n",
            "sbb {t5}, {t5}\n",
            "and {t5}, 38\n",
            "add {t0}, {t5}\n",
        )
    };
}

/// `a·b mod 2^256 − 38`, below 2^256.
///
/// # Safety
///
/// The CPU must have BMI2 and ADX (the caller holds a `core_cpu::Adx` token).
#[inline(always)]
pub unsafe fn mul(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    let (t0, t1, t2, t3): (u64, u64, u64, u64);
    // SAFETY: `mulx`, `adcx` and `adox` need BMI2 and ADX, which the caller guarantees. The asm reads the eight limbs behind `a` and `b`, writes only its register
    // outputs and does not touch the stack.
    unsafe {
        asm!(
            // Row 0: t4..t0 = a·b0.
            "mov rdx, [{b}]",
            "mulx {t1}, {t0}, [{a}]",
            "mulx {t2}, {lo}, [{a} + 8]",
            "add {t1}, {lo}",
            "mulx {t3}, {lo}, [{a} + 16]",
            "adc {t2}, {lo}",
            "mulx {t4}, {lo}, [{a} + 24]",
            "adc {t3}, {lo}",
            "adc {t4}, 0",
            // Row 1: t5..t1 += a·b1, low halves on CF, high halves on OF.
            "mov rdx, [{b} + 8]",
            "xor {t5:e}, {t5:e}",
            "mulx {hi}, {lo}, [{a}]",
            "adcx {t1}, {lo}",
            "adox {t2}, {hi}",
            "mulx {hi}, {lo}, [{a} + 8]",
            "adcx {t2}, {lo}",
            "adox {t3}, {hi}",
            "mulx {hi}, {lo}, [{a} + 16]",
            "adcx {t3}, {lo}",
            "adox {t4}, {hi}",
            "mulx {hi}, {lo}, [{a} + 24]",
            "adcx {t4}, {lo}",
            "adox {t5}, {hi}",
            "adc {t5}, 0",
            // Row 2.
            "mov rdx, [{b} + 16]",
            "xor {t6:e}, {t6:e}",
            "mulx {hi}, {lo}, [{a}]",
            "adcx {t2}, {lo}",
            "adox {t3}, {hi}",
            "mulx {hi}, {lo}, [{a} + 8]",
            "adcx {t3}, {lo}",
            "adox {t4}, {hi}",
            "mulx {hi}, {lo}, [{a} + 16]",
            "adcx {t4}, {lo}",
            "adox {t5}, {hi}",
            "mulx {hi}, {lo}, [{a} + 24]",
            "adcx {t5}, {lo}",
            "adox {t6}, {hi}",
            "adc {t6}, 0",
            // Row 3.
            "mov rdx, [{b} + 24]",
            "xor {t7:e}, {t7:e}",
            "mulx {hi}, {lo}, [{a}]",
            "adcx {t3}, {lo}",
            "adox {t4}, {hi}",
            "mulx {hi}, {lo}, [{a} + 8]",
            "adcx {t4}, {lo}",
            "adox {t5}, {hi}",
            "mulx {hi}, {lo}, [{a} + 16]",
            "adcx {t5}, {lo}",
            "adox {t6}, {hi}",
            "mulx {hi}, {lo}, [{a} + 24]",
            "adcx {t6}, {lo}",
            "adox {t7}, {hi}",
            "adc {t7}, 0",
            reduce!(),
            a = in(reg) a.as_ptr(),
            b = in(reg) b.as_ptr(),
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

/// `a² mod 2^256 − 38`, below 2^256: six cross products doubled plus four squares (10
/// `mulx` instead of 16).
///
/// # Safety
///
/// The CPU must have BMI2 and ADX (the caller holds a `core_cpu::Adx` token).
#[inline(always)]
pub unsafe fn square(a: &[u64; 4]) -> [u64; 4] {
    let (t0, t1, t2, t3): (u64, u64, u64, u64);
    // SAFETY: as in `mul`: BMI2 and ADX by the caller's contract; reads the four limbs behind
    // `a`, writes only registers, no stack.
    unsafe {
        asm!(
            // Cross products a_i·a_j (i < j) into t6..t1.
            "mov rdx, [{a}]",
            "mulx {t2}, {t1}, [{a} + 8]",
            "mulx {t3}, {lo}, [{a} + 16]",
            "add {t2}, {lo}",
            "mulx {t4}, {lo}, [{a} + 24]",
            "adc {t3}, {lo}",
            "mov rdx, [{a} + 8]",
            "mulx {t5}, {lo}, [{a} + 24]",
            "adc {t4}, {lo}",
            "mov rdx, [{a} + 16]",
            "mulx {t6}, {lo}, [{a} + 24]",
            "adc {t5}, {lo}",
            "adc {t6}, 0",
            "mov rdx, [{a} + 8]",
            "mulx {hi}, {lo}, [{a} + 16]",
            "add {t3}, {lo}",
            "adc {t4}, {hi}",
            "adc {t5}, 0",
            "adc {t6}, 0",
            // Double them (CF chain) and add the squares a_i² (OF chain).
            "xor {t7:e}, {t7:e}",
            "mov rdx, [{a}]",
            "mulx {hi}, {t0}, rdx",
            "adcx {t1}, {t1}",
            "adox {t1}, {hi}",
            "mov rdx, [{a} + 8]",
            "mulx {hi}, {lo}, rdx",
            "adcx {t2}, {t2}",
            "adox {t2}, {lo}",
            "adcx {t3}, {t3}",
            "adox {t3}, {hi}",
            "mov rdx, [{a} + 16]",
            "mulx {hi}, {lo}, rdx",
            "adcx {t4}, {t4}",
            "adox {t4}, {lo}",
            "adcx {t5}, {t5}",
            "adox {t5}, {hi}",
            "mov rdx, [{a} + 24]",
            "mulx {hi}, {lo}, rdx",
            "adcx {t6}, {t6}",
            "adox {t6}, {lo}",
            "adcx {t7}, {t7}",
            "adox {t7}, {hi}",
            reduce!(),
            a = in(reg) a.as_ptr(),
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
