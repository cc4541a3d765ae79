//! The envelopes keys travel in: `SubjectPublicKeyInfo` (RFC 5280 §4.1.2.7) for public keys
//! and PKCS#8 `PrivateKeyInfo`/`OneAsymmetricKey` (RFC 5208, RFC 5958 §2) for private keys,
//! each naming its algorithm with an `AlgorithmIdentifier`; and [`KeyAlgorithm`], what such
//! an identifier says the key is, so a loader given the wrong kind of key can say which.

use core::fmt;

use crate::Error;
use crate::der::{self, Reader, Writer};

/// Object identifiers of key algorithms and curves, as DER contents (without tag and length).
pub mod oid {
    /// rsaEncryption, 1.2.840.113549.1.1.1 (RFC 8017 Appendix C).
    pub const RSA_ENCRYPTION: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01];
    /// id-RSASSA-PSS, 1.2.840.113549.1.1.10 (RFC 4055 §3.1).
    pub const RSASSA_PSS: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0a];
    /// id-mgf1, 1.2.840.113549.1.1.8 (RFC 8017 Appendix B.2.1).
    pub const MGF1: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x08];
    /// id-dsa, 1.2.840.10040.4.1 (RFC 3279 §2.3.2).
    pub const DSA: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x38, 0x04, 0x01];
    /// id-ecPublicKey, 1.2.840.10045.2.1 (RFC 5480 §2.1.1).
    pub const EC_PUBLIC_KEY: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
    /// secp256r1 (prime256v1), 1.2.840.10045.3.1.7.
    pub const SECP256R1: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];
    /// secp384r1, 1.3.132.0.34.
    pub const SECP384R1: &[u8] = &[0x2b, 0x81, 0x04, 0x00, 0x22];
    /// secp521r1, 1.3.132.0.35.
    pub const SECP521R1: &[u8] = &[0x2b, 0x81, 0x04, 0x00, 0x23];
    /// secp256k1, 1.3.132.0.10.
    pub const SECP256K1: &[u8] = &[0x2b, 0x81, 0x04, 0x00, 0x0a];
    /// id-X25519, 1.3.101.110 (RFC 8410 §3).
    pub const X25519: &[u8] = &[0x2b, 0x65, 0x6e];
    /// id-X448, 1.3.101.111.
    pub const X448: &[u8] = &[0x2b, 0x65, 0x6f];
    /// id-Ed25519, 1.3.101.112.
    pub const ED25519: &[u8] = &[0x2b, 0x65, 0x70];
    /// id-Ed448, 1.3.101.113.
    pub const ED448: &[u8] = &[0x2b, 0x65, 0x71];
    /// id-sha1, 1.3.14.3.2.26.
    pub const SHA1: &[u8] = &[0x2b, 0x0e, 0x03, 0x02, 0x1a];
    /// id-sha256, 2.16.840.1.101.3.4.2.1.
    pub const SHA256: &[u8] = &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01];
    /// id-sha384, 2.16.840.1.101.3.4.2.2.
    pub const SHA384: &[u8] = &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02];
    /// id-sha512, 2.16.840.1.101.3.4.2.3.
    pub const SHA512: &[u8] = &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03];
    /// id-ml-dsa-44, 2.16.840.1.101.3.4.3.17 (RFC 9881 §2).
    pub const ML_DSA_44: &[u8] = &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x11];
    /// id-ml-dsa-65, 2.16.840.1.101.3.4.3.18.
    pub const ML_DSA_65: &[u8] = &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x12];
    /// id-ml-dsa-87, 2.16.840.1.101.3.4.3.19.
    pub const ML_DSA_87: &[u8] = &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x13];
}

/// What kind of key an `AlgorithmIdentifier` (or a SEC1 key's curve) names: what a loader
/// reports in its `WrongAlgorithm` error when it is given a key it does not load.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum KeyAlgorithm {
    /// RSA, rsaEncryption.
    Rsa,
    /// RSA restricted to PSS signatures, id-RSASSA-PSS.
    RsaPss,
    /// ECDSA/ECDH on P-256.
    EcP256,
    /// ECDSA/ECDH on P-384.
    EcP384,
    /// ECDSA/ECDH on P-521.
    EcP521,
    /// An EC key on another named curve, or with explicit curve parameters.
    EcOther,
    /// Ed25519.
    Ed25519,
    /// Ed448.
    Ed448,
    /// X25519.
    X25519,
    /// X448.
    X448,
    /// DSA.
    Dsa,
    /// ML-DSA-44 (FIPS 204).
    MlDsa44,
    /// ML-DSA-65.
    MlDsa65,
    /// ML-DSA-87.
    MlDsa87,
    /// An algorithm this crate does not know.
    Unknown,
}

