//! Certificate and signature verification: `rustls-webpki` walks the chain, and the
//! signatures it meets are checked by the verifiers of `webpki-halite` (re-exported here), which
//! `rustls-halite` shares — Ed25519 and ECDSA P-256/P-384 from `core-ec`, RSA PKCS#1 v1.5 and PSS
//! from `core-rsa`, for rsaEncryption and RSASSA-PSS keys (2048 to 8192 bits), and with the
//! `mldsa` feature ML-DSA-44/65/87 from `core-lattice` — so no other crypto library sits
//! underneath. This module chooses which of them TLS offers and accepts.

use pki_types::{
    AlgorithmIdentifier, CertificateDer, InvalidSignature, ServerName,
    SignatureVerificationAlgorithm, TrustAnchor, UnixTime,
};

use crate::der;
use crate::error::{CertificateError, Error, PeerMisbehaved};
use crate::key_schedule::HashAlg;
use crate::msgs::{ProtocolVersion, SignatureScheme};

pub use webpki_halite::{
    Curve, ECDSA_P256_SHA256, ECDSA_P256_SHA384, ECDSA_P256_SHA512, ED25519, EcdsaVerify,
    Ed25519Verify, MAX_RSA_BITS, MIN_RSA_BITS, RSA_PKCS1_SHA256, RSA_PKCS1_SHA384,
    RSA_PKCS1_SHA512, RSA_PSS_KEY_SHA256, RSA_PSS_KEY_SHA256_ONLY, RSA_PSS_KEY_SHA384,
    RSA_PSS_KEY_SHA384_ONLY, RSA_PSS_KEY_SHA512, RSA_PSS_KEY_SHA512_ONLY, RSA_PSS_SHA256,
    RSA_PSS_SHA384, RSA_PSS_SHA512, RSASSA_PSS_KEY, RsaKeyAlg, RsaPadding, RsaVerify,
};
#[cfg(feature = "ecdsa-p384")]
pub use webpki_halite::{ECDSA_P384_SHA256, ECDSA_P384_SHA384, ECDSA_P384_SHA512};
#[cfg(feature = "mldsa")]
pub use webpki_halite::{ML_DSA_44, ML_DSA_65, ML_DSA_87, MlDsaLevel, MlDsaVerify};

/// Every certificate signature algorithm this build checks: each family only with its
/// feature (`ed25519`, `ecdsa-p256`, `ecdsa-p384`, `rsa`; `certificates` has all), so that a
/// device build links only the verifiers of the chains it takes.
pub static SUPPORTED_CERT_SIG_ALGS: &[&dyn SignatureVerificationAlgorithm] = &[
    #[cfg(feature = "ed25519")]
    ED25519,
    #[cfg(feature = "ecdsa-p256")]
    ECDSA_P256_SHA256,
    // A P-256 key signed with SHA-384 (by a P-384 root, usually): only where SHA-384 is
    // linked anyway, so that a P-256-only device build hashes with SHA-256 alone.
    #[cfg(all(feature = "ecdsa-p256", feature = "sha384"))]
    ECDSA_P256_SHA384,
    #[cfg(feature = "ecdsa-p384")]
    ECDSA_P384_SHA256,
    #[cfg(feature = "ecdsa-p384")]
    ECDSA_P384_SHA384,
    #[cfg(feature = "rsa")]
    RSA_PSS_SHA256,
    #[cfg(feature = "rsa")]
    RSA_PSS_SHA384,
    #[cfg(feature = "rsa")]
    RSA_PSS_SHA512,
    #[cfg(feature = "rsa")]
    RSA_PSS_KEY_SHA256,
    #[cfg(feature = "rsa")]
    RSA_PSS_KEY_SHA384,
    #[cfg(feature = "rsa")]
    RSA_PSS_KEY_SHA512,
    #[cfg(feature = "rsa")]
    RSA_PSS_KEY_SHA256_ONLY,
    #[cfg(feature = "rsa")]
    RSA_PSS_KEY_SHA384_ONLY,
    #[cfg(feature = "rsa")]
    RSA_PSS_KEY_SHA512_ONLY,
    #[cfg(feature = "rsa")]
    RSA_PKCS1_SHA256,
    #[cfg(feature = "rsa")]
    RSA_PKCS1_SHA384,
    #[cfg(feature = "rsa")]
    RSA_PKCS1_SHA512,
    #[cfg(feature = "mldsa")]
    ML_DSA_44,
    #[cfg(feature = "mldsa")]
    ML_DSA_65,
    #[cfg(feature = "mldsa")]
    ML_DSA_87,
];

