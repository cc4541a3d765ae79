//! Signing keys for CertificateVerify — Ed25519, ECDSA P-256/P-384 (`core-ec`), RSA-PSS
//! (`core-rsa`) with rsaEncryption or RSASSA-PSS keys, and with the `mldsa` feature ML-DSA
//! (`core-lattice`, TLS 1.3 only) — loaded from PKCS#8, and the choice of a signature scheme
//! among those the peer offered in `signature_algorithms` (RFC 8446 §4.2.3, §4.4.3).

use core_ec::{ed25519, p256, p384};
use core_hash::RandomSource;
#[cfg(feature = "mldsa")]
use core_lattice::{mldsa44, mldsa65, mldsa87};

use crate::error::{ApiMisuse, Error, KeyError};
use crate::msgs::SignatureScheme;
use crate::pem::PemError;
use crate::provider::Signer;

/// The longest signature produced: ML-DSA-87's with the `mldsa` feature, else RSA's with an
/// 8192-bit modulus.
#[cfg(feature = "mldsa")]
pub const MAX_SIGNATURE_LEN: usize = {
    let rsa = core_rsa::MAX_BITS / 8;
    let mldsa = core_lattice::mldsa87::SIGNATURE_LEN;
    if mldsa > rsa { mldsa } else { rsa }
};
/// The longest signature produced: RSA with an 8192-bit modulus.
#[cfg(not(feature = "mldsa"))]
pub const MAX_SIGNATURE_LEN: usize = core_rsa::MAX_BITS / 8;

/// Algorithm identifiers (OID contents) a PKCS#8 key may carry.
mod oid {
    /// id-Ed25519, 1.3.101.112 (RFC 8410).
    pub(super) const ED25519: &[u8] = &[0x2b, 0x65, 0x70];
    /// id-ecPublicKey, 1.2.840.10045.2.1 (RFC 5480).
    pub(super) const EC_PUBLIC_KEY: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
    /// secp256r1, 1.2.840.10045.3.1.7.
    pub(super) const P256: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];
    /// secp384r1, 1.3.132.0.34.
    pub(super) const P384: &[u8] = &[0x2b, 0x81, 0x04, 0x00, 0x22];
    /// rsaEncryption, 1.2.840.113549.1.1.1 (RFC 8017).
    pub(super) const RSA_ENCRYPTION: &[u8] =
        &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01];
    /// id-RSASSA-PSS, 1.2.840.113549.1.1.10 (RFC 4055 §3.1).
    pub(super) const RSASSA_PSS: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0a];
    /// id-mgf1, 1.2.840.113549.1.1.8.
    pub(super) const MGF1: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x08];
    /// id-sha256, 2.16.840.1.101.3.4.2.1.
    pub(super) const SHA256: &[u8] = &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01];
    /// id-sha384, 2.16.840.1.101.3.4.2.2.
    pub(super) const SHA384: &[u8] = &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02];
    /// id-sha512, 2.16.840.1.101.3.4.2.3.
    pub(super) const SHA512: &[u8] = &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03];
    #[cfg(feature = "mldsa")]
    pub(super) use core_der::pkix::oid::{ML_DSA_44, ML_DSA_65, ML_DSA_87};
}

/// DER tags met in a PKCS#8 key.
const SEQUENCE: u8 = 0x30;
const INTEGER: u8 = 0x02;
const OCTET_STRING: u8 = 0x04;
const OID: u8 = 0x06;
const NULL: u8 = 0x05;

/// The contents of the DER element with tag `tag` at the front of `der`, and what follows it.
fn der_read(der: &[u8], tag: u8) -> Result<(&[u8], &[u8]), KeyError> {
    match crate::der::element(der) {
        Some((t, contents, rest)) if t == tag => Ok((contents, rest)),
        _ => Err(KeyError::BadEncoding),
    }
}

