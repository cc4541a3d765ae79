#![doc = include_str!("../README.md")]
#![no_std]
#![warn(missing_docs)]

#[cfg(any(feature = "std", test))]
extern crate std;

use core::fmt;
use core::sync::atomic::{AtomicU32, Ordering};

// Under Miri neither CPUID nor the OS's HWCAP can be interpreted: nothing is detected, so every
// dispatcher takes its portable code, which is what Miri is there to check.
#[cfg(all(target_arch = "aarch64", not(miri)))]
mod aarch64;
mod select;
mod tokens;
#[cfg(all(target_arch = "x86_64", not(miri)))]
mod x86;

#[doc(hidden)]
pub use select::__composed;
pub use select::Implementation;
pub use tokens::*;

/// A set of CPU features, as a bit set. Cheap to copy; compare with [`Features::contains`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Features(u32);

macro_rules! features {
    ($($(#[$doc:meta])* $name:ident = $bit:expr, $text:literal;)*) => {
        impl Features {
            $($(#[$doc])* pub const $name: Features = Features(1 << $bit);)*

            /// Every feature this crate knows, with the name used by `Display`,
            /// [`Features::from_names`] and `HALITE_CPU_DISABLE`.
            pub const NAMES: &'static [(&'static str, Features)] =
                &[$(($text, Features::$name)),*];
        }
    };
}

features! {
    /// x86: SSE2 (baseline on `x86_64`).
    SSE2 = 0, "sse2";
    /// x86: SSSE3 (`pshufb`).
    SSSE3 = 1, "ssse3";
    /// x86: SSE4.1.
    SSE41 = 2, "sse4.1";
    /// x86: AES-NI.
    AES = 3, "aes";
    /// x86: carry-less multiplication (`pclmulqdq`).
    PCLMULQDQ = 4, "pclmulqdq";
    /// x86: SHA extensions (SHA-1 and SHA-256 rounds).
    SHA = 5, "sha";
    /// x86: AVX, with the YMM state enabled by the OS.
    AVX = 6, "avx";
    /// x86: AVX2.
    AVX2 = 7, "avx2";
    /// x86: BMI1 (`andn`).
    BMI1 = 8, "bmi1";
    /// x86: BMI2 (`mulx`, `rorx`).
    BMI2 = 9, "bmi2";
    /// x86: ADX (`adcx`, `adox`).
    ADX = 10, "adx";
    /// x86: AVX-512 Foundation, with the ZMM and opmask state enabled by the OS.
    AVX512F = 11, "avx512f";
    /// x86: AVX-512 vector-length extensions.
    AVX512VL = 12, "avx512vl";
    /// x86: AVX-512 byte and word instructions.
    AVX512BW = 13, "avx512bw";
    /// x86: AVX-512 doubleword and quadword instructions.
    AVX512DQ = 14, "avx512dq";
    /// x86: AVX-512 52-bit integer multiply-add.
    AVX512IFMA = 15, "avx512ifma";
    /// x86: vector AES (AES on YMM/ZMM registers).
    VAES = 16, "vaes";
    /// x86: vector carry-less multiplication.
    VPCLMULQDQ = 17, "vpclmulqdq";
    /// x86: Galois-field instructions.
    GFNI = 18, "gfni";
    /// aarch64: Advanced SIMD.
    NEON = 20, "neon";
    /// aarch64: AES instructions (`aese`, `aesmc`).
    ARM_AES = 21, "arm-aes";
    /// aarch64: 64×64 polynomial multiply (`pmull`).
    ARM_PMULL = 22, "arm-pmull";
    /// aarch64: SHA-1 and SHA-256 instructions.
    ARM_SHA2 = 23, "arm-sha2";
    /// aarch64: SHA-512 instructions.
    ARM_SHA512 = 24, "arm-sha512";
    /// aarch64: SHA-3 instructions (`eor3`, `rax1`, `xar`, `bcax`).
    ARM_SHA3 = 25, "arm-sha3";
}

/// Bit 31 of the cache marks it as filled, so a cached empty set is told apart from "not yet
/// detected".
const DETECTED: u32 = 1 << 31;

impl Features {
    /// The empty set.
    pub const NONE: Features = Features(0);
    /// Every feature this crate knows.
    pub const ALL: Features = Features(0x03F7_FFFF);

    /// Whether every feature in `other` is in `self`.
    #[must_use]
    pub const fn contains(self, other: Features) -> bool {
        self.0 & other.0 == other.0
    }

    /// The features in either set.
    #[must_use]
    pub const fn union(self, other: Features) -> Features {
        Features(self.0 | other.0)
    }

    /// The features of `self` that are not in `other`.
    #[must_use]
    pub const fn difference(self, other: Features) -> Features {
        Features(self.0 & !other.0)
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The raw bit set (stable only within one version of this crate).
    #[must_use]
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// Parses a comma-separated list of feature names (`"avx512f,vaes"`), or `all`.
    /// Whitespace around names is ignored and an empty string is the empty set.
    pub fn from_names(list: &str) -> Result<Features, UnknownFeature<'_>> {
        let mut set = Features::NONE;
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            if name.eq_ignore_ascii_case("all") {
                set = set.union(Features::ALL);
                continue;
            }
            match Features::NAMES.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
                Some(&(_, f)) => set = set.union(f),
                None => return Err(UnknownFeature(name)),
            }
        }
        Ok(set)
    }
}

