//! Criterion group `aead`: the AEAD operations of the registry (seal) at 64 B, 1350 B and
//! 16 KiB, every Halite implementation by name, Halite's default and each peer.
//! `cargo bench -p bench --bench aead`; the HTML report lands in
//! `target/criterion/report/index.html`.

mod common;

use criterion::{Criterion, criterion_group, criterion_main};

fn aead(c: &mut Criterion) {
    common::group(c, "aead");
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = aead
}
criterion_main!(benches);
