//! The portable ML-DSA arithmetic: the NTT of FIPS 204 Algorithms 41 and 42 over `i32`
//! coefficients with 32-bit Montgomery multiplication (R = 2^32), and the product in T_q, in
//! plain Rust. Every operation is a fixed sequence of multiplications, additions and shifts:
//! no branch, index or division depends on a coefficient.

use super::poly::{N, Poly, Q, reduce32};

/// q^−1 mod 2^32, by Newton's iteration (each step doubles the correct low bits).
pub(crate) const QINV: i32 = {
    let q = Q as u32;
    let mut x = q; // correct to 3 bits: q·q ≡ 1 (mod 8) for odd q
    let mut i = 0;
    while i < 4 {
        x = x.wrapping_mul(2u32.wrapping_sub(q.wrapping_mul(x)));
        i += 1;
    }
    x.cast_signed()
};

/// `base^exp mod q`.
const fn pow_mod(base: u64, mut exp: u64) -> u64 {
    let q = Q as u64;
    let (mut acc, mut b) = (1, base % q);
    while exp > 0 {
        if exp & 1 == 1 {
            acc = acc * b % q;
        }
        b = b * b % q;
        exp >>= 1;
    }
    acc
}

/// R mod q, R = 2^32.
const R_MOD_Q: u64 = (1u64 << 32) % Q as u64;

/// `x` (in `0..q`) as its representative in `-(q−1)/2..=(q−1)/2`.
const fn centre(x: u64) -> i32 {
    let x = x as i32;
    if x > (Q - 1) / 2 { x - Q } else { x }
}

/// ζ^BitRev8(i)·R mod q for i in 0..256 (FIPS 204 Appendix B's table in Montgomery form),
/// ζ = 1753 the 512th root of unity of FIPS 204 §7.5; computed when compiling.
pub(crate) const ZETAS: [i32; N] = {
    let mut z = [0; N];
    let mut i = 0;
    while i < N {
        let power = pow_mod(1753, (i as u8).reverse_bits() as u64);
        z[i] = centre(power * R_MOD_Q % Q as u64);
        i += 1;
    }
    z
};

/// R²/256 mod q: the inverse NTT's final factor, which undoes its 2^8 and turns the R^−1 of a
/// product in T_q back into an exact result.
pub(crate) const F: i32 =
    centre(R_MOD_Q * R_MOD_Q % Q as u64 * pow_mod(256, Q as u64 - 2) % Q as u64);

/// Montgomery reduction: `a·R^−1 mod q`, in `-q..q`, for `|a| < q·2^31`.
#[cfg(any(test, target_pointer_width = "64"))]
#[inline]
pub(crate) fn montgomery_reduce(a: i64) -> i32 {
    let t = (a as i32).wrapping_mul(QINV);
    ((a - i64::from(t) * i64::from(Q)) >> 32) as i32
}

/// `a·b·R^−1 mod q`, in `-q..q`, for `|a·b| < q·2^31`: one coefficient of a product in T_q.
/// Where 64-bit multiplication is native, [`montgomery_reduce`] of the `i64` product.
#[cfg(target_pointer_width = "64")]
#[inline]
pub(crate) fn product(a: i32, b: i32) -> i32 {
    montgomery_reduce(i64::from(a) * i64::from(b))
}

/// `a·b·R^−1 mod q` as [`product_split`] computes it, where 64-bit products are a call
/// (`__aeabi_lmul` on the Cortex-M0, two per product).
#[cfg(not(target_pointer_width = "64"))]
#[inline(always)]
pub(crate) fn product(a: i32, b: i32) -> i32 {
    product_split(a, b)
}

/// The high word ⌊x·y / 2^32⌋ of the product of `x` and `y` from four 16×16-bit products
/// (32-bit multiplications only), for `|x| + |y| < 2^31 − 2^18`: the middle sum
/// `xh·yl + xl·yh + (xl·yl >> 16)` then fits an `i32`.
#[inline(always)]
fn high_word(x: i32, y: i32) -> i32 {
    let (xh, xl) = (x >> 16, x & 0xffff);
    let (yh, yl) = (y >> 16, y & 0xffff);
    let low = (xl.cast_unsigned() * yl.cast_unsigned()) >> 16;
    let mid = xh * yl + xl * yh + low.cast_signed();
    xh * yh + (mid >> 16)
}

/// Montgomery's `a·b·R^−1` with 32-bit multiplications only, equal to
/// `montgomery_reduce(a·b)`: with t = (a·b mod 2^32)·q^−1 mod 2^32, a·b − t·q is a multiple
/// of 2^32, so its high word is high(a·b) − high(t·q) exactly. For `|a·b| < q·2^31` and
/// `|a| + |b| < 2^31 − 2^18` (the NTTs' operands are far smaller).
#[cfg_attr(target_pointer_width = "64", allow(dead_code))]
#[inline(always)]
fn product_split(a: i32, b: i32) -> i32 {
    let t = a.wrapping_mul(b).wrapping_mul(QINV);
    high_word(a, b) - high_word(t, Q)
}

