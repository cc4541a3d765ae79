#![doc = include_str!("../README.md")]
#![no_std]
#![warn(missing_docs)]

//! # What each verifier accepts
//!
//! - The hash of an ECDSA, RSA verifier is SHA-256, SHA-384 or SHA-512 (RFC 8446 §4.2.3); a
//!   verifier built with another [`HashAlg`] refuses every signature and names no algorithm.
//! - RSA moduli from [`MIN_RSA_BITS`] to [`MAX_RSA_BITS`] bits (the CA/Browser Forum's floor;
//!   the ceiling bounds the work an attacker's key can ask for, as webpki's and rustls's own
//!   verifiers do). PSS is MGF1 over the signature's hash with a salt as long as the hash.
//! - RSASSA-PSS keys (RFC 4055): `rustls-webpki` 0.103 has no verifiers for them (its PSS ones
//!   take rsaEncryption keys only), so [`RsaVerify`] names those keys' identifiers itself.
//!
//! Every verifier maps any failure, a malformed key or signature included, to
//! [`InvalidSignature`]; none panics on any input.

use core::fmt;
use core::marker::PhantomData;

use core_hash::{Hash, Sha256, Sha384, Sha512};
use pki_types::{AlgorithmIdentifier, InvalidSignature, SignatureVerificationAlgorithm, alg_id};

pub use core_hash::HashAlg;

/// Ed25519 signatures (RFC 8032; RFC 8410 keys).
#[derive(Debug)]
pub struct Ed25519Verify;

impl SignatureVerificationAlgorithm for Ed25519Verify {
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

/// The hash a signature scheme may sign with, or `Err` (see the crate documentation).
fn scheme_hash(hash: HashAlg) -> Result<HashAlg, InvalidSignature> {
    match hash {
        HashAlg::Sha256 | HashAlg::Sha384 | HashAlg::Sha512 => Ok(hash),
        _ => Err(InvalidSignature),
    }
}

/// The identifier of a verifier whose hash no scheme uses: empty, so it matches no
/// certificate's (and its `verify_signature` refuses).
const NO_ALG_ID: AlgorithmIdentifier = AlgorithmIdentifier::from_slice(&[]);

/// The NIST curve of an ECDSA key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Curve {
    /// P-256 (secp256r1).
    P256,
    /// P-384 (secp384r1).
    #[cfg(feature = "p384")]
    P384,
    /// P-521 (secp521r1).
    #[cfg(feature = "p521")]
    P521,
}

/// ECDSA with DER `Ecdsa-Sig-Value` signatures (RFC 5480 keys, RFC 5758 identifiers).
#[derive(Debug)]
pub struct EcdsaVerify {
    /// The key's curve.
    pub curve: Curve,
    /// The hash signed.
    pub hash: HashAlg,
}

impl EcdsaVerify {
    /// Checks `signature` over a message whose hash (this verifier's) is `digest`, as a TLS 1.2
    /// server does with its running transcript hash. A digest of another length is refused:
    /// ECDSA itself would truncate or pad it.
    ///
    /// # Errors
    ///
    /// [`InvalidSignature`] for a bad key, signature or digest length, or a hash no scheme uses.
    pub fn verify_prehash(
        &self,
        public_key: &[u8],
        digest: &[u8],
        signature: &[u8],
    ) -> Result<(), InvalidSignature> {
        if digest.len() != scheme_hash(self.hash)?.output_len() {
            return Err(InvalidSignature);
        }
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
            #[cfg(feature = "p384")]
            Curve::P384 => check!(p384),
            #[cfg(feature = "p521")]
            Curve::P521 => check!(p521),
        }
    }
}

impl SignatureVerificationAlgorithm for EcdsaVerify {
    fn verify_signature(
        &self,
        public_key: &[u8],
        message: &[u8],
        signature: &[u8],
    ) -> Result<(), InvalidSignature> {
        let digest = scheme_hash(self.hash)?.digest(message);
        self.verify_prehash(public_key, digest.as_ref(), signature)
    }

    fn public_key_alg_id(&self) -> AlgorithmIdentifier {
        match self.curve {
            Curve::P256 => alg_id::ECDSA_P256,
            #[cfg(feature = "p384")]
            Curve::P384 => alg_id::ECDSA_P384,
            #[cfg(feature = "p521")]
            Curve::P521 => alg_id::ECDSA_P521,
        }
    }

