//! Private keys for signing: [`any_supported_type`] loads PKCS#8 (Ed25519, ECDSA
//! P-256/P-384/P-521, RSA), SEC1 EC and PKCS#1 RSA keys into rustls [`SigningKey`]s, which
//! choose a signature scheme from what the peer offers: the curve's own scheme for ECDSA
//! (RFC 8446 §4.2.3), Ed25519, or RSA-PSS before PKCS#1 v1.5 and longer hashes first.

use std::sync::Arc;

use pki_types::{PrivateKeyDer, SubjectPublicKeyInfoDer, alg_id};
use rustls::sign::{Signer, SigningKey, public_key_to_spki};
use rustls::{Error, SignatureAlgorithm, SignatureScheme};

/// Loads any key this provider can sign with, or says why not (never panics on any input).
pub fn any_supported_type(der: &PrivateKeyDer<'_>) -> Result<Arc<dyn SigningKey>, Error> {
    match der {
        PrivateKeyDer::Pkcs8(key) => {
            let der = key.secret_pkcs8_der();
            if let Some(seed) = ed25519_pkcs8_seed(der) {
                return Ok(Arc::new(Ed25519Key(core_ec::ed25519::SigningKey::from_seed(&seed))));
            }
            if let Ok(k) = core_ec::p256::SecretKey::from_pkcs8_der(der) {
                return Ok(Arc::new(EcdsaKey::P256(k.into())));
            }
            if let Ok(k) = core_ec::p384::SecretKey::from_pkcs8_der(der) {
                return Ok(Arc::new(EcdsaKey::P384(k.into())));
            }
            if let Ok(k) = core_ec::p521::SecretKey::from_pkcs8_der(der) {
                return Ok(Arc::new(EcdsaKey::P521(k.into())));
            }
            rsa(core_rsa::PrivateKey::from_pkcs8_der(der))
        }
        PrivateKeyDer::Sec1(key) => {
            let der = key.secret_sec1_der();
            if let Ok(k) = core_ec::p256::SecretKey::from_sec1_der(der) {
                return Ok(Arc::new(EcdsaKey::P256(k.into())));
            }
            if let Ok(k) = core_ec::p384::SecretKey::from_sec1_der(der) {
                return Ok(Arc::new(EcdsaKey::P384(k.into())));
            }
            if let Ok(k) = core_ec::p521::SecretKey::from_sec1_der(der) {
                return Ok(Arc::new(EcdsaKey::P521(k.into())));
            }
            Err(Error::General("unsupported or malformed SEC1 EC private key".into()))
        }
        PrivateKeyDer::Pkcs1(key) => {
            rsa(core_rsa::PrivateKey::from_pkcs1_der(key.secret_pkcs1_der()))
        }
        _ => Err(Error::General("unsupported private key format".into())),
    }
}

/// The RSA key, or the error for a key of no supported type.
fn rsa(key: Result<core_rsa::PrivateKey, core_rsa::Error>) -> Result<Arc<dyn SigningKey>, Error> {
    match key {
        Ok(key) => Ok(Arc::new(RsaKey(Arc::new(key)))),
        Err(e) => Err(Error::General(format!("unsupported or malformed private key ({e})"))),
    }
}

/// The seed of an Ed25519 PKCS#8 key (RFC 8410 §7): version 0 or 1, the id-Ed25519
/// algorithm with no parameters, and a `CurvePrivateKey` of 32 bytes; a version-1 key's
/// attributes and public key after it are not read.
fn ed25519_pkcs8_seed(der: &[u8]) -> Option<[u8; 32]> {
    const ALGORITHM: [u8; 7] = [0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70];
    const PRIVATE_KEY: [u8; 4] = [0x04, 0x22, 0x04, 0x20];
    let (&tag, rest) = der.split_first()?;
    let (&len, body) = rest.split_first()?;
    // Every Ed25519 PKCS#8 key is shorter than 128 bytes: the length is in short form.
    if tag != 0x30 || usize::from(len) != body.len() {
        return None;
    }
    let body = body
        .strip_prefix(&[0x02, 0x01, 0x00])
        .or_else(|| body.strip_prefix(&[0x02, 0x01, 0x01]))?;
    let body = body.strip_prefix(&ALGORITHM)?.strip_prefix(&PRIVATE_KEY)?;
    let seed: [u8; 32] = body.get(..32)?.try_into().ok()?;
    let version_one = der.get(4) == Some(&1);
    (version_one || body.len() == 32).then_some(seed)
}

/// An Ed25519 signing key (RFC 8032), for the `ed25519` scheme.
struct Ed25519Key(core_ec::ed25519::SigningKey);

impl core::fmt::Debug for Ed25519Key {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Ed25519Key")
    }
}

impl SigningKey for Ed25519Key {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn Signer>> {
        offered
            .contains(&SignatureScheme::ED25519)
            .then(|| Box::new(Ed25519Signer(self.0.clone())) as Box<dyn Signer>)
    }

    fn public_key(&self) -> Option<SubjectPublicKeyInfoDer<'_>> {
        Some(public_key_to_spki(&alg_id::ED25519, self.0.verifying_key().to_bytes()))
    }

    fn algorithm(&self) -> SignatureAlgorithm {
        SignatureAlgorithm::ED25519
    }
}

/// Signs with Ed25519.
struct Ed25519Signer(core_ec::ed25519::SigningKey);

impl core::fmt::Debug for Ed25519Signer {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Ed25519Signer")
    }
}

impl Signer for Ed25519Signer {
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, Error> {
        Ok(self.0.sign(message).to_bytes().to_vec())
    }

