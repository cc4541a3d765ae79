//! Arithmetic for the NIST prime curves P-256, P-384 and P-521: filled in by the NIST-curve work.

use core_hash::Registered;

/// This module's rows of the crate registry.
pub(crate) fn implementations() -> impl Iterator<Item = Registered> {
    core::iter::empty()
}
