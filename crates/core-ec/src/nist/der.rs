//! The strict DER this crate reads and writes for the NIST curves: ECDSA signatures
//! (`Ecdsa-Sig-Value`, RFC 3279 §2.2.3), public keys in `SubjectPublicKeyInfo` (RFC 5480),
//! private keys as SEC1 `ECPrivateKey` (RFC 5915) and in PKCS#8 (RFC 5208/5958). Only the
//! definite, minimal-length forms are accepted, integers must be minimal and non-negative,
//! and nothing may trail: anything else is [`Error::InvalidDer`].

use core_der::KeyAlgorithm;
use core_der::der::{self, OCTET_STRING, Reader, SEQUENCE, Writer};
use core_der::pkix::{AlgorithmIdentifier, PrivateKeyInfo, SubjectPublicKeyInfo, oid};

use crate::Error;

/// Whether the big-endian `a` is below `b`, both of one length (public values only).
pub(crate) fn less_than(a: &[u8], b: &[u8]) -> bool {
    a < b
}

/// Reads `Ecdsa-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }` into `r‖s`, each `len`
/// bytes. Integers too long for `len` bytes are [`Error::InvalidSignature`].
pub(crate) fn parse_signature(der: &[u8], len: usize, out: &mut [u8]) -> Result<(), Error> {
    let mut seq = Reader::new(der::only(der, SEQUENCE)?);
    for half in 0..2 {
        let v = seq.uint()?;
        if v.len() > len {
            return Err(Error::InvalidSignature);
        }
        let slot = &mut out[half * len..(half + 1) * len];
        slot.fill(0);
        slot[len - v.len()..].copy_from_slice(v);
    }
    Ok(seq.finish()?)
}

/// The longest DER signature of any curve here: two 67-byte INTEGERs (P-521 with a sign
/// byte) in a SEQUENCE with a 3-byte header.
pub(crate) const MAX_SIGNATURE_LEN: usize = 3 + 2 * (2 + 1 + super::MAX_LEN);

/// Writes `r‖s` (each `len` bytes) as DER into `out`; returns the length.
pub(crate) fn write_signature(rs: &[u8], len: usize, out: &mut [u8]) -> Result<usize, Error> {
    let (r, s) = rs.split_at(len);
    let strip = |v: &[u8]| -> usize { v.iter().take_while(|&&b| b == 0).count() };
    let (r, s) = (&r[strip(r)..], &s[strip(s)..]);
    let content = der::tlv_len(der::uint_content_len(r)) + der::tlv_len(der::uint_content_len(s));
    let mut w = Writer::new(out);
    w.header(SEQUENCE, content)?;
    w.uint(r)?;
    w.uint(s)?;
    Ok(w.len())
}

/// The `namedCurve` parameters of an id-ecPublicKey `AlgorithmIdentifier` for the curve
/// `curve`: an encoded OID, in a buffer and its length.
fn curve_params(curve: &[u8]) -> ([u8; 12], usize) {
    let mut p = [0u8; 12];
    p[0] = der::OID;
    p[1] = curve.len() as u8;
    p[2..2 + curve.len()].copy_from_slice(curve);
    (p, 2 + curve.len())
}

/// Checks that `alg` is id-ecPublicKey on the named curve `curve`; anything else is
/// [`Error::WrongAlgorithm`] naming what it is.
fn check_algorithm(alg: &AlgorithmIdentifier<'_>, curve: &[u8]) -> Result<(), Error> {
    if alg.named_curve() == Some(curve) {
        Ok(())
    } else {
        Err(Error::WrongAlgorithm { found: alg.kind() })
    }
}

/// The SEC1 point inside a `SubjectPublicKeyInfo` for the curve `curve`.
pub(crate) fn parse_spki<'a>(der: &'a [u8], curve: &[u8]) -> Result<&'a [u8], Error> {
    let spki = SubjectPublicKeyInfo::from_der(der)?;
    check_algorithm(&spki.algorithm, curve)?;
    Ok(spki.public_key)
}

