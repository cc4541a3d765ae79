//! `cargo xtask m0`: builds the `m0-kat` firmware for `thumbv6m-none-eabi`, runs it on QEMU's
//! Cortex-M0 micro:bit model under a time limit, judges the run by its exit status and summary
//! line, and prints its code size by section and by crate. The `m0 ct-scan` stage then checks
//! the firmware's machine code: no unreviewed conditional branch in the functions that compute
//! on secrets (see [`crate::ctscan`]). With `--tls` it runs the TLS client firmware instead
//! (see [`crate::m0tls`]).
//!
//! With `--self-test` it also builds the firmware with a deliberately failing check and with a
//! deliberate `HardFault`, and requires each to end with the matching non-zero status rather than
//! a pass or a hang: a harness that cannot fail proves nothing.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use std::{fmt, fs};

use clap::Args;

use crate::util::{self, Captured, Need, Report, StageResult};
use crate::workspace::Workspace;
use crate::{cost, ctscan, m0tls, size};

/// The Cortex-M0 target.
pub(crate) const TARGET: &str = "thumbv6m-none-eabi";
/// The firmware package.
const PACKAGE: &str = "m0-kat";
/// The Cargo profile firmware is measured in (opt-level z, fat LTO, abort on panic).
const PROFILE: &str = "size";
/// m0-kat's exit status when a check failed (see `xtask/m0-kat/src/main.rs`).
const EXIT_FAIL: i32 = 1;
/// m0-kat's exit status after a `HardFault`.
const EXIT_HARD_FAULT: i32 = 3;

/// QEMU CPU model the firmware runs on by default.
const DEFAULT_CPU: &str = "cortex-m0";
/// QEMU board model by default; the firmware is linked for its memory map.
const DEFAULT_MACHINE: &str = "microbit";
/// Seconds before a run counts as hung, by default (a passing run takes well under one).
const DEFAULT_TIMEOUT: u64 = 120;

/// Options of `cargo xtask m0`.
// Command-line switches are independent flags; an enum would not make them clearer.
#[allow(clippy::struct_excessive_bools)]
#[derive(Args, Clone, Debug)]
pub(crate) struct M0Args {
    /// Also build with the `inject-failure` and `inject-fault` features and require both runs
    /// to fail with the expected status (and not hang).
    #[arg(long)]
    pub(crate) self_test: bool,
    /// QEMU CPU model.
    #[arg(long, default_value = DEFAULT_CPU)]
    pub(crate) cpu: String,
    /// QEMU board model (the firmware is linked for the micro:bit memory map).
    #[arg(long, default_value = DEFAULT_MACHINE)]
    pub(crate) machine: String,
    /// Seconds before a QEMU run is killed and counted as a hang.
    #[arg(long, default_value_t = DEFAULT_TIMEOUT)]
    pub(crate) timeout: u64,
    /// Instead of the checks, run the cost model: instructions, estimated Cortex-M0+ cycles,
    /// stack and flash per operation, next to BearSSL's published figures.
    #[arg(long)]
    pub(crate) cost: bool,
    /// With --cost: print the table in Markdown (for the README).
    #[arg(long, requires = "cost")]
    pub(crate) markdown: bool,
    /// With --cost: skip the per-operation flash images (one firmware build each).
    #[arg(long, requires = "cost")]
    pub(crate) no_flash: bool,
    /// With --cost: also fetch BearSSL's source (`apt-get source`), build it for thumbv6m and
    /// measure it the same way, side by side.
    #[arg(long, requires = "cost")]
    pub(crate) bearssl: bool,
    /// Instead of the checks, run the TLS 1.3 client firmware images (external PSK, raw
    /// public key, certificate chain) against a Halite server on the host and print their
    /// flash, RAM and handshake cycles.
    #[arg(long, conflicts_with = "cost")]
    pub(crate) tls: bool,
    /// Build the firmware with every primitive crate's `asm` feature off (m0-kat's `asm`) and
    /// run the checks on the Rust twins; the ct-scan, whose allowlist reviews the assembly
    /// build's functions, is skipped.
    #[arg(long, conflicts_with_all = ["cost", "tls", "self_test"])]
    pub(crate) no_asm: bool,
}

impl Default for M0Args {
    /// The same options as `cargo xtask m0` with no flags.
    fn default() -> Self {
        M0Args {
            self_test: false,
            cpu: DEFAULT_CPU.to_owned(),
            machine: DEFAULT_MACHINE.to_owned(),
            timeout: DEFAULT_TIMEOUT,
            cost: false,
            markdown: false,
            no_flash: false,
            bearssl: false,
            tls: false,
            no_asm: false,
        }
    }
}

