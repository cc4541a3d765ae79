//! GF(p) for P-256 with BMI2 and ADX: the representation and reduction of
//! [`p256_mont64`] (Montgomery form, four 64-bit limbs, `−p⁻¹ ≡ 1`), with
//! the 512-bit product taken by `mulx` on two independent carry chains (`adcx` on CF for the
//! low halves, `adox` on OF for the high halves) and the squaring as six doubled cross
//! products plus four squares, both in assembly (`core_asm::x86_64::ec::p256_adx`, which this
//! file wraps). Each Montgomery step is shifts and additions
//! only (`q·p` from `q·2^32` and `q·2^64`); the final subtraction of `p` is kept or dropped with
//! `cmov`, never a branch. Additions and subtractions are assembly too (baseline x86-64: carry
//! chains and `cmov`, so no call to an optimisation barrier); inversion is the portable
//! [`safegcd`](super::safegcd). The point doubling is one assembly block over the same
//! operations ([`Field::jac_double`]).
//!
//! The scalars (mod the group order `n`, which has no special shape) get [`P256ScalarX86Adx`]:
//! word-by-word Montgomery multiplication (CIOS) in assembly, each row's products summed on the
//! two carry chains, and the modulus and `−n⁻¹ mod 2^64` read from a static. The nonce's
//! inversion when signing is constant-time
//! [`safegcd`](super::safegcd) (a Fermat power of 256 squarings took about 30% of signing).
//!
//! Every instruction here needs BMI2 and ADX: [`P256X86Adx`] and [`P256ScalarX86Adx`] hold a
//! `core_cpu::Adx` token, the proof the `unsafe` blocks rely on.

use core_asm::ct::value_barrier_u64;
use core_asm::x86_64::ec::p256_adx::{self as kernel, add, halve, sub};

use super::p256_mont64::{self, MONT};
use super::{Field, Mont64};
use subtle::Choice;

/// The P-256 field on MULX/ADCX/ADOX; holding the token proves the CPU has BMI2 and ADX.
#[derive(Clone, Copy, Debug)]
pub(crate) struct P256X86Adx(pub(crate) core_cpu::Adx);

/// `a·b·R⁻¹ mod p` for `a, b < p`.
#[inline(always)]
fn mul(_: core_cpu::Adx, a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    // SAFETY: the `Adx` token proves BMI2 and ADX.
    unsafe { kernel::mul(a, b) }
}

/// `a²·R⁻¹ mod p` for `a < p`.
#[inline(always)]
fn sqr(_: core_cpu::Adx, a: &[u64; 4]) -> [u64; 4] {
    // SAFETY: the `Adx` token proves BMI2 and ADX.
    unsafe { kernel::sqr(a) }
}

/// Doubles the Jacobian `p` in place ([`kernel::jac_double`]).
#[inline(always)]
fn jac_double(_: core_cpu::Adx, p: &mut [[u64; 4]; 3]) {
    // SAFETY: the `Adx` token proves BMI2 and ADX.
    unsafe { kernel::jac_double(p) }
}

/// `p + q` by the generic Jacobian addition ([`kernel::jac_add`]), and whether `p = q`.
#[inline(always)]
fn jac_add(_: core_cpu::Adx, p: &[[u64; 4]; 3], q: &[[u64; 4]; 3]) -> ([[u64; 4]; 3], Choice) {
    // SAFETY: the `Adx` token proves BMI2 and ADX.
    let (sum, hr) = unsafe { kernel::jac_add(p, q) };
    (sum, zero_word(hr))
}

/// Whether the word (`H | R` from a point formula) is zero, as a `Choice`.
#[inline(always)]
fn zero_word(hr: u64) -> Choice {
    Choice::from(((hr | hr.wrapping_neg()) >> 63) as u8 ^ 1)
}

/// `p + (x2, y2)` by the generic mixed addition ("madd-2004-hmv", see
/// [`point::Curve`](super::point::Curve)), the same field operations giving the same values,
/// as one assembly block, and whether `p = (x2, y2)` (`H = R = 0`). The result comes back in
/// registers; not inlined, as [`kernel::jac_double`].
#[inline(never)]
fn jac_add_affine(
    _: core_cpu::Adx,
    p: &[[u64; 4]; 3],
    x2: &[u64; 4],
    y2: &[u64; 4],
) -> ([[u64; 4]; 3], Choice) {
    // SAFETY: the `Adx` token proves BMI2 and ADX.
    let (sum, hr) = unsafe { kernel::jac_add_affine(p, x2, y2) };
    (sum, zero_word(hr))
}