/// Bytes in the `SubjectPublicKeyInfo` of a `point_len`-byte point on a curve whose OID has
/// `curve_len` content bytes.
pub(crate) const fn spki_len(curve_len: usize, point_len: usize) -> usize {
    let alg = der::tlv_len(der::tlv_len(oid::EC_PUBLIC_KEY.len()) + der::tlv_len(curve_len));
    der::tlv_len(alg + der::tlv_len(1 + point_len))
}

/// Writes the `SubjectPublicKeyInfo` of the SEC1 `point` on curve `curve`; returns the length.
pub(crate) fn write_spki(point: &[u8], curve: &[u8], out: &mut [u8]) -> Result<usize, Error> {
    let (params, n) = curve_params(curve);
    let algorithm = AlgorithmIdentifier { oid: oid::EC_PUBLIC_KEY, params: &params[..n] };
    Ok(SubjectPublicKeyInfo { algorithm, public_key: point }.to_der(out)?)
}

/// A parsed `ECPrivateKey`: the private scalar (exactly the curve's length) and the SEC1
/// public point if one was included.
pub(crate) struct EcPrivateKey<'a> {
    /// The private scalar, big-endian.
    pub(crate) scalar: &'a [u8],
    /// The public key, if present.
    pub(crate) public: Option<&'a [u8]>,
}

/// Parses a SEC1 `ECPrivateKey` (RFC 5915 §3) for curve `curve` with `len`-byte scalars.
/// The parameters, if present, must name this curve ([`Error::WrongAlgorithm`] otherwise).
pub(crate) fn parse_ec_private_key<'a>(
    der: &'a [u8],
    curve: &[u8],
    len: usize,
) -> Result<EcPrivateKey<'a>, Error> {
    let mut seq = Reader::new(der::only(der, SEQUENCE)?);
    seq.expect_uint(1)?;
    let scalar = seq.read(OCTET_STRING)?;
    if let Some(params) = seq.read_optional(der::context(0))? {
        let mut params = Reader::new(params);
        let found = match params.read_any()? {
            (der::OID, named) => KeyAlgorithm::of_curve(named),
            _ => KeyAlgorithm::EcOther,
        };
        params.finish()?;
        if found != KeyAlgorithm::of_curve(curve) {
            return Err(Error::WrongAlgorithm { found });
        }
    }
    if scalar.len() != len {
        return Err(Error::InvalidLength);
    }
    let mut public = None;
    if let Some(wrapped) = seq.read_optional(der::context(1))? {
        let mut wrapped = Reader::new(wrapped);
        public = Some(wrapped.bit_string()?);
        wrapped.finish()?;
    }
    seq.finish()?;
    Ok(EcPrivateKey { scalar, public })
}

/// Bytes in the `ECPrivateKey` of a `len`-byte scalar and a `point_len`-byte point, with the
/// curve's OID (`curve_len` content bytes) as parameters or (`curve_len` 0) without.
pub(crate) const fn sec1_len(len: usize, point_len: usize, curve_len: usize) -> usize {
    let params = if curve_len == 0 { 0 } else { der::tlv_len(der::tlv_len(curve_len)) };
    der::tlv_len(3 + der::tlv_len(len) + params + der::tlv_len(der::tlv_len(1 + point_len)))
}

/// Writes the SEC1 `ECPrivateKey` of `scalar` with its `public` point, and the named curve
/// `curve` as parameters if given (as OpenSSL writes it alone; inside PKCS#8 it has none);
/// returns the length. The output is secret.
pub(crate) fn write_ec_private_key(
    scalar: &[u8],
    public: &[u8],
    curve: Option<&[u8]>,
    out: &mut [u8],
) -> Result<usize, Error> {
    let total = sec1_len(scalar.len(), public.len(), curve.map_or(0, <[u8]>::len));
    let mut w = Writer::new(out);
    w.header(SEQUENCE, total - der::header_len(total))?;
    w.uint(&[1])?;
    w.tlv(OCTET_STRING, scalar)?;
    if let Some(curve) = curve {
        w.header(der::context(0), der::tlv_len(curve.len()))?;
        w.tlv(der::OID, curve)?;
    }
    w.header(der::context(1), der::tlv_len(1 + public.len()))?;
    w.bit_string(public)?;
    Ok(w.len())
}

