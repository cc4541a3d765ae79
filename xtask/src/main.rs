//! `cargo xtask`: Halite's developer tasks, in plain Rust so they run the same on every
//! machine — `ci` (everything CI checks), `m0` (Cortex-M0 firmware build, run under QEMU and
//! code size) and `cross` (the primitive crates' tests under qemu-user on aarch64 and an older
//! x86-64), `bogo` (BoringSSL's TLS test suite against Halite), `speed` (the bench comparison,
//! its Debian packages installed first), `layout` (whether `speed`'s rows move when only the
//! code's placement changes).
//!
//! Each task runs as named stages; every stage prints one line with its duration, a summary
//! closes the run, and the exit status is non-zero if any stage failed. Missing external
//! tools are installed up front (Debian packages with `apt-get`, Rust targets with `rustup`),
//! or with `--no-install` reported together with the commands that would install them.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod bearssl;
mod bogo;
mod checks;
mod ci;
mod cost;
mod cross;
mod ct;
mod ctscan;
mod divscan;
mod fuzz;
mod json;
mod layout;
mod m0;
mod m0tls;
mod miri;
mod pkcs8;
mod size;
mod speed;
mod stacks;
mod util;
mod workspace;

use util::Report;
use workspace::Workspace;

/// Halite's developer tasks.
#[derive(Parser, Debug)]
#[command(name = "xtask", bin_name = "cargo xtask", version)]
struct Cli {
    /// Skip every stage after the first failure.
    #[arg(long, global = true)]
    fail_fast: bool,
    /// Do not install missing Debian packages or Rust targets; name them and stop.
    #[arg(long, global = true)]
    no_install: bool,
    #[command(subcommand)]
    task: Task,
}

#[derive(Subcommand, Debug)]
enum Task {
    /// Everything CI runs: fmt, source checks, clippy, test, doc, no-std builds, the no-asm
    /// builds, m0 --self-test, cross, ct, fuzz (a short pass), miri.
    Ci(ci::CiArgs),
    /// Build the Cortex-M0 firmware, run it on QEMU's micro:bit model, report its code size.
    M0(m0::M0Args),
    /// Run the primitive crates' tests on aarch64 (with and without extensions) and on an
    /// emulated Westmere, under qemu-user.
    Cross(cross::CrossArgs),
    /// Run every secret-handling operation under valgrind's memcheck with the secrets marked
    /// undefined (the constant-time check), then prove a planted leak is caught.
    Ct(ct::CtArgs),
    /// Run the cargo-fuzz targets under `fuzz/` (nightly and cargo-fuzz are installed if
    /// missing), failing on any crash.
    Fuzz(fuzz::FuzzArgs),
    /// Run the portable code paths' unit tests under Miri, without `asm` (nightly with Miri
    /// is installed if missing).
    Miri,
    /// Run BoringSSL's TLS test suite (`BoGo`) from a BoringSSL checkout against Halite's
    /// client and server through `bogo-shim`.
    Bogo(bogo::BogoArgs),
    /// Build and run the `speed` comparison in release after installing what the bench crate
    /// links (libssl-dev, pkg-config): `cargo xtask speed -- --quick`.
    Speed(speed::SpeedArgs),
    /// Link `speed` twice from the same object code (as cargo does, and with LLD shuffling the
    /// code sections), run both alternately on the layout-sensitive rows and fail a row whose
    /// two builds differ beyond the threshold and the noise; not part of `ci`.
    Layout(layout::LayoutArgs),
    /// Per-function stack frame sizes of a crate on the Cortex-M0 (`-Z emit-stack-sizes`) and
    /// the deepest static call chains; not part of `ci`.
    StackSizes(stacks::StackArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut report = Report::new(cli.fail_fast);
    let needs = match &cli.task {
        Task::Ci(args) => ci::needs(args),
        Task::M0(args) => {
            let mut needs = m0::needs();
            if args.bearssl {
                needs.extend(bearssl::needs());
            }
            needs
        }
        Task::Cross(_) => cross::needs(),
        Task::Ct(_) => ct::needs(),
        Task::StackSizes(_) => stacks::needs(),
        Task::Speed(_) | Task::Layout(_) => speed::needs(),
        Task::Fuzz(_) | Task::Miri | Task::Bogo(_) => Vec::new(),
    };
    let mut workspace = None;
    report.stage("preflight", || {
        if cli.no_install { util::require(&needs) } else { util::provide(&needs) }?;
        workspace = Some(Workspace::load()?);
        Ok(())
    });
    if let Some(ws) = workspace {
        match &cli.task {
            Task::Ci(args) => ci::run(&mut report, &ws, args),
            Task::M0(args) => m0::run(&mut report, &ws, args),
            Task::Cross(args) => cross::run(&mut report, &ws, args),
            Task::Ct(args) => ct::run(&mut report, &ws, args),
            Task::Fuzz(args) => fuzz::run(&mut report, &ws, args),
            Task::Miri => miri::run(&mut report),
            Task::Bogo(args) => bogo::run(&mut report, args),
            Task::StackSizes(args) => stacks::run(&mut report, args),
            Task::Speed(args) => speed::run(&mut report, args),
            Task::Layout(args) => layout::run(&mut report, &ws, args),
        }
    }
    report.finish()
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, Parser};

    use super::{Cli, Task, ci::Stage};

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn parses_options() {
        let cli =
            Cli::try_parse_from(["xtask", "ci", "--skip", "cross", "--skip", "no-std"]).unwrap();
        let Task::Ci(args) = cli.task else { panic!("not ci") };
        assert_eq!(args.skip, [Stage::Cross, Stage::NoStd]);
        assert!(!cli.no_install);
        let cli =
            Cli::try_parse_from(["xtask", "m0", "--self-test", "--fail-fast", "--no-install"])
                .unwrap();
        let Task::M0(args) = cli.task else { panic!("not m0") };
        assert!(args.self_test && cli.fail_fast && cli.no_install);
        assert_eq!(
            (args.cpu.as_str(), args.machine.as_str(), args.timeout),
            ("cortex-m0", "microbit", 120)
        );
        let cli = Cli::try_parse_from(["xtask", "cross", "-p", "core-cpu"]).unwrap();
        let Task::Cross(args) = cli.task else { panic!("not cross") };
        assert_eq!(args.packages, ["core-cpu"]);
    }
}
