//! Montgomery multiplication on 64-bit limbs with MULX/ADCX/ADOX (BMI2 and ADX), CIOS order as
//! in `portable64`. Each half-row (`t += a·b[i]`, then `t += m·n`) is one `asm!` loop: MULX
//! leaves the flags alone, and ADCX and ADOX carry through CF and OF separately, so the low
//! halves of the products go into the accumulator on one carry chain while the high halves of
//! the previous products go in on the other, without the flag round trips a single chain
//! needs. Loop control uses only LEA and JRCXZ, which touch no flags.

use super::Engine;

/// The ADX engine; holding the token proves the CPU has BMI2 and ADX.
#[derive(Clone, Copy, Debug)]
pub(crate) struct X86Adx(pub(crate) core_cpu::Adx);

impl Engine for X86Adx {
    type W = u64;
    const SQR_SCRATCH: bool = true;

    #[inline]
    fn mul(self, r: &mut [u64], a: &[u64], b: &[u64], n: &[u64], n0: u64) {
        mont_mul(self.0, r, a, b, n, n0);
    }

    #[inline]
    fn sqr(self, r: &mut [u64], a: &[u64], n: &[u64], n0: u64, scratch: &mut [u64]) {
        mont_sqr(self.0, r, a, n, n0, scratch);
    }
}

