//! GF(p) for P-256 with BMI2 and ADX: the representation and reduction of
//! [`p256_mont64`] (Montgomery form, four 64-bit limbs, `−p⁻¹ ≡ 1`), with
//! the 512-bit product taken by `mulx` on two independent carry chains (`adcx` on CF for the
//! low halves, `adox` on OF for the high halves) and the squaring as six doubled cross
//! products plus four squares, both in assembly (`core_asm::x86_64::ec::p256_adx`, which this
//! file wraps). Each Montgomery step is one `mulx` (`q` times
//! `p`'s top limb) and shifts; the final subtraction of `p` is kept or dropped with
//! `cmov`, never a branch. Additions and subtractions are assembly too (baseline x86-64: carry
//! chains and `cmov`, so no call to an optimisation barrier); inversion is the portable
//! [`safegcd`](super::safegcd). The point doubling is one assembly block over the same
//! operations ([`Field::jac_double`](super::Field::jac_double)). ECDH's window table is made
//! affine ([`Field::AFFINE_WINDOW_TABLE`](super::Field::AFFINE_WINDOW_TABLE)).
//!
//! The scalars (mod the group order `n`, which has no special shape) get [`P256ScalarX86Adx`]:
//! word-by-word Montgomery multiplication (CIOS) in assembly, each row's products summed on the
//! two carry chains, and the modulus and `−n⁻¹ mod 2^64` read from a static. The nonce's
//! inversion when signing is constant-time
//! [`safegcd`](super::safegcd) (a Fermat power of 256 squarings took about 30% of signing).
//!
//! Every instruction here needs BMI2 and ADX: [`P256X86Adx`] and [`P256ScalarX86Adx`] hold a
//! `core_cpu::Adx` token, which the kernels take as the proof.

use core_asm::ct::value_barrier_u64;
use core_asm::x86_64::ec::p256_adx as kernel;

use super::p256_mont64::{self, MONT};
use super::x86_adx::{adx_field, select_masked, zero_word};
use super::{Modulus64, Mont64};
use subtle::Choice;

/// The P-256 field on MULX/ADCX/ADOX; holding the token proves the CPU has BMI2 and ADX.
#[derive(Clone, Copy, Debug)]
pub(crate) struct P256X86Adx(pub(crate) core_cpu::Adx);

/// `p + (x2, y2)` by the generic mixed addition ([`kernel::jac_add_affine`]) and the word that
/// is zero exactly when `p = (x2, y2)` (`H = R = 0`). The result comes back in registers; not
/// inlined, as [`kernel::jac_double`].
#[inline(never)]
fn jac_add_affine(
    t: core_cpu::Adx,
    p: &[[u64; 4]; 3],
    x2: &[u64; 4],
    y2: &[u64; 4],
) -> ([[u64; 4]; 3], u64) {
    kernel::jac_add_affine(t, p, x2, y2)
}

/// One step of the full-comb loop (`Curve::mul_base_full` without its doubling check) on
/// plain masks: `acc` becomes `acc + (x2, y2)`, or `(x2, y2, 1)` where `inf` (`acc` is the
/// identity), or stays where `keep` (a zero digit). Not inlined, so that the sum goes from
/// the `asm!` outputs straight into `acc` with 64-bit stores (returned through memory and
/// read back 128 bits at a time, it stalled store forwarding on every row).
#[inline(never)]
fn comb_add_affine(
    t: core_cpu::Adx,
    acc: &mut [[u64; 4]; 3],
    x2: &[u64; 4],
    y2: &[u64; 4],
    keep: u64,
    inf: u64,
) {
    let (sum, _) = kernel::jac_add_affine(t, acc, x2, y2);
    let q = [*x2, *y2, MONT.one()];
    let take_sum = !keep & !inf;
    let take_q = !keep & inf;
    for ((a, s), q) in acc.iter_mut().zip(&sum).zip(&q) {
        for ((a, s), q) in a.iter_mut().zip(s).zip(q) {
            *a = (*a & keep) | (s & take_sum) | (q & take_q);
        }
    }
}

