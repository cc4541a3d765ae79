//! What P-256's and P-384's fields on MULX/ADCX/ADOX share ([`p256_x86_adx`] and
//! [`p384_x86_adx`]): the [`Field`](super::Field) impl around the kernels of
//! `core_asm::x86_64::ec`, written once as [`adx_field!`], and the table scan on plain masks
//! ([`select_masked`]).
//!
//! Every kernel takes the field's `core_cpu::Adx` token, the proof that the CPU has BMI2 and
//! ADX, so nothing here is `unsafe`.
//!
//! [`p256_x86_adx`]: super::p256_x86_adx
//! [`p384_x86_adx`]: super::p384_x86_adx

use core_asm::ct::value_barrier_u64;
use subtle::Choice;

/// Whether the word (`H | R` from a point kernel) is zero, as a `Choice`.
#[inline(always)]
pub(crate) fn zero_word(hr: u64) -> Choice {
    Choice::from(((hr | hr.wrapping_neg()) >> 63) as u8 ^ 1)
}

/// Entry `abs − 1` of `table` (zeros for `abs = 0` or past the end), read in full: sixteen
/// masks made first, each hidden from the optimiser by [`value_barrier_u64`] (a barrier on
/// `abs` alone let the compiler branch on the comparisons, and `black_box` on the array put it
/// on the stack, a store-forwarding stall per row), then each entry masked and combined by `|`.
#[inline(always)]
pub(crate) fn select_masked<const N: usize, const C: usize>(
    table: &[[[u64; N]; C]],
    abs: u8,
) -> [[u64; N]; C] {
    // The comb rows and window tables have at most sixteen entries, one mask each.
    debug_assert!(table.len() <= 16);
    let abs = u64::from(abs);
    let mut masks = [0u64; 16];
    for (j, m) in (1u64..).zip(&mut masks) {
        // All ones when j = abs (both below 2^63), else zero.
        *m = ((j ^ abs).wrapping_sub(1) >> 63).wrapping_neg();
    }
    let masks = masks.map(value_barrier_u64);
    let mut out = [[0u64; N]; C];
    for (e, mask) in table.iter().zip(masks) {
        for (o, e) in out.iter_mut().zip(e) {
            for (o, e) in o.iter_mut().zip(e) {
                *o |= e & mask;
            }
        }
    }
    out
}