/// `t += x·y` over `t.len() == x.len()` limbs; returns the carry limb. Four limbs per loop
/// turn (the high halves alternate between two registers), then one at a time.
#[inline]
fn mul_add_row(_: core_cpu::Adx, t: &mut [u64], x: &[u64], y: u64) -> u64 {
    let len = t.len().min(x.len());
    let carry: u64;
    // SAFETY: the `Adx` token proves BMI2 (MULX) and ADX (ADCX/ADOX). The two loops read
    // `4·(len/4) + len%4 = len` limbs of `x` and read and write as many of `t`, both at least
    // `len` long; only LEA, MOV and JRCXZ run between the additions, so CF and OF carry on.
    unsafe {
        core::arch::asm!(
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

/// Brings `hi·2^(64·len) + r`, below `2n`, below `n`: `r - n` is one SBB chain into a
/// temporary (DEC and LEA leave CF alone), and the borrow out of it, as an all-ones or zero
/// mask from `sbb x, x`, picks between the two with AND/OR. (The generic `reduce_once`, two
/// passes with the borrow moved through a register, took a seventh of an RSA signature.)
#[inline]
fn reduce_once(r: &mut [u64], hi: u64, n: &[u64]) {
    let l = r.len().min(n.len()).min(crate::MAX_BITS / 64);
    if l == 0 {
        return;
    }
    let mut t = core::mem::MaybeUninit::<[u64; crate::MAX_BITS / 64]>::uninit();
    let borrow: u64;
    // SAFETY: SBB, DEC, LEA and MOV are baseline x86-64. The loop runs `l ≥ 1` times and
    // reads `l` limbs of `r` and `n` and writes the first `l` of `t`, all at least that long.
    unsafe {
        core::arch::asm!(
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
            t = inout(reg) t.as_mut_ptr().cast::<u64>() => _,
            cnt = inout(reg) l => _,
            tmp = out(reg) borrow,
            options(nostack),
        );
    }
    // SAFETY: the loop above wrote the first `l` limbs of `t`; the slice covers only those.
    let t = unsafe { core::slice::from_raw_parts(t.as_ptr().cast::<u64>(), l) };
    // Keep r when it borrowed against n and nothing overflowed (hi is 0 or 1).
    let keep = borrow & hi.wrapping_sub(1);
    for (x, &y) in r[..l].iter_mut().zip(t) {
        *x = (*x & keep) | (y & !keep);
    }
}

/// Adds the limb `c` at `t[k]`, with the carry going to `t[k + 1]`.
#[inline(always)]
fn add_at(t: &mut [u64], k: usize, c: u64) {
    let (s, o) = t[k].overflowing_add(c);
    t[k] = s;
    t[k + 1] += u64::from(o);
}

/// `r = a·b·2^(-64·len) mod n` for `a < 2^(64·len)` and `b < n`; `r` must not alias. Row `i`
/// works on the window `t[i..i + len + 2]` of a double-length accumulator, so the division by
/// 2^64 is a pointer step rather than a shift, and both passes of a row are the same
/// multiply-accumulate loop.
fn mont_mul(token: core_cpu::Adx, r: &mut [u64], a: &[u64], b: &[u64], n: &[u64], n0: u64) {
    let l = n.len();
    let (r, a, b) = (&mut r[..l], &a[..l], &b[..l]);
    let mut acc = core::mem::MaybeUninit::<[u64; 2 * crate::MAX_BITS / 64 + 2]>::uninit();
    let used = (2 * l + 2).min(2 * crate::MAX_BITS / 64 + 2);
    // SAFETY: the first `used` limbs of `acc` are zeroed before the slice over them is made,
    // so it only ever covers initialised memory; zeroing just those (not the whole 2 KiB
    // array on every call) is the point.
    let t = unsafe {
        let p = acc.as_mut_ptr().cast::<u64>();
        core::ptr::write_bytes(p, 0, used);
        core::slice::from_raw_parts_mut(p, used)
    };
    for (i, &bi) in b.iter().enumerate() {
        let c1 = mul_add_row(token, &mut t[i..i + l], a, bi);
        add_at(t, i + l, c1);
        let m = t[i].wrapping_mul(n0);
        let c2 = mul_add_row(token, &mut t[i..i + l], n, m);
        add_at(t, i + l, c2);
    }
    r.copy_from_slice(&t[l..2 * l]);
    reduce_once(r, t[2 * l], n);
}

/// `r = a²·2^(-64·len) mod n` for `a < n`: the cross products `a[i]·a[j]` (`i < j`) once,
/// row by row with the same loop, doubled, plus the squares, then a Montgomery reduction
/// whose rows are that loop again; about 1.5·len² products instead of 2·len². `scratch`
/// holds `2·len` limbs.
fn mont_sqr(
    token: core_cpu::Adx,
    r: &mut [u64],
    a: &[u64],
    n: &[u64],
    n0: u64,
    scratch: &mut [u64],
) {
    let l = n.len();
    let (r, a) = (&mut r[..l], &a[..l]);
    let t = &mut scratch[..2 * l];
    t.fill(0);
    for i in 0..l - 1 {
        t[i + l] = mul_add_row(token, &mut t[2 * i + 1..i + l], &a[i + 1..], a[i]);
    }
    // Double (the top bit is clear: the cross products are below a²/2) and add the squares.
    let mut c = 0u64;
    for x in t.iter_mut() {
        let v = *x;
        *x = (v << 1) | c;
        c = v >> 63;
    }
    let mut c = 0u64;
    for (i, &ai) in a.iter().enumerate() {
        let sq = ai as u128 * ai as u128;
        let s = t[2 * i] as u128 + (sq as u64) as u128 + c as u128;
        t[2 * i] = s as u64;
        let s2 = t[2 * i + 1] as u128 + (sq >> 64) + (s >> 64);
        t[2 * i + 1] = s2 as u64;
        c = (s2 >> 64) as u64;
    }
    // Reduce: row i clears t[i]; its carry goes to t[i + len], the overflow of that to the
    // next row's top limb.
    let mut hi = 0u64;
    for i in 0..l {
        let m = t[i].wrapping_mul(n0);
        let c = mul_add_row(token, &mut t[i..i + l], n, m);
        let s = t[i + l] as u128 + c as u128 + hi as u128;
        t[i + l] = s as u64;
        hi = (s >> 64) as u64;
    }
    r.copy_from_slice(&t[l..2 * l]);
    reduce_once(r, hi, n);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The final subtraction against the generic one: below, equal to and above `n`, and
    /// with the overflow limb set.
    #[test]
    fn reduce_once_matches_generic() {
        let n = [5u64, 0, 1 << 63];
        for (r, hi) in [
            ([4u64, 0, 1 << 63], 0u64),
            ([5, 0, 1 << 63], 0),
            ([6, 0, 1 << 63], 0),
            ([u64::MAX, u64::MAX, u64::MAX], 0),
            ([3, 0, 0], 1),
            ([0, 0, 0], 0),
        ] {
            let (mut a, mut b) = (r, r);
            reduce_once(&mut a, hi, &n);
            super::super::ops::reduce_once(&mut b, hi, &n);
            assert_eq!(a, b, "{r:?} + {hi}·R");
        }
        let mut one = [7u64];
        reduce_once(&mut one, 0, &[7]);
        assert_eq!(one, [0]);
    }

    /// Against the portable code on awkward values (all-ones limbs make every carry fire).
    #[test]
    fn matches_portable64() {
        let Some(token) = core_cpu::Adx::get() else {
            std::println!("no ADX on this CPU: x86_adx not checked");
            return;
        };
        // Up to the buffers' capacity (less than 64 limbs under a `max-bits-*` cap).
        let lens = [1usize, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 24, 31, 33, 64];
        for l in lens.into_iter().filter(|&l| l <= crate::MAX_BITS / 64) {
            let mut n = std::vec![u64::MAX; l];
            n[0] = u64::MAX - 58; // odd
            let n0 = <u64 as super::super::Word>::neg_inv(n[0]);
            let a: std::vec::Vec<u64> = (0..l).map(|i| u64::MAX - i as u64 * 3).collect();
            let mut b = n.clone();
            b[0] -= 2; // b < n
            let (mut r1, mut r2) = (std::vec![0u64; l], std::vec![0u64; l]);
            mont_mul(token, &mut r1, &a, &b, &n, n0);
            super::super::portable64::mont_mul(&mut r2, &a, &b, &n, n0);
            assert_eq!(r1, r2, "{l} limbs");
            let mut scratch = std::vec![0u64; 2 * l];
            mont_sqr(token, &mut r1, &b, &n, n0, &mut scratch);
            super::super::portable64::mont_mul(&mut r2, &b, &b, &n, n0);
            assert_eq!(r1, r2, "{l} limbs, square");
        }
    }
}
