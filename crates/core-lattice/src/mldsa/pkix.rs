//! ML-DSA keys in their X.509 envelopes (RFC 9881): the public key as it is, in the BIT STRING
//! of a `SubjectPublicKeyInfo`; the private key in PKCS#8 as one of the three forms of the
//! `ML-DSA-*-PrivateKey` CHOICE (§6) — the 32-byte seed ξ as `[0] IMPLICIT OCTET STRING`,
//! the expanded key as an OCTET STRING, or both in a SEQUENCE — every one read (both only
//! when the expanded key is the seed's), the seed form written, as RFC 9881 recommends; and
//! PEM around either through `core-der`'s codec. The algorithm identifiers are
//! id-ml-dsa-44/65/87 with their parameters absent (§2).
//!
//! [`key_encodings!`] adds the lengths and methods to each parameter set's module, where they
//! see the keys' fields; the DER shared by the three sets is here.

use core_der::PemError;
use core_der::der::{self, OCTET_STRING, Reader, SEQUENCE, Writer};
use core_der::pkix::{AlgorithmIdentifier, PrivateKeyInfo, SubjectPublicKeyInfo};

use crate::Error;

/// PEM label of a PKCS#8 private key.
pub(super) const PKCS8_LABEL: &str = "PRIVATE KEY";
/// PEM label of a `SubjectPublicKeyInfo`.
pub(super) const PUBLIC_KEY_LABEL: &str = "PUBLIC KEY";

/// Tag of the seed form: `[0] IMPLICIT OCTET STRING`, primitive.
pub(super) const SEED_TAG: u8 = 0x80;

/// Bytes in the `AlgorithmIdentifier` of an ML-DSA key: the 9-byte OID, no parameters.
const ALGORITHM_LEN: usize = der::tlv_len(der::tlv_len(9));

/// Bytes in the `SubjectPublicKeyInfo` of a `pk_len`-byte public key.
pub(super) const fn spki_len(pk_len: usize) -> usize {
    der::tlv_len(ALGORITHM_LEN + der::tlv_len(1 + pk_len))
}

/// Bytes in the PKCS#8 (version 0, no public key) of a private key whose CHOICE form has
/// `body_len` content bytes.
pub(super) const fn pkcs8_len(body_len: usize) -> usize {
    der::tlv_len(3 + ALGORITHM_LEN + der::tlv_len(der::tlv_len(body_len)))
}

/// The longest PKCS#8 DER the PEM readers decode, whatever their parameter set (so that one
/// given another set's key can name it): ML-DSA-87's `both` form with the public key beside
/// it (version 1), and room for attributes.
pub(super) const MAX_PKCS8_LEN: usize = {
    use super::mldsa87::{PUBLIC_KEY_LEN, SIGNING_KEY_LEN};
    pkcs8_len(der::tlv_len(32) + der::tlv_len(SIGNING_KEY_LEN))
        + der::tlv_len(1 + PUBLIC_KEY_LEN)
        + 256
};

/// The longest `SubjectPublicKeyInfo` DER the PEM readers decode: ML-DSA-87's.
pub(super) const MAX_SPKI_LEN: usize = spki_len(super::mldsa87::PUBLIC_KEY_LEN);

/// A private key as PKCS#8 holds it: one of RFC 9881 §6's three forms.
pub(super) enum PrivateKey<'a> {
    /// `seed [0] OCTET STRING (SIZE (32))`.
    Seed(&'a [u8; 32]),
    /// `expandedKey OCTET STRING`: FIPS 204 Algorithm 24's encoding.
    Expanded(&'a [u8]),
    /// `both SEQUENCE { seed, expandedKey }`.
    Both(&'a [u8; 32], &'a [u8]),
}

/// Checks an ML-DSA `AlgorithmIdentifier`: `oid`, parameters absent.
fn check_algorithm(alg: &AlgorithmIdentifier<'_>, oid: &[u8]) -> Result<(), Error> {
    if alg.oid != oid {
        return Err(Error::WrongAlgorithm { found: alg.kind() });
    }
    if alg.params.is_empty() { Ok(()) } else { Err(Error::InvalidDer) }
}

/// The public key in a `SubjectPublicKeyInfo` for algorithm `oid` (its length unchecked).
pub(super) fn parse_spki<'a>(spki: &'a [u8], oid: &[u8]) -> Result<&'a [u8], Error> {
    let spki = SubjectPublicKeyInfo::from_der(spki)?;
    check_algorithm(&spki.algorithm, oid)?;
    Ok(spki.public_key)
}

/// Writes the `SubjectPublicKeyInfo` of public key `pk` for algorithm `oid`.
pub(super) fn write_spki(pk: &[u8], oid: &[u8], out: &mut [u8]) -> Result<usize, Error> {
    let algorithm = AlgorithmIdentifier { oid, params: &[] };
    Ok(SubjectPublicKeyInfo { algorithm, public_key: pk }.to_der(out)?)
}

