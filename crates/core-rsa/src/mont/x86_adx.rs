//! Montgomery multiplication on 64-bit limbs with MULX/ADCX/ADOX (BMI2 and ADX), CIOS order as
//! in `portable64`. Each half-row (`t += a·b[i]`, then `t += m·n`) is, with `asm`, one loop of
//! assembly (`core_asm::x86_64::rsa`; without, its Rust twin): MULX
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

/// `t += x·y` over `t.len() == x.len()` limbs; returns the carry limb: with `asm`, the
/// MULX/ADCX/ADOX loop (`core_asm::x86_64::rsa::mul_add_row`); without, its Rust twin.
#[inline]
fn mul_add_row(token: core_cpu::Adx, t: &mut [u64], x: &[u64], y: u64) -> u64 {
    let _ = token;
    #[cfg(feature = "asm")]
    // SAFETY: the `Adx` token proves BMI2 (MULX) and ADX (ADCX/ADOX).
    let carry = unsafe { core_asm::x86_64::rsa::mul_add_row(t, x, y) };
    #[cfg(not(feature = "asm"))]
    let carry = mul_add_row_rust(t, x, y);
    carry
}

/// [`mul_add_row`] in Rust: the kernel's twin.
#[cfg(any(test, not(feature = "asm")))]
fn mul_add_row_rust(t: &mut [u64], x: &[u64], y: u64) -> u64 {
    let mut carry = 0u64;
    for (t, &x) in t.iter_mut().zip(x) {
        let p = u128::from(x) * u128::from(y) + u128::from(*t) + u128::from(carry);
        *t = p as u64;
        carry = (p >> 64) as u64;
    }
    carry
}

/// Brings `hi·2^(64·len) + r`, below `2n`, below `n`: `r - n` goes into a temporary (with
/// `asm`, one SBB chain), and the borrow out of it, as an all-ones or zero mask, picks between the two with AND/OR. (The generic `reduce_once`, two
/// passes with the borrow moved through a register, took a seventh of an RSA signature.)
#[inline]
fn reduce_once(r: &mut [u64], hi: u64, n: &[u64]) {
    let l = r.len().min(n.len()).min(crate::MAX_BITS / 64);
    if l == 0 {
        return;
    }
    let mut t = [core::mem::MaybeUninit::<u64>::uninit(); crate::MAX_BITS / 64];
    let borrow = sub_borrow(&r[..l], &n[..l], t.as_mut_slice());
    // SAFETY: `sub_borrow` wrote the first `l` limbs of `t`; the slice covers only those.
    let t = unsafe { core::slice::from_raw_parts(t.as_ptr().cast::<u64>(), l) };
    // Keep r when it borrowed against n and nothing overflowed (hi is 0 or 1).
    let keep = borrow & hi.wrapping_sub(1);
    for (x, &y) in r[..l].iter_mut().zip(t) {
        *x = (*x & keep) | (y & !keep);
    }
}

/// `t = r − n` limb by limb with the borrow out as a mask: with `asm`, one SBB chain
/// (`core_asm::x86_64::rsa::sub_borrow`); without, its Rust twin.
#[cfg(feature = "asm")]
use core_asm::x86_64::rsa::sub_borrow;

/// [`sub_borrow`] in Rust: `t = r − n` over the shortest length, the borrow as a mask.
#[cfg(any(test, not(feature = "asm")))]
fn sub_borrow_rust(r: &[u64], n: &[u64], t: &mut [core::mem::MaybeUninit<u64>]) -> u64 {
    let mut borrow = 0u64;
    for ((t, &r), &n) in t.iter_mut().zip(r).zip(n) {
        let (d, b1) = r.overflowing_sub(n);
        let (d, b2) = d.overflowing_sub(borrow);
        t.write(d);
        borrow = u64::from(b1 | b2);
    }
    borrow.wrapping_neg()
}

#[cfg(not(feature = "asm"))]
use sub_borrow_rust as sub_borrow;

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

    /// The assembly kernels against their Rust twins, on random limbs of every length up to
    /// nine (every remainder of the four-limb loop, and none).
    #[cfg(feature = "asm")]
    #[test]
    fn kernels_match_rust_twins() {
        use core::mem::MaybeUninit;
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let token = core_cpu::Adx::get();
        for len in 0..10 {
            for _ in 0..50 {
                let x: [u64; 9] = core::array::from_fn(|_| next());
                let n: [u64; 9] = core::array::from_fn(|_| next());
                let t: [u64; 9] = core::array::from_fn(|_| next());
                let y = next();
                let (x, n) = (&x[..len], &n[..len]);
                if let Some(token) = token {
                    let (mut a, mut b) = (t, t);
                    let ca = mul_add_row(token, &mut a[..len], x, y);
                    let cb = mul_add_row_rust(&mut b[..len], x, y);
                    assert_eq!((ca, a), (cb, b), "mul_add_row, {len} limbs");
                }
                let mut ta = [MaybeUninit::new(0u64); 9];
                let mut tb = [MaybeUninit::new(0u64); 9];
                let ba = sub_borrow(x, n, &mut ta);
                let bb = sub_borrow_rust(x, n, &mut tb);
                // SAFETY: both arrays were initialised above.
                let (ta, tb) =
                    unsafe { (ta.map(|w| w.assume_init()), tb.map(|w| w.assume_init())) };
                assert_eq!((ba, ta), (bb, tb), "sub_borrow, {len} limbs");
            }
        }
        if token.is_none() {
            std::println!("mul_add_row: ADX not available on this CPU, kernel not compared");
        }
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
