//! Signature verification for certificates and handshake signatures, as the
//! [`WebPkiSupportedAlgorithms`] table rustls and webpki consult: Ed25519 and ECDSA from
//! `core-ec`, RSA PKCS#1 v1.5 and PSS (2048 to 8192-bit moduli) from `core-rsa`, ML-DSA
//! (FIPS 204, RFC 9881 keys, TLS 1.3 only) from `core-lattice`.

use pki_types::{AlgorithmIdentifier, InvalidSignature, SignatureVerificationAlgorithm, alg_id};
use rustls::SignatureScheme;
use rustls::crypto::WebPkiSupportedAlgorithms;

/// Ed25519 (RFC 8032, keys and signatures per RFC 8410).
#[derive(Debug)]
struct Ed25519;

impl SignatureVerificationAlgorithm for Ed25519 {
    fn verify_signature(
        &self,
        public_key: &[u8],
        message: &[u8],
        signature: &[u8],
    ) -> Result<(), InvalidSignature> {
        let key =
            core_ec::ed25519::VerifyingKey::from_slice(public_key).map_err(|_| InvalidSignature)?;
        let sig =
            core_ec::ed25519::Signature::from_slice(signature).map_err(|_| InvalidSignature)?;
        key.verify(message, &sig).map_err(|_| InvalidSignature)
    }

    fn public_key_alg_id(&self) -> AlgorithmIdentifier {
        alg_id::ED25519
    }

    fn signature_alg_id(&self) -> AlgorithmIdentifier {
        alg_id::ED25519
    }
}

/// An ML-DSA parameter set.
#[derive(Clone, Copy, Debug)]
enum MlDsaLevel {
    MlDsa44,
    MlDsa65,
    MlDsa87,
}

/// Pure ML-DSA with the empty context, as certificates (RFC 9881 §3) and TLS 1.3
/// `CertificateVerify` (draft-ietf-tls-mldsa) sign.
#[derive(Debug)]
struct MlDsa(MlDsaLevel);

impl SignatureVerificationAlgorithm for MlDsa {
    fn verify_signature(
        &self,
        public_key: &[u8],
        message: &[u8],
        signature: &[u8],
    ) -> Result<(), InvalidSignature> {
        use core_lattice::{mldsa44, mldsa65, mldsa87};
        match self.0 {
            MlDsaLevel::MlDsa44 => mldsa44::VerifyingKey::from_bytes(public_key)
                .and_then(|k| k.verify(message, &[], &mldsa44::Signature::from_bytes(signature)?)),
            MlDsaLevel::MlDsa65 => mldsa65::VerifyingKey::from_bytes(public_key)
                .and_then(|k| k.verify(message, &[], &mldsa65::Signature::from_bytes(signature)?)),
            MlDsaLevel::MlDsa87 => mldsa87::VerifyingKey::from_bytes(public_key)
                .and_then(|k| k.verify(message, &[], &mldsa87::Signature::from_bytes(signature)?)),
        }
        .map_err(|_| InvalidSignature)
    }

    fn public_key_alg_id(&self) -> AlgorithmIdentifier {
        match self.0 {
            MlDsaLevel::MlDsa44 => alg_id::ML_DSA_44,
            MlDsaLevel::MlDsa65 => alg_id::ML_DSA_65,
            MlDsaLevel::MlDsa87 => alg_id::ML_DSA_87,
        }
    }

    fn signature_alg_id(&self) -> AlgorithmIdentifier {
        self.public_key_alg_id()
    }
}

/// The hash under a signature.
#[derive(Clone, Copy, Debug)]
enum SigHash {
    Sha256,
    Sha384,
    Sha512,
}

impl SigHash {
    /// The hash as `core-hash` names it.
    const fn alg(self) -> core_hash::HashAlg {
        match self {
            Self::Sha256 => core_hash::HashAlg::Sha256,
            Self::Sha384 => core_hash::HashAlg::Sha384,
            Self::Sha512 => core_hash::HashAlg::Sha512,
        }
    }
}