/// The hash of an AlgorithmIdentifier `SEQUENCE { OID, NULL or nothing }` naming SHA-256,
/// SHA-384 or SHA-512 (RFC 5754 §2 allows both parameter forms).
fn hash_algorithm(alg: &[u8]) -> Result<core_rsa::HashAlg, KeyError> {
    let (contents, rest) = der_read(alg, SEQUENCE)?;
    let (id, params) = der_read(contents, OID)?;
    if !rest.is_empty() || !(params.is_empty() || params == [NULL, 0]) {
        return Err(KeyError::BadEncoding);
    }
    match id {
        oid::SHA256 => Ok(core_rsa::HashAlg::Sha256),
        oid::SHA384 => Ok(core_rsa::HashAlg::Sha384),
        oid::SHA512 => Ok(core_rsa::HashAlg::Sha512),
        // SHA-1 (the parameters' default) and others cannot sign in TLS 1.3.
        _ => Err(KeyError::UnsupportedPssParameters),
    }
}

/// The element with context tag `[n]` (constructed) at the front of `der`, if there is one.
fn optional_field(der: &[u8], n: u8) -> Result<(Option<&[u8]>, &[u8]), KeyError> {
    if der.first() == Some(&(0xa0 | n)) {
        der_read(der, 0xa0 | n).map(|(field, rest)| (Some(field), rest))
    } else {
        Ok((None, der))
    }
}

/// The hash an RSASSA-PSS key is restricted to by its RSASSA-PSS-params (RFC 4055 §3.1), or
/// `None` when it has no parameters. TLS 1.3 signs with MGF1 over the message hash and a salt
/// as long as the hash (RFC 8446 §4.2.3), so the parameters must allow that: MGF1 with the
/// same hash, a minimum salt length no longer than the hash, and the trailer field 1.
fn pss_restriction(params: &[u8]) -> Result<Option<core_rsa::HashAlg>, KeyError> {
    if params.is_empty() {
        return Ok(None);
    }
    let (fields, rest) = der_read(params, SEQUENCE)?;
    if !rest.is_empty() {
        return Err(KeyError::BadEncoding);
    }
    let (hash, fields) = optional_field(fields, 0)?;
    // An absent hashAlgorithm is SHA-1.
    let hash = hash_algorithm(hash.ok_or(KeyError::UnsupportedPssParameters)?)?;
    let (mgf, fields) = optional_field(fields, 1)?;
    let (mgf, rest) = der_read(mgf.ok_or(KeyError::UnsupportedPssParameters)?, SEQUENCE)?;
    let (mgf_id, mgf_hash) = der_read(mgf, OID)?;
    if !rest.is_empty() || mgf_id != oid::MGF1 || hash_algorithm(mgf_hash)? != hash {
        return Err(KeyError::UnsupportedPssParameters);
    }
    let (salt, fields) = optional_field(fields, 2)?;
    if let Some(salt) = salt {
        let (len, rest) = der_read(salt, INTEGER)?;
        let len = match len {
            [n] if rest.is_empty() && *n < 0x80 => usize::from(*n),
            _ => return Err(KeyError::UnsupportedPssParameters),
        };
        if len > hash.output_len() {
            return Err(KeyError::UnsupportedPssParameters);
        }
    }
    let (trailer, fields) = optional_field(fields, 3)?;
    if trailer.is_some_and(|t| t != [INTEGER, 1, 1]) || !fields.is_empty() {
        return Err(KeyError::UnsupportedPssParameters);
    }
    Ok(Some(hash))
}

/// The parts of a PKCS#8 key that say what it is.
struct Pkcs8<'a> {
    /// The algorithm's OID (contents).
    algorithm: &'a [u8],
    /// The algorithm's parameters, encoded (possibly empty).
    params: &'a [u8],
    /// The privateKey octets.
    key: &'a [u8],
}

