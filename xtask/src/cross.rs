//! `cargo xtask cross`: the primitive crates' test suites on other CPUs under qemu-user — on
//! aarch64 with every extension QEMU offers (`-cpu max`), on aarch64 again with
//! `HALITE_CPU_DISABLE=all` so the portable fallbacks run there too, and on the host's
//! `x86_64` code as run by a Westmere (AES-NI and PCLMULQDQ, no AVX), which exercises the
//! middle tier of the x86 dispatch.

use std::process::Command;

use clap::Args;

use crate::util::{self, Need, Report, StageResult};
use crate::workspace::{Workspace, package_args};

/// The aarch64 target triple.
const AARCH64: &str = "aarch64-unknown-linux-gnu";
/// Linker for aarch64 test binaries (also in `.cargo/config.toml`).
const AARCH64_LINKER: &str = "aarch64-linux-gnu-gcc";
/// Runner for aarch64 test binaries: every extension, and the cross sysroot for the loader.
const AARCH64_RUNNER: &str = "qemu-aarch64 -cpu max -L /usr/aarch64-linux-gnu";
/// Runner for host test binaries on an emulated Westmere.
const WESTMERE_RUNNER: &str = "qemu-x86_64 -cpu Westmere";

/// Options of `cargo xtask cross`.
#[derive(Args, Clone, Debug, Default)]
pub(crate) struct CrossArgs {
    /// Test only this crate (repeatable); default: every primitive crate.
    #[arg(short = 'p', long = "package", value_name = "CRATE")]
    pub(crate) packages: Vec<String>,
}

/// What `cross` needs from outside the workspace.
pub(crate) fn needs() -> Vec<Need> {
    vec![
        Need::Command("qemu-aarch64", "qemu-user"),
        Need::Command("qemu-x86_64", "qemu-user"),
        Need::Command(AARCH64_LINKER, "gcc-aarch64-linux-gnu libc6-dev-arm64-cross"),
        // `--no-install-recommends` leaves out the C library the linker needs.
        Need::File("/usr/aarch64-linux-gnu/lib/Scrt1.o", "libc6-dev-arm64-cross"),
        Need::RustTarget(AARCH64),
    ]
}

/// Runs the `cross` stages into `report`.
pub(crate) fn run(report: &mut Report, ws: &Workspace, args: &CrossArgs) {
    let crates = match ws.select_primitives(&args.packages) {
        Ok(crates) if !crates.is_empty() => crates,
        Ok(_) => {
            report.stage("cross", || Err("no primitive crates found under crates/".into()));
            return;
        }
        Err(why) => {
            report.stage("cross", || Err(why));
            return;
        }
    };
    println!("xtask: primitive crates: {}", crates.join(", "));
    report.stage("cross aarch64", || test_aarch64(&crates, None));
    report.stage("cross aarch64 portable", || test_aarch64(&crates, Some("all")));
    if cfg!(target_arch = "x86_64") {
        report.stage("cross x86_64 Westmere", || test_westmere(&crates));
    } else {
        report.skip("cross x86_64 Westmere", "the host is not x86_64");
    }
}

/// Crates whose vector suites (Wycheproof, big-number proptests, ML-KEM's 60 000 accumulated
/// tests, ML-DSA's) take tens of minutes under QEMU: under emulation they run their unit tests
/// and the [`EMULATED_SUITES`] only. core-ec and core-rsa have no aarch64 code (their only
/// CPU-specific code is for `x86_64` with ADX, which the host suite checks natively);
/// core-lattice's aarch64 ML-KEM backend is checked by its unit tests (against `portable`) and
/// by those suites (against `portable`, RustCrypto's and libcrux's ML-KEM, whole operations).
const UNIT_TESTS_ONLY: &[&str] = &["core-ec", "core-rsa", "core-lattice"];

/// Integration tests that the [`UNIT_TESTS_ONLY`] crates run under emulation besides their
/// unit tests, by test-target name (cargo runs each in the crates that have it): core-lattice's
/// ML-KEM cross-checks, each a few seconds under QEMU.
const EMULATED_SUITES: &[&str] = &["cross", "libcrux"];

/// Runs `cmd` (a `cargo test` with its target and environment set) over `crates`: full suites,
/// then the unit tests and [`EMULATED_SUITES`] of the [`UNIT_TESTS_ONLY`] crates.
fn test_split(crates: &[String], cmd: impl Fn() -> Command) -> StageResult {
    let (full, light) = split(crates);
    if !full.is_empty() {
        util::run(cmd().args(package_args(&full)))?;
    }
    if !light.is_empty() {
        let suites = EMULATED_SUITES.iter().flat_map(|suite| ["--test", suite]);
        util::run(cmd().args(package_args(&light)).arg("--lib").args(suites))?;
    }
    Ok(())
}

/// `crates` as the ones run in full under emulation and the [`UNIT_TESTS_ONLY`] ones: the two
/// `cargo test` package selections of [`test_split`], which the host test stage repeats so that
/// the Westmere pass finds its test binaries already built (cargo unifies features over the
/// packages selected, so another selection would build them again).
pub(crate) fn split(crates: &[String]) -> (Vec<String>, Vec<String>) {
    crates.iter().cloned().partition(|c| !UNIT_TESTS_ONLY.contains(&c.as_str()))
}

/// `cargo test` for aarch64 under qemu-user, with `HALITE_CPU_DISABLE` set if given (QEMU
/// passes the environment through to the guest).
fn test_aarch64(crates: &[String], disable: Option<&str>) -> StageResult {
    test_split(crates, || {
        let mut cmd = util::cargo();
        cmd.args(["test", "--target", AARCH64])
            .env("CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER", AARCH64_LINKER)
            .env("CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER", AARCH64_RUNNER);
        if let Some(disable) = disable {
            cmd.env("HALITE_CPU_DISABLE", disable);
        }
        cmd
    })
}

/// The host `cargo test`, each test binary run by QEMU emulating a Westmere.
fn test_westmere(crates: &[String]) -> StageResult {
    test_split(crates, || {
        let mut cmd = util::cargo();
        cmd.arg("test").env("CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER", WESTMERE_RUNNER);
        cmd
    })
}
