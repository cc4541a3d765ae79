//! Plumbing shared by the subcommands: stages with timing and a final report, running commands
//! (echoed, optionally with a timeout and captured output), and checking that external tools
//! are installed, naming the Debian package or rustup command that provides each one.

use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};
use std::{env, fmt, fs};

/// Result of one stage: `Err` holds a one-line reason.
pub(crate) type StageResult = Result<(), String>;

/// How a stage ended.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Outcome {
    Passed,
    Failed(String),
    Skipped(String),
}

/// One finished stage, for the closing summary.
struct StageRecord {
    name: String,
    outcome: Outcome,
    elapsed: Duration,
}

/// Runs named stages one after another, prints one line per stage with its duration, and
/// closes with a summary listing the failures.
pub(crate) struct Report {
    records: Vec<StageRecord>,
    fail_fast: bool,
    /// When the run began: the summary's total is wall time, since some stages (the fuzz
    /// targets) run side by side and their durations overlap.
    started: Instant,
}

impl Report {
    /// A report; with `fail_fast`, every stage after the first failure is skipped.
    pub(crate) fn new(fail_fast: bool) -> Self {
        Report { records: Vec::new(), fail_fast, started: Instant::now() }
    }

    /// Whether stages still to come are to be skipped (`--fail-fast` after a failure).
    pub(crate) fn stopping(&self) -> bool {
        self.fail_fast && self.any_failed()
    }

    /// Whether any stage has failed so far.
    pub(crate) fn any_failed(&self) -> bool {
        self.records.iter().any(|r| matches!(r.outcome, Outcome::Failed(_)))
    }

    /// Runs `body` as stage `name`, timing it and printing its line; returns whether it passed.
    pub(crate) fn stage(&mut self, name: &str, body: impl FnOnce() -> StageResult) -> bool {
        if self.stopping() {
            self.skip(name, "an earlier stage failed (--fail-fast)");
            return false;
        }
        println!("\n==> {name}");
        flush();
        let start = Instant::now();
        let result = body();
        let elapsed = start.elapsed();
        let outcome = match result {
            Ok(()) => Outcome::Passed,
            Err(reason) => Outcome::Failed(reason),
        };
        let passed = outcome == Outcome::Passed;
        self.record(name, outcome, elapsed);
        passed
    }

    /// Runs `body` on each of `items` as stage `name(item)`, up to `jobs` at once (for stages
    /// that each use one core, such as the fuzz targets), recording each as it finishes. With
    /// `--fail-fast`, items not yet started when one fails are skipped.
    pub(crate) fn parallel<T: Sync>(
        &mut self,
        jobs: usize,
        items: &[T],
        name: impl Fn(&T) -> String,
        body: impl Fn(&T) -> StageResult + Sync,
    ) {
        let skip = "an earlier stage failed (--fail-fast)";
        if self.stopping() {
            for item in items {
                self.skip(&name(item), skip);
            }
            return;
        }
        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        let fail_fast = self.fail_fast;
        thread::scope(|scope| {
            let (done, finished) = mpsc::channel();
            for _ in 0..jobs.clamp(1, items.len().max(1)) {
                let done = done.clone();
                let (next, stop, body) = (&next, &stop, &body);
                scope.spawn(move || {
                    while let Some(item) = items.get(next.fetch_add(1, Ordering::Relaxed)) {
                        if stop.load(Ordering::Relaxed) {
                            // The receiver is drained until every worker has finished.
                            let _ = done.send((item, None));
                            continue;
                        }
                        let start = Instant::now();
                        let result = body(item);
                        if result.is_err() && fail_fast {
                            stop.store(true, Ordering::Relaxed);
                        }
                        let _ = done.send((item, Some((result, start.elapsed()))));
                    }
                });
            }
            drop(done);
            for (item, ran) in finished {
                let outcome = match ran {
                    Some((Ok(()), elapsed)) => (Outcome::Passed, elapsed),
                    Some((Err(reason), elapsed)) => (Outcome::Failed(reason), elapsed),
                    None => (Outcome::Skipped(skip.to_owned()), Duration::ZERO),
                };
                self.record(&name(item), outcome.0, outcome.1);
            }
        });
    }