/// A PKCS#8 `PrivateKeyInfo` / `OneAsymmetricKey` (RFC 5208, RFC 5958) split into its
/// algorithm OID, the algorithm's parameters and the private key octets.
fn pkcs8_parts(der: &[u8]) -> Result<Pkcs8<'_>, KeyError> {
    let (info, trailing) = der_read(der, SEQUENCE)?;
    if !trailing.is_empty() {
        return Err(KeyError::BadEncoding);
    }
    let (version, rest) = der_read(info, INTEGER)?;
    if version != [0] && version != [1] {
        return Err(KeyError::BadEncoding);
    }
    let (alg, rest) = der_read(rest, SEQUENCE)?;
    let (algorithm, params) = der_read(alg, OID)?;
    let (key, _attributes_and_public_key) = der_read(rest, OCTET_STRING)?;
    Ok(Pkcs8 { algorithm, params, key })
}

/// A private key that signs CertificateVerify messages. The RSA variant holds a
/// fixed-capacity `core_rsa::PrivateKey`, so the enum is large: build it once and let the
/// configuration borrow it.
// No allocator to box the RSA key into.
#[allow(clippy::large_enum_variant)]
pub enum SigningKey {
    /// Ed25519 (scheme `ed25519`).
    Ed25519(ed25519::SigningKey),
    /// ECDSA on P-256 (scheme `ecdsa_secp256r1_sha256`).
    EcdsaP256(p256::SigningKey),
    /// ECDSA on P-384 (scheme `ecdsa_secp384r1_sha384`).
    EcdsaP384(p384::SigningKey),
    /// RSA of 2048 bits or more (schemes `rsa_pss_rsae_sha256/384/512`).
    Rsa(core_rsa::PrivateKey),
    /// An RSASSA-PSS key (algorithm id-RSASSA-PSS, RFC 4055), whose certificate says it signs
    /// only PSS: schemes `rsa_pss_pss_sha256/384/512` (RFC 8446 §4.2.3), or only the one of
    /// `hash` when its parameters restrict it.
    RsaPss {
        /// The key.
        key: core_rsa::PrivateKey,
        /// The hash its RSASSA-PSS-params restrict it to (`None`: no parameters).
        hash: Option<core_rsa::HashAlg>,
    },
    /// ML-DSA-44 (scheme `mldsa44`, TLS 1.3 only).
    #[cfg(feature = "mldsa")]
    MlDsa44(mldsa44::SigningKey),
    /// ML-DSA-65 (scheme `mldsa65`, TLS 1.3 only).
    #[cfg(feature = "mldsa")]
    MlDsa65(mldsa65::SigningKey),
    /// ML-DSA-87 (scheme `mldsa87`, TLS 1.3 only).
    #[cfg(feature = "mldsa")]
    MlDsa87(mldsa87::SigningKey),
}

impl core::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Self::Ed25519(_) => "SigningKey::Ed25519",
            Self::EcdsaP256(_) => "SigningKey::EcdsaP256",
            Self::EcdsaP384(_) => "SigningKey::EcdsaP384",
            Self::Rsa(_) => "SigningKey::Rsa",
            Self::RsaPss { .. } => "SigningKey::RsaPss",
            #[cfg(feature = "mldsa")]
            Self::MlDsa44(_) => "SigningKey::MlDsa44",
            #[cfg(feature = "mldsa")]
            Self::MlDsa65(_) => "SigningKey::MlDsa65",
            #[cfg(feature = "mldsa")]
            Self::MlDsa87(_) => "SigningKey::MlDsa87",
        })
    }
}

