//! The registry of operations, one module per group (`hash`, `aead`, `ec` and `nist`, `kem`,
//! `mldsa`, `rsa`, `modexp`, `tls` and `quic`): for each op id
//! (`sha256`, `hmac-sha256`, `aes-128-gcm-seal`…), how Halite computes it — its default choice
//! and every implementation this CPU can run — and how each peer library does.
//!
//! Everything that measures (the `speed` tool, the criterion benches, the agreement test) reads
//! this one table, so a new primitive is one entry here. Each library's API is wrapped into a
//! [`Runner`]: one call computes the operation on one message and appends the result to a
//! reused buffer, so no allocation is timed. Keys are fixed and set up outside the timing.

use crate::libs::Library;

/// One library's way of computing an operation: takes the message, appends the output (digest,
/// tag, ciphertext…) to the buffer, which the caller clears between calls.
pub type Runner = Box<dyn FnMut(&[u8], &mut Vec<u8>)>;

/// Maps a message and an operation's output to what the agreement check compares (see
/// [`Op::canonical`]).
pub type Canonical = fn(&[u8], &[u8]) -> Vec<u8>;

/// What an operation's rate counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Bulk operations: throughput in MB/s (10^6 bytes), and cycles per byte.
    Bytes,
    /// Public-key operations: operations per second, and cycles per operation.
    Ops,
}

impl Unit {
    /// The label in the CSV `unit` column and in table headers.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Unit::Bytes => "MB/s",
            Unit::Ops => "ops/s",
        }
    }
}

/// Halite's side of an operation.
pub struct Halite {
    /// The name of the implementation the default constructor picks on this CPU.
    pub default_impl: String,
    /// The default path, as a user writes it (`Sha256::digest`): best implementation for the
    /// CPU, chosen at construction.
    pub default: Runner,
    /// Every implementation this CPU can run, by name (`portable`, `x86_shani`…), fastest first.
    pub impls: Vec<(String, Runner)>,
}

impl Halite {
    /// The length of the default path's output for an empty message.
    #[must_use]
    pub fn default_len(mut self) -> usize {
        let mut out = Vec::new();
        (self.default)(&[], &mut out);
        out.len()
    }
}

/// A peer library's side of an operation.
pub struct Peer {
    /// Which library.
    pub library: Library,
    /// Builds the runner (keys and contexts are set up here, outside the timing).
    pub make: fn() -> Runner,
}

/// How the `openssl` binary computes an operation, when it can (the `openssl-speed` column).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpensslSpec {
    /// The algorithm arguments of `openssl speed` (after `-seconds S -bytes N`), e.g.
    /// `["-evp", "sha256"]`.
    pub speed: Vec<String>,
    /// An `openssl` command that reads a message on stdin and writes the raw output on stdout
    /// (`dgst -binary -sha256`), so its answer is checked like every other library's; `None`
    /// where the command line offers none (AEADs: `openssl enc` refuses them), in which case
    /// `speed` says the `openssl-speed` column is unchecked.
    pub check: Option<Vec<String>>,
}

/// One operation, as every library computes it.
pub struct Op {
    /// The op id: `speed --only`, the CSV `op` column, criterion's function name.
    pub id: &'static str,
    /// The criterion group it belongs to (`hash`, `aead`, `ec`, `kem`, `mldsa`, `rsa`, `modexp`, `tls`).
    pub group: &'static str,
    /// A human description for `speed --help`.
    pub what: &'static str,
    /// What a rate counts.
    pub unit: Unit,
    /// For bulk operations measured at sizes of their own whatever `--sizes` asks (TLS records
    /// of 1 KiB and 16 KiB), those sizes; `None`: the sizes asked for.
    pub sizes: Option<&'static [usize]>,
    /// Halite's default and every implementation.
    pub halite: fn() -> Halite,
    /// The peers that implement this operation.
    pub peers: Vec<Peer>,
    /// The `openssl` binary's way of running it (`openssl-speed`), if it has one; the in-process
    /// `openssl` column is a peer like the others.
    pub openssl: Option<OpensslSpec>,
    /// For operations whose output is not unique (a randomised signature), what the agreement
    /// check compares instead: a function of the message and the output that every correct
    /// library gives the same answer to (for a signature, whether it verifies). Never timed.
    pub canonical: Option<Canonical>,
}

impl Op {
    /// The peer entry for `library`, if that library implements this operation.
    #[must_use]
    pub fn peer(&self, library: Library) -> Option<&Peer> {
        self.peers.iter().find(|p| p.library == library)
    }
}

/// A peer entry, for the table below: an `Option` so that the `graviola!` entries, absent on
/// some targets, sit in the same list.
#[allow(clippy::unnecessary_wraps)]
fn peer(library: Library, make: fn() -> Runner) -> Option<Peer> {
    Some(Peer { library, make })
}

/// A graviola peer entry: graviola exists only on `x86_64` and `aarch64`, so elsewhere the entry
/// is left out at compile time.
macro_rules! graviola {
    ($make:expr) => {{
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        let entry = peer(Library::Graviola, $make);
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        let entry = None;
        entry
    }};
}

/// Runs `verify` on a signature that `sign` made of each message, made once per message
/// length (the first call for a length, a warm-up, pays for it); appends 1 if it verifies.
fn verify_runner(
    mut sign: impl FnMut(&[u8]) -> Vec<u8> + 'static,
    mut verify: impl FnMut(&[u8], &[u8]) -> bool + 'static,
) -> Runner {
    let mut signed: Option<(usize, Vec<u8>)> = None;
    Box::new(move |m, out| {
        let sig = match &mut signed {
            Some((len, sig)) if *len == m.len() => sig,
            slot => &mut slot.insert((m.len(), sign(m))).1,
        };
        out.push(u8::from(verify(m, sig)));
    })
}

mod aead;
mod cbc;
mod cbc_hmac;
mod ec;
mod hash;
mod kem;
mod libcrypto;
mod mldsa;
mod modexp;
mod nist;
mod quic;
mod rsa;
mod tls;

pub use aead::*;
pub use cbc::*;
pub use ec::*;
pub use hash::*;
pub use kem::*;
pub use mldsa::MLDSA_SEED;
pub use modexp::*;
pub use nist::{p256, p384};
pub use rsa::*;
pub use tls::*;

/// Every operation, in table order.
#[must_use]
pub fn registry() -> Vec<Op> {
    let mut ops = hash::ops();
    ops.extend(aead::ops());
    ops.extend(cbc::ops());
    ops.extend(cbc_hmac::ops());
    ops.extend(ec::ops());
    ops.extend(nist::ops());
    ops.extend(kem::ops());
    ops.extend(mldsa::ops());
    ops.extend(rsa::ops());
    ops.extend(modexp::ops());
    ops.extend(tls::ops());
    ops.extend(quic::ops());
    for op in &mut ops {
        op.peers.extend(libcrypto::peer(op.id));
    }
    ops
}

/// The op ids, in table order.
#[must_use]
pub fn op_ids() -> Vec<&'static str> {
    registry().iter().map(|op| op.id).collect()
}

/// The key every keyed operation (HMAC, AEADs) uses, in every library, so outputs compare.
pub const KEY: [u8; 32] = *b"Halite bench key, 32 bytes long!";

/// A deterministic test message of `len` bytes (the same for every library and every run).
#[must_use]
pub fn message(len: usize) -> Vec<u8> {
    let mut x = 0x9e37_79b9_7f4a_7c15_u64 ^ len as u64;
    (0..len)
        .map(|_| {
            // xorshift64: cheap and far from the all-equal bytes that could hide a bug.
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 56) as u8
        })
        .collect()
}