    /// Records stage `name` as skipped, with the reason.
    pub(crate) fn skip(&mut self, name: &str, why: &str) {
        self.record(name, Outcome::Skipped(why.to_owned()), Duration::ZERO);
    }

    fn record(&mut self, name: &str, outcome: Outcome, elapsed: Duration) {
        let record = StageRecord { name: name.to_owned(), outcome, elapsed };
        println!("{record}");
        flush();
        self.records.push(record);
    }

    /// Prints every stage again, the failures with their reasons, and a closing count line;
    /// the exit code is failure if any stage failed.
    pub(crate) fn finish(self) -> ExitCode {
        println!("\n==> summary ({})", Seconds(self.started.elapsed()));
        for record in &self.records {
            println!("{record}");
        }
        let count =
            |pick: fn(&Outcome) -> bool| self.records.iter().filter(|r| pick(&r.outcome)).count();
        let passed = count(|o| matches!(o, Outcome::Passed));
        let failed = count(|o| matches!(o, Outcome::Failed(_)));
        let skipped = count(|o| matches!(o, Outcome::Skipped(_)));
        if failed > 0 {
            println!("\nfailed:");
            for record in &self.records {
                if let Outcome::Failed(reason) = &record.outcome {
                    println!("  {}: {reason}", record.name);
                }
            }
        }
        // A plain closing line that CI log readers recognise ('N passed, N failed').
        println!("\nstages: {passed} passed, {failed} failed, {skipped} skipped");
        flush();
        if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE }
    }
}

impl fmt::Display for StageRecord {
    /// `[ok]   clippy  (41.2 s)`, `[FAIL] test  (3.0 s): reason`, `[skip] m0 run: reason`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = &self.name;
        match &self.outcome {
            Outcome::Passed => write!(f, "[ok]   {name:<22} ({})", Seconds(self.elapsed)),
            Outcome::Failed(why) => {
                write!(f, "[FAIL] {name:<22} ({}): {why}", Seconds(self.elapsed))
            }
            Outcome::Skipped(why) => write!(f, "[skip] {name:<22} {why}"),
        }
    }
}

/// A duration printed as seconds with one decimal: `41.2 s`.
pub(crate) struct Seconds(pub(crate) Duration);

impl fmt::Display for Seconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.1} s", self.0.as_secs_f64())
    }
}

/// Flushes stdout so our lines appear before a child's output.
pub(crate) fn flush() {
    // Nothing useful can be done if stdout is gone.
    let _ = std::io::stdout().flush();
}

/// The workspace root: xtask lives in `<root>/xtask`.
pub(crate) fn workspace_root() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir.parent().unwrap_or(manifest_dir).to_path_buf()
}

/// A `cargo` command run from the workspace root, using the cargo that runs xtask.
pub(crate) fn cargo() -> Command {
    let mut cmd = Command::new(env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cmd.current_dir(workspace_root());
    cmd
}

/// The command line as a shell would show it, environment overrides first.
pub(crate) fn display_command(cmd: &Command) -> String {
    let quote = |s: &OsStr| {
        let s = s.to_string_lossy();
        if !s.is_empty()
            && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b))
        {
            s.into_owned()
        } else {
            format!("'{}'", s.replace('\'', r"'\''"))
        }
    };
    let mut parts = Vec::new();
    for (key, value) in cmd.get_envs() {
        if let Some(value) = value {
            parts.push(format!("{}={}", key.to_string_lossy(), quote(value)));
        }
    }
    let program = Path::new(cmd.get_program());
    // Print `cargo`, not the toolchain path from $CARGO, so the line can be pasted.
    if program.file_stem() == Some(OsStr::new("cargo")) {
        parts.push("cargo".to_owned());
    } else {
        parts.push(quote(program.as_os_str()));
    }
    parts.extend(cmd.get_args().map(quote));
    parts.join(" ")
}

