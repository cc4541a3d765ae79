//! Modular inversion for the blinding factor: Pornin's optimised binary GCD (IACR ePrint
//! 2020/972, algorithm 2) on 64-bit limbs, in its variable-time form. Each outer step runs 62
//! binary-GCD steps on 128-bit approximations of `a` and `b` (their low 62 and top 66 bits),
//! then applies the resulting transition matrix to the full numbers and to the cofactors,
//! dividing the cofactors by 2^62 modulo `m` on the way (a Montgomery-style exact division), so
//! about `2·bits/62` passes over the numbers replace the `2·bits` of the textbook algorithm.
//! (The paper's 31 steps on 64-bit words suit 32-bit multipliers; with `u128` products the
//! matrix entries can reach 2^62 and every pass does twice the work.)
//!
//! VARIABLE TIME: the caller inverts a value multiplied by a fresh random factor.

/// The largest number of 64-bit limbs handled, plus one for intermediate sums.
const CAP: usize = crate::MAX_BITS / 64 + 1;

/// Binary-GCD steps per outer step.
const K: u32 = 62;

/// Bits `[pos, pos + 128 - K)` of `a` (zeros beyond its limbs).
fn top_bits(a: &[u64], pos: usize) -> u128 {
    let (w, s) = (pos / 64, pos % 64);
    let limb = |i: usize| u128::from(a.get(i).copied().unwrap_or(0));
    let lo = (limb(w) | (limb(w + 1) << 64)) >> s;
    let hi = if s == 0 { 0 } else { limb(w + 2) << (128 - s) };
    (lo | hi) & ((1 << (128 - K)) - 1)
}

fn bit_len(a: &[u64]) -> usize {
    a.iter().rposition(|&w| w != 0).map_or(0, |i| 64 * i + 64 - a[i].leading_zeros() as usize)
}

/// `(a·f + b·g) / 2^K` for a result known to be exact, as a magnitude in `out` and a sign;
/// one pass, each limb of the result written as soon as the limb above it is known.
#[allow(clippy::cast_sign_loss, clippy::cast_possible_truncation)] // two's complement limbs
fn lincomb_shift(out: &mut [u64], a: &[u64], b: &[u64], f: i64, g: i64) -> bool {
    let l = a.len();
    let mut carry: i128 = 0;
    let mut prev = 0u64;
    for j in 0..l {
        let acc = carry + a[j] as i128 * i128::from(f) + b[j] as i128 * i128::from(g);
        let lo = acc as u64;
        carry = acc >> 64;
        if j > 0 {
            out[j - 1] = (prev >> K) | (lo << (64 - K));
        }
        prev = lo;
    }
    out[l - 1] = (prev >> K) | ((carry as u64) << (64 - K));
    let neg = carry < 0;
    if neg {
        // Two's complement negation of the l-limb result (it fits: |a·f + b·g|/2^K < 2^(64l)).
        let mut c = 1u64;
        for o in out.iter_mut().take(l) {
            let (v, c1) = (!*o).overflowing_add(c);
            *o = v;
            c = u64::from(c1);
        }
    }
    neg
}

