//! [`declassify`]: marks a value that is public by design although computed from secrets (a
//! tag verdict, a public key derived from a private one, whether a shared secret is zero), so
//! that the constant-time check (`cargo xtask ct`, valgrind's memcheck with secrets marked
//! undefined) does not report the branch that acts on it — as BoringSSL's
//! `CONSTTIME_DECLASSIFY`. Without the `ct-check` feature, or off `x86_64`, it is the identity
//! and compiles to nothing; with it, it is one memcheck client request, which natively only
//! rotates a register by 128 bits and swaps `rbx` with itself.
//!
//! [`value_barrier`]: hides a secret word from the optimiser on Arm, so that a carry or borrow
//! taken from it stays arithmetic instead of becoming a branch on Thumb-1 (checked on the
//! Cortex-M0 firmware by `cargo xtask m0`'s `ct-scan` stage).

/// `value`, declared public: see the module documentation. Call it only on what a protocol
/// reveals anyway (a verdict, a public key), right where the secret-derived value becomes
/// public, never on a secret.
#[inline(always)]
#[must_use]
pub fn declassify<T: Copy>(value: T) -> T {
    #[cfg(all(feature = "ct-check", target_arch = "x86_64"))]
    let value = core_asm::valgrind::declassify(value);
    value
}

/// `x`, through a value barrier the optimiser cannot see through, on Arm; elsewhere `x`
/// unchanged: [`core_asm::ct::value_barrier_u32`], which says why.
#[inline(always)]
#[must_use]
pub fn value_barrier(x: u32) -> u32 {
    core_asm::ct::value_barrier_u32(x)
}

#[cfg(test)]
mod tests {
    /// Natively (with or without the feature) a declassified value is unchanged.
    #[test]
    fn value_barrier_is_the_identity() {
        for x in [0, 1, 0x8000_0000, u32::MAX, 0x1234_5678] {
            assert_eq!(super::value_barrier(x), x);
        }
    }

    #[test]
    fn declassify_is_the_identity_natively() {
        assert_eq!(super::declassify(0x1234_5678_u32), 0x1234_5678);
        assert!(super::declassify(true));
        assert_eq!(super::declassify([7u8; 33]), [7u8; 33]);
    }
}