impl fmt::Display for Features {
    /// The feature names, space separated (`aes pclmulqdq avx2`), or `none`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for &(name, feature) in Features::NAMES {
            if self.contains(feature) {
                if !first {
                    f.write_str(" ")?;
                }
                f.write_str(name)?;
                first = false;
            }
        }
        if first { f.write_str("none") } else { Ok(()) }
    }
}

impl fmt::Debug for Features {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Features({self})")
    }
}

/// A feature name that [`Features::from_names`] does not know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownFeature<'a>(pub &'a str);

impl fmt::Display for UnknownFeature<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown CPU feature name {:?}", self.0)
    }
}

/// [`disable`] was called after features had already been detected and handed out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlreadyDetected;

impl fmt::Display for AlreadyDetected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CPU features were already detected; disable them before first use")
    }
}

#[cfg(feature = "std")]
impl std::error::Error for AlreadyDetected {}
#[cfg(feature = "std")]
impl std::error::Error for UnknownFeature<'_> {}

/// Detected features, or 0 before detection. Written with `DETECTED` set.
static CACHE: AtomicU32 = AtomicU32::new(0);
/// Features switched off by [`disable`], applied when detection runs.
static DISABLED: AtomicU32 = AtomicU32::new(0);

/// The features of this CPU that Halite may use, detected on first call and cached.
///
/// Features that the target enables at compile time (`-C target-feature`) are always present
/// and constant-fold, except where [`disable`] or `HALITE_CPU_DISABLE` removed them.
#[inline]
pub fn features() -> Features {
    let cached = CACHE.load(Ordering::Relaxed);
    if cached & DETECTED != 0 {
        return Features(cached & !DETECTED);
    }
    detect_and_cache()
}

#[cold]
fn detect_and_cache() -> Features {
    let found = detect().difference(Features(DISABLED.load(Ordering::Relaxed)));
    let found = found.difference(env_disabled());
    CACHE.store(found.0 | DETECTED, Ordering::Relaxed);
    found
}

/// Switches `off` features for the rest of the process. It must run before anything calls
/// [`features()`] (before the first hasher or key is built); afterwards it returns
/// [`AlreadyDetected`] and changes nothing, because code may already hold a token.
pub fn disable(off: Features) -> Result<(), AlreadyDetected> {
    if CACHE.load(Ordering::Relaxed) & DETECTED != 0 {
        return Err(AlreadyDetected);
    }
    // Load/store only (no compare-and-swap on thumbv6m): concurrent `disable` calls before
    // detection may lose one another's bits, which the documentation rules out.
    DISABLED.store(DISABLED.load(Ordering::Relaxed) | off.0, Ordering::Relaxed);
    Ok(())
}