/// `(u·f + v·g) / 2^K mod m` for `u, v < m` and `|f| + |g| ≤ 2^K`; `m0` is `-m^-1 mod 2^64`.
/// One pass computes `t = u·f + v·g + k·m` (signed, with `k < 2^K` making it divisible by
/// 2^K) on two carry chains, one more shifts it down: the result lies in `(-m, 2m)`, and at
/// most one addition or subtraction of `m` brings it into `[0, m)`.
#[allow(clippy::cast_sign_loss, clippy::cast_possible_truncation)] // two's complement limbs
fn lincomb_mod(out: &mut [u64], u: &[u64], v: &[u64], f: i64, g: i64, m: &[u64], m0: u64) {
    let l = m.len();
    let low = u[0].wrapping_mul(f as u64).wrapping_add(v[0].wrapping_mul(g as u64));
    let k = low.wrapping_mul(m0) & ((1 << K) - 1);
    let mut t = [0u64; CAP + 1];
    // |u·f + v·g| < 2^(64+K) per limb: the signed chain; k·m[j] on an unsigned one.
    let (mut cs, mut cu): (i128, u128) = (0, 0);
    for j in 0..l {
        let s = cs + u[j] as i128 * i128::from(f) + v[j] as i128 * i128::from(g);
        cs = s >> 64;
        let w = cu + u128::from(s as u64) + u128::from(m[j]) * u128::from(k);
        t[j] = w as u64;
        cu = w >> 64;
    }
    // The value is t[..l] + top·2^(64·l), top small and signed.
    let top = cs + cu.cast_signed(); // cu < 2^63
    t[l] = top as u64;
    for j in 0..l {
        out[j] = (t[j] >> K) | (t[j + 1] << (64 - K));
    }
    match top >> K {
        hi if hi < 0 => {
            let mut c = false;
            for (o, &mj) in out.iter_mut().zip(m) {
                let (x, c1) = o.overflowing_add(mj);
                let (x, c2) = x.overflowing_add(u64::from(c));
                (*o, c) = (x, c1 | c2);
            }
        }
        hi => {
            if hi > 0 || !super::ops::lt_vartime(&out[..l], m) {
                let mut b = false;
                for (o, &mj) in out.iter_mut().zip(m) {
                    let (x, b1) = o.overflowing_sub(mj);
                    let (x, b2) = x.overflowing_sub(u64::from(b));
                    (*o, b) = (x, b1 | b2);
                }
            }
        }
    }
}