/// A NIST curve.
#[derive(Clone, Copy, Debug)]
enum Curve {
    P256,
    P384,
    P521,
}

/// ECDSA with a DER `Ecdsa-Sig-Value` (RFC 5480 keys, RFC 5758 signature identifiers).
#[derive(Debug)]
struct Ecdsa {
    curve: Curve,
    hash: SigHash,
}

impl SignatureVerificationAlgorithm for Ecdsa {
    fn verify_signature(
        &self,
        public_key: &[u8],
        message: &[u8],
        signature: &[u8],
    ) -> Result<(), InvalidSignature> {
        let digest = self.hash.alg().digest(message);
        let digest = digest.as_ref();
        macro_rules! check {
            ($curve:ident) => {{
                let key = core_ec::$curve::PublicKey::from_sec1_bytes(public_key)
                    .map_err(|_| InvalidSignature)?;
                let sig = core_ec::$curve::Signature::from_der(signature)
                    .map_err(|_| InvalidSignature)?;
                key.verify_prehash(digest, &sig).map_err(|_| InvalidSignature)
            }};
        }
        match self.curve {
            Curve::P256 => check!(p256),
            Curve::P384 => check!(p384),
            Curve::P521 => check!(p521),
        }
    }

    fn public_key_alg_id(&self) -> AlgorithmIdentifier {
        match self.curve {
            Curve::P256 => alg_id::ECDSA_P256,
            Curve::P384 => alg_id::ECDSA_P384,
            Curve::P521 => alg_id::ECDSA_P521,
        }
    }

    fn signature_alg_id(&self) -> AlgorithmIdentifier {
        match self.hash {
            SigHash::Sha256 => alg_id::ECDSA_SHA256,
            SigHash::Sha384 => alg_id::ECDSA_SHA384,
            SigHash::Sha512 => alg_id::ECDSA_SHA512,
        }
    }
}

/// The RSA padding a verifier checks.
#[derive(Clone, Copy, Debug)]
enum RsaPadding {
    /// PKCS#1 v1.5, identified with NULL parameters (RFC 4055 §5, the usual form).
    Pkcs1,
    /// PKCS#1 v1.5, identified with the parameters absent (seen in the wild; webpki has both).
    Pkcs1AbsentParams,
    /// PSS with MGF1 over the same hash and a salt as long as the hash (RFC 8446 §4.2.3).
    Pss,
}

/// The smallest and largest RSA moduli accepted, in bits.
const RSA_BITS: core::ops::RangeInclusive<usize> = 2048..=8192;

/// RSA signatures by rsaEncryption keys (PKCS#1 `RSAPublicKey`).
#[derive(Debug)]
struct Rsa {
    hash: SigHash,
    padding: RsaPadding,
}

/// sha{256,384,512}WithRSAEncryption without parameters (1.2.840.113549.1.1.{11,12,13}).
const fn pkcs1_absent(last: u8) -> AlgorithmIdentifier {
    match last {
        0x0b => AlgorithmIdentifier::from_slice(&[
            0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0b,
        ]),
        0x0c => AlgorithmIdentifier::from_slice(&[
            0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0c,
        ]),
        _ => AlgorithmIdentifier::from_slice(&[
            0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0d,
        ]),
    }
}

impl SignatureVerificationAlgorithm for Rsa {
    fn verify_signature(
        &self,
        public_key: &[u8],
        message: &[u8],
        signature: &[u8],
    ) -> Result<(), InvalidSignature> {
        let key = core_rsa::PublicKey::from_pkcs1_der(public_key).map_err(|_| InvalidSignature)?;
        if !RSA_BITS.contains(&key.bits()) {
            return Err(InvalidSignature);
        }
        let hash = self.hash.alg();
        match self.padding {
            RsaPadding::Pss => key.verify_pss(
                core_rsa::Pss::with_salt_len(hash, hash.output_len()),
                message,
                signature,
            ),
            RsaPadding::Pkcs1 | RsaPadding::Pkcs1AbsentParams => {
                key.verify_pkcs1v15(hash, message, signature)
            }
        }
        .map_err(|_| InvalidSignature)
    }