/// One step of the full-comb loop (`Curve::mul_base_full` without its doubling check) on
/// plain masks: `acc` becomes `acc + (x2, y2)`, or `(x2, y2, 1)` where `inf` (`acc` is the
/// identity), or stays where `keep` (a zero digit). Not inlined, so that the sum goes from
/// the `asm!` outputs straight into `acc` with 64-bit stores (returned through memory and
/// read back 128 bits at a time, it stalled store forwarding on every row).
#[inline(never)]
fn comb_add_affine(
    _: core_cpu::Adx,
    acc: &mut [[u64; 4]; 3],
    x2: &[u64; 4],
    y2: &[u64; 4],
    keep: u64,
    inf: u64,
) {
    // SAFETY: the `Adx` token proves BMI2 and ADX.
    let (sum, _) = unsafe { kernel::jac_add_affine(acc, x2, y2) };
    let q = [*x2, *y2, MONT.one()];
    let take_sum = !keep & !inf;
    let take_q = !keep & inf;
    for ((a, s), q) in acc.iter_mut().zip(&sum).zip(&q) {
        for ((a, s), q) in a.iter_mut().zip(s).zip(q) {
            *a = (*a & keep) | (s & take_sum) | (q & take_q);
        }
    }
}

impl Field for P256X86Adx {
    type E = [u64; 4];
    const AFFINE_VERIFY_TABLE: bool = true;

    fn modulus(&self) -> &'static [u8] {
        &crate::p256::P_BYTES
    }

    #[inline]
    fn zero(&self) -> [u64; 4] {
        [0; 4]
    }

    #[inline]
    fn one(&self) -> [u64; 4] {
        MONT.one()
    }

    #[inline]
    fn add(&self, a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
        add(a, b)
    }

    #[inline]
    fn sub(&self, a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
        sub(a, b)
    }

    #[inline]
    fn halve(&self, a: &[u64; 4]) -> [u64; 4] {
        halve(a)
    }

    #[inline]
    fn mul(&self, a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
        mul(self.0, a, b)
    }

    #[inline]
    fn sqr(&self, a: &[u64; 4]) -> [u64; 4] {
        sqr(self.0, a)
    }

    #[inline]
    fn select(a: &[u64; 4], b: &[u64; 4], choice: Choice) -> [u64; 4] {
        Mont64::<4>::select(a, b, choice)
    }

    fn is_zero(a: &[u64; 4]) -> Choice {
        Mont64::<4>::is_zero(a)
    }

    fn import_be(&self, bytes: &[u8]) -> ([u64; 4], Choice) {
        MONT.import_be(bytes)
    }

    fn import_be_reduce(&self, bytes: &[u8]) -> [u64; 4] {
        MONT.import_be_reduce(bytes)
    }

    fn to_be(&self, a: &[u64; 4], out: &mut [u8]) {
        MONT.to_be(a, out);
    }

    fn comb(&self) -> &'static [[[u64; 4]; 2]] {
        &crate::p256::COMB64
    }

    fn odd_g(&self) -> &'static [[[u64; 4]; 2]] {
        &crate::p256::ODDG64
    }

    fn invert(&self, a: &[u64; 4]) -> [u64; 4] {
        MONT.invert_safegcd(&p256_mont64::SAFEGCD, a)
    }

    fn invert_vartime(&self, a: &[u64; 4]) -> [u64; 4] {
        MONT.invert_safegcd_vartime(&p256_mont64::SAFEGCD, a)
    }

    #[inline]
    fn jac_double(&self, p: &mut [[u64; 4]; 3]) -> bool {
        jac_double(self.0, p);
        true
    }

    /// On plain masks, all eight made first and each hidden from the optimiser by
    /// [`value_barrier_u64`] (no `Choice` per entry; a barrier on `abs` alone let the compiler branch on
    /// the comparisons, and `black_box` on the array put it on the stack, a store-forwarding
    /// stall per row).
    #[inline(always)]
    fn select_entry(&self, row: &[[[u64; 4]; 2]], abs: u8) -> [[u64; 4]; 2] {
        // The comb rows have sixteen entries, one mask each.
        debug_assert!(row.len() <= 16);
        let abs = u64::from(abs);
        let mut masks = [0u64; 16];
        for (j, m) in (1u64..).zip(&mut masks) {
            // All ones when j = abs (both below 2^63), else zero.
            *m = ((j ^ abs).wrapping_sub(1) >> 63).wrapping_neg();
        }
        let masks = masks.map(value_barrier_u64);
        let mut out = [[0u64; 4]; 2];
        for (e, mask) in row.iter().zip(masks) {
            for c in 0..2 {
                for l in 0..4 {
                    out[c][l] |= e[c][l] & mask;
                }
            }
        }
        out
    }

    /// As [`Self::select_entry`], for window tables of up to sixteen points.
    #[inline(always)]
    fn select_point(&self, table: &[[[u64; 4]; 3]], abs: u8) -> [[u64; 4]; 3] {
        debug_assert!(table.len() <= 16);
        let abs = u64::from(abs);
        let mut masks = [0u64; 16];
        for (j, m) in (1u64..).zip(&mut masks) {
            *m = ((j ^ abs).wrapping_sub(1) >> 63).wrapping_neg();
        }
        let masks = masks.map(value_barrier_u64);
        let mut out = [[0u64; 4]; 3];
        for (e, mask) in table.iter().zip(masks) {
            for c in 0..3 {
                for l in 0..4 {
                    out[c][l] |= e[c][l] & mask;
                }
            }
        }
        out
    }

    #[inline]
    fn jac_add(&self, p: &[[u64; 4]; 3], q: &[[u64; 4]; 3]) -> Option<([[u64; 4]; 3], Choice)> {
        Some(jac_add(self.0, p, q))
    }

    /// On plain masks through [`value_barrier_u64`] rather than a `Choice` per selection, the addition
    /// and the selections in one call ([`comb_add_affine`]).
    #[inline(always)]
    fn comb_add(&self, acc: &mut [[u64; 4]; 3], row: &[[[u64; 4]; 2]], digit: i8) -> bool {
        // All ones when the digit is negative; its magnitude (0 to 8).
        let sign = value_barrier_u64((i64::from(digit) >> 63).cast_unsigned());
        let abs = (digit.cast_unsigned() ^ sign as u8).wrapping_sub(sign as u8);
        let [x, y] = self.select_entry(row, abs);
        let ny = sub(&[0; 4], &y);
        let y = [0, 1, 2, 3].map(|l| y[l] ^ ((y[l] ^ ny[l]) & sign));
        // All ones for a zero digit, and for an accumulator at the identity (Z = 0).
        let keep = value_barrier_u64((u64::from(abs).wrapping_sub(1) >> 63).wrapping_neg());
        let z = acc[2].iter().fold(0, |o, &l| o | l);
        let inf = value_barrier_u64(((z | z.wrapping_neg()) >> 63).wrapping_sub(1));
        comb_add_affine(self.0, acc, &x, &y, keep, inf);
        true
    }

    #[inline]
    fn jac_add_affine(
        &self,
        p: &[[u64; 4]; 3],
        x2: &[u64; 4],
        y2: &[u64; 4],
    ) -> Option<([[u64; 4]; 3], Choice)> {
        Some(jac_add_affine(self.0, p, x2, y2))
    }
}

