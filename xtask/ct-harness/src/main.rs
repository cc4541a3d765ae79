//! `ct-harness`: runs every secret-handling operation of every Halite implementation this CPU
//! offers, with the secret inputs marked undefined for valgrind's memcheck, so that any branch,
//! memory index or system call that depends on a secret is reported as a use of an
//! uninitialised value. `cargo xtask ct` runs it under `valgrind --error-exitcode=1` and fails
//! on any report; outputs that are public by design (ciphertexts, tags, digests) are marked
//! defined before the harness looks at them, and the implementations are checked to agree.
//!
//! `ct-harness` (or `run`) checks everything; `list` prints the implementations this CPU can
//! run, for xtask to compare with what the run under valgrind reached; `self-test branch` and
//! `self-test index` plant a secret-dependent branch or table index, which memcheck must
//! report, proving the check is live.
//!
//! Each crate has one module (`hash`, `aead`, `ec`, `rsa`, `lattice`) and one line in [`run`]; a new
//! crate adds its module, its dependency in `Cargo.toml`, and its `implementations()` to
//! [`registered`].

use std::collections::{BTreeSet, HashMap};
use std::process::ExitCode;

mod aead;
mod ec;
mod hash;
mod lattice;
mod rsa;
mod selftest;
mod valgrind;

/// Message lengths each bulk operation runs on: empty, a byte, a block, tails, and enough for
/// the widest loops this machine can run (sixteen ChaCha20 blocks, eight AES blocks in flight).
pub(crate) const LENGTHS: &[usize] = &[0, 1, 16, 63, 200, 1100];

/// What a run covered and whether the implementations agreed.
#[derive(Default)]
pub(crate) struct Tally {
    /// `algorithm/implementation` for every implementation exercised.
    covered: BTreeSet<String>,
    /// Operations run with secret inputs.
    ops: usize,
    /// The first implementation's output for each operation, which every other must match.
    reference: HashMap<String, Vec<u8>>,
    /// What went wrong (disagreements, unexpected verdicts).
    failures: Vec<String>,
}

impl Tally {
    /// Records that `implementation` of `algorithm` is being exercised.
    pub(crate) fn cover(&mut self, algorithm: &str, implementation: &str) {
        self.covered.insert(format!("{algorithm}/{implementation}"));
    }

    /// Declassifies `output` (public by design) and checks it against what the first
    /// implementation produced for the same operation `what`. Under valgrind the output must
    /// still be tainted by the secret it was computed from.
    pub(crate) fn agree(&mut self, what: &str, output: &[u8]) {
        if !output.is_empty() && valgrind::any_undefined(output) == Some(false) {
            self.failures.push(format!("{what}: output no longer tainted by the secret"));
        }
        self.compare(what, output);
    }

    /// [`Tally::agree`] for an output that may depend on no secret at all (the digest of an
    /// empty secret message).
    pub(crate) fn agree_untainted(&mut self, what: &str, output: &[u8]) {
        self.compare(what, output);
    }

    fn compare(&mut self, what: &str, output: &[u8]) {
        valgrind::declassify(output);
        self.ops += 1;
        match self.reference.get(what) {
            Some(first) if first != output => self.failures.push(format!("{what}: outputs differ")),
            Some(_) => {}
            None => {
                self.reference.insert(what.to_owned(), output.to_vec());
            }
        }
    }

    /// Counts an operation whose outcome (a verdict, not data) must be `expected`.
    pub(crate) fn expect(&mut self, what: &str, ok: bool) {
        self.ops += 1;
        if !ok {
            self.failures.push(format!("{what}: unexpected result"));
        }
    }
}

/// `verdict` (the result of a verification), declassified: whether a tag matched is public,
/// even though it was computed from secrets.
pub(crate) fn verdict<T>(mut verdict: T) -> T {
    valgrind::declassify_value(&mut verdict);
    verdict
}

/// `len` deterministic bytes from `seed`, public (marked defined).
pub(crate) fn public(len: usize, seed: u8) -> Vec<u8> {
    let mut x = u32::from(seed).wrapping_mul(0x9e37_79b9) | 1;
    (0..len)
        .map(|_| {
            // xorshift32: any fixed, varied bytes will do.
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x.to_le_bytes()[0]
        })
        .collect()
}

/// `len` deterministic bytes from `seed`, marked secret (undefined) for memcheck.
pub(crate) fn secret(len: usize, seed: u8) -> Vec<u8> {
    let mut bytes = public(len, seed);
    valgrind::classify(&mut bytes);
    bytes
}