    fn public_key_alg_id(&self) -> AlgorithmIdentifier {
        alg_id::RSA_ENCRYPTION
    }

    fn signature_alg_id(&self) -> AlgorithmIdentifier {
        match (self.padding, self.hash) {
            (RsaPadding::Pkcs1, SigHash::Sha256) => alg_id::RSA_PKCS1_SHA256,
            (RsaPadding::Pkcs1, SigHash::Sha384) => alg_id::RSA_PKCS1_SHA384,
            (RsaPadding::Pkcs1, SigHash::Sha512) => alg_id::RSA_PKCS1_SHA512,
            (RsaPadding::Pkcs1AbsentParams, SigHash::Sha256) => pkcs1_absent(0x0b),
            (RsaPadding::Pkcs1AbsentParams, SigHash::Sha384) => pkcs1_absent(0x0c),
            (RsaPadding::Pkcs1AbsentParams, SigHash::Sha512) => pkcs1_absent(0x0d),
            (RsaPadding::Pss, SigHash::Sha256) => alg_id::RSA_PSS_SHA256,
            (RsaPadding::Pss, SigHash::Sha384) => alg_id::RSA_PSS_SHA384,
            (RsaPadding::Pss, SigHash::Sha512) => alg_id::RSA_PSS_SHA512,
        }
    }
}

