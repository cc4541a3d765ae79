//! x25519: filled in by the Curve25519 work.