    fn signature_alg_id(&self) -> AlgorithmIdentifier {
        match self.hash {
            HashAlg::Sha256 => alg_id::ECDSA_SHA256,
            HashAlg::Sha384 => alg_id::ECDSA_SHA384,
            HashAlg::Sha512 => alg_id::ECDSA_SHA512,
            _ => NO_ALG_ID,
        }
    }
}

/// An [`EcdsaVerify`] whose hash is `H`, fixed at compile time: what the `ECDSA_*` statics
/// are. Its `verify_signature` hashes with `H` alone, where [`EcdsaVerify`]'s dispatches on
/// its [`HashAlg`] and so links every hash that can name: a device build that lists only
/// `ECDSA_P256_SHA256` links SHA-256 and no SHA-1 or SHA-512 (issue 26). It reads as the
/// [`EcdsaVerify`] it wraps.
struct EcdsaWith<H>(EcdsaVerify, PhantomData<fn() -> H>);

/// As [`EcdsaVerify`]'s derived `Debug` (`{:?}`; `{:#?}` stays on one line), written piece by
/// piece: `SignatureVerificationAlgorithm` asks for `Debug`, so it is in every vtable, and the
/// derived form links `core::fmt`'s struct builders (~1 KB on the Cortex-M0).
impl<H> fmt::Debug for EcdsaWith<H> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("EcdsaVerify { curve: ")?;
        fmt::Debug::fmt(&self.0.curve, f)?;
        f.write_str(", hash: ")?;
        fmt::Debug::fmt(&self.0.hash, f)?;
        f.write_str(" }")
    }
}

impl<H: Hash> SignatureVerificationAlgorithm for EcdsaWith<H> {
    fn verify_signature(
        &self,
        public_key: &[u8],
        message: &[u8],
        signature: &[u8],
    ) -> Result<(), InvalidSignature> {
        self.0.verify_prehash(public_key, H::digest(message).as_ref(), signature)
    }

    fn public_key_alg_id(&self) -> AlgorithmIdentifier {
        self.0.public_key_alg_id()
    }

    fn signature_alg_id(&self) -> AlgorithmIdentifier {
        self.0.signature_alg_id()
    }
}

/// The ECDSA verifier of `curve` with the hash `H`, which `hash` names.
const fn ecdsa<H>(curve: Curve, hash: HashAlg) -> EcdsaWith<H> {
    EcdsaWith(EcdsaVerify { curve, hash }, PhantomData)
}

/// The smallest RSA modulus accepted, in bits.
pub const MIN_RSA_BITS: usize = 2048;
/// The largest RSA modulus accepted, in bits.
pub const MAX_RSA_BITS: usize = 8192;

/// The RSA padding a verifier checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RsaPadding {
    /// PKCS#1 v1.5, its identifier with NULL parameters (RFC 4055 §5, the usual form).
    Pkcs1,
    /// PKCS#1 v1.5, its identifier with the parameters absent (seen in the wild).
    Pkcs1AbsentParams,
    /// PSS with MGF1 over the same hash and a salt as long as the hash.
    Pss,
}

/// The algorithm of the RSA keys a verifier takes, as their `SubjectPublicKeyInfo` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RsaKeyAlg {
    /// rsaEncryption: any RSA signature (RFC 8017).
    RsaEncryption,
    /// id-RSASSA-PSS without parameters: PSS signatures with any hash (RFC 4055 §3.1).
    Pss,
    /// id-RSASSA-PSS with parameters restricting the key to the verifier's hash, MGF1 over it
    /// and a salt as long as it (the encoding `rustls-pki-types` names for the signature
    /// algorithm, with NULL hash parameters, as OpenSSL and Java write it).
    PssRestricted,
}

/// RSA signatures by PKCS#1 `RSAPublicKey` keys. An RSASSA-PSS key only ever verifies PSS
/// (RFC 4055 §1.2): pair [`RsaKeyAlg::Pss`]/[`RsaKeyAlg::PssRestricted`] with
/// [`RsaPadding::Pss`] (a verifier pairing it with PKCS#1 refuses every signature).
#[derive(Debug)]
pub struct RsaVerify {
    /// The hash signed.
    pub hash: HashAlg,
    /// The padding checked.
    pub padding: RsaPadding,
    /// The keys taken.
    pub key: RsaKeyAlg,
}

