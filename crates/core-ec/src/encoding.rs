//! What every key type's encodings share: the PEM labels and the largest DER a PEM reader
//! takes (the PEM side itself is `core_der::pem::{read_key, write_key}`, with this crate's
//! [`Error`] as its `KeyPemError`), and the RFC 8410 forms of the Curve25519 keys. The rest
//! of the DER lives with each type (`nist/der.rs`, `ed25519.rs`, `x25519.rs`).

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
pub(crate) const MAX_DER: usize = 512;

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
