//! The cipher suites of the provider table, each tying a wire code point to a hash and an
//! AEAD: `core-aead`'s by default, or a user's [`RecordAead`] ([`AeadAlg::Custom`]). A
//! configuration picks, orders or replaces entries (see [`crate::provider`]).

use crate::compiled::{compiled_in, count};
use crate::key_schedule::HashAlg;
use crate::msgs::CipherSuite;
use crate::provider::RecordAead;

/// The TLS 1.2 suites (ECDHE with AEAD records) and the families refused, not yet wired into a
/// connection.
#[doc(hidden)]
#[cfg(feature = "tls12")]
pub mod tls12;

/// The AEAD a suite protects records with.
#[derive(Clone, Copy)]
pub enum AeadAlg {
    /// AES-128-GCM.
    Aes128Gcm,
    /// AES-256-GCM.
    Aes256Gcm,
    /// ChaCha20-Poly1305.
    ChaCha20Poly1305,
    /// AES-128-CCM with a 16-byte tag.
    Aes128Ccm,
    /// AES-128-CCM with an 8-byte tag.
    Aes128Ccm8,
    /// A user's implementation, keyed on every call (see [`RecordAead`]).
    Custom(&'static dyn RecordAead),
}

impl AeadAlg {
    /// Key length in bytes.
    pub fn key_len(self) -> usize {
        match self {
            Self::Aes256Gcm | Self::ChaCha20Poly1305 => 32,
            Self::Aes128Gcm | Self::Aes128Ccm | Self::Aes128Ccm8 => 16,
            Self::Custom(a) => a.key_len(),
        }
    }

    /// Tag length in bytes.
    pub fn tag_len(self) -> usize {
        match self {
            Self::Aes128Ccm8 => 8,
            Self::Custom(a) => a.tag_len(),
            _ => 16,
        }
    }
}

impl core::fmt::Debug for AeadAlg {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Aes128Gcm => f.write_str("Aes128Gcm"),
            Self::Aes256Gcm => f.write_str("Aes256Gcm"),
            Self::ChaCha20Poly1305 => f.write_str("ChaCha20Poly1305"),
            Self::Aes128Ccm => f.write_str("Aes128Ccm"),
            Self::Aes128Ccm8 => f.write_str("Aes128Ccm8"),
            Self::Custom(a) => f.debug_tuple("Custom").field(a).finish(),
        }
    }
}

/// Built-in AEADs are equal by kind, custom ones when they are the same object.
impl PartialEq for AeadAlg {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Self::Custom(a), Self::Custom(b)) => core::ptr::addr_eq(*a, *b),
            (Self::Custom(_), _) | (_, Self::Custom(_)) => false,
            _ => core::mem::discriminant(self) == core::mem::discriminant(other),
        }
    }
}

impl Eq for AeadAlg {}

/// A TLS 1.3 cipher suite: its code point, hash and AEAD.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Suite {
    /// The wire value.
    pub suite: CipherSuite,
    /// The hash for the key schedule and transcript.
    pub hash: HashAlg,
    /// The record AEAD.
    pub aead: AeadAlg,
}

impl Suite {
    /// The IANA name of the code point, e.g. `TLS_AES_128_GCM_SHA256` (`"unknown"` for one
    /// outside RFC 8446's five).
    pub const fn iana_name(&self) -> &'static str {
        match self.suite {
            CipherSuite::TLS13_AES_128_GCM_SHA256 => "TLS_AES_128_GCM_SHA256",
            CipherSuite::TLS13_AES_256_GCM_SHA384 => "TLS_AES_256_GCM_SHA384",
            CipherSuite::TLS13_CHACHA20_POLY1305_SHA256 => "TLS_CHACHA20_POLY1305_SHA256",
            CipherSuite::TLS13_AES_128_CCM_SHA256 => "TLS_AES_128_CCM_SHA256",
            CipherSuite::TLS13_AES_128_CCM_8_SHA256 => "TLS_AES_128_CCM_8_SHA256",
            _ => "unknown",
        }
    }
}

