//! `cargo xtask ci`: everything CI checks, in order — formatting, where assembly and `unsafe`
//! may be (`checks`), clippy (host, `tls` without TLS 1.2 too, and the firmware on
//! `thumbv6m-none-eabi`), the host test suite, `tls`'s tests under two device feature sets
//! (`tls features`), rustdoc (private items too) with warnings denied,
//! a `no_std` `thumbv6m-none-eabi` build of every primitive crate and of `tls` with and without
//! TLS 1.2, the same crates without `asm` holding no assembly (`no-asm-build`), the Cortex-M0
//! run with its self-test, the Cortex-M0+ cost model (counted, without the per-operation flash
//! images), the TLS 1.3 client firmware images' handshakes on the micro:bit map (`m0 --tls`), the
//! qemu-user cross tests, the constant-time check under valgrind (`ct`), a short
//! fuzzing pass over every target (`fuzz`), the portable paths under Miri (`miri`), and
//! BoringSSL's TLS test suite (`bogo`) when `HALITE_BOGO_BORINGSSL` names a BoringSSL checkout
//! (skipped otherwise). Every stage runs even after a failure (unless `--fail-fast`), so one CI
//! run reports everything that is wrong.

use std::io::IsTerminal;

use clap::{Args, ValueEnum};

use crate::bogo::{self, BogoArgs};
use crate::checks;
use crate::cross::{self, CrossArgs};
use crate::ct::{self, CtArgs};
use crate::fuzz::{self, FuzzArgs};
use crate::m0::{self, M0Args};
use crate::miri;
use crate::speed;
use crate::util::{self, Need, Report, StageResult};
use crate::workspace::Workspace;

/// A stage of `ci`, as named by `--skip`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    /// `cargo fmt --all --check`.
    Fmt,
    /// `cargo clippy` on the workspace and on the firmware for the Cortex-M0.
    Clippy,
    /// `cargo test` of every workspace member (the primitive crates as `cross` selects them).
    Test,
    /// `cargo test -p tls` with reduced feature sets (the device builds): each test target
    /// either runs and passes or, lacking a feature it needs, is not built.
    TlsFeatures,
    /// Where assembly and `unsafe` may be: no assembly outside `asm/`, `unsafe` outside it and
    /// the intrinsic backends within its baseline, one spelling per CPU feature in
    /// implementation labels.
    Checks,
    /// `cargo doc --workspace --no-deps`, with and without private items, warnings denied.
    Doc,
    /// A `no_std` Cortex-M0 build of every primitive crate.
    NoStd,
    /// The primitive crates built without `asm` (host and Cortex-M0) hold no assembly.
    NoAsmBuild,
    /// `cargo xtask m0 --self-test`, then `cargo xtask m0 --no-asm`.
    M0,
    /// `cargo xtask m0 --cost --no-flash`: the cost-model firmware builds, runs and is counted.
    M0Cost,
    /// `cargo xtask m0 --tls`: the TLS 1.3 client firmware images' handshakes and echoes
    /// (external PSK, pinned raw key) on the micro:bit map, against the host server.
    M0Tls,
    /// `cargo xtask cross`.
    Cross,
    /// `cargo xtask ct`: the constant-time check under valgrind, with its self-test.
    Ct,
    /// `cargo xtask fuzz --seconds 10`: a smoke pass over every fuzz target.
    Fuzz,
    /// `cargo xtask miri`: the portable paths' unit tests under Miri, without `asm`.
    Miri,
    /// `cargo xtask bogo --boringssl $HALITE_BOGO_BORINGSSL`, when that names a checkout.
    Bogo,
}

/// The environment variable naming a BoringSSL checkout for the `bogo` stage.
pub(crate) const BOGO_ENV: &str = "HALITE_BOGO_BORINGSSL";

/// Lints the firmware for its real target: its bare-metal code (entry, `HardFault` handler,
/// fault injection) is compiled out on the host, where the workspace clippy run sees it.
const FIRMWARE_CLIPPY: &[&str] = &[
    "clippy",
    "-p",
    "m0-kat",
    "--target",
    m0::TARGET,
    "--features",
    "inject-failure,inject-fault",
    "--",
    "-D",
    "warnings",
];