/// The private key, in whichever form it is, and the public key (version 1) if any, of a
/// PKCS#8 key for algorithm `oid`. Lengths are the caller's to check.
pub(super) fn parse_pkcs8<'a>(
    pkcs8: &'a [u8],
    oid: &[u8],
) -> Result<(PrivateKey<'a>, Option<&'a [u8]>), Error> {
    let info = PrivateKeyInfo::from_der(pkcs8)?;
    check_algorithm(&info.algorithm, oid)?;
    let mut r = Reader::new(info.private_key);
    let (tag, contents) = r.read_any()?;
    r.finish()?;
    let seed = |s: &'a [u8]| <&[u8; 32]>::try_from(s).map_err(|_| Error::InvalidLength);
    let key = match tag {
        SEED_TAG => PrivateKey::Seed(seed(contents)?),
        OCTET_STRING => PrivateKey::Expanded(contents),
        SEQUENCE => {
            let mut both = Reader::new(contents);
            let s = both.read(OCTET_STRING)?;
            let expanded = both.read(OCTET_STRING)?;
            both.finish()?;
            PrivateKey::Both(seed(s)?, expanded)
        }
        _ => return Err(Error::InvalidDer),
    };
    Ok((key, info.public_key))
}

/// Writes a PKCS#8 (version 0, no public key) for algorithm `oid` whose private key is the
/// CHOICE form tagged `tag` holding `body`: the seed form ([`SEED_TAG`]) or the expanded one
/// (`OCTET STRING`). The output is secret.
pub(super) fn write_pkcs8(
    tag: u8,
    body: &[u8],
    oid: &[u8],
    out: &mut [u8],
) -> Result<usize, Error> {
    let algorithm = AlgorithmIdentifier { oid, params: &[] };
    let private_key = der::tlv_len(body.len());
    let mut w = Writer::new(out);
    w.header(SEQUENCE, 3 + ALGORITHM_LEN + der::tlv_len(private_key))?;
    w.uint(&[])?;
    algorithm.write(&mut w)?;
    w.header(OCTET_STRING, private_key)?;
    w.tlv(tag, body)?;
    Ok(w.len())
}

/// A PEM block longer than any ML-DSA key file is [`Error::InvalidLength`].
impl core_der::pem::KeyPemError for Error {
    fn too_long() -> Self {
        Self::InvalidLength
    }
    fn buffer_too_small() -> Self {
        Self::BufferTooSmall
    }
    fn pem(e: PemError) -> Self {
        Self::Pem(e)
    }
}

