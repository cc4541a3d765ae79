//! Backend selection: the [`Implementation`] trait every algorithm's implementation enum has,
//! and [`implementation_enum!`](crate::implementation_enum), the one declaration they are all
//! written with, so the naming, ordering and detection rules live in one place.

use core::fmt::Debug;

/// One implementation of an algorithm: a backend such as `portable` or `x86_shani`.
pub trait Implementation: Copy + Debug + PartialEq + Eq + 'static {
    /// The names of every implementation of this algorithm, whether or not this CPU can run
    /// it, so a test can say which ones it could not check.
    const ALL: &'static [&'static str];

    /// This implementation's name, as in [`Implementation::ALL`].
    fn name(self) -> &'static str;

    /// The fastest implementation this CPU can run (the one `new()` uses).
    fn best() -> Self;

    /// Every implementation this CPU can run, fastest first; the portable one is always last.
    fn available() -> impl Iterator<Item = Self>;

    /// The implementation with this name, if this CPU can run it.
    fn by_name(name: &str) -> Option<Self> {
        Self::available().find(|i| i.name() == name)
    }
}

/// Declares an implementation enum and its [`Implementation`] impl.
///
/// Variants come in two groups, each in order of preference.
///
/// - `accelerated` variants carry the tokens that prove their instructions exist, so they can
///   only be obtained from detection. A variant with several tokens (`X86Ifma(Adx,
///   Avx512Ifma)`) is available when every one of them is.
/// - `portable` variants always run, and a `for 32`/`for 64` suffix says which word size one is
///   meant for: on this target, the portables meant for its word size (or for none in
///   particular) come before the others.
///
/// An `if <cfg>` suffix on either kind compiles the variant (its label, its match arms) only
/// where that `cfg` holds: an x86-only backend, 64-bit-limb code kept out of 32-bit images, an
/// assembly backend that exists only with the `asm` feature.
///
/// Generated: the enum (`Clone, Copy, Debug, PartialEq, Eq`, non-exhaustive); `ALL`
/// (accelerated then portable labels, as listed); `name`; `available` (the accelerated variants
/// this CPU has, then every portable one, those for the native word size first); `best` (the
/// first available); the constant `PORTABLE`, the first portable variant for the native
/// word size; and `preferred()`, `best()` where detection exists and `PORTABLE` elsewhere
/// (what default constructors use, so a Cortex-M0 image links one backend).
///
/// # Converting the hand-written enums (issue 28, round 2)
///
/// - core-ec's `FieldImpl`: `X86Ifma(Adx, Avx512Ifma) if target_arch = "x86_64"` (labelled
///   `x86_avx512_ifma`, the one spelling xtask's label check accepts) and
///   `X86Adx(Adx) if target_arch = "x86_64"` accelerated; portable `Portable64 for 64 if
///   target_pointer_width = "64"`, `Thumb1 for 32 if all(target_arch = "arm", feature =
///   "asm")`, `Portable32 for 32`. Thumb-1 needs no detection, so it is the first 32-bit
///   portable and `PORTABLE` picks it on the Cortex-M0 exactly as the hand-written `DEFAULT`
///   did (the example below is this enum).
/// - `P256Impl`, `P384Impl` and the `NistImpl`s: the same shape, with their ADX/IFMA variants
///   accelerated and their Montgomery-15/64 variants portable by word size.
/// - core-aead's `GcmImpl`: its fused loops are accelerated variants
///   (`X86VaesVpclmul512(Vaes512)`, `X86AesniPclmul(Aes, ClMul, Avx)`); `Composed(AesImpl,
///   GhashImpl)` carries two implementations rather than a token, which this macro does not
///   model: it stays a hand-written arm around the generated part (or a `composed` group is
///   added here then), its labels the product of the two enums' `ALL`.
///
/// ```
/// core_cpu::implementation_enum! {
///     /// The curve25519 field arithmetic, shaped like core-ec's `FieldImpl`.
///     pub enum FieldImpl {
///         accelerated {
///             /// ADX multiplication with the IFMA ladder.
///             X86Ifma(core_cpu::Adx, core_cpu::Avx512Ifma) => "x86_avx512_ifma"
///                 if target_arch = "x86_64",
///             /// MULX/ADCX/ADOX multiplication.
///             X86Adx(core_cpu::Adx) => "x86_adx" if target_arch = "x86_64",
///         }
///         portable {
///             /// Radix 2^51.
///             Portable64 => "portable64" for 64 if target_pointer_width = "64",
///             /// Thumb-1 assembly.
///             Thumb1 => "thumb1" for 32 if all(target_arch = "arm", feature = "asm"),
///             /// Radix 2^13.
///             Portable32 => "portable32" for 32,
///         }
///     }
/// }
///
/// use core_cpu::Implementation;
/// #[cfg(all(target_arch = "x86_64", target_pointer_width = "64"))]
/// assert_eq!(FieldImpl::ALL, ["x86_avx512_ifma", "x86_adx", "portable64", "portable32"]);
/// // Portable code last, the native word size first.
/// let available: Vec<_> = FieldImpl::available().collect();
/// assert_eq!(available.last(), Some(&FieldImpl::Portable32));
/// #[cfg(target_pointer_width = "64")]
/// assert_eq!(available[available.len() - 2], FieldImpl::Portable64);
/// // IFMA only where both of its tokens are.
/// #[cfg(target_arch = "x86_64")]
/// assert_eq!(
///     FieldImpl::by_name("x86_avx512_ifma").is_some(),
///     core_cpu::Adx::get().is_some() && core_cpu::Avx512Ifma::get().is_some()
/// );
/// assert_eq!(FieldImpl::best(), available[0]);
/// ```
#[macro_export]
macro_rules! implementation_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            accelerated {
                $( $(#[$ameta:meta])* $accel:ident($($token:ty),+) => $alabel:literal
                    $(if $acfg:meta)?, )*
            }
            portable {
                $( $(#[$pmeta:meta])* $port:ident => $plabel:literal $(for $bits:literal)?
                    $(if $pcfg:meta)?, )+
            }
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[non_exhaustive]
        $vis enum $name {
            $( $(#[$ameta])* $(#[cfg($acfg)])? $accel($($token),+), )*
            $( $(#[$pmeta])* $(#[cfg($pcfg)])? $port, )+
        }

        impl $name {
            /// The portable variants with the word size each is meant for (0: any).
            const PORTABLES: &'static [($name, u32)] =
                &[$( $(#[cfg($pcfg)])? ($name::$port, $crate::implementation_enum!(@bits $($bits)?)) ),+];

            /// The portable implementation suited to this target's word size.
            #[allow(dead_code)]
            pub(crate) const PORTABLE: $name = {
                let mut i = 0;
                let mut chosen = Self::PORTABLES[0].0;
                while i < Self::PORTABLES.len() {
                    let bits = Self::PORTABLES[i].1;
                    if bits == 0 || bits == usize::BITS {
                        chosen = Self::PORTABLES[i].0;
                        break;
                    }
                    i += 1;
                }
                chosen
            };

            /// The implementation a default constructor should run on:
            /// [`best`]($crate::Implementation::best) where run-time detection may find an
            /// accelerated one (x86-64, aarch64); elsewhere the constant `PORTABLE`
            /// (`thumb1` on 32-bit Arm with `asm`, where it is listed first), so that a small
            /// device's image links that one implementation and not every portable twin.
            #[allow(dead_code)]
            #[inline]
            #[must_use]
            $vis fn preferred() -> Self {
                #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
                return <Self as $crate::Implementation>::best();
                #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
                Self::PORTABLE
            }
        }

        impl $crate::Implementation for $name {
            const ALL: &'static [&'static str] =
                &[$( $(#[cfg($acfg)])? $alabel, )* $( $(#[cfg($pcfg)])? $plabel ),+];

            fn name(self) -> &'static str {
                match self {
                    $( $(#[cfg($acfg)])? Self::$accel(..) => $alabel, )*
                    $( $(#[cfg($pcfg)])? Self::$port => $plabel, )+
                }
            }

            fn best() -> Self {
                <Self as $crate::Implementation>::available().next().unwrap_or(Self::PORTABLE)
            }

            // Each accelerated variant is built from one snapshot of the detected features,
            // `None` unless every token it carries is there.
            #[allow(clippy::redundant_closure_call)]
            fn available() -> impl Iterator<Item = Self> {
                let cpu = $crate::detected();
                let native = |&(_, bits): &($name, u32)| bits == 0 || bits == usize::BITS;
                let accelerated = [
                    None::<Self>,
                    $( $(#[cfg($acfg)])?
                        (|| Some(Self::$accel($(<$token>::from_features(cpu)?),+)))(), )*
                ];
                let _ = cpu;
                accelerated
                    .into_iter()
                    .flatten()
                    .chain(Self::PORTABLES.iter().copied().filter(native).map(|(i, _)| i))
                    .chain(Self::PORTABLES.iter().copied().filter(move |p| !native(p)).map(|(i, _)| i))
            }
        }
    };
    (@bits) => { 0 };
    (@bits $bits:literal) => { $bits };
}

#[cfg(test)]
mod tests {
    use crate::{Adx, Avx2, Avx512Ifma, Implementation};

    crate::implementation_enum! {
        /// Every form the macro takes.
        enum Shape {
            accelerated {
                /// Two tokens.
                Both(Adx, Avx512Ifma) => "x86_both" if target_arch = "x86_64",
                /// One token, everywhere.
                One(Avx2) => "x86_one",
                /// Never compiled.
                Gone(Adx) => "gone" if any(),
            }
            portable {
                /// Never compiled either.
                Absent => "absent" if any(),
                /// The 64-bit portable.
                Wide => "wide" for 64,
                /// The 32-bit portable.
                Narrow => "narrow" for 32,
            }
        }
    }

    #[test]
    fn labels_order_and_availability() {
        #[cfg(target_arch = "x86_64")]
        assert_eq!(Shape::ALL, ["x86_both", "x86_one", "wide", "narrow"]);
        #[cfg(not(target_arch = "x86_64"))]
        assert_eq!(Shape::ALL, ["x86_one", "wide", "narrow"]);
        let both = Adx::get().is_some() && Avx512Ifma::get().is_some();
        assert_eq!(Shape::by_name("x86_both").is_some(), cfg!(target_arch = "x86_64") && both);
        assert_eq!(Shape::by_name("x86_one").is_some(), Avx2::get().is_some());
        assert!(Shape::by_name("gone").is_none() && Shape::by_name("absent").is_none());
        let native = if usize::BITS == 64 { Shape::Wide } else { Shape::Narrow };
        assert_eq!(Shape::PORTABLE, native);
        let available: std::vec::Vec<Shape> = Shape::available().collect();
        let n = available.len();
        assert_eq!(available[n - 2], native, "the native portable before the other");
        assert_eq!(Shape::best(), available[0]);
        for imp in available {
            assert_eq!(Shape::by_name(imp.name()), Some(imp));
        }
    }
}
