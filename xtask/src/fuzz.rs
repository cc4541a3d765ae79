//! `cargo xtask fuzz [--seconds N] [TARGET]`: runs the cargo-fuzz targets under `fuzz/` for N
//! seconds each (all of them unless one is named; as many at once as there are cores), failing
//! on any crash with the path of the input that reproduces it. The targets need nightly
//! (sanitizers, `-Z` flags), so this installs the nightly toolchain (`rustup toolchain install
//! nightly --profile minimal`) and cargo-fuzz (`cargo install cargo-fuzz --locked`) when they
//! are missing, and runs `rustup run nightly cargo fuzz …` — an explicit toolchain, so the
//! stable pin in `rust-toolchain.toml` does not apply.
//!
//! New inputs the fuzzer finds go to `fuzz/target/corpus/<target>/` (kept between runs, never
//! committed); the checked-in seeds in `fuzz/corpus/<target>/` are only read. Each run's
//! libFuzzer output is kept in `fuzz/target/fuzz-<target>.log`.

use std::fs::{self, File};
use std::num::NonZeroUsize;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use clap::Args;

use crate::util::NIGHTLY;
use crate::util::{self, Report, StageResult};
use crate::workspace::Workspace;

/// Seconds per target when `--seconds` is not given.
const DEFAULT_SECONDS: u64 = 60;
/// Seconds per target in `cargo xtask ci`'s smoke pass: a smoke test that every target runs
/// and its corpus still passes (the corpus replay is most of the value), not a search; with
/// the 17 targets fuzzed two at a time on CI's two cores it stays near a minute and a half
/// once built.
pub(crate) const CI_SECONDS: u64 = 10;
/// Seconds one input may run before libFuzzer calls it a hang.
const INPUT_TIMEOUT: u64 = 60;

/// Options of `cargo xtask fuzz`.
#[derive(Args, Clone, Debug)]
pub(crate) struct FuzzArgs {
    /// Seconds to fuzz each target.
    #[arg(long, default_value_t = DEFAULT_SECONDS)]
    pub(crate) seconds: u64,
    /// Fuzz only this target (see `fuzz/fuzz_targets/`).
    pub(crate) target: Option<String>,
}

/// Runs the `fuzz` stages into `report`: setup, build, then one stage per target.
pub(crate) fn run(report: &mut Report, ws: &Workspace, args: &FuzzArgs) {
    let dir = ws.root.join("fuzz");
    if !report.stage("fuzz setup", install) {
        report.skip("fuzz", "nightly or cargo-fuzz could not be installed");
        return;
    }
    let mut targets = Vec::new();
    let listed = report.stage("fuzz build", || {
        targets = list(&dir)?;
        if let Some(only) = &args.target {
            if !targets.contains(only) {
                return Err(format!("no fuzz target {only}; there are: {}", targets.join(", ")));
            }
            targets = vec![only.clone()];
        }
        let mut cmd = cargo_fuzz(&dir);
        cmd.arg("build").args(&args.target);
        util::run(&mut cmd)
    });
    if !listed {
        report.skip("fuzz", "the targets did not build");
        return;
    }
    run_targets(report, &dir, &targets, args.seconds);
}

/// Fuzzes `targets`, as many at once as there are cores (libFuzzer runs one thread, and each
/// target still gets its full `seconds`), one stage per target.
fn run_targets(report: &mut Report, dir: &Path, targets: &[String], seconds: u64) {
    let jobs = thread::available_parallelism().map_or(1, NonZeroUsize::get);
    println!("xtask: fuzzing {} targets, up to {jobs} at a time", targets.len());
    util::flush();
    report.parallel(
        jobs,
        targets,
        |target| format!("fuzz {target}"),
        |target| fuzz(dir, target, seconds),
    );
}

/// `rustup run nightly cargo fuzz`, in `dir`.
fn cargo_fuzz(dir: &Path) -> Command {
    let mut cmd = util::nightly_cargo("fuzz");
    cmd.current_dir(dir);
    cmd
}

/// Installs nightly and cargo-fuzz if either is missing.
fn install() -> StageResult {
    util::install_nightly(&[], "the fuzzers build with")?;
    if util::find_program("cargo-fuzz").is_none() {
        let mut cmd = util::cargo();
        cmd.args(["install", "cargo-fuzz", "--locked"]);
        util::run(&mut cmd)?;
    }
    let version = util::output(cargo_fuzz(Path::new(".")).arg("--version"))?;
    println!("{} on {NIGHTLY}", version.trim());
    Ok(())
}

