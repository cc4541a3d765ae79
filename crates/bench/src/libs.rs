//! The libraries measured side by side, their versions, and whether each can run here.
//!
//! A peer that cannot run on this machine (graviola on a CPU without the extensions it
//! requires, an `openssl` binary missing from `PATH` for `openssl-speed`) is reported with the reason and left out
//! of the run, never allowed to panic halfway through a table.

use std::fmt;
use std::process::Command;

/// A library in the comparison. The names are the `library` column of `speed --csv`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Library {
    /// This project.
    Halite,
    /// `ring` (BoringSSL-derived assembly).
    Ring,
    /// `aws-lc-rs` (AWS-LC, a `BoringSSL` fork).
    AwsLcRs,
    /// `graviola` (s2n-bignum and hand-written assembly; `x86_64` and `aarch64` only).
    Graviola,
    /// The RustCrypto crates (`sha1`, `sha2`, `sha3`, `hmac`, `ml-kem`, `ml-dsa`…).
    RustCrypto,
    /// `libcrux-ml-kem` and `libcrux-ml-dsa` (Cryspen's formally verified ML-KEM and ML-DSA,
    /// with their AVX2 code).
    Libcrux,
    /// OpenSSL's libcrypto, linked in process through the `openssl` crate and measured in the
    /// same rounds as every other library.
    OpenSsl,
    /// rustls with its aws-lc-rs crypto provider (the TLS operations).
    RustlsAwsLc,
    /// rustls with its ring crypto provider (the TLS operations).
    RustlsRing,
    /// rustls with Halite's primitives as its crypto provider (`rustls-halite`).
    RustlsHalite,
    /// The `openssl` binary on `PATH`, measured by its own `openssl speed` between rounds: a
    /// cross-check of the in-process [`Library::OpenSsl`] column (OpenSSL's own loop, no Rust
    /// wrapper), not a peer of the Halite/best ratio. Measured only when `--libs` names it.
    OpensslSpeed,
}

impl Library {
    /// Every library, in the order of the table's columns.
    pub const ALL: [Library; 11] = [
        Library::Halite,
        Library::Ring,
        Library::AwsLcRs,
        Library::Graviola,
        Library::RustCrypto,
        Library::Libcrux,
        Library::OpenSsl,
        Library::RustlsAwsLc,
        Library::RustlsRing,
        Library::RustlsHalite,
        Library::OpensslSpeed,
    ];

    /// The library's name as used in tables, `--libs` and the CSV `library` column.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Library::Halite => "halite",
            Library::Ring => "ring",
            Library::AwsLcRs => "aws-lc-rs",
            Library::Graviola => "graviola",
            Library::RustCrypto => "rustcrypto",
            Library::Libcrux => "libcrux",
            Library::OpenSsl => "openssl",
            Library::RustlsAwsLc => "rustls-aws-lc-rs",
            Library::RustlsRing => "rustls-ring",
            Library::RustlsHalite => "rustls-halite",
            Library::OpensslSpeed => "openssl-speed",
        }
    }

    /// The library called `name`, as printed by [`Library::name`].
    #[must_use]
    pub fn from_name(name: &str) -> Option<Library> {
        Library::ALL.into_iter().find(|l| l.name().eq_ignore_ascii_case(name))
    }

    /// The version measured: the resolved crate version from `Cargo.lock`, the libcrypto
    /// linked, or what `openssl version` printed.
    #[must_use]
    pub fn version(self) -> String {
        let krate = match self {
            Library::Halite => return env!("CARGO_PKG_VERSION").to_owned(),
            Library::Ring => "ring",
            Library::AwsLcRs => "aws-lc-rs",
            Library::Graviola => "graviola",
            Library::RustCrypto => "sha2",
            Library::Libcrux => "libcrux-ml-kem",
            Library::RustlsAwsLc | Library::RustlsRing | Library::RustlsHalite => "rustls",
            Library::OpenSsl => return product_version(::openssl::version::version()),
            Library::OpensslSpeed => {
                return openssl_version().unwrap_or_else(|| "absent".to_owned());
            }
        };
        peer_version(krate).unwrap_or("?").to_owned()
    }

    /// `Ok` when this library can run here; otherwise why not.
    pub fn availability(self) -> Result<(), String> {
        match self {
            Library::Graviola => graviola_support(),
            Library::OpensslSpeed => openssl_version()
                .map(|_| ())
                .ok_or_else(|| "no `openssl` binary on PATH".to_owned()),
            _ => Ok(()),
        }
    }
}

