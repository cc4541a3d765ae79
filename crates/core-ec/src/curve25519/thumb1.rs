//! Scaffolding for the Cortex-M0 field's Thumb-1 squaring until the field itself lands: the
//! module and a hidden hook through which the firmware checks test it.

mod square_karatsuba;

/// The squaring, reachable from the `m0-kat` firmware's checks (not a public API).
#[doc(hidden)]
pub mod __m0_test {
    /// The full 512-bit square of a 256-bit value (eight little-endian 32-bit words); one
    /// copy, however many checks call it.
    #[inline(never)]
    pub fn square(a: &[u32; 8]) -> [u32; 16] {
        super::square_karatsuba::square(a)
    }
}
