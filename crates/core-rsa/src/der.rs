//! The RSA key formats (RFC 8017 Appendix A.1, RFC 5280 §4.1 `SubjectPublicKeyInfo`, RFC 5208
//! PKCS#8, RFC 4055 id-RSASSA-PSS) over `core-der`'s strict reader and writer: which
//! algorithm identifiers an RSA key may carry, and the parameters of an RSASSA-PSS key.

use core_der::der::{self as d, context};
pub(crate) use core_der::der::{
    NULL, OID, Reader, SEQUENCE, Writer, only, tlv_len, uint_content_len,
};
use core_der::pkix::{AlgorithmIdentifier, oid};

use crate::{Error, HashAlg, Pss};

impl From<core_der::Error> for Error {
    // Out of line and cold: every `?` on a DER read would otherwise inline this match.
    #[cold]
    #[inline(never)]
    fn from(e: core_der::Error) -> Self {
        match e {
            core_der::Error::BufferTooSmall => Self::BufferTooSmall,
            _ => Self::InvalidDer,
        }
    }
}

/// The longest RSASSA-PSS-params written back: SHA-512 with NULL parameters in both hash
/// fields, a four-byte salt length and a trailer field take 63 bytes.
pub(crate) const MAX_PSS_PARAMS: usize = 72;

/// The RSASSA-PSS-params (RFC 4055 §3.1) of an id-RSASSA-PSS key, held as the values they
/// name (a few bytes, not the DER), plus which fields the encoding spelled out, so that the
/// key is written back byte for byte as it was read.
///
/// A key without parameters may sign with any PSS parameters; a key with parameters, even an
/// empty SEQUENCE (all defaults: SHA-1, MGF1 with SHA-1, a 20-byte salt), is restricted to
/// them: see [`restriction`](Self::restriction).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PssKeyParams {
    hash: HashAlg,
    mgf1_hash: HashAlg,
    salt_len: u32,
    /// `form::*` bits.
    form: u8,
}

/// Which fields a [`PssKeyParams`] had in its encoding.
mod form {
    /// The parameters are present (a SEQUENCE, perhaps empty).
    pub(super) const PRESENT: u8 = 1;
    /// `[0] hashAlgorithm` is present.
    pub(super) const HASH: u8 = 2;
    /// Its `AlgorithmIdentifier` has NULL parameters (else none).
    pub(super) const HASH_NULL: u8 = 4;
    /// `[1] maskGenAlgorithm` is present.
    pub(super) const MGF: u8 = 8;
    /// MGF1's hash `AlgorithmIdentifier` has NULL parameters.
    pub(super) const MGF_NULL: u8 = 16;
    /// `[2] saltLength` is present.
    pub(super) const SALT: u8 = 32;
    /// `[3] trailerField` is present (it can only be 1).
    pub(super) const TRAILER: u8 = 64;
}

/// RSASSA-PSS-params' defaults (RFC 4055 §3.1): SHA-1 and a 20-byte salt.
#[cfg(feature = "pss-keys")]
const DEFAULT_SALT_LEN: u32 = 20;

/// `[3] { INTEGER 1 }`, the only trailer field.
const TRAILER_FIELD: [u8; 5] = [context(3), 3, d::INTEGER, 1, 1];

impl PssKeyParams {
    /// No parameters: any.
    #[cfg(feature = "pss-keys")]
    const NONE: Self =
        Self { hash: HashAlg::Sha1, mgf1_hash: HashAlg::Sha1, salt_len: DEFAULT_SALT_LEN, form: 0 };

    /// The PSS parameters the key is restricted to, or `None` when its identifier had no
    /// parameters (any hash and salt length). As a [`Pss`], ready to sign or verify with.
    pub fn restriction(self) -> Option<Pss> {
        (self.form & form::PRESENT != 0).then_some(Pss {
            hash: self.hash,
            mgf1_hash: self.mgf1_hash,
            salt_len: Some(self.salt_len as usize),
        })
    }

    /// Bytes in [`to_der`](Self::to_der)'s output (0 without parameters).
    pub fn encoded_len(self) -> usize {
        if self.form & form::PRESENT == 0 { 0 } else { tlv_len(self.contents_len()) }
    }