macro_rules! algs {
    ($($(#[$doc:meta])* $name:ident = $value:expr;)*) => {
        $($(#[$doc])* pub static $name: &dyn SignatureVerificationAlgorithm = &$value;)*
    };
}

algs! {
    /// Ed25519.
    ED25519 = Ed25519;
    /// ECDSA P-256 with SHA-256.
    ECDSA_P256_SHA256 = Ecdsa { curve: Curve::P256, hash: SigHash::Sha256 };
    /// ECDSA P-256 with SHA-384.
    ECDSA_P256_SHA384 = Ecdsa { curve: Curve::P256, hash: SigHash::Sha384 };
    /// ECDSA P-256 with SHA-512.
    ECDSA_P256_SHA512 = Ecdsa { curve: Curve::P256, hash: SigHash::Sha512 };
    /// ECDSA P-384 with SHA-256.
    ECDSA_P384_SHA256 = Ecdsa { curve: Curve::P384, hash: SigHash::Sha256 };
    /// ECDSA P-384 with SHA-384.
    ECDSA_P384_SHA384 = Ecdsa { curve: Curve::P384, hash: SigHash::Sha384 };
    /// ECDSA P-384 with SHA-512.
    ECDSA_P384_SHA512 = Ecdsa { curve: Curve::P384, hash: SigHash::Sha512 };
    /// ECDSA P-521 with SHA-256.
    ECDSA_P521_SHA256 = Ecdsa { curve: Curve::P521, hash: SigHash::Sha256 };
    /// ECDSA P-521 with SHA-384.
    ECDSA_P521_SHA384 = Ecdsa { curve: Curve::P521, hash: SigHash::Sha384 };
    /// ECDSA P-521 with SHA-512.
    ECDSA_P521_SHA512 = Ecdsa { curve: Curve::P521, hash: SigHash::Sha512 };
    /// RSA PKCS#1 v1.5 with SHA-256, 2048–8192 bits.
    RSA_PKCS1_2048_8192_SHA256 = Rsa { hash: SigHash::Sha256, padding: RsaPadding::Pkcs1 };
    /// RSA PKCS#1 v1.5 with SHA-384, 2048–8192 bits.
    RSA_PKCS1_2048_8192_SHA384 = Rsa { hash: SigHash::Sha384, padding: RsaPadding::Pkcs1 };
    /// RSA PKCS#1 v1.5 with SHA-512, 2048–8192 bits.
    RSA_PKCS1_2048_8192_SHA512 = Rsa { hash: SigHash::Sha512, padding: RsaPadding::Pkcs1 };
    /// RSA PKCS#1 v1.5 with SHA-256, absent parameters, 2048–8192 bits.
    RSA_PKCS1_2048_8192_SHA256_ABSENT_PARAMS =
        Rsa { hash: SigHash::Sha256, padding: RsaPadding::Pkcs1AbsentParams };
    /// RSA PKCS#1 v1.5 with SHA-384, absent parameters, 2048–8192 bits.
    RSA_PKCS1_2048_8192_SHA384_ABSENT_PARAMS =
        Rsa { hash: SigHash::Sha384, padding: RsaPadding::Pkcs1AbsentParams };
    /// RSA PKCS#1 v1.5 with SHA-512, absent parameters, 2048–8192 bits.
    RSA_PKCS1_2048_8192_SHA512_ABSENT_PARAMS =
        Rsa { hash: SigHash::Sha512, padding: RsaPadding::Pkcs1AbsentParams };
    /// RSA-PSS with SHA-256 by an rsaEncryption key, 2048–8192 bits.
    RSA_PSS_2048_8192_SHA256_LEGACY_KEY = Rsa { hash: SigHash::Sha256, padding: RsaPadding::Pss };
    /// RSA-PSS with SHA-384 by an rsaEncryption key, 2048–8192 bits.
    RSA_PSS_2048_8192_SHA384_LEGACY_KEY = Rsa { hash: SigHash::Sha384, padding: RsaPadding::Pss };
    /// RSA-PSS with SHA-512 by an rsaEncryption key, 2048–8192 bits.
    RSA_PSS_2048_8192_SHA512_LEGACY_KEY = Rsa { hash: SigHash::Sha512, padding: RsaPadding::Pss };
    /// ML-DSA-44.
    ML_DSA_44 = MlDsa(MlDsaLevel::MlDsa44);
    /// ML-DSA-65.
    ML_DSA_65 = MlDsa(MlDsaLevel::MlDsa65);
    /// ML-DSA-87.
    ML_DSA_87 = MlDsa(MlDsaLevel::MlDsa87);
}

/// Every algorithm above, and which handshake signature schemes each verifies, in order of
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
        RSA_PSS_2048_8192_SHA256_LEGACY_KEY,
        RSA_PSS_2048_8192_SHA384_LEGACY_KEY,
        RSA_PSS_2048_8192_SHA512_LEGACY_KEY,
        RSA_PKCS1_2048_8192_SHA256,
        RSA_PKCS1_2048_8192_SHA384,
        RSA_PKCS1_2048_8192_SHA512,
        RSA_PKCS1_2048_8192_SHA256_ABSENT_PARAMS,
        RSA_PKCS1_2048_8192_SHA384_ABSENT_PARAMS,
        RSA_PKCS1_2048_8192_SHA512_ABSENT_PARAMS,
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
        (SignatureScheme::RSA_PSS_SHA512, &[RSA_PSS_2048_8192_SHA512_LEGACY_KEY]),
        (SignatureScheme::RSA_PSS_SHA384, &[RSA_PSS_2048_8192_SHA384_LEGACY_KEY]),
        (SignatureScheme::RSA_PSS_SHA256, &[RSA_PSS_2048_8192_SHA256_LEGACY_KEY]),
        (SignatureScheme::RSA_PKCS1_SHA512, &[RSA_PKCS1_2048_8192_SHA512]),
        (SignatureScheme::RSA_PKCS1_SHA384, &[RSA_PKCS1_2048_8192_SHA384]),
        (SignatureScheme::RSA_PKCS1_SHA256, &[RSA_PKCS1_2048_8192_SHA256]),
        (SignatureScheme::ML_DSA_44, &[ML_DSA_44]),
        (SignatureScheme::ML_DSA_65, &[ML_DSA_65]),
        (SignatureScheme::ML_DSA_87, &[ML_DSA_87]),
    ],
};