/// Runs `cmd` with inherited stdio after echoing it; fails unless it exits with status 0.
pub(crate) fn run(cmd: &mut Command) -> StageResult {
    let shown = display_command(cmd);
    println!("$ {shown}");
    flush();
    let started = Instant::now();
    let status = cmd.status().map_err(|e| format!("cannot start `{shown}`: {e}"))?;
    // Each command's time, so a slow stage's log says which of its commands to look at.
    println!("  ({:.1} s)", started.elapsed().as_secs_f64());
    flush();
    check_status(&shown, status)
}

fn check_status(shown: &str, status: ExitStatus) -> StageResult {
    if status.success() { Ok(()) } else { Err(format!("`{shown}` failed ({status})")) }
}

/// What a command run under [`run_captured`] did.
#[derive(Debug)]
pub(crate) struct Captured {
    /// Exit status; `None` if it was killed at the time limit.
    pub(crate) status: Option<ExitStatus>,
    /// Everything it printed, stdout and stderr interleaved by line as received.
    pub(crate) output: String,
}

/// Runs `cmd` after echoing it, with stdin closed, streaming each line it prints (stdout and
/// stderr) to our stdout and capturing it, and kills it if it runs longer than `limit`.
pub(crate) fn run_captured(cmd: &mut Command, limit: Duration) -> Result<Captured, String> {
    let shown = display_command(cmd);
    println!("$ {shown}");
    flush();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start `{shown}`: {e}"))?;
    let (tx, rx) = mpsc::channel();
    let readers = [
        child.stdout.take().map(|out| forward_lines(out, tx.clone())),
        child.stderr.take().map(|err| forward_lines(err, tx)),
    ];
    let deadline = Instant::now() + limit;
    let mut output = String::new();
    let mut timed_out = false;
    // Lines until both pipes close or time runs out…
    loop {
        match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(line) => {
                print!("{line}");
                flush();
                output.push_str(&line);
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                timed_out = true;
                break;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    // …then the exit, unless the process is still running at the deadline.
    let status = loop {
        if timed_out {
            break None;
        }
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
            Ok(None) => timed_out = true,
            Err(e) => return Err(format!("waiting for `{shown}`: {e}")),
        }
    };
    if timed_out {
        // Already exited is fine; then `wait` reaps it.
        let _ = child.kill();
        let _ = child.wait();
        println!("xtask: killed `{shown}` after {}", Seconds(limit));
    }
    if !timed_out {
        // After a kill, a grandchild could still hold a pipe open: leave those readers be.
        for reader in readers.into_iter().flatten() {
            let _ = reader.join();
        }
    }
    Ok(Captured { status, output })
}

/// Sends each line read from `pipe` (lossily decoded, newline kept) to `tx`.
fn forward_lines(
    pipe: impl Read + Send + 'static,
    tx: mpsc::Sender<String>,
) -> thread::JoinHandle<()> {
    thread::spawn(move || {
        let mut reader = BufReader::new(pipe);
        let mut line = Vec::new();
        loop {
            line.clear();
            match reader.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let mut text = String::from_utf8_lossy(&line).into_owned();
                    if !text.ends_with('\n') {
                        text.push('\n');
                    }
                    if tx.send(text).is_err() {
                        break;
                    }
                }
            }
        }
    })
}

/// Runs `cmd` quietly and returns its stdout; fails with its stderr if it exits non-zero.
pub(crate) fn output(cmd: &mut Command) -> Result<String, String> {
    let shown = display_command(cmd);
    let out =
        cmd.stderr(Stdio::piped()).output().map_err(|e| format!("cannot start `{shown}`: {e}"))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        return Err(format!("`{shown}` failed ({}): {}", out.status, stderr.trim()));
    }
    String::from_utf8(out.stdout).map_err(|_| format!("`{shown}` printed non-UTF-8 output"))
}

/// Something a stage needs from outside the workspace.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Need {
    /// A program on `PATH`, and the Debian package(s) that install it.
    Command(&'static str, &'static str),
    /// A file, and the Debian package that installs it.
    File(&'static str, &'static str),
    /// The Rust standard library for a target (`rustup target add`).
    RustTarget(&'static str),
    /// Something only a function can check (`present`), what it is, and its Debian package.
    Probe { what: &'static str, present: fn() -> bool, package: &'static str },
}

