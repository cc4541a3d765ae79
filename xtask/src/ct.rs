//! `cargo xtask ct`: the constant-time check. Builds `xtask/ct-harness` (release, with line
//! tables so valgrind can name inlined frames) and runs it under valgrind's memcheck, which
//! reports every branch, memory index or system call that depends on a value the harness
//! marked secret; the run fails on any report. Values public by design (whether a tag
//! matched, a derived public key) are declared so by the library (`core_hash::declassify`,
//! live with core-hash's `ct-check` feature, which the harness enables), so nothing in Halite
//! is suppressed; `xtask/ct-harness/verdicts.supp` stays for outside code, and any entry that
//! matches is listed with its count.
//!
//! Valgrind (3.19 here) emulates no AVX-512 and leaves it out of the CPUID it shows the
//! program, so the harness takes the AVX2 paths under it; `HALITE_CPU_DISABLE=avx512f` makes
//! that explicit. The stage lists the implementations this CPU runs natively that the valgrind run
//! could not reach, so a green line says what it did not check.
//!
//! `ct div-scan` disassembles the same harness and refuses any integer division reachable from
//! core-lattice's functions (see [`crate::divscan`]): valgrind does not see a division's
//! variable timing.
//!
//! The self-test runs the harness's planted leaks (a branch and a table index on a secret)
//! under the same settings and requires valgrind to fail each with the matching report: a
//! check that cannot fail proves nothing.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use clap::Args;

use crate::util::{self, Need, Report, StageResult};
use crate::workspace::Workspace;

/// The harness package (and binary).
const PACKAGE: &str = "ct-harness";
/// Features the harness runs without under valgrind, which cannot execute them.
const DISABLE: &str = "avx512f";
/// Longest a valgrind run may take (a full run takes a few seconds).
const TIMEOUT: Duration = Duration::from_secs(900);

/// Options of `cargo xtask ct`.
#[derive(Args, Clone, Debug, Default)]
pub(crate) struct CtArgs {
    /// Skip the self-test (the planted leaks valgrind must catch).
    #[arg(long)]
    pub(crate) no_self_test: bool,
}

/// What `ct` needs from outside the workspace.
pub(crate) fn needs() -> Vec<Need> {
    vec![Need::Command("valgrind", "valgrind")]
}

/// A planted leak of the self-test: its name on the harness command line, the memcheck
/// report it must cause, and the function the report must name.
const PLANTS: &[(&str, &str, &str)] = &[
    ("branch", "Conditional jump or move depends on uninitialised value", "planted_secret_branch"),
    ("index", "Use of uninitialised value of size", "planted_secret_index"),
];

/// Runs the `ct` stages into `report`: build, check, self-test.
pub(crate) fn run(report: &mut Report, ws: &Workspace, args: &CtArgs) {
    let dir = ws.target_dir.join("ct");
    let harness = dir.join("release").join(PACKAGE);
    let built = report.stage("ct build", || build(&dir));
    if !built {
        report.skip("ct", "the harness did not build");
        report.skip("ct self-test", "the harness did not build");
        return;
    }
    report.stage("ct div-scan", || div_scan(&harness));
    let suppressions = ws.root.join("xtask").join(PACKAGE).join("verdicts.supp");
    report.stage("ct", || check(&harness, &suppressions, &dir));
    if args.no_self_test {
        report.skip("ct self-test", "--no-self-test");
    } else {
        report.stage("ct self-test", || self_test(&harness, &suppressions, &dir));
    }
}

/// Builds the harness into its own target directory, so the debug line tables do not
/// invalidate the workspace's release build.
fn build(dir: &Path) -> StageResult {
    if !cfg!(target_arch = "x86_64") {
        return Err("the harness's valgrind client requests are written for x86_64 only".into());
    }
    let mut cmd = util::cargo();
    cmd.args(["build", "--release", "-p", PACKAGE, "--target-dir"])
        .arg(dir)
        .env("CARGO_PROFILE_RELEASE_DEBUG", "line-tables-only");
    util::run(&mut cmd)
}

/// The division check ([`crate::divscan`]) on the release harness, which links every ML-KEM
/// and ML-DSA implementation this machine has: no `div`/`idiv` and no division helper
/// reachable from core-lattice's functions. GNU `objdump`, else `llvm-objdump` from rustup's llvm-tools.
fn div_scan(harness: &Path) -> StageResult {
    let tool = util::find_program("objdump")
        .or_else(|| crate::m0::rustup_llvm_tool("llvm-objdump"))
        .ok_or("missing objdump (Debian: binutils) or llvm-objdump (rustup's llvm-tools)")?;
    let text = util::output(Command::new(tool).args(["-d", "-C"]).arg(harness))?;
    crate::divscan::check(&text, &["core_lattice"], "ct-harness (x86-64, release)")
}