    /// Writes the RSASSA-PSS-params DER as the key's identifier had it (nothing when it had
    /// none) into `out`; returns the length, at most 72 bytes.
    pub fn to_der(self, out: &mut [u8]) -> Result<usize, Error> {
        let mut w = Writer::new(out);
        self.write(&mut w)?;
        Ok(w.len())
    }

    fn has(self, field: u8) -> bool {
        self.form & field != 0
    }

    /// The salt length's INTEGER magnitude, and where it starts in the returned array.
    fn salt_magnitude(self) -> ([u8; 4], usize) {
        let m = self.salt_len.to_be_bytes();
        (m, m.iter().position(|&b| b != 0).unwrap_or(4))
    }

    fn contents_len(self) -> usize {
        let mut len = 0;
        if self.has(form::HASH) {
            len += tlv_len(tlv_len(hash_identifier_len(self.hash, self.has(form::HASH_NULL))));
        }
        if self.has(form::MGF) {
            len += tlv_len(tlv_len(mgf_contents_len(self.mgf1_hash, self.has(form::MGF_NULL))));
        }
        if self.has(form::SALT) {
            let (m, start) = self.salt_magnitude();
            len += tlv_len(tlv_len(uint_content_len(&m[start..])));
        }
        if self.has(form::TRAILER) {
            len += TRAILER_FIELD.len();
        }
        len
    }

    fn write(self, w: &mut Writer<'_>) -> Result<(), Error> {
        if !self.has(form::PRESENT) {
            return Ok(());
        }
        w.header(SEQUENCE, self.contents_len())?;
        if self.has(form::HASH) {
            let len = hash_identifier_len(self.hash, self.has(form::HASH_NULL));
            w.header(context(0), tlv_len(len))?;
            write_hash_identifier(w, self.hash, self.has(form::HASH_NULL))?;
        }
        if self.has(form::MGF) {
            let len = mgf_contents_len(self.mgf1_hash, self.has(form::MGF_NULL));
            w.header(context(1), tlv_len(len))?;
            w.header(SEQUENCE, len)?;
            w.tlv(OID, oid::MGF1)?;
            write_hash_identifier(w, self.mgf1_hash, self.has(form::MGF_NULL))?;
        }
        if self.has(form::SALT) {
            let (m, start) = self.salt_magnitude();
            w.header(context(2), tlv_len(uint_content_len(&m[start..])))?;
            w.uint(&m[start..])?;
        }
        if self.has(form::TRAILER) {
            w.bytes(&TRAILER_FIELD)?;
        }
        Ok(())
    }

    /// Reads RSASSA-PSS-params (empty for none): every field optional and explicitly tagged,
    /// the hashes SHA-1 or SHA-2 with NULL or absent parameters (another hash is
    /// [`Error::UnsupportedHash`]), the mask generation MGF1, a salt length below 2^32, the
    /// trailer field 1.
    #[cfg(feature = "pss-keys")]
    fn from_der(params: &[u8]) -> Result<Self, Error> {
        match Self::read(params)? {
            (p, true) => Ok(p),
            (_, false) => Err(Error::UnsupportedHash),
        }
    }

    /// [`from_der`](Self::from_der) in `core-der`'s errors, out of line (one conversion, not
    /// one per field); with whether both hashes are known.
    #[cfg(feature = "pss-keys")]
    #[inline(never)]
    fn read(params: &[u8]) -> Result<(Self, bool), core_der::Error> {
        let mut p = Self::NONE;
        let mut known = true;
        if params.is_empty() {
            return Ok((p, known));
        }
        p.form = form::PRESENT;
        let mut r = Reader::new(d::only(params, SEQUENCE)?);
        if let Some(hash) = r.read_optional(context(0))? {
            let (h, null) = read_hash(hash)?;
            known &= h.is_some();
            p.hash = h.unwrap_or(HashAlg::Sha1);
            p.form |= form::HASH | if null { form::HASH_NULL } else { 0 };
        }
        if let Some(mgf) = r.read_optional(context(1))? {
            let mut mgf = Reader::new(d::only(mgf, SEQUENCE)?);
            if mgf.read(OID)? != oid::MGF1 {
                return Err(core_der::Error::NonCanonical);
            }
            let (h, null) = read_hash(mgf.rest())?;
            known &= h.is_some();
            p.mgf1_hash = h.unwrap_or(HashAlg::Sha1);
            p.form |= form::MGF | if null { form::MGF_NULL } else { 0 };
        }
        if let Some(salt) = r.read_optional(context(2))? {
            let mut salt = Reader::new(salt);
            let m = salt.uint()?;
            salt.finish()?;
            if m.len() > 4 {
                return Err(core_der::Error::NonCanonical);
            }
            p.salt_len = m.iter().fold(0, |acc, &b| (acc << 8) | u32::from(b));
            p.form |= form::SALT;
        }
        if let Some(trailer) = r.read_optional(context(3))? {
            if trailer != &TRAILER_FIELD[2..] {
                return Err(core_der::Error::NonCanonical);
            }
            p.form |= form::TRAILER;
        }
        r.finish()?;
        Ok((p, known))
    }
}