/// What a list of [`Need`]s lacks on this machine.
#[derive(Debug, Default)]
struct Missing {
    /// One description per missing thing, with what provides it.
    what: Vec<String>,
    /// The Debian packages that provide the missing programs and files.
    packages: BTreeSet<&'static str>,
    /// The missing Rust targets.
    targets: BTreeSet<&'static str>,
}

impl Missing {
    fn of(needs: &[Need]) -> Self {
        let mut missing = Self::default();
        for &need in needs {
            let package = match need {
                Need::Command(program, package) if find_program(program).is_none() => {
                    missing.what.push(format!("{program} (Debian: {package})"));
                    package
                }
                Need::File(path, package) if !Path::new(path).exists() => {
                    missing.what.push(format!("{path} (Debian: {package})"));
                    package
                }
                Need::Probe { what, present, package } if !present() => {
                    missing.what.push(format!("{what} (Debian: {package})"));
                    package
                }
                Need::RustTarget(target) if !has_rust_target(target) => {
                    missing.what.push(format!("Rust target {target}"));
                    missing.targets.insert(target);
                    continue;
                }
                _ => continue,
            };
            missing.packages.extend(package.split_whitespace());
        }
        missing
    }

    /// The commands that would install everything missing.
    fn fix(&self) -> String {
        let mut fix = Vec::new();
        if !self.packages.is_empty() {
            let list: Vec<_> = self.packages.iter().copied().collect();
            fix.push(format!("apt-get install -y --no-install-recommends {}", list.join(" ")));
        }
        if !self.targets.is_empty() {
            let list: Vec<_> = self.targets.iter().copied().collect();
            fix.push(format!("rustup target add {}", list.join(" ")));
        }
        fix.join(" && ")
    }
}

/// Fails with one message naming every missing tool and the commands that install them.
pub(crate) fn require(needs: &[Need]) -> StageResult {
    let missing = Missing::of(needs);
    if missing.what.is_empty() {
        return Ok(());
    }
    Err(format!("missing {}; install with: {}", missing.what.join(", "), missing.fix()))
}

/// Installs what `needs` lacks — Debian packages with `apt-get` (as root, or through
/// passwordless `sudo`), Rust targets with `rustup` — then checks again, failing as
/// [`require`] does with whatever is still missing. This is what makes `cargo xtask ci` run
/// on a fresh Debian machine with nothing but rustup.
pub(crate) fn provide(needs: &[Need]) -> StageResult {
    let missing = Missing::of(needs);
    if missing.what.is_empty() {
        return Ok(());
    }
    println!("xtask: missing {}; installing", missing.what.join(", "));
    if !missing.packages.is_empty() {
        match root() {
            Some(root) => {
                let apt = |args: &[&str]| {
                    let mut cmd = match root {
                        Root::Already => Command::new("apt-get"),
                        Root::Sudo => {
                            let mut cmd = Command::new("sudo");
                            cmd.arg("apt-get");
                            cmd
                        }
                    };
                    cmd.args(args).env("DEBIAN_FRONTEND", "noninteractive").stdin(Stdio::null());
                    run(&mut cmd)
                };
                apt(&["update", "-q"])?;
                let mut install = vec!["install", "-y", "-q", "--no-install-recommends"];
                install.extend(missing.packages.iter().copied());
                apt(&install)?;
            }
            None => println!(
                "xtask: not root and no passwordless sudo, so the Debian packages cannot be \
                 installed here"
            ),
        }
    }
    if !missing.targets.is_empty() && find_program("rustup").is_some() {
        let mut cmd = Command::new("rustup");
        cmd.current_dir(workspace_root()).args(["target", "add"]).args(&missing.targets);
        run(&mut cmd)?;
    }
    require(needs)
}

/// How this process can run `apt-get` with root rights.
#[derive(Clone, Copy, Debug)]
enum Root {
    /// It is root already.
    Already,
    /// Through passwordless `sudo`.
    Sudo,
}