/// The implementations named on the harness's `prefix` line (`available:` or `covered:`).
fn implementations(output: &str, prefix: &str) -> BTreeSet<String> {
    output
        .lines()
        .find_map(|line| line.strip_prefix(prefix))
        .map(|rest| rest.split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default()
}

/// What one valgrind run left: its exit code and its log.
struct Valgrind {
    code: Option<i32>,
    output: String,
    log: String,
}

impl Valgrind {
    /// Runs `harness ARGS` under memcheck, logging to `dir/valgrind-NAME.log`.
    fn run(harness: &Path, suppressions: &Path, dir: &Path, args: &[&str]) -> Result<Self, String> {
        let log_path: PathBuf = dir.join(format!("valgrind-{}.log", args.join("-")));
        let mut cmd = Command::new("valgrind");
        cmd.args(["--error-exitcode=1", "--track-origins=yes", "--num-callers=40", "-v"])
            .arg(format!("--suppressions={}", suppressions.display()))
            .arg(format!("--log-file={}", log_path.display()))
            .arg(harness)
            .args(args)
            .env("HALITE_CPU_DISABLE", DISABLE);
        let run = util::run_captured(&mut cmd, TIMEOUT)?;
        let log = fs::read_to_string(&log_path)
            .map_err(|e| format!("cannot read {}: {e}", log_path.display()))?;
        let Some(status) = run.status else {
            return Err(format!("valgrind timed out; log: {}", log_path.display()));
        };
        Ok(Valgrind { code: status.code(), output: run.output, log })
    }

    /// The error count from memcheck's closing `ERROR SUMMARY` line.
    fn errors(&self) -> Option<u64> {
        let line = self.log.lines().rev().find(|l| l.contains("ERROR SUMMARY:"))?;
        let after = line.split("ERROR SUMMARY:").nth(1)?;
        after.split_whitespace().next()?.parse().ok()
    }

    /// memcheck's own lines (errors and summaries; `-v` chatter is prefixed `--`).
    fn reports(&self) -> impl Iterator<Item = &str> {
        self.log.lines().filter(|l| l.starts_with("=="))
    }

    /// `(name, count)` of each suppression that matched.
    fn suppressions_used(&self) -> Vec<(String, u64)> {
        self.log
            .lines()
            .filter_map(|l| l.split("used_suppression:").nth(1))
            .filter_map(|rest| {
                let mut words = rest.split_whitespace();
                let count = words.next()?.parse().ok()?;
                Some((words.next()?.to_owned(), count))
            })
            .collect()
    }
}

/// The check proper: the harness natively (which implementations exist here), then under
/// memcheck, failing on any report or harness failure.
fn check(harness: &Path, suppressions: &Path, dir: &Path) -> StageResult {
    let native = util::output(Command::new(harness).arg("list"))?;
    let native = implementations(&native, "available: ");
    let run = Valgrind::run(harness, suppressions, dir, &["run"])?;
    let errors = run.errors();
    if errors != Some(0) {
        println!("memcheck reports:");
        for line in run.reports() {
            println!("{line}");
        }
        return Err(match errors {
            Some(n) => format!("memcheck reported {n} secret-dependent operations (above)"),
            None => "valgrind ended without an error summary (above)".into(),
        });
    }
    if run.code != Some(0) {
        return Err(format!("the harness failed under valgrind (exit {:?})", run.code));
    }
    let covered = implementations(&run.output, "covered: ");
    if covered.is_empty() {
        return Err("the harness named no implementation it covered".into());
    }
    for (name, count) in run.suppressions_used() {
        println!("ct: suppressed {count} reports by {name}");
    }
    let missed: Vec<&str> = native.difference(&covered).map(String::as_str).collect();
    if !missed.is_empty() {
        println!(
            "ct: not checked (valgrind runs no AVX-512 or ADX; HALITE_CPU_DISABLE={DISABLE}): {}",
            missed.join(" ")
        );
    }
    let ops = run
        .output
        .lines()
        .find_map(|l| l.strip_prefix("ct-harness: "))
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or("?");
    println!(
        "ct: 0 memcheck reports over {ops} operations with secret inputs, on {} of the {} \
         implementations this CPU runs",
        covered.len(),
        native.len()
    );
    Ok(())
}

/// Each planted leak must make valgrind exit with status 1 and the expected report.
fn self_test(harness: &Path, suppressions: &Path, dir: &Path) -> StageResult {
    for &(plant, kind, function) in PLANTS {
        let run = Valgrind::run(harness, suppressions, dir, &["self-test", plant])?;
        let reported = run.log.contains(kind) && run.log.contains(function);
        if run.code != Some(1) || !reported {
            for line in run.reports() {
                println!("{line}");
            }
            return Err(format!(
                "the planted secret {plant} was not caught (exit {:?}, report {}found)",
                run.code,
                if reported { "" } else { "not " }
            ));
        }
        println!("ct self-test: planted secret {plant} caught: \"{kind}\" in {function}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_harness_and_valgrind_output() {
        let out = "x\ncovered: aes/ct64 sha1/portable\nct-harness: 3 operations\n";
        let set = implementations(out, "covered: ");
        assert_eq!(set.into_iter().collect::<Vec<_>>(), ["aes/ct64", "sha1/portable"]);
        assert!(implementations(out, "available: ").is_empty());
        let run = Valgrind {
            code: Some(0),
            output: String::new(),
            log: "--1-- used_suppression:    192 gcm-open-verdict x.supp:47\n\
                  ==1== ERROR SUMMARY: 3 errors from 1 contexts (suppressed: 192 from 1)\n"
                .into(),
        };
        assert_eq!(run.errors(), Some(3));
        assert_eq!(run.suppressions_used(), [("gcm-open-verdict".to_owned(), 192)]);
        assert_eq!(run.reports().count(), 1);
    }
}
