//! `cargo xtask miri`: the portable code paths under Miri, which checks every memory access,
//! alignment, initialisation and aliasing rule the interpreter sees. The crates are built
//! without `asm` (`--no-default-features --features std`) and core-cpu detects nothing under
//! `cfg(miri)`, so every dispatcher takes its Rust code.
//!
//! Miri runs a few thousand times slower than native code, so the stage runs the chosen
//! subset in [`RUNS`] (unit tests by module, each short) and keeps to about five minutes on
//! two cores once built; the reasons each crate's other tests are left out are in the list.
//! Miri needs nightly with its `miri` and `rust-src` components, which this installs when
//! missing (`rustup toolchain install nightly --component miri,rust-src`), then `cargo miri
//! setup` (its own sysroot, built once); the build goes to `target/miri`.

use std::process::Command;

use crate::util::{self, Report, StageResult};

/// One `cargo miri test` invocation.
struct Run {
    /// The package.
    krate: &'static str,
    /// Its features (`--no-default-features` always: no `asm`).
    features: &'static str,
    /// Test-name filters passed to the harness (`--skip X` among them); empty runs them all.
    filters: &'static [&'static str],
}

/// What runs under Miri. Left out everywhere: integration tests under `tests/` (vector files
/// and proptest cases by the hundred, minutes each under Miri) and the dev-dependency peers
/// they compare against (ring and aws-lc call C, which Miri cannot run).
const RUNS: &[Run] = &[
    // Detection, the cache, the tokens and the selection macro, all of it.
    Run { krate: "core-cpu", features: "std", filters: &[] },
    // The unit tests of the hash registry, the barriers, HMAC-DRBG, HKDF, HMAC and the
    // bit-interleaved Keccak. Not the pooled OS source (`madvise`, which Miri does not
    // emulate), the `io` adapters (megabytes of input) or the sponge's chunking and padding
    // sweeps (minutes each).
    Run {
        krate: "core-hash",
        features: "std",
        filters: &["alg::", "ct::", "drbg::", "hkdf::", "hmac::", "sha3::portable32::"],
    },
    // AES: the bitsliced S-box circuit, ct32's word substitution, the key expansions (FIPS 197
    // A.1) and the VAES loops over a model of the instructions; the modes' and ChaCha20's
    // tests each take minutes under Miri.
    Run {
        krate: "core-aead",
        features: "std",
        filters: &["aes::bitslice::", "aes::ct32::", "aes::tests::", "aes::x86_vaes::"],
    },
    // The DER of PSS parameters, the hash prefixes and MGF1, PKCS#8 walking, key generation's
    // sieve and inversion; the Montgomery exponentiations take minutes each under Miri.
    Run {
        krate: "core-rsa",
        features: "std",
        filters: &[
            "der::tests::",
            "hash::tests::",
            "key::tests::pkcs8_walk",
            "keygen::tests::sieve_tables",
            "keygen::tests::inverse_of_e",
        ],
    },
    // Curve25519's portable fields against each other (8 random cases under `cfg(miri)`),
    // the scalars mod L both ways (1 case, and the known values), NIST safegcd's packed
    // division steps against the masks (4 proptest cases), P-256's limbs (about 30 s). Left
    // out: inversions and roots, safegcd against Fermat, X25519's RFC 7748 vector on every
    // implementation (together over 3 minutes under Miri), point tables and scalar
    // multiplications.
    Run {
        krate: "core-ec",
        features: "std",
        filters: &[
            "curve25519::field::tests::portable64_agrees_with_portable32",
            "curve25519::scalar::",
            "nist::safegcd::tests::packed_round_matches_masks",
            "nist::p256_mont64::tests::limbs_match_the_prime",
        ],
    },
    // The TLS 1.3 key schedule and transcript (RFC 8448), with the device's TLS 1.3 features;
    // the handshake tests take minutes each under Miri.
    Run {
        krate: "tls",
        features: "std,server,certificates,x25519,p256,p384,p521,mlkem,aes-gcm,chacha20,aes-ccm",
        filters: &["schedule::"],
    },
];

/// Runs the `miri` stages into `report`: setup, then one stage per crate.
pub(crate) fn run(report: &mut Report) {
    if !report.stage("miri setup", install) {
        report.skip("miri", "nightly with miri could not be installed");
        return;
    }
    for run in RUNS {
        report.stage(&format!("miri {}", run.krate), || test(run));
    }
}

/// `rustup run nightly cargo miri …` at the workspace root.
fn cargo_miri() -> Command {
    let mut cmd = util::nightly_cargo("miri");
    cmd.current_dir(util::workspace_root());
    cmd
}

/// Installs nightly with Miri if missing, then Miri's sysroot.
fn install() -> StageResult {
    util::install_nightly(&["miri", "rust-src"], "Miri ships with")?;
    util::run(cargo_miri().arg("setup"))
}

/// One crate's tests under Miri.
fn test(run: &Run) -> StageResult {
    let mut cmd = cargo_miri();
    cmd.args(["test", "-p", run.krate, "--lib", "--no-default-features", "--features"]);
    cmd.arg(run.features).arg("--").args(run.filters);
    util::run(&mut cmd)
}
