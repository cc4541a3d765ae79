//! Halite side by side with its peers — ring, aws-lc-rs, graviola, the RustCrypto crates and
//! OpenSSL — in one run on one machine: the registry of operations every measurement reads,
//! the agreement check run before measuring, the measuring loop, and the reports.
//!
//! Two front ends use it: the `speed` tool (`cargo run --release -p bench --bin speed`), a
//! comparative `openssl speed`, and the criterion benches (`cargo bench -p bench`).
//!
//! The TLS group (`tls-*` op ids, defined in `src/ops/tls.rs`) compares whole
//! connections rather than primitives: Halite's `tls` crate against rustls with its aws-lc-rs
//! and its ring provider and with `rustls-halite` (rustls on Halite's primitives), each client and server pair in one thread with the bytes moved in
//! memory, all limited to TLS 1.3, `TLS_AES_128_GCM_SHA256` and X25519 — full handshakes with
//! an ECDSA P-256 and with an RSA-2048 certificate, resumed handshakes (ticket, `psk_dhe_ke`)
//! and bulk data in 1 KiB and 16 KiB records — and the same four over TLS 1.2 (`tls12-*`:
//! ECDHE X25519, AES-128-GCM, resumption by session ticket). Three ways to run it:
//!
//! - `speed --only '^tls'` (`'^tls12-'` for TLS 1.2 alone): the side-by-side table with
//!   Halite's ratio to the best rustls;
//! - `cargo bench -p bench --bench tls`: the same operations under criterion;
//! - `cargo run --release -p bench --bin tls-conn`: memory per connection (object size, the
//!   buffers Halite's caller lends, and heap counted per side by a counting global allocator,
//!   which is why it is a binary of its own) and handshakes per second with one thread and
//!   with two threads at once (one connection pair per thread), to show scaling.
//!
//! `cargo run --release -p bench --bin tls-loopback` takes them over real loopback TCP: Halite's,
//! rustls's and OpenSSL's clients against `openssl s_server`, and OpenSSL's client against
//! Halite's server — seconds per 200 handshakes and per 256 MiB written and read.
#![warn(missing_docs)]
// Measurement code turns counts and durations into floating-point rates and back.
#![allow(clippy::cast_precision_loss, clippy::cast_sign_loss, clippy::cast_possible_wrap)]

pub mod check;
pub mod compare;
pub mod libs;
pub mod measure;
pub mod openssl;
pub mod ops;
pub mod plot;
pub mod report;
pub mod stats;
pub mod system;

pub use libs::Library;
pub use ops::{Op, Runner, Unit, registry};
