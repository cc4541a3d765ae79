//! Stack frame sizes for the Cortex-M0 (issue 26): builds a crate for `thumbv6m-none-eabi`
//! with `-Z emit-stack-sizes` (allowed on stable through `RUSTC_BOOTSTRAP`), reads the
//! `.stack_sizes` sections and the call relocations with `llvm-readobj`, and prints the
//! largest frames and the deepest static call chain from chosen roots.
//!
//! The build uses the release profile without LTO (LTO leaves only bitcode in the rlibs), in
//! its own target directory. The chain sum is rough: direct calls only (no `dyn` or function
//! pointer calls), recursion cut at the first repeat, and functions without a recorded frame
//! (compiler-builtins, `core`) counted as zero.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::process::Command;

use clap::Args;

use crate::util::{self, Need, Report};

/// Options of `cargo xtask stack-sizes`.
#[derive(Args, Debug)]
pub(crate) struct StackArgs {
    /// The crate to measure.
    #[arg(short = 'p', long, default_value = "tls")]
    package: String,
    /// Features to enable (on top of `--no-default-features`).
    #[arg(long)]
    features: Option<String>,
    /// How many of the largest frames to list.
    #[arg(long, default_value_t = 15)]
    top: usize,
    /// Functions (demangled names) whose deepest call chain is printed.
    #[arg(long, default_values_t = [
        "<tls::conn::Connection>::client".to_owned(),
        "<tls::conn::Connection>::process".to_owned(),
        "<tls::conn::Connection>::process_handshake".to_owned(),
    ])]
    root: Vec<String>,
}

/// The tools this task runs.
pub(crate) fn needs() -> Vec<Need> {
    vec![
        Need::Command("llvm-readobj", "llvm"),
        Need::Command("llvm-cxxfilt", "llvm"),
        Need::RustTarget(TARGET),
    ]
}

const TARGET: &str = "thumbv6m-none-eabi";

/// Builds, measures and prints.
pub(crate) fn run(report: &mut Report, args: &StackArgs) {
    let mut rlibs = Vec::new();
    report.stage("build", || {
        let mut cmd = util::cargo();
        cmd.env("RUSTC_BOOTSTRAP", "1")
            .env("RUSTFLAGS", "-Z emit-stack-sizes")
            .env("CARGO_PROFILE_RELEASE_LTO", "off")
            .args(["build", "--release", "--no-default-features", "--message-format=json"])
            .args(["--target", TARGET, "-p", &args.package, "--target-dir"])
            .arg(util::workspace_root().join("target/stack-sizes"));
        if let Some(f) = &args.features {
            cmd.args(["--features", f]);
        }
        rlibs = rlib_paths(&util::output(&mut cmd)?);
        if rlibs.is_empty() { Err("the build named no rlib".into()) } else { Ok(()) }
    });
    report.stage("measure", || {
        let mut frames = BTreeMap::new();
        let mut calls = HashMap::new();
        let mut own = HashSet::new();
        let prefix = format!("lib{}", args.package.replace('-', "_"));
        for rlib in &rlibs {
            let text = util::output(Command::new("llvm-readobj").arg("--stack-sizes").arg(rlib))?;
            let sizes = parse_stack_sizes(&text);
            let file = rlib.rsplit('/').next().unwrap_or(rlib);
            if file == format!("{prefix}.rlib") || file.starts_with(&format!("{prefix}-")) {
                own.extend(sizes.iter().map(|(name, _)| name.clone()));
            }
            frames.extend(sizes);
            let text = util::output(Command::new("llvm-readobj").arg("-r").arg(rlib))?;
            for (from, to) in parse_calls(&text) {
                calls.entry(from).or_insert_with(Vec::new).push(to);
            }
        }
        let names = demangle(frames.keys().cloned().collect())?;
        // The crate's own functions; its dependencies' frames count only in the chains.
        let mut largest: Vec<(&String, &u64)> =
            frames.iter().filter(|(name, _)| own.contains(*name)).collect();
        largest.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        println!(
            "largest frames ({}, features: {}):",
            args.package,
            args.features.as_deref().unwrap_or("-")
        );
        for (name, size) in largest.iter().take(args.top) {
            println!("{size:>8}  {}", names.get(*name).unwrap_or(name));
        }
        for root in &args.root {
            let Some(start) = frames.keys().find(|k| names.get(*k).is_some_and(|n| n == root))
            else {
                println!("no function matches {root:?}");
                continue;
            };
            let mut memo = HashMap::new();
            let (total, chain) = deepest(start, &frames, &calls, &mut memo, &mut HashSet::new());
            println!("deepest chain from {}: {total} bytes", names.get(start).unwrap_or(start));
            for f in chain {
                let size = frames.get(&f).copied().unwrap_or(0);
                println!("{size:>8}  {}", names.get(&f).unwrap_or(&f));
            }
        }
        Ok(())
    });
}

