//! The strict DER this crate reads and writes for the NIST curves: ECDSA signatures
//! (`Ecdsa-Sig-Value`, RFC 3279 §2.2.3), public keys in `SubjectPublicKeyInfo` (RFC 5480),
//! private keys as SEC1 `ECPrivateKey` (RFC 5915) and in PKCS#8 (RFC 5208/5958). Only the
//! definite, minimal-length forms are accepted, integers must be minimal and non-negative,
//! and nothing may trail: anything else is [`Error::InvalidDer`].

use crate::Error;

/// DER content of `id-ecPublicKey` (1.2.840.10045.2.1).
pub(crate) const OID_EC_PUBLIC_KEY: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];

const SEQUENCE: u8 = 0x30;
const INTEGER: u8 = 0x02;
const BIT_STRING: u8 = 0x03;
const OCTET_STRING: u8 = 0x04;
const OID: u8 = 0x06;
const CONTEXT_0: u8 = 0xa0;
const CONTEXT_1: u8 = 0xa1;

/// A cursor over DER input.
pub(crate) struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    /// A reader over `input`.
    pub(crate) fn new(input: &'a [u8]) -> Self {
        Self { rest: input }
    }

    /// The tag of the next element, if any.
    pub(crate) fn peek(&self) -> Option<u8> {
        self.rest.first().copied()
    }

    /// The contents of the next element, which must have tag `tag`.
    pub(crate) fn read(&mut self, tag: u8) -> Result<&'a [u8], Error> {
        let (&t, rest) = self.rest.split_first().ok_or(Error::InvalidDer)?;
        if t != tag {
            return Err(Error::InvalidDer);
        }
        let (&first, mut rest) = rest.split_first().ok_or(Error::InvalidDer)?;
        let len = match first {
            0..=0x7f => usize::from(first),
            0x81 => {
                let (&b, r) = rest.split_first().ok_or(Error::InvalidDer)?;
                rest = r;
                if b < 0x80 {
                    return Err(Error::InvalidDer);
                }
                usize::from(b)
            }
            0x82 => {
                let (b, r) = rest.split_at_checked(2).ok_or(Error::InvalidDer)?;
                rest = r;
                let v = usize::from(b[0]) << 8 | usize::from(b[1]);
                if v < 0x100 {
                    return Err(Error::InvalidDer);
                }
                v
            }
            _ => return Err(Error::InvalidDer),
        };
        let (content, rest) = rest.split_at_checked(len).ok_or(Error::InvalidDer)?;
        self.rest = rest;
        Ok(content)
    }

    /// Fails unless all input was read.
    pub(crate) fn finish(&self) -> Result<(), Error> {
        if self.rest.is_empty() { Ok(()) } else { Err(Error::InvalidDer) }
    }
}

/// Parses `der` as exactly one element with tag `tag` and returns its contents.
fn only(der: &[u8], tag: u8) -> Result<&[u8], Error> {
    let mut r = Reader::new(der);
    let content = r.read(tag)?;
    r.finish()?;
    Ok(content)
}

/// The magnitude of a non-negative minimal DER INTEGER's contents, leading zero removed.
fn unsigned_integer(content: &[u8]) -> Result<&[u8], Error> {
    match content {
        [] => Err(Error::InvalidDer),
        [b, ..] if b & 0x80 != 0 => Err(Error::InvalidDer),
        [0, b, ..] if b & 0x80 == 0 => Err(Error::InvalidDer),
        [0, rest @ ..] if !rest.is_empty() => Ok(rest),
        _ => Ok(content),
    }
}

/// Whether the big-endian `a` is below `b`, both of one length (public values only).
pub(crate) fn less_than(a: &[u8], b: &[u8]) -> bool {
    a < b
}

/// Reads `Ecdsa-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }` into `r‖s`, each `len`
/// bytes. Integers too long for `len` bytes are [`Error::InvalidSignature`].
pub(crate) fn parse_signature(der: &[u8], len: usize, out: &mut [u8]) -> Result<(), Error> {
    let mut seq = Reader::new(only(der, SEQUENCE)?);
    for half in 0..2 {
        let v = unsigned_integer(seq.read(INTEGER)?)?;
        let v = if v == [0] { &v[1..] } else { v };
        if v.len() > len {
            return Err(Error::InvalidSignature);
        }
        let slot = &mut out[half * len..(half + 1) * len];
        slot.fill(0);
        slot[len - v.len()..].copy_from_slice(v);
    }
    seq.finish()
}

/// Writes a tag and a definite length; returns the bytes written.
fn header(tag: u8, len: usize, out: &mut [u8]) -> usize {
    out[0] = tag;
    if len < 0x80 {
        out[1] = len as u8;
        2
    } else if len < 0x100 {
        out[1] = 0x81;
        out[2] = len as u8;
        3
    } else {
        out[1] = 0x82;
        out[2] = (len >> 8) as u8;
        out[3] = len as u8;
        4
    }
}

/// Bytes of a header for `len` content bytes.
fn header_len(len: usize) -> usize {
    if len < 0x80 {
        2
    } else if len < 0x100 {
        3
    } else {
        4
    }
}

