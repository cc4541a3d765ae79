//! `x86_64` kernels for core-hash.