/// The TLS signature schemes this side can verify in CertificateVerify, with their verifier,
/// in the order they are offered (RFC 8446 §4.2.3: PKCS#1 v1.5 is for certificates only;
/// the ML-DSA schemes last, as the classical ones are smaller on the wire and faster to check).
/// Each family only with its feature (`ed25519`, `ecdsa-p256`, `ecdsa-p384`, `rsa`;
/// `certificates` has all), so that a device build links only the verifier it uses.
pub static SUPPORTED_SCHEMES: &[(SignatureScheme, &dyn SignatureVerificationAlgorithm)] = &[
    #[cfg(feature = "ed25519")]
    (SignatureScheme::ED25519, ED25519),
    #[cfg(feature = "ecdsa-p256")]
    (SignatureScheme::ECDSA_SECP256R1_SHA256, ECDSA_P256_SHA256),
    #[cfg(feature = "ecdsa-p384")]
    (SignatureScheme::ECDSA_SECP384R1_SHA384, ECDSA_P384_SHA384),
    #[cfg(feature = "rsa")]
    (SignatureScheme::RSA_PSS_RSAE_SHA256, RSA_PSS_SHA256),
    #[cfg(feature = "rsa")]
    (SignatureScheme::RSA_PSS_RSAE_SHA384, RSA_PSS_SHA384),
    #[cfg(feature = "rsa")]
    (SignatureScheme::RSA_PSS_RSAE_SHA512, RSA_PSS_SHA512),
    #[cfg(feature = "rsa")]
    (SignatureScheme::RSA_PSS_PSS_SHA256, RSA_PSS_KEY_SHA256),
    #[cfg(feature = "rsa")]
    (SignatureScheme::RSA_PSS_PSS_SHA384, RSA_PSS_KEY_SHA384),
    #[cfg(feature = "rsa")]
    (SignatureScheme::RSA_PSS_PSS_SHA512, RSA_PSS_KEY_SHA512),
    #[cfg(feature = "mldsa")]
    (SignatureScheme::ML_DSA_44, ML_DSA_44),
    #[cfg(feature = "mldsa")]
    (SignatureScheme::ML_DSA_65, ML_DSA_65),
    #[cfg(feature = "mldsa")]
    (SignatureScheme::ML_DSA_87, ML_DSA_87),
];

/// The TLS signature schemes this side can verify in a TLS 1.2 ServerKeyExchange or
/// CertificateVerify, in the order they are offered: those of [`SUPPORTED_SCHEMES`], then
/// RSA PKCS#1 v1.5, which TLS 1.2 allows in handshake signatures (RFC 5246 §7.4.1.4.1) and
/// TLS 1.3 does not; and in 1.2 an `ecdsa_*` scheme names only the hash (RFC 8422 §5.1.1,
/// §5.4: the curve is the key's), see [`tls12_verifiers`]. SHA-1 schemes are not offered.
pub static SUPPORTED_SCHEMES_TLS12: &[SignatureScheme] = &[
    SignatureScheme::ED25519,
    SignatureScheme::ECDSA_SECP256R1_SHA256,
    SignatureScheme::ECDSA_SECP384R1_SHA384,
    SignatureScheme::ECDSA_SECP521R1_SHA512,
    SignatureScheme::RSA_PSS_RSAE_SHA256,
    SignatureScheme::RSA_PSS_RSAE_SHA384,
    SignatureScheme::RSA_PSS_RSAE_SHA512,
    SignatureScheme::RSA_PSS_PSS_SHA256,
    SignatureScheme::RSA_PSS_PSS_SHA384,
    SignatureScheme::RSA_PSS_PSS_SHA512,
    SignatureScheme::RSA_PKCS1_SHA256,
    SignatureScheme::RSA_PKCS1_SHA384,
    SignatureScheme::RSA_PKCS1_SHA512,
];

/// Each TLS 1.2 scheme's verifiers (see [`tls12_verifiers`]).
type Verifiers = &'static [&'static dyn SignatureVerificationAlgorithm];

static TLS12_VERIFIERS: &[(SignatureScheme, Verifiers)] = &[
    (SignatureScheme::ED25519, &[ED25519]),
    (
        SignatureScheme::ECDSA_SECP256R1_SHA256,
        &[
            ECDSA_P256_SHA256,
            #[cfg(feature = "ecdsa-p384")]
            ECDSA_P384_SHA256,
        ],
    ),
    (
        SignatureScheme::ECDSA_SECP384R1_SHA384,
        &[
            ECDSA_P256_SHA384,
            #[cfg(feature = "ecdsa-p384")]
            ECDSA_P384_SHA384,
        ],
    ),
    (
        SignatureScheme::ECDSA_SECP521R1_SHA512,
        &[
            ECDSA_P256_SHA512,
            #[cfg(feature = "ecdsa-p384")]
            ECDSA_P384_SHA512,
        ],
    ),
    (SignatureScheme::RSA_PSS_RSAE_SHA256, &[RSA_PSS_SHA256]),
    (SignatureScheme::RSA_PSS_RSAE_SHA384, &[RSA_PSS_SHA384]),
    (SignatureScheme::RSA_PSS_RSAE_SHA512, &[RSA_PSS_SHA512]),
    (SignatureScheme::RSA_PSS_PSS_SHA256, &[RSA_PSS_KEY_SHA256, RSA_PSS_KEY_SHA256_ONLY]),
    (SignatureScheme::RSA_PSS_PSS_SHA384, &[RSA_PSS_KEY_SHA384, RSA_PSS_KEY_SHA384_ONLY]),
    (SignatureScheme::RSA_PSS_PSS_SHA512, &[RSA_PSS_KEY_SHA512, RSA_PSS_KEY_SHA512_ONLY]),
    (SignatureScheme::RSA_PKCS1_SHA256, &[RSA_PKCS1_SHA256]),
    (SignatureScheme::RSA_PKCS1_SHA384, &[RSA_PKCS1_SHA384]),
    (SignatureScheme::RSA_PKCS1_SHA512, &[RSA_PKCS1_SHA512]),
];