/// The scalars mod P-256's group order on MULX/ADCX/ADOX; holding the token proves the CPU
/// has BMI2 and ADX.
#[derive(Clone, Copy, Debug)]
pub(crate) struct P256ScalarX86Adx(pub(crate) core_cpu::Adx);

/// `a·b·R⁻¹ mod n` for `a, b < n`.
#[inline(always)]
fn scalar_mul(_: core_cpu::Adx, a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    // SAFETY: the `Adx` token proves BMI2 and ADX.
    unsafe { kernel::scalar_mul(a, b) }
}

/// `a²·R⁻¹ mod n` for `a < n`.
#[inline(always)]
fn scalar_sqr(_: core_cpu::Adx, a: &[u64; 4]) -> [u64; 4] {
    // SAFETY: the `Adx` token proves BMI2 and ADX.
    unsafe { kernel::scalar_sqr(a) }
}

impl Field for P256ScalarX86Adx {
    type E = [u64; 4];

    fn modulus(&self) -> &'static [u8] {
        <crate::p256::Q as super::Modulus64<4>>::MONT.modulus_be()
    }

    #[inline]
    fn zero(&self) -> [u64; 4] {
        [0; 4]
    }

    #[inline]
    fn one(&self) -> [u64; 4] {
        <crate::p256::Q as super::Modulus64<4>>::MONT.one()
    }

    #[inline]
    fn add(&self, a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
        <crate::p256::Q as super::Modulus64<4>>::MONT.add(a, b)
    }

    #[inline]
    fn sub(&self, a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
        <crate::p256::Q as super::Modulus64<4>>::MONT.sub(a, b)
    }

    #[inline]
    fn mul(&self, a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
        scalar_mul(self.0, a, b)
    }

    #[inline]
    fn sqr(&self, a: &[u64; 4]) -> [u64; 4] {
        scalar_sqr(self.0, a)
    }

    #[inline]
    fn select(a: &[u64; 4], b: &[u64; 4], choice: Choice) -> [u64; 4] {
        Mont64::<4>::select(a, b, choice)
    }

    fn is_zero(a: &[u64; 4]) -> Choice {
        Mont64::<4>::is_zero(a)
    }

    fn import_be(&self, bytes: &[u8]) -> ([u64; 4], Choice) {
        <crate::p256::Q as super::Modulus64<4>>::MONT.import_be(bytes)
    }

    fn import_be_reduce(&self, bytes: &[u8]) -> [u64; 4] {
        <crate::p256::Q as super::Modulus64<4>>::MONT.import_be_reduce(bytes)
    }

    fn to_be(&self, a: &[u64; 4], out: &mut [u8]) {
        <crate::p256::Q as super::Modulus64<4>>::MONT.to_be(a, out);
    }

    fn invert(&self, a: &[u64; 4]) -> [u64; 4] {
        <crate::p256::Q as super::Modulus64<4>>::MONT.invert_safegcd(&SAFEGCD_N, a)
    }

    fn invert_vartime(&self, a: &[u64; 4]) -> [u64; 4] {
        <crate::p256::Q as super::Modulus64<4>>::MONT.invert_safegcd_vartime(&SAFEGCD_N, a)
    }
}

