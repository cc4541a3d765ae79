//! Certificate and signature verification: `rustls-webpki` walks the chain, and the
//! signatures it meets are checked by Halite's own [`SignatureVerificationAlgorithm`]
//! implementations (Ed25519 now; ECDSA and RSA join this table when core-ec's NIST curves and
//! core-rsa land), so no other crypto library sits underneath.

use pki_types::{
    AlgorithmIdentifier, CertificateDer, InvalidSignature, ServerName,
    SignatureVerificationAlgorithm, TrustAnchor, UnixTime, alg_id,
};

use crate::error::{CertificateError, Error, PeerMisbehaved};
use crate::msgs::SignatureScheme;

/// Ed25519 signatures (RFC 8410 keys) checked with `core_ec::ed25519`.
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

/// The Ed25519 verifier.
pub static ED25519: &dyn SignatureVerificationAlgorithm = &Ed25519Verify;

/// Every certificate signature algorithm Halite can check (ECDSA P-256/P-384 and RSA
/// PKCS#1/PSS slot in here).
pub static SUPPORTED_CERT_SIG_ALGS: &[&dyn SignatureVerificationAlgorithm] = &[ED25519];

/// The TLS signature schemes this side can verify in CertificateVerify, with their verifier.
pub static SUPPORTED_SCHEMES: &[(SignatureScheme, &dyn SignatureVerificationAlgorithm)] =
    &[(SignatureScheme::ED25519, ED25519)];

/// The most intermediates a chain may carry (no allocator: they are held on the stack).
pub const MAX_INTERMEDIATES: usize = 6;

fn map_webpki(e: &webpki::Error) -> Error {
    use webpki::Error as W;
    Error::InvalidCertificate(match *e {
        W::UnknownIssuer => CertificateError::UnknownIssuer,
        W::CertNotValidForName(_) => CertificateError::NotValidForName,
        W::CertExpired { .. } | W::CertNotValidYet { .. } => CertificateError::Expired,
        _ => CertificateError::BadCertificate,
    })
}

/// Verifies a server's chain (`end_entity` then `intermediates`) to `roots` for `name` at
/// `now`, then the CertificateVerify signature `sig` with `scheme` over `message`.
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
    let ee_der = CertificateDer::from(end_entity);
    let ee = webpki::EndEntityCert::try_from(&ee_der).map_err(|e| map_webpki(&e))?;
    if intermediates.len() > MAX_INTERMEDIATES {
        return Err(Error::InvalidCertificate(CertificateError::BadCertificate));
    }
    let mut inter: [CertificateDer<'_>; MAX_INTERMEDIATES] =
        core::array::from_fn(|_| CertificateDer::from(&[][..]));
    for (slot, der) in inter.iter_mut().zip(intermediates) {
        *slot = CertificateDer::from(*der);
    }
    ee.verify_for_usage(
        SUPPORTED_CERT_SIG_ALGS,
        roots,
        &inter[..intermediates.len()],
        now,
        webpki::KeyUsage::server_auth(),
        None,
        None,
    )
    .map_err(|e| map_webpki(&e))?;
    let server_name = ServerName::try_from(name)
        .map_err(|_| Error::InvalidCertificate(CertificateError::NotValidForName))?;
    ee.verify_is_valid_for_subject_name(&server_name).map_err(|e| map_webpki(&e))?;
    let alg = SUPPORTED_SCHEMES
        .iter()
        .find(|(s, _)| *s == scheme)
        .map(|(_, a)| *a)
        .ok_or(Error::PeerMisbehaved(PeerMisbehaved::SelectedUnofferedParameter))?;
    ee.verify_signature(alg, message, sig)
        .map_err(|_| Error::PeerMisbehaved(PeerMisbehaved::BadSignature))
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
