//! Private keys for signing: [`any_supported_type`] loads PKCS#8 (Ed25519, ECDSA
//! P-256/P-384/P-521, RSA, RSASSA-PSS, ML-DSA in any RFC 9881 form), SEC1 EC and PKCS#1 RSA
//! keys into rustls [`SigningKey`]s, which choose a signature scheme from what the peer
//! offers: the curve's own scheme for ECDSA (RFC 8446 §4.2.3), Ed25519, RSA-PSS before PKCS#1
//! v1.5 and longer hashes first for an rsaEncryption key, only `rsa_pss_pss_*` for an
//! id-RSASSA-PSS key, and its parameter set's `mldsa*` scheme for ML-DSA.

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
            if let Some(key) = MlDsaKey::from_pkcs8_der(der) {
                return key;
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

/// The RSA key (rsaEncryption or id-RSASSA-PSS), or the error for a key of no supported type.
fn rsa(key: Result<core_rsa::PrivateKey, core_rsa::Error>) -> Result<Arc<dyn SigningKey>, Error> {
    let key =
        key.map_err(|e| Error::General(format!("unsupported or malformed private key ({e})")))?;
    match key.pss_params() {
        None => Ok(Arc::new(RsaKey(Arc::new(key)))),
        Some(params) => Ok(Arc::new(RsaPssKey::new(key, params)?)),
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

/// An ML-DSA signing key, for its parameter set's scheme (draft-ietf-tls-mldsa; rustls offers
/// it in TLS 1.3 only). Signatures are hedged, with the empty context.
#[derive(Clone)]
enum MlDsaKey {
    MlDsa44(Arc<core_lattice::mldsa44::SigningKey>),
    MlDsa65(Arc<core_lattice::mldsa65::SigningKey>),
    MlDsa87(Arc<core_lattice::mldsa87::SigningKey>),
}

impl MlDsaKey {
    /// The key of a PKCS#8 ML-DSA key (seed, expanded or both), an error for a malformed
    /// one, or `None` for a key of another algorithm.
    fn from_pkcs8_der(der: &[u8]) -> Option<Result<Arc<dyn SigningKey>, Error>> {
        use core_lattice::{KeyAlgorithm, mldsa44, mldsa65, mldsa87};
        let key = match core_der::pkix::PrivateKeyInfo::from_der(der).ok()?.algorithm.kind() {
            KeyAlgorithm::MlDsa44 => {
                mldsa44::SigningKey::from_pkcs8_der(der).map(|k| Self::MlDsa44(Arc::new(k)))
            }
            KeyAlgorithm::MlDsa65 => {
                mldsa65::SigningKey::from_pkcs8_der(der).map(|k| Self::MlDsa65(Arc::new(k)))
            }
            KeyAlgorithm::MlDsa87 => {
                mldsa87::SigningKey::from_pkcs8_der(der).map(|k| Self::MlDsa87(Arc::new(k)))
            }
            _ => return None,
        };
        Some(match key {
            Ok(key) => Ok(Arc::new(key)),
            Err(e) => Err(Error::General(format!("malformed ML-DSA private key ({e})"))),
        })
    }
}

impl core::fmt::Debug for MlDsaKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "MlDsaKey({:?})", Signer::scheme(self))
    }
}

impl SigningKey for MlDsaKey {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn Signer>> {
        offered.contains(&Signer::scheme(self)).then(|| Box::new(self.clone()) as Box<dyn Signer>)
    }

    fn public_key(&self) -> Option<SubjectPublicKeyInfoDer<'_>> {
        Some(match self {
            Self::MlDsa44(k) => {
                public_key_to_spki(&alg_id::ML_DSA_44, k.verifying_key().as_bytes())
            }
            Self::MlDsa65(k) => {
                public_key_to_spki(&alg_id::ML_DSA_65, k.verifying_key().as_bytes())
            }
            Self::MlDsa87(k) => {
                public_key_to_spki(&alg_id::ML_DSA_87, k.verifying_key().as_bytes())
            }
        })
    }

    /// No TLS 1.2 `SignatureAlgorithm` exists for ML-DSA (as rustls's own providers say).
    fn algorithm(&self) -> SignatureAlgorithm {
        SignatureAlgorithm::Unknown(0)
    }
}

