//! The RSA key formats (RFC 8017 Appendix A.1, RFC 5280 §4.1 `SubjectPublicKeyInfo`, RFC 5208
//! PKCS#8, RFC 4055 id-RSASSA-PSS) over `core-der`'s strict reader and writer: which
//! algorithm identifiers an RSA key may carry, and the parameters of an RSASSA-PSS key.

use core_der::der::{self as d, context};
pub(crate) use core_der::der::{NULL, OID, Reader, SEQUENCE, Writer, tlv_len, uint_content_len};
use core_der::pkix::{AlgorithmIdentifier, oid};

use crate::Error;

impl From<core_der::Error> for Error {
    fn from(e: core_der::Error) -> Self {
        match e {
            core_der::Error::BufferTooSmall => Self::BufferTooSmall,
            _ => Self::InvalidDer,
        }
    }
}

/// The longest RSASSA-PSS-params kept with a key: SHA-512 with NULL parameters in both hash
/// fields, a salt length and a trailer field take 65 bytes.
pub(crate) const MAX_PSS_PARAMS: usize = 72;

/// What an RSA key's encodings call it: rsaEncryption, or id-RSASSA-PSS with its
/// RSASSA-PSS-params as encoded (none: any PSS parameters), kept so the key re-encodes as it
/// came and its restriction is not silently dropped.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct KeyAlg {
    pss: bool,
    len: u8,
    params: [u8; MAX_PSS_PARAMS],
}

/// rsaEncryption's parameters: NULL (RFC 8017 Appendix C).
const NULL_PARAMS: &[u8] = &[NULL, 0];

impl KeyAlg {
    /// rsaEncryption.
    pub(crate) const RSA: Self = Self { pss: false, len: 0, params: [0; MAX_PSS_PARAMS] };

    /// The algorithm of an RSA key's `AlgorithmIdentifier`: rsaEncryption with NULL
    /// parameters, or id-RSASSA-PSS with none or valid RSASSA-PSS-params; another algorithm is
    /// [`Error::WrongAlgorithm`] naming it.
    pub(crate) fn from_identifier(alg: &AlgorithmIdentifier<'_>) -> Result<Self, Error> {
        match alg.oid {
            oid::RSA_ENCRYPTION if alg.params == NULL_PARAMS => Ok(Self::RSA),
            oid::RSA_ENCRYPTION => Err(Error::InvalidDer),
            oid::RSASSA_PSS => {
                check_pss_params(alg.params)?;
                let mut params = [0; MAX_PSS_PARAMS];
                params
                    .get_mut(..alg.params.len())
                    .ok_or(Error::InvalidDer)?
                    .copy_from_slice(alg.params);
                Ok(Self { pss: true, len: alg.params.len() as u8, params })
            }
            _ => Err(Error::WrongAlgorithm { found: alg.kind() }),
        }
    }

    /// Its `AlgorithmIdentifier`.
    pub(crate) fn identifier(&self) -> AlgorithmIdentifier<'_> {
        if self.pss {
            AlgorithmIdentifier { oid: oid::RSASSA_PSS, params: self.pss_params().unwrap_or(&[]) }
        } else {
            AlgorithmIdentifier { oid: oid::RSA_ENCRYPTION, params: NULL_PARAMS }
        }
    }

    /// The kind of key.
    pub(crate) fn kind(&self) -> core_der::KeyAlgorithm {
        if self.pss { core_der::KeyAlgorithm::RsaPss } else { core_der::KeyAlgorithm::Rsa }
    }

    /// An RSASSA-PSS key's parameters as encoded (empty when absent); `None` for
    /// rsaEncryption.
    pub(crate) fn pss_params(&self) -> Option<&[u8]> {
        self.pss.then(|| &self.params[..usize::from(self.len)])
    }
}

/// A hash `AlgorithmIdentifier` (RFC 4055 §2.1: parameters NULL or absent) naming a SHA-1 or
/// SHA-2 hash.
fn check_hash(alg: &[u8]) -> Result<(), Error> {
    let alg = AlgorithmIdentifier::from_contents(d::only(alg, SEQUENCE)?)?;
    if !(alg.params.is_empty() || alg.params == NULL_PARAMS) {
        return Err(Error::InvalidDer);
    }
    match alg.oid {
        oid::SHA1 | oid::SHA256 | oid::SHA384 | oid::SHA512 => Ok(()),
        _ => Err(Error::UnsupportedHash),
    }
}

/// Checks RSASSA-PSS-params (RFC 4055 §3.1), empty for none: every field optional and
/// explicitly tagged, hashes SHA-1 or SHA-2, the mask generation MGF1, the trailer field 1.
fn check_pss_params(params: &[u8]) -> Result<(), Error> {
    if params.is_empty() {
        return Ok(());
    }
    let mut r = Reader::new(d::only(params, SEQUENCE)?);
    if let Some(hash) = r.read_optional(context(0))? {
        check_hash(hash)?;
    }
    if let Some(mgf) = r.read_optional(context(1))? {
        let mut mgf = Reader::new(d::only(mgf, SEQUENCE)?);
        if mgf.read(OID)? != oid::MGF1 {
            return Err(Error::InvalidDer);
        }
        let hash = mgf.rest();
        check_hash(hash)?;
    }
    if let Some(salt) = r.read_optional(context(2))? {
        let mut salt = Reader::new(salt);
        salt.uint()?;
        salt.finish()?;
    }
    if let Some(trailer) = r.read_optional(context(3))? {
        let mut trailer = Reader::new(trailer);
        trailer.expect_uint(1)?;
        trailer.finish()?;
    }
    Ok(r.finish()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pss_params_are_checked() {
        // RFC 4055 §3.1's SHA-256 example: hash, MGF1-SHA-256, salt 32.
        let sha256 = [
            0x30, 0x34, 0xa0, 0x0f, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03,
            0x04, 0x02, 0x01, 0x05, 0x00, 0xa1, 0x1c, 0x30, 0x1a, 0x06, 0x09, 0x2a, 0x86, 0x48,
            0x86, 0xf7, 0x0d, 0x01, 0x01, 0x08, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01,
            0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0xa2, 0x03, 0x02, 0x01, 0x20,
        ];
        assert_eq!(check_pss_params(&sha256), Ok(()));
        assert_eq!(check_pss_params(&[]), Ok(()));
        assert_eq!(check_pss_params(&[0x30, 0x00]), Ok(()));
        let mut bad_mgf = sha256;
        bad_mgf[33] = 0x09; // not id-mgf1
        assert_eq!(check_pss_params(&bad_mgf), Err(Error::InvalidDer));
        let mut md5 = sha256;
        md5[16] = 0x05; // an unknown hash arc
        assert_eq!(check_pss_params(&md5), Err(Error::UnsupportedHash));
        assert_eq!(
            check_pss_params(&[0x30, 0x05, 0xa3, 0x03, 0x02, 0x01, 0x02]),
            Err(Error::InvalidDer)
        );
        assert_eq!(check_pss_params(&sha256[..40]), Err(Error::InvalidDer));
    }
}