impl SigningKey {
    /// Reads a PKCS#8 `PrivateKeyInfo` (DER) holding an Ed25519, P-256, P-384, RSA,
    /// RSASSA-PSS or (with the `mldsa` feature) ML-DSA key, the last in any of RFC 9881's
    /// three private-key forms.
    /// Anything else is an [`Error::InvalidKey`] that says why: an algorithm or curve we do
    /// not sign with, malformed DER, or an RSA size out of range.
    pub fn from_pkcs8_der(der: &[u8]) -> Result<Self, Error> {
        let Pkcs8 { algorithm, params, key } = pkcs8_parts(der)?;
        match algorithm {
            oid::ED25519 => {
                // RFC 8410 §7: CurvePrivateKey, an OCTET STRING of the 32-byte seed.
                let (seed, rest) = der_read(key, OCTET_STRING)?;
                let (Ok(seed), true) = (<&[u8; 32]>::try_from(seed), rest.is_empty()) else {
                    return Err(KeyError::BadEncoding.into());
                };
                Ok(Self::Ed25519(ed25519::SigningKey::from_seed(seed)))
            }
            oid::EC_PUBLIC_KEY => match der_read(params, OID)?.0 {
                oid::P256 => p256::SecretKey::from_pkcs8_der(der)
                    .map(|k| Self::EcdsaP256(k.into()))
                    .map_err(|_| KeyError::BadEncoding.into()),
                oid::P384 => p384::SecretKey::from_pkcs8_der(der)
                    .map(|k| Self::EcdsaP384(k.into()))
                    .map_err(|_| KeyError::BadEncoding.into()),
                _ => Err(KeyError::UnsupportedAlgorithm.into()),
            },
            oid::RSA_ENCRYPTION => {
                core_rsa::PrivateKey::from_pkcs8_der(der).map(Self::Rsa).map_err(rsa_key_error)
            }
            oid::RSASSA_PSS => {
                let hash = pss_restriction(params)?;
                // The private key itself is an RSAPrivateKey as for rsaEncryption.
                let key = core_rsa::PrivateKey::from_pkcs1_der(key).map_err(rsa_key_error)?;
                Ok(Self::RsaPss { key, hash })
            }
            #[cfg(feature = "mldsa")]
            oid::ML_DSA_44 => {
                mldsa44::SigningKey::from_pkcs8_der(der).map(Self::MlDsa44).map_err(mldsa_key_error)
            }
            #[cfg(feature = "mldsa")]
            oid::ML_DSA_65 => {
                mldsa65::SigningKey::from_pkcs8_der(der).map(Self::MlDsa65).map_err(mldsa_key_error)
            }
            #[cfg(feature = "mldsa")]
            oid::ML_DSA_87 => {
                mldsa87::SigningKey::from_pkcs8_der(der).map(Self::MlDsa87).map_err(mldsa_key_error)
            }
            _ => Err(KeyError::UnsupportedAlgorithm.into()),
        }
    }

    /// Reads the first `PRIVATE KEY` (PKCS#8) block of a PEM text, decoding it in `scratch`
    /// (which then holds secret bytes: wipe it; 1300 bytes fit an RSA-2048 key). A scratch
    /// too small is [`KeyError::ScratchTooSmall`], with the size it needs.
    pub fn from_pkcs8_pem(text: &str, scratch: &mut [u8]) -> Result<Self, Error> {
        let der = crate::pem::decode_first(text, "PRIVATE KEY", scratch).map_err(|e| match e {
            PemError::NotFound | PemError::WrongLabel if is_other_key_pem(text) => {
                KeyError::NotPkcs8Pem
            }
            PemError::NotFound | PemError::WrongLabel => KeyError::NoPemBlock,
            PemError::BufferTooSmall => KeyError::ScratchTooSmall {
                needed: crate::pem::blocks(text, "PRIVATE KEY")
                    .next()
                    .map_or(0, crate::pem::decoded_len),
            },
            _ => KeyError::BadBase64,
        })?;
        Self::from_pkcs8_der(der)
    }

    /// Our most preferred scheme that `offered` accepts.
    pub fn choose_scheme(
        &self,
        offered: impl Fn(SignatureScheme) -> bool,
    ) -> Option<SignatureScheme> {
        crate::provider::choose_scheme(self, offered)
    }

