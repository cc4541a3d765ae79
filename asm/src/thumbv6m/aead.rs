//! Thumb-1 (Cortex-M0) kernels for core-aead.