/// The `AlgorithmIdentifier` (contents) of an RSASSA-PSS key without parameters: the OID
/// 1.2.840.113549.1.1.10 alone.
pub const RSASSA_PSS_KEY: AlgorithmIdentifier = AlgorithmIdentifier::from_slice(&[
    0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0a,
]);

/// sha{256,384,512}WithRSAEncryption (1.2.840.113549.1.1.{11,12,13}) with absent parameters.
const PKCS1_SHA256_ABSENT: AlgorithmIdentifier = AlgorithmIdentifier::from_slice(&[
    0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0b,
]);
const PKCS1_SHA384_ABSENT: AlgorithmIdentifier = AlgorithmIdentifier::from_slice(&[
    0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0c,
]);
const PKCS1_SHA512_ABSENT: AlgorithmIdentifier = AlgorithmIdentifier::from_slice(&[
    0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0d,
]);

impl RsaVerify {
    /// Checks `signature` over a message whose hash (this verifier's) is `digest`, as a TLS 1.2
    /// server does with its running transcript hash.
    ///
    /// # Errors
    ///
    /// [`InvalidSignature`] for a bad key, signature or digest, a modulus outside
    /// [`MIN_RSA_BITS`]..=[`MAX_RSA_BITS`], a hash no scheme uses, or an RSASSA-PSS key paired
    /// with PKCS#1 v1.5 padding.
    pub fn verify_prehash(
        &self,
        public_key: &[u8],
        digest: &[u8],
        signature: &[u8],
    ) -> Result<(), InvalidSignature> {
        let hash = scheme_hash(self.hash)?;
        if self.key != RsaKeyAlg::RsaEncryption && self.padding != RsaPadding::Pss {
            return Err(InvalidSignature);
        }
        let key = core_rsa::PublicKey::from_pkcs1_der(public_key).map_err(|_| InvalidSignature)?;
        if !(MIN_RSA_BITS..=MAX_RSA_BITS).contains(&key.bits()) {
            return Err(InvalidSignature);
        }
        match self.padding {
            RsaPadding::Pss => key.verify_pss_prehash(
                core_rsa::Pss::with_salt_len(hash, hash.output_len()),
                digest,
                signature,
            ),
            RsaPadding::Pkcs1 | RsaPadding::Pkcs1AbsentParams => {
                key.verify_pkcs1v15_prehash(hash, digest, signature)
            }
        }
        .map_err(|_| InvalidSignature)
    }
}

impl SignatureVerificationAlgorithm for RsaVerify {
    fn verify_signature(
        &self,
        public_key: &[u8],
        message: &[u8],
        signature: &[u8],
    ) -> Result<(), InvalidSignature> {
        let digest = scheme_hash(self.hash)?.digest(message);
        self.verify_prehash(public_key, digest.as_ref(), signature)
    }

    fn public_key_alg_id(&self) -> AlgorithmIdentifier {
        match self.key {
            RsaKeyAlg::RsaEncryption => alg_id::RSA_ENCRYPTION,
            RsaKeyAlg::Pss => RSASSA_PSS_KEY,
            RsaKeyAlg::PssRestricted => self.signature_alg_id(),
        }
    }

    fn signature_alg_id(&self) -> AlgorithmIdentifier {
        match (self.padding, self.hash) {
            (RsaPadding::Pkcs1, HashAlg::Sha256) => alg_id::RSA_PKCS1_SHA256,
            (RsaPadding::Pkcs1, HashAlg::Sha384) => alg_id::RSA_PKCS1_SHA384,
            (RsaPadding::Pkcs1, HashAlg::Sha512) => alg_id::RSA_PKCS1_SHA512,
            (RsaPadding::Pkcs1AbsentParams, HashAlg::Sha256) => PKCS1_SHA256_ABSENT,
            (RsaPadding::Pkcs1AbsentParams, HashAlg::Sha384) => PKCS1_SHA384_ABSENT,
            (RsaPadding::Pkcs1AbsentParams, HashAlg::Sha512) => PKCS1_SHA512_ABSENT,
            (RsaPadding::Pss, HashAlg::Sha256) => alg_id::RSA_PSS_SHA256,
            (RsaPadding::Pss, HashAlg::Sha384) => alg_id::RSA_PSS_SHA384,
            (RsaPadding::Pss, HashAlg::Sha512) => alg_id::RSA_PSS_SHA512,
            _ => NO_ALG_ID,
        }
    }
}

