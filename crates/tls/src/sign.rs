//! Signing keys for CertificateVerify — Ed25519, ECDSA P-256/P-384 (`core-ec`) and RSA-PSS
//! (`core-rsa`) — loaded from PKCS#8, and the choice of a signature scheme among those the
//! peer offered in `signature_algorithms` (RFC 8446 §4.2.3, §4.4.3).

use core_ec::{ed25519, p256, p384};
use core_hash::RandomSource;

use crate::error::{ApiMisuse, Error};
use crate::msgs::SignatureScheme;
use crate::provider::Signer;

/// The longest signature produced: RSA with an 8192-bit modulus.
pub const MAX_SIGNATURE_LEN: usize = core_rsa::MAX_BITS / 8;

/// The fixed RFC 8410 PKCS#8 v1 prefix of an Ed25519 private key; the 32-byte seed follows.
const ED25519_PKCS8_PREFIX: [u8; 16] = [
    0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
];

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
}

impl core::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Self::Ed25519(_) => "SigningKey::Ed25519",
            Self::EcdsaP256(_) => "SigningKey::EcdsaP256",
            Self::EcdsaP384(_) => "SigningKey::EcdsaP384",
            Self::Rsa(_) => "SigningKey::Rsa",
        })
    }
}

impl SigningKey {
    /// Reads a PKCS#8 `PrivateKeyInfo` (DER) holding an Ed25519, P-256, P-384 or RSA key.
    /// Anything else is [`ApiMisuse::BadConfig`].
    pub fn from_pkcs8_der(der: &[u8]) -> Result<Self, Error> {
        if der.len() == 48 && der[..16] == ED25519_PKCS8_PREFIX {
            let mut seed = [0u8; 32];
            seed.copy_from_slice(&der[16..]);
            let key = ed25519::SigningKey::from_seed(&seed);
            zeroize::Zeroize::zeroize(&mut seed);
            return Ok(Self::Ed25519(key));
        }
        if let Ok(k) = p256::SecretKey::from_pkcs8_der(der) {
            return Ok(Self::EcdsaP256(k.into()));
        }
        if let Ok(k) = p384::SecretKey::from_pkcs8_der(der) {
            return Ok(Self::EcdsaP384(k.into()));
        }
        if let Ok(k) = core_rsa::PrivateKey::from_pkcs8_der(der) {
            return Ok(Self::Rsa(k));
        }
        Err(Error::ApiMisuse(ApiMisuse::BadConfig))
    }

    /// Reads the first `PRIVATE KEY` (PKCS#8) block of a PEM text, decoding it in `scratch`
    /// (which then holds secret bytes: wipe it; 1300 bytes fit an RSA-2048 key).
    pub fn from_pkcs8_pem(text: &str, scratch: &mut [u8]) -> Result<Self, Error> {
        let der = crate::pem::decode_first(text, "PRIVATE KEY", scratch)
            .map_err(|_| Error::ApiMisuse(ApiMisuse::BadConfig))?;
        Self::from_pkcs8_der(der)
    }

    /// Our most preferred scheme that `offered` accepts.
    pub fn choose_scheme(
        &self,
        offered: impl Fn(SignatureScheme) -> bool,
    ) -> Option<SignatureScheme> {
        crate::provider::choose_scheme(self, offered)
    }
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
        }
    }

    /// ECDSA signatures are deterministic (RFC 6979); `rng` gives RSA-PSS its salt and blinds
    /// the RSA private operation.
    fn sign(
        &self,
        scheme: SignatureScheme,
        msg: &[u8],
        rng: &mut dyn RandomSource,
        out: &mut [u8; MAX_SIGNATURE_LEN],
    ) -> Result<usize, Error> {
        if !self.schemes().contains(&scheme) {
            return Err(Error::ApiMisuse(ApiMisuse::BadConfig));
        }
        let mut put = |b: &[u8]| {
            out[..b.len()].copy_from_slice(b);
            Ok(b.len())
        };
        match self {
            Self::Ed25519(k) => put(&k.sign(msg).to_bytes()),
            Self::EcdsaP256(k) => put(k.sign(msg).to_der().as_ref()),
            Self::EcdsaP384(k) => put(k.sign(msg).to_der().as_ref()),
            Self::Rsa(k) => {
                let hash = match scheme {
                    SignatureScheme::RSA_PSS_RSAE_SHA256 => core_rsa::HashAlg::Sha256,
                    SignatureScheme::RSA_PSS_RSAE_SHA384 => core_rsa::HashAlg::Sha384,
                    _ => core_rsa::HashAlg::Sha512,
                };
                k.sign_pss(core_rsa::Pss::new(hash), msg, rng, out).map_err(|e| match e {
                    core_rsa::Error::RandomFailed => Error::RandomFailed,
                    // The key is too small for the hash, or the private operation faulted.
                    _ => Error::ApiMisuse(ApiMisuse::BadConfig),
                })
            }
        }
    }
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
