//! The field GF(2^255 − 19) as every implementation provides it: the [`Field`] trait the curve
//! code is generic over, and what is built from its operations alone — inversion and the
//! square root of a ratio by Fermat's little theorem, with one fixed addition chain, so their
//! running time never depends on the value (implementations may replace the inversion, as the
//! 64-bit ones do with safegcd).

use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};

use super::edwards::Niels;

/// One representation of GF(2^255 − 19). Values need not be fully reduced; `to_bytes` is the
/// only canonical form.
///
/// Bounds: the outputs of `from_bytes`, `mul`, `square`, `sub`, `neg` and `mul_a24` are
/// "reduced" and may feed any operation; the output of `add` may feed `mul`, `square`, `sub`
/// and one more `add` with a reduced operand, but no longer chain.
pub(crate) trait Field: Copy + ConditionallySelectable + 'static {
    /// Zero.
    const ZERO: Self;
    /// One.
    const ONE: Self;
    /// The curve constant `d = −121665/121666` of edwards25519.
    const D: Self;
    /// `2d`.
    const D2: Self;
    /// A square root of −1, `2^((p−1)/4)`.
    const SQRT_M1: Self;

    /// The element whose little-endian encoding is `bytes`, the top bit ignored; values from
    /// p to 2^255 − 1 are accepted and reduced (RFC 7748 §5).
    fn from_bytes(bytes: &[u8; 32]) -> Self;
    /// The canonical (fully reduced) little-endian encoding.
    fn to_bytes(&self) -> [u8; 32];
    /// `self + rhs`.
    fn add(&self, rhs: &Self) -> Self;
    /// `self − rhs`.
    fn sub(&self, rhs: &Self) -> Self;
    /// `self · rhs`.
    fn mul(&self, rhs: &Self) -> Self;
    /// `self²`.
    fn square(&self) -> Self;
    /// `self · 121665`, the ladder's `(A − 2)/4` for Curve25519 (RFC 7748 §5).
    fn mul_a24(&self) -> Self;

    /// `self + 121665·e` in place, the ladder's `AA + a24·E` (the output of an `add`, or
    /// reduced where an implementation fuses the two); a field may do it in one pass.
    #[inline]
    fn add_mul_a24(&mut self, e: &Self) {
        *self = self.add(&e.mul_a24());
    }

    /// `−self`.
    #[inline]
    fn neg(&self) -> Self {
        Self::ZERO.sub(self)
    }

    /// The rows of the fixed-base comb of [`super::edwards`]: `rows()[i][j]` is
    /// `(j + 1)·16^(2i)·B`. Either all 32 rows (the fast comb) or only the first one (the small
    /// table: a radix-16 Horner evaluation with four doublings per digit, for small flash).
    fn comb() -> &'static [[Niels<Self>; 8]];
    /// `(2i + 1)·B` for `i` below the table's length (a power of two, 8 to 64): the
    /// base-point table of variable-time verification.
    fn odd_b() -> &'static [Niels<Self>];

    /// `*out = self · rhs`; an implementation may write `out` directly instead of through a
    /// returned value (which the ladder would copy).
    #[inline]
    fn mul_to(&self, rhs: &Self, out: &mut Self) {
        *out = self.mul(rhs);
    }

    /// `*out = self²`, as [`Field::mul_to`].
    #[inline]
    fn square_to(&self, out: &mut Self) {
        *out = self.square();
    }

    /// `self^(2^n)`.
    #[inline]
    fn square_n(&self, n: u32) -> Self {
        let mut x = self.square();
        for _ in 1..n {
            x = x.square();
        }
        x
    }

    /// Whether the value is zero (modulo p).
    fn is_zero(&self) -> Choice {
        self.to_bytes().ct_eq(&[0; 32])
    }

    /// Whether the canonical value is odd: the "negative" of RFC 8032 §5.1.2.
    fn is_negative(&self) -> Choice {
        Choice::from(self.to_bytes()[0] & 1)
    }

    /// Whether the two are equal modulo p: whether their difference is zero, so that one
    /// canonical reduction ([`Field::is_zero`]'s) serves both checks.
    fn equals(&self, other: &Self) -> Choice {
        self.sub(other).is_zero()
    }

    /// `self^-1` (zero for zero), as `self^(p−2)`.
    fn invert(&self) -> Self {
        let (t250, z11) = pow_2_250_1(self);
        t250.square_n(5).mul(&z11)
    }

    /// [`Field::invert`] in variable time, for public values only (verification); the same
    /// unless the implementation has a faster variable-time inversion.
    fn invert_vartime(&self) -> Self {
        self.invert()
    }

    /// `self^((p−5)/8)` = `self^(2^252 − 3)`, the core of the square root.
    fn pow_p58(&self) -> Self {
        let (t250, _) = pow_2_250_1(self);
        t250.square_n(2).mul(self)
    }
}

