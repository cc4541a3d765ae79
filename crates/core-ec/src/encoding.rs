//! The PEM side of every key type's encodings, shared: decode a labelled block on the stack
//! and hand its DER to the type's DER reader; write DER on the stack and wrap it in PEM for
//! the caller. The stack buffers holding private keys are wiped. The DER itself lives with
//! each type (`nist/der.rs`, `ed25519.rs`, `x25519.rs`) over `core-der`.

use core_der::PemError;
use core_der::der::{self, OCTET_STRING};
use core_der::pkix::{AlgorithmIdentifier, PrivateKeyInfo, SubjectPublicKeyInfo};
use zeroize::Zeroize;

use crate::Error;

/// PEM label of a PKCS#8 private key.
pub(crate) const PKCS8_LABEL: &str = "PRIVATE KEY";
/// PEM label of a `SubjectPublicKeyInfo`.
pub(crate) const PUBLIC_KEY_LABEL: &str = "PUBLIC KEY";
/// PEM label of a SEC1 `ECPrivateKey`.
pub(crate) const SEC1_LABEL: &str = "EC PRIVATE KEY";

/// The largest DER a key of this crate's PEM readers takes (a P-521 PKCS#8 key is 241
/// bytes; the rest is room for attributes).
const MAX_DER: usize = 512;

/// Decodes the first `label` block of `text` and reads its DER with `f`. A block too long
/// for any key here is [`Error::InvalidLength`].
pub(crate) fn from_pem<T>(
    text: &str,
    label: &str,
    f: impl FnOnce(&[u8]) -> Result<T, Error>,
) -> Result<T, Error> {
    match core_der::pem::with_decoded::<MAX_DER, _>(text, label, f) {
        Ok(r) => r,
        Err(PemError::BufferTooSmall) => Err(Error::InvalidLength),
        Err(e) => Err(Error::Pem(e)),
    }
}

/// Writes DER with `f` into an `N`-byte stack buffer (wiped after) and wraps it in a PEM
/// block labelled `label` in `out`.
pub(crate) fn to_pem<'o, const N: usize>(
    label: &str,
    out: &'o mut [u8],
    f: impl FnOnce(&mut [u8]) -> Result<usize, Error>,
) -> Result<&'o str, Error> {
    core_der::pem::encode_with::<N, _>(label, out, f, |e| match e {
        PemError::BufferTooSmall => Error::BufferTooSmall,
        e => Error::Pem(e),
    })
}

/// As [`to_pem`], into a new `String`, wiped on drop.
#[cfg(feature = "alloc")]
pub(crate) fn to_pem_string<const N: usize>(
    label: &str,
    f: impl FnOnce(&mut [u8]) -> Result<usize, Error>,
) -> Result<zeroize::Zeroizing<alloc::string::String>, Error> {
    core_der::pem::encode_string_with::<N, _>(label, f)
}

/// Bytes in the SPKI of an RFC 8410 key (X25519, Ed25519): 44.
pub(crate) const CURVE25519_SPKI_LEN: usize = der::tlv_len(der::tlv_len(5) + der::tlv_len(33));
/// Bytes in the PKCS#8 (version 0, no public key) of an RFC 8410 key: 48.
pub(crate) const CURVE25519_PKCS8_LEN: usize =
    der::tlv_len(3 + der::tlv_len(5) + der::tlv_len(der::tlv_len(32)));

/// The 32-byte key of an RFC 8410 `SubjectPublicKeyInfo` for algorithm `oid` (no parameters).
pub(crate) fn parse_curve25519_spki<'a>(spki: &'a [u8], oid: &[u8]) -> Result<&'a [u8; 32], Error> {
    let spki = SubjectPublicKeyInfo::from_der(spki)?;
    check_curve25519_algorithm(&spki.algorithm, oid)?;
    spki.public_key.try_into().map_err(|_| Error::InvalidLength)
}

/// Checks an RFC 8410 `AlgorithmIdentifier`: `oid`, parameters absent (§3).
fn check_curve25519_algorithm(alg: &AlgorithmIdentifier<'_>, oid: &[u8]) -> Result<(), Error> {
    if alg.oid != oid {
        return Err(Error::WrongAlgorithm { found: alg.kind() });
    }
    if alg.params.is_empty() { Ok(()) } else { Err(Error::InvalidDer) }
}

/// Writes the RFC 8410 `SubjectPublicKeyInfo` of `key` for algorithm `oid`.
pub(crate) fn write_curve25519_spki(
    key: &[u8; 32],
    oid: &[u8],
    out: &mut [u8],
) -> Result<usize, Error> {
    let algorithm = AlgorithmIdentifier { oid, params: &[] };
    Ok(SubjectPublicKeyInfo { algorithm, public_key: key }.to_der(out)?)
}

/// The private key and the public key (version 1), if any, of an RFC 8410 PKCS#8 key for
/// algorithm `oid`: `CurvePrivateKey ::= OCTET STRING` of 32 bytes (§7).
pub(crate) fn parse_curve25519_pkcs8<'a>(
    pkcs8: &'a [u8],
    oid: &[u8],
) -> Result<(&'a [u8; 32], Option<&'a [u8]>), Error> {
    let info = PrivateKeyInfo::from_der(pkcs8)?;
    check_curve25519_algorithm(&info.algorithm, oid)?;
    let key = der::only(info.private_key, OCTET_STRING)?;
    Ok((key.try_into().map_err(|_| Error::InvalidLength)?, info.public_key))
}

/// Writes the RFC 8410 PKCS#8 (version 0, no public key, as OpenSSL writes it) of `key`.
pub(crate) fn write_curve25519_pkcs8(
    key: &[u8; 32],
    oid: &[u8],
    out: &mut [u8],
) -> Result<usize, Error> {
    let mut inner = [0u8; 34];
    inner[0] = OCTET_STRING;
    inner[1] = 32;
    inner[2..].copy_from_slice(key);
    let info = PrivateKeyInfo {
        algorithm: AlgorithmIdentifier { oid, params: &[] },
        private_key: &inner,
        attributes: None,
        public_key: None,
    };
    let r = info.to_der(out).map_err(Error::from);
    inner.zeroize();
    r
}
