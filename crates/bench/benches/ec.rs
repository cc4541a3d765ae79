//! Criterion group `ec`: the elliptic-curve operations of the registry (X25519, Ed25519 and, as
//! they land, the NIST curves), every Halite implementation by name, Halite's default and each peer.
//! `cargo bench -p bench --bench ec`; the HTML report lands in
//! `target/criterion/report/index.html`.

mod common;

use criterion::{Criterion, criterion_group, criterion_main};

fn ec(c: &mut Criterion) {
    common::group(c, "ec");
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = ec
}
criterion_main!(benches);
