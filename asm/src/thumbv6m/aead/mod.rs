//! Thumb-1 (Cortex-M0) kernels for core-aead.

pub mod aes;
pub mod chacha20;
pub mod ghash;
pub mod poly1305;
