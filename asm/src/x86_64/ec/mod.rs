//! `x86_64` kernels for core-ec: the BMI2/ADX fields and point formulas of Curve25519, P-256
//! and P-384, and the safegcd division steps on conditional moves.

pub mod curve25519_adx;
pub mod p256_adx;
pub mod p384_adx;
pub mod safegcd;
