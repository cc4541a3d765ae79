//! `cargo xtask speed [-- SPEED ARGS]`: the `speed` comparison on a fresh machine — the Debian
//! packages the bench crate builds against (OpenSSL's headers for its in-process `openssl`
//! peer, found through pkg-config) installed first, then
//! `cargo run --release -p bench --bin speed -- SPEED ARGS`.

use clap::Args;

use crate::util::{self, Need, Report};

/// Options of `cargo xtask speed`.
#[derive(Args, Clone, Debug, Default)]
pub(crate) struct SpeedArgs {
    /// Passed to `speed` (after `--`): `--quick`, `--only REGEX`, `--csv FILE`, `--compare
    /// BASELINE.csv`…; `-- --help` lists them.
    #[arg(last = true, value_name = "SPEED ARGS")]
    pub(crate) args: Vec<String>,
}

/// What building the bench crate needs from outside the workspace: it links OpenSSL's
/// libcrypto and libssl (the `openssl` crate: `speed`'s `openssl` peer and `tls-loopback`),
/// found through pkg-config.
pub(crate) fn needs() -> Vec<Need> {
    vec![
        Need::Command("pkg-config", "pkg-config"),
        Need::File("/usr/include/openssl/ssl.h", "libssl-dev"),
    ]
}

/// Builds and runs `speed` in release.
pub(crate) fn run(report: &mut Report, args: &SpeedArgs) {
    report.stage("speed", || {
        let mut cmd = util::cargo();
        cmd.args(["run", "--release", "-p", "bench", "--bin", "speed", "--"]).args(&args.args);
        util::run(&mut cmd)
    });
}