    /// Our most preferred TLS 1.2 scheme ([`Signer::tls12_schemes`]) that `offered` accepts.
    pub fn choose_scheme_tls12(
        &self,
        offered: impl Fn(SignatureScheme) -> bool,
    ) -> Option<SignatureScheme> {
        choose_scheme_tls12(self, offered)
    }
}

/// The most preferred TLS 1.2 scheme of `key` ([`Signer::tls12_schemes`]) that `offered`
/// accepts: what a TLS 1.2 server signs its ServerKeyExchange with, and a client its
/// CertificateVerify.
pub fn choose_scheme_tls12(
    key: &dyn Signer,
    offered: impl Fn(SignatureScheme) -> bool,
) -> Option<SignatureScheme> {
    key.tls12_schemes().iter().copied().find(|s| offered(*s))
}

/// The hash a TLS 1.2 `ecdsa_*` scheme names (RFC 8422 §5.1.1), or `None` for another
/// scheme.
fn ecdsa_hash(scheme: SignatureScheme) -> Option<core_rsa::HashAlg> {
    match scheme {
        SignatureScheme::ECDSA_SECP256R1_SHA256 => Some(core_rsa::HashAlg::Sha256),
        SignatureScheme::ECDSA_SECP384R1_SHA384 => Some(core_rsa::HashAlg::Sha384),
        SignatureScheme::ECDSA_SECP521R1_SHA512 => Some(core_rsa::HashAlg::Sha512),
        _ => None,
    }
}

/// An ECDSA signature by `key` over `msg` hashed with `hash`, DER-encoded into `out`, with
/// the RFC 6979 nonce over that hash.
macro_rules! ecdsa_sign_with {
    ($key:expr, $hash:expr, $msg:expr) => {{
        match $hash {
            core_rsa::HashAlg::Sha384 => $key
                .sign_prehash_with::<core_hash::Sha384>(core_hash::Sha384::digest($msg).as_ref()),
            core_rsa::HashAlg::Sha512 => $key
                .sign_prehash_with::<core_hash::Sha512>(core_hash::Sha512::digest($msg).as_ref()),
            _ => $key
                .sign_prehash_with::<core_hash::Sha256>(core_hash::Sha256::digest($msg).as_ref()),
        }
    }};
}

/// The default signer: Ed25519 and ECDSA from `core-ec`, RSA-PSS from `core-rsa`.
impl Signer for SigningKey {
    fn schemes(&self) -> &[SignatureScheme] {
        match self {
            Self::Ed25519(_) => &[SignatureScheme::ED25519],
            Self::EcdsaP256(_) => &[SignatureScheme::ECDSA_SECP256R1_SHA256],
            Self::EcdsaP384(_) => &[SignatureScheme::ECDSA_SECP384R1_SHA384],
            Self::Rsa(_) => &[
                SignatureScheme::RSA_PSS_RSAE_SHA256,
                SignatureScheme::RSA_PSS_RSAE_SHA384,
                SignatureScheme::RSA_PSS_RSAE_SHA512,
            ],
            Self::RsaPss { hash: None, .. } => &[
                SignatureScheme::RSA_PSS_PSS_SHA256,
                SignatureScheme::RSA_PSS_PSS_SHA384,
                SignatureScheme::RSA_PSS_PSS_SHA512,
            ],
            Self::RsaPss { hash: Some(core_rsa::HashAlg::Sha256), .. } => {
                &[SignatureScheme::RSA_PSS_PSS_SHA256]
            }
            Self::RsaPss { hash: Some(core_rsa::HashAlg::Sha384), .. } => {
                &[SignatureScheme::RSA_PSS_PSS_SHA384]
            }
            Self::RsaPss { hash: Some(core_rsa::HashAlg::Sha512), .. } => {
                &[SignatureScheme::RSA_PSS_PSS_SHA512]
            }
            // No other hash survives `pss_restriction`.
            Self::RsaPss { .. } => &[],
            #[cfg(feature = "mldsa")]
            Self::MlDsa44(_) => &[SignatureScheme::ML_DSA_44],
            #[cfg(feature = "mldsa")]
            Self::MlDsa65(_) => &[SignatureScheme::ML_DSA_65],
            #[cfg(feature = "mldsa")]
            Self::MlDsa87(_) => &[SignatureScheme::ML_DSA_87],
        }
    }

