//! The agreement check run before any measurement: every library, and every Halite
//! implementation, must produce the same output for the same input and key. A speed table of
//! different computations is worthless, so a disagreement stops the run.

use std::fmt::Write as _;

use crate::libs::Library;
use crate::openssl;
use crate::ops::{Op, Runner, Unit, message};

/// Message lengths checked besides the measured sizes: empty, one byte, and both sides of
/// every padding and block boundary of 64- and 128-byte-block hashes and 136/168-byte SHA-3
/// rates.
pub const EDGE_LENGTHS: &[usize] = &[
    0, 1, 3, 55, 56, 63, 64, 65, 111, 112, 119, 120, 127, 128, 129, 135, 136, 137, 167, 168, 169,
    255, 256, 1000, 1350, 4099,
];

/// Message lengths checked for per-operation ops ([`Unit::Ops`]: signatures, key exchange,
/// modular exponentiation), whose message only feeds a hash or a folded base: the hash's edges
/// are the bulk ops' business, and a public-key operation per edge length (29 of them, each on
/// every implementation — an 8192-bit exponentiation on the 15-bit-limb backend takes seconds
/// in the test profile) would only repeat the same computation.
pub const OP_LENGTHS: &[usize] = &[0, 55, 1350];

/// One library's output that differs from Halite's default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// The op id.
    pub op: &'static str,
    /// The message length.
    pub len: usize,
    /// Whose output differs.
    pub who: String,
    /// Halite's default output (hex).
    pub expected: String,
    /// The differing output (hex).
    pub got: String,
}

impl std::fmt::Display for Disagreement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} on a {}-byte message: {} gives {}, Halite's default gives {}",
            self.op, self.len, self.who, self.got, self.expected
        )
    }
}

/// Lowercase hex.
#[must_use]
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::with_capacity(2 * bytes.len()), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

fn run_once(runner: &mut Runner, input: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    runner(input, &mut out);
    out
}

/// Checks every Halite implementation and every peer in `libraries` (in-process ones) against
/// Halite's default on messages of the [`EDGE_LENGTHS`] and `sizes` (bulk ops), or of the
/// [`OP_LENGTHS`] (per-operation ops).
#[must_use]
pub fn check_in_process(op: &Op, libraries: &[Library], sizes: &[usize]) -> Vec<Disagreement> {
    let mut halite = (op.halite)();
    let mut others: Vec<(String, Runner)> =
        halite.impls.drain(..).map(|(name, r)| (format!("halite/{name}"), r)).collect();
    for peer in &op.peers {
        if libraries.contains(&peer.library) {
            others.push((peer.library.name().to_owned(), (peer.make)()));
        }
    }
    let mut lengths: Vec<usize> = match op.unit {
        Unit::Bytes => EDGE_LENGTHS.iter().chain(sizes).copied().collect(),
        Unit::Ops => OP_LENGTHS.to_vec(),
    };
    lengths.sort_unstable();
    lengths.dedup();
    let canonical = |input: &[u8], out: Vec<u8>| match op.canonical {
        Some(f) => f(input, &out),
        None => out,
    };
    let mut found = Vec::new();
    for len in lengths {
        let input = message(len);
        let expected = canonical(&input, run_once(&mut halite.default, &input));
        for (who, runner) in &mut others {
            let got = canonical(&input, run_once(runner, &input));
            if got != expected {
                found.push(Disagreement {
                    op: op.id,
                    len,
                    who: who.clone(),
                    expected: hex(&expected),
                    got: hex(&got),
                });
            }
        }
    }
    found
}

/// Checks the `openssl` binary's output against Halite's default on a few lengths. `Err` when
/// `openssl` could not compute it at all (the caller leaves OpenSSL out for this op).
pub fn check_openssl(op: &Op) -> Result<Vec<Disagreement>, String> {
    let Some(check) = op.openssl.as_ref().and_then(|spec| spec.check.as_ref()) else {
        return Ok(Vec::new());
    };
    let mut halite = (op.halite)();
    let mut found = Vec::new();
    for len in [0, 64, 1350] {
        let input = message(len);
        let expected = run_once(&mut halite.default, &input);
        let got = openssl::compute(check, &input)?;
        if got != expected {
            found.push(Disagreement {
                op: op.id,
                len,
                who: "openssl-speed".to_owned(),
                expected: hex(&expected),
                got: hex(&got),
            });
        }
    }
    Ok(found)
}
