//! Criterion group `modexp`: the MIRACL-style table of constant-time modular exponentiations
//! (512 to 8192 bits, random base, full-length exponent, odd modulus) of the registry, every
//! Halite implementation by name, Halite's default and RustCrypto's `num-bigint-dig`.
//! `cargo bench -p bench --bench modexp`.

mod common;

use criterion::{Criterion, criterion_group, criterion_main};

fn modexp(c: &mut Criterion) {
    common::group(c, "modexp");
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = modexp
}
criterion_main!(benches);