/// The OID of a hash RSASSA-PSS-params may name (only those are ever read, so only they are
/// written).
fn hash_oid(hash: HashAlg) -> &'static [u8] {
    HASHES.iter().find(|&&(_, h)| h == hash).map_or(oid::SHA512, |&(oid, _)| oid)
}

/// Contents of a hash `AlgorithmIdentifier`, with NULL parameters or none.
fn hash_identifier_len(hash: HashAlg, null: bool) -> usize {
    tlv_len(hash_oid(hash).len()) + if null { 2 } else { 0 }
}

/// Contents of MGF1's `AlgorithmIdentifier`.
fn mgf_contents_len(hash: HashAlg, null: bool) -> usize {
    tlv_len(oid::MGF1.len()) + tlv_len(hash_identifier_len(hash, null))
}

fn write_hash_identifier(w: &mut Writer<'_>, hash: HashAlg, null: bool) -> Result<(), Error> {
    w.header(SEQUENCE, hash_identifier_len(hash, null))?;
    w.tlv(OID, hash_oid(hash))?;
    if null { Ok(w.bytes(NULL_PARAMS)?) } else { Ok(()) }
}

/// The hashes RSASSA-PSS-params may name, by OID.
const HASHES: [(&[u8], HashAlg); 4] = [
    (oid::SHA1, HashAlg::Sha1),
    (oid::SHA256, HashAlg::Sha256),
    (oid::SHA384, HashAlg::Sha384),
    (oid::SHA512, HashAlg::Sha512),
];

/// A hash `AlgorithmIdentifier` (RFC 4055 §2.1: parameters NULL or absent): the SHA-1 or
/// SHA-2 hash it names (`None` for another), and whether its parameters were NULL.
#[cfg(feature = "pss-keys")]
fn read_hash(alg: &[u8]) -> Result<(Option<HashAlg>, bool), core_der::Error> {
    let alg = AlgorithmIdentifier::from_contents(d::only(alg, SEQUENCE)?)?;
    let null = alg.params == NULL_PARAMS;
    if !(alg.params.is_empty() || null) {
        return Err(core_der::Error::NonCanonical);
    }
    let hash = HASHES.iter().find(|(oid, _)| *oid == alg.oid).map(|&(_, hash)| hash);
    Ok((hash, null))
}

/// What an RSA key's encodings call it: rsaEncryption, or id-RSASSA-PSS with its
/// RSASSA-PSS-params (none: any PSS parameters), kept so the key re-encodes as it came and
/// its restriction is not silently dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KeyAlg {
    pss: Option<PssSlot>,
}

/// What an id-RSASSA-PSS key holds: its parameters; without the `pss-keys` feature no key is
/// one, and the slot takes no space in a key or in a reader's result (Cortex-M0 flash).
#[cfg(feature = "pss-keys")]
type PssSlot = PssKeyParams;
#[cfg(not(feature = "pss-keys"))]
type PssSlot = core::convert::Infallible;

/// The parameters in a [`PssSlot`].
#[cfg(feature = "pss-keys")]
fn pss_of(slot: PssSlot) -> PssKeyParams {
    slot
}
#[cfg(not(feature = "pss-keys"))]
fn pss_of(slot: PssSlot) -> PssKeyParams {
    match slot {}
}

/// rsaEncryption's parameters: NULL (RFC 8017 Appendix C).
const NULL_PARAMS: &[u8] = &[NULL, 0];

impl KeyAlg {
    /// rsaEncryption.
    pub(crate) const RSA: Self = Self { pss: None };

