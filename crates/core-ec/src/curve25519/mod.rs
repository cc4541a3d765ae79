//! Curve25519 arithmetic shared by X25519 and Ed25519: the field GF(2^255 − 19) in several
//! implementations, the Montgomery ladder, the edwards25519 group and scalars modulo its order.
//!
//! - `portable64`: radix 2^51 with 64×64→128-bit products and the 32-row fixed-base comb; the
//!   default on 64-bit targets, and only built there (on a 32-bit CPU its 128-bit products are
//!   library calls, and its 38 KiB of tables would not fit a micro:bit's flash beside the rest).
//! - `portable32`: radix 2^13 with only 32×32→32-bit products (Cortex-M0), the one-row
//!   fixed-base table and a 16-entry verification table; the default on 32-bit targets.
//! - `thumb1`: eight 32-bit words, the 512-bit product in Thumb-1 assembly, `portable32`'s
//!   tables; the default on 32-bit Arm with the `asm` feature (Cortex-M0), where `portable32`
//!   is compiled as its Rust twin for the firmware's cross-checks but is not a `FieldImpl`.
//! - `x86_adx`: four 64-bit limbs, multiplication with MULX/ADCX/ADOX in `asm!`; the default
//!   on `x86_64` CPUs with BMI2 and ADX that lack AVX-512 IFMA.
//! - `x86_avx512_ifma`: `x86_adx` with the X25519 ladder, the fixed-base comb and the verification
//!   double-scalar multiplication run four lanes wide on AVX-512 IFMA (`x86_avx512_ifma.rs`); the
//!   default where the CPU has both.
//!
//! The 64-bit implementations invert by safegcd (`safegcd.rs`), the others by Fermat's chain.
//!
//! The curve code (`montgomery`, `edwards`) is generic over the [`field::Field`] trait and is
//! instantiated once per implementation; [`FieldImpl`] picks the instantiation at run time.

#[macro_use]
mod edwards;
mod field;
mod montgomery;
pub(crate) mod portable32;
#[cfg(target_pointer_width = "64")]
pub(crate) mod portable64;
#[cfg(target_pointer_width = "64")]
mod safegcd;
pub(crate) mod scalar;
mod tables;
#[cfg(all(target_arch = "arm", feature = "asm"))]
pub(crate) mod thumb1;
#[cfg(all(target_arch = "x86_64", feature = "asm"))]
pub(crate) mod x86_adx;
#[cfg(all(target_arch = "x86_64", feature = "asm"))]
pub(crate) mod x86_avx512_ifma;

use core_hash::Registered;

pub(crate) use edwards::Point;
pub(crate) use field::Field;
pub(crate) use montgomery::ladder;

core_cpu::implementation_enum! {
    /// A Curve25519 field implementation, used by X25519 and Ed25519. Accelerated variants
    /// carry the CPU-feature tokens that prove they can run.
    ///
    /// `portable64` exists on 64-bit targets, `thumb1` on 32-bit Arm with the `asm` feature
    /// and `portable32` everywhere else; `available()` lists them after the accelerated ones
    /// this CPU has, the one suited to the word size first, so every one is tested there.
    /// `preferred()` (what the constructors use) is that first portable one as a constant
    /// where nothing is detected, so a Cortex-M0 image links only `thumb1`.
    ///
    /// ```
    /// use core_ec::Implementation;
    /// use core_ec::x25519::{FieldImpl, SecretKey};
    ///
    /// let key = SecretKey::from_bytes([1; 32]);
    /// for imp in FieldImpl::available() {
    ///     assert_eq!(key.clone().with_impl(imp).public_key(), key.public_key(), "{}", imp.name());
    /// }
    /// # #[cfg(not(all(target_arch = "arm", feature = "asm")))]
    /// assert!(FieldImpl::by_name("portable32").is_some());
    /// ```
    pub enum FieldImpl {
        accelerated {
            /// `x86_adx` with the X25519 ladder, the fixed-base comb and Ed25519 verification
            /// on AVX-512 IFMA, four lanes wide (`x86_64` only).
            X86Avx512Ifma(core_cpu::Adx, core_cpu::Avx512Ifma) => "x86_avx512_ifma"
                if all(target_arch = "x86_64", feature = "asm"),
            /// Four 64-bit limbs, MULX/ADCX/ADOX multiplication, the 32-row comb (`x86_64`
            /// only).
            X86Adx(core_cpu::Adx) => "x86_adx" if all(target_arch = "x86_64", feature = "asm"),
        }
        portable {
            /// Radix 2^51, 64×64→128-bit products, the 32-row fixed-base comb (64-bit targets
            /// only).
            Portable64 => "portable64" for 64 if target_pointer_width = "64",
            /// Eight 32-bit words, the product in Thumb-1 assembly (32-bit Arm with `asm`
            /// only): the Cortex-M0's, needing no detection, so first among the 32-bit ones.
            Thumb1 => "thumb1" for 32 if thumb1,
            /// Radix 2^13, 32×32→32-bit products only, the one-row fixed-base table:
            /// `thumb1`'s twin (a stored choice of two would link both fields in the TLS
            /// client firmware, which carried this one beside `thumb1`).
            Portable32 => "portable32" for 32 if twin,
        }
    }
}

/// Runs `$body` with `$f` bound to the field type of `$imp`.
macro_rules! with_field {
    ($imp:expr, $f:ident => $body:expr) => {
        match $imp {
            #[cfg(all(target_arch = "x86_64", feature = "asm"))]
            $crate::curve25519::FieldImpl::X86Adx(_)
            | $crate::curve25519::FieldImpl::X86Avx512Ifma(..) => {
                type $f = $crate::curve25519::x86_adx::Fe;
                $body
            }
            #[cfg(target_pointer_width = "64")]
            $crate::curve25519::FieldImpl::Portable64 => {
                type $f = $crate::curve25519::portable64::Fe;
                $body
            }
            #[cfg(all(target_arch = "arm", feature = "asm"))]
            $crate::curve25519::FieldImpl::Thumb1 => {
                type $f = $crate::curve25519::thumb1::Fe;
                $body
            }
            #[cfg(any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"))]
            $crate::curve25519::FieldImpl::Portable32 => {
                type $f = $crate::curve25519::portable32::Fe;
                $body
            }
        }
    };
}
pub(crate) use with_field;

/// Runs `$body` with `$p` bound to `k·B` (a [`Point`] in the field type of `$imp`), computed
/// by the fixed-base comb of `$imp`: four lanes at once on `x86_avx512_ifma`, the generic one
/// otherwise.
macro_rules! with_mul_base {
    ($imp:expr, $k:expr, $p:ident => $body:expr) => {
        match $imp {
            #[cfg(all(target_arch = "x86_64", feature = "asm"))]
            $crate::curve25519::FieldImpl::X86Avx512Ifma(adx, ifma) => {
                let $p = $crate::curve25519::x86_avx512_ifma::mul_base(adx, ifma, $k);
                $body
            }
            imp => $crate::curve25519::with_field!(imp, F => {
                let $p = $crate::curve25519::Point::<F>::mul_base($k);
                $body
            }),
        }
    };
}
pub(crate) use with_mul_base;

/// This module's rows of the crate registry.
pub(crate) fn implementations() -> impl Iterator<Item = Registered> {
    core_hash::registered::<FieldImpl>("curve25519")
}
