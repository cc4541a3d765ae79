#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::sync::Arc;

use pki_types::PrivateKeyDer;
use rustls::crypto::{
    CryptoProvider, GetRandomFailed, KeyProvider, SecureRandom, SupportedKxGroup,
};
use rustls::sign::SigningKey;
use rustls::{Error, SupportedCipherSuite};

mod aead;
mod hash;
mod hkdf;
pub mod hpke;
mod kx;
mod prf;
mod quic;
pub mod sign;
mod suites;
mod ticketer;
pub mod verify;

pub use ticketer::Ticketer;

/// Every cipher suite this provider implements, by name.
pub mod cipher_suite {
    pub use crate::suites::{
        TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
        TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256, TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
        TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
        TLS13_AES_128_CCM_8_SHA256, TLS13_AES_128_CCM_SHA256, TLS13_AES_128_GCM_SHA256,
        TLS13_AES_256_GCM_SHA384, TLS13_CHACHA20_POLY1305_SHA256,
    };
}

/// Every key-exchange group this provider implements, by name.
pub mod kx_group {
    pub use crate::kx::{
        SECP256R1, SECP256R1MLKEM768, SECP384R1, SECP384R1MLKEM1024, SECP521R1, X25519,
        X25519MLKEM768,
    };
}

/// The cipher suites of [`default_provider`], most preferred first: TLS 1.3 then TLS 1.2,
/// AES-GCM before ChaCha20-Poly1305 (as rustls's own providers order them).
pub static DEFAULT_CIPHER_SUITES: &[SupportedCipherSuite] = &[
    cipher_suite::TLS13_AES_256_GCM_SHA384,
    cipher_suite::TLS13_AES_128_GCM_SHA256,
    cipher_suite::TLS13_CHACHA20_POLY1305_SHA256,
    cipher_suite::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
    cipher_suite::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
    cipher_suite::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
    cipher_suite::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
    cipher_suite::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
    cipher_suite::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
];

/// Every cipher suite this provider implements: [`DEFAULT_CIPHER_SUITES`] and the TLS 1.3
/// AES-128-CCM suites (RFC 8446 §B.4), which are off by default as in most TLS stacks.
pub static ALL_CIPHER_SUITES: &[SupportedCipherSuite] = &[
    cipher_suite::TLS13_AES_256_GCM_SHA384,
    cipher_suite::TLS13_AES_128_GCM_SHA256,
    cipher_suite::TLS13_CHACHA20_POLY1305_SHA256,
    cipher_suite::TLS13_AES_128_CCM_SHA256,
    cipher_suite::TLS13_AES_128_CCM_8_SHA256,
    cipher_suite::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
    cipher_suite::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
    cipher_suite::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
    cipher_suite::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
    cipher_suite::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
    cipher_suite::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
];

/// The key-exchange groups of [`default_provider`], most preferred first: `X25519MLKEM768`,
/// then X25519 and the NIST curves by size (as rustls's aws-lc-rs provider with
/// `prefer-post-quantum`). A rustls client sends the hybrid's share and, with the same key,
/// an X25519 one.
pub static DEFAULT_KX_GROUPS: &[&dyn SupportedKxGroup] = &[
    kx_group::X25519MLKEM768,
    kx_group::X25519,
    kx_group::SECP256R1,
    kx_group::SECP384R1,
    kx_group::SECP521R1,
];

/// Every key-exchange group this provider implements: [`DEFAULT_KX_GROUPS`] and the NIST
/// hybrids `SecP256r1MLKEM768` and `SecP384r1MLKEM1024`.
pub static ALL_KX_GROUPS: &[&dyn SupportedKxGroup] = &[
    kx_group::X25519MLKEM768,
    kx_group::X25519,
    kx_group::SECP256R1,
    kx_group::SECP384R1,
    kx_group::SECP521R1,
    kx_group::SECP256R1MLKEM768,
    kx_group::SECP384R1MLKEM1024,
];

/// The provider with [`DEFAULT_CIPHER_SUITES`], [`DEFAULT_KX_GROUPS`], the verification
/// algorithms of [`verify::SUPPORTED_SIG_ALGS`], OS randomness (through
/// `core_hash::PooledOsRandom`: one system call serves a handshake or more) and [`sign`]'s key loader.
pub fn default_provider() -> CryptoProvider {
    CryptoProvider {
        cipher_suites: DEFAULT_CIPHER_SUITES.to_vec(),
        kx_groups: DEFAULT_KX_GROUPS.to_vec(),
        signature_verification_algorithms: verify::SUPPORTED_SIG_ALGS,
        secure_random: &Halite,
        key_provider: &Halite,
    }
}

/// The provider's randomness and key loading (`fips()` is false: Halite is not validated).
#[derive(Debug)]
struct Halite;

impl SecureRandom for Halite {
    fn fill(&self, buf: &mut [u8]) -> Result<(), GetRandomFailed> {
        use core_hash::RandomSource;
        core_hash::PooledOsRandom.fill(buf).map_err(|_| GetRandomFailed)
    }
}

impl KeyProvider for Halite {
    fn load_private_key(
        &self,
        key_der: PrivateKeyDer<'static>,
    ) -> Result<Arc<dyn SigningKey>, Error> {
        sign::any_supported_type(&key_der)
    }
}
