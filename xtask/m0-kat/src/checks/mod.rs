//! The check registry: one list of named checks per crate under test, run in order by
//! [`crate::run_all`].
//!
//! Each module exports `CHECKS: &[Check]`. Adding a crate is a two-line change here — declare
//! its module (`mod hash;`) and append its list to [`SUITES`] (`hash::CHECKS`) — plus the
//! module file itself and the dependency in `Cargo.toml` (with `default-features = false`, as
//! the firmware has no std).

use core::fmt;

mod aead;
mod cpu;
mod ec25519;
mod harness;
mod hash;
mod inject;
mod mldsa;
mod mlkem;
mod nist;
mod rsa;

/// Every crate's checks, in run order: the harness self-test first, so a broken runtime shows
/// up before any primitive is blamed.
const SUITES: &[&[Check]] = &[
    harness::CHECKS,
    cpu::CHECKS,
    hash::CHECKS,
    aead::CHECKS,
    ec25519::CHECKS,
    nist::CHECKS,
    rsa::CHECKS,
    mlkem::CHECKS,
    mldsa::CHECKS,
    inject::CHECKS,
];

/// One named known-answer or property check.
pub(crate) struct Check {
    /// `crate::what`, printed on the check's line.
    pub(crate) name: &'static str,
    /// Runs the check; the error is the reason printed after `FAIL`.
    pub(crate) run: fn() -> Result<(), &'static str>,
}

/// Every registered check, in run order.
pub(crate) fn all() -> impl Iterator<Item = &'static Check> {
    SUITES.iter().flat_map(|suite| suite.iter())
}

/// `Ok(())` if `condition` holds, otherwise `Err(reason)`; for chaining with `?`.
pub(crate) fn ensure(condition: bool, reason: &'static str) -> Result<(), &'static str> {
    if condition { Ok(()) } else { Err(reason) }
}

/// A fixed-capacity text buffer, for checking `Display` output without an allocator.
pub(crate) struct TextBuf<const N: usize> {
    bytes: [u8; N],
    len: usize,
}

impl<const N: usize> TextBuf<N> {
    /// An empty buffer.
    pub(crate) const fn new() -> Self {
        Self { bytes: [0; N], len: 0 }
    }

    /// Formats `value` into a fresh buffer; `None` if it does not fit.
    pub(crate) fn display(value: &dyn fmt::Display) -> Option<Self> {
        let mut buf = Self::new();
        fmt::write(&mut buf, format_args!("{value}")).ok()?;
        Some(buf)
    }

    /// The text written so far.
    pub(crate) fn as_str(&self) -> &str {
        // Only whole `&str`s are ever appended within capacity, so this cannot fail; the empty
        // string is a fallback that keeps a panic path out of the firmware.
        self.bytes.get(..self.len).and_then(|b| core::str::from_utf8(b).ok()).unwrap_or("")
    }
}

impl<const N: usize> fmt::Write for TextBuf<N> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len.checked_add(s.len()).ok_or(fmt::Error)?;
        self.bytes.get_mut(self.len..end).ok_or(fmt::Error)?.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}