impl KeyAlgorithm {
    /// The EC key kind for a named curve's OID.
    pub fn of_curve(curve: &[u8]) -> Self {
        lookup(&CURVES, curve).unwrap_or(Self::EcOther)
    }

    /// A short name, as in error messages.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Rsa => "RSA",
            Self::RsaPss => "RSASSA-PSS",
            Self::EcP256 => "EC P-256",
            Self::EcP384 => "EC P-384",
            Self::EcP521 => "EC P-521",
            Self::EcOther => "EC on another curve",
            Self::Ed25519 => "Ed25519",
            Self::Ed448 => "Ed448",
            Self::X25519 => "X25519",
            Self::X448 => "X448",
            Self::Dsa => "DSA",
            Self::MlDsa44 => "ML-DSA-44",
            Self::MlDsa65 => "ML-DSA-65",
            Self::MlDsa87 => "ML-DSA-87",
            Self::Unknown => "an unknown algorithm",
        }
    }
}

/// The key kinds named by their algorithm's OID, id-ecPublicKey's refined by its curve.
const ALGORITHMS: [(&[u8], KeyAlgorithm); 11] = [
    (oid::RSA_ENCRYPTION, KeyAlgorithm::Rsa),
    (oid::EC_PUBLIC_KEY, KeyAlgorithm::EcOther),
    (oid::RSASSA_PSS, KeyAlgorithm::RsaPss),
    (oid::ED25519, KeyAlgorithm::Ed25519),
    (oid::ED448, KeyAlgorithm::Ed448),
    (oid::X25519, KeyAlgorithm::X25519),
    (oid::X448, KeyAlgorithm::X448),
    (oid::DSA, KeyAlgorithm::Dsa),
    (oid::ML_DSA_44, KeyAlgorithm::MlDsa44),
    (oid::ML_DSA_65, KeyAlgorithm::MlDsa65),
    (oid::ML_DSA_87, KeyAlgorithm::MlDsa87),
];

/// The EC key kinds of the named curves with a kind of their own.
const CURVES: [(&[u8], KeyAlgorithm); 3] = [
    (oid::SECP256R1, KeyAlgorithm::EcP256),
    (oid::SECP384R1, KeyAlgorithm::EcP384),
    (oid::SECP521R1, KeyAlgorithm::EcP521),
];

/// The kind `table` gives `oid`, if any.
fn lookup(table: &[(&[u8], KeyAlgorithm)], oid: &[u8]) -> Option<KeyAlgorithm> {
    table.iter().find(|(o, _)| *o == oid).map(|&(_, kind)| kind)
}

impl fmt::Display for KeyAlgorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An `AlgorithmIdentifier ::= SEQUENCE { algorithm OID, parameters ANY OPTIONAL }`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlgorithmIdentifier<'a> {
    /// The algorithm's OID (contents).
    pub oid: &'a [u8],
    /// The parameters as encoded (whole elements), empty when absent.
    pub params: &'a [u8],
}

impl<'a> AlgorithmIdentifier<'a> {
    /// Reads one from the contents of its SEQUENCE.
    pub fn from_contents(contents: &'a [u8]) -> Result<Self, Error> {
        let mut r = Reader::new(contents);
        let oid = r.read(der::OID)?;
        let params = r.rest();
        if !r.is_empty() {
            r.read_any()?;
            r.finish()?;
        }
        Ok(Self { oid, params })
    }

    /// The named curve of an id-ecPublicKey identifier (`None` for explicit parameters or
    /// another algorithm).
    pub fn named_curve(&self) -> Option<&'a [u8]> {
        if self.oid != oid::EC_PUBLIC_KEY {
            return None;
        }
        der::only(self.params, der::OID).ok()
    }

    /// What kind of key this identifier names.
    // Out of line: it is only asked when a key is refused, and its table walk is smaller
    // than a `match` on the OIDs, which compiles to a comparison per arm.
    #[inline(never)]
    pub fn kind(&self) -> KeyAlgorithm {
        match lookup(&ALGORITHMS, self.oid) {
            // id-ecPublicKey: its parameters name the curve (or are explicit).
            Some(KeyAlgorithm::EcOther) => der::only(self.params, der::OID)
                .map_or(KeyAlgorithm::EcOther, KeyAlgorithm::of_curve),
            found => found.unwrap_or(KeyAlgorithm::Unknown),
        }
    }

    /// Bytes in its SEQUENCE's contents.
    pub const fn contents_len(&self) -> usize {
        der::tlv_len(self.oid.len()) + self.params.len()
    }

    /// Bytes in its encoding.
    pub const fn encoded_len(&self) -> usize {
        der::tlv_len(self.contents_len())
    }

    /// Writes it.
    pub fn write(&self, w: &mut Writer<'_>) -> Result<(), Error> {
        w.header(der::SEQUENCE, self.contents_len())?;
        w.tlv(der::OID, self.oid)?;
        w.bytes(self.params)
    }
}

