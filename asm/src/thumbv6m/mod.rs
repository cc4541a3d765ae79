//! Thumb-1 kernels (ARMv6-M: Cortex-M0/M0+, and every later Arm core that runs Thumb), by the
//! crate they serve.

pub mod aead;
pub mod ec;
pub mod hash;
pub mod lattice;
pub mod rsa;
