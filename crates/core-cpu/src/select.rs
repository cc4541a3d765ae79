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
/// # How a backend is chosen
///
/// Every algorithm with more than one backend has one enum declared with this macro; there is
/// no other selection mechanism. A key or context is built for one variant (`new()` takes
/// `preferred()`, `with_impl` any variant, `by_name` a label) and stores that backend's
/// state, so each call is a `match` on the stored value, never a fresh detection. Where
/// run-time detection exists (x86-64, aarch64) `preferred()` is the first accelerated variant
/// whose tokens detection grants, else the first portable one for the native word size;
/// everywhere else it is the compile-time constant `PORTABLE`, so a Cortex-M0 image links one
/// backend. On 32-bit Arm with `asm` that constant is the `if thumb1` variant (the Thumb-1
/// assembly), and its `if twin` Rust twin is compiled only with `portable-twins`, for the
/// firmware that checks one against the other. The assembly a backend runs is in `core-asm`
/// (`asm/`), whose crate docs say how it is laid out; the backend files keep the Rust around
/// it.
///
/// # Variants
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
/// assembly backend that exists only with the `asm` feature. Two suffixes name the Cortex-M0
/// pair, so no enum spells their `cfg`s:
///
/// - `if thumb1`: a Thumb-1 assembly backend, compiled on 32-bit Arm with the invoking crate's
///   `asm` feature. It needs no detection, so listed first among the 32-bit portables it is
///   `PORTABLE` (and `preferred()`) there, a compile-time constant.
/// - `if twin`: the Rust twin of such a backend, compiled everywhere else and, on 32-bit Arm
///   with `asm`, only with the invoking crate's `portable-twins` feature (which the firmware
///   that cross-checks the two, m0-kat, enables). A key stores its implementation, so the
///   compiler cannot drop a second listed backend from an image's dispatch: without the
///   feature the Cortex-M0 image links the Thumb-1 one alone, with it both are ordinary
///   implementations that `by_name` reaches.
///
/// An enum may have a `composed` group in place of `portable`: one variant carrying an
/// implementation of each of two other algorithms (AES-GCM's `Composed(AesImpl, GhashImpl)`),
/// with the function that pairs a second with each first (`paired by GcmImpl::pair`) and the
/// compositions to list, `"first+second"`. Every pair runs and is named `first+second`;
/// `ALL` lists the accelerated labels then the listed compositions whose halves this target
/// compiles (so no composition spells a `cfg`); `available()` gives the accelerated variants,
/// then each available first implementation with its pair, where listed; `PORTABLE` composes
/// the two `PORTABLE`s.
///
/// Generated: the enum (`Clone, Copy, Debug, PartialEq, Eq`, non-exhaustive); `ALL`
/// (accelerated then portable labels, as listed); `name`; `available` (the accelerated variants
/// this CPU has, then every portable one, those for the native word size first); `best` (the
/// first available); the constant `PORTABLE`, the first portable variant for the native
/// word size; and `preferred()`, `best()` where detection exists and `PORTABLE` elsewhere
/// (what default constructors use, so a Cortex-M0 image links one backend).
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
///             Thumb1 => "thumb1" for 32 if thumb1,
///             /// Radix 2^13, the Thumb-1 backend's twin.
///             Portable32 => "portable32" for 32 if twin,
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
    (@bits) => { 0 };
    (@bits $bits:literal) => { $bits };
    // `preferred()`, the same for both shapes.
    (@preferred $vis:vis) => {
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
    };
    // The accelerated variants this CPU has, in order: each is built from one snapshot of the
    // detected features, `None` unless every token it carries is there.
    (@accelerated $( $accel:ident($($token:ty),+) $(if $acfg:meta)?, )*) => {{
        let cpu = $crate::detected();
        #[allow(clippy::redundant_closure_call)]
        let accelerated = [
            None::<Self>,
            $( $(#[cfg($acfg)])? (|| Some(Self::$accel($(<$token>::from_features(cpu)?),+)))(), )*
        ];
        let _ = cpu;
        accelerated.into_iter().flatten()
    }};
    // An enum whose last variant composes two other implementations (AES-GCM: an AES one and a
    // GHASH one) instead of carrying tokens.
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            accelerated {
                $( $(#[$ameta:meta])* $accel:ident($($token:ty),+) => $alabel:literal
                    $(if $acfg:meta)?, )*
            }
            composed {
                $(#[$cmeta:meta])*
                $comp:ident($first:ty, $second:ty) paired by $pair:path
                    => [$($clabel:literal),+ $(,)?] $(,)?
            }
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[non_exhaustive]
        $vis enum $name {
            $( $(#[$ameta])* $(#[cfg($acfg)])? $accel($($token),+), )*
            $(#[$cmeta])*
            $comp($first, $second),
        }

        impl $name {
            /// Both portable implementations, composed.
            #[allow(dead_code)]
            pub(crate) const PORTABLE: $name = Self::$comp(<$first>::PORTABLE, <$second>::PORTABLE);

            $crate::implementation_enum!(@preferred $vis);
        }

        impl $crate::Implementation for $name {
            // The listed compositions whose two halves this target compiles.
            const ALL: &'static [&'static str] = {
                use $crate::Implementation as I;
                const LISTED: &[&str] = &[$( $(#[cfg($acfg)])? $alabel, )* $($clabel),+];
                const KEPT: ([&str; LISTED.len()], usize) =
                    $crate::__composed::listed(LISTED, <$first as I>::ALL, <$second as I>::ALL);
                KEPT.0.split_at(KEPT.1).0
            };

            fn name(self) -> &'static str {
                use $crate::Implementation as I;
                /// `"first+second"` for every pair of this target's implementations.
                static PAIRS: [[$crate::__composed::Label; <$second as I>::ALL.len()];
                    <$first as I>::ALL.len()] =
                    $crate::__composed::product(<$first as I>::ALL, <$second as I>::ALL);
                match self {
                    $( $(#[cfg($acfg)])? Self::$accel(..) => $alabel, )*
                    Self::$comp(a, b) => {
                        let i = <$first as I>::ALL.iter().position(|n| *n == a.name());
                        let j = <$second as I>::ALL.iter().position(|n| *n == b.name());
                        i.zip(j).map_or("", |(i, j)| PAIRS[i][j].as_str())
                    }
                }
            }

            fn best() -> Self {
                <Self as $crate::Implementation>::available().next().unwrap_or(Self::PORTABLE)
            }

            /// The accelerated implementations this CPU has, then each implementation of the
            /// first kind it runs composed with the second `pair` gives it, where listed.
            fn available() -> impl Iterator<Item = Self> {
                $crate::implementation_enum!(@accelerated $( $accel($($token),+) $(if $acfg)?, )*)
                    .chain(
                        <$first as $crate::Implementation>::available()
                            .map(|a| Self::$comp(a, $pair(a)))
                            .filter(|imp| {
                                <Self as $crate::Implementation>::ALL
                                    .contains(&$crate::Implementation::name(*imp))
                            }),
                    )
            }
        }
    };
    // The portable variants are rewritten one at a time, `if thumb1` and `if twin` into the
    // `cfg`s they stand for, then the whole declaration is generated by `@emit`.
    (@portable $head:tt [$($done:tt)*]
        $(#[$m:meta])* $p:ident => $l:literal $(for $b:literal)? if thumb1, $($rest:tt)*
    ) => {
        $crate::implementation_enum!(@portable $head [$($done)*
            $(#[$m])* $p => $l $(for $b)? if all(target_arch = "arm", feature = "asm"),
        ] $($rest)*);
    };
    (@portable $head:tt [$($done:tt)*]
        $(#[$m:meta])* $p:ident => $l:literal $(for $b:literal)? if twin, $($rest:tt)*
    ) => {
        $crate::implementation_enum!(@portable $head [$($done)*
            $(#[$m])* $p => $l $(for $b)?
                if any(not(all(target_arch = "arm", feature = "asm")), feature = "portable-twins"),
        ] $($rest)*);
    };
    (@portable $head:tt [$($done:tt)*]
        $(#[$m:meta])* $p:ident => $l:literal $(for $b:literal)? $(if $c:meta)?, $($rest:tt)*
    ) => {
        $crate::implementation_enum!(@portable $head [$($done)*
            $(#[$m])* $p => $l $(for $b)? $(if $c)?,
        ] $($rest)*);
    };
    (@portable [$($head:tt)*] [$($done:tt)*]) => {
        $crate::implementation_enum!(@emit $($head)* portable { $($done)* });
    };
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            accelerated { $($accel:tt)* }
            portable { $($port:tt)+ }
        }
    ) => {
        $crate::implementation_enum!(@portable
            [$(#[$meta])* $vis enum $name accelerated { $($accel)* }] [] $($port)+);
    };
    (@emit
        $(#[$meta:meta])*
        $vis:vis enum $name:ident
            accelerated {
                $( $(#[$ameta:meta])* $accel:ident($($token:ty),+) => $alabel:literal
                    $(if $acfg:meta)?, )*
            }
            portable {
                $( $(#[$pmeta:meta])* $port:ident => $plabel:literal $(for $bits:literal)?
                    $(if $pcfg:meta)?, )+
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

            $crate::implementation_enum!(@preferred $vis);
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

            fn available() -> impl Iterator<Item = Self> {
                let native = |&(_, bits): &($name, u32)| bits == 0 || bits == usize::BITS;
                $crate::implementation_enum!(@accelerated $( $accel($($token),+) $(if $acfg)?, )*)
                    .chain(Self::PORTABLES.iter().copied().filter(native).map(|(i, _)| i))
                    .chain(Self::PORTABLES.iter().copied().filter(move |p| !native(p)).map(|(i, _)| i))
            }
        }
    };
}

/// Compile-time label arithmetic for `implementation_enum!`'s `composed` group. Not an API.
#[doc(hidden)]
pub mod __composed {
    /// Room for the longest composed label (`x86_vaes512+x86_vpclmul512` is 26 bytes).
    const ROOM: usize = 48;

    /// A label `first+second` built at compile time.
    #[derive(Clone, Copy)]
    pub struct Label {
        bytes: [u8; ROOM],
        len: usize,
    }

    impl Label {
        const EMPTY: Self = Self { bytes: [0; ROOM], len: 0 };

        /// `a+b` (a compile error if longer than `ROOM`).
        const fn join(a: &str, b: &str) -> Self {
            let mut label = Self::EMPTY;
            let parts: [&[u8]; 3] = [a.as_bytes(), b"+", b.as_bytes()];
            let mut p = 0;
            while p < parts.len() {
                let mut i = 0;
                while i < parts[p].len() {
                    label.bytes[label.len] = parts[p][i];
                    label.len += 1;
                    i += 1;
                }
                p += 1;
            }
            label
        }

        /// The label as text.
        pub fn as_str(&'static self) -> &'static str {
            core::str::from_utf8(self.bytes.split_at(self.len).0).unwrap_or("")
        }
    }

    /// Byte equality, in a `const fn`.
    const fn eq(a: &[u8], b: &[u8]) -> bool {
        if a.len() != b.len() {
            return false;
        }
        let mut i = 0;
        while i < a.len() {
            if a[i] != b[i] {
                return false;
            }
            i += 1;
        }
        true
    }

    /// Whether `list` holds `name`.
    const fn holds(list: &[&str], name: &[u8]) -> bool {
        let mut i = 0;
        while i < list.len() {
            if eq(list[i].as_bytes(), name) {
                return true;
            }
            i += 1;
        }
        false
    }

    /// `[[a+b for b in second] for a in first]`.
    pub const fn product<const A: usize, const B: usize>(
        first: &[&str],
        second: &[&str],
    ) -> [[Label; B]; A] {
        let mut out = [[Label::EMPTY; B]; A];
        let mut i = 0;
        while i < A {
            let mut j = 0;
            while j < B {
                out[i][j] = Label::join(first[i], second[j]);
                j += 1;
            }
            i += 1;
        }
        out
    }

    /// The labels of `listed` to keep, first the `N` slots then how many are used: a label
    /// without `+` always, `a+b` when `first` holds `a` and `second` holds `b`.
    pub const fn listed<const N: usize>(
        listed: &[&'static str],
        first: &[&str],
        second: &[&str],
    ) -> ([&'static str; N], usize) {
        let mut out = [""; N];
        let (mut i, mut n) = (0, 0);
        while i < listed.len() {
            let label = listed[i].as_bytes();
            let mut plus = 0;
            while plus < label.len() && label[plus] != b'+' {
                plus += 1;
            }
            let (a, rest) = label.split_at(plus);
            if rest.is_empty() || (holds(first, a) && holds(second, rest.split_at(1).1)) {
                out[n] = listed[i];
                n += 1;
            }
            i += 1;
        }
        (out, n)
    }
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
