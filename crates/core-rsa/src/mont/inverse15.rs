//! Modular inversion for the blinding factor on the 15-bit engine's digits (the Cortex-M0's):
//! the optimised binary GCD of [`inverse`](super::inverse) (Pornin, IACR ePrint 2020/972,
//! algorithm 2) with one digit's worth of steps, 15, per outer step, on 32-bit approximations
//! of `a` and `b` (their low 15 and top 17 bits). The transition matrix's entries are then
//! below `2^15`, so every product of a digit and an entry fits 32 bits (no 64-bit multiply
//! routine on the Cortex-M0), and the exact division by `2^15` that ends each update drops one
//! digit: the updates run in place on the digits, with no conversion to 64-bit limbs.
//!
//! VARIABLE TIME: the caller inverts a value multiplied by a fresh random factor.

use super::ops::{Word, add, is_zero_vartime, lt_vartime, sub};

/// Binary-GCD steps per outer step: the digit width.
const K: u32 = 15;
const MASK: u32 = (1 << K) - 1;

/// Digit `i` of `a` as a `u32` (0 beyond its digits).
fn digit<W: Word>(a: &[W], i: usize) -> u32 {
    a.get(i).map_or(0, |&d| d.to_u64() as u32)
}

/// The bit length of `a`. A loop rather than `leading_zeros`, which is a library routine on
/// the Cortex-M0.
fn bit_len<W: Word>(a: &[W]) -> usize {
    let Some(i) = a.iter().rposition(|&d| d != W::ZERO) else { return 0 };
    let (d, mut n) = (digit(a, i), 0);
    while d >> n != 0 {
        n += 1;
    }
    K as usize * i + n
}

/// The 32-bit approximation of `a` for a pass on numbers of `n ≥ 32` bits: bits
/// `[n − 17, n)` above the low 15 bits.
fn approx<W: Word>(a: &[W], n: usize) -> u32 {
    let pos = n - (K as usize + 2);
    let (i, s) = (pos / K as usize, (pos % K as usize) as u32);
    let top = (digit(a, i) >> s) | (digit(a, i + 1) << (K - s)) | (digit(a, i + 2) << (2 * K - s));
    (top << K) | digit(a, 0)
}

/// Negates the `K`-bit two's complement number `a` in place.
fn negate<W: Word>(a: &mut [W]) {
    let mut c = 1;
    for d in a {
        let t = (!(d.to_u64() as u32) & MASK) + c;
        *d = W::from_u64(u64::from(t));
        c = t >> K;
    }
}

/// `x ← x + top·2^(K·l) mod m` for a value in `(−m, 2m)` (`top` in `{−1, 0, 1}`).
fn fix<W: Word>(x: &mut [W], top: i32, m: &[W]) {
    if top < 0 {
        add(x, m);
    } else if top > 0 || !lt_vartime(x, m) {
        sub(x, m);
    }
}

/// The factors of one outer step: `(a, b) ← ((a·f0 + b·g0)/2^K, (a·f1 + b·g1)/2^K)`, with
/// `|f| + |g| ≤ 2^K`.
#[derive(Clone, Copy)]
struct Factors {
    f0: i32,
    g0: i32,
    f1: i32,
    g1: i32,
}

/// `(x, y) ← ((x·f0 + y·g0 + k0·m)/2^K, (x·f1 + y·g1 + k1·m)/2^K)` in place, for `k0, k1 < 2^K`
/// making both divisions exact (0 when they are already); each result is kept to `x.len()`
/// digits and its part above them (signed: −1, 0 or 1 here) is returned. One function for
/// `a, b` and for the cofactors. A digit's sum is at most
/// `(2^15 − 1)·2^15 + (2^15 − 1)^2 + 2^16 < 2^31` (the carry stays below `2^16`): an `i32`.
#[inline(never)]
#[allow(clippy::cast_possible_wrap, clippy::cast_sign_loss)] // two's complement digits
fn update<W: Word>(x: &mut [W], y: &mut [W], m: &[W], t: Factors, k0: i32, k1: i32) -> (i32, i32) {
    let l = x.len();
    let (y, m) = (&mut y[..l], &m[..l]);
    let (mut cx, mut cy) = (0i32, 0i32);
    for j in 0..l {
        let (xj, yj, mj) = (x[j].to_u64() as i32, y[j].to_u64() as i32, m[j].to_u64() as i32);
        let sx = cx + xj * t.f0 + yj * t.g0 + k0 * mj;
        let sy = cy + xj * t.f1 + yj * t.g1 + k1 * mj;
        // Digit 0 of each sum is zero: the division drops it.
        if j > 0 {
            x[j - 1] = W::from_u64(u64::from(sx as u32));
            y[j - 1] = W::from_u64(u64::from(sy as u32));
        }
        cx = sx >> K;
        cy = sy >> K;
    }
    x[l - 1] = W::from_u64(u64::from(cx as u32));
    y[l - 1] = W::from_u64(u64::from(cy as u32));
    (cx >> K, cy >> K)
}