/// The `.rlib` files a `cargo build --message-format=json` run names.
fn rlib_paths(json: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in json.lines().filter(|l| l.contains("\"compiler-artifact\"")) {
        let Some((_, rest)) = line.split_once("\"filenames\":[") else { continue };
        let list = rest.split(']').next().unwrap_or("");
        for name in list.split(',') {
            let name = name.trim().trim_matches('"');
            if std::path::Path::new(name).extension().is_some_and(|e| e == "rlib") {
                out.push(name.to_owned());
            }
        }
    }
    out
}

/// Frame size per (mangled) function from `llvm-readobj --stack-sizes`.
fn parse_stack_sizes(text: &str) -> Vec<(String, u64)> {
    let mut out = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for line in text.lines().map(str::trim) {
        if let Some(list) = line.strip_prefix("Functions: [") {
            names = list.trim_end_matches(']').split(", ").map(str::to_owned).collect();
        } else if let Some(size) = line.strip_prefix("Size: 0x")
            && let Ok(size) = u64::from_str_radix(size, 16)
        {
            out.extend(names.drain(..).map(|n| (n, size)));
        }
    }
    out
}

/// Direct calls (caller, callee) from the relocations `llvm-readobj -r` lists per
/// `.rel.text.<function>` section: `bl` and tail-call branches.
fn parse_calls(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut caller = None;
    for line in text.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("Section (") {
            caller = rest
                .split_once(".rel.text.")
                .map(|(_, name)| name.trim_end_matches(" {").trim().to_owned());
            continue;
        }
        let mut fields = line.split_whitespace();
        let (Some(_), Some(kind), Some(target)) = (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        if let Some(from) = &caller
            && matches!(kind, "R_ARM_THM_CALL" | "R_ARM_THM_JUMP24" | "R_ARM_THM_JUMP11")
        {
            let target = target.strip_prefix(".text.").unwrap_or(target);
            out.push((from.clone(), target.to_owned()));
        }
    }
    out
}

/// The deepest chain from `f`: its frame plus the deepest of its callees', cycles cut.
fn deepest(
    f: &str,
    frames: &BTreeMap<String, u64>,
    calls: &HashMap<String, Vec<String>>,
    memo: &mut HashMap<String, (u64, Vec<String>)>,
    on_path: &mut HashSet<String>,
) -> (u64, Vec<String>) {
    if let Some(done) = memo.get(f) {
        return done.clone();
    }
    on_path.insert(f.to_owned());
    let mut best = (0, Vec::new());
    for callee in calls.get(f).into_iter().flatten() {
        if on_path.contains(callee) {
            continue;
        }
        let sub = deepest(callee, frames, calls, memo, on_path);
        if sub.0 > best.0 {
            best = sub;
        }
    }
    on_path.remove(f);
    let mut chain = vec![f.to_owned()];
    chain.extend(best.1);
    let result = (frames.get(f).copied().unwrap_or(0) + best.0, chain);
    memo.insert(f.to_owned(), result.clone());
    result
}

/// Demangled names through `llvm-cxxfilt`, one per line.
fn demangle(names: Vec<String>) -> Result<HashMap<String, String>, String> {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new("llvm-cxxfilt")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start llvm-cxxfilt: {e}"))?;
    let input = names.join("\n");
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(input.as_bytes()).map_err(|e| e.to_string())?;
    }
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&out.stdout);
    Ok(names.into_iter().zip(text.lines().map(str::to_owned)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_frames_and_calls() {
        let sizes = "StackSizes [\n  Entry {\n    Functions: [a, b]\n    Size: 0x20\n  }\n  Entry {\n    Functions: [c]\n    Size: 0x8\n  }\n]\n";
        assert_eq!(parse_stack_sizes(sizes), [("a".into(), 32), ("b".into(), 32), ("c".into(), 8)]);
        let relocs = "  Section (3) .rel.text.a {\n    0x4 R_ARM_THM_CALL c\n    0x8 R_ARM_ABS32 d\n  }\n  Section (5) .rel.ARM.exidx.text.a {\n    0x0 R_ARM_PREL31 .text.a\n  }\n";
        assert_eq!(parse_calls(relocs), [("a".to_owned(), "c".to_owned())]);
        let json = r#"{"reason":"compiler-artifact","filenames":["/t/libx.rlib","/t/libx.rmeta"]}"#;
        assert_eq!(rlib_paths(json), ["/t/libx.rlib"]);
    }

    #[test]
    fn deepest_chain_adds_frames_and_cuts_cycles() {
        let frames: BTreeMap<String, u64> =
            [("a", 10), ("b", 5), ("c", 20), ("d", 1)].map(|(k, v)| (k.into(), v)).into();
        let calls: HashMap<String, Vec<String>> =
            [("a", vec!["b", "d"]), ("b", vec!["c", "a"]), ("d", vec!["d"])]
                .map(|(k, v)| (k.to_owned(), v.into_iter().map(str::to_owned).collect()))
                .into();
        let (total, chain) =
            deepest("a", &frames, &calls, &mut HashMap::new(), &mut HashSet::new());
        assert_eq!(total, 35);
        assert_eq!(chain, ["a", "b", "c"]);
    }
}
