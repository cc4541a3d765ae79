//! `implementation_enum!`: the declaration every algorithm's implementation enum is written
//! with, in this crate and the sibling Halite crates, so that the naming, ordering and CPU
//! detection rules of [`Implementation`](crate::Implementation) are written once.

/// Declares an implementation enum and its [`Implementation`](crate::Implementation) impl.
///
/// Variants come in two groups, each in order of preference. `accelerated` variants carry the
/// `core_cpu` token that proves their instructions exist (so they can only be obtained from
/// detection); `portable` ones always run, and a `for 32`/`for 64` suffix says which word size
/// one is meant for: on this target, the portables meant for its word size (or for none in
/// particular) come before the others.
///
/// Generated: the enum (`Clone, Copy, Debug, PartialEq, Eq`, non-exhaustive);
/// `ALL` (accelerated then portable names, as listed); `name`; `available` (the accelerated
/// variants this CPU has, then every portable one, those for the native word size first);
/// an `if <cfg>` suffix compiles a portable variant only where that `cfg` holds (used to keep
/// 64-bit-limb backends out of 32-bit images);
/// `best` (the first available); and the constant `PORTABLE`, the preferred portable
/// variant.
///
/// ```
/// core_hash::implementation_enum! {
///     /// How to frobnicate.
///     pub enum FrobImpl {
///         accelerated {
///             /// With AVX2.
///             X86Avx2(core_cpu::Avx2) => "x86_avx2",
///         }
///         portable {
///             /// On 64-bit words.
///             Portable64 => "portable64" for 64,
///             /// On 32-bit words.
///             Portable32 => "portable32" for 32,
///         }
///     }
/// }
///
/// use core_hash::Implementation;
/// assert_eq!(FrobImpl::ALL, ["x86_avx2", "portable64", "portable32"]);
/// assert_eq!(FrobImpl::available().last(), Some(FrobImpl::Portable32));
/// assert!(FrobImpl::by_name("portable32").is_some());
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! implementation_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            accelerated {
                $( $(#[$ameta:meta])* $accel:ident($token:ty) => $alabel:literal, )*
            }
            portable {
                $( $(#[$pmeta:meta])* $port:ident => $plabel:literal $(for $bits:literal)? $(if $pcfg:meta)?, )+
            }
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[non_exhaustive]
        $vis enum $name {
            $( $(#[$ameta])* $accel($token), )*
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
        }

        impl $crate::Implementation for $name {
            const ALL: &'static [&'static str] = &[$($alabel,)* $( $(#[cfg($pcfg)])? $plabel ),+];

            fn name(self) -> &'static str {
                match self {
                    $( Self::$accel(_) => $alabel, )*
                    $( $(#[cfg($pcfg)])? Self::$port => $plabel, )+
                }
            }

            fn best() -> Self {
                <Self as $crate::Implementation>::available().next().unwrap_or(Self::PORTABLE)
            }

            fn available() -> impl Iterator<Item = Self> {
                let cpu = $crate::__core_cpu::detected();
                let native = |&(_, bits): &($name, u32)| bits == 0 || bits == usize::BITS;
                let accelerated: [Option<Self>; $crate::implementation_enum!(@count $($accel)*)] =
                    [$( <$token>::from_features(cpu).map(Self::$accel) ),*];
                let _ = cpu;
                accelerated
                    .into_iter()
                    .flatten()
                    .chain(Self::PORTABLES.iter().copied().filter(native).map(|(i, _)| i))
                    .chain(Self::PORTABLES.iter().copied().filter(move |p| !native(p)).map(|(i, _)| i))
            }
        }
    };
    (@count) => { 0 };
    (@count $first:ident $($rest:ident)*) => { 1 + $crate::implementation_enum!(@count $($rest)*) };
    (@bits) => { 0 };
    (@bits $bits:literal) => { $bits };
}