impl Signer for MlDsaKey {
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, Error> {
        let rng = &mut core_hash::PooledOsRandom;
        match self {
            Self::MlDsa44(k) => k.sign(message, &[], rng).map(|s| s.as_bytes().to_vec()),
            Self::MlDsa65(k) => k.sign(message, &[], rng).map(|s| s.as_bytes().to_vec()),
            Self::MlDsa87(k) => k.sign(message, &[], rng).map(|s| s.as_bytes().to_vec()),
        }
        .map_err(|e| Error::General(format!("ML-DSA signing failed ({e})")))
    }

    fn scheme(&self) -> SignatureScheme {
        match self {
            Self::MlDsa44(_) => SignatureScheme::ML_DSA_44,
            Self::MlDsa65(_) => SignatureScheme::ML_DSA_65,
            Self::MlDsa87(_) => SignatureScheme::ML_DSA_87,
        }
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

/// How an RSA scheme signs: RSASSA-PSS with MGF1 over the same hash and a salt as long as the
/// hash (RFC 8446 §4.2.3), or PKCS#1 v1.5.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RsaPadding {
    Pss(core_rsa::HashAlg),
    Pkcs1(core_rsa::HashAlg),
}

/// The schemes of an rsaEncryption key, most preferred first: PSS (RFC 8017 §8.1, required by
/// TLS 1.3) before PKCS#1 v1.5, longer hashes first.
const RSA_SCHEMES: [(SignatureScheme, RsaPadding); 6] = {
    use core_rsa::HashAlg::{Sha256, Sha384, Sha512};
    [
        (SignatureScheme::RSA_PSS_SHA512, RsaPadding::Pss(Sha512)),
        (SignatureScheme::RSA_PSS_SHA384, RsaPadding::Pss(Sha384)),
        (SignatureScheme::RSA_PSS_SHA256, RsaPadding::Pss(Sha256)),
        (SignatureScheme::RSA_PKCS1_SHA512, RsaPadding::Pkcs1(Sha512)),
        (SignatureScheme::RSA_PKCS1_SHA384, RsaPadding::Pkcs1(Sha384)),
        (SignatureScheme::RSA_PKCS1_SHA256, RsaPadding::Pkcs1(Sha256)),
    ]
};

/// `rsa_pss_pss_sha256/384/512` (0x0809–0x080b, RFC 8446 §4.2.3), the only schemes of an
/// id-RSASSA-PSS key, longer hashes first. rustls has no names for them but carries them as
/// `Unknown` values, lets them through its TLS 1.3 filter (a denylist of SHA-1, SHA-224 and
/// PKCS#1 v1.5) and hands them to `choose_scheme` when a peer offers them: OpenSSL and
/// Halite's `tls` do, rustls's own verifiers (ring, aws-lc-rs, this crate's) do not. In TLS 1.2
/// rustls drops schemes it has no name for (`SignatureScheme::algorithm` is `None`, which its
/// server keeps only for TLS 1.3 suites), so such a key signs in TLS 1.3 only.
pub const RSA_PSS_PSS_SCHEMES: [SignatureScheme; 3] = [
    SignatureScheme::Unknown(0x080b),
    SignatureScheme::Unknown(0x080a),
    SignatureScheme::Unknown(0x0809),
];

/// [`RSA_PSS_PSS_SCHEMES`] with how each signs.
const RSA_PSS_PSS_PADDINGS: [(SignatureScheme, RsaPadding); 3] = {
    use core_rsa::HashAlg::{Sha256, Sha384, Sha512};
    [
        (RSA_PSS_PSS_SCHEMES[0], RsaPadding::Pss(Sha512)),
        (RSA_PSS_PSS_SCHEMES[1], RsaPadding::Pss(Sha384)),
        (RSA_PSS_PSS_SCHEMES[2], RsaPadding::Pss(Sha256)),
    ]
};

/// The first of `schemes` that `offered` holds, signing with `key`.
fn rsa_signer(
    key: &Arc<core_rsa::PrivateKey>,
    schemes: impl IntoIterator<Item = (SignatureScheme, RsaPadding)>,
    offered: &[SignatureScheme],
) -> Option<Box<dyn Signer>> {
    let (scheme, padding) = schemes.into_iter().find(|(s, _)| offered.contains(s))?;
    Some(Box::new(RsaSigner { key: Arc::clone(key), scheme, padding }))
}

/// An RSA signing key (an rsaEncryption key: it may sign PSS and PKCS#1 v1.5).
struct RsaKey(Arc<core_rsa::PrivateKey>);

impl core::fmt::Debug for RsaKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "RsaKey({} bits)", self.0.bits())
    }
}