/// How to run `apt-get` as root here; `None` when it cannot (or there is no `apt-get`).
fn root() -> Option<Root> {
    find_program("apt-get")?;
    let mut id = Command::new("id");
    id.arg("-u");
    if output(&mut id).is_ok_and(|uid| uid.trim() == "0") {
        return Some(Root::Already);
    }
    let mut sudo = Command::new("sudo");
    sudo.args(["-n", "true"]).stdout(Stdio::null());
    (find_program("sudo").is_some() && output(&mut sudo).is_ok()).then_some(Root::Sudo)
}

/// The full path of `program` if it is an executable file on `PATH`.
pub(crate) fn find_program(program: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let path = env::var_os("PATH")?;
    env::split_paths(&path).map(|dir| dir.join(program)).find(|candidate| {
        fs::metadata(candidate).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    })
}

/// Whether the active toolchain has the standard library for `target`.
fn has_rust_target(target: &str) -> bool {
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let mut cmd = Command::new(rustc);
    cmd.current_dir(workspace_root()).args(["--print", "target-libdir", "--target", target]);
    output(&mut cmd).is_ok_and(|dir| {
        fs::read_dir(dir.trim()).is_ok_and(|entries| {
            entries.flatten().any(|e| e.file_name().to_string_lossy().starts_with("libcore-"))
        })
    })
}

/// The nightly toolchain the fuzz and Miri stages run on.
pub(crate) const NIGHTLY: &str = "nightly";

/// `rustup run nightly cargo SUBCOMMAND`, without the variables cargo set for xtask (which
/// name the pinned toolchain's cargo and rustc).
pub(crate) fn nightly_cargo(subcommand: &str) -> Command {
    let mut cmd = Command::new("rustup");
    cmd.args(["run", NIGHTLY, "cargo", subcommand]);
    for var in ["CARGO", "RUSTC", "RUSTDOC", "RUSTUP_TOOLCHAIN", "CARGO_MANIFEST_DIR"] {
        cmd.env_remove(var);
    }
    cmd
}