/// The longest DER signature of any curve here: two 67-byte INTEGERs (P-521 with a sign
/// byte) in a SEQUENCE with a 3-byte header.
pub(crate) const MAX_SIGNATURE_LEN: usize = 3 + 2 * (2 + 1 + super::MAX_LEN);

/// Writes `r‖s` (each `len` bytes) as DER into `out`; returns the length.
pub(crate) fn write_signature(rs: &[u8], len: usize, out: &mut [u8]) -> Result<usize, Error> {
    let mut ints = [(0usize, false); 2];
    let mut content = 0;
    for (half, slot) in ints.iter_mut().enumerate() {
        let v = &rs[half * len..(half + 1) * len];
        let skip = v.iter().take_while(|&&b| b == 0).count().min(len - 1);
        let pad = v[skip] & 0x80 != 0;
        *slot = (skip, pad);
        content += 2 + usize::from(pad) + len - skip;
    }
    let total = header_len(content) + content;
    let out = out.get_mut(..total).ok_or(Error::BufferTooSmall)?;
    let mut at = header(SEQUENCE, content, out);
    for (half, &(skip, pad)) in ints.iter().enumerate() {
        let v = &rs[half * len + skip..(half + 1) * len];
        at += header(INTEGER, v.len() + usize::from(pad), &mut out[at..]);
        if pad {
            out[at] = 0;
            at += 1;
        }
        out[at..at + v.len()].copy_from_slice(v);
        at += v.len();
    }
    Ok(total)
}

/// Checks `AlgorithmIdentifier ::= SEQUENCE { id-ecPublicKey, namedCurve OID }` for `oid`.
fn check_algorithm(content: &[u8], oid: &[u8]) -> Result<(), Error> {
    let mut alg = Reader::new(content);
    if alg.read(OID)? != OID_EC_PUBLIC_KEY {
        return Err(Error::WrongAlgorithm);
    }
    // Explicit curve parameters (a SEQUENCE) are not supported: only named curves.
    if alg.peek() != Some(OID) {
        return Err(Error::WrongAlgorithm);
    }
    if alg.read(OID)? != oid {
        return Err(Error::WrongAlgorithm);
    }
    alg.finish()
}

/// The contents of a BIT STRING with no unused bits.
fn bit_string(content: &[u8]) -> Result<&[u8], Error> {
    match content.split_first() {
        Some((0, bits)) => Ok(bits),
        _ => Err(Error::InvalidDer),
    }
}

/// The SEC1 point inside a `SubjectPublicKeyInfo` for the curve `oid`.
pub(crate) fn parse_spki<'a>(der: &'a [u8], oid: &[u8]) -> Result<&'a [u8], Error> {
    let mut spki = Reader::new(only(der, SEQUENCE)?);
    check_algorithm(spki.read(SEQUENCE)?, oid)?;
    let point = bit_string(spki.read(BIT_STRING)?)?;
    spki.finish()?;
    Ok(point)
}

/// Writes the `SubjectPublicKeyInfo` of the SEC1 `point` on curve `oid`; returns the length.
pub(crate) fn write_spki(point: &[u8], oid: &[u8], out: &mut [u8]) -> Result<usize, Error> {
    let alg_content = 2 + OID_EC_PUBLIC_KEY.len() + 2 + oid.len();
    let bits_content = 1 + point.len();
    let content = 2 + alg_content + header_len(bits_content) + bits_content;
    let total = header_len(content) + content;
    let out = out.get_mut(..total).ok_or(Error::BufferTooSmall)?;
    let mut at = header(SEQUENCE, content, out);
    at += header(SEQUENCE, alg_content, &mut out[at..]);
    for o in [OID_EC_PUBLIC_KEY, oid] {
        at += header(OID, o.len(), &mut out[at..]);
        out[at..at + o.len()].copy_from_slice(o);
        at += o.len();
    }
    at += header(BIT_STRING, bits_content, &mut out[at..]);
    out[at] = 0;
    out[at + 1..at + bits_content].copy_from_slice(point);
    Ok(total)
}

/// A parsed `ECPrivateKey`: the private scalar (exactly the curve's length) and the SEC1
/// public point if one was included.
pub(crate) struct EcPrivateKey<'a> {
    /// The private scalar, big-endian.
    pub(crate) scalar: &'a [u8],
    /// The public key, if present.
    pub(crate) public: Option<&'a [u8]>,
}

/// Parses a SEC1 `ECPrivateKey` (RFC 5915 §3) for curve `oid` with `len`-byte scalars. The
/// parameters, if present, must name this curve.
pub(crate) fn parse_ec_private_key<'a>(
    der: &'a [u8],
    oid: &[u8],
    len: usize,
) -> Result<EcPrivateKey<'a>, Error> {
    let mut seq = Reader::new(only(der, SEQUENCE)?);
    if seq.read(INTEGER)? != [1] {
        return Err(Error::InvalidDer);
    }
    let scalar = seq.read(OCTET_STRING)?;
    if scalar.len() != len {
        return Err(Error::InvalidLength);
    }
    if seq.peek() == Some(CONTEXT_0) {
        let mut params = Reader::new(seq.read(CONTEXT_0)?);
        if params.peek() != Some(OID) || params.read(OID)? != oid {
            return Err(Error::WrongAlgorithm);
        }
        params.finish()?;
    }
    let mut public = None;
    if seq.peek() == Some(CONTEXT_1) {
        let mut wrapped = Reader::new(seq.read(CONTEXT_1)?);
        public = Some(bit_string(wrapped.read(BIT_STRING)?)?);
        wrapped.finish()?;
    }
    seq.finish()?;
    Ok(EcPrivateKey { scalar, public })
}