/// Lints `tls` without its default `tls12` and `mldsa` features (TLS 1.3 only, as a device
/// build takes it; every other feature kept for the tests), tests and examples too: the
/// workspace run sees only the default features.
const TLS13_ONLY_CLIPPY: &[&str] = &[
    "clippy",
    "-p",
    "tls",
    "--no-default-features",
    "--features",
    "std,server,certificates,x25519,p256,p384,p521,mlkem,aes-gcm,chacha20,aes-ccm",
    "--all-targets",
    "--",
    "-D",
    "warnings",
];

/// Lints the cost-model firmware for its real target, for the same reason.
const COST_FIRMWARE_CLIPPY: &[&str] =
    &["clippy", "-p", "m0-cost", "--target", m0::TARGET, "--", "-D", "warnings"];

/// Lints the TLS client firmware for its real target (its host build is the server and leaves
/// the device code out); on its own, as it takes semihosting's panic handler and m0-cost not.
/// Once per image (one feature each, as `m0 --tls` builds them).
const TLS_FIRMWARE_CLIPPY: [&[&str]; 2] = [
    &["clippy", "-p", "m0-tls", "--target", m0::TARGET, "--no-default-features", "--features"],
    &["--", "-D", "warnings"],
];

/// Options of `cargo xtask ci`.
#[derive(Args, Clone, Debug)]
pub(crate) struct CiArgs {
    /// Skip a stage (repeatable).
    #[arg(long, value_enum, value_name = "STAGE")]
    pub(crate) skip: Vec<Stage>,
}

impl CiArgs {
    fn runs(&self, stage: Stage) -> bool {
        !self.skip.contains(&stage)
    }
}

/// What the selected stages need from outside the workspace.
pub(crate) fn needs(args: &CiArgs) -> Vec<Need> {
    let mut needs = Vec::new();
    if args.runs(Stage::Clippy) || args.runs(Stage::NoStd) {
        needs.push(Need::RustTarget(m0::TARGET));
    }
    if args.runs(Stage::Clippy) || args.runs(Stage::Test) || args.runs(Stage::Doc) {
        // The bench crate links OpenSSL (libssl-dev, through pkg-config).
        needs.extend(speed::needs());
    }
    if args.runs(Stage::Test) {
        // The tls crate's interop tests run these peers (and skip without them); bench's
        // `tls-loopback --check` test runs `openssl s_server`.
        needs.push(Need::Command("openssl", "openssl"));
        needs.push(Need::Command("gnutls-serv", "gnutls-bin"));
    }
    if args.runs(Stage::M0) || args.runs(Stage::M0Cost) || args.runs(Stage::M0Tls) {
        needs.extend(m0::needs());
    }
    if args.runs(Stage::Cross) {
        needs.extend(cross::needs());
    }
    if args.runs(Stage::Ct) {
        needs.extend(ct::needs());
    }
    needs
}