/// An ML-DSA parameter set (FIPS 204 Table 1).
#[cfg(feature = "mldsa")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MlDsaLevel {
    /// ML-DSA-44.
    MlDsa44,
    /// ML-DSA-65.
    MlDsa65,
    /// ML-DSA-87.
    MlDsa87,
}

/// Pure ML-DSA signatures with the empty context, as certificates (RFC 9881 §3) and TLS 1.3's
/// `CertificateVerify` (draft-ietf-tls-mldsa) make them. The key is the raw public key of the
/// `SubjectPublicKeyInfo`.
#[cfg(feature = "mldsa")]
#[derive(Debug)]
pub struct MlDsaVerify {
    /// The parameter set of key and signature.
    pub level: MlDsaLevel,
}

#[cfg(feature = "mldsa")]
impl SignatureVerificationAlgorithm for MlDsaVerify {
    fn verify_signature(
        &self,
        public_key: &[u8],
        message: &[u8],
        signature: &[u8],
    ) -> Result<(), InvalidSignature> {
        use core_lattice::{mldsa44, mldsa65, mldsa87};
        match self.level {
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
        match self.level {
            MlDsaLevel::MlDsa44 => alg_id::ML_DSA_44,
            MlDsaLevel::MlDsa65 => alg_id::ML_DSA_65,
            MlDsaLevel::MlDsa87 => alg_id::ML_DSA_87,
        }
    }

    fn signature_alg_id(&self) -> AlgorithmIdentifier {
        self.public_key_alg_id()
    }
}

/// One `pub static` verifier per line: `NAME = value;`, with its doc comment.
macro_rules! verifiers {
    ($($(#[$meta:meta])* $name:ident = $value:expr;)*) => {
        $($(#[$meta])* pub static $name: &dyn SignatureVerificationAlgorithm = &$value;)*
    };
}

/// An RSA verifier for rsaEncryption keys.
const fn rsa(hash: HashAlg, padding: RsaPadding) -> RsaVerify {
    RsaVerify { hash, padding, key: RsaKeyAlg::RsaEncryption }
}

/// A PSS verifier for RSASSA-PSS keys.
const fn pss_key(hash: HashAlg, key: RsaKeyAlg) -> RsaVerify {
    RsaVerify { hash, padding: RsaPadding::Pss, key }
}

verifiers! {
    /// Ed25519.
    ED25519 = Ed25519Verify;
    /// ECDSA P-256 with SHA-256.
    ECDSA_P256_SHA256 = ecdsa::<Sha256>(Curve::P256, HashAlg::Sha256);
    /// ECDSA P-256 with SHA-384 (certificates; a TLS 1.2 `ecdsa_secp384r1_sha384` signature).
    ECDSA_P256_SHA384 = ecdsa::<Sha384>(Curve::P256, HashAlg::Sha384);
    /// ECDSA P-256 with SHA-512 (certificates; a TLS 1.2 `ecdsa_secp521r1_sha512` signature).
    ECDSA_P256_SHA512 = ecdsa::<Sha512>(Curve::P256, HashAlg::Sha512);
    /// ECDSA P-384 with SHA-256 (certificates; a TLS 1.2 `ecdsa_secp256r1_sha256` signature).
    #[cfg(feature = "p384")]
    ECDSA_P384_SHA256 = ecdsa::<Sha256>(Curve::P384, HashAlg::Sha256);
    /// ECDSA P-384 with SHA-384.
    #[cfg(feature = "p384")]
    ECDSA_P384_SHA384 = ecdsa::<Sha384>(Curve::P384, HashAlg::Sha384);
    /// ECDSA P-384 with SHA-512 (certificates; a TLS 1.2 `ecdsa_secp521r1_sha512` signature).
    #[cfg(feature = "p384")]
    ECDSA_P384_SHA512 = ecdsa::<Sha512>(Curve::P384, HashAlg::Sha512);
    /// ECDSA P-521 with SHA-256 (certificates; a TLS 1.2 `ecdsa_secp256r1_sha256` signature).
    #[cfg(feature = "p521")]
    ECDSA_P521_SHA256 = ecdsa::<Sha256>(Curve::P521, HashAlg::Sha256);
    /// ECDSA P-521 with SHA-384 (certificates; a TLS 1.2 `ecdsa_secp384r1_sha384` signature).
    #[cfg(feature = "p521")]
    ECDSA_P521_SHA384 = ecdsa::<Sha384>(Curve::P521, HashAlg::Sha384);
    /// ECDSA P-521 with SHA-512.
    #[cfg(feature = "p521")]
    ECDSA_P521_SHA512 = ecdsa::<Sha512>(Curve::P521, HashAlg::Sha512);
    /// RSA PKCS#1 v1.5 with SHA-256 (certificates; TLS 1.2 handshakes).
    RSA_PKCS1_SHA256 = rsa(HashAlg::Sha256, RsaPadding::Pkcs1);
    /// RSA PKCS#1 v1.5 with SHA-384 (certificates; TLS 1.2 handshakes).
    RSA_PKCS1_SHA384 = rsa(HashAlg::Sha384, RsaPadding::Pkcs1);
    /// RSA PKCS#1 v1.5 with SHA-512 (certificates; TLS 1.2 handshakes).
    RSA_PKCS1_SHA512 = rsa(HashAlg::Sha512, RsaPadding::Pkcs1);
    /// RSA PKCS#1 v1.5 with SHA-256, its identifier without parameters (certificates).
    RSA_PKCS1_SHA256_ABSENT_PARAMS = rsa(HashAlg::Sha256, RsaPadding::Pkcs1AbsentParams);
    /// RSA PKCS#1 v1.5 with SHA-384, its identifier without parameters (certificates).
    RSA_PKCS1_SHA384_ABSENT_PARAMS = rsa(HashAlg::Sha384, RsaPadding::Pkcs1AbsentParams);
    /// RSA PKCS#1 v1.5 with SHA-512, its identifier without parameters (certificates).
    RSA_PKCS1_SHA512_ABSENT_PARAMS = rsa(HashAlg::Sha512, RsaPadding::Pkcs1AbsentParams);
    /// RSA-PSS with SHA-256 by an rsaEncryption key (`rsa_pss_rsae_sha256`).
    RSA_PSS_SHA256 = rsa(HashAlg::Sha256, RsaPadding::Pss);
    /// RSA-PSS with SHA-384 by an rsaEncryption key (`rsa_pss_rsae_sha384`).
    RSA_PSS_SHA384 = rsa(HashAlg::Sha384, RsaPadding::Pss);
    /// RSA-PSS with SHA-512 by an rsaEncryption key (`rsa_pss_rsae_sha512`).
    RSA_PSS_SHA512 = rsa(HashAlg::Sha512, RsaPadding::Pss);
    /// RSA-PSS with SHA-256 by an RSASSA-PSS key without parameters (`rsa_pss_pss_sha256`).
    RSA_PSS_KEY_SHA256 = pss_key(HashAlg::Sha256, RsaKeyAlg::Pss);
    /// RSA-PSS with SHA-384 by an RSASSA-PSS key without parameters (`rsa_pss_pss_sha384`).
    RSA_PSS_KEY_SHA384 = pss_key(HashAlg::Sha384, RsaKeyAlg::Pss);
    /// RSA-PSS with SHA-512 by an RSASSA-PSS key without parameters (`rsa_pss_pss_sha512`).
    RSA_PSS_KEY_SHA512 = pss_key(HashAlg::Sha512, RsaKeyAlg::Pss);
    /// RSA-PSS with SHA-256 by an RSASSA-PSS key restricted to SHA-256.
    RSA_PSS_KEY_SHA256_ONLY = pss_key(HashAlg::Sha256, RsaKeyAlg::PssRestricted);
    /// RSA-PSS with SHA-384 by an RSASSA-PSS key restricted to SHA-384.
    RSA_PSS_KEY_SHA384_ONLY = pss_key(HashAlg::Sha384, RsaKeyAlg::PssRestricted);
    /// RSA-PSS with SHA-512 by an RSASSA-PSS key restricted to SHA-512.
    RSA_PSS_KEY_SHA512_ONLY = pss_key(HashAlg::Sha512, RsaKeyAlg::PssRestricted);
    /// ML-DSA-44.
    #[cfg(feature = "mldsa")]
    ML_DSA_44 = MlDsaVerify { level: MlDsaLevel::MlDsa44 };
    /// ML-DSA-65.
    #[cfg(feature = "mldsa")]
    ML_DSA_65 = MlDsaVerify { level: MlDsaLevel::MlDsa65 };
    /// ML-DSA-87.
    #[cfg(feature = "mldsa")]
    ML_DSA_87 = MlDsaVerify { level: MlDsaLevel::MlDsa87 };
}