adx_field!(P256X86Adx, 4, mont: MONT, gcd: p256_mont64::SAFEGCD,
    mul: kernel::mul, sqr: kernel::sqr, add: kernel::add, sub: kernel::sub,
    point: {
        halve: kernel::halve, double: kernel::jac_double, add_affine: jac_add_affine,
        comb: &crate::p256::COMB64, odd_g: &crate::p256::ODDG64
    },
{
    const AFFINE_WINDOW_TABLE: bool = true;
    const AFFINE_VERIFY_TABLE: bool = true;

    /// On plain masks ([`select_masked`]).
    #[inline(always)]
    fn select_entry(&self, row: &[[[u64; 4]; 2]], abs: u8) -> [[u64; 4]; 2] {
        select_masked(row, abs)
    }

    #[inline]
    fn jac_add(&self, p: &[[u64; 4]; 3], q: &[[u64; 4]; 3]) -> Option<([[u64; 4]; 3], Choice)> {
        let (sum, hr) = kernel::jac_add(self.0, p, q);
        Some((sum, zero_word(hr)))
    }

    /// On plain masks through [`value_barrier_u64`] rather than a `Choice` per selection, the
    /// addition and the selections in one call ([`comb_add_affine`]).
    #[inline(always)]
    fn comb_add(&self, acc: &mut [[u64; 4]; 3], row: &[[[u64; 4]; 2]], digit: i8) -> bool {
        // All ones when the digit is negative; its magnitude (0 to 8).
        let sign = value_barrier_u64((i64::from(digit) >> 63).cast_unsigned());
        let abs = (digit.cast_unsigned() ^ sign as u8).wrapping_sub(sign as u8);
        let [x, y] = select_masked(row, abs);
        let ny = kernel::sub(&[0; 4], &y);
        let y = [0, 1, 2, 3].map(|l| y[l] ^ ((y[l] ^ ny[l]) & sign));
        // All ones for a zero digit, and for an accumulator at the identity (Z = 0).
        let keep = value_barrier_u64((u64::from(abs).wrapping_sub(1) >> 63).wrapping_neg());
        let z = acc[2].iter().fold(0, |o, &l| o | l);
        let inf = value_barrier_u64(((z | z.wrapping_neg()) >> 63).wrapping_sub(1));
        comb_add_affine(self.0, acc, &x, &y, keep, inf);
        true
    }
});

/// The scalars mod P-256's group order on MULX/ADCX/ADOX; holding the token proves the CPU
/// has BMI2 and ADX.
#[derive(Clone, Copy, Debug)]
pub(crate) struct P256ScalarX86Adx(pub(crate) core_cpu::Adx);

/// The scalars' Montgomery form.
const MONT_N: Mont64<4> = <crate::p256::Q as Modulus64<4>>::MONT;

adx_field!(P256ScalarX86Adx, 4, mont: MONT_N, gcd: SAFEGCD_N,
    mul: kernel::scalar_mul, sqr: kernel::scalar_sqr,
    add: |a, b| MONT_N.add(a, b), sub: |a, b| MONT_N.sub(a, b), {});

/// `n` for [`safegcd`](super::safegcd), which inverts the scalars (the nonce when signing).
const SAFEGCD_N: super::safegcd::Modulus<5> = super::safegcd::Modulus::new(MONT_N.limbs_le());

#[cfg(test)]
mod tests {
    use super::super::Field;
    use super::*;
    use core_asm::x86_64::ec::p256_adx::N;
    use proptest::prelude::*;

    /// The scalar field on ADX against the generic `mont64` one: multiplication, squaring,
    /// inversion, addition and subtraction of `a` and `b` (big-endian, below n), as bytes.
    fn agree(a: &[u8; 32], b: &[u8; 32]) {
        fn run<F: Field>(f: &F, a: &[u8; 32], b: &[u8; 32]) -> [[u8; 32]; 5] {
            let (x, okx) = f.import_be(a);
            let (y, oky) = f.import_be(b);
            assert!(bool::from(okx & oky), "inputs below n");
            [f.mul(&x, &y), f.sqr(&x), f.invert(&x), f.add(&x, &y), f.sub(&x, &y)].map(|v| {
                let mut out = [0u8; 32];
                f.to_be(&v, &mut out);
                out
            })
        }
        let Some(t) = core_cpu::Adx::get() else {
            std::eprintln!("x86_adx not available here, not checked");
            return;
        };
        assert_eq!(run(&P256ScalarX86Adx(t), a, b), run(&crate::p256::FQ64, a, b));
    }

    /// The order's limbs and `−n⁻¹` as the asm reads them.
    #[test]
    fn order_constants() {
        let mut be = [0u8; 32];
        for i in 0..4 {
            be[32 - 8 * (i + 1)..32 - 8 * i].copy_from_slice(&N[i].to_be_bytes());
        }
        assert_eq!(&be[..], MONT_N.modulus_be());
        assert_eq!(N[0].wrapping_mul(N[4]), u64::MAX);
        assert_eq!(N, MONT_N.limbs_and_m0inv());
    }

    #[test]
    fn scalars_agree_on_edge_values() {
        let n: [u8; 32] = MONT_N.modulus_be().try_into().unwrap();
        let minus = |k: u8| {
            let mut v = n;
            v[31] -= k;
            v
        };
        let small = |k: u8| {
            let mut v = [0u8; 32];
            v[31] = k;
            v
        };
        let mut ones = [0xffu8; 32];
        ones[4..8].fill(0);
        ones[8] = 0;
        let edges = [small(0), small(1), small(2), minus(1), minus(2), ones];
        for a in &edges {
            for b in &edges {
                agree(a, b);
            }
        }
    }

    proptest! {
        #[test]
        fn scalars_agree_on_random_values(a in any::<[u8; 32]>(), b in any::<[u8; 32]>()) {
            // Below n: clear the top bit (n > 2^255).
            let (mut a, mut b) = (a, b);
            a[0] &= 0x7f;
            b[0] &= 0x7f;
            agree(&a, &b);
        }
    }
}
