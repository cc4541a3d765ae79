//! The self-test: deliberately leaky code run on a secret, which memcheck must report, so a
//! clean run of the real checks means something. `cargo xtask ct` runs each plant under
//! valgrind and fails unless valgrind exits non-zero with the expected report naming the
//! planted function.

use std::hint::black_box;
use std::process::ExitCode;

use crate::{secret, valgrind};

/// Which leak to plant.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Plant {
    /// A branch on secret bits (memcheck: "Conditional jump or move depends on uninitialised
    /// value(s)").
    Branch,
    /// A table lookup at a secret index (memcheck: "Use of uninitialised value of size 8").
    Index,
}

impl Plant {
    /// The plant called `name` on the command line.
    pub(crate) fn from_name(name: &str) -> Option<Self> {
        match name {
            "branch" => Some(Self::Branch),
            "index" => Some(Self::Index),
            _ => None,
        }
    }
}

/// Runs the planted leak on a secret key and reports the (declassified) result.
pub(crate) fn run(plant: Plant) -> ExitCode {
    let key = secret(16, 0x5e);
    let mut result = match plant {
        Plant::Branch => planted_secret_branch(&key),
        Plant::Index => planted_secret_index(&key),
    };
    valgrind::declassify(core::slice::from_mut(&mut result));
    println!("self-test {plant:?}: planted leak ran (result {result}); memcheck must report it");
    ExitCode::SUCCESS
}

/// Counts the secret bytes with their top bit set, with a branch per byte: the textbook leak.
#[inline(never)]
fn planted_secret_branch(secret: &[u8]) -> u8 {
    let mut count = 0u8;
    for &b in secret {
        if b & 0x80 != 0 {
            count = black_box(count.wrapping_add(1));
        }
    }
    count
}

/// Sums an S-box looked up at secret indices: the cache-timing leak of table-based AES.
#[inline(never)]
fn planted_secret_index(secret: &[u8]) -> u8 {
    static TABLE: [u8; 256] = {
        let mut t = [0u8; 256];
        let mut i = 0;
        while i < 256 {
            t[i] = (i as u8).wrapping_mul(167).wrapping_add(13);
            i += 1;
        }
        t
    };
    let table = black_box(&TABLE);
    secret.iter().fold(0u8, |acc, &b| acc.wrapping_add(table[usize::from(b)]))
}
