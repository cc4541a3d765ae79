//! GF(2^255 − 19) for the Cortex-M0 with the `asm` feature: eight packed 32-bit words, any
//! value below 2^256, reduced modulo p only by `to_bytes`. Every operation on the words is a
//! Thumb-1 kernel of `core_asm::thumbv6m::ec::curve25519` (the 512-bit product and square by
//! two levels of Karatsuba, folded with 2^256 ≡ 38 in the same routine; the additions,
//! subtractions, `mul_a24` and `add_mul_a24` folding their carry or borrow the same way):
//! about 1.9k cycles a multiplication against 3.7k for the radix-2^13 `portable32`, and 1.2k
//! a squaring against 1.8k, on the Cortex-M0+ model (m0-cost's rows). `add`, `sub`, the
//! select and the swap are out of line here, which keeps the images small (each is called
//! from many places). The firmware's known answers (`cargo xtask m0`) compare this field with
//! `portable32`, its Rust twin.
//!
//! Its tables are `portable32`'s sizes: one comb row and sixteen odd multiples of B.

use core_asm::thumbv6m::ec::curve25519 as kernel;
use subtle::{Choice, ConditionallySelectable};

use super::edwards::Niels;
use super::field::Field;
use super::tables;

/// `a·b` reduced below 2^256 (not canonical): the two-level Karatsuba product with the fold
/// at its end.
#[inline(always)]
pub(crate) fn mul_reduced(a: &[u32; 8], b: &[u32; 8]) -> [u32; 8] {
    kernel::mul(a, b).0
}

/// `a²` reduced below 2^256 (not canonical).
#[inline(always)]
pub(crate) fn square_reduced(a: &[u32; 8]) -> [u32; 8] {
    kernel::square(a)
}

/// The full 512-bit product, for P-256's field (`nist/p256_thumb1.rs`), which reduces it
/// its own way.
#[inline(always)]
pub(crate) fn mul_wide(a: &[u32; 8], b: &[u32; 8]) -> [u32; 16] {
    kernel::mul_wide(a, b)
}

/// The full 512-bit square, for P-256's field.
#[inline(always)]
pub(crate) fn square_wide(a: &[u32; 8]) -> [u32; 16] {
    kernel::square_wide(a)
}

/// A field element as eight little-endian 32-bit words, any value below 2^256. `repr(C)`:
/// the product's assembly returns it by the C ABI (through the caller's memory).
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(crate) struct Fe(pub(crate) [u32; 8]);

impl Fe {
    /// [`Field::from_bytes`], usable in constants (for the static tables).
    pub(crate) const fn from_bytes_const(b: &[u8; 32]) -> Self {
        let mut w = [0u32; 8];
        let mut i = 0;
        while i < 8 {
            w[i] = u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]]);
            i += 1;
        }
        w[7] &= 0x7fff_ffff;
        Fe(w)
    }

    /// The element from `portable32`'s twenty 13-bit limbs (for the curve constants).
    const fn from_limbs13(l: &[u32; 20]) -> Self {
        let mut w = [0u32; 8];
        let mut i = 0;
        while i < 20 {
            let bit = 13 * i;
            w[bit / 32] |= l[i] << (bit % 32);
            if bit % 32 > 19 && bit / 32 < 7 {
                w[bit / 32 + 1] |= l[i] >> (32 - bit % 32);
            }
            i += 1;
        }
        Fe(w)
    }
}

impl ConditionallySelectable for Fe {
    /// A word at a time: `a ^ ((a ^ b) & mask)`. (The compiled loop is about twice as long,
    /// and the fixed-base comb selects 24 elements a digit.)
    #[inline(never)]
    fn conditional_select(a: &Self, b: &Self, choice: Choice) -> Self {
        Fe(kernel::select(&a.0, &b.0, 0u32.wrapping_sub(choice.unwrap_u8() as u32)))
    }

    /// In place, a word at a time under a mask.
    #[inline(never)]
    fn conditional_swap(a: &mut Self, b: &mut Self, choice: Choice) {
        kernel::swap(&mut a.0, &mut b.0, 0u32.wrapping_sub(choice.unwrap_u8() as u32));
    }
}

static COMB: [[Niels<Fe>; 8]; 1] = niels_comb!(Fe, 1);
/// Sixteen odd multiples, as `portable32` has.
static ODD_B: [Niels<Fe>; 16] = niels_odd!(Fe, 16);

impl Field for Fe {
    const ZERO: Self = Fe([0; 8]);
    const ONE: Self = Fe([1, 0, 0, 0, 0, 0, 0, 0]);
    const D: Self = Fe::from_limbs13(&tables::D_13);
    const D2: Self = Fe::from_limbs13(&tables::D2_13);
    const SQRT_M1: Self = Fe::from_limbs13(&tables::SQRT_M1_13);

    #[inline]
    fn from_bytes(bytes: &[u8; 32]) -> Self {
        Self::from_bytes_const(bytes)
    }

    /// The reduction in assembly ([`kernel::canonical_bytes`]): a compiled masked select of
    /// the two candidates became a branch on the mask (found by the firmware's constant-time
    /// scan).
    fn to_bytes(&self) -> [u8; 32] {
        kernel::canonical_bytes(&self.0)
    }

    #[inline(never)]
    fn add(&self, rhs: &Self) -> Self {
        Fe(kernel::add(&self.0, &rhs.0))
    }

    #[inline(never)]
    fn sub(&self, rhs: &Self) -> Self {
        Fe(kernel::sub(&self.0, &rhs.0))
    }

    /// Out of line, so that the kernel's result lands in this function's return slot
    /// (which nothing else can see) and from there in the caller's variable: inlined, each
    /// call site copied it from a temporary (`Words8` to `Fe`), 32 bytes by `memcpy`.
    #[inline(never)]
    fn mul(&self, rhs: &Self) -> Self {
        Fe(kernel::mul(&self.0, &rhs.0).0)
    }

    fn square(&self) -> Self {
        Fe(square_reduced(&self.0))
    }

    /// Straight into `out`: through a returned value the ladder copies each result into its
    /// variable (whose address has escaped to the swap, so the call may not write it).
    fn mul_to(&self, rhs: &Self, out: &mut Self) {
        kernel::mul_to(&mut out.0, &self.0, &rhs.0);
    }

    /// Straight into `out`, as `mul_to`.
    fn square_to(&self, out: &mut Self) {
        kernel::square_to(&self.0, &mut out.0);
    }

    /// In place: the default's loop copies each square into its variable.
    fn square_n(&self, n: u32) -> Self {
        let mut x = self.square();
        for _ in 1..n {
            kernel::square_assign(&mut x.0);
        }
        x
    }

    fn mul_a24(&self) -> Self {
        Fe(kernel::mul_a24(&self.0))
    }

    fn add_mul_a24(&mut self, e: &Self) {
        kernel::add_mul_a24(&mut self.0, &e.0);
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
