//! GF(p) and the scalars for P-384 with BMI2 and ADX: the representation of
//! [`Mont64`] with six limbs (Montgomery form, so the two share the comb table
//! and the conversions), the Montgomery product in assembly
//! (`core_asm::x86_64::ec::p384_adx`, which this file wraps) as word-by-word CIOS rows, each
//! row's `a·b[i]` and `q·m` summed on two independent carry chains (`adcx` on CF for the low
//! halves, `adox` on OF for the high halves). The modulus and `−m⁻¹ mod 2^64` are read from a
//! static, so one routine serves the prime `p` and the group order `n`. Modulo `p` each
//! row's reduction is specialised to the prime's shape (`reduce_p!`: shifts and carries
//! instead of six `mulx`, which took P-384 ECDH from about 6550 to 7050 operations per second
//! here with two `mulx`, and 2.5% further without). The final
//! subtraction of the modulus is kept or dropped with `cmov`, never a branch.
//!
//! Inversion mod `p` and mod `n` is constant-time [`safegcd`](super::safegcd) (Fermat took 385
//! squarings and 14 multiplications).
//!
//! The Jacobian point doubling and mixed addition are one assembly block each over the same
//! operations ([`Field::jac_double`], [`Field::jac_add_affine`]; ECDH 0.87x -> 0.94x
//! aws-lc-rs for the doubling, signing +3% for the addition). The window-table scan runs on
//! plain masks ([`Field::select_point`]); the window table is made affine
//! ([`Field::AFFINE_WINDOW_TABLE`]). A full addition in assembly measured no faster than the
//! generic one and was dropped.
//!
//! Every instruction here needs BMI2 and ADX: [`P384X86Adx`] and [`P384ScalarX86Adx`] hold a
//! `core_cpu::Adx` token, the proof the `unsafe` blocks rely on.

use core_asm::x86_64::ec::p384_adx::{self as kernel, add_p, halve_p, sub_p};

use super::safegcd::Modulus;
use super::{Field, Modulus64, Mont64};
use crate::p384::{P, Q};
use subtle::Choice;

/// `p` and `n` for [`safegcd`](super::safegcd), which inverts both.
const SAFEGCD_P: Modulus<7> = Modulus::new(<P as Modulus64<6>>::MONT.limbs_le());
const SAFEGCD_N: Modulus<7> = Modulus::new(<Q as Modulus64<6>>::MONT.limbs_le());

/// The P-384 field on MULX/ADCX/ADOX; holding the token proves the CPU has BMI2 and ADX.
#[derive(Clone, Copy, Debug)]
pub(crate) struct P384X86Adx(pub(crate) core_cpu::Adx);

/// `a·b·R⁻¹ mod p` for `a, b < p`.
#[inline(always)]
fn mul_p(_: core_cpu::Adx, a: &[u64; 6], b: &[u64; 6]) -> [u64; 6] {
    // SAFETY: the `Adx` token proves BMI2 and ADX.
    unsafe { kernel::mul_p(a, b) }
}

/// `a·b·R⁻¹ mod n` for `a, b < n`.
#[inline(always)]
fn mul_n(_: core_cpu::Adx, a: &[u64; 6], b: &[u64; 6]) -> [u64; 6] {
    // SAFETY: the `Adx` token proves BMI2 and ADX.
    unsafe { kernel::mul_n(a, b) }
}

/// `a²·R⁻¹ mod p` for `a < p`.
#[inline(always)]
fn sqr_p(_: core_cpu::Adx, a: &[u64; 6]) -> [u64; 6] {
    // SAFETY: the `Adx` token proves BMI2 and ADX.
    unsafe { kernel::sqr_p(a) }
}

/// `a²·R⁻¹ mod n` for `a < n`.
#[inline(always)]
fn sqr_q(_: core_cpu::Adx, a: &[u64; 6]) -> [u64; 6] {
    // SAFETY: the `Adx` token proves BMI2 and ADX.
    unsafe { kernel::sqr_q(a) }
}

