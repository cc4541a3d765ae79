//! Criterion group `rsa`: the RSA operations of the registry (RSA-2048 PKCS#1 v1.5 and PSS
//! signing and verification, RSA-3072 and RSA-4096 PKCS#1 v1.5 signing and verification),
//! every Halite implementation by name, Halite's default and each peer.
//! `cargo bench -p bench --bench rsa`; the HTML report lands in
//! `target/criterion/report/index.html`.

mod common;

use criterion::{Criterion, criterion_group, criterion_main};

fn rsa(c: &mut Criterion) {
    common::group(c, "rsa");
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = rsa
}
criterion_main!(benches);
