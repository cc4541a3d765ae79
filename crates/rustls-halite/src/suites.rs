//! The cipher suites: rustls's suite descriptions wired to Halite's hash, HKDF, PRF and
//! AEADs. Confidentiality limits follow rustls's providers (2^24 records for AES-GCM, from
//! the AEAD-limits draft; none for ChaCha20-Poly1305) and RFC 8446 §5.5 for AES-CCM.

use rustls::crypto::{CipherSuiteCommon, KeyExchangeAlgorithm};
use rustls::{
    CipherSuite, SignatureScheme, SupportedCipherSuite, Tls12CipherSuite, Tls13CipherSuite,
};

use crate::{aead, hash, hkdf, prf, quic};

/// TLS 1.3 AES-128-GCM with SHA-256.
pub static TLS13_AES_128_GCM_SHA256: SupportedCipherSuite =
    SupportedCipherSuite::Tls13(&Tls13CipherSuite {
        common: CipherSuiteCommon {
            suite: CipherSuite::TLS13_AES_128_GCM_SHA256,
            hash_provider: &hash::SHA256,
            confidentiality_limit: 1 << 24,
        },
        hkdf_provider: &hkdf::HKDF_SHA256,
        aead_alg: &aead::TLS13_AES_128_GCM,
        quic: Some(&quic::AES_128_GCM),
    });

/// TLS 1.3 AES-256-GCM with SHA-384.
pub static TLS13_AES_256_GCM_SHA384: SupportedCipherSuite =
    SupportedCipherSuite::Tls13(&Tls13CipherSuite {
        common: CipherSuiteCommon {
            suite: CipherSuite::TLS13_AES_256_GCM_SHA384,
            hash_provider: &hash::SHA384,
            confidentiality_limit: 1 << 24,
        },
        hkdf_provider: &hkdf::HKDF_SHA384,
        aead_alg: &aead::TLS13_AES_256_GCM,
        quic: Some(&quic::AES_256_GCM),
    });

/// TLS 1.3 ChaCha20-Poly1305 with SHA-256.
pub static TLS13_CHACHA20_POLY1305_SHA256: SupportedCipherSuite =
    SupportedCipherSuite::Tls13(&Tls13CipherSuite {
        common: CipherSuiteCommon {
            suite: CipherSuite::TLS13_CHACHA20_POLY1305_SHA256,
            hash_provider: &hash::SHA256,
            confidentiality_limit: u64::MAX,
        },
        hkdf_provider: &hkdf::HKDF_SHA256,
        aead_alg: &aead::TLS13_CHACHA20_POLY1305,
        quic: Some(&quic::CHACHA20_POLY1305),
    });

/// TLS 1.3 AES-128-CCM with SHA-256 (not in the defaults).
pub static TLS13_AES_128_CCM_SHA256: SupportedCipherSuite =
    SupportedCipherSuite::Tls13(&Tls13CipherSuite {
        common: CipherSuiteCommon {
            suite: CipherSuite::TLS13_AES_128_CCM_SHA256,
            hash_provider: &hash::SHA256,
            confidentiality_limit: 1 << 24,
        },
        hkdf_provider: &hkdf::HKDF_SHA256,
        aead_alg: &aead::TLS13_AES_128_CCM,
        quic: None,
    });

/// TLS 1.3 AES-128-CCM with an 8-byte tag and SHA-256 (not in the defaults: the short tag
/// is for constrained networks).
pub static TLS13_AES_128_CCM_8_SHA256: SupportedCipherSuite =
    SupportedCipherSuite::Tls13(&Tls13CipherSuite {
        common: CipherSuiteCommon {
            suite: CipherSuite::TLS13_AES_128_CCM_8_SHA256,
            hash_provider: &hash::SHA256,
            confidentiality_limit: 1 << 24,
        },
        hkdf_provider: &hkdf::HKDF_SHA256,
        aead_alg: &aead::TLS13_AES_128_CCM_8,
        quic: None,
    });

/// What an `ECDHE_ECDSA` suite's `ServerKeyExchange` may be signed with.
static TLS12_ECDSA_SCHEMES: &[SignatureScheme] = &[
    SignatureScheme::ED25519,
    SignatureScheme::ECDSA_NISTP521_SHA512,
    SignatureScheme::ECDSA_NISTP384_SHA384,
    SignatureScheme::ECDSA_NISTP256_SHA256,
];

/// What an `ECDHE_RSA` suite's `ServerKeyExchange` may be signed with. (Not `rsa_pss_pss_*`:
/// rustls keeps schemes it has no name for only when a TLS 1.3 suite is in common.)
static TLS12_RSA_SCHEMES: &[SignatureScheme] = &[
    SignatureScheme::RSA_PSS_SHA512,
    SignatureScheme::RSA_PSS_SHA384,
    SignatureScheme::RSA_PSS_SHA256,
    SignatureScheme::RSA_PKCS1_SHA512,
    SignatureScheme::RSA_PKCS1_SHA384,
    SignatureScheme::RSA_PKCS1_SHA256,
];

macro_rules! tls12_suite {
    ($(#[$doc:meta])* $name:ident, $hash:ident, $prf:ident, $sign:ident, $aead:ident, $limit:expr) => {
        $(#[$doc])*
        pub static $name: SupportedCipherSuite = SupportedCipherSuite::Tls12(&Tls12CipherSuite {
            common: CipherSuiteCommon {
                suite: CipherSuite::$name,
                hash_provider: &hash::$hash,
                confidentiality_limit: $limit,
            },
            kx: KeyExchangeAlgorithm::ECDHE,
            sign: $sign,
            aead_alg: &aead::$aead,
            prf_provider: &prf::$prf,
        });
    };
}

tls12_suite!(
    /// TLS 1.2 `ECDHE_ECDSA` with AES-128-GCM and SHA-256.
    TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, SHA256, PRF_SHA256, TLS12_ECDSA_SCHEMES,
    TLS12_AES_128_GCM, 1 << 24
);
tls12_suite!(
    /// TLS 1.2 `ECDHE_ECDSA` with AES-256-GCM and SHA-384.
    TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, SHA384, PRF_SHA384, TLS12_ECDSA_SCHEMES,
    TLS12_AES_256_GCM, 1 << 24
);
tls12_suite!(
    /// TLS 1.2 `ECDHE_ECDSA` with ChaCha20-Poly1305 and SHA-256.
    TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256, SHA256, PRF_SHA256, TLS12_ECDSA_SCHEMES,
    TLS12_CHACHA20_POLY1305, u64::MAX
);
tls12_suite!(
    /// TLS 1.2 `ECDHE_RSA` with AES-128-GCM and SHA-256.
    TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, SHA256, PRF_SHA256, TLS12_RSA_SCHEMES,
    TLS12_AES_128_GCM, 1 << 24
);
tls12_suite!(
    /// TLS 1.2 `ECDHE_RSA` with AES-256-GCM and SHA-384.
    TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, SHA384, PRF_SHA384, TLS12_RSA_SCHEMES,
    TLS12_AES_256_GCM, 1 << 24
);
tls12_suite!(
    /// TLS 1.2 `ECDHE_RSA` with ChaCha20-Poly1305 and SHA-256.
    TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256, SHA256, PRF_SHA256, TLS12_RSA_SCHEMES,
    TLS12_CHACHA20_POLY1305, u64::MAX
);
