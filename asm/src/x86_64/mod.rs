//! `x86_64` kernels, by the crate they serve.

pub mod aead;
pub mod ec;
pub mod hash;
pub mod rsa;