/// `impl Field for $ty` where `$ty` is a tuple struct around a `core_cpu::Adx` token: `$n`
/// limbs in the Montgomery form of `$mont` (a `Mont64<$n>`, which also does the conversions
/// and comparisons), products by the kernels `$mul` and `$sqr` (which take the token),
/// additions by `$add` and `$sub`, and inversion by constant-time safegcd with the modulus
/// `$gcd`. With a `point` part, also halving and the point kernels `$double` and
/// `$add_affine` (which returns the sum and the `H | R` word), the comb and odd-multiple
/// tables `$comb` and `$odd`, and the window scan on masks; `$extra` holds what one curve
/// adds.
macro_rules! adx_field {
    (
        $ty:ty, $n:literal, mont: $mont:expr, gcd: $gcd:expr,
        mul: $mul:path, sqr: $sqr:path, add: $add:expr, sub: $sub:expr,
        $(point: {
            halve: $halve:path, double: $double:path, add_affine: $add_affine:path,
            comb: $comb:expr, odd_g: $odd:expr $(,)?
        },)?
        { $($extra:tt)* }
    ) => {
        impl $crate::nist::Field for $ty {
            type E = [u64; $n];

            $($extra)*

            fn modulus(&self) -> &'static [u8] {
                $mont.modulus_be()
            }

            #[inline]
            fn zero(&self) -> [u64; $n] {
                [0; $n]
            }

            #[inline]
            fn one(&self) -> [u64; $n] {
                $mont.one()
            }

            #[inline]
            fn add(&self, a: &[u64; $n], b: &[u64; $n]) -> [u64; $n] {
                $add(a, b)
            }

            #[inline]
            fn sub(&self, a: &[u64; $n], b: &[u64; $n]) -> [u64; $n] {
                $sub(a, b)
            }

            #[inline]
            fn mul(&self, a: &[u64; $n], b: &[u64; $n]) -> [u64; $n] {
                $mul(self.0, a, b)
            }

            #[inline]
            fn sqr(&self, a: &[u64; $n]) -> [u64; $n] {
                $sqr(self.0, a)
            }

            #[inline]
            fn select(a: &[u64; $n], b: &[u64; $n], choice: subtle::Choice) -> [u64; $n] {
                $crate::nist::Mont64::<$n>::select(a, b, choice)
            }

            fn is_zero(a: &[u64; $n]) -> subtle::Choice {
                $crate::nist::Mont64::<$n>::is_zero(a)
            }

            fn import_be(&self, bytes: &[u8]) -> ([u64; $n], subtle::Choice) {
                $mont.import_be(bytes)
            }

            fn import_be_reduce(&self, bytes: &[u8]) -> [u64; $n] {
                $mont.import_be_reduce(bytes)
            }

            fn to_be(&self, a: &[u64; $n], out: &mut [u8]) {
                $mont.to_be(a, out);
            }

            fn invert(&self, a: &[u64; $n]) -> [u64; $n] {
                $mont.invert_safegcd(&$gcd, a)
            }

            fn invert_vartime(&self, a: &[u64; $n]) -> [u64; $n] {
                $mont.invert_safegcd_vartime(&$gcd, a)
            }

            $(
            #[inline]
            fn halve(&self, a: &[u64; $n]) -> [u64; $n] {
                $halve(a)
            }

            fn comb(&self) -> &'static [[[u64; $n]; 2]] {
                $comb
            }

            fn odd_g(&self) -> &'static [[[u64; $n]; 2]] {
                $odd
            }

            #[inline]
            fn jac_double(&self, p: &mut [[u64; $n]; 3]) -> bool {
                $double(self.0, p);
                true
            }

            #[inline]
            fn jac_add_affine(
                &self,
                p: &[[u64; $n]; 3],
                x2: &[u64; $n],
                y2: &[u64; $n],
            ) -> Option<([[u64; $n]; 3], subtle::Choice)> {
                let (sum, hr) = $add_affine(self.0, p, x2, y2);
                Some((sum, $crate::nist::x86_adx::zero_word(hr)))
            }

            /// On plain masks ([`select_masked`](crate::nist::x86_adx::select_masked)).
            #[inline(always)]
            fn select_point(&self, table: &[[[u64; $n]; 3]], abs: u8) -> [[u64; $n]; 3] {
                $crate::nist::x86_adx::select_masked(table, abs)
            }
            )?
        }
    };
}

pub(crate) use adx_field;

#[cfg(test)]
mod tests {
    use super::*;

    /// The mask scan against a `Choice` scan, for every `abs` from 0 (zeros) to past the end
    /// (zeros too), on comb rows (two coordinates) and window tables (three) of 8 and 16.
    #[test]
    fn select_masked_matches_a_choice_scan() {
        fn check<const C: usize>(len: usize) {
            let mut table = [[[0u64; 6]; C]; 16];
            for (i, w) in table.iter_mut().flatten().flatten().enumerate() {
                *w = (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            }
            for abs in (0u8..=17).chain([32, 255]) {
                let mut want = [[0u64; 6]; C];
                for (j, e) in table[..len].iter().enumerate() {
                    let hit = Choice::from(u8::from(usize::from(abs) == j + 1));
                    for (w, e) in want.iter_mut().zip(e) {
                        *w = super::super::Mont64::<6>::select(w, e, hit);
                    }
                }
                assert_eq!(select_masked(&table[..len], abs), want, "abs = {abs}, len {len}");
            }
        }
        for len in [8, 16] {
            check::<2>(len);
            check::<3>(len);
        }
    }

    #[test]
    fn zero_word_is_zero_exactly_at_zero() {
        assert!(bool::from(zero_word(0)));
        for w in [1, 2, 1 << 63, u64::MAX, 0x8000_0000] {
            assert!(!bool::from(zero_word(w)), "{w:#x}");
        }
    }
}
