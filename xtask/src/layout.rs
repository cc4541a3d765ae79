//! `cargo xtask layout`: does `speed` depend on where the linker puts Halite's code?
//!
//! Byte-identical code has measured up to 30 % apart on this kind of machine when only its
//! position changed (issue 30: P-384 ECDH 1.04× aws-lc-rs in one build, 0.92× in another of
//! the same commit). This links the `speed` binary twice from the same object code: once as
//! cargo links it, once with LLD shuffling the input code sections (`--shuffle-sections`,
//! seeded, so a layout can be reproduced) — every function keeps its bytes and moves
//! elsewhere, as it does when a user's build adds, drops or reorders code. Only the final link
//! (and the `speed` binary's own crate) is redone. LLD is rustc's default linker on `x86_64`
//! Linux; elsewhere the second link fails and says so.
//!
//! The two binaries then run alternately (A B A B …) on the rows known to move with layout,
//! each run Halite and one peer in the same round-robin. Per row, Halite's rate over the
//! peer's in the same run (which cancels the machine's drift) is compared between the builds:
//! the *layout spread* is how far apart the two builds' medians are, the *noise* how far each
//! build's own runs spread. A row fails when its layout spread exceeds both the threshold and
//! its noise; the command then exits non-zero.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use clap::Args;

use crate::util::{self, Report, StageResult};
use crate::workspace::Workspace;

/// The rows that have moved with build layout (issue 30): the NIST curves' ECDH and
/// verification, and the SHA-512 family.
const DEFAULT_ONLY: &str =
    "^(p256-ecdh|p256-ecdsa-verify|p384-ecdh|p384-ecdsa-verify|sha384|sha512|hmac-sha512)$";

/// Options of `cargo xtask layout`.
#[derive(Args, Clone, Debug)]
pub(crate) struct LayoutArgs {
    /// The rows to compare (a `speed --only` regular expression).
    #[arg(long, default_value = DEFAULT_ONLY, value_name = "REGEX")]
    pub(crate) only: String,
    /// The peer each run measures beside Halite; rates are compared as Halite ÷ this peer.
    #[arg(long, default_value = "aws-lc-rs", value_name = "LIBRARY")]
    pub(crate) peer: String,
    /// Runs of each binary, alternated.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u16).range(2..))]
    pub(crate) runs: u16,
    /// The layout spread (percent) above which a row fails, when it also exceeds the row's
    /// run-to-run noise.
    #[arg(long, default_value_t = 5.0, value_name = "PERCENT")]
    pub(crate) threshold: f64,
    /// Pass `--quick` to `speed` (shorter batches and fewer rounds: a first look).
    #[arg(long)]
    pub(crate) quick: bool,
    /// The seed of build B's section shuffle (another seed, another layout).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) seed: u32,
}

/// Runs the `layout` stages into `report`.
pub(crate) fn run(report: &mut Report, ws: &Workspace, args: &LayoutArgs) {
    let dir = ws.target_dir.join("layout");
    let mut binaries = None;
    report.stage("layout build", || {
        binaries = Some(build_both(ws, &dir, args.seed)?);
        Ok(())
    });
    let Some([a, b]) = binaries else { return };
    let mut runs = Vec::new();
    report.stage("layout runs", || {
        for i in 0..args.runs {
            for (name, binary) in [("a", &a), ("b", &b)] {
                let csv = dir.join(format!("{name}-{i}.csv"));
                let mut cmd = Command::new(binary);
                cmd.args(["--only", &args.only, "--libs", &args.peer, "--csv"]).arg(&csv);
                if args.quick {
                    cmd.arg("--quick");
                }
                println!("$ {}", util::display_command(&cmd));
                util::flush();
                util::output(&mut cmd)?;
                let text =
                    fs::read_to_string(&csv).map_err(|e| format!("{}: {e}", csv.display()))?;
                runs.push((name, ratios(&text, &args.peer)));
            }
        }
        Ok(())
    });
    if runs.is_empty() {
        return;
    }
    report.stage("layout verdict", || verdict(&runs, args.threshold));
}

/// Links `speed` in release as cargo does and with its code sections shuffled by `seed`, and
/// copies the two binaries into `dir` (each build overwrites `target/release/speed`).
fn build_both(ws: &Workspace, dir: &Path, seed: u32) -> Result<[PathBuf; 2], String> {
    fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let a = build_speed(ws, &[], &dir.join("speed-a"))?;
    let shuffle = format!("link-arg=-Wl,--shuffle-sections=.text.*={seed}");
    let b = build_speed(ws, &["-C", &shuffle], &dir.join("speed-b"))?;
    Ok([a, b])
}

/// `cargo rustc --release -p bench --bin speed -- RUSTC_ARGS` (the arguments reach only the
/// `speed` binary's own compilation and link), the binary copied to `to`.
fn build_speed(ws: &Workspace, rustc_args: &[&str], to: &Path) -> Result<PathBuf, String> {
    let mut cmd = util::cargo();
    cmd.args(["rustc", "--release", "-p", "bench", "--bin", "speed", "--"]).args(rustc_args);
    util::run(&mut cmd)?;
    let built = ws.target_dir.join("release/speed");
    fs::copy(&built, to).map_err(|e| format!("{} → {}: {e}", built.display(), to.display()))?;
    Ok(to.to_path_buf())
}

/// One row of a run: operation and message size.
type Row = (String, String);