/// `(x^(2^250 − 1), x^11)`: the shared prefix of the inversion and square-root chains (11
/// multiplications, 249 squarings).
fn pow_2_250_1<F: Field>(x: &F) -> (F, F) {
    let z2 = x.square();
    let z9 = z2.square_n(2).mul(x);
    let z11 = z9.mul(&z2);
    let t5 = z11.square().mul(&z9); // 2^5 − 1
    let t10 = t5.square_n(5).mul(&t5);
    let t20 = t10.square_n(10).mul(&t10);
    let t40 = t20.square_n(20).mul(&t20);
    let t50 = t40.square_n(10).mul(&t10);
    let t100 = t50.square_n(50).mul(&t50);
    let t200 = t100.square_n(100).mul(&t100);
    let t250 = t200.square_n(50).mul(&t50);
    (t250, z11)
}

/// `(true, sqrt(u/v))` if `u/v` is a square, `(false, _)` otherwise (RFC 8032 §5.1.3): the
/// candidate `u·v³·(u·v⁷)^((p−5)/8)` is right, or right after multiplying by `sqrt(−1)`.
/// Constant-time in `u` and `v`. The root returned may be either sign.
pub(crate) fn sqrt_ratio<F: Field>(u: &F, v: &F) -> (Choice, F) {
    let v3 = v.square().mul(v);
    let v7 = v3.square().mul(v);
    let mut r = u.mul(&v3).mul(&u.mul(&v7).pow_p58());
    let check = v.mul(&r.square());
    let correct = check.equals(u);
    let flipped = check.equals(&u.neg());
    let r_i = r.mul(&F::SQRT_M1);
    r.conditional_assign(&r_i, flipped);
    (correct | flipped, r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve25519::portable32;
    #[cfg(target_pointer_width = "64")]
    use crate::curve25519::portable64;

    fn fe<F: Field>(n: u8) -> F {
        let mut b = [0u8; 32];
        b[0] = n;
        F::from_bytes(&b)
    }

    fn inversion_and_roots<F: Field>() {
        for n in 1..40u8 {
            let x = fe::<F>(n);
            assert_eq!(x.mul(&x.invert()).to_bytes(), F::ONE.to_bytes(), "{n}·{n}⁻¹");
        }
        assert_eq!(F::ZERO.invert().to_bytes(), [0; 32]);
        assert_eq!(F::SQRT_M1.square().to_bytes(), F::ONE.neg().to_bytes());
        // 4 is a square, 2 is not (p ≡ 5 mod 8).
        let (ok, r) = sqrt_ratio(&fe::<F>(4), &F::ONE);
        assert!(bool::from(ok));
        assert_eq!(r.square().to_bytes(), fe::<F>(4).to_bytes());
        let (ok, _) = sqrt_ratio(&fe::<F>(2), &F::ONE);
        assert!(!bool::from(ok));
        // −1 is a square with root sqrt(−1).
        let (ok, r) = sqrt_ratio(&F::ONE.neg(), &F::ONE);
        assert!(bool::from(ok));
        assert_eq!(r.square().to_bytes(), F::ONE.neg().to_bytes());
        assert_eq!(F::D2.to_bytes(), F::D.add(&F::D).to_bytes());
    }

    #[test]
    #[cfg(target_pointer_width = "64")]
    fn portable64_inversion_and_roots() {
        inversion_and_roots::<portable64::Fe>();
    }

    #[test]
    fn portable32_inversion_and_roots() {
        inversion_and_roots::<portable32::Fe>();
    }

    #[cfg(all(target_arch = "x86_64", feature = "asm"))]
    #[test]
    fn x86_adx_inversion_and_roots() {
        if core_cpu::Adx::get().is_some() {
            inversion_and_roots::<crate::curve25519::x86_adx::Fe>();
        }
    }

    /// A deterministic pseudo-random 32-byte string.
    fn bytes(seed: u64) -> [u8; 32] {
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        core::array::from_fn(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
    }

    /// Every operation of `F` against `portable32` on random and extreme values, also on
    /// chained (unreduced) results.
    fn agrees_with_portable32<F: Field>() {
        type R = portable32::Fe;
        let mut edge = [0xffu8; 32];
        edge[31] = 0x7f; // 2^255 − 1, above p
        let mut p = edge;
        p[0] = 0xed; // p itself
        // A handful under Miri, which runs this thousands of times slower.
        let cases = if cfg!(miri) { 8 } else { 2000 };
        for seed in 0..cases {
            let (x, y) = match seed {
                0 => (edge, edge),
                1 => (p, edge),
                2 => (p, p),
                _ => (bytes(seed), bytes(seed + 77_777)),
            };
            let (a, b) = (F::from_bytes(&x), F::from_bytes(&y));
            let (ra, rb) = (R::from_bytes(&x), R::from_bytes(&y));
            let pairs = [
                (a.mul(&b), ra.mul(&rb)),
                (a.square(), ra.square()),
                (a.add(&b), ra.add(&rb)),
                (a.sub(&b), ra.sub(&rb)),
                (b.sub(&a), rb.sub(&ra)),
                (a.mul_a24(), ra.mul_a24()),
                (
                    {
                        let mut s = a;
                        s.add_mul_a24(&b);
                        s
                    },
                    ra.add(&rb.mul_a24()),
                ),
                (a.neg(), ra.neg()),
                // Chains through unreduced intermediates.
                (
                    a.add(&b).mul(&a.sub(&b)).add(&a).square(),
                    ra.add(&rb).mul(&ra.sub(&rb)).add(&ra).square(),
                ),
                (
                    a.sub(&b).sub(&b).mul_a24().mul(&b.add(&b)),
                    ra.sub(&rb).sub(&rb).mul_a24().mul(&rb.add(&rb)),
                ),
            ];
            for (i, (got, want)) in pairs.iter().enumerate() {
                assert_eq!(got.to_bytes(), want.to_bytes(), "seed {seed} op {i}");
            }
        }
    }

    #[cfg(target_pointer_width = "64")]
    #[test]
    fn portable64_agrees_with_portable32() {
        agrees_with_portable32::<portable64::Fe>();
    }

    #[cfg(all(target_arch = "x86_64", feature = "asm"))]
    #[test]
    fn x86_adx_agrees_with_portable32() {
        if core_cpu::Adx::get().is_some() {
            use crate::curve25519::x86_adx::Fe;
            agrees_with_portable32::<Fe>();
            // Values up to 2^256 − 1, which only this representation holds.
            let top = Fe([u64::MAX; 4]); // 2^256 − 1 ≡ 37
            let mut b37 = [0u8; 32];
            b37[0] = 37;
            let r37 = portable32::Fe::from_bytes(&b37);
            assert_eq!(top.to_bytes(), b37);
            assert_eq!(top.mul(&top).to_bytes(), r37.square().to_bytes());
            assert_eq!(top.add(&top).to_bytes(), r37.add(&r37).to_bytes());
            assert_eq!(Fe::ZERO.sub(&top).to_bytes(), r37.neg().to_bytes());
            assert_eq!(top.mul_a24().to_bytes(), r37.mul_a24().to_bytes());
        }
    }
}