    /// The algorithm of an RSA key's `AlgorithmIdentifier`: rsaEncryption with NULL
    /// parameters, or id-RSASSA-PSS with none or valid RSASSA-PSS-params; another algorithm is
    /// [`Error::WrongAlgorithm`] naming it.
    pub(crate) fn from_identifier(alg: &AlgorithmIdentifier<'_>) -> Result<Self, Error> {
        // One table walk names the key for both the match and the error (Cortex-M0 flash:
        // smaller than comparing the OIDs here and walking the table again to refuse).
        match alg.kind() {
            core_der::KeyAlgorithm::Rsa if alg.params == NULL_PARAMS => Ok(Self::RSA),
            core_der::KeyAlgorithm::Rsa => Err(Error::InvalidDer),
            #[cfg(feature = "pss-keys")]
            core_der::KeyAlgorithm::RsaPss => {
                Ok(Self { pss: Some(PssKeyParams::from_der(alg.params)?) })
            }
            found => Err(Error::WrongAlgorithm { found }),
        }
    }

    /// Its `AlgorithmIdentifier`, with the parameters written into `buf`.
    pub(crate) fn identifier(
        self,
        buf: &mut [u8; MAX_PSS_PARAMS],
    ) -> Result<AlgorithmIdentifier<'_>, Error> {
        Ok(match self.pss.map(pss_of) {
            Some(p) => {
                let len = p.to_der(buf)?;
                AlgorithmIdentifier { oid: oid::RSASSA_PSS, params: &buf[..len] }
            }
            None => AlgorithmIdentifier { oid: oid::RSA_ENCRYPTION, params: NULL_PARAMS },
        })
    }

    /// The kind of key.
    pub(crate) fn kind(self) -> core_der::KeyAlgorithm {
        if self.pss.is_some() {
            core_der::KeyAlgorithm::RsaPss
        } else {
            core_der::KeyAlgorithm::Rsa
        }
    }

    /// An RSASSA-PSS key's parameters; `None` for rsaEncryption.
    pub(crate) fn pss_params(self) -> Option<PssKeyParams> {
        self.pss.map(pss_of)
    }
}

#[cfg(all(test, feature = "pss-keys"))]
mod tests {
    use super::*;

    /// RFC 4055 §3.1's SHA-256 example: hash, MGF1-SHA-256, salt 32.
    const SHA256: [u8; 54] = [
        0x30, 0x34, 0xa0, 0x0f, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04,
        0x02, 0x01, 0x05, 0x00, 0xa1, 0x1c, 0x30, 0x1a, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7,
        0x0d, 0x01, 0x01, 0x08, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04,
        0x02, 0x01, 0x05, 0x00, 0xa2, 0x03, 0x02, 0x01, 0x20,
    ];

    fn check(params: &[u8]) -> Result<(), Error> {
        PssKeyParams::from_der(params).map(|_| ())
    }

    #[test]
    fn pss_params_are_checked() {
        assert_eq!(check(&SHA256), Ok(()));
        assert_eq!(check(&[]), Ok(()));
        assert_eq!(check(&[0x30, 0x00]), Ok(()));
        let mut bad_mgf = SHA256;
        bad_mgf[33] = 0x09; // not id-mgf1
        assert_eq!(check(&bad_mgf), Err(Error::InvalidDer));
        let mut md5 = SHA256;
        md5[16] = 0x05; // an unknown hash arc
        assert_eq!(check(&md5), Err(Error::UnsupportedHash));
        assert_eq!(check(&[0x30, 0x05, 0xa3, 0x03, 0x02, 0x01, 0x02]), Err(Error::InvalidDer));
        assert_eq!(check(&SHA256[..40]), Err(Error::InvalidDer));
        // A salt length of five bytes is refused; four are kept.
        let salt = |m: &[u8]| {
            let mut der = std::vec![0x30, m.len() as u8 + 4, 0xa2, m.len() as u8 + 2, 0x02];
            der.push(m.len() as u8);
            der.extend_from_slice(m);
            der
        };
        assert_eq!(check(&salt(&[1, 0, 0, 0, 0])), Err(Error::InvalidDer));
        let p = PssKeyParams::from_der(&salt(&[0x00, 0xff, 0xff, 0xff, 0xff])).unwrap();
        assert_eq!(p.restriction().and_then(|p| p.salt_len), Some(0xffff_ffff));
    }