/// Runs the `ci` stages into `report`.
pub(crate) fn run(report: &mut Report, ws: &Workspace, args: &CiArgs) {
    let stage = |report: &mut Report, which: Stage, name: &str, body: &dyn Fn() -> StageResult| {
        if args.runs(which) {
            report.stage(name, body);
        } else {
            report.skip(name, "--skip");
        }
    };
    stage(report, Stage::Fmt, "fmt", &|| {
        // rustfmt colours its diffs even into a pipe; keep CI logs plain.
        let plain: &[&str] =
            if std::io::stdout().is_terminal() { &[] } else { &["--", "--color", "never"] };
        cargo(&[&["fmt", "--all", "--check"], plain].concat(), &[])
    });
    stage(report, Stage::Checks, "asm-home", &|| checks::asm_home(ws));
    stage(report, Stage::Checks, "unsafe-budget", &|| checks::unsafe_budget(ws));
    stage(report, Stage::Checks, "labels", &|| checks::label_spellings(ws));
    stage(report, Stage::Clippy, "clippy", &|| {
        let workspace =
            cargo(&["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"], &[]);
        let firmware = both(cargo(FIRMWARE_CLIPPY, &[]), cargo(COST_FIRMWARE_CLIPPY, &[]));
        let [tls_firmware, deny] = TLS_FIRMWARE_CLIPPY;
        let firmware = ["psk", "rpk", "cert"].iter().fold(firmware, |done, image| {
            both(done, cargo(&[tls_firmware, &[image], deny].concat(), &[]))
        });
        both(both(workspace, firmware), cargo(TLS13_ONLY_CLIPPY, &[]))
    });
    stage(report, Stage::Test, "test", &|| {
        // core-ec's `small-tables` (the firmware's choice) on the host too: its unit tests
        // check the thinned tables and every scalar multiplication against the others.
        let small = ["test", "-p", "core-ec", "--lib", "--features", "small-tables"];
        both(test_workspace(), cargo(&small, &[]))
    });
    stage(report, Stage::TlsFeatures, "tls features", &tls_features);
    stage(report, Stage::Doc, "doc", &|| {
        // Private items first (their links rot unseen otherwise), then the public docs, which
        // alone catch a public page linking to a private item and are what stays in target/doc.
        let deny = [("RUSTDOCFLAGS", "-D warnings")];
        let private =
            cargo(&["doc", "--workspace", "--no-deps", "--document-private-items"], &deny);
        both(private, cargo(&["doc", "--workspace", "--no-deps"], &deny))
    });
    stage(report, Stage::NoStd, "no-std", &|| no_std(ws));
    // After no-std, whose Cortex-M0 builds of the dependencies it reuses.
    stage(report, Stage::NoAsmBuild, "no-asm-build", &|| checks::no_asm_build(ws));
    if args.runs(Stage::M0) {
        m0::run(report, ws, &M0Args { self_test: true, ..M0Args::default() });
        // The same checks with every primitive crate's `asm` off (5 s warm).
        m0::run(report, ws, &M0Args { no_asm: true, ..M0Args::default() });
    } else {
        report.skip("m0", "--skip");
    }
    if args.runs(Stage::M0Cost) {
        let cost = M0Args { cost: true, no_flash: true, ..M0Args::default() };
        m0::run(report, ws, &cost);
    } else {
        report.skip("m0 cost", "--skip");
    }
    if args.runs(Stage::M0Tls) {
        m0::run(report, ws, &M0Args { tls: true, ..M0Args::default() });
    } else {
        report.skip("m0 tls", "--skip");
    }
    if args.runs(Stage::Cross) {
        cross::run(report, ws, &CrossArgs::default());
    } else {
        report.skip("cross", "--skip");
    }
    if args.runs(Stage::Ct) {
        ct::run(report, ws, &CtArgs::default());
    } else {
        report.skip("ct", "--skip");
    }
    if args.runs(Stage::Fuzz) {
        fuzz::run(report, ws, &FuzzArgs { seconds: fuzz::CI_SECONDS, target: None });
    } else {
        report.skip("fuzz", "--skip");
    }
    if args.runs(Stage::Miri) {
        miri::run(report);
    } else {
        report.skip("miri", "--skip");
    }
    // BoringSSL is never part of the project: the stage runs where a checkout is named.
    match std::env::var_os(BOGO_ENV).filter(|v| !v.is_empty()) {
        Some(dir) if args.runs(Stage::Bogo) => {
            bogo::run(report, &BogoArgs { boringssl: dir.into(), filter: None });
        }
        Some(_) => report.skip("bogo", "--skip"),
        None => report.skip("bogo", &format!("{BOGO_ENV} is not set (no BoringSSL checkout)")),
    }
}

/// Runs `cargo ARGS` with extra environment variables.
fn cargo(args: &[&str], envs: &[(&str, &str)]) -> StageResult {
    let mut cmd = util::cargo();
    cmd.args(args).envs(envs.iter().copied());
    util::run(&mut cmd)
}

