//! `cargo xtask bogo --boringssl DIR [--filter GLOB]`: BoringSSL's TLS test suite (`BoGo`:
//! `ssl/test/runner` in a BoringSSL checkout that stays outside the project) against Halite,
//! through the `bogo-shim` binary and its `config.json` (`xtask/bogo-shim/`).
//!
//! The runner is run with `go test` from the checkout (its Go modules come through the module
//! proxy), its output goes to `target/bogo/runner.log` and its results to
//! `target/bogo/results.json`; the stage prints `bogo: P passed, F failed, S skipped
//! (unimplemented), D disabled`, the counts per role, and the failing tests, and fails if any
//! test failed. A test is "skipped" when the shim exits with 89 (a flag or feature it does not
//! implement: TLS 1.2 and below among them), "disabled" when the config's `DisabledTests`
//! excludes it; the runner does not report those, so a second quick run with the shim
//! answering 89 to everything counts them.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use clap::Args;

use crate::json::Json;
use crate::util::{self, Report, StageResult};

/// Options of `cargo xtask bogo`.
#[derive(Args, Clone, Debug)]
pub(crate) struct BogoArgs {
    /// A BoringSSL checkout (its `ssl/test/runner` is run from there).
    #[arg(long, value_name = "DIR")]
    pub(crate) boringssl: PathBuf,
    /// Only the tests whose names match this glob (`*` and `?`).
    #[arg(long, value_name = "GLOB")]
    pub(crate) filter: Option<String>,
}

/// A flag the shim does not know, so that it exits with 89 ("unimplemented") at once: the
/// run that counts the disabled tests passes it to every shim.
const COUNT_ONLY_FLAG: &str = "-xtask-count-only";

/// Runs the shim build and the suite as two stages.
pub(crate) fn run(report: &mut Report, args: &BogoArgs) {
    let root = util::workspace_root();
    if !report.stage("bogo shim", || util::run(util::cargo().args(["build", "-p", "bogo-shim"]))) {
        return;
    }
    report.stage("bogo", || suite(&root, args));
}

/// The outcome of one test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Passed,
    Failed,
    Skipped,
}

/// Counts of outcomes.
#[derive(Default, Debug, PartialEq, Eq)]
struct Counts {
    passed: usize,
    failed: usize,
    skipped: usize,
}

impl Counts {
    fn add(&mut self, o: Outcome) {
        match o {
            Outcome::Passed => self.passed += 1,
            Outcome::Failed => self.failed += 1,
            Outcome::Skipped => self.skipped += 1,
        }
    }
}

fn go() -> Result<PathBuf, String> {
    util::find_program("go")
        .or_else(|| Some(PathBuf::from("/usr/local/go/bin/go")).filter(|p| p.is_file()))
        .ok_or_else(|| "no `go` on PATH (or in /usr/local/go/bin): the runner is Go".into())
}

/// `go test ./ssl/test/runner` in `boringssl` with the runner's `flags`, its output into
/// `log`; the runner's exit status is not checked (it fails when tests fail): its JSON is.
fn runner(boringssl: &Path, flags: &[String], log: &Path) -> StageResult {
    let mut cmd = Command::new(go()?);
    cmd.current_dir(boringssl)
        .args(["test", "./ssl/test/runner", "-count=1", "-timeout", "60m"])
        .args(flags)
        .stdin(Stdio::null());
    let shown = util::display_command(&cmd);
    println!("$ {shown} > {}", log.display());
    util::flush();
    let out = fs::File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
    let err = out.try_clone().map_err(|e| e.to_string())?;
    cmd.stdout(out).stderr(err);
    cmd.status().map_err(|e| format!("cannot start `{shown}`: {e}"))?;
    Ok(())
}