/// The suite among [`ALL_SUITES`] with this IANA name.
pub fn by_name(name: &str) -> Option<Suite> {
    ALL_SUITES.iter().copied().find(|s| s.iana_name() == name)
}

/// `TLS_AES_128_GCM_SHA256`.
pub const TLS13_AES_128_GCM_SHA256: Suite = Suite {
    suite: CipherSuite::TLS13_AES_128_GCM_SHA256,
    hash: HashAlg::Sha256,
    aead: AeadAlg::Aes128Gcm,
};
/// `TLS_AES_256_GCM_SHA384`.
pub const TLS13_AES_256_GCM_SHA384: Suite = Suite {
    suite: CipherSuite::TLS13_AES_256_GCM_SHA384,
    hash: HashAlg::Sha384,
    aead: AeadAlg::Aes256Gcm,
};
/// `TLS_CHACHA20_POLY1305_SHA256`.
pub const TLS13_CHACHA20_POLY1305_SHA256: Suite = Suite {
    suite: CipherSuite::TLS13_CHACHA20_POLY1305_SHA256,
    hash: HashAlg::Sha256,
    aead: AeadAlg::ChaCha20Poly1305,
};
/// `TLS_AES_128_CCM_SHA256`.
pub const TLS13_AES_128_CCM_SHA256: Suite = Suite {
    suite: CipherSuite::TLS13_AES_128_CCM_SHA256,
    hash: HashAlg::Sha256,
    aead: AeadAlg::Aes128Ccm,
};
/// `TLS_AES_128_CCM_8_SHA256` (its short tag makes it off by default).
pub const TLS13_AES_128_CCM_8_SHA256: Suite = Suite {
    suite: CipherSuite::TLS13_AES_128_CCM_8_SHA256,
    hash: HashAlg::Sha256,
    aead: AeadAlg::Aes128Ccm8,
};

/// Every suite this crate implements, the default ones first in order of preference, and
/// whether this build has its AEAD (the features `aes-gcm`, `chacha20`, `aes-ccm`).
const SUITES: [(Suite, bool); 5] = [
    (TLS13_AES_128_GCM_SHA256, cfg!(feature = "aes-gcm")),
    (TLS13_AES_256_GCM_SHA384, cfg!(feature = "aes-gcm")),
    (TLS13_CHACHA20_POLY1305_SHA256, cfg!(feature = "chacha20")),
    (TLS13_AES_128_CCM_SHA256, cfg!(feature = "aes-ccm")),
    (TLS13_AES_128_CCM_8_SHA256, cfg!(feature = "aes-ccm")),
];

/// `SUITES[..DEFAULT_END]` are on by default (CCM_8's short tag leaves it out).
const DEFAULT_END: usize = 4;
const DEFAULT: [Suite; count(SUITES.split_at(DEFAULT_END).0)] =
    compiled_in(SUITES.split_at(DEFAULT_END).0, TLS13_AES_128_GCM_SHA256);
const ALL: [Suite; count(&SUITES)] = compiled_in(&SUITES, TLS13_AES_128_GCM_SHA256);

/// The suites offered and accepted by default, in order of preference (of those whose AEAD
/// this build has).
pub const DEFAULT_SUITES: &[Suite] = &DEFAULT;

/// Every suite this build implements.
pub const ALL_SUITES: &[Suite] = &ALL;

/// Whether this build has `aead` (a user's [`AeadAlg::Custom`] always).
pub fn is_built_in(aead: AeadAlg) -> bool {
    match aead {
        AeadAlg::Aes128Gcm | AeadAlg::Aes256Gcm => cfg!(feature = "aes-gcm"),
        AeadAlg::ChaCha20Poly1305 => cfg!(feature = "chacha20"),
        AeadAlg::Aes128Ccm | AeadAlg::Aes128Ccm8 => cfg!(feature = "aes-ccm"),
        AeadAlg::Custom(_) => true,
    }
}

/// The suite with this code point among `suites`.
pub fn find(suites: &[Suite], code: CipherSuite) -> Option<Suite> {
    suites.iter().copied().find(|s| s.suite == code)
}
