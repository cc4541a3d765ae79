//! GF(2^255 − 19) on four 64-bit limbs with BMI2 and ADX: `mulx` for the 16 limb products and
//! two independent carry chains (`adcx` on CF, `adox` on OF) to sum them, then the upper half
//! folded back with 2^256 ≡ 38. Values are kept below 2^256 but not below p; only `to_bytes`
//! reduces fully. Additions and subtractions use the `_addcarry_u64` chains the compiler turns
//! into `adc`/`sbb`.
//!
//! Every instruction here needs BMI2 and ADX. The [`Fe`] type is private to `curve25519` and
//! is only operated on through the `FieldImpl::X86Adx` arm of `with_field!`, which can only be
//! reached with a `core_cpu::Adx` token: that is the invariant the `unsafe` blocks rely on.

use core::arch::x86_64::{_addcarry_u64, _subborrow_u64};

use core_asm::x86_64::ec::curve25519_adx as kernel;

use subtle::{Choice, ConditionallySelectable};

use super::edwards::Niels;
use super::field::Field;
use super::tables;

/// A field element as four 64-bit limbs, below 2^256.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fe(pub(crate) [u64; 4]);

const fn load8(b: &[u8; 32], at: usize) -> u64 {
    let mut v = 0u64;
    let mut i = 0;
    while i < 8 {
        v |= (b[at + i] as u64) << (8 * i);
        i += 1;
    }
    v
}

impl Fe {
    /// [`Field::from_bytes`], usable in constants (for the static tables).
    pub(crate) const fn from_bytes_const(b: &[u8; 32]) -> Self {
        Fe([load8(b, 0), load8(b, 8), load8(b, 16), load8(b, 24) & (u64::MAX >> 1)])
    }
}

/// `a + b` over four limbs, and the carry out.
#[inline(always)]
fn add4(a: &[u64; 4], b: &[u64; 4]) -> ([u64; 4], u8) {
    let mut r = [0u64; 4];
    let mut c = 0u8;
    for i in 0..4 {
        c = _addcarry_u64(c, a[i], b[i], &mut r[i]);
    }
    (r, c)
}

/// `a − b` over four limbs, and the borrow out.
#[inline(always)]
fn sub4(a: &[u64; 4], b: &[u64; 4]) -> ([u64; 4], u8) {
    let mut r = [0u64; 4];
    let mut c = 0u8;
    for i in 0..4 {
        c = _subborrow_u64(c, a[i], b[i], &mut r[i]);
    }
    (r, c)
}

/// Adds `38·carry` (the value of a carry out of 2^256), twice if needed: the second time the
/// low limb is below 38·2, so it cannot carry again.
#[inline(always)]
fn fold_carry(r: [u64; 4], c: u8) -> Fe {
    let (r, c) = add4(&r, &[38 * u64::from(c), 0, 0, 0]);
    let mut r = r;
    r[0] = r[0].wrapping_add(38 * u64::from(c));
    Fe(r)
}

impl ConditionallySelectable for Fe {
    #[inline]
    fn conditional_select(a: &Self, b: &Self, choice: Choice) -> Self {
        Fe([
            u64::conditional_select(&a.0[0], &b.0[0], choice),
            u64::conditional_select(&a.0[1], &b.0[1], choice),
            u64::conditional_select(&a.0[2], &b.0[2], choice),
            u64::conditional_select(&a.0[3], &b.0[3], choice),
        ])
    }
}

static COMB: [[Niels<Fe>; 8]; 32] = niels_comb!(Fe, 32);
static ODD_B: [Niels<Fe>; 64] = niels_odd!(Fe, 64);

/// `a·b mod 2^256 − 38`, below 2^256.
#[inline(always)]
fn mul(a: &[u64; 4], b: &[u64; 4]) -> Fe {
    // SAFETY: BMI2 and ADX by the module invariant: only reachable through
    // `FieldImpl::X86Adx`, built from a `core_cpu::Adx` token.
    Fe(unsafe { kernel::mul(a, b) })
}

/// `a² mod 2^256 − 38`, below 2^256.
#[inline(always)]
fn square(a: &[u64; 4]) -> Fe {
    // SAFETY: as in `mul`.
    Fe(unsafe { kernel::square(a) })
}

impl Field for Fe {
    const ZERO: Self = Fe([0; 4]);
    const ONE: Self = Fe([1, 0, 0, 0]);
    const D: Self = Fe(tables::D_64);
    const D2: Self = Fe(tables::D2_64);
    const SQRT_M1: Self = Fe(tables::SQRT_M1_64);

    #[inline]
    fn from_bytes(bytes: &[u8; 32]) -> Self {
        Self::from_bytes_const(bytes)
    }

    fn to_bytes(&self) -> [u8; 32] {
        // Fold bit 255 (below 2^255 + 19 afterwards), then subtract p if v + 19 reaches 2^255.
        let mut v = self.0;
        let top = v[3] >> 63;
        v[3] &= u64::MAX >> 1;
        let (v, _) = add4(&v, &[19 * top, 0, 0, 0]);
        let (mut w, _) = add4(&v, &[19, 0, 0, 0]);
        let q = Choice::from((w[3] >> 63) as u8);
        w[3] &= u64::MAX >> 1;
        let r = Fe::conditional_select(&Fe(v), &Fe(w), q);
        let mut out = [0u8; 32];
        for (chunk, limb) in out.chunks_exact_mut(8).zip(r.0) {
            chunk.copy_from_slice(&limb.to_le_bytes());
        }
        out
    }

    #[inline(always)]
    fn add(&self, rhs: &Self) -> Self {
        let (r, c) = add4(&self.0, &rhs.0);
        fold_carry(r, c)
    }

    #[inline(always)]
    fn sub(&self, rhs: &Self) -> Self {
        let (r, b) = sub4(&self.0, &rhs.0);
        // A borrow means r = a − b + 2^256 ≡ a − b + 38: take 38 back off, twice if needed.
        let (r, b) = sub4(&r, &[38 * u64::from(b), 0, 0, 0]);
        let mut r = r;
        r[0] = r[0].wrapping_sub(38 * u64::from(b));
        Fe(r)
    }

    #[inline(always)]
    fn mul(&self, rhs: &Self) -> Self {
        mul(&self.0, &rhs.0)
    }

    #[inline(always)]
    fn square(&self) -> Self {
        square(&self.0)
    }

    #[inline(always)]
    fn mul_a24(&self) -> Self {
        let a = &self.0;
        let mut r = [0u64; 4];
        let mut carry = 0u128;
        for i in 0..4 {
            carry += u128::from(a[i]) * 121665;
            r[i] = carry as u64;
            carry >>= 64;
        }
        // carry < 2^17: 38·carry fits one limb.
        let (r, c) = add4(&r, &[38 * carry as u64, 0, 0, 0]);
        fold_carry(r, c)
    }

    /// By safegcd rather than Fermat's chain: see [`super::safegcd`].
    fn invert(&self) -> Self {
        Self::from_bytes_const(&super::safegcd::invert_bytes(&self.to_bytes()))
    }

    fn invert_vartime(&self) -> Self {
        Self::from_bytes_const(&super::safegcd::invert_bytes_vartime(&self.to_bytes()))
    }

    #[inline]
    fn comb() -> &'static [[Niels<Self>; 8]] {
        &COMB
    }

    #[inline]
    fn odd_b() -> &'static [Niels<Self>] {
        &ODD_B
    }
}