/// Features named in `HALITE_CPU_DISABLE`. An unknown name disables everything, so a typo
/// fails safe (portable code) rather than silently keeping a feature the user meant to avoid.
#[cfg(any(feature = "std", test))]
fn env_disabled() -> Features {
    match std::env::var("HALITE_CPU_DISABLE") {
        Ok(list) => Features::from_names(&list).unwrap_or(Features::ALL),
        Err(_) => Features::NONE,
    }
}

#[cfg(not(any(feature = "std", test)))]
fn env_disabled() -> Features {
    Features::NONE
}

/// What the hardware and OS support, ignoring any mask: nothing under Miri, which interprets
/// neither CPUID nor the OS's feature queries.
fn detect() -> Features {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    let found = x86::detect();
    #[cfg(all(target_arch = "aarch64", not(miri)))]
    let found = aarch64::detect();
    #[cfg(any(miri, not(any(target_arch = "x86_64", target_arch = "aarch64"))))]
    let found = Features::NONE;
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn names_round_trip() {
        for &(name, f) in Features::NAMES {
            assert_eq!(Features::from_names(name), Ok(f), "{name}");
            assert_eq!(f.to_string(), name);
        }
        let all = Features::NAMES.iter().fold(Features::NONE, |acc, &(_, f)| acc.union(f));
        assert_eq!(all, Features::ALL, "ALL must be exactly the named features");
        assert_eq!(all.0 & DETECTED, 0, "no feature may use the sentinel bit");
    }

    #[test]
    fn parse_lists() {
        assert_eq!(Features::from_names(""), Ok(Features::NONE));
        assert_eq!(Features::from_names("all"), Ok(Features::ALL));
        assert_eq!(Features::from_names(" AES , vaes,"), Ok(Features::AES.union(Features::VAES)));
        assert_eq!(Features::from_names("aes,sse5"), Err(UnknownFeature("sse5")));
        assert_eq!(Features::NONE.to_string(), "none");
        assert_eq!(Features::AES.union(Features::AVX2).to_string(), "aes avx2");
    }

    #[test]
    fn set_operations() {
        let a = Features::AES.union(Features::SHA);
        assert!(a.contains(Features::AES));
        assert!(a.contains(Features::NONE));
        assert!(!a.contains(Features::AES.union(Features::AVX)));
        assert_eq!(a.difference(Features::SHA), Features::AES);
        assert!(Features::NONE.is_empty());
    }

    #[test]
    fn detection_is_cached_and_stable() {
        let first = features();
        assert_eq!(features(), first);
        assert_eq!(disable(Features::AES), Err(AlreadyDetected));
        assert_eq!(features(), first, "a late disable must change nothing");
        assert!(Features::ALL.contains(first));
    }

    /// A feature named in `HALITE_CPU_DISABLE` never appears (`xtask cross` runs the suites
    /// with `HALITE_CPU_DISABLE=all` to reach the portable code).
    #[test]
    fn env_mask_is_honoured() {
        let masked = env_disabled();
        assert_eq!(features().difference(masked), features());
    }

    /// The cache only ever holds what the hardware offers.
    #[test]
    fn cache_is_subset_of_hardware() {
        assert!(detect().contains(features()));
    }

    /// Under Miri nothing is detected, so every backend choice falls to portable code.
    #[cfg(miri)]
    #[test]
    fn miri_detects_nothing() {
        assert_eq!(features(), Features::NONE);
    }

    #[cfg(all(target_arch = "x86_64", not(miri)))]
    #[test]
    fn x86_64_has_sse2() {
        // SSE2 is part of the x86_64 baseline; only a mask can remove it.
        if !env_disabled().contains(Features::SSE2) {
            assert!(features().contains(Features::SSE2));
        }
    }
}