/// Doubles the Jacobian `p` in place ([`kernel::jac_double`]).
#[inline(always)]
fn jac_double(_: core_cpu::Adx, p: &mut [[u64; 6]; 3]) {
    // SAFETY: the `Adx` token proves BMI2 and ADX.
    unsafe { kernel::jac_double(p) }
}

/// `p + (x2, y2)` by the generic mixed addition ([`kernel::jac_add_affine`]), and whether
/// `p = (x2, y2)` (`H = R = 0`).
#[inline(always)]
fn jac_add_affine(
    _: core_cpu::Adx,
    p: &[[u64; 6]; 3],
    x2: &[u64; 6],
    y2: &[u64; 6],
) -> ([[u64; 6]; 3], Choice) {
    // SAFETY: the `Adx` token proves BMI2 and ADX.
    let (sum, hr) = unsafe { kernel::jac_add_affine(p, x2, y2) };
    (sum, Choice::from(((hr | hr.wrapping_neg()) >> 63) as u8 ^ 1))
}

impl Field for P384X86Adx {
    type E = [u64; 6];

    const AFFINE_WINDOW_TABLE: bool = true;
    const AFFINE_VERIFY_TABLE: bool = true;

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

    fn invert_vartime(&self, a: &[u64; 6]) -> [u64; 6] {
        <P as Modulus64<6>>::MONT.invert_safegcd_vartime(&SAFEGCD_P, a)
    }

    #[inline]
    fn jac_double(&self, p: &mut [[u64; 6]; 3]) -> bool {
        jac_double(self.0, p);
        true
    }

    #[inline]
    fn jac_add_affine(
        &self,
        p: &[[u64; 6]; 3],
        x2: &[u64; 6],
        y2: &[u64; 6],
    ) -> Option<([[u64; 6]; 3], Choice)> {
        Some(jac_add_affine(self.0, p, x2, y2))
    }

    /// On plain masks, all sixteen made first and hidden from the optimiser together (one
    /// barrier per window instead of a `Choice` per entry), as P-256's.
    #[inline(always)]
    fn select_point(&self, table: &[[[u64; 6]; 3]], abs: u8) -> [[u64; 6]; 3] {
        debug_assert!(table.len() <= 16);
        let abs = u64::from(abs);
        let mut masks = [0u64; 16];
        for (j, m) in (1u64..).zip(&mut masks) {
            // All ones when j = abs (both below 2^63), else zero.
            *m = ((j ^ abs).wrapping_sub(1) >> 63).wrapping_neg();
        }
        let masks = core::hint::black_box(masks);
        let mut out = [[0u64; 6]; 3];
        for (e, mask) in table.iter().zip(masks) {
            for c in 0..3 {
                for l in 0..6 {
                    out[c][l] |= e[c][l] & mask;
                }
            }
        }
        out
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

    /// The kernels' static moduli and `−m⁻¹ mod 2^64` are P-384's.
    #[test]
    fn modulus_constants() {
        assert_eq!(kernel::PM, <P as Modulus64<6>>::MONT.limbs_and_m0inv6());
        assert_eq!(kernel::NM, <Q as Modulus64<6>>::MONT.limbs_and_m0inv6());
    }

    /// `a + b`, `a − b`, `a·b`, `a²`, `a⁻¹`, `a/2` of big-endian inputs below the modulus, as
    /// bytes (`a/2` checked to double back to `a`).
    fn run<F: Field>(f: &F, a: &[u8; 48], b: &[u8; 48]) -> [[u8; 48]; 6] {
        let (x, okx) = f.import_be(a);
        let (y, oky) = f.import_be(b);
        assert!(bool::from(okx & oky), "inputs below the modulus");
        let half = f.halve(&x);
        assert!(bool::from(f.eq(&f.add(&half, &half), &x)), "a/2 + a/2 = a");
        assert!(bool::from(f.eq(&f.invert_vartime(&x), &f.invert(&x))), "vartime inverse");
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