    /// What the parameters restrict a key to, defaults filled in.
    #[test]
    fn pss_params_name_their_values() {
        let p = PssKeyParams::from_der(&SHA256).unwrap();
        assert_eq!(p.restriction(), Some(Pss::with_salt_len(HashAlg::Sha256, 32)));
        assert_eq!(PssKeyParams::from_der(&[]).unwrap().restriction(), None);
        let defaults = PssKeyParams::from_der(&[0x30, 0x00]).unwrap();
        assert_eq!(defaults.restriction(), Some(Pss::with_salt_len(HashAlg::Sha1, 20)));
        // SHA-384 hash (no parameters), MGF1 with SHA-512 (NULL), the trailer field.
        let mixed = [
            0x30, 0x32, 0xa0, 0x0d, 0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03,
            0x04, 0x02, 0x02, 0xa1, 0x1c, 0x30, 0x1a, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7,
            0x0d, 0x01, 0x01, 0x08, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03,
            0x04, 0x02, 0x03, 0x05, 0x00, 0xa3, 0x03, 0x02, 0x01, 0x01,
        ];
        let p = PssKeyParams::from_der(&mixed).unwrap();
        let want = Pss { hash: HashAlg::Sha384, mgf1_hash: HashAlg::Sha512, salt_len: Some(20) };
        assert_eq!(p.restriction(), Some(want));
    }

    /// The compact form writes back the bytes it was read from, whichever optional fields and
    /// NULL parameters they had.
    #[test]
    fn pss_params_round_trip_byte_for_byte() {
        let hash = |oid: &[u8], null: bool| {
            let mut alg = std::vec![OID, oid.len() as u8];
            alg.extend_from_slice(oid);
            if null {
                alg.extend_from_slice(NULL_PARAMS);
            }
            let mut out = std::vec![SEQUENCE, alg.len() as u8];
            out.extend(alg);
            out
        };
        let tagged = |tag: u8, contents: &[u8]| {
            let mut out = std::vec![tag, contents.len() as u8];
            out.extend_from_slice(contents);
            out
        };
        let mut cases = std::vec![std::vec![], std::vec![0x30, 0x00], SHA256.to_vec()];
        for (h, m) in
            [(oid::SHA1, oid::SHA512), (oid::SHA512, oid::SHA384), (oid::SHA256, oid::SHA1)]
        {
            for bits in 0..64u8 {
                let mut body = std::vec![];
                if bits & 1 != 0 {
                    body.extend(tagged(context(0), &hash(h, bits & 2 != 0)));
                }
                if bits & 4 != 0 {
                    let mut mgf = std::vec![OID, 9];
                    mgf.extend_from_slice(oid::MGF1);
                    mgf.extend(hash(m, bits & 8 != 0));
                    body.extend(tagged(context(1), &tagged(SEQUENCE, &mgf)));
                }
                if bits & 16 != 0 {
                    body.extend_from_slice(&[context(2), 6, 0x02, 4, 0x7f, 0, 1, 2]);
                }
                if bits & 32 != 0 {
                    body.extend_from_slice(&TRAILER_FIELD);
                }
                cases.push(tagged(SEQUENCE, &body));
            }
        }
        for der in cases {
            let p = PssKeyParams::from_der(&der).unwrap();
            let mut out = [0u8; MAX_PSS_PARAMS];
            assert_eq!(p.to_der(&mut out), Ok(der.len()), "{der:02x?}");
            assert_eq!(&out[..der.len()], &der[..]);
            assert_eq!(p.encoded_len(), der.len());
            let alg = KeyAlg { pss: Some(p) };
            let mut buf = [0u8; MAX_PSS_PARAMS];
            let id = alg.identifier(&mut buf).unwrap();
            assert_eq!((id.oid, id.params), (oid::RSASSA_PSS, &der[..]));
            assert_eq!(KeyAlg::from_identifier(&id), Ok(alg));
        }
        // The longest parameters fit the bound.
        let longest = PssKeyParams {
            hash: HashAlg::Sha512,
            mgf1_hash: HashAlg::Sha512,
            salt_len: u32::MAX,
            form: 0x7f,
        };
        let mut out = [0u8; MAX_PSS_PARAMS];
        assert_eq!(longest.to_der(&mut out), Ok(63));
        assert_eq!(PssKeyParams::from_der(&out[..63]), Ok(longest));
    }
}
