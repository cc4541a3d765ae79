//! Zero-sized proofs that a CPU feature set was detected.
//!
//! A token can only be obtained from [`features()`](crate::features), so a function that takes
//! one as an argument can use the instructions it names without re-checking. Tokens for
//! another architecture's features exist everywhere (so code naming them compiles on every
//! target) but `get()` never returns them there.

use crate::Features;

macro_rules! tokens {
    ($($(#[$doc:meta])* $name:ident = $req:expr;)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $name(());

        impl $name {
            /// The features this token proves.
            pub const REQUIRES: Features = $req;

            /// The token, if this CPU has every feature it needs (and none was disabled).
            #[inline]
            #[must_use]
            pub fn get() -> Option<Self> {
                Self::from_features(detected())
            }

            /// The token, if `features` has every feature it needs. Only a set that came from
            /// [`features()`](crate::features) is accepted: this is for picking several tokens
            /// from one snapshot.
            #[inline]
            #[must_use]
            pub fn from_features(features: Detected) -> Option<Self> {
                features.0.contains(Self::REQUIRES).then_some(Self(()))
            }

            /// This token as a weaker one `T`, whose features are all among this one's (a
            /// `Vaes` proves what an `Aes` does): checked when it is compiled, so a conversion
            /// that would claim a feature this token does not prove does not build.
            #[inline]
            #[must_use]
            pub fn weaken<T: Token>(self) -> T {
                const { assert!(Self::REQUIRES.contains(T::REQUIRES), "not a weaker token") };
                T::proven()
            }
        }

        impl sealed::Sealed for $name {
            fn proven() -> Self {
                Self(())
            }
        }

        impl Token for $name {
            const REQUIRES: Features = Self::REQUIRES;
        }
    )*};
}

/// What every token has in common: the features it proves, which is what makes one token
/// convertible into another ([`Aes::weaken`] and its kind on every token). Sealed: only the
/// tokens here implement it.
pub trait Token: Copy + sealed::Sealed {
    /// The features this token proves.
    const REQUIRES: Features;
}

mod sealed {
    /// The constructor behind `weaken`, out of reach outside this crate.
    pub trait Sealed {
        /// The token, whose features the caller has proven by holding a stronger one.
        fn proven() -> Self;
    }
}

/// A feature set as returned by [`detected()`], which tokens may be taken from. Unlike
/// [`Features`], it cannot be built by hand, so it cannot claim features the CPU lacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Detected(Features);

impl Detected {
    /// The features in this snapshot.
    #[must_use]
    pub const fn features(self) -> Features {
        self.0
    }
}

/// The detected features, as a snapshot tokens can be taken from.
#[inline]
#[must_use]
pub fn detected() -> Detected {
    Detected(crate::features())
}

const fn all(sets: &[Features]) -> Features {
    let mut acc = Features::NONE;
    let mut i = 0;
    while i < sets.len() {
        acc = acc.union(sets[i]);
        i += 1;
    }
    acc
}

tokens! {
    /// x86: SSSE3 (`pshufb`) on top of SSE2.
    Ssse3 = all(&[Features::SSE2, Features::SSSE3]);
    /// x86: SSE4.1 with SSSE3.
    Sse41 = all(&[Features::SSE2, Features::SSSE3, Features::SSE41]);
    /// x86: AES-NI with SSSE3 (byte shuffles are always needed around it).
    Aes = all(&[Features::SSE2, Features::SSSE3, Features::AES]);
    /// x86: AES-NI and PCLMULQDQ, for GCM.
    AesClMul = all(&[Features::SSE2, Features::SSSE3, Features::AES, Features::PCLMULQDQ]);
    /// x86: PCLMULQDQ with SSSE3.
    ClMul = all(&[Features::SSE2, Features::SSSE3, Features::PCLMULQDQ]);
    /// x86: SHA extensions with SSSE3 and SSE4.1 (as every SHA-NI routine needs).
    Sha = all(&[Features::SSE2, Features::SSSE3, Features::SSE41, Features::SHA]);
    /// x86: AVX.
    Avx = all(&[Features::SSE2, Features::SSSE3, Features::SSE41, Features::AVX]);
    /// x86: AVX2 with BMI1 and BMI2 (every AVX2 CPU has them; `rorx`/`andn` come with it).
    Avx2 = all(&[Features::SSE2, Features::SSSE3, Features::SSE41, Features::AVX,
                 Features::AVX2, Features::BMI1, Features::BMI2]);
    /// x86: BMI2 and ADX, for `mulx`/`adcx`/`adox` carry chains.
    Adx = all(&[Features::BMI1, Features::BMI2, Features::ADX]);
    /// x86: AVX-512 F, VL, BW and DQ (the Skylake-server set) with AVX2.
    Avx512 = all(&[Features::SSE2, Features::SSSE3, Features::SSE41, Features::AVX,
                   Features::AVX2, Features::BMI1, Features::BMI2, Features::AVX512F,
                   Features::AVX512VL, Features::AVX512BW, Features::AVX512DQ]);
    /// x86: AVX-512 IFMA on top of [`Avx512`].
    Avx512Ifma = all(&[Avx512::REQUIRES, Features::AVX512IFMA]);
    /// x86: VAES with AES-NI on top of [`Avx2`]: the block cipher alone on 256-bit registers
    /// (no VPCLMULQDQ, which [`Vaes`] adds for GCM).
    VaesAvx2 = all(&[Avx2::REQUIRES, Features::AES, Features::VAES]);
    /// x86: VAES and VPCLMULQDQ on top of [`Avx2`] (256-bit vector AES-GCM).
    Vaes = all(&[Avx2::REQUIRES, Features::AES, Features::PCLMULQDQ, Features::VAES,
                 Features::VPCLMULQDQ]);
    /// x86: VAES and VPCLMULQDQ on top of [`Avx512`] (512-bit vector AES-GCM).
    Vaes512 = all(&[Avx512::REQUIRES, Vaes::REQUIRES]);
    /// x86: GFNI with AVX2.
    Gfni = all(&[Avx2::REQUIRES, Features::GFNI]);
    /// aarch64: Advanced SIMD.
    Neon = Features::NEON;
    /// aarch64: AES instructions with NEON.
    ArmAes = all(&[Features::NEON, Features::ARM_AES]);
    /// aarch64: AES and 64-bit PMULL, for GCM.
    ArmAesPmull = all(&[Features::NEON, Features::ARM_AES, Features::ARM_PMULL]);
    /// aarch64: SHA-1/SHA-256 instructions with NEON.
    ArmSha2 = all(&[Features::NEON, Features::ARM_SHA2]);
    /// aarch64: SHA-512 instructions with NEON.
    ArmSha512 = all(&[Features::NEON, Features::ARM_SHA512]);
    /// aarch64: SHA-3 instructions with NEON.
    ArmSha3 = all(&[Features::NEON, Features::ARM_SHA3]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_follow_features() {
        let d = detected();
        assert_eq!(Aes::from_features(d).is_some(), d.features().contains(Aes::REQUIRES));
        assert_eq!(Sha::get().is_some(), crate::features().contains(Sha::REQUIRES));
        assert!(Vaes512::REQUIRES.contains(Avx512::REQUIRES));
        assert!(Avx512Ifma::REQUIRES.contains(Features::AVX512IFMA));
    }

    #[test]
    fn tokens_weaken_to_their_requirements() {
        if let Some(vaes) = Vaes512::get() {
            let aes: Aes = vaes.weaken();
            let avx: Avx = vaes.weaken::<Avx512>().weaken();
            assert_eq!((Some(aes), Some(avx)), (Aes::get(), Avx::get()));
        }
        if let Some(aes) = Aes::get() {
            let ssse3: Ssse3 = aes.weaken();
            assert_eq!(Some(ssse3), Ssse3::get());
        }
    }

    #[test]
    fn foreign_tokens_never_appear() {
        #[cfg(not(target_arch = "aarch64"))]
        assert!(Neon::get().is_none() && ArmSha3::get().is_none());
        #[cfg(not(target_arch = "x86_64"))]
        assert!(Aes::get().is_none() && Avx2::get().is_none());
    }
}