    /// In TLS 1.2 an ECDSA key also signs with the other `ecdsa_*` schemes' hashes (SHA-256,
    /// -384, -512, its own curve's first) and an rsaEncryption key with PKCS#1 v1.5 too (after
    /// PSS); an RSASSA-PSS key signs only PSS, as in 1.3; an ML-DSA key does not sign in
    /// TLS 1.2 at all (its schemes are TLS 1.3 only).
    fn tls12_schemes(&self) -> &[SignatureScheme] {
        match self {
            Self::EcdsaP256(_) => &[
                SignatureScheme::ECDSA_SECP256R1_SHA256,
                SignatureScheme::ECDSA_SECP384R1_SHA384,
                SignatureScheme::ECDSA_SECP521R1_SHA512,
            ],
            Self::EcdsaP384(_) => &[
                SignatureScheme::ECDSA_SECP384R1_SHA384,
                SignatureScheme::ECDSA_SECP521R1_SHA512,
                SignatureScheme::ECDSA_SECP256R1_SHA256,
            ],
            Self::Rsa(_) => &[
                SignatureScheme::RSA_PSS_RSAE_SHA256,
                SignatureScheme::RSA_PSS_RSAE_SHA384,
                SignatureScheme::RSA_PSS_RSAE_SHA512,
                SignatureScheme::RSA_PKCS1_SHA256,
                SignatureScheme::RSA_PKCS1_SHA384,
                SignatureScheme::RSA_PKCS1_SHA512,
            ],
            #[cfg(feature = "mldsa")]
            Self::MlDsa44(_) | Self::MlDsa65(_) | Self::MlDsa87(_) => &[],
            _ => self.schemes(),
        }
    }

    /// ECDSA with SHA-256 or SHA-384 (its own curve's first), RSA-PSS and (rsaEncryption keys)
    /// PKCS#1 v1.5 with SHA-256 or SHA-384; no Ed25519.
    fn tls12_digest_schemes(&self) -> &[SignatureScheme] {
        match self {
            Self::EcdsaP256(_) => {
                &[SignatureScheme::ECDSA_SECP256R1_SHA256, SignatureScheme::ECDSA_SECP384R1_SHA384]
            }
            Self::EcdsaP384(_) => {
                &[SignatureScheme::ECDSA_SECP384R1_SHA384, SignatureScheme::ECDSA_SECP256R1_SHA256]
            }
            Self::Rsa(_) => &[
                SignatureScheme::RSA_PSS_RSAE_SHA256,
                SignatureScheme::RSA_PSS_RSAE_SHA384,
                SignatureScheme::RSA_PKCS1_SHA256,
                SignatureScheme::RSA_PKCS1_SHA384,
            ],
            Self::RsaPss { hash: None, .. } => {
                &[SignatureScheme::RSA_PSS_PSS_SHA256, SignatureScheme::RSA_PSS_PSS_SHA384]
            }
            Self::RsaPss { hash: Some(core_rsa::HashAlg::Sha256), .. } => {
                &[SignatureScheme::RSA_PSS_PSS_SHA256]
            }
            Self::RsaPss { hash: Some(core_rsa::HashAlg::Sha384), .. } => {
                &[SignatureScheme::RSA_PSS_PSS_SHA384]
            }
            // Ed25519 signs whole messages; no other PSS hash is kept; ML-DSA is not for 1.2.
            _ => &[],
        }
    }

