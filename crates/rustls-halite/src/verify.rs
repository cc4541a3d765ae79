//! Signature verification for certificates and handshake signatures, as the
//! [`WebPkiSupportedAlgorithms`] table rustls and webpki consult. The verifiers are
//! `webpki-halite`'s (re-exported here; Halite's own `tls` uses the same ones): Ed25519 and
//! ECDSA P-256/P-384/P-521 from `core-ec`, RSA PKCS#1 v1.5 and PSS (2048 to 8192-bit moduli)
//! from `core-rsa`, ML-DSA (FIPS 204, RFC 9881 keys, TLS 1.3 only) from `core-lattice`.

use rustls::SignatureScheme;
use rustls::crypto::WebPkiSupportedAlgorithms;
pub use webpki_halite::{
    ECDSA_P256_SHA256, ECDSA_P256_SHA384, ECDSA_P256_SHA512, ECDSA_P384_SHA256, ECDSA_P384_SHA384,
    ECDSA_P384_SHA512, ECDSA_P521_SHA256, ECDSA_P521_SHA384, ECDSA_P521_SHA512, ED25519, ML_DSA_44,
    ML_DSA_65, ML_DSA_87, RSA_PKCS1_SHA256, RSA_PKCS1_SHA256_ABSENT_PARAMS, RSA_PKCS1_SHA384,
    RSA_PKCS1_SHA384_ABSENT_PARAMS, RSA_PKCS1_SHA512, RSA_PKCS1_SHA512_ABSENT_PARAMS,
    RSA_PSS_SHA256, RSA_PSS_SHA384, RSA_PSS_SHA512,
};

/// Every verifier of `webpki-halite`, and which handshake signature schemes each verifies, in order of
/// preference (the order rustls advertises): ECDSA, Ed25519, RSA-PSS, PKCS#1 v1.5 (which
/// rustls offers only for TLS 1.2 handshakes), then ML-DSA (TLS 1.3 only, as rustls keeps
/// it).
pub static SUPPORTED_SIG_ALGS: WebPkiSupportedAlgorithms = WebPkiSupportedAlgorithms {
    all: &[
        ECDSA_P256_SHA256,
        ECDSA_P256_SHA384,
        ECDSA_P256_SHA512,
        ECDSA_P384_SHA256,
        ECDSA_P384_SHA384,
        ECDSA_P384_SHA512,
        ECDSA_P521_SHA256,
        ECDSA_P521_SHA384,
        ECDSA_P521_SHA512,
        ED25519,
        RSA_PSS_SHA256,
        RSA_PSS_SHA384,
        RSA_PSS_SHA512,
        RSA_PKCS1_SHA256,
        RSA_PKCS1_SHA384,
        RSA_PKCS1_SHA512,
        RSA_PKCS1_SHA256_ABSENT_PARAMS,
        RSA_PKCS1_SHA384_ABSENT_PARAMS,
        RSA_PKCS1_SHA512_ABSENT_PARAMS,
        ML_DSA_44,
        ML_DSA_65,
        ML_DSA_87,
    ],
    // In TLS 1.2 the curve is not fixed by the scheme, so each ECDSA scheme lists every curve;
    // TLS 1.3 tries only the first, whose curve matches the scheme.
    mapping: &[
        (
            SignatureScheme::ECDSA_NISTP384_SHA384,
            &[ECDSA_P384_SHA384, ECDSA_P256_SHA384, ECDSA_P521_SHA384],
        ),
        (
            SignatureScheme::ECDSA_NISTP256_SHA256,
            &[ECDSA_P256_SHA256, ECDSA_P384_SHA256, ECDSA_P521_SHA256],
        ),
        (
            SignatureScheme::ECDSA_NISTP521_SHA512,
            &[ECDSA_P521_SHA512, ECDSA_P256_SHA512, ECDSA_P384_SHA512],
        ),
        (SignatureScheme::ED25519, &[ED25519]),
        (SignatureScheme::RSA_PSS_SHA512, &[RSA_PSS_SHA512]),
        (SignatureScheme::RSA_PSS_SHA384, &[RSA_PSS_SHA384]),
        (SignatureScheme::RSA_PSS_SHA256, &[RSA_PSS_SHA256]),
        (SignatureScheme::RSA_PKCS1_SHA512, &[RSA_PKCS1_SHA512]),
        (SignatureScheme::RSA_PKCS1_SHA384, &[RSA_PKCS1_SHA384]),
        (SignatureScheme::RSA_PKCS1_SHA256, &[RSA_PKCS1_SHA256]),
        (SignatureScheme::ML_DSA_44, &[ML_DSA_44]),
        (SignatureScheme::ML_DSA_65, &[ML_DSA_65]),
        (SignatureScheme::ML_DSA_87, &[ML_DSA_87]),
    ],
};