    fn scheme(&self) -> SignatureScheme {
        SignatureScheme::ED25519
    }
}

/// An ECDSA signing key; each curve signs with its own hash (RFC 8446 §4.2.3).
#[derive(Clone)]
enum EcdsaKey {
    P256(core_ec::p256::SigningKey),
    P384(core_ec::p384::SigningKey),
    P521(core_ec::p521::SigningKey),
}

impl core::fmt::Debug for EcdsaKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "EcdsaKey({:?})", self.scheme())
    }
}

impl EcdsaKey {
    fn scheme(&self) -> SignatureScheme {
        match self {
            Self::P256(_) => SignatureScheme::ECDSA_NISTP256_SHA256,
            Self::P384(_) => SignatureScheme::ECDSA_NISTP384_SHA384,
            Self::P521(_) => SignatureScheme::ECDSA_NISTP521_SHA512,
        }
    }
}

impl SigningKey for EcdsaKey {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn Signer>> {
        offered.contains(&self.scheme()).then(|| Box::new(self.clone()) as Box<dyn Signer>)
    }

    fn public_key(&self) -> Option<SubjectPublicKeyInfoDer<'_>> {
        Some(match self {
            Self::P256(k) => {
                public_key_to_spki(&alg_id::ECDSA_P256, k.verifying_key().to_sec1_bytes())
            }
            Self::P384(k) => {
                public_key_to_spki(&alg_id::ECDSA_P384, k.verifying_key().to_sec1_bytes())
            }
            Self::P521(k) => {
                public_key_to_spki(&alg_id::ECDSA_P521, k.verifying_key().to_sec1_bytes())
            }
        })
    }

    fn algorithm(&self) -> SignatureAlgorithm {
        SignatureAlgorithm::ECDSA
    }
}

impl Signer for EcdsaKey {
    /// A DER signature with an RFC 6979 nonce hedged by fresh randomness (§3.6).
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, Error> {
        let rng = &mut core_hash::PooledOsRandom;
        let der = match self {
            Self::P256(k) => k.sign_hedged(message, rng).map(|s| s.to_der().as_ref().to_vec()),
            Self::P384(k) => k.sign_hedged(message, rng).map(|s| s.to_der().as_ref().to_vec()),
            Self::P521(k) => k.sign_hedged(message, rng).map(|s| s.to_der().as_ref().to_vec()),
        };
        der.map_err(|_| Error::FailedToGetRandomBytes)
    }

    fn scheme(&self) -> SignatureScheme {
        EcdsaKey::scheme(self)
    }
}

/// The RSA schemes, most preferred first: PSS (RFC 8017 §8.1, required by TLS 1.3) before
/// PKCS#1 v1.5, longer hashes first.
const RSA_SCHEMES: [SignatureScheme; 6] = [
    SignatureScheme::RSA_PSS_SHA512,
    SignatureScheme::RSA_PSS_SHA384,
    SignatureScheme::RSA_PSS_SHA256,
    SignatureScheme::RSA_PKCS1_SHA512,
    SignatureScheme::RSA_PKCS1_SHA384,
    SignatureScheme::RSA_PKCS1_SHA256,
];

/// An RSA signing key (an rsaEncryption key: it may sign PSS and PKCS#1 v1.5).
struct RsaKey(Arc<core_rsa::PrivateKey>);

impl core::fmt::Debug for RsaKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "RsaKey({} bits)", self.0.bits())
    }
}

impl SigningKey for RsaKey {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn Signer>> {
        let scheme = RSA_SCHEMES.into_iter().find(|s| offered.contains(s))?;
        Some(Box::new(RsaSigner { key: Arc::clone(&self.0), scheme }))
    }

    fn public_key(&self) -> Option<SubjectPublicKeyInfoDer<'_>> {
        let mut der = vec![0u8; self.0.modulus_len() + 64];
        let len = self.0.public_key().to_pkcs1_der(&mut der).ok()?;
        Some(public_key_to_spki(&alg_id::RSA_ENCRYPTION, &der[..len]))
    }

    fn algorithm(&self) -> SignatureAlgorithm {
        SignatureAlgorithm::RSA
    }
}

/// Signs with one RSA scheme.
struct RsaSigner {
    key: Arc<core_rsa::PrivateKey>,
    scheme: SignatureScheme,
}

impl core::fmt::Debug for RsaSigner {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "RsaSigner({:?})", self.scheme)
    }
}

impl Signer for RsaSigner {
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, Error> {
        use core_rsa::HashAlg::{Sha256, Sha384, Sha512};
        let (pss, hash) = match self.scheme {
            SignatureScheme::RSA_PSS_SHA512 => (true, Sha512),
            SignatureScheme::RSA_PSS_SHA384 => (true, Sha384),
            SignatureScheme::RSA_PSS_SHA256 => (true, Sha256),
            SignatureScheme::RSA_PKCS1_SHA512 => (false, Sha512),
            SignatureScheme::RSA_PKCS1_SHA384 => (false, Sha384),
            _ => (false, Sha256),
        };
        let mut sig = vec![0u8; self.key.modulus_len()];
        let rng = &mut core_hash::PooledOsRandom;
        let len = if pss {
            let params = core_rsa::Pss::with_salt_len(hash, hash.output_len());
            self.key.sign_pss(params, message, rng, &mut sig)
        } else {
            self.key.sign_pkcs1v15(hash, message, rng, &mut sig)
        }
        .map_err(|e| Error::General(format!("RSA signing failed ({e})")))?;
        sig.truncate(len);
        Ok(sig)
    }

    fn scheme(&self) -> SignatureScheme {
        self.scheme
    }
}