    fn sign_digest(
        &self,
        scheme: SignatureScheme,
        digest: &[u8],
        rng: &mut dyn RandomSource,
        out: &mut [u8; MAX_SIGNATURE_LEN],
    ) -> Result<usize, Error> {
        let bad = Error::ApiMisuse(ApiMisuse::BadConfig);
        if !self.tls12_digest_schemes().contains(&scheme) {
            return Err(bad);
        }
        let hash = match scheme {
            SignatureScheme::ECDSA_SECP256R1_SHA256
            | SignatureScheme::RSA_PSS_RSAE_SHA256
            | SignatureScheme::RSA_PSS_PSS_SHA256
            | SignatureScheme::RSA_PKCS1_SHA256 => core_rsa::HashAlg::Sha256,
            _ => core_rsa::HashAlg::Sha384,
        };
        if digest.len() != hash.output_len() {
            return Err(bad);
        }
        let mut put = |b: &[u8]| {
            out[..b.len()].copy_from_slice(b);
            Ok(b.len())
        };
        let rsa_error = |e| match e {
            core_rsa::Error::RandomFailed => Error::RandomFailed,
            _ => Error::ApiMisuse(ApiMisuse::BadConfig),
        };
        match (self, hash) {
            (Self::EcdsaP256(k), core_rsa::HashAlg::Sha256) => {
                put(k.sign_prehash_with::<core_hash::Sha256>(digest).to_der().as_ref())
            }
            (Self::EcdsaP256(k), _) => {
                put(k.sign_prehash_with::<core_hash::Sha384>(digest).to_der().as_ref())
            }
            (Self::EcdsaP384(k), core_rsa::HashAlg::Sha256) => {
                put(k.sign_prehash_with::<core_hash::Sha256>(digest).to_der().as_ref())
            }
            (Self::EcdsaP384(k), _) => {
                put(k.sign_prehash_with::<core_hash::Sha384>(digest).to_der().as_ref())
            }
            (Self::Rsa(k), _) if is_pkcs1(scheme) => {
                k.sign_pkcs1v15_prehash(hash, digest, rng, out).map_err(rsa_error)
            }
            (Self::Rsa(k) | Self::RsaPss { key: k, .. }, _) => {
                k.sign_pss_prehash(core_rsa::Pss::new(hash), digest, rng, out).map_err(rsa_error)
            }
            _ => Err(bad),
        }
    }