/// The verifiers that may check a TLS 1.2 handshake signature with `scheme`, one per key
/// type it can come from: an `ecdsa_*` scheme is ECDSA with that hash by a P-256 or P-384
/// key (RFC 8422 §5.1.1, as `SignatureAndHashAlgorithm` {hash, ecdsa}); an `rsa_pss_pss_*`
/// one an RSASSA-PSS key with or without parameters. Empty for a scheme not in
/// [`SUPPORTED_SCHEMES_TLS12`].
pub fn tls12_verifiers(scheme: SignatureScheme) -> Verifiers {
    TLS12_VERIFIERS.iter().find(|(s, _)| *s == scheme).map_or(&[], |(_, v)| v)
}

/// The verifier of an `rsa_pss_pss_*` scheme for a key whose RSASSA-PSS-params restrict it
/// to the scheme's hash, tried when the key is not the parameterless one of
/// [`SUPPORTED_SCHEMES`]. None without the `rsa` feature.
pub(crate) fn restricted_pss(
    scheme: SignatureScheme,
) -> Option<&'static dyn SignatureVerificationAlgorithm> {
    if !cfg!(feature = "rsa") {
        return None;
    }
    match scheme {
        SignatureScheme::RSA_PSS_PSS_SHA256 => Some(RSA_PSS_KEY_SHA256_ONLY),
        SignatureScheme::RSA_PSS_PSS_SHA384 => Some(RSA_PSS_KEY_SHA384_ONLY),
        SignatureScheme::RSA_PSS_PSS_SHA512 => Some(RSA_PSS_KEY_SHA512_ONLY),
        _ => None,
    }
}

/// The most intermediates a chain may carry (no allocator: they are held on the stack).
pub const MAX_INTERMEDIATES: usize = 6;

/// `rustls-webpki`'s reason, kept as a [`CertificateError`].
fn map_webpki(e: &webpki::Error) -> Error {
    use CertificateError as C;
    use webpki::Error as W;
    #[allow(deprecated)] // the context-free variants are still returned without `alloc`
    Error::InvalidCertificate(match e {
        W::UnknownIssuer => C::UnknownIssuer,
        W::CertNotValidForName(_) => C::NotValidForName,
        W::CertExpired { .. } => C::Expired,
        W::CertNotValidYet { .. } => C::NotYetValid,
        W::CaUsedAsEndEntity => C::CaUsedAsEndEntity,
        W::EndEntityUsedAsCa => C::EndEntityUsedAsCa,
        W::RequiredEkuNotFound | W::RequiredEkuNotFoundContext(_) | W::EmptyEkuExtension => {
            C::InvalidPurpose
        }
        W::InvalidSignatureForPublicKey => C::BadSignature,
        W::UnsupportedSignatureAlgorithm
        | W::UnsupportedSignatureAlgorithmContext(_)
        | W::UnsupportedSignatureAlgorithmForPublicKey
        | W::UnsupportedSignatureAlgorithmForPublicKeyContext(_)
        | W::SignatureAlgorithmMismatch => C::UnsupportedSignatureAlgorithm,
        W::UnsupportedCriticalExtension => C::UnhandledCriticalExtension,
        W::NameConstraintViolation | W::PathLenConstraintViolated => C::ConstraintViolated,
        W::MaximumPathDepthExceeded
        | W::MaximumPathBuildCallsExceeded
        | W::MaximumSignatureChecksExceeded
        | W::MaximumNameConstraintComparisonsExceeded => C::ChainTooLong,
        W::BadDer
        | W::BadDerTime
        | W::TrailingData(_)
        | W::MalformedExtensions
        | W::ExtensionValueInvalid
        | W::InvalidCertValidity
        | W::InvalidSerialNumber
        | W::MalformedDnsIdentifier
        | W::MalformedNameConstraint
        | W::UnsupportedCertVersion => C::BadEncoding,
        _ => C::BadCertificate,
    })
}

/// Whose chain is being checked: a server's, for a name, or a client's.
#[derive(Clone, Copy, Debug)]
pub enum Peer<'n> {
    /// A server, whose end-entity certificate must be valid for this DNS name or IP address.
    Server(&'n str),
    /// A client (key usage clientAuth, no name).
    Client,
}

/// A digest naming a trust anchor: SHA-256 over its subject and SubjectPublicKeyInfo, each
/// preceded by its length (4 bytes, big-endian). A server's session tickets carry the one a
/// client's chain was verified to, so that a session is not resumed once the root is gone.
pub fn anchor_digest(anchor: &TrustAnchor<'_>) -> [u8; 32] {
    let mut h = core_hash::Sha256::new();
    for part in [anchor.subject.as_ref(), anchor.subject_public_key_info.as_ref()] {
        h.update(&(part.len() as u32).to_be_bytes());
        h.update(part);
    }
    h.finalize()
}