/// Every test of the workspace in one `cargo test --workspace`: one feature resolution, so
/// each crate is compiled once (separate package selections unify features differently and
/// rebuild the shared dependencies for each), and the `cross` Westmere pass runs the primitive
/// crates' binaries of this very build.
fn test_workspace() -> StageResult {
    cargo(&["test", "--workspace"], &[])
}

/// Reduced builds of `tls` whose tests `ci` runs (with `std`): the PSK device client's parts
/// (`m0-tls`: X25519, ChaCha20-Poly1305; no server, certificates, other groups or AEADs), and a
/// certificate client without the server role or TLS 1.2. Targets needing more are skipped
/// through `required-features` (crates/tls/Cargo.toml), single tests through `cfg`.
const TLS_TEST_FEATURE_SETS: [&str; 2] =
    ["std,x25519,chacha20", "std,x25519,p256,aes-gcm,certificates"];

/// `cargo test -p tls` for each of [`TLS_TEST_FEATURE_SETS`], every set even after a failure.
fn tls_features() -> StageResult {
    let failed: Vec<&str> = TLS_TEST_FEATURE_SETS
        .into_iter()
        .filter(|features| {
            let args = ["test", "-p", "tls", "--no-default-features", "--features", features];
            cargo(&args, &[]).is_err()
        })
        .collect();
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("tls tests failed with --features {}", failed.join(" and with ")))
    }
}

/// Both results, failing with both reasons if both failed.
fn both(first: StageResult, second: StageResult) -> StageResult {
    match (first, second) {
        (Ok(()), Ok(())) => Ok(()),
        (Err(e), Ok(())) | (Ok(()), Err(e)) => Err(e),
        (Err(a), Err(b)) => Err(format!("{a}; {b}")),
    }
}

/// Device builds of `tls` that choose their parts (each off part must leave the rest
/// compiling, with no warning): checked, not built, in the `no-std` stage.
const TLS_FEATURE_SETS: [&str; 6] = [
    "x25519,chacha20,server",
    // The raw-key device client (`m0-tls`'s `rpk` image): no X.509, one signature scheme.
    "x25519,chacha20,raw-public-keys,ed25519",
    // The certificate device client (`m0-tls`'s `cert` image): webpki with P-256 alone.
    "x25519,chacha20,aes-ccm,x509,ecdsa-p256",
    "p256,aes-gcm,certificates",
    "x25519,p256,aes-ccm,certificates,tickets",
    "p384,mlkem,chacha20,sha384",
];

/// Builds each primitive crate alone for the Cortex-M0 without default features, so a crate
/// that leans on std (or on features another crate happens to enable) is caught; and the
/// `tls` crate, whose core is `no_std` without an allocator too: with no optional part (no
/// default features), as the PSK device client (`m0-tls`: X25519, ChaCha20-Poly1305), and
/// with its `tls12` feature; then `cargo check` of the [`TLS_FEATURE_SETS`].
fn no_std(ws: &Workspace) -> StageResult {
    let mut crates = ws.primitive_crates();
    if crates.is_empty() {
        return Err("no primitive crates found under crates/".into());
    }
    crates.push("tls");
    let mut failed: Vec<&str> = crates
        .into_iter()
        .filter(|krate| {
            cargo(&["build", "-p", krate, "--target", m0::TARGET, "--no-default-features"], &[])
                .is_err()
        })
        .collect();
    let tls = ["build", "-p", "tls", "--target", m0::TARGET, "--no-default-features"];
    for features in ["x25519,chacha20", "tls12"] {
        if cargo(&[&tls[..], &["--features", features]].concat(), &[]).is_err() {
            failed.push(if features == "tls12" { "tls (tls12)" } else { "tls (psk device)" });
        }
    }
    let check = ["check", "-p", "tls", "--target", m0::TARGET, "--no-default-features"];
    for features in TLS_FEATURE_SETS {
        if cargo(&[&check[..], &["--features", features]].concat(), &[]).is_err() {
            failed.push(features);
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("no_std build failed for {}", failed.join(", ")))
    }
}
