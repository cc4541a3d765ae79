//! aarch64 detection: the OS's view through `std` when the `std` feature is on (Linux reads
//! HWCAP), otherwise only what the target enables at compile time.

use crate::Features;

#[cfg(feature = "std")]
pub(crate) fn detect() -> Features {
    use std::arch::is_aarch64_feature_detected as has;
    let mut f = Features::NONE;
    for (present, feature) in [
        (has!("neon"), Features::NEON),
        (has!("aes"), Features::ARM_AES),
        (has!("pmull"), Features::ARM_PMULL),
        (has!("sha2"), Features::ARM_SHA2),
        // std's "sha3" is FEAT_SHA512 and FEAT_SHA3 together.
        (has!("sha3"), Features::ARM_SHA512.union(Features::ARM_SHA3)),
    ] {
        if present {
            f = f.union(feature);
        }
    }
    f
}

#[cfg(not(feature = "std"))]
pub(crate) fn detect() -> Features {
    let mut f = Features::NONE;
    if cfg!(target_feature = "neon") {
        f = f.union(Features::NEON);
    }
    if cfg!(target_feature = "aes") {
        f = f.union(Features::ARM_AES).union(Features::ARM_PMULL);
    }
    if cfg!(target_feature = "sha2") {
        f = f.union(Features::ARM_SHA2);
    }
    if cfg!(target_feature = "sha3") {
        f = f.union(Features::ARM_SHA512).union(Features::ARM_SHA3);
    }
    f
}