/// Parses a PKCS#8 `PrivateKeyInfo`/`OneAsymmetricKey` (RFC 5958 §2) holding an EC key on
/// curve `oid`: version 0 or 1, the algorithm identifier, the `ECPrivateKey`, and optional
/// attributes and (version 1) public key, which are skipped after a syntax check.
pub(crate) fn parse_pkcs8<'a>(
    der: &'a [u8],
    oid: &[u8],
    len: usize,
) -> Result<EcPrivateKey<'a>, Error> {
    let mut seq = Reader::new(only(der, SEQUENCE)?);
    let version = seq.read(INTEGER)?;
    if version != [0] && version != [1] {
        return Err(Error::InvalidDer);
    }
    check_algorithm(seq.read(SEQUENCE)?, oid)?;
    let key = parse_ec_private_key(seq.read(OCTET_STRING)?, oid, len)?;
    if seq.peek() == Some(CONTEXT_0) {
        seq.read(CONTEXT_0)?;
    }
    if version == [1] && seq.peek() == Some(0x81) {
        seq.read(0x81)?;
    }
    seq.finish()?;
    Ok(key)
}

/// Writes a PKCS#8 v1 `PrivateKeyInfo` for the `len`-byte `scalar` on curve `oid`, with the
/// SEC1 `public` point inside the `ECPrivateKey` (as OpenSSL writes it); returns the length.
pub(crate) fn write_pkcs8(
    scalar: &[u8],
    public: &[u8],
    oid: &[u8],
    out: &mut [u8],
) -> Result<usize, Error> {
    let pub_bits = 1 + public.len();
    let pub_ctx = header_len(pub_bits) + pub_bits;
    let ec_content = 3 + 2 + scalar.len() + header_len(pub_ctx) + pub_ctx;
    let ec_total = header_len(ec_content) + ec_content;
    let alg_content = 2 + OID_EC_PUBLIC_KEY.len() + 2 + oid.len();
    let content = 3 + 2 + alg_content + header_len(ec_total) + ec_total;
    let total = header_len(content) + content;
    let out = out.get_mut(..total).ok_or(Error::BufferTooSmall)?;
    let mut at = header(SEQUENCE, content, out);
    out[at..at + 3].copy_from_slice(&[INTEGER, 1, 0]);
    at += 3;
    at += header(SEQUENCE, alg_content, &mut out[at..]);
    for o in [OID_EC_PUBLIC_KEY, oid] {
        at += header(OID, o.len(), &mut out[at..]);
        out[at..at + o.len()].copy_from_slice(o);
        at += o.len();
    }
    at += header(OCTET_STRING, ec_total, &mut out[at..]);
    at += header(SEQUENCE, ec_content, &mut out[at..]);
    out[at..at + 3].copy_from_slice(&[INTEGER, 1, 1]);
    at += 3;
    at += header(OCTET_STRING, scalar.len(), &mut out[at..]);
    out[at..at + scalar.len()].copy_from_slice(scalar);
    at += scalar.len();
    at += header(CONTEXT_1, pub_ctx, &mut out[at..]);
    at += header(BIT_STRING, pub_bits, &mut out[at..]);
    out[at] = 0;
    out[at + 1..at + pub_bits].copy_from_slice(public);
    at += pub_bits;
    debug_assert_eq!(at, total);
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_must_be_minimal() {
        assert_eq!(
            Reader::new(&[0x04, 0x81, 0x05, 1, 2, 3, 4, 5]).read(0x04),
            Err(Error::InvalidDer)
        );
        assert_eq!(Reader::new(&[0x04, 0x80]).read(0x04), Err(Error::InvalidDer));
        assert_eq!(Reader::new(&[0x04, 0x02, 1]).read(0x04), Err(Error::InvalidDer));
        assert_eq!(Reader::new(&[0x04, 0x01, 7]).read(0x04), Ok(&[7u8][..]));
    }

    #[test]
    fn integers_must_be_minimal_and_positive() {
        assert_eq!(unsigned_integer(&[0x00, 0x7f]), Err(Error::InvalidDer));
        assert_eq!(unsigned_integer(&[0x80]), Err(Error::InvalidDer));
        assert_eq!(unsigned_integer(&[]), Err(Error::InvalidDer));
        assert_eq!(unsigned_integer(&[0x00, 0x80]), Ok(&[0x80u8][..]));
        assert_eq!(unsigned_integer(&[0x00]), Ok(&[0x00u8][..]));
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
