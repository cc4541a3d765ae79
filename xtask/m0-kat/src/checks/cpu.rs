//! Checks for `core-cpu` as built without std for the firmware: on the Cortex-M0 nothing is
//! detected, the cache is stable, no token is handed out, and feature names parse and print.
//! On the host the same checks hold in their general form (tokens agree with the detected set).

use core_cpu::{AlreadyDetected, Features, UnknownFeature};

use super::{Check, TextBuf, ensure};

/// The core-cpu checks.
pub(super) const CHECKS: &[Check] = &[
    Check { name: "cpu::features_stable", run: features_stable },
    Check { name: "cpu::features_fit_target", run: features_fit_target },
    Check { name: "cpu::detected_snapshot", run: detected_snapshot },
    Check { name: "cpu::tokens", run: tokens },
    Check { name: "cpu::late_disable_refused", run: late_disable_refused },
    Check { name: "cpu::from_names", run: from_names },
    Check { name: "cpu::display", run: display },
];

/// Repeated calls return the same cached set, and it holds only known features.
fn features_stable() -> Result<(), &'static str> {
    let first = core_cpu::features();
    ensure(core_cpu::features() == first, "second call differs")?;
    ensure(core_cpu::features() == first, "third call differs")?;
    ensure(Features::ALL.contains(first), "unknown feature bits")
}

/// The aarch64 feature bits.
const ARM64: Features = Features::NEON
    .union(Features::ARM_AES)
    .union(Features::ARM_PMULL)
    .union(Features::ARM_SHA2)
    .union(Features::ARM_SHA512)
    .union(Features::ARM_SHA3);

/// Nothing is detected on the Cortex-M0 (or any other architecture without a detector), and
/// no architecture reports another one's features.
fn features_fit_target() -> Result<(), &'static str> {
    let found = core_cpu::features();
    if cfg!(target_arch = "x86_64") {
        ensure(found.difference(ARM64) == found, "aarch64 features on x86_64")
    } else if cfg!(target_arch = "aarch64") {
        ensure(ARM64.contains(found), "x86 features on aarch64")
    } else {
        ensure(found.is_empty(), "features detected on a CPU without a detector")
    }
}

/// The token snapshot carries exactly the cached set.
fn detected_snapshot() -> Result<(), &'static str> {
    ensure(core_cpu::detected().features() == core_cpu::features(), "snapshot differs from cache")
}

/// Each token is handed out exactly when its features were detected; on the Cortex-M0 that
/// means never.
fn tokens() -> Result<(), &'static str> {
    let found = core_cpu::features();
    macro_rules! each_token {
        ($($token:ident),* $(,)?) => {$(
            let got = core_cpu::$token::get().is_some();
            ensure(
                got == found.contains(core_cpu::$token::REQUIRES),
                concat!(stringify!($token), "::get() disagrees with features()"),
            )?;
            ensure(
                !(got && cfg!(target_arch = "arm")),
                concat!(stringify!($token), "::get() is Some on Arm 32-bit"),
            )?;
        )*};
    }
    each_token!(
        Ssse3,
        Sse41,
        Aes,
        AesClMul,
        ClMul,
        Sha,
        Avx,
        Avx2,
        Adx,
        Avx512,
        Avx512Ifma,
        VaesAvx2,
        Vaes,
        Vaes512,
        Gfni,
        Neon,
        ArmAes,
        ArmAesPmull,
        ArmSha2,
        ArmSha512,
        ArmSha3,
    );
    Ok(())
}

/// `disable` after detection changes nothing and says so.
fn late_disable_refused() -> Result<(), &'static str> {
    let before = core_cpu::features();
    ensure(core_cpu::disable(Features::ALL) == Err(AlreadyDetected), "late disable accepted")?;
    ensure(core_cpu::features() == before, "late disable changed the cache")
}

/// Name lists parse, including `all`, case and whitespace, and unknown names are reported.
fn from_names() -> Result<(), &'static str> {
    parses_to("", Features::NONE, "empty list")?;
    parses_to("all", Features::ALL, "all")?;
    parses_to(" AES , vaes,", Features::AES.union(Features::VAES), "list with case and spaces")?;
    let arm = Features::ARM_AES.union(Features::ARM_PMULL);
    parses_to("arm-aes,arm-pmull", arm, "aarch64 names")?;
    ensure(
        matches!(Features::from_names("aes,sse5"), Err(UnknownFeature("sse5"))),
        "unknown name",
    )?;
    for &(name, feature) in Features::NAMES {
        parses_to(name, feature, "a NAMES entry does not parse")?;
    }
    Ok(())
}

/// `names` parse to `want`, else `Err(reason)`: one out-of-line comparison for every list
/// (Cortex-M0 flash).
#[inline(never)]
fn parses_to(names: &str, want: Features, reason: &'static str) -> Result<(), &'static str> {
    ensure(Features::from_names(names).is_ok_and(|found| found == want), reason)
}

/// `Display` prints space-separated names, `none` for the empty set, and round-trips NAMES.
fn display() -> Result<(), &'static str> {
    let shows = |set: Features, text: &str| {
        TextBuf::<64>::display(&set).is_some_and(|buf| buf.as_str() == text)
    };
    ensure(shows(Features::NONE, "none"), "empty set")?;
    ensure(shows(Features::AES.union(Features::AVX2), "aes avx2"), "two features")?;
    for &(name, feature) in Features::NAMES {
        ensure(shows(feature, name), "a NAMES entry does not print as its name")?;
    }
    Ok(())
}