/// `y^-1 mod m` into `out` for odd `m > 1` and `y < m`; `false` if `y` is not invertible.
/// `m0` is `-m^-1 mod 2^64`.
pub(crate) fn inv_mod_vartime(out: &mut [u64], y: &[u64], m: &[u64], m0: u64) -> bool {
    let l = m.len();
    let (mut a, mut b, mut u, mut v) = ([0u64; CAP], [0u64; CAP], [0u64; CAP], [0u64; CAP]);
    a[..l].copy_from_slice(&y[..l]);
    b[..l].copy_from_slice(m);
    u[0] = 1;
    let (mut na, mut nb, mut nu, mut nv) = ([0u64; CAP], [0u64; CAP], [0u64; CAP], [0u64; CAP]);
    // Invariants: a ≡ y·u and b ≡ y·v (mod m); b is odd.
    while a[..l].iter().any(|&w| w != 0) {
        let n = bit_len(&a[..l]).max(bit_len(&b[..l])).max(128);
        let approx = |x: &[u64]| {
            u128::from(x[0] & ((1 << K) - 1)) | (top_bits(x, n - (128 - K as usize)) << K)
        };
        let (mut aa, mut bb) = (approx(&a[..l]), approx(&b[..l]));
        let (mut f0, mut g0, mut f1, mut g1) = (1i64, 0i64, 0i64, 1i64);
        // The subtractions are branch-free (whether to swap is unpredictable, and a
        // mispredicted branch costs more than the masked work); the halvings that follow one
        // (at least one, two on average) run as a single shift by the trailing zeros. The
        // result is that of K single steps.
        let mut left = K;
        while left > 0 {
            let odd = (aa & 1).wrapping_neg();
            let swap = odd & u128::from(aa < bb).wrapping_neg();
            let t = (aa ^ bb) & swap;
            (aa, bb) = (aa ^ t, bb ^ t);
            aa -= bb & odd;
            #[allow(clippy::cast_possible_truncation)] // all ones or zero
            let (odd, swap) = (odd as i64, swap as i64);
            let t = (f0 ^ f1) & swap;
            (f0, f1) = (f0 ^ t, f1 ^ t);
            let t = (g0 ^ g1) & swap;
            (g0, g1) = (g0 ^ t, g1 ^ t);
            f0 -= f1 & odd;
            g0 -= g1 & odd;
            // aa is even here (or zero): at least one halving.
            let z = aa.trailing_zeros().min(left);
            aa >>= z;
            f1 <<= z;
            g1 <<= z;
            left -= z;
        }
        if lincomb_shift(&mut na, &a[..l], &b[..l], f0, g0) {
            f0 = -f0;
            g0 = -g0;
        }
        if lincomb_shift(&mut nb, &a[..l], &b[..l], f1, g1) {
            f1 = -f1;
            g1 = -g1;
        }
        lincomb_mod(&mut nu, &u[..l], &v[..l], f0, g0, m, m0);
        lincomb_mod(&mut nv, &u[..l], &v[..l], f1, g1, m, m0);
        a[..l].copy_from_slice(&na[..l]);
        b[..l].copy_from_slice(&nb[..l]);
        u[..l].copy_from_slice(&nu[..l]);
        v[..l].copy_from_slice(&nv[..l]);
    }
    let one = b[0] == 1 && b[1..l].iter().all(|&w| w == 0);
    out[..l].copy_from_slice(&v[..l]);
    one
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec;
    use std::vec::Vec;

    fn neg_inv(m: u64) -> u64 {
        let mut y = m;
        for _ in 0..6 {
            y = y.wrapping_mul(2u64.wrapping_sub(m.wrapping_mul(y)));
        }
        y.wrapping_neg()
    }

    /// Against single-limb arithmetic, and a multi-limb inverse checked by multiplying back.
    #[test]
    fn inverts() {
        for (y, m) in [(3u64, 7u64), (1, 7), (6, 7), (12345, 1_000_003), (2, 0xffff_ffff_ffff_fffb)]
        {
            let mut out = [0u64; 1];
            assert!(inv_mod_vartime(&mut out, &[y], &[m], neg_inv(m)));
            assert_eq!((out[0] as u128 * y as u128) % m as u128, 1, "{y}^-1 mod {m}");
        }
        let mut out = [0u64; 1];
        assert!(!inv_mod_vartime(&mut out, &[3], &[9], neg_inv(9)), "gcd 3");
        // Multi-limb: y·y^-1 ≡ 1, checked with Montgomery multiplication (a·b/R, then ·R²/R).
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        // Up to the buffers' capacity (less than 128 limbs under a `max-bits-*` cap).
        for l in [2usize, 5, 16, 32, 64, 128].into_iter().filter(|&l| l <= crate::MAX_BITS / 64) {
            for _ in 0..8 {
                let mut m: Vec<u64> = (0..l).map(|_| next()).collect();
                m[0] |= 1;
                m[l - 1] |= 1 << 63;
                let mut y: Vec<u64> = (0..l).map(|_| next()).collect();
                y[l - 1] >>= 1 + (next() % 60) as u32;
                let mut inv = vec![0u64; l];
                let n0 = neg_inv(m[0]);
                if !inv_mod_vartime(&mut inv, &y, &m, n0) {
                    continue; // y shares a factor with m
                }
                let mut t = vec![0u64; l];
                super::super::portable64::mont_mul(&mut t, &y, &inv, &m, n0); // y·inv/R
                // Multiply back by R: y·inv/R · R² / R, with R² from a Montgomery context.
                let mut bytes = vec![0u8; 8 * l];
                for (i, w) in m.iter().rev().enumerate() {
                    bytes[8 * i..8 * i + 8].copy_from_slice(&w.to_be_bytes());
                }
                let ctx = super::super::Mont::<u64>::new(super::super::Portable64, &bytes).unwrap();
                let mut one = vec![0u64; l];
                super::super::portable64::mont_mul(&mut one, &t, ctx.rr(), &m, n0);
                assert_eq!(one[0], 1, "{l} limbs");
                assert!(one[1..].iter().all(|&w| w == 0), "{l} limbs");
            }
        }
        assert!(!inv_mod_vartime(&mut out, &[0], &[9], neg_inv(9)), "zero");
    }
}
