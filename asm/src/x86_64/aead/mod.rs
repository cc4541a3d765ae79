//! `x86_64` kernels for core-aead.

pub mod cbc_hmac;
pub mod chacha20;
pub mod gcm;
pub mod poly1305;