/// What `m0` needs from outside the workspace.
pub(crate) fn needs() -> Vec<Need> {
    vec![
        Need::Command("qemu-system-arm", "qemu-system-arm"),
        // Builds the instruction-counting plugin of `--cost`.
        Need::Command("cc", "gcc"),
        Need::RustTarget(TARGET),
        Need::Probe {
            what: "arm-none-eabi-size/nm (or llvm-size/nm from rustup's llvm-tools)",
            present: || Binutils::find().is_ok(),
            package: "binutils-arm-none-eabi",
        },
        Need::Probe {
            what: "arm-none-eabi-objdump (or llvm-objdump from rustup's llvm-tools)",
            present: || ctscan::objdump().is_ok(),
            package: "binutils-arm-none-eabi",
        },
    ]
}

/// Runs the `m0` stages into `report`.
pub(crate) fn run(report: &mut Report, ws: &Workspace, args: &M0Args) {
    if args.cost {
        let cost = cost::CostArgs {
            markdown: args.markdown,
            no_flash: args.no_flash,
            bearssl: args.bearssl,
        };
        cost::run(report, ws, args, cost);
        return;
    }
    if args.tls {
        m0tls::run(report, ws, args);
        return;
    }
    // The asm-off run's stages carry a suffix, so that `ci` can report both.
    let tag = if args.no_asm { " (no asm)" } else { "" };
    let mut elf = None;
    report.stage(&format!("m0 build{tag}"), || {
        elf = Some(build(ws, if args.no_asm { Build::NoAsm } else { Build::Default })?);
        Ok(())
    });
    let Some(elf) = elf else {
        report.skip(&format!("m0 run{tag}"), "the build failed");
        report.skip(&format!("m0 size{tag}"), "the build failed");
        report.skip(&format!("m0 ct-scan{tag}"), "the build failed");
        if args.self_test {
            report.skip("m0 self-test", "the build failed");
        }
        return;
    };
    report.stage(&format!("m0 run{tag}"), || {
        let run = qemu(&elf, args)?;
        judge(Exit::of(&run), &run.output, Expect::Pass)?;
        if let Some((name, bytes)) = deepest_stack(&run.output) {
            println!("xtask: deepest stack use {bytes} B ({name}); per check in the lines above");
        }
        Ok(())
    });
    report.stage(&format!("m0 size{tag}"), || print_size(&elf));
    if args.no_asm {
        report.skip("m0 ct-scan (no asm)", "the allowlist reviews the assembly build");
    } else {
        report.stage("m0 ct-scan", || ctscan::run(&[elf.clone(), cost::build_all(ws)?]));
    }
    if args.self_test {
        report.stage("m0 self-test", || self_test(ws, args));
    }
}

/// Which firmware to build.
#[derive(Clone, Copy)]
enum Build<'a> {
    /// The default features (`asm` on).
    Default,
    /// The default features and one more (the self-test's injected failures).
    With(&'a str),
    /// No default features: every primitive crate without `asm`.
    NoAsm,
}

/// Builds the firmware and returns a copy of the ELF named after the variant, so variants do
/// not overwrite one another.
fn build(ws: &Workspace, variant: Build<'_>) -> Result<PathBuf, String> {
    let mut cmd = util::cargo();
    cmd.args(["build", "-p", PACKAGE, "--target", TARGET, "--profile", PROFILE]);
    match variant {
        Build::Default => {}
        Build::With(feature) => {
            cmd.args(["--features", feature]);
        }
        Build::NoAsm => {
            cmd.arg("--no-default-features");
        }
    }
    util::run(&mut cmd)?;
    let built = ws.target_dir.join(TARGET).join(PROFILE).join(PACKAGE);
    let dir = ws.target_dir.join("xtask");
    fs::create_dir_all(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    let copy = dir.join(match variant {
        Build::Default => format!("{PACKAGE}.elf"),
        Build::With(feature) => format!("{PACKAGE}-{feature}.elf"),
        Build::NoAsm => format!("{PACKAGE}-no-asm.elf"),
    });
    fs::copy(&built, &copy)
        .map_err(|e| format!("copying {} to {}: {e}", built.display(), copy.display()))?;
    Ok(copy)
}

/// Runs `elf` on the emulated board with semihosting, streaming its output.
fn qemu(elf: &Path, args: &M0Args) -> Result<Captured, String> {
    let mut cmd = Command::new("qemu-system-arm");
    cmd.args(["-cpu", &args.cpu, "-machine", &args.machine, "-nographic"])
        .args(["-semihosting-config", "enable=on,target=native", "-kernel"])
        .arg(elf);
    util::run_captured(&mut cmd, Duration::from_secs(args.timeout))
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Exit {
    /// Exited with this status.
    Code(i32),
    /// Killed by a signal other than ours.
    Signal,
    /// Still running at the time limit, and killed.
    TimedOut,
}

impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Exit::Code(code) => write!(f, "exit status {code}"),
            Exit::Signal => f.write_str("killed by a signal"),
            Exit::TimedOut => f.write_str("timed out"),
        }
    }
}