/// The fuzz targets, from `cargo fuzz list`.
fn list(dir: &Path) -> Result<Vec<String>, String> {
    let out = util::output(cargo_fuzz(dir).arg("list"))?;
    let targets: Vec<String> =
        out.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_owned).collect();
    if targets.is_empty() {
        return Err("cargo fuzz list named no targets".into());
    }
    Ok(targets)
}

/// Fuzzes `target` for `seconds`, then prints its execution count.
fn fuzz(dir: &Path, target: &str, seconds: u64) -> StageResult {
    let work = dir.join("target").join("corpus").join(target);
    fs::create_dir_all(&work).map_err(|e| format!("cannot create {}: {e}", work.display()))?;
    let seeds = dir.join("corpus").join(target);
    let mut cmd = cargo_fuzz(dir);
    cmd.args(["run", target]).arg(&work);
    if seeds.is_dir() {
        cmd.arg(&seeds);
    }
    cmd.args([
        "--".to_owned(),
        format!("-max_total_time={seconds}"),
        format!("-timeout={INPUT_TIMEOUT}"),
    ]);
    // libFuzzer prints a line per new input: keep that in a log, and show its tail on failure.
    let log_path = dir.join("target").join(format!("fuzz-{target}.log"));
    let log = File::create(&log_path)
        .map_err(|e| format!("cannot create {}: {e}", log_path.display()))?;
    let err = log.try_clone().map_err(|e| format!("{}: {e}", log_path.display()))?;
    cmd.stdin(Stdio::null()).stdout(log).stderr(err);
    println!("$ {} > {}", util::display_command(&cmd), log_path.display());
    util::flush();
    // Building is done; allow for the corpus to load and a slow last input.
    let limit = Duration::from_secs(seconds + 2 * INPUT_TIMEOUT + 120);
    let status = wait(&mut cmd, limit)?;
    let output = fs::read_to_string(&log_path).unwrap_or_default();
    let Some(status) = status else {
        return Err(format!("{target}: still running after {} s", limit.as_secs()));
    };
    if !status.success() {
        let lines: Vec<&str> = output.lines().collect();
        // One block, even while another target runs beside this one.
        let tail = lines[lines.len().saturating_sub(40)..].join("\n");
        println!("{tail}");
        return Err(match reproducer(&output) {
            Some(path) => format!(
                "{target} crashed; reproducer: {path} (rerun: cd fuzz && cargo +{NIGHTLY} fuzz run {target} {path})"
            ),
            None => format!("{target} failed ({status}) without writing a reproducer"),
        });
    }
    match executions(&output) {
        Some((runs, secs)) => {
            let rate = runs / secs.max(1);
            println!("fuzz {target}: {runs} executions in {secs} s ({rate}/s), no crash");
            Ok(())
        }
        None => Err(format!("{target}: libFuzzer printed no `Done N runs` line")),
    }
}

/// Runs `cmd` to its end, or kills it after `limit` (`None`).
fn wait(cmd: &mut Command, limit: Duration) -> Result<Option<ExitStatus>, String> {
    let shown = util::display_command(cmd);
    let mut child = cmd.spawn().map_err(|e| format!("cannot start `{shown}`: {e}"))?;
    let deadline = Instant::now() + limit;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Ok(Some(status)),
            Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(100)),
            Ok(None) => {
                // Already exited is fine; `wait` then reaps it.
                let _ = child.kill();
                let _ = child.wait();
                return Ok(None);
            }
            Err(e) => return Err(format!("waiting for `{shown}`: {e}")),
        }
    }
}

/// The path in libFuzzer's `Test unit written to PATH` line.
fn reproducer(output: &str) -> Option<&str> {
    output.lines().find_map(|l| l.split("Test unit written to ").nth(1)).map(str::trim)
}

/// `(runs, seconds)` from libFuzzer's closing `Done N runs in S second(s)` line.
fn executions(output: &str) -> Option<(u64, u64)> {
    let line = output.lines().rev().find_map(|l| l.split("Done ").nth(1))?;
    let mut words = line.split_whitespace();
    let runs = words.next()?.parse().ok()?;
    let secs = words.nth(2)?.parse().ok()?;
    Some((runs, secs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_libfuzzer_output() {
        let done = "#62054\tDONE   cov: 1 ft: 2\nDone 62054 runs in 21 second(s)\n";
        assert_eq!(executions(done), Some((62054, 21)));
        assert_eq!(executions("nothing"), None);
        let crash = "==1== ERROR: libFuzzer: deadly signal\n\
                     artifact_prefix='/f/artifacts/hash/'; Test unit written to /f/artifacts/hash/crash-ab12\n";
        assert_eq!(reproducer(crash), Some("/f/artifacts/hash/crash-ab12"));
        assert_eq!(reproducer(done), None);
    }
}
