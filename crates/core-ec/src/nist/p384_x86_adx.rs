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
//! operations ([`Field::jac_double`](super::Field::jac_double),
//! [`Field::jac_add_affine`](super::Field::jac_add_affine); ECDH 0.87x -> 0.94x aws-lc-rs for
//! the doubling, signing +3% for the addition). The window-table scan runs on plain masks
//! ([`Field::select_point`](super::Field::select_point), the scan [`x86_adx`](super::x86_adx)
//! shares with P-256); the window table is made affine
//! ([`Field::AFFINE_WINDOW_TABLE`](super::Field::AFFINE_WINDOW_TABLE)). A full addition in
//! assembly measured no faster than the generic one and was dropped. The `Field` impls are
//! [`adx_field!`](super::x86_adx::adx_field) around the kernels.
//!
//! Every instruction here needs BMI2 and ADX: [`P384X86Adx`] and [`P384ScalarX86Adx`] hold a
//! `core_cpu::Adx` token, which the kernels take as the proof.

use core_asm::x86_64::ec::p384_adx as kernel;

use super::safegcd::Modulus;
use super::x86_adx::adx_field;
use super::{Modulus64, Mont64};
use crate::p384::{P, Q};

/// The field's and the scalars' Montgomery forms.
const MONT_P: Mont64<6> = <P as Modulus64<6>>::MONT;
const MONT_N: Mont64<6> = <Q as Modulus64<6>>::MONT;

/// `p` and `n` for [`safegcd`](super::safegcd), which inverts both.
const SAFEGCD_P: Modulus<7> = Modulus::new(MONT_P.limbs_le());
const SAFEGCD_N: Modulus<7> = Modulus::new(MONT_N.limbs_le());

/// The P-384 field on MULX/ADCX/ADOX; holding the token proves the CPU has BMI2 and ADX.
#[derive(Clone, Copy, Debug)]
pub(crate) struct P384X86Adx(pub(crate) core_cpu::Adx);

adx_field!(P384X86Adx, 6, mont: MONT_P, gcd: SAFEGCD_P,
    mul: kernel::mul_p, sqr: kernel::sqr_p, add: kernel::add_p, sub: kernel::sub_p,
    point: {
        halve: kernel::halve_p, double: kernel::jac_double, add_affine: kernel::jac_add_affine,
        comb: <P as Modulus64<6>>::COMB, odd_g: <P as Modulus64<6>>::ODD_G
    },
{
    const AFFINE_WINDOW_TABLE: bool = true;
    const AFFINE_VERIFY_TABLE: bool = true;
});

/// The scalars mod P-384's group order on MULX/ADCX/ADOX; holding the token proves the CPU
/// has BMI2 and ADX.
#[derive(Clone, Copy, Debug)]
pub(crate) struct P384ScalarX86Adx(pub(crate) core_cpu::Adx);

adx_field!(P384ScalarX86Adx, 6, mont: MONT_N, gcd: SAFEGCD_N,
    mul: kernel::mul_n, sqr: kernel::sqr_q,
    add: |a, b| MONT_N.add(a, b), sub: |a, b| MONT_N.sub(a, b), {});

#[cfg(test)]
mod tests {
    use super::super::Field;
    use super::*;
    use proptest::prelude::*;

    /// The kernels' static moduli and `−m⁻¹ mod 2^64` are P-384's.
    #[test]
    fn modulus_constants() {
        assert_eq!(kernel::PM, MONT_P.limbs_and_m0inv6());
        assert_eq!(kernel::NM, MONT_N.limbs_and_m0inv6());
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
        let n: [u8; 48] = MONT_N.modulus_be().try_into().unwrap();
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
        let p: [u8; 48] = MONT_P.modulus_be().try_into().unwrap();
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