/// From a `speed --csv` file, Halite's default rate over `peer`'s, per row.
fn ratios(csv: &str, peer: &str) -> BTreeMap<Row, f64> {
    let mut halite = BTreeMap::new();
    let mut other = BTreeMap::new();
    for line in csv.lines().skip(1) {
        // op,bytes,library,implementation,unit,median,min,max
        let fields: Vec<&str> = line.split(',').collect();
        let [op, bytes, library, implementation, _, median, ..] = fields[..] else { continue };
        let Ok(median) = median.parse::<f64>() else { continue };
        let row = (op.to_owned(), bytes.to_owned());
        if library == "halite" && implementation == "default" {
            halite.insert(row, median);
        } else if library == peer {
            other.insert(row, median);
        }
    }
    halite
        .into_iter()
        .filter_map(|(row, h)| other.get(&row).filter(|p| **p > 0.0).map(|p| (row, h / p)))
        .collect()
}

/// The median of `values` (not empty).
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 { values[n / 2] } else { f64::midpoint(values[n / 2 - 1], values[n / 2]) }
}

/// Per row: the two builds' median ratios, the layout spread and the noise (percent), and
/// whether the row fails.
#[derive(Debug, PartialEq)]
struct Verdict {
    row: Row,
    a: f64,
    b: f64,
    spread: f64,
    noise: f64,
    fails: bool,
}

/// Compares the two builds row by row (see the module docs).
fn judge(runs: &[(&str, BTreeMap<Row, f64>)], threshold: f64) -> Vec<Verdict> {
    let mut by_row: BTreeMap<&Row, [Vec<f64>; 2]> = BTreeMap::new();
    for (build, ratios) in runs {
        let side = usize::from(*build == "b");
        for (row, ratio) in ratios {
            by_row.entry(row).or_default()[side].push(*ratio);
        }
    }
    by_row
        .into_iter()
        .filter(|(_, [a, b])| !a.is_empty() && !b.is_empty())
        .map(|(row, [mut a, mut b])| {
            let (ma, mb) = (median(&mut a), median(&mut b));
            let spread = 100.0 * (ma - mb).abs() / ma.min(mb);
            let own =
                |v: &[f64], m: f64| 100.0 * (v.last().unwrap_or(&m) - v.first().unwrap_or(&m)) / m;
            let noise = own(&a, ma).max(own(&b, mb));
            Verdict {
                row: row.clone(),
                a: ma,
                b: mb,
                spread,
                noise,
                fails: spread > threshold && spread > noise,
            }
        })
        .collect()
}

/// Prints the comparison and fails if a row does.
fn verdict(runs: &[(&str, BTreeMap<Row, f64>)], threshold: f64) -> StageResult {
    let verdicts = judge(runs, threshold);
    if verdicts.is_empty() {
        return Err("no row was measured by both builds".into());
    }
    println!(
        "{:<20} {:>6} {:>10} {:>10} {:>8} {:>8}  (Halite ÷ peer; threshold {threshold} %)",
        "op", "bytes", "build A", "build B", "spread", "noise"
    );
    for v in &verdicts {
        println!(
            "{:<20} {:>6} {:>9.3}x {:>9.3}x {:>7.1}% {:>7.1}%{}",
            v.row.0,
            v.row.1,
            v.a,
            v.b,
            v.spread,
            v.noise,
            if v.fails { "  LAYOUT-SENSITIVE" } else { "" }
        );
    }
    let failed: Vec<String> =
        verdicts.iter().filter(|v| v.fails).map(|v| format!("{} {}", v.row.0, v.row.1)).collect();
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("layout-sensitive beyond {threshold} % and the noise: {}", failed.join(", ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CSV: &str = "op,bytes,library,implementation,unit,median,min,max
p384-ecdh,-,halite,default,ops,1100,1000,1200
p384-ecdh,-,halite,mont64,ops,900,800,1000
p384-ecdh,-,aws-lc-rs,1.0,ops,1000,900,1100
sha512,1350,halite,default,MB,800,700,900
sha512,1350,ring,0.17,MB,700,600,800
";

    #[test]
    fn ratios_are_halite_default_over_the_peer() {
        let r = ratios(CSV, "aws-lc-rs");
        assert_eq!(r.len(), 1);
        assert!((r[&("p384-ecdh".into(), "-".into())] - 1.1).abs() < 1e-12);
    }

    #[test]
    fn a_row_fails_only_beyond_threshold_and_noise() {
        let row: Row = ("p384-ecdh".into(), "-".into());
        let run = |v: f64| BTreeMap::from([(row.clone(), v)]);
        // Tight runs, builds 12 % apart: sensitive.
        let runs = [("a", run(1.00)), ("b", run(1.12)), ("a", run(1.01)), ("b", run(1.13))];
        let v = judge(&runs, 5.0);
        assert!(v[0].fails && (v[0].spread - 12.0).abs() < 0.6, "{v:?}");
        // Builds 15 % apart, but build A spreads 40 % on its own: noise, not layout.
        let runs = [("a", run(0.80)), ("b", run(1.00)), ("a", run(1.20)), ("b", run(1.30))];
        assert!(!judge(&runs, 5.0)[0].fails);
        // Within the threshold.
        let runs = [("a", run(1.00)), ("b", run(1.03)), ("a", run(1.00)), ("b", run(1.03))];
        assert!(!judge(&runs, 5.0)[0].fails);
    }
}
