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
//!   stays reachable by name.
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

use core_hash::{Implementation, Registered};

pub(crate) use edwards::Point;
pub(crate) use field::Field;
pub(crate) use montgomery::ladder;

/// A Curve25519 field implementation, used by X25519 and Ed25519. Accelerated variants carry
/// the CPU-feature token that proves they can run.
///
/// `portable32` exists on every target, `portable64` on 64-bit ones and `thumb1` on 32-bit
/// Arm with the `asm` feature; `available()` lists the one suited to the target (after
/// `x86_adx` where the CPU has BMI2 and ADX), and [`Implementation::by_name`] also finds
/// `portable32` where that is another one, so both are tested there.
///
/// ```
/// use core_ec::Implementation;
/// use core_ec::x25519::{FieldImpl, SecretKey};
///
/// let key = SecretKey::from_bytes([1; 32]);
/// for imp in FieldImpl::available() {
///     assert_eq!(key.clone().with_impl(imp).public_key(), key.public_key(), "{}", imp.name());
/// }
/// assert!(FieldImpl::by_name("portable32").is_some());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FieldImpl {
    /// `x86_adx` with the X25519 ladder, the fixed-base comb and Ed25519 verification on
    /// AVX-512 IFMA, four lanes wide (`x86_64` only).
    #[cfg(all(target_arch = "x86_64", feature = "asm"))]
    X86Avx512Ifma(core_cpu::Adx, core_cpu::Avx512Ifma),
    /// Four 64-bit limbs, MULX/ADCX/ADOX multiplication, the 32-row comb (`x86_64` only).
    #[cfg(all(target_arch = "x86_64", feature = "asm"))]
    X86Adx(core_cpu::Adx),
    /// Radix 2^51, 64×64→128-bit products, the 32-row fixed-base comb (64-bit targets only).
    #[cfg(target_pointer_width = "64")]
    Portable64,
    /// Eight 32-bit words, the product in Thumb-1 assembly (32-bit Arm with `asm` only).
    #[cfg(all(target_arch = "arm", feature = "asm"))]
    Thumb1,
    /// Radix 2^13, 32×32→32-bit products only (Cortex-M0), the one-row fixed-base table.
    Portable32,
}

impl FieldImpl {
    /// The implementation for this target when no CPU feature is detected: the portable one
    /// suited to its word size.
    #[cfg(target_pointer_width = "64")]
    const DEFAULT: Self = Self::Portable64;
    /// The portable implementation suited to this target's word size.
    #[cfg(not(any(target_pointer_width = "64", all(target_arch = "arm", feature = "asm"))))]
    const DEFAULT: Self = Self::Portable32;
    /// On 32-bit Arm with `asm`, the Thumb-1 field (always available: no detection).
    #[cfg(all(target_arch = "arm", feature = "asm"))]
    const DEFAULT: Self = Self::Thumb1;
}

impl Implementation for FieldImpl {
    const ALL: &'static [&'static str] = &[
        #[cfg(all(target_arch = "x86_64", feature = "asm"))]
        "x86_avx512_ifma",
        #[cfg(all(target_arch = "x86_64", feature = "asm"))]
        "x86_adx",
        #[cfg(target_pointer_width = "64")]
        "portable64",
        #[cfg(all(target_arch = "arm", feature = "asm"))]
        "thumb1",
        "portable32",
    ];

    fn name(self) -> &'static str {
        match self {
            #[cfg(all(target_arch = "x86_64", feature = "asm"))]
            Self::X86Avx512Ifma(..) => "x86_avx512_ifma",
            #[cfg(all(target_arch = "x86_64", feature = "asm"))]
            Self::X86Adx(_) => "x86_adx",
            #[cfg(target_pointer_width = "64")]
            Self::Portable64 => "portable64",
            #[cfg(all(target_arch = "arm", feature = "asm"))]
            Self::Thumb1 => "thumb1",
            Self::Portable32 => "portable32",
        }
    }

    fn best() -> Self {
        #[cfg(all(target_arch = "x86_64", feature = "asm"))]
        return Self::available().next().unwrap_or(Self::DEFAULT);
        // Nothing to detect: a constant, so that the other fields' code is not linked.
        #[cfg(not(all(target_arch = "x86_64", feature = "asm")))]
        Self::DEFAULT
    }

    fn available() -> impl Iterator<Item = Self> {
        #[cfg(all(target_arch = "x86_64", feature = "asm"))]
        let (ifma, adx) = {
            let d = core_cpu::detected();
            let adx = core_cpu::Adx::from_features(d);
            let ifma = core_cpu::Avx512Ifma::from_features(d);
            (adx.zip(ifma).map(|(a, i)| Self::X86Avx512Ifma(a, i)), adx.map(Self::X86Adx))
        };
        #[cfg(not(all(target_arch = "x86_64", feature = "asm")))]
        let (ifma, adx) = (None, None);
        [ifma, adx, Some(Self::DEFAULT)].into_iter().flatten()
    }

    /// Also finds `portable32` on 64-bit targets and with `thumb1`, where `available()`
    /// leaves it out.
    fn by_name(name: &str) -> Option<Self> {
        Self::available().chain([Self::Portable32]).find(|i| i.name() == name)
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
