//! Halite side by side with its peers — ring, aws-lc-rs, graviola, the RustCrypto crates and
//! OpenSSL — in one run on one machine: the registry of operations every measurement reads,
//! the agreement check run before measuring, the measuring loop, and the reports.
//!
//! Two front ends use it: the `speed` tool (`cargo run --release -p bench --bin speed`), a
//! comparative `openssl speed`, and the criterion benches (`cargo bench -p bench`).
#![warn(missing_docs)]
// Measurement code turns counts and durations into floating-point rates and back.
#![allow(clippy::cast_precision_loss, clippy::cast_sign_loss, clippy::cast_possible_wrap)]

pub mod check;
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