/// The key-file API of one parameter set, expanded inside its module (where `K`, `L`, the
/// lengths and the key types are): `$oid` is its id-ml-dsa OID.
macro_rules! key_encodings {
    ($oid:expr) => {
        use super::pkix::{self, PrivateKey};

        /// Bytes in the PKCS#8 DER [`SigningKey::to_pkcs8_der`] writes for a key made from a
        /// seed (the seed form, version 0, RFC 9881 §6).
        pub const PKCS8_DER_LEN: usize = pkix::pkcs8_len(SEED_LEN);
        /// Bytes in the PKCS#8 DER [`SigningKey::to_pkcs8_der`] writes for a key read from its
        /// expanded form, whose seed it does not know (the expandedKey form).
        pub const PKCS8_EXPANDED_DER_LEN: usize = pkix::pkcs8_len(SIGNING_KEY_LEN);
        /// Bytes in the PEM [`SigningKey::to_pkcs8_pem`] writes for a key made from a seed.
        pub const PKCS8_PEM_LEN: usize =
            core_der::pem::encoded_len(pkix::PKCS8_LABEL, PKCS8_DER_LEN);
        /// Bytes in the `SubjectPublicKeyInfo` DER [`VerifyingKey::to_public_key_der`] writes.
        pub const PUBLIC_KEY_DER_LEN: usize = pkix::spki_len(PUBLIC_KEY_LEN);
        /// Bytes in the PEM [`VerifyingKey::to_public_key_pem`] writes.
        pub const PUBLIC_KEY_PEM_LEN: usize =
            core_der::pem::encoded_len(pkix::PUBLIC_KEY_LABEL, PUBLIC_KEY_DER_LEN);

        /// Key encodings (RFC 9881): PKCS#8 DER and PEM.
        impl SigningKey {
            /// Reads a PKCS#8 `PrivateKeyInfo`/`OneAsymmetricKey` holding a key of this
            /// parameter set in any of RFC 9881's three forms: the seed (expanded here), the
            /// expanded key (checked as [`from_bytes`](Self::from_bytes) checks it), or both,
            /// when the expanded key is the seed's ([`Error::InvalidSigningKey`] if not). A
            /// public key beside it must be this key's. A key of another algorithm or
            /// parameter set is [`Error::WrongAlgorithm`] naming it.
            pub fn from_pkcs8_der(der: &[u8]) -> Result<Self, Error> {
                let (key, public) = pkix::parse_pkcs8(der, $oid)?;
                let key = match key {
                    PrivateKey::Seed(seed) => Self::from_seed(seed),
                    PrivateKey::Expanded(expanded) => Self::from_bytes(expanded)?,
                    PrivateKey::Both(seed, expanded) => {
                        let key = Self::from_seed(seed);
                        // Whether the two agree is public (the key is refused or not).
                        if !core_hash::declassify(bool::from(key.bytes[..].ct_eq(expanded))) {
                            return Err(Error::InvalidSigningKey);
                        }
                        key
                    }
                };
                if public.is_some_and(|p| p != key.public.bytes) {
                    return Err(Error::InvalidSigningKey);
                }
                Ok(key)
            }

            /// Reads the first `PRIVATE KEY` (PKCS#8) block of a PEM text.
            pub fn from_pkcs8_pem(text: &str) -> Result<Self, Error> {
                core_der::pem::read_key::<{ pkix::MAX_PKCS8_LEN }, _, _>(
                    text,
                    pkix::PKCS8_LABEL,
                    Self::from_pkcs8_der,
                )
            }

            /// Writes the key as PKCS#8 DER; returns the length. A key made from a seed is
            /// written in the seed form ([`PKCS8_DER_LEN`] bytes), one read from its expanded
            /// form in that form ([`PKCS8_EXPANDED_DER_LEN`]). The output is secret.
            pub fn to_pkcs8_der(&self, out: &mut [u8]) -> Result<usize, Error> {
                match &self.seed {
                    Some(seed) => pkix::write_pkcs8(pkix::SEED_TAG, seed, $oid, out),
                    None => pkix::write_pkcs8(core_der::der::OCTET_STRING, &self.bytes, $oid, out),
                }
            }

            /// Writes the key as a `PRIVATE KEY` PEM block ([`PKCS8_PEM_LEN`] bytes for a key
            /// made from a seed) into `out`; returns the text. The output is secret.
            pub fn to_pkcs8_pem<'o>(&self, out: &'o mut [u8]) -> Result<&'o str, Error> {
                core_der::pem::write_key::<PKCS8_EXPANDED_DER_LEN, _>(pkix::PKCS8_LABEL, out, |b| {
                    self.to_pkcs8_der(b)
                })
            }

            /// [`to_pkcs8_pem`](Self::to_pkcs8_pem) into a new `String`, wiped on drop.
            #[cfg(feature = "alloc")]
            pub fn to_pkcs8_pem_string(
                &self,
            ) -> Result<zeroize::Zeroizing<alloc::string::String>, Error> {
                core_der::pem::encode_string_with::<PKCS8_EXPANDED_DER_LEN, _>(
                    pkix::PKCS8_LABEL,
                    |b| self.to_pkcs8_der(b),
                )
            }
        }

        /// Key encodings (RFC 9881): `SubjectPublicKeyInfo` DER and PEM.
        impl VerifyingKey {
            /// Reads a `SubjectPublicKeyInfo` holding a public key of this parameter set (its
            /// encoding as it is, parameters absent). A key of another algorithm or parameter
            /// set is [`Error::WrongAlgorithm`] naming it.
            pub fn from_public_key_der(der: &[u8]) -> Result<Self, Error> {
                Self::from_bytes(pkix::parse_spki(der, $oid)?)
            }

            /// Reads the first `PUBLIC KEY` block of a PEM text.
            pub fn from_public_key_pem(text: &str) -> Result<Self, Error> {
                core_der::pem::read_key::<{ pkix::MAX_SPKI_LEN }, _, _>(
                    text,
                    pkix::PUBLIC_KEY_LABEL,
                    Self::from_public_key_der,
                )
            }

            /// Writes the `SubjectPublicKeyInfo` DER ([`PUBLIC_KEY_DER_LEN`] bytes); returns
            /// the length.
            pub fn to_public_key_der(&self, out: &mut [u8]) -> Result<usize, Error> {
                pkix::write_spki(&self.bytes, $oid, out)
            }

            /// Writes a `PUBLIC KEY` PEM block ([`PUBLIC_KEY_PEM_LEN`] bytes) into `out`;
            /// returns the text.
            pub fn to_public_key_pem<'o>(&self, out: &'o mut [u8]) -> Result<&'o str, Error> {
                core_der::pem::write_key::<PUBLIC_KEY_DER_LEN, _>(
                    pkix::PUBLIC_KEY_LABEL,
                    out,
                    |b| self.to_public_key_der(b),
                )
            }

            /// [`to_public_key_pem`](Self::to_public_key_pem) into a new `String`.
            #[cfg(feature = "alloc")]
            pub fn to_public_key_pem_string(&self) -> Result<alloc::string::String, Error> {
                core_der::pem::encode_string_with::<PUBLIC_KEY_DER_LEN, _>(
                    pkix::PUBLIC_KEY_LABEL,
                    |b| self.to_public_key_der(b),
                )
                .map(|s| alloc::string::String::clone(&s))
            }
        }
    };
}

pub(super) use key_encodings;