    /// ECDSA signatures are deterministic (RFC 6979); `rng` gives RSA-PSS its salt, blinds
    /// the RSA private operation, and hedges ML-DSA (pure, empty context, as
    /// draft-ietf-tls-mldsa signs the CertificateVerify content).
    fn sign(
        &self,
        scheme: SignatureScheme,
        msg: &[u8],
        rng: &mut dyn RandomSource,
        out: &mut [u8; MAX_SIGNATURE_LEN],
    ) -> Result<usize, Error> {
        if !self.schemes().contains(&scheme) && !self.tls12_schemes().contains(&scheme) {
            return Err(Error::ApiMisuse(ApiMisuse::BadConfig));
        }
        let mut put = |b: &[u8]| {
            out[..b.len()].copy_from_slice(b);
            Ok(b.len())
        };
        match self {
            Self::Ed25519(k) => put(&k.sign(msg).to_bytes()),
            Self::EcdsaP256(k) => match ecdsa_hash(scheme) {
                Some(core_rsa::HashAlg::Sha256) | None => put(k.sign(msg).to_der().as_ref()),
                Some(h) => put(ecdsa_sign_with!(k, h, msg).to_der().as_ref()),
            },
            Self::EcdsaP384(k) => match ecdsa_hash(scheme) {
                Some(core_rsa::HashAlg::Sha384) | None => put(k.sign(msg).to_der().as_ref()),
                Some(h) => put(ecdsa_sign_with!(k, h, msg).to_der().as_ref()),
            },
            Self::Rsa(k) if is_pkcs1(scheme) => {
                let hash = match scheme {
                    SignatureScheme::RSA_PKCS1_SHA256 => core_rsa::HashAlg::Sha256,
                    SignatureScheme::RSA_PKCS1_SHA384 => core_rsa::HashAlg::Sha384,
                    _ => core_rsa::HashAlg::Sha512,
                };
                k.sign_pkcs1v15(hash, msg, rng, out).map_err(|e| match e {
                    core_rsa::Error::RandomFailed => Error::RandomFailed,
                    _ => Error::ApiMisuse(ApiMisuse::BadConfig),
                })
            }
            Self::Rsa(k) | Self::RsaPss { key: k, .. } => {
                let hash =
                    match scheme {
                        SignatureScheme::RSA_PSS_RSAE_SHA256
                        | SignatureScheme::RSA_PSS_PSS_SHA256 => core_rsa::HashAlg::Sha256,
                        SignatureScheme::RSA_PSS_RSAE_SHA384
                        | SignatureScheme::RSA_PSS_PSS_SHA384 => core_rsa::HashAlg::Sha384,
                        _ => core_rsa::HashAlg::Sha512,
                    };
                k.sign_pss(core_rsa::Pss::new(hash), msg, rng, out).map_err(|e| match e {
                    core_rsa::Error::RandomFailed => Error::RandomFailed,
                    // The key is too small for the hash, or the private operation faulted.
                    _ => Error::ApiMisuse(ApiMisuse::BadConfig),
                })
            }
            #[cfg(feature = "mldsa")]
            Self::MlDsa44(k) => {
                put(k.sign(msg, &[], &mut &mut *rng).map_err(mldsa_sign_error)?.as_bytes())
            }
            #[cfg(feature = "mldsa")]
            Self::MlDsa65(k) => {
                put(k.sign(msg, &[], &mut &mut *rng).map_err(mldsa_sign_error)?.as_bytes())
            }
            #[cfg(feature = "mldsa")]
            Self::MlDsa87(k) => {
                put(k.sign(msg, &[], &mut &mut *rng).map_err(mldsa_sign_error)?.as_bytes())
            }
        }
    }
}

/// Whether `scheme` is RSA PKCS#1 v1.5 (TLS 1.2 handshake signatures only).
fn is_pkcs1(scheme: SignatureScheme) -> bool {
    matches!(
        scheme,
        SignatureScheme::RSA_PKCS1_SHA256
            | SignatureScheme::RSA_PKCS1_SHA384
            | SignatureScheme::RSA_PKCS1_SHA512
    )
}

/// Whether `text` holds a private key in a PEM form other than PKCS#8.
fn is_other_key_pem(text: &str) -> bool {
    ["RSA PRIVATE KEY", "EC PRIVATE KEY", "ENCRYPTED PRIVATE KEY"]
        .iter()
        .any(|label| crate::pem::blocks(text, label).next().is_some())
}

/// The [`KeyError`] for a `core-rsa` key refusal.
fn rsa_key_error(e: core_rsa::Error) -> Error {
    match e {
        core_rsa::Error::UnsupportedKeySize | core_rsa::Error::InvalidModulus => {
            KeyError::UnsupportedKeySize
        }
        _ => KeyError::BadEncoding,
    }
    .into()
}

/// The [`KeyError`] for a `core-lattice` ML-DSA key refusal (its algorithm was checked).
#[cfg(feature = "mldsa")]
fn mldsa_key_error(_: core_lattice::Error) -> Error {
    KeyError::BadEncoding.into()
}

/// The [`Error`] for an ML-DSA signing failure: only the random source can fail (the context
/// is empty).
#[cfg(feature = "mldsa")]
fn mldsa_sign_error(_: core_lattice::Error) -> Error {
    Error::RandomFailed
}

/// A certificate chain (DER, end-entity first) and the private key of its end-entity
/// certificate.
#[derive(Clone, Copy, Debug)]
pub struct CertifiedKey<'a> {
    /// The chain.
    pub chain: &'a [&'a [u8]],
    /// The end-entity certificate's key: a [`SigningKey`] or a user's [`Signer`].
    pub key: &'a dyn Signer,
}