/// `n` for [`safegcd`](super::safegcd), which inverts the scalars (the nonce when signing).
const SAFEGCD_N: super::safegcd::Modulus<5> =
    super::safegcd::Modulus::new(<crate::p256::Q as super::Modulus64<4>>::MONT.limbs_le());

#[cfg(test)]
mod tests {
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
        assert_eq!(&be[..], <crate::p256::Q as super::super::Modulus64<4>>::MONT.modulus_be());
        assert_eq!(N[0].wrapping_mul(N[4]), u64::MAX);
        assert_eq!(N, <crate::p256::Q as super::super::Modulus64<4>>::MONT.limbs_and_m0inv());
    }

    #[test]
    fn scalars_agree_on_edge_values() {
        let n: [u8; 32] =
            <crate::p256::Q as super::super::Modulus64<4>>::MONT.modulus_be().try_into().unwrap();
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

    /// The mask-based comb-row scan against the trait's `Choice` one, for every `abs` from 0
    /// (zeros) to 8 and out-of-range values (zeros too).
    #[test]
    fn select_entry_matches_the_generic_scan() {
        let Some(t) = core_cpu::Adx::get() else {
            std::eprintln!("x86_adx not available here, not checked");
            return;
        };
        let f = P256X86Adx(t);
        let mut row = [[[0u64; 4]; 2]; 16];
        for (i, w) in row.iter_mut().flatten().flatten().enumerate() {
            *w = (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
        for abs in (0u8..=17).chain([32, 255]) {
            let mut want = [[0u64; 4]; 2];
            for (j, e) in row.iter().enumerate() {
                let hit = Choice::from(u8::from(usize::from(abs) == j + 1));
                want = [0, 1].map(|c| Mont64::<4>::select(&want[c], &e[c], hit));
            }
            assert_eq!(f.select_entry(&row, abs), want, "abs = {abs}");
        }
    }

    /// The mask-based window-table scan against the trait's `Choice` one.
    #[test]
    fn select_point_matches_the_generic_scan() {
        let Some(t) = core_cpu::Adx::get() else {
            std::eprintln!("x86_adx not available here, not checked");
            return;
        };
        let f = P256X86Adx(t);
        let mut table = [[[0u64; 4]; 3]; 16];
        for (i, w) in table.iter_mut().flatten().flatten().enumerate() {
            *w = (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
        for len in [8, 16] {
            for abs in [0u8, 1, 2, 7, 8, 9, 15, 16, 17, 255] {
                let mut want = [[0u64; 4]; 3];
                for (j, e) in table[..len].iter().enumerate() {
                    let hit = Choice::from(u8::from(usize::from(abs) == j + 1));
                    want = [0, 1, 2].map(|c| Mont64::<4>::select(&want[c], &e[c], hit));
                }
                assert_eq!(f.select_point(&table[..len], abs), want, "abs = {abs}");
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