impl Exit {
    fn of(run: &Captured) -> Exit {
        match run.status {
            None => Exit::TimedOut,
            Some(status) => status.code().map_or(Exit::Signal, Exit::Code),
        }
    }
}

/// What a run should do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// Every check passes: status 0 and a summary with at least one pass and no failure.
    Pass,
    /// An injected check fails: status [`EXIT_FAIL`] and a summary with failures.
    CheckFailure,
    /// An injected `HardFault` is reported: status [`EXIT_HARD_FAULT`] and the handler's line.
    Fault,
}

/// The counts from the firmware's summary line `m0-kat: N passed, M failed` (the last one).
fn parse_summary(output: &str) -> Option<(u32, u32)> {
    output.lines().rev().find_map(|line| {
        let counts = line.trim().strip_prefix("m0-kat: ")?;
        let (passed, failed) = counts.split_once(" passed, ")?;
        let failed = failed.strip_suffix(" failed")?;
        Some((passed.parse().ok()?, failed.parse().ok()?))
    })
}

/// The check with the deepest stack use, from the firmware's `ok   name [stack N B]` lines.
fn deepest_stack(output: &str) -> Option<(&str, u32)> {
    output
        .lines()
        .filter_map(|line| {
            let rest = line.trim().strip_prefix("ok   ")?;
            let (name, depth) = rest.split_once(" [stack ")?;
            Some((name, depth.strip_suffix(" B]")?.parse().ok()?))
        })
        .max_by_key(|&(_, bytes)| bytes)
}

/// Whether a run ended as `expect` says; the error says how it ended instead.
fn judge(exit: Exit, output: &str, expect: Expect) -> StageResult {
    let summary = parse_summary(output);
    let ended = match exit {
        Exit::TimedOut => {
            return Err("timed out: the firmware hung (HardFault without a handler?)".into());
        }
        Exit::Signal => return Err("QEMU was killed by a signal".into()),
        Exit::Code(code) => code,
    };
    let described = match summary {
        Some((passed, failed)) => format!("exit status {ended}, {passed} passed, {failed} failed"),
        None => format!("exit status {ended}, no summary line"),
    };
    let as_expected = match expect {
        Expect::Pass => ended == 0 && matches!(summary, Some((passed, 0)) if passed > 0),
        Expect::CheckFailure => {
            ended == EXIT_FAIL && matches!(summary, Some((_, failed)) if failed > 0)
        }
        Expect::Fault => ended == EXIT_HARD_FAULT && output.contains("HardFault at pc="),
    };
    if as_expected { Ok(()) } else { Err(format!("expected {expect:?}, got {described}")) }
}

/// Builds and runs the two deliberately broken variants; both must fail the expected way.
fn self_test(ws: &Workspace, args: &M0Args) -> StageResult {
    let mut problems = Vec::new();
    for (feature, expect) in
        [("inject-failure", Expect::CheckFailure), ("inject-fault", Expect::Fault)]
    {
        let verdict = build(ws, Build::With(feature)).and_then(|elf| {
            let run = qemu(&elf, args)?;
            let exit = Exit::of(&run);
            judge(exit, &run.output, expect).map(|()| exit)
        });
        match verdict {
            Ok(exit) => println!("xtask: {feature}: failed as it should ({exit})"),
            Err(why) => problems.push(format!("{feature}: {why}")),
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(problems.join("; ")) }
}

/// `size` and `nm` for ARM ELF files.
pub(crate) struct Binutils {
    pub(crate) size: PathBuf,
    pub(crate) nm: PathBuf,
}

impl Binutils {
    /// GNU `arm-none-eabi-{size,nm}` if installed, else LLVM's from the rustup `llvm-tools`
    /// component or from `PATH`.
    pub(crate) fn find() -> Result<Binutils, String> {
        let pair =
            |size: Option<PathBuf>, nm: Option<PathBuf>| Some(Binutils { size: size?, nm: nm? });
        pair(util::find_program("arm-none-eabi-size"), util::find_program("arm-none-eabi-nm"))
            .or_else(|| {
                let bin = rustup_llvm_tools_dir()?;
                pair(Some(bin.join("llvm-size")), Some(bin.join("llvm-nm")))
            })
            .or_else(|| pair(util::find_program("llvm-size"), util::find_program("llvm-nm")))
            .ok_or_else(|| {
                "missing arm-none-eabi-size/arm-none-eabi-nm (Debian: binutils-arm-none-eabi); install \
                 with: apt-get install -y --no-install-recommends binutils-arm-none-eabi \
                 (or: rustup component add llvm-tools)"
                    .to_owned()
            })
    }
}

/// `tool` (`llvm-objdump`, …) from the rustup `llvm-tools` component, if installed.
pub(crate) fn rustup_llvm_tool(tool: &str) -> Option<PathBuf> {
    Some(rustup_llvm_tools_dir()?.join(tool)).filter(|path| path.is_file())
}

/// The directory holding `llvm-size` from the rustup `llvm-tools` component, if installed.
fn rustup_llvm_tools_dir() -> Option<PathBuf> {
    let mut cmd = Command::new(std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()));
    cmd.current_dir(util::workspace_root()).args(["--print", "sysroot"]);
    let sysroot = PathBuf::from(util::output(&mut cmd).ok()?.trim());
    fs::read_dir(sysroot.join("lib/rustlib"))
        .ok()?
        .flatten()
        .map(|entry| entry.path().join("bin"))
        .find(|bin| bin.join("llvm-size").is_file() && bin.join("llvm-nm").is_file())
}