/// `y^-1 mod m` into `out` for odd `m > 1` and `y < m`, all of `m.len()` 15-bit digits;
/// `false` if `y` is not invertible. `m0` is `−m^-1 mod 2^15`.
pub(crate) fn inv_mod_vartime<W: Word>(out: &mut [W], y: &[W], m: &[W], m0: W) -> bool {
    debug_assert_eq!(W::BITS, K);
    let l = m.len();
    let (mut a, mut b, mut u, mut v) = (W::buf(), W::buf(), W::buf(), W::buf());
    let (a, b) = (&mut a.as_mut()[..l], &mut b.as_mut()[..l]);
    let (u, v) = (&mut u.as_mut()[..l], &mut v.as_mut()[..l]);
    a.copy_from_slice(&y[..l]);
    b.copy_from_slice(m);
    u[0] = W::ONE;
    // Invariants: a ≡ y·u and b ≡ y·v (mod m); b is odd. Every pass removes about K bits
    // from a and b together, so far fewer than this many passes are needed; the bound only
    // makes the loop certain to end.
    for _ in 0..4 * l + 8 {
        if is_zero_vartime(a) {
            out[..l].copy_from_slice(v);
            return b[0] == W::ONE && is_zero_vartime(&b[1..]);
        }
        let n = bit_len(a).max(bit_len(b)).max(2 * K as usize + 2);
        // The digits the values need (they never grow), and one more.
        let la = (n.div_ceil(K as usize) + 1).min(l);
        let (mut xa, mut xb) = (approx(a, n), approx(b, n));
        let (mut f0, mut g0, mut f1, mut g1) = (1i32, 0i32, 0i32, 1i32);
        // K steps on the approximations: their low K bits are exact, so every parity is.
        for _ in 0..K {
            if xa & 1 == 1 {
                if xa < xb {
                    (xa, xb, f0, f1, g0, g1) = (xb, xa, f1, f0, g1, g0);
                }
                xa -= xb;
                f0 -= f1;
                g0 -= g1;
            }
            xa >>= 1;
            f1 <<= 1;
            g1 <<= 1;
        }
        // a and b as magnitudes; a negative one turns its factors round.
        let (ta, tb) = update(&mut a[..la], &mut b[..la], m, Factors { f0, g0, f1, g1 }, 0, 0);
        if ta < 0 {
            negate(&mut a[..la]);
            (f0, g0) = (-f0, -g0);
        }
        if tb < 0 {
            negate(&mut b[..la]);
            (f1, g1) = (-f1, -g1);
        }
        // The multiples of m that make the cofactors' sums divisible by 2^K.
        #[allow(clippy::cast_possible_wrap, clippy::cast_sign_loss)]
        let k = |f: i32, g: i32| {
            let low = (u[0].to_u64() as i32 * f + v[0].to_u64() as i32 * g) as u32;
            (low.wrapping_mul(m0.to_u64() as u32) & MASK) as i32
        };
        let (k0, k1) = (k(f0, g0), k(f1, g1));
        let (tu, tv) = update(u, v, m, Factors { f0, g0, f1, g1 }, k0, k1);
        fix(u, tu, m);
        fix(v, tv, m);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    /// Against the 64-bit-limb inversion (the hosts'), through byte conversions: small and
    /// edge values (1, 2, m − 1, m − 2, powers of two) and random ones, for moduli from one
    /// digit to RSA-2048's 137, including ones sharing a factor with `y`.
    #[test]
    fn matches_the_64_bit_inversion() {
        use super::super::ops::{load_be, store_be};
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut checked = 0;
        for l in [1usize, 2, 3, 4, 5, 9, 17, 35, 69, 137] {
            let bytes = (15 * l).div_ceil(8);
            let limbs = bytes.div_ceil(8);
            for round in 0u16..40 {
                let mut m: Vec<u16> = (0..l).map(|_| next() as u16 & 0x7fff).collect();
                m[0] |= 1;
                if l == 1 {
                    m[0] |= 2; // m > 1
                }
                // Full-length moduli mostly; some with a short top digit, some all ones
                // (the largest products and carries).
                m[l - 1] |= if round % 3 == 0 { 1 } else { 1 << 14 };
                if round % 8 == 7 {
                    m.fill(0x7fff);
                }
                let mut y = std::vec![0u16; l];
                match round {
                    0 => y[0] = 1,
                    1 => y[0] = 2,
                    2 => y[l - 1] = m[l - 1] >> 1,
                    3 | 4 => {
                        y.copy_from_slice(&m);
                        y[0] -= round - 2; // m − 1, m − 2
                    }
                    5 => y[0] = 3, // shares a factor with m sometimes
                    _ => {
                        for d in &mut y {
                            *d = next() as u16 & 0x7fff;
                        }
                        y[l - 1] %= m[l - 1].max(1);
                    }
                }
                if y.iter().all(|&d| d == 0) || !lt_vartime(&y, &m) {
                    continue;
                }
                let mut inv15 = std::vec![0u16; l];
                let ok15 = inv_mod_vartime(&mut inv15, &y, &m, u16::neg_inv(m[0]));
                let (mut mb, mut yb) = (std::vec![0u8; bytes], std::vec![0u8; bytes]);
                store_be(&m, &mut mb);
                store_be(&y, &mut yb);
                let (mut m64, mut y64, mut r64) =
                    (std::vec![0u64; limbs], std::vec![0u64; limbs], std::vec![0u64; limbs]);
                assert!(load_be(&mut m64, &mb) && load_be(&mut y64, &yb));
                let ok64 = super::super::inverse::inv_mod_vartime(
                    &mut r64,
                    &y64,
                    &m64,
                    u64::neg_inv(m64[0]),
                );
                assert_eq!(ok15, ok64, "{l} digits, round {round}");
                if ok64 {
                    let mut rb = std::vec![0u8; 8 * limbs];
                    store_be(&r64, &mut rb);
                    let mut want = std::vec![0u16; l];
                    assert!(load_be(&mut want, &rb));
                    assert_eq!(inv15, want, "{l} digits, round {round}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 150, "{checked}");
        let mut out = [0u16; 1];
        assert!(!inv_mod_vartime(&mut out, &[0], &[9], u16::neg_inv(9)), "zero");
        assert!(!inv_mod_vartime(&mut out, &[6], &[9], u16::neg_inv(9)), "gcd 3");
        assert!(inv_mod_vartime(&mut out, &[2], &[9], u16::neg_inv(9)));
        assert_eq!(out, [5]);
    }
}