/// Installs nightly (profile minimal) with `components` if it or any of them is missing;
/// `purpose` says what it is for when rustup itself is missing.
pub(crate) fn install_nightly(components: &[&str], purpose: &str) -> StageResult {
    if find_program("rustup").is_none() {
        return Err(format!(
            "rustup is needed to install the nightly toolchain {purpose} (see https://rustup.rs)"
        ));
    }
    let toolchains = output(Command::new("rustup").args(["toolchain", "list"]))?;
    let has_toolchain = toolchains.lines().any(|l| l.starts_with(&format!("{NIGHTLY}-")));
    let list = ["component", "list", "--installed", "--toolchain", NIGHTLY];
    let installed = if has_toolchain {
        output(Command::new("rustup").args(list)).unwrap_or_default()
    } else {
        String::new()
    };
    let has = |c: &str| installed.lines().any(|l| l.starts_with(c));
    if !has_toolchain || !components.iter().all(|c| has(c)) {
        let mut cmd = Command::new("rustup");
        cmd.args(["toolchain", "install", NIGHTLY, "--profile", "minimal"]);
        if !components.is_empty() {
            cmd.args(["--component", &components.join(",")]);
        }
        run(&mut cmd)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The outcome recorded for stage `name`.
    fn outcome<'r>(report: &'r Report, name: &str) -> Option<&'r Outcome> {
        report.records.iter().find(|r| r.name == name).map(|r| &r.outcome)
    }

    #[test]
    fn parallel_stages_overlap_and_each_is_recorded() {
        let mut report = Report::new(false);
        let items = ["a", "b", "c", "d"];
        let start = Instant::now();
        report.parallel(
            2,
            &items,
            |i| format!("run {i}"),
            |i| {
                thread::sleep(Duration::from_millis(300));
                if *i == "b" { Err("b broke".into()) } else { Ok(()) }
            },
        );
        // Two at a time: two rounds of 300 ms, not four.
        assert!(start.elapsed() < Duration::from_millis(1100), "{:?}", start.elapsed());
        assert_eq!(report.records.len(), 4);
        assert_eq!(outcome(&report, "run b"), Some(&Outcome::Failed("b broke".into())));
        for ok in ["run a", "run c", "run d"] {
            assert_eq!(outcome(&report, ok), Some(&Outcome::Passed), "{ok}");
        }
        assert!(report.records.iter().all(|r| r.elapsed >= Duration::from_millis(300)));
    }

    #[test]
    fn parallel_stages_stop_after_a_failure_with_fail_fast() {
        let mut report = Report::new(true);
        report.parallel(
            1,
            &[1, 2, 3],
            |i| format!("run {i}"),
            |i| {
                if *i == 2 { Err("two".into()) } else { Ok(()) }
            },
        );
        assert_eq!(outcome(&report, "run 1"), Some(&Outcome::Passed));
        assert_eq!(outcome(&report, "run 2"), Some(&Outcome::Failed("two".into())));
        assert!(matches!(outcome(&report, "run 3"), Some(Outcome::Skipped(_))));
        // Everything after is skipped too.
        report.parallel(2, &[4], |i| format!("run {i}"), |_| Ok(()));
        assert!(matches!(outcome(&report, "run 4"), Some(Outcome::Skipped(_))));
    }

    #[test]
    fn commands_display_like_a_shell() {
        let mut cmd = Command::new("/opt/rust/bin/cargo");
        cmd.args(["test", "-p", "core-cpu"]).env("HALITE_CPU_DISABLE", "all");
        assert_eq!(display_command(&cmd), "HALITE_CPU_DISABLE=all cargo test -p core-cpu");
        let mut cmd = Command::new("qemu-aarch64");
        cmd.args(["-cpu", "max", "it's here", ""]);
        assert_eq!(display_command(&cmd), r"qemu-aarch64 -cpu max 'it'\''s here' ''");
    }

    #[test]
    fn stage_lines() {
        let record = |outcome| StageRecord {
            name: "clippy".into(),
            outcome,
            elapsed: Duration::from_millis(41_234),
        };
        assert_eq!(
            record(Outcome::Passed).to_string(),
            format!("[ok]   {:<22} (41.2 s)", "clippy")
        );
        assert!(record(Outcome::Failed("boom".into())).to_string().ends_with("(41.2 s): boom"));
        assert!(record(Outcome::Skipped("why".into())).to_string().starts_with("[skip] clippy"));
    }

    #[test]
    fn missing_tools_name_their_packages() {
        let err = require(&[
            Need::Command("halite-no-such-tool", "pkg-b pkg-a"),
            Need::File("/halite/no/such/file", "pkg-a"),
            Need::Command("sh", "never-named"),
        ])
        .unwrap_err();
        assert!(err.contains("halite-no-such-tool (Debian: pkg-b pkg-a)"), "{err}");
        assert!(err.ends_with("apt-get install -y --no-install-recommends pkg-a pkg-b"), "{err}");
        assert!(!err.contains("never-named"), "{err}");
    }

    #[test]
    fn present_tools_need_no_install() {
        let needs = [Need::Command("sh", "never-installed"), Need::File("/", "never-installed")];
        let missing = Missing::of(&needs);
        assert!(missing.what.is_empty() && missing.packages.is_empty(), "{missing:?}");
        // Nothing is missing, so nothing runs (an apt-get here would fail: no such package).
        assert_eq!(provide(&needs), Ok(()));
        let missing = Missing::of(&[Need::File("/halite/no/such", "pkg-c pkg-a")]);
        assert_eq!(missing.fix(), "apt-get install -y --no-install-recommends pkg-a pkg-c");
    }

    #[test]
    fn captured_run_times_out() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo before; exec sleep 5"]);
        let run = run_captured(&mut cmd, Duration::from_millis(300)).unwrap();
        assert!(run.status.is_none(), "should have been killed");
        assert_eq!(run.output, "before\n");
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo out; echo err >&2; exit 3"]);
        let run = run_captured(&mut cmd, Duration::from_secs(10)).unwrap();
        assert_eq!(run.status.and_then(|s| s.code()), Some(3));
        assert!(run.output.contains("out\n") && run.output.contains("err\n"));
    }
}