/// Prints the section table, the per-crate split and the largest symbols of `elf`.
fn print_size(elf: &Path) -> StageResult {
    let tools = Binutils::find()?;
    let sections =
        size::parse_sections(&util::output(Command::new(&tools.size).arg("-A").arg(elf))?);
    if !sections.iter().any(|s| s.name == ".text") {
        return Err(format!("no .text section in `{} -A` output", tools.size.display()));
    }
    let symbols = size::parse_symbols(&util::output(
        Command::new(&tools.nm).args(["-S", "-C", "--size-sort"]).arg(elf),
    )?);
    println!("code size of {} ({PROFILE} profile, {TARGET}):", elf.display());
    print!("{}", size::render_sections(&sections));
    println!("\n.text + .rodata by crate:");
    print!("{}", size::render_crates(&size::by_crate(&sections, &symbols)));
    println!("\nlargest symbols:");
    for symbol in symbols.iter().rev().take(10) {
        println!("  {:>6}  {}", symbol.size, symbol.name);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deepest_stack_is_found() {
        let out = "ok   a [stack 120 B]\nok   b [stack 900 B]\nok   c\nFAIL d: x\n";
        assert_eq!(deepest_stack(out), Some(("b", 900)));
        assert_eq!(deepest_stack("ok   a\n"), None);
    }

    #[test]
    fn summary_line_is_parsed() {
        assert_eq!(parse_summary("ok   a\nm0-kat: 10 passed, 0 failed\n"), Some((10, 0)));
        assert_eq!(
            parse_summary("m0-kat: 1 passed, 0 failed\nm0-kat: 9 passed, 2 failed\r\n"),
            Some((9, 2))
        );
        assert_eq!(parse_summary("ok   a\nHardFault at pc=0x00000e64\n"), None);
        assert_eq!(parse_summary("m0-kat: many passed, 0 failed"), None);
        assert_eq!(parse_summary("xx m0-kat: 1 passed, 0 failed"), None);
    }

    #[test]
    fn runs_are_judged() {
        let pass = "ok   a\nm0-kat: 3 passed, 0 failed\n";
        let fail = "FAIL a: no\nm0-kat: 2 passed, 1 failed\n";
        let fault = "ok   a\nHardFault at pc=0x00000e64 lr=0x00001175\n";
        assert!(judge(Exit::Code(0), pass, Expect::Pass).is_ok());
        assert!(judge(Exit::Code(0), fail, Expect::Pass).is_err(), "status 0 but a failure");
        assert!(
            judge(Exit::Code(0), "m0-kat: 0 passed, 0 failed", Expect::Pass).is_err(),
            "nothing ran"
        );
        assert!(judge(Exit::Code(0), "ok   a\n", Expect::Pass).is_err(), "no summary");
        assert!(judge(Exit::Code(1), pass, Expect::Pass).is_err());
        assert!(judge(Exit::TimedOut, pass, Expect::Pass).unwrap_err().contains("timed out"));
        assert!(judge(Exit::Code(EXIT_FAIL), fail, Expect::CheckFailure).is_ok());
        assert!(
            judge(Exit::Code(101), fail, Expect::CheckFailure).is_err(),
            "a panic is not a failed check"
        );
        assert!(judge(Exit::Code(EXIT_HARD_FAULT), fault, Expect::Fault).is_ok());
        assert!(judge(Exit::TimedOut, fault, Expect::Fault).is_err());
        assert!(judge(Exit::Code(EXIT_FAIL), fail, Expect::Fault).is_err());
    }
}
