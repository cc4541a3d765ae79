//! Criterion group `hash`: the hash, HMAC and HKDF operations of the registry at 64 B,
//! 1350 B and 16 KiB (HKDF once), every Halite implementation by name (`sha256/portable`,
//! `sha256/x86_shani`…), Halite's default (`sha256/halite`) and each peer (`sha256/ring`…).
//! `cargo bench -p bench`; the HTML report lands in `target/criterion/report/index.html`.

mod common;

use criterion::{Criterion, criterion_group, criterion_main};

fn hash(c: &mut Criterion) {
    common::group(c, "hash");
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = hash
}
criterion_main!(benches);