/// Each test's name and outcome in a runner's `-json-output` file.
fn results(path: &Path) -> Result<BTreeMap<String, Outcome>, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse_results(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn parse_results(text: &str) -> Result<BTreeMap<String, Outcome>, String> {
    let json = Json::parse(text).map_err(|e| format!("{e:?}"))?;
    let Some(Json::Object(tests)) = json.get("tests") else {
        return Err("no \"tests\" object".into());
    };
    let mut out = BTreeMap::new();
    for (name, result) in tests {
        let outcome = match result.get("actual").and_then(Json::as_str) {
            Some("PASS") => Outcome::Passed,
            Some("SKIP") => Outcome::Skipped,
            _ => Outcome::Failed,
        };
        out.insert(name.clone(), outcome);
    }
    Ok(out)
}

/// Whether `name` matches `pattern`, where `*` is any run of characters and `?` any one (the
/// runner's patterns use no more of Go's `filepath.Match`).
fn glob_match(pattern: &str, name: &str) -> bool {
    let (p, n): (Vec<char>, Vec<char>) = (pattern.chars().collect(), name.chars().collect());
    // Classic backtracking over the last `*`.
    let (mut pi, mut ni, mut star, mut mark) = (0, 0, None, 0);
    while ni < n.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == n[ni]) {
            pi += 1;
            ni += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ni;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ni = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// The `DisabledTests` globs of the shim's config.
fn disabled_globs(config: &Path) -> Result<Vec<String>, String> {
    let text = fs::read_to_string(config).map_err(|e| format!("{}: {e}", config.display()))?;
    let json = Json::parse(&text).map_err(|e| format!("{}: {e:?}", config.display()))?;
    match json.get("DisabledTests") {
        Some(Json::Object(members)) => Ok(members.iter().map(|(k, _)| k.clone()).collect()),
        _ => Err(format!("{}: no DisabledTests object", config.display())),
    }
}

/// Each test's role from the marker files the shim leaves where `-write-settings` points
/// (`<transcript-dir>/tls/<client|server>/<test>-shim`).
fn roles(transcripts: &Path) -> BTreeMap<String, &'static str> {
    let mut out = BTreeMap::new();
    for role in ["client", "server"] {
        let Ok(entries) = fs::read_dir(transcripts.join("tls").join(role)) else { continue };
        for entry in entries.flatten() {
            let file = entry.file_name().to_string_lossy().into_owned();
            if let Some(test) = file.strip_suffix("-shim") {
                out.insert(test.to_owned(), role);
            }
        }
    }
    out
}

fn suite(root: &Path, args: &BogoArgs) -> StageResult {
    let boringssl = args
        .boringssl
        .canonicalize()
        .map_err(|e| format!("{}: {e} (give a BoringSSL checkout)", args.boringssl.display()))?;
    if !boringssl.join("ssl/test/runner/runner.go").is_file() {
        return Err(format!("{}: no ssl/test/runner/runner.go", boringssl.display()));
    }
    let out = root.join("target/bogo");
    let transcripts = out.join("transcripts");
    let _ = fs::remove_dir_all(&out);
    fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let shim = root.join("target/debug/bogo-shim");
    let config = root.join("xtask/bogo-shim/config.json");
    let path = |p: &Path| p.display().to_string();
    let common = |json: &Path| {
        let mut flags = vec![
            "-shim-path".to_owned(),
            path(&shim),
            "-shim-config".to_owned(),
            path(&config),
            "-json-output".to_owned(),
            path(json),
            "-num-workers".to_owned(),
            "2".to_owned(),
            "-pipe".to_owned(),
            "-allow-unimplemented".to_owned(),
        ];
        if let Some(f) = &args.filter {
            flags.extend(["-test".to_owned(), f.clone()]);
        }
        flags
    };

    // The suite.
    let json = out.join("results.json");
    let mut flags = common(&json);
    flags.extend(["-transcript-dir".to_owned(), path(&transcripts)]);
    runner(&boringssl, &flags, &out.join("runner.log"))?;
    let tests = results(&json)?;

    // The disabled tests: only those the runner would otherwise have run (and --filter picks),
    // each run against a shim that answers "unimplemented" at once.
    let globs = disabled_globs(&config)?;
    let disabled_json = out.join("disabled.json");
    let mut flags = common(&disabled_json);
    // `-test` takes the disabled globs in place of the filter, which is applied below.
    if let Some(i) = flags.iter().position(|f| f == "-test") {
        flags.drain(i..i + 2);
    }
    flags.extend([
        "-include-disabled".to_owned(),
        "-test".to_owned(),
        globs.join(";"),
        "-shim-extra-flags".to_owned(),
        COUNT_ONLY_FLAG.to_owned(),
    ]);
    runner(&boringssl, &flags, &out.join("disabled.log"))?;
    let disabled = results(&disabled_json).unwrap_or_default();
    let disabled =
        disabled.keys().filter(|t| args.filter.as_deref().is_none_or(|f| glob_match(f, t))).count();

    // The report.
    let mut all = Counts::default();
    let mut by_role: BTreeMap<&str, Counts> = BTreeMap::new();
    let roles = roles(&transcripts);
    for (name, &outcome) in &tests {
        all.add(outcome);
        by_role.entry(roles.get(name).copied().unwrap_or("unknown role")).or_default().add(outcome);
    }
    println!(
        "bogo: {} passed, {} failed, {} skipped (unimplemented), {disabled} disabled",
        all.passed, all.failed, all.skipped
    );
    for (role, c) in &by_role {
        // Only TLS 1.3 is implemented: every test that passed or failed ran it, and a test
        // of an older version is among the skipped (the shim answers 89 to its peer).
        println!(
            "  TLS 1.3 {role}: {} passed, {} failed; {} skipped (older versions, unimplemented flags)",
            c.passed, c.failed, c.skipped
        );
    }
    let failed: Vec<&str> =
        tests.iter().filter(|(_, o)| **o == Outcome::Failed).map(|(n, _)| n.as_str()).collect();
    if !failed.is_empty() {
        println!("failed tests (details in {}):", out.join("runner.log").display());
        for name in &failed {
            println!("  {name}");
        }
    }
    if all.failed == 0 { Ok(()) } else { Err(format!("{} BoGo tests failed", all.failed)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_like_the_runner() {
        assert!(glob_match("*-TLS12", "Basic-Client-TLS12"));
        assert!(!glob_match("*-TLS12", "Basic-Client-TLS12-Sync"));
        assert!(glob_match("*-TLS12-*", "Basic-Client-TLS12-Sync"));
        assert!(glob_match("*DTLS*", "DTLS-Retransmit"));
        assert!(glob_match("Resume-?lient", "Resume-Client"));
        assert!(!glob_match("QUIC*", "NoQUIC"));
        assert!(glob_match("*", ""));
    }

    #[test]
    fn results_are_read_from_the_runner_json() {
        let text = r#"{"version": 3, "tests": {
            "A": {"actual": "PASS", "expected": "PASS", "is_unexpected": false},
            "B": {"actual": "FAIL", "expected": "PASS", "is_unexpected": true, "error": "x"},
            "C": {"actual": "SKIP", "expected": "SKIP", "is_unexpected": false}}}"#;
        let r = parse_results(text).unwrap();
        assert_eq!(r["A"], Outcome::Passed);
        assert_eq!(r["B"], Outcome::Failed);
        assert_eq!(r["C"], Outcome::Skipped);
        assert!(parse_results("{}").is_err());
    }
}