impl SigningKey for RsaKey {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn Signer>> {
        rsa_signer(&self.0, RSA_SCHEMES, offered)
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

/// An RSASSA-PSS key (id-RSASSA-PSS, RFC 4055): its certificate says it signs only PSS, so it
/// offers only the `rsa_pss_pss_*` schemes (RFC 8446 §4.2.3) — all three without
/// RSASSA-PSS-params, or the one its parameters name.
struct RsaPssKey {
    key: Arc<core_rsa::PrivateKey>,
    /// The hash its parameters restrict it to; `None` without parameters.
    hash: Option<core_rsa::HashAlg>,
}

impl RsaPssKey {
    /// The key, or why its parameters leave it no TLS scheme: a `rsa_pss_pss_*` signature
    /// uses SHA-256, -384 or -512 for both the message and MGF1, with a salt as long as the
    /// hash (RFC 8446 §4.2.3), so a key restricted to anything else cannot sign in TLS.
    fn new(key: core_rsa::PrivateKey, params: core_rsa::PssKeyParams) -> Result<Self, Error> {
        use core_rsa::HashAlg::{Sha256, Sha384, Sha512};
        let Some(only) = params.restriction() else {
            return Ok(Self { key: Arc::new(key), hash: None });
        };
        let usable = matches!(only.hash, Sha256 | Sha384 | Sha512)
            && only.mgf1_hash == only.hash
            && only.salt_len == Some(only.hash.output_len());
        if !usable {
            return Err(Error::General(format!(
                "RSASSA-PSS key restricted to {:?} with MGF1-{:?} and a {}-byte salt: TLS's \
                 rsa_pss_pss_* schemes need SHA-256, SHA-384 or SHA-512 for both and a salt as \
                 long as the hash (RFC 8446 §4.2.3), so this key cannot sign in TLS",
                only.hash,
                only.mgf1_hash,
                only.salt_len.unwrap_or_default(),
            )));
        }
        Ok(Self { key: Arc::new(key), hash: Some(only.hash) })
    }
}

impl core::fmt::Debug for RsaPssKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "RsaPssKey({} bits, {:?})", self.key.bits(), self.hash)
    }
}

impl SigningKey for RsaPssKey {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn Signer>> {
        let allowed = RSA_PSS_PSS_PADDINGS
            .into_iter()
            .filter(|&(_, p)| self.hash.is_none_or(|h| p == RsaPadding::Pss(h)));
        rsa_signer(&self.key, allowed, offered)
    }

    /// The id-RSASSA-PSS `SubjectPublicKeyInfo` with the parameters as the key had them, as
    /// in its certificate.
    fn public_key(&self) -> Option<SubjectPublicKeyInfoDer<'_>> {
        let mut der = vec![0u8; self.key.modulus_len() + 128];
        let len = self.key.public_key().to_spki_der(&mut der).ok()?;
        der.truncate(len);
        Some(SubjectPublicKeyInfoDer::from(der))
    }

    fn algorithm(&self) -> SignatureAlgorithm {
        SignatureAlgorithm::RSA
    }
}

/// Signs with one RSA scheme.
struct RsaSigner {
    key: Arc<core_rsa::PrivateKey>,
    scheme: SignatureScheme,
    padding: RsaPadding,
}

impl core::fmt::Debug for RsaSigner {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "RsaSigner({:?})", self.scheme)
    }
}

impl Signer for RsaSigner {
    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, Error> {
        let mut sig = vec![0u8; self.key.modulus_len()];
        let rng = &mut core_hash::PooledOsRandom;
        let len = match self.padding {
            RsaPadding::Pss(hash) => {
                let params = core_rsa::Pss::with_salt_len(hash, hash.output_len());
                self.key.sign_pss(params, message, rng, &mut sig)
            }
            RsaPadding::Pkcs1(hash) => self.key.sign_pkcs1v15(hash, message, rng, &mut sig),
        }
        .map_err(|e| Error::General(format!("RSA signing failed ({e})")))?;
        sig.truncate(len);
        Ok(sig)
    }

    fn scheme(&self) -> SignatureScheme {
        self.scheme
    }
}
