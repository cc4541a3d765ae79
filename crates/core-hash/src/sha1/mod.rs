//! SHA-1 (FIPS 180-4 §6.1). Broken for collision resistance: here only to read old
//! certificates and formats; never use it to sign. Backends:
//!
//! - [`portable`]: 32-bit integer code;
//! - [`x86_shani`]: the x86 SHA extensions (`sha1rnds4`);
//! - [`aarch64`]: the Armv8 SHA-1 instructions (`sha1c`, `sha1p`, `sha1m`).

#[cfg(target_arch = "aarch64")]
mod aarch64;
mod portable;
#[cfg(target_arch = "x86_64")]
mod x86_shani;

use crate::Implementation;

/// A SHA-1 implementation. Accelerated variants carry the CPU-feature token that proves they
/// can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Sha1Impl {
    /// Portable 32-bit code with a 16-word rolling schedule.
    Portable,
    /// x86 SHA extensions.
    X86Shani(core_cpu::Sha),
    /// Armv8 SHA-1 instructions.
    Aarch64(core_cpu::ArmSha2),
}

impl Implementation for Sha1Impl {
    const ALL: &'static [&'static str] = &["x86_shani", "aarch64", "portable"];

    fn name(self) -> &'static str {
        match self {
            Self::Portable => "portable",
            Self::X86Shani(_) => "x86_shani",
            Self::Aarch64(_) => "aarch64",
        }
    }

    fn best() -> Self {
        Self::available().next().unwrap_or(Self::Portable)
    }

    fn available() -> impl Iterator<Item = Self> {
        let cpu = core_cpu::detected();
        [
            core_cpu::Sha::from_features(cpu).map(Self::X86Shani),
            core_cpu::ArmSha2::from_features(cpu).map(Self::Aarch64),
            Some(Self::Portable),
        ]
        .into_iter()
        .flatten()
    }
}

impl Sha1Impl {
    /// Runs the compression function over `blocks`, in order.
    #[inline]
    pub(crate) fn compress(self, state: &mut [u32; 5], blocks: &[[u8; 64]]) {
        match self {
            #[cfg(target_arch = "x86_64")]
            Self::X86Shani(token) => x86_shani::compress(token, state, blocks),
            #[cfg(target_arch = "aarch64")]
            Self::Aarch64(token) => aarch64::compress(token, state, blocks),
            // Tokens for another architecture cannot be obtained, so only `Portable` is left.
            _ => portable::compress(state, blocks),
        }
    }
}

/// The SHA-1 round constants, one per group of 20 rounds (FIPS 180-4 §4.2.1).
pub(crate) const K: [u32; 4] = [0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6];

crate::md::md_hash! {
    /// SHA-1 (FIPS 180-4). Legacy: collisions are practical.
    Sha1, Sha1Impl, u32, 64, 5, 20, true,
    [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0]
}