/// Parses a PKCS#8 `PrivateKeyInfo`/`OneAsymmetricKey` (RFC 5958 §2) holding an EC key on
/// curve `curve`: the algorithm must be id-ecPublicKey on it ([`Error::WrongAlgorithm`]
/// otherwise). A public key in the outer structure (version 1) counts as the inner one's.
pub(crate) fn parse_pkcs8<'a>(
    der: &'a [u8],
    curve: &[u8],
    len: usize,
) -> Result<EcPrivateKey<'a>, Error> {
    let info = PrivateKeyInfo::from_der(der)?;
    check_algorithm(&info.algorithm, curve)?;
    let mut key = parse_ec_private_key(info.private_key, curve, len)?;
    if let (Some(outer), Some(inner)) = (info.public_key, key.public)
        && outer != inner
    {
        return Err(Error::InvalidEncoding);
    }
    key.public = key.public.or(info.public_key);
    Ok(key)
}

/// Bytes in the PKCS#8 form [`write_pkcs8`] writes.
pub(crate) const fn pkcs8_len(len: usize, point_len: usize, curve_len: usize) -> usize {
    let alg = der::tlv_len(der::tlv_len(oid::EC_PUBLIC_KEY.len()) + der::tlv_len(curve_len));
    der::tlv_len(3 + alg + der::tlv_len(sec1_len(len, point_len, 0)))
}

/// Writes a PKCS#8 v1 `PrivateKeyInfo` for the `len`-byte `scalar` on curve `curve`, with the
/// SEC1 `public` point inside the `ECPrivateKey` (as OpenSSL writes it); returns the length.
pub(crate) fn write_pkcs8(
    scalar: &[u8],
    public: &[u8],
    curve: &[u8],
    out: &mut [u8],
) -> Result<usize, Error> {
    let mut inner = [0u8; sec1_len(super::MAX_LEN, 1 + 2 * super::MAX_LEN, 0)];
    let r = (|| {
        let n = write_ec_private_key(scalar, public, None, &mut inner)?;
        let (params, p) = curve_params(curve);
        let algorithm = AlgorithmIdentifier { oid: oid::EC_PUBLIC_KEY, params: &params[..p] };
        let info = PrivateKeyInfo {
            algorithm,
            private_key: &inner[..n],
            attributes: None,
            public_key: None,
        };
        Ok(info.to_der(out)?)
    })();
    zeroize::Zeroize::zeroize(&mut inner);
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_must_be_minimal() {
        let read = |b: &'static [u8]| Reader::new(b).read(0x04).map_err(Error::from);
        assert_eq!(read(&[0x04, 0x81, 0x05, 1, 2, 3, 4, 5]), Err(Error::InvalidDer));
        assert_eq!(read(&[0x04, 0x80]), Err(Error::InvalidDer));
        assert_eq!(read(&[0x04, 0x02, 1]), Err(Error::InvalidDer));
        assert_eq!(read(&[0x04, 0x01, 7]), Ok(&[7u8][..]));
    }

    #[test]
    fn signature_round_trip() {
        let mut rs = [0u8; 64];
        rs[0] = 0x80;
        rs[63] = 1;
        let mut der = [0u8; MAX_SIGNATURE_LEN];
        let n = write_signature(&rs, 32, &mut der).unwrap();
        assert_eq!(&der[..6], &[0x30, 0x26, 0x02, 0x21, 0x00, 0x80]);
        let mut back = [0u8; 64];
        parse_signature(&der[..n], 32, &mut back).unwrap();
        assert_eq!(back, rs);
        assert_eq!(parse_signature(&der[..n - 1], 32, &mut back), Err(Error::InvalidDer));
    }
}