impl fmt::Display for Library {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The version of crate `name` that Cargo resolved, recorded by the build script.
#[must_use]
pub fn peer_version(name: &str) -> Option<&'static str> {
    env!("BENCH_PEER_VERSIONS")
        .split(';')
        .filter_map(|pair| pair.split_once('='))
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v)
}

/// The first line of `openssl version` (`OpenSSL 3.0.19 27 Jan 2026 (…)` → `3.0.19`), or
/// `None` when there is no usable binary.
#[must_use]
pub fn openssl_version() -> Option<String> {
    let out = Command::new("openssl").arg("version").output().ok()?;
    if !out.status.success() {
        return None;
    }
    Some(product_version(&String::from_utf8_lossy(&out.stdout)))
}

/// `OpenSSL 3.0.19 27 Jan 2026 (…)` → `OpenSSL 3.0.19`.
fn product_version(text: &str) -> String {
    let mut words = text.split_whitespace();
    let product = words.next().unwrap_or("");
    let version = words.next().unwrap_or("");
    format!("{product} {version}").trim().to_owned()
}

/// Whether graviola can run on this CPU. It asserts its required CPU features on every entry
/// point and panics without them, so they are checked here first; then a first call is made
/// under `catch_unwind` in case a later graviola requires more than this list.
pub fn graviola_support() -> Result<(), String> {
    graviola_required_features()?;
    graviola_probe()
}

#[cfg(target_arch = "x86_64")]
fn graviola_required_features() -> Result<(), String> {
    let needed = [
        ("aes", std::arch::is_x86_feature_detected!("aes")),
        ("pclmulqdq", std::arch::is_x86_feature_detected!("pclmulqdq")),
        ("bmi1", std::arch::is_x86_feature_detected!("bmi1")),
        ("bmi2", std::arch::is_x86_feature_detected!("bmi2")),
        ("adx", std::arch::is_x86_feature_detected!("adx")),
        ("avx", std::arch::is_x86_feature_detected!("avx")),
        ("avx2", std::arch::is_x86_feature_detected!("avx2")),
    ];
    missing_features(&needed)
}

#[cfg(target_arch = "aarch64")]
fn graviola_required_features() -> Result<(), String> {
    let needed = [
        ("neon", std::arch::is_aarch64_feature_detected!("neon")),
        ("aes", std::arch::is_aarch64_feature_detected!("aes")),
        ("pmull", std::arch::is_aarch64_feature_detected!("pmull")),
        ("sha2", std::arch::is_aarch64_feature_detected!("sha2")),
    ];
    missing_features(&needed)
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn graviola_required_features() -> Result<(), String> {
    Err("graviola supports only x86_64 and aarch64".to_owned())
}

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn missing_features(needed: &[(&str, bool)]) -> Result<(), String> {
    let missing: Vec<&str> = needed.iter().filter(|(_, ok)| !ok).map(|(n, _)| *n).collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!("this CPU lacks {}, which graviola requires", missing.join(", ")))
    }
}

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn graviola_probe() -> Result<(), String> {
    use graviola::hashing::Hash as _;
    // Keep the default hook from printing a panic we expect and report ourselves.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let probe = std::panic::catch_unwind(|| {
        graviola::hashing::Sha256::hash(b"probe");
        graviola::aead::AesGcm::new(&[0; 16]);
    });
    std::panic::set_hook(hook);
    probe.map_err(|e| {
        let why = e
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| e.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown reason".to_owned());
        format!("graviola panicked on a first call: {why}")
    })
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn graviola_probe() -> Result<(), String> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for lib in Library::ALL {
            assert_eq!(Library::from_name(lib.name()), Some(lib));
        }
        assert_eq!(Library::from_name("AWS-LC-RS"), Some(Library::AwsLcRs));
        assert_eq!(Library::from_name("boringssl"), None);
        assert_eq!(Library::from_name("rustls-ring"), Some(Library::RustlsRing));
        assert_eq!(Library::from_name("openssl-speed"), Some(Library::OpensslSpeed));
    }

    #[test]
    fn libcrypto_version() {
        assert_eq!(product_version("OpenSSL 3.0.19 27 Jan 2026 (Library: …)"), "OpenSSL 3.0.19");
        assert!(Library::OpenSsl.version().starts_with("OpenSSL "));
        assert_eq!(Library::OpenSsl.availability(), Ok(()));
    }

    #[test]
    fn build_script_recorded_peer_versions() {
        assert!(peer_version("ring").is_some_and(|v| v.starts_with("0.17")));
        assert!(peer_version("sha2").is_some());
        assert_eq!(peer_version("no-such-crate"), None);
    }
}