/// The NTT (FIPS 204 Algorithm 41), in place. Coefficients in `-2^31 + 8q..2^31 − 8q` in;
/// out, each has grown by less than 8q (every layer adds less than q). The loops step by
/// hand: `step_by` divides (`__aeabi_uidiv` on the Cortex-M0).
pub(crate) fn ntt(p: &mut Poly) {
    let a = &mut p.0;
    let mut m = 0;
    let mut len = 128;
    while len >= 1 {
        let mut start = 0;
        while start < N {
            m += 1;
            let zeta = ZETAS[m];
            for j in start..start + len {
                let t = product(zeta, a[j + len]);
                a[j + len] = a[j] - t;
                a[j] += t;
            }
            start += 2 * len;
        }
        len >>= 1;
    }
}

/// The inverse NTT (FIPS 204 Algorithm 42) times R, in place: any coefficients below
/// 2^31 − 2^22 in absolute value in (they are first reduced below 6 283 009), `-q..q` out.
/// Applied to a sum of [`pointwise_acc`] products it gives the exact product in R_q.
pub(crate) fn inv_ntt(p: &mut Poly) {
    let a = &mut p.0;
    for c in a.iter_mut() {
        *c = reduce32(*c);
    }
    let mut m = N;
    let mut len = 1;
    while len < N {
        let mut start = 0;
        while start < N {
            m -= 1;
            let zeta = -ZETAS[m];
            for j in start..start + len {
                // The sums double each layer: at most 6 283 008·2^8 < 2^31 at the end.
                let t = a[j];
                a[j] = t + a[j + len];
                a[j + len] = product(zeta, t - a[j + len]);
            }
            start += 2 * len;
        }
        len <<= 1;
    }
    for c in a.iter_mut() {
        *c = product(F, *c);
    }
}

/// `acc += a ∘ b · R^−1` coefficient-wise (FIPS 204 Algorithm 45 with the Montgomery factor):
/// each call adds less than q to each coefficient of `acc`. `|a·b| < q·2^31` for each pair
/// (true of any two NTT outputs of this crate's inputs).
pub(crate) fn pointwise_acc(acc: &mut Poly, a: &Poly, b: &Poly) {
    for ((c, x), y) in acc.0.iter_mut().zip(&a.0).zip(&b.0) {
        *c += product(*x, *y);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn modq(x: i64) -> i64 {
        x.rem_euclid(i64::from(Q))
    }

    #[test]
    fn constants_are_as_fips_204_gives_them() {
        assert_eq!(QINV.wrapping_mul(Q), 1);
        assert_eq!(QINV, 58_728_449);
        // Appendix B: zetas[1] = 4808194 (before the Montgomery factor).
        let r_inv = pow_mod(R_MOD_Q, Q as u64 - 2).cast_signed();
        assert_eq!(modq(i64::from(ZETAS[1]) * r_inv), 4_808_194);
        assert_eq!(modq(i64::from(F)), 41_978);
    }

    /// NTT, product in T_q and inverse NTT multiply in Z_q[X]/(X^256 + 1): checked against
    /// schoolbook multiplication, with one factor as large as a mask y and one as small as s.
    #[test]
    fn ntt_multiplication_matches_schoolbook() {
        let a: [i32; N] =
            core::array::from_fn(|i| ((i as u32 * 7919 + 3) % (1 << 20)).cast_signed() - (1 << 19));
        let b: [i32; N] =
            core::array::from_fn(|i| ((i as u32 * i as u32 * 31 + 11) % 9).cast_signed() - 4);
        let mut want = [0i64; N];
        for i in 0..N {
            for j in 0..N {
                let prod = i64::from(a[i]) * i64::from(b[j]);
                if i + j < N {
                    want[i + j] += prod;
                } else {
                    want[i + j - N] -= prod;
                }
            }
        }
        let (mut pa, mut pb) = (Poly(a), Poly(b));
        ntt(&mut pa);
        ntt(&mut pb);
        let mut acc = Poly::ZERO;
        pointwise_acc(&mut acc, &pa, &pb);
        inv_ntt(&mut acc);
        for (i, (got, want)) in acc.0.iter().zip(want).enumerate() {
            assert!(got.abs() < Q);
            assert_eq!(modq(i64::from(*got)), modq(want), "coefficient {i}");
        }
    }

    /// The 32-bit-only product is Montgomery's, at the extremes of its ranges and on a spread
    /// of operands.
    #[test]
    fn product_split_is_montgomery_reduce() {
        let bound = i32::MAX - (1 << 18);
        let check = |a: i32, b: i32| {
            let want = montgomery_reduce(i64::from(a) * i64::from(b));
            assert_eq!(product_split(a, b), want, "{a}·{b}");
        };
        for (a, b) in [(0, 0), (Q - 1, bound - Q), (-Q, -(bound - Q)), (1_608_000_000, F)] {
            check(a, b);
        }
        let mut x = 0x1234_5678u32;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let a = (x.cast_signed() >> (x & 7)).clamp(-(bound - Q), bound - Q);
            let b = (x.rotate_left(11) & 0x00ff_ffff).cast_signed() - (1 << 23);
            check(a, b.clamp(-Q, Q));
        }
    }

    #[test]
    fn montgomery_reduce_is_exact_at_its_bounds() {
        let r_inv = pow_mod(R_MOD_Q, Q as u64 - 2).cast_signed();
        let bound = i64::from(Q) << 31;
        for a in [-bound + 1, -1, 0, 1, 123_456_789_012, bound - 1] {
            let r = montgomery_reduce(a);
            assert!(r.abs() < Q, "{a}");
            assert_eq!(modq(i64::from(r)), modq(modq(a) * r_inv), "{a}");
        }
    }
}
