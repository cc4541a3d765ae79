//! Criterion group `tls`: the TLS operations of the registry — full handshakes with an ECDSA
//! P-256 and an RSA-2048 certificate, resumed handshakes, and bulk data in 1 KiB and 16 KiB
//! records, over TLS 1.3 and over TLS 1.2 — Halite's `tls` crate against rustls with the aws-lc-rs and the ring provider,
//! each client and server pair in memory in one thread (see `bench::ops::tls`) — and QUIC
//! packet protection through rustls's `quic` API on each provider (see `bench::ops::quic`).
//! `cargo bench -p bench --bench tls`; the HTML report lands in
//! `target/criterion/report/index.html`.

mod common;

use criterion::{Criterion, criterion_group, criterion_main};

fn tls(c: &mut Criterion) {
    common::group(c, "tls");
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = tls
}
criterion_main!(benches);
