//! `cargo xtask cross`: the primitive crates' test suites on other CPUs under qemu-user — on
//! aarch64 with every extension QEMU offers (`-cpu max`), on aarch64 again with
//! `HALITE_CPU_DISABLE=all` so the portable fallbacks run there too, and on the host's
//! `x86_64` code as run by a Westmere (AES-NI and PCLMULQDQ, no AVX), which exercises the
//! middle tier of the x86 dispatch.

use std::path::{Path, PathBuf};
use std::process::Command;

use clap::Args;

use crate::util::{self, Need, Report, StageResult};
use crate::workspace::{Workspace, package_args};

/// The aarch64 target triple.
const AARCH64: &str = "aarch64-unknown-linux-gnu";
/// Linker for aarch64 test binaries (also in `.cargo/config.toml`).
const AARCH64_LINKER: &str = "aarch64-linux-gnu-gcc";
/// QEMU's options for aarch64 test binaries: every extension, and the cross sysroot for the
/// loader (as `.cargo/config.toml`'s runner).
const AARCH64_QEMU: [&str; 4] = ["-cpu", "max", "-L", "/usr/aarch64-linux-gnu"];
/// QEMU's model for the Westmere pass's host test binaries.
const WESTMERE: [&str; 2] = ["-cpu", "Westmere"];

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
    report.stage("cross aarch64", || test_aarch64(ws, &crates, None));
    report.stage("cross aarch64 portable", || test_aarch64(ws, &crates, Some("all")));
    if cfg!(target_arch = "x86_64") {
        report.stage("cross x86_64 Westmere", || test_westmere(ws, &crates));
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

/// `crates` as the ones run in full under emulation and the [`UNIT_TESTS_ONLY`] ones.
fn split(crates: &[String]) -> (Vec<String>, Vec<String>) {
    crates.iter().cloned().partition(|c| !UNIT_TESTS_ONLY.contains(&c.as_str()))
}

/// The test harnesses `build` (a `cargo test --no-run --message-format=json-render-diagnostics`)
/// names, building them first if needed.
fn harnesses(build: &mut Command) -> Result<Vec<TestBinary>, String> {
    println!("$ {}", util::display_command(build));
    util::flush();
    Ok(test_binaries(&util::output(build)?))
}

/// Runs each harness of `crates` among `binaries` through `runner` (the emulator and its
/// options; the executable is appended) in its package's directory, as `cargo test` runs it:
/// all of a crate's harnesses, or for the [`UNIT_TESTS_ONLY`] crates their unit tests and
/// [`EMULATED_SUITES`] only.
fn run_harnesses(
    ws: &Workspace,
    crates: &[String],
    binaries: &[TestBinary],
    runner: impl Fn() -> Command,
) -> StageResult {
    let (full, light) = split(crates);
    let mut ran = 0;
    for binary in binaries {
        let Some(member) = ws.members.iter().find(|m| m.dir == binary.package_dir) else {
            continue;
        };
        let wanted = full.contains(&member.name)
            || (light.contains(&member.name)
                && (binary.lib || EMULATED_SUITES.contains(&binary.target.as_str())));
        if wanted {
            let mut cmd = runner();
            cmd.arg(&binary.executable)
                .current_dir(&binary.package_dir)
                .env("CARGO_MANIFEST_DIR", &binary.package_dir);
            util::run(&mut cmd)?;
            ran += 1;
        }
    }
    if ran == 0 { Err("the build named no test binary of these crates".into()) } else { Ok(()) }
}

/// The test harnesses of `crates` for aarch64, built by one cargo invocation so every crate is
/// compiled once, with one feature set (both aarch64 passes run these binaries: the second
/// build is a no-op): the unit tests of every crate and, by name, the integration tests of the
/// crates run in full and the [`EMULATED_SUITES`]. A [`UNIT_TESTS_ONLY`] crate's test with the
/// same name as one of those is built too, and not run.
fn aarch64_harnesses(ws: &Workspace, crates: &[String]) -> Result<Vec<TestBinary>, String> {
    let (full, _) = split(crates);
    let mut tests: Vec<&str> = ws
        .members
        .iter()
        .filter(|m| full.contains(&m.name))
        .flat_map(|m| m.tests.iter().map(String::as_str))
        .chain(EMULATED_SUITES.iter().copied())
        .collect();
    tests.sort_unstable();
    tests.dedup();
    let mut build = util::cargo();
    build
        .args(["test", "--target", AARCH64, "--no-run", "--message-format=json-render-diagnostics"])
        .args(package_args(crates))
        .arg("--lib")
        .args(tests.iter().flat_map(|t| ["--test", t]))
        .env("CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER", AARCH64_LINKER);
    harnesses(&mut build)
}

/// The aarch64 test harnesses of `crates` under qemu-user with every extension, with
/// `HALITE_CPU_DISABLE` set if given (QEMU passes the environment through to the guest).
fn test_aarch64(ws: &Workspace, crates: &[String], disable: Option<&str>) -> StageResult {
    let binaries = aarch64_harnesses(ws, crates)?;
    run_harnesses(ws, crates, &binaries, || {
        let mut cmd = Command::new("qemu-aarch64");
        cmd.args(AARCH64_QEMU);
        if let Some(disable) = disable {
            cmd.env("HALITE_CPU_DISABLE", disable);
        }
        cmd
    })
}

/// The host test binaries of `crates`, run by QEMU emulating a Westmere: the ones the test
/// stage's `cargo test --workspace` built (listed by the same build with `--no-run`, which
/// builds them first if that stage did not run), so the features are the workspace's and
/// nothing is compiled twice.
fn test_westmere(ws: &Workspace, crates: &[String]) -> StageResult {
    let mut build = util::cargo();
    build.args(["test", "--workspace", "--no-run", "--message-format=json-render-diagnostics"]);
    let binaries = harnesses(&mut build)?;
    run_harnesses(ws, crates, &binaries, || {
        let mut cmd = Command::new("qemu-x86_64");
        cmd.args(WESTMERE);
        cmd
    })
}

/// A test executable (a harness: a library's unit tests or a `tests/` target) that a
/// `cargo test --no-run --message-format=json` build names.
#[derive(Debug, PartialEq)]
struct TestBinary {
    /// The directory of its package's `Cargo.toml`.
    package_dir: PathBuf,
    /// The target's name (`cross` for `tests/cross.rs`).
    target: String,
    /// Whether it holds a library's unit tests.
    lib: bool,
    /// Its path.
    executable: String,
}

/// The test harnesses in cargo's JSON messages (examples and binaries built beside them are
/// not harnesses: their profile has `"test":false`).
fn test_binaries(json: &str) -> Vec<TestBinary> {
    json.lines()
        .filter(|l| l.starts_with(r#"{"reason":"compiler-artifact""#))
        .filter_map(|line| {
            let executable = string_field(line, "executable")?;
            let (_, target) = line.split_once(r#""target":{"#)?;
            let (_, profile) = line.split_once(r#""profile":{"#)?;
            if !profile.split('}').next()?.contains(r#""test":true"#) {
                return None;
            }
            let manifest = Path::new(string_field(line, "manifest_path")?);
            Some(TestBinary {
                package_dir: manifest.parent()?.to_path_buf(),
                target: string_field(target, "name")?.to_owned(),
                lib: target.starts_with(r#""kind":["lib"]"#),
                executable: executable.to_owned(),
            })
        })
        .collect()
}

/// The first `"key":"value"` string in `json` (values here are paths and names: no escapes).
fn string_field<'a>(json: &'a str, key: &str) -> Option<&'a str> {
    let (_, rest) = json.split_once(&format!(r#""{key}":""#))?;
    rest.split('"').next()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_binaries_are_the_harnesses() {
        let json = [
            r#"{"reason":"compiler-artifact","package_id":"path+file:///w/crates/core-der#0.1.0","manifest_path":"/w/crates/core-der/Cargo.toml","target":{"kind":["test"],"crate_types":["bin"],"name":"proptest","src_path":"/w/crates/core-der/tests/proptest.rs","edition":"2024","doc":false,"doctest":false,"test":true},"profile":{"opt_level":"1","debuginfo":"line-tables-only","debug_assertions":true,"overflow_checks":true,"test":true},"features":["std"],"filenames":["/t/debug/deps/proptest-54"],"executable":"/t/debug/deps/proptest-54","fresh":true}"#,
            r#"{"reason":"compiler-artifact","package_id":"path+file:///w/crates/core-der#0.1.0","manifest_path":"/w/crates/core-der/Cargo.toml","target":{"kind":["lib"],"crate_types":["lib"],"name":"core_der","src_path":"/w/crates/core-der/src/lib.rs","edition":"2024","doc":true,"doctest":true,"test":true},"profile":{"opt_level":"1","debuginfo":"line-tables-only","debug_assertions":true,"overflow_checks":true,"test":true},"features":["std"],"filenames":["/t/debug/deps/core_der-fc"],"executable":"/t/debug/deps/core_der-fc","fresh":false}"#,
            r#"{"reason":"compiler-artifact","package_id":"path+file:///w/crates/tls#0.1.0","manifest_path":"/w/crates/tls/Cargo.toml","target":{"kind":["example"],"crate_types":["bin"],"name":"client","src_path":"/w/crates/tls/examples/client.rs","edition":"2024","doc":false,"doctest":false,"test":false},"profile":{"opt_level":"1","debuginfo":"line-tables-only","debug_assertions":true,"overflow_checks":true,"test":false},"features":[],"filenames":["/t/debug/examples/client"],"executable":"/t/debug/examples/client","fresh":true}"#,
            r#"{"reason":"compiler-artifact","package_id":"registry+https://github.com/rust-lang/crates.io-index#ring@0.17.14","manifest_path":"/r/ring/Cargo.toml","target":{"kind":["lib"],"crate_types":["lib"],"name":"ring","src_path":"/r/ring/src/lib.rs","edition":"2021","doc":true,"doctest":false,"test":true},"profile":{"opt_level":"2","debuginfo":0,"debug_assertions":false,"overflow_checks":false,"test":false},"features":["alloc"],"filenames":["/t/debug/deps/libring.rlib"],"executable":null,"fresh":true}"#,
            r#"{"reason":"build-finished","success":true}"#,
        ]
        .join("\n");
        let dir = PathBuf::from("/w/crates/core-der");
        assert_eq!(
            test_binaries(&json),
            [
                TestBinary {
                    package_dir: dir.clone(),
                    target: "proptest".into(),
                    lib: false,
                    executable: "/t/debug/deps/proptest-54".into(),
                },
                TestBinary {
                    package_dir: dir,
                    target: "core_der".into(),
                    lib: true,
                    executable: "/t/debug/deps/core_der-fc".into(),
                },
            ]
        );
    }
}