/// A `SubjectPublicKeyInfo`: an algorithm and the public key bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubjectPublicKeyInfo<'a> {
    /// What the key is.
    pub algorithm: AlgorithmIdentifier<'a>,
    /// The key's bits (a BIT STRING of whole bytes), in the algorithm's own encoding.
    pub public_key: &'a [u8],
}

impl<'a> SubjectPublicKeyInfo<'a> {
    /// Reads one, which must be all of `der`.
    pub fn from_der(der: &'a [u8]) -> Result<Self, Error> {
        let mut r = Reader::new(der::only(der, der::SEQUENCE)?);
        let algorithm = AlgorithmIdentifier::from_contents(r.read(der::SEQUENCE)?)?;
        let public_key = r.bit_string()?;
        r.finish()?;
        Ok(Self { algorithm, public_key })
    }

    /// Bytes in its encoding.
    pub const fn encoded_len(&self) -> usize {
        der::tlv_len(self.algorithm.encoded_len() + der::tlv_len(1 + self.public_key.len()))
    }

    /// Writes it into `out`; returns the length.
    pub fn to_der(&self, out: &mut [u8]) -> Result<usize, Error> {
        let mut w = Writer::new(out);
        w.header(der::SEQUENCE, self.encoded_len() - der::header_len(self.contents_len()))?;
        self.algorithm.write(&mut w)?;
        w.bit_string(self.public_key)?;
        Ok(w.len())
    }

    const fn contents_len(&self) -> usize {
        self.algorithm.encoded_len() + der::tlv_len(1 + self.public_key.len())
    }
}

/// A PKCS#8 `PrivateKeyInfo` (version 0) or `OneAsymmetricKey` (version 1, RFC 5958), not
/// encrypted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrivateKeyInfo<'a> {
    /// What the key is.
    pub algorithm: AlgorithmIdentifier<'a>,
    /// The privateKey OCTET STRING's contents, in the algorithm's own encoding.
    pub private_key: &'a [u8],
    /// The attributes `[0]`, as encoded (whole element), if present.
    pub attributes: Option<&'a [u8]>,
    /// The public key `[1]` (version 1 only; a BIT STRING of whole bytes), if present.
    pub public_key: Option<&'a [u8]>,
}

impl<'a> PrivateKeyInfo<'a> {
    /// Reads one, which must be all of `der`.
    pub fn from_der(der: &'a [u8]) -> Result<Self, Error> {
        let mut r = Reader::new(der::only(der, der::SEQUENCE)?);
        let version = r.uint()?;
        if !version.is_empty() && version != [1] {
            return Err(Error::NonCanonical);
        }
        let algorithm = AlgorithmIdentifier::from_contents(r.read(der::SEQUENCE)?)?;
        let private_key = r.read(der::OCTET_STRING)?;
        let attributes =
            if r.peek() == Some(der::context(0)) { Some(r.read_element()?) } else { None };
        let mut public_key = None;
        // [1] IMPLICIT BIT STRING: primitive context tag 0x81.
        if version == [1] && r.peek() == Some(0x81) {
            match r.read(0x81)?.split_first() {
                Some((0, bits)) => public_key = Some(bits),
                _ => return Err(Error::NonCanonical),
            }
        }
        r.finish()?;
        Ok(Self { algorithm, private_key, attributes, public_key })
    }

    const fn contents_len(&self) -> usize {
        let attributes = match self.attributes {
            Some(a) => a.len(),
            None => 0,
        };
        let public = match self.public_key {
            Some(p) => der::tlv_len(1 + p.len()),
            None => 0,
        };
        3 + self.algorithm.encoded_len()
            + der::tlv_len(self.private_key.len())
            + attributes
            + public
    }