/// [`secret`] as an array.
pub(crate) fn secret_array<const N: usize>(seed: u8) -> [u8; N] {
    let mut bytes = [0; N];
    bytes.copy_from_slice(&public(N, seed));
    valgrind::classify(&mut bytes);
    bytes
}

/// Every implementation of `I` this CPU can run, found by name so that the portable variants
/// `available()` leaves out for this word size are included.
pub(crate) fn every<I: core_hash::Implementation>() -> impl Iterator<Item = I> {
    I::ALL.iter().filter_map(|name| I::by_name(name))
}

/// The registry rows this CPU can run, as `algorithm/implementation`.
fn registered() -> BTreeSet<String> {
    core_hash::implementations()
        .chain(core_aead::implementations())
        .chain(core_ec::implementations())
        .chain(core_rsa::implementations())
        .chain(core_lattice::implementations())
        .filter(|r| r.available)
        .map(|r| format!("{}/{}", r.algorithm, r.implementation))
        .collect()
}

/// Runs every check; fails on a disagreement, an unexpected verdict, or a registered
/// implementation the checks did not reach.
fn run() -> ExitCode {
    let under_valgrind = valgrind::running_on_valgrind();
    if under_valgrind {
        let probe = secret(32, 0);
        if valgrind::all_undefined(&probe) != Some(true) {
            eprintln!(
                "ct-harness: memcheck did not mark the probe undefined; the check is not live"
            );
            return ExitCode::FAILURE;
        }
    } else {
        println!("ct-harness: not running under valgrind: secrets are not tracked, results are");
    }
    let mut tally = Tally::default();
    hash::run(&mut tally);
    aead::run(&mut tally);
    ec::run(&mut tally);
    rsa::run(&mut tally);
    lattice::run(&mut tally);
    let missing: Vec<String> = registered().difference(&tally.covered).cloned().collect();
    for name in missing {
        tally.failures.push(format!("{name}: registered and available but not exercised"));
    }
    println!("covered: {}", join(&tally.covered));
    println!(
        "ct-harness: {} operations with secret inputs over {} implementations{}",
        tally.ops,
        tally.covered.len(),
        if under_valgrind { ", under memcheck" } else { "" }
    );
    if tally.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        for failure in &tally.failures {
            eprintln!("ct-harness: {failure}");
        }
        ExitCode::FAILURE
    }
}

fn join(set: &BTreeSet<String>) -> String {
    set.iter().map(String::as_str).collect::<Vec<_>>().join(" ")
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        [] | ["run"] => run(),
        ["list"] => {
            println!("available: {}", join(&registered()));
            ExitCode::SUCCESS
        }
        ["self-test", which] => match selftest::Plant::from_name(which) {
            Some(plant) => selftest::run(plant),
            None => usage(),
        },
        _ => usage(),
    }
}

fn usage() -> ExitCode {
    eprintln!("usage: ct-harness [run | list | self-test branch|index]");
    ExitCode::from(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Natively (no valgrind) the checks still compare every implementation with the first and
    /// must reach every registered one.
    #[test]
    fn implementations_agree_and_all_are_reached() {
        let mut tally = Tally::default();
        hash::run(&mut tally);
        aead::run(&mut tally);
        ec::run(&mut tally);
        rsa::run(&mut tally);
        lattice::run(&mut tally);
        assert!(tally.failures.is_empty(), "{:?}", tally.failures);
        let missing: Vec<_> = registered().difference(&tally.covered).cloned().collect();
        assert!(missing.is_empty(), "not reached: {missing:?}");
        assert!(tally.ops > 1000);
    }

    /// Without valgrind the client requests change nothing and say so.
    #[test]
    fn client_requests_are_inert_natively() {
        assert!(!valgrind::running_on_valgrind());
        let mut bytes = public(8, 3);
        let before = bytes.clone();
        valgrind::classify(&mut bytes);
        valgrind::declassify(&bytes);
        assert_eq!(bytes, before);
        assert_eq!(valgrind::all_undefined(&bytes), None);
        let mut value = Ok::<u8, ()>(5);
        valgrind::declassify_value(&mut value);
        assert_eq!(value, Ok(5));
    }

    #[test]
    fn a_disagreement_is_a_failure() {
        let mut tally = Tally::default();
        tally.agree("x", &[1, 2]);
        tally.agree("x", &[1, 2]);
        assert!(tally.failures.is_empty());
        tally.agree("x", &[1, 3]);
        tally.expect("y", false);
        assert_eq!(tally.failures.len(), 2);
    }
}