/// Verifies a chain (`end_entity` then `intermediates`) to `roots` at `now` for `peer`, then
/// the CertificateVerify signature `sig` with `scheme` over `message`. `scheme` must be one
/// of [`SUPPORTED_SCHEMES`] and match the certificate's key. Returns the
/// [`anchor_digest`] of the root the chain leads to.
#[allow(clippy::too_many_arguments)] // the chain, its context, and the signature: all distinct
pub fn verify_peer(
    end_entity: &[u8],
    intermediates: &[&[u8]],
    roots: &[TrustAnchor<'_>],
    peer: Peer<'_>,
    now: UnixTime,
    scheme: SignatureScheme,
    message: &[u8],
    sig: &[u8],
) -> Result<[u8; 32], Error> {
    let anchor = verify_chain(end_entity, intermediates, roots, peer, now)?;
    let ee_der = CertificateDer::from(end_entity);
    let ee = webpki::EndEntityCert::try_from(&ee_der).map_err(|e| map_webpki(&e))?;
    signature_by(end_entity, &ee, scheme, message, sig)?;
    Ok(anchor)
}

/// Verifies a chain (`end_entity` then `intermediates`) to `roots` at `now` for `peer`
/// (and, for a server, its name), without any handshake signature: for TLS 1.2, whose
/// ServerKeyExchange or CertificateVerify signature is then checked by
/// [`verify_signature_for`]. Returns the [`anchor_digest`] of the root the chain leads to.
pub fn verify_chain(
    end_entity: &[u8],
    intermediates: &[&[u8]],
    roots: &[TrustAnchor<'_>],
    peer: Peer<'_>,
    now: UnixTime,
) -> Result<[u8; 32], Error> {
    let ee_der = CertificateDer::from(end_entity);
    let ee = webpki::EndEntityCert::try_from(&ee_der).map_err(|e| map_webpki(&e))?;
    if intermediates.len() > MAX_INTERMEDIATES {
        return Err(Error::InvalidCertificate(CertificateError::ChainTooLong));
    }
    let mut inter: [CertificateDer<'_>; MAX_INTERMEDIATES] =
        core::array::from_fn(|_| CertificateDer::from(&[][..]));
    for (slot, der) in inter.iter_mut().zip(intermediates) {
        *slot = CertificateDer::from(*der);
    }
    let usage = match peer {
        Peer::Server(_) => webpki::KeyUsage::server_auth(),
        Peer::Client => webpki::KeyUsage::client_auth(),
    };
    let anchor = ee
        .verify_for_usage(
            SUPPORTED_CERT_SIG_ALGS,
            roots,
            &inter[..intermediates.len()],
            now,
            usage,
            None,
            None,
        )
        .map_err(|e| map_webpki(&e))
        .map(|path| anchor_digest(path.anchor()))?;
    if let Peer::Server(name) = peer {
        let server_name = ServerName::try_from(name)
            .map_err(|_| Error::InvalidCertificate(CertificateError::NotValidForName))?;
        ee.verify_is_valid_for_subject_name(&server_name).map_err(|e| map_webpki(&e))?;
    }
    Ok(anchor)
}

/// Checks a CertificateVerify signature `sig` with `scheme` over `message` by the key of
/// `end_entity` (RFC 8446 §4.4.3), without checking the certificate itself: for a
/// [`CertVerifier`] that trusts the certificate by other means (a pin, a private PKI). The
/// certificate's keyUsage is still checked (a key barred from signing is refused however the
/// certificate is trusted), as in [`verify_peer`].
pub fn verify_signature(
    end_entity: &[u8],
    scheme: SignatureScheme,
    message: &[u8],
    sig: &[u8],
) -> Result<(), Error> {
    let ee_der = CertificateDer::from(end_entity);
    let ee = webpki::EndEntityCert::try_from(&ee_der).map_err(|e| map_webpki(&e))?;
    signature_by(end_entity, &ee, scheme, message, sig)
}

/// Checks a handshake signature `sig` with `scheme` over `message` by the key of
/// `end_entity` under the rules of `version`: for TLS 1.3 exactly [`verify_signature`]
/// (schemes of [`SUPPORTED_SCHEMES`], an `ecdsa_*` scheme bound to its curve, no PKCS#1
/// v1.5); for TLS 1.2 the schemes of [`SUPPORTED_SCHEMES_TLS12`] as [`tls12_verifiers`]
/// reads them, for a ServerKeyExchange (`message` is its signed content) or a
/// CertificateVerify (`message` is the handshake messages so far). The keyUsage is checked
/// in both. A scheme outside the version's list is
/// [`PeerMisbehaved::SelectedUnofferedParameter`]; another version is
/// [`ApiMisuse::BadConfig`](crate::error::ApiMisuse::BadConfig).
pub fn verify_signature_for(
    version: ProtocolVersion,
    end_entity: &[u8],
    scheme: SignatureScheme,
    message: &[u8],
    sig: &[u8],
) -> Result<(), Error> {
    let tls12 = match version {
        ProtocolVersion::TLSV1_3 => false,
        ProtocolVersion::TLSV1_2 => true,
        _ => return Err(Error::ApiMisuse(crate::error::ApiMisuse::BadConfig)),
    };
    let ee_der = CertificateDer::from(end_entity);
    let ee = webpki::EndEntityCert::try_from(&ee_der).map_err(|e| map_webpki(&e))?;
    if !tls12 {
        return signature_by(end_entity, &ee, scheme, message, sig);
    }
    let algs = tls12_verifiers(scheme);
    if algs.is_empty() {
        return Err(Error::PeerMisbehaved(PeerMisbehaved::SelectedUnofferedParameter));
    }
    check_key_usage(end_entity)?;
    for alg in algs {
        #[allow(deprecated)] // the context-free variant is what a build without `alloc` returns
        match ee.verify_signature(*alg, message, sig) {
            Ok(()) => return Ok(()),
            // Another key type (curve, PSS restriction): try the scheme's next verifier.
            Err(
                webpki::Error::UnsupportedSignatureAlgorithmForPublicKey
                | webpki::Error::UnsupportedSignatureAlgorithmForPublicKeyContext(_),
            ) => {}
            Err(_) => break,
        }
    }
    Err(Error::PeerMisbehaved(PeerMisbehaved::BadSignature))
}

/// Checks the CertificateVerify signature by `ee` (parsed from `der`), once its keyUsage
/// allows signing.
fn signature_by(
    der: &[u8],
    ee: &webpki::EndEntityCert<'_>,
    scheme: SignatureScheme,
    message: &[u8],
    sig: &[u8],
) -> Result<(), Error> {
    let alg = SUPPORTED_SCHEMES
        .iter()
        .find(|(s, _)| *s == scheme)
        .map(|(_, a)| *a)
        .ok_or(Error::PeerMisbehaved(PeerMisbehaved::SelectedUnofferedParameter))?;
    check_key_usage(der)?;
    let bad = Error::PeerMisbehaved(PeerMisbehaved::BadSignature);
    #[allow(deprecated)] // the context-free variant is what a build without `alloc` returns
    match ee.verify_signature(alg, message, sig) {
        // The key is an RSASSA-PSS key with parameters: its verifier is the restricted one
        // (a hash other than the restriction's is refused there, as it must be).
        Err(
            webpki::Error::UnsupportedSignatureAlgorithmForPublicKey
            | webpki::Error::UnsupportedSignatureAlgorithmForPublicKeyContext(_),
        ) => match restricted_pss(scheme) {
            Some(alg) => ee.verify_signature(alg, message, sig).map_err(|_| bad),
            None => Err(bad),
        },
        r => r.map_err(|_| bad),
    }
}

/// The DER OID 2.5.29.15, id-ce-keyUsage (RFC 5280 §4.2.1.3).
const KEY_USAGE_OID: &[u8] = &[0x55, 0x1d, 0x0f];

/// Refuses an end-entity certificate `end_entity` whose keyUsage extension lacks
/// digitalSignature ([`CertificateError::KeyUsageForbidsSigning`]): its key may not sign a
/// CertificateVerify (RFC 5280 §4.2.1.3, RFC 8446 §4.4.2.4). A certificate without the
/// extension may sign; one whose extensions cannot be read is
/// [`CertificateError::BadEncoding`]. [`verify_peer`] and [`verify_signature`] check it, and
/// a connection checks it before any [`CertVerifier`], so a verifier that trusts a pinned
/// certificate cannot let such a key sign.
pub fn check_key_usage(end_entity: &[u8]) -> Result<(), Error> {
    match digital_signature_allowed(end_entity) {
        Some(true) => Ok(()),
        Some(false) => Err(Error::InvalidCertificate(CertificateError::KeyUsageForbidsSigning)),
        None => Err(Error::InvalidCertificate(CertificateError::BadEncoding)),
    }
}

/// Whether the certificate `der` may sign: `true` without a keyUsage extension, else whether
/// its digitalSignature bit (bit 0) is set (RFC 5280 §4.2.1.3; RFC 8446 §4.4.2.4 requires it
/// of a CertificateVerify key). `None` when the certificate or the extension is malformed.
/// `rustls-webpki` 0.103 does not look at keyUsage, so this walks the DER itself:
/// Certificate, TBSCertificate, `[3]` extensions, each Extension's extnID, optional critical
/// flag and extnValue (an OCTET STRING holding the KeyUsage BIT STRING).
fn digital_signature_allowed(der: &[u8]) -> Option<bool> {
    const SEQUENCE: u8 = 0x30;
    let (SEQUENCE, cert, _) = der::element(der)? else { return None };
    let (SEQUENCE, mut tbs, _) = der::element(cert)? else { return None };
    while !tbs.is_empty() {
        let (tag, contents, rest) = der::element(tbs)?;
        tbs = rest;
        if tag != 0xa3 {
            continue; // version, serial, ..., subjectPublicKeyInfo, unique ids
        }
        let (SEQUENCE, mut extensions, _) = der::element(contents)? else { return None };
        while !extensions.is_empty() {
            let (SEQUENCE, extension, rest) = der::element(extensions)? else { return None };
            extensions = rest;
            let (0x06, oid, mut fields) = der::element(extension)? else { return None };
            if oid != KEY_USAGE_OID {
                continue;
            }
            if let (0x01, _, rest) = der::element(fields)? {
                fields = rest; // critical
            }
            let (0x04, value, _) = der::element(fields)? else { return None };
            let (0x03, bits, []) = der::element(value)? else { return None };
            let (&unused, bits) = bits.split_first()?;
            if unused > 7 {
                return None;
            }
            return Some(bits.first().is_some_and(|b| b & 0x80 != 0));
        }
    }
    Some(true)
}

/// A certificate check that replaces the `rustls-webpki` path to configured roots
/// ([`crate::ClientConfig::verifier`], [`crate::ClientAuth::verifier`]): certificate
/// pinning, a private PKI, raw trust decisions. As rustls's `ServerCertVerifier`, it
/// decides whether the chain is trusted for `peer` and must also check the
/// CertificateVerify signature by the end-entity's key ([`verify_signature`] does that part).
/// The connection refuses an end-entity key whose keyUsage forbids signing before asking
/// ([`check_key_usage`]), so no verifier can accept one.
pub trait CertVerifier: core::fmt::Debug + Sync {
    /// Checks the chain (`end_entity`, then `intermediates` as the peer sent them) for `peer`
    /// at `now`, and the CertificateVerify signature `signature` with `scheme` over
    /// `message`. Returns a digest naming what the chain was trusted through (a pin, a root;
    /// [`anchor_digest`] for webpki's roots): a server's tickets carry it, and a session
    /// authenticated by it resumes only while [`CertVerifier::trusts`] says yes.
    #[allow(clippy::too_many_arguments)] // the chain, its context, and the signature
    fn verify(
        &self,
        end_entity: &[u8],
        intermediates: &[&[u8]],
        peer: Peer<'_>,
        now: UnixTime,
        scheme: SignatureScheme,
        message: &[u8],
        signature: &[u8],
    ) -> Result<[u8; 32], Error>;

    /// Checks the chain alone (`end_entity`, then `intermediates`) for `peer` at `now`, and
    /// returns the digest [`CertVerifier::verify`] would. A TLS 1.2 server asks this of a
    /// client's chain: the CertificateVerify signs every handshake message (RFC 5246
    /// §7.4.8), which a server without an allocator keeps only as a running hash, so the
    /// connection checks that signature itself from the hash, by the end-entity key
    /// ([`verify_signature_digest12`]). The default refuses with
    /// [`ApiMisuse::BadConfig`](crate::error::ApiMisuse::BadConfig): a verifier that does not
    /// implement this takes client certificates in TLS 1.3 only.
    fn verify_chain(
        &self,
        end_entity: &[u8],
        intermediates: &[&[u8]],
        peer: Peer<'_>,
        now: UnixTime,
    ) -> Result<[u8; 32], Error> {
        let _ = (end_entity, intermediates, peer, now);
        Err(Error::ApiMisuse(crate::error::ApiMisuse::BadConfig))
    }

    /// Whether a session whose chain [`CertVerifier::verify`] trusted through `digest` may
    /// still be resumed (a server asks, for client certificates). The default says no: such
    /// sessions need a full handshake until the verifier says how to tell.
    fn trusts(&self, digest: &[u8; 32]) -> bool {
        let _ = digest;
        false
    }
}

/// Verifies a server's chain for `name`, then its CertificateVerify signature (see
/// [`verify_peer`]).
#[allow(clippy::too_many_arguments)] // the chain, its context, and the signature: all distinct
pub fn verify_server(
    end_entity: &[u8],
    intermediates: &[&[u8]],
    roots: &[TrustAnchor<'_>],
    name: &str,
    now: UnixTime,
    scheme: SignatureScheme,
    message: &[u8],
    sig: &[u8],
) -> Result<(), Error> {
    verify_peer(end_entity, intermediates, roots, Peer::Server(name), now, scheme, message, sig)
        .map(|_| ())
}

/// The trust anchors of every `CERTIFICATE` block in a PEM text (a CA bundle such as
/// `/etc/ssl/certs/ca-certificates.crt`, or one root), for [`ClientConfig::new`] or
/// [`ClientAuth::roots`](crate::ClientAuth::roots); empty when the text has none. A block
/// that is not valid base64 or not a certificate is
/// [`CertificateError::BadEncoding`].
///
/// [`ClientConfig::new`]: crate::ClientConfig::new
#[cfg(feature = "std")]
pub fn roots_from_pem(text: &str) -> Result<std::vec::Vec<TrustAnchor<'static>>, Error> {
    let bad = Error::InvalidCertificate(CertificateError::BadEncoding);
    let mut roots = std::vec::Vec::new();
    for body in crate::pem::blocks(text, "CERTIFICATE") {
        let mut der = std::vec![0u8; crate::pem::decoded_len(body)];
        let der = crate::pem::decode_body(body, &mut der).map_err(|_| bad)?;
        let cert = CertificateDer::from(der);
        let anchor = webpki::anchor_from_trusted_cert(&cert).map_err(|_| bad)?;
        roots.push(anchor.to_owned());
    }
    Ok(roots)
}

/// Whether `end_entity` (one of our own certificates) is valid for the DNS name `name`; used
/// to pick a server certificate by SNI.
pub fn cert_matches_name(end_entity: &[u8], name: &str) -> bool {
    let der = CertificateDer::from(end_entity);
    let Ok(ee) = webpki::EndEntityCert::try_from(&der) else { return false };
    ServerName::try_from(name).is_ok_and(|n| ee.verify_is_valid_for_subject_name(&n).is_ok())
}

/// Builds the content a CertificateVerify signs (RFC 8446 §4.4.3): 64 spaces, the context
/// string, a zero byte and the transcript hash. Returns the length used in `out`.
pub fn signed_content(server: bool, transcript_hash: &[u8], out: &mut [u8; 200]) -> usize {
    let ctx: &[u8] = if server {
        b"TLS 1.3, server CertificateVerify"
    } else {
        b"TLS 1.3, client CertificateVerify"
    };
    out[..64].fill(0x20);
    out[64..64 + ctx.len()].copy_from_slice(ctx);
    out[64 + ctx.len()] = 0;
    let at = 65 + ctx.len();
    out[at..at + transcript_hash.len()].copy_from_slice(transcript_hash);
    at + transcript_hash.len()
}

/// A TLS 1.2 handshake signature checked from a hash the caller already has: webpki parses
/// the certificate's key and matches its algorithm as for [`EcdsaVerify`] or [`RsaVerify`],
/// and the `message` it hands on is taken as the digest. For a TLS 1.2 server, which keeps
/// running SHA-256 and SHA-384 transcript hashes rather than the handshake messages a
/// client's CertificateVerify signs (RFC 5246 §7.4.8).
#[derive(Debug)]
enum Prehashed {
    Ecdsa(EcdsaVerify),
    Rsa(RsaVerify),
}

impl SignatureVerificationAlgorithm for Prehashed {
    fn verify_signature(
        &self,
        public_key: &[u8],
        digest: &[u8],
        signature: &[u8],
    ) -> Result<(), InvalidSignature> {
        match self {
            Self::Ecdsa(v) => v.verify_prehash(public_key, digest, signature),
            Self::Rsa(v) => v.verify_prehash(public_key, digest, signature),
        }
    }

    fn public_key_alg_id(&self) -> AlgorithmIdentifier {
        match self {
            Self::Ecdsa(v) => v.public_key_alg_id(),
            Self::Rsa(v) => v.public_key_alg_id(),
        }
    }

    fn signature_alg_id(&self) -> AlgorithmIdentifier {
        match self {
            Self::Ecdsa(v) => v.signature_alg_id(),
            Self::Rsa(v) => v.signature_alg_id(),
        }
    }
}

/// An RSA digest verifier for rsaEncryption keys.
const fn rsa_digest(hash: HashAlg, pss: bool) -> Prehashed {
    let padding = if pss { RsaPadding::Pss } else { RsaPadding::Pkcs1 };
    Prehashed::Rsa(RsaVerify { hash, padding, key: RsaKeyAlg::RsaEncryption })
}

/// The digest verifiers of each scheme of [`TLS12_DIGEST_SCHEMES`], one per key type it can
/// come from (in 1.2 an `ecdsa_*` scheme names the hash only, RFC 8422 §5.1.1).
static TLS12_DIGEST_VERIFIERS: &[(SignatureScheme, &[Prehashed])] = &[
    (
        SignatureScheme::ECDSA_SECP256R1_SHA256,
        &[
            Prehashed::Ecdsa(EcdsaVerify { curve: Curve::P256, hash: HashAlg::Sha256 }),
            #[cfg(feature = "ecdsa-p384")]
            Prehashed::Ecdsa(EcdsaVerify { curve: Curve::P384, hash: HashAlg::Sha256 }),
        ],
    ),
    (
        SignatureScheme::ECDSA_SECP384R1_SHA384,
        &[
            Prehashed::Ecdsa(EcdsaVerify { curve: Curve::P256, hash: HashAlg::Sha384 }),
            #[cfg(feature = "ecdsa-p384")]
            Prehashed::Ecdsa(EcdsaVerify { curve: Curve::P384, hash: HashAlg::Sha384 }),
        ],
    ),
    (SignatureScheme::RSA_PSS_RSAE_SHA256, &[rsa_digest(HashAlg::Sha256, true)]),
    (SignatureScheme::RSA_PSS_RSAE_SHA384, &[rsa_digest(HashAlg::Sha384, true)]),
    (SignatureScheme::RSA_PKCS1_SHA256, &[rsa_digest(HashAlg::Sha256, false)]),
    (SignatureScheme::RSA_PKCS1_SHA384, &[rsa_digest(HashAlg::Sha384, false)]),
    (SignatureScheme::RSA_PSS_RSAE_SHA512, &[rsa_digest(HashAlg::Sha512, true)]),
    (SignatureScheme::RSA_PKCS1_SHA512, &[rsa_digest(HashAlg::Sha512, false)]),
];

/// The TLS 1.2 schemes a CertificateVerify can be checked with from a running SHA-256,
/// SHA-384 or SHA-512 transcript hash ([`verify_signature_digest12`]), in the order a server
/// offers them in its CertificateRequest. Ed25519 is absent: it signs whole messages, which a
/// server without an allocator does not keep; so is ECDSA with SHA-512, whose scheme names
/// P-521, a curve [`Curve`] does not verify.
pub static TLS12_DIGEST_SCHEMES: &[SignatureScheme] = &[
    SignatureScheme::ECDSA_SECP256R1_SHA256,
    SignatureScheme::ECDSA_SECP384R1_SHA384,
    SignatureScheme::RSA_PSS_RSAE_SHA256,
    SignatureScheme::RSA_PSS_RSAE_SHA384,
    SignatureScheme::RSA_PKCS1_SHA256,
    SignatureScheme::RSA_PKCS1_SHA384,
    SignatureScheme::RSA_PSS_RSAE_SHA512,
    SignatureScheme::RSA_PKCS1_SHA512,
];

/// Checks a TLS 1.2 CertificateVerify signature `sig` with `scheme` by the key of
/// `end_entity` over the handshake messages whose hash (SHA-256, SHA-384 or SHA-512, as
/// `scheme` names) is `digest`: the same result as [`verify_signature_for`] on the messages
/// themselves. The keyUsage is checked. A scheme outside [`TLS12_DIGEST_SCHEMES`] (Ed25519
/// among them) is [`PeerMisbehaved::SelectedUnofferedParameter`]; a bad signature, or a
/// digest of the wrong length, [`PeerMisbehaved::BadSignature`].
pub fn verify_signature_digest12(
    end_entity: &[u8],
    scheme: SignatureScheme,
    digest: &[u8],
    sig: &[u8],
) -> Result<(), Error> {
    let algs = TLS12_DIGEST_VERIFIERS.iter().find(|(s, _)| *s == scheme).map_or(&[][..], |v| v.1);
    if algs.is_empty() {
        return Err(Error::PeerMisbehaved(PeerMisbehaved::SelectedUnofferedParameter));
    }
    let ee_der = CertificateDer::from(end_entity);
    let ee = webpki::EndEntityCert::try_from(&ee_der).map_err(|e| map_webpki(&e))?;
    check_key_usage(end_entity)?;
    for alg in algs {
        #[allow(deprecated)] // the context-free variant is what a build without `alloc` returns
        match ee.verify_signature(alg, digest, sig) {
            Ok(()) => return Ok(()),
            // Another curve: try the scheme's next verifier.
            Err(
                webpki::Error::UnsupportedSignatureAlgorithmForPublicKey
                | webpki::Error::UnsupportedSignatureAlgorithmForPublicKeyContext(_),
            ) => {}
            Err(_) => break,
        }
    }
    Err(Error::PeerMisbehaved(PeerMisbehaved::BadSignature))
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use std::vec;
    use std::vec::Vec;

    use super::digital_signature_allowed;
    use crate::der;

    /// A certificate skeleton: Certificate { TBSCertificate { serial, `[3]` { extensions } } }.
    fn cert(extensions: &[&[u8]]) -> Vec<u8> {
        fn tlv(tag: u8, body: &[u8]) -> Vec<u8> {
            let mut v = vec![tag, u8::try_from(body.len()).unwrap()];
            v.extend_from_slice(body);
            v
        }
        let exts: Vec<u8> = extensions.concat();
        let mut tbs = tlv(0x02, &[1]);
        tbs.extend(tlv(0xa3, &tlv(0x30, &exts)));
        tlv(0x30, &tlv(0x30, &tbs))
    }

    const KU_SIGN: &[u8] =
        &[0x30, 0x0e, 0x06, 3, 0x55, 0x1d, 0x0f, 0x01, 1, 0xff, 0x04, 4, 0x03, 2, 7, 0x80];
    const KU_ENCIPHER: &[u8] = &[0x30, 0x0b, 0x06, 3, 0x55, 0x1d, 0x0f, 0x04, 4, 0x03, 2, 5, 0x20];
    const OTHER: &[u8] = &[0x30, 0x08, 0x06, 3, 0x55, 0x1d, 0x13, 0x04, 1, 0x00];

    #[test]
    fn key_usage_bits_are_read() {
        assert_eq!(digital_signature_allowed(&cert(&[KU_SIGN])), Some(true));
        assert_eq!(digital_signature_allowed(&cert(&[OTHER, KU_ENCIPHER])), Some(false));
        assert_eq!(digital_signature_allowed(&cert(&[OTHER])), Some(true));
        assert_eq!(digital_signature_allowed(&cert(&[])), Some(true));
        // An empty BIT STRING names no usage at all.
        let empty = [0x30, 0x0a, 0x06, 3, 0x55, 0x1d, 0x0f, 0x04, 3, 0x03, 1, 0];
        assert_eq!(digital_signature_allowed(&cert(&[&empty])), Some(false));
    }

    #[test]
    fn malformed_key_usage_is_none_and_never_panics() {
        let good = cert(&[OTHER, KU_SIGN]);
        for n in 0..good.len() {
            // Every truncation is refused rather than read past.
            assert_eq!(digital_signature_allowed(&good[..n]), None, "{n}");
        }
        let mut bad_unused = KU_ENCIPHER.to_vec();
        bad_unused[11] = 8;
        assert_eq!(digital_signature_allowed(&cert(&[&bad_unused])), None);
        assert_eq!(der::element(&[0x30, 0x80, 0, 0]), None); // indefinite length
        assert_eq!(der::element(&[0x30, 0x85, 1, 0, 0, 0, 0]), None); // five length bytes
        assert_eq!(der::element(&[0x04, 0x82, 0x00, 0x01, 9, 7]), Some((0x04, &[9][..], &[7][..])));
        for a in 0..=255u8 {
            for b in [0u8, 1, 0x81, 0x84, 0xff] {
                let _ = digital_signature_allowed(&[0x30, 4, a, b, a, b]);
            }
        }
    }
}