    /// Bytes in its encoding.
    pub const fn encoded_len(&self) -> usize {
        der::tlv_len(self.contents_len())
    }

    /// Writes it into `out` (version 1 when it has a public key, else 0); returns the length.
    /// The output holds the private key: wipe it after use.
    pub fn to_der(&self, out: &mut [u8]) -> Result<usize, Error> {
        let mut w = Writer::new(out);
        w.header(der::SEQUENCE, self.contents_len())?;
        w.uint(if self.public_key.is_some() { &[1] } else { &[] })?;
        self.algorithm.write(&mut w)?;
        w.tlv(der::OCTET_STRING, self.private_key)?;
        if let Some(a) = self.attributes {
            w.bytes(a)?;
        }
        if let Some(p) = self.public_key {
            w.header(0x81, 1 + p.len())?;
            w.bytes(&[0])?;
            w.bytes(p)?;
        }
        Ok(w.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 8410 §10.3: an Ed25519 private key, version 0, no public key.
    const ED25519_PKCS8: [u8; 48] = [
        0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04,
        0x20, 0xd4, 0xee, 0x72, 0xdb, 0xf9, 0x13, 0x58, 0x4a, 0xd5, 0xb6, 0xd8, 0xf1, 0xf7, 0x69,
        0xf8, 0xad, 0x3a, 0xfe, 0x7c, 0x28, 0xcb, 0xf1, 0xd4, 0xfb, 0xe0, 0x97, 0xa8, 0x8f, 0x44,
        0x75, 0x58, 0x42,
    ];

    #[test]
    fn pkcs8_round_trips() {
        let info = PrivateKeyInfo::from_der(&ED25519_PKCS8).unwrap();
        assert_eq!(info.algorithm.kind(), KeyAlgorithm::Ed25519);
        assert_eq!(info.algorithm.params, &[] as &[u8]);
        assert_eq!(info.private_key.len(), 34);
        assert_eq!(info.public_key, None);
        let mut out = [0u8; 64];
        assert_eq!(info.to_der(&mut out), Ok(48));
        assert_eq!(out[..48], ED25519_PKCS8);
        assert_eq!(info.encoded_len(), 48);
        // With a public key it is version 1, and reads back the same.
        let with_public = PrivateKeyInfo { public_key: Some(&[7; 32]), ..info };
        let mut out = [0u8; 100];
        let n = with_public.to_der(&mut out).unwrap();
        assert_eq!(n, with_public.encoded_len());
        assert_eq!(PrivateKeyInfo::from_der(&out[..n]), Ok(with_public));
        let mut long = ED25519_PKCS8.to_vec();
        long.push(0);
        assert_eq!(PrivateKeyInfo::from_der(&long), Err(Error::TrailingData));
        assert_eq!(PrivateKeyInfo::from_der(&ED25519_PKCS8[..47]), Err(Error::Truncated));
    }

    #[test]
    fn algorithms_are_named() {
        let ec = |curve: &'static [u8]| {
            let mut params = std::vec![der::OID, curve.len() as u8];
            params.extend_from_slice(curve);
            let params = std::boxed::Box::leak(params.into_boxed_slice());
            AlgorithmIdentifier { oid: oid::EC_PUBLIC_KEY, params }.kind()
        };
        assert_eq!(ec(oid::SECP256R1), KeyAlgorithm::EcP256);
        assert_eq!(ec(oid::SECP384R1), KeyAlgorithm::EcP384);
        assert_eq!(ec(oid::SECP521R1), KeyAlgorithm::EcP521);
        assert_eq!(ec(oid::SECP256K1), KeyAlgorithm::EcOther);
        let rsa = AlgorithmIdentifier { oid: oid::RSA_ENCRYPTION, params: &[5, 0] };
        assert_eq!(rsa.kind(), KeyAlgorithm::Rsa);
        let mldsa = AlgorithmIdentifier { oid: oid::ML_DSA_65, params: &[] };
        assert_eq!(mldsa.kind(), KeyAlgorithm::MlDsa65);
        assert_eq!(std::format!("{}", KeyAlgorithm::EcP384), "EC P-384");
        let mut buf = [0u8; 32];
        let mut w = Writer::new(&mut buf);
        rsa.write(&mut w).unwrap();
        let n = w.len();
        assert_eq!(n, rsa.encoded_len());
        let back = AlgorithmIdentifier::from_contents(der::only(&buf[..n], der::SEQUENCE).unwrap());
        assert_eq!(back, Ok(rsa));
    }
}
