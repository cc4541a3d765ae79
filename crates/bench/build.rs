//! Records the versions of the peer libraries that Cargo resolved, read from the workspace's
//! `Cargo.lock`, so `speed` can say exactly what it measured Halite against.

use std::{env, fs, path::Path};

/// The crates whose versions are reported, as named in `Cargo.lock`.
const PEERS: &[&str] = &[
    "ring",
    "aws-lc-rs",
    "aws-lc-sys",
    "graviola",
    "sha1",
    "sha2",
    "sha3",
    "hmac",
    "ml-kem",
    "libcrux-ml-kem",
    "rustls",
];

fn main() {
    let manifest = env::var("CARGO_MANIFEST_DIR").expect("Cargo sets CARGO_MANIFEST_DIR");
    let lock = Path::new(&manifest).join("../../Cargo.lock");
    println!("cargo:rerun-if-changed={}", lock.display());
    let text = fs::read_to_string(&lock).unwrap_or_default();
    let mut found = Vec::new();
    let mut name = None;
    for line in text.lines() {
        if let Some(n) = quoted_value(line, "name") {
            name = Some(n);
        } else if let (Some(n), Some(v)) = (name, quoted_value(line, "version")) {
            // The first version wins: the lock file lists each package once per version, and
            // the peers appear in a single version in this workspace.
            if PEERS.contains(&n) && !found.iter().any(|(f, _)| *f == n) {
                found.push((n, v));
            }
            name = None;
        }
    }
    let list: Vec<String> = found.iter().map(|(n, v)| format!("{n}={v}")).collect();
    println!("cargo:rustc-env=BENCH_PEER_VERSIONS={}", list.join(";"));
}

/// `value` from a line `key = "value"`.
fn quoted_value<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let rest = line.strip_prefix(key)?.trim_start().strip_prefix('=')?.trim();
    rest.strip_prefix('"')?.strip_suffix('"')
}
