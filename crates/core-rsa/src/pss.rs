//! RSASSA-PSS (RFC 8017 §8.1, EMSA-PSS §9.1) with MGF1: signing with a random salt (the
//! hash's length by default) and verification that either requires a salt length or finds it.

use crate::hash::RsaHash;
use crate::{Error, HashAlg, PrivateKey, PublicKey, RandomSource};
use zeroize::Zeroize;

/// PSS parameters: the message hash, MGF1's hash, and the salt length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pss {
    /// The hash of the message and of `M'`.
    pub hash: HashAlg,
    /// The hash MGF1 runs on (almost always `hash`).
    pub mgf1_hash: HashAlg,
    /// The salt length: `None` signs with the hash's length and verifies any length; `Some`
    /// signs with and requires exactly that length.
    pub salt_len: Option<usize>,
}

impl Pss {
    /// `hash` for both the message and MGF1, salt as long as the hash when signing and of any
    /// length when verifying.
    pub const fn new(hash: HashAlg) -> Self {
        Self { hash, mgf1_hash: hash, salt_len: None }
    }

    /// The same with a fixed salt length, signed and required.
    pub const fn with_salt_len(hash: HashAlg, salt_len: usize) -> Self {
        Self { hash, mgf1_hash: hash, salt_len: Some(salt_len) }
    }
}

/// `H = Hash(0^8 || mHash || salt)`.
fn h_of(hash: HashAlg, m_hash: &[u8], salt: &[u8]) -> core_hash::HashOutput {
    hash.digest_parts(&[&[0u8; 8], m_hash, salt])
}

impl PublicKey {
    /// Verifies an RSASSA-PSS signature (RFC 8017 §8.1.2) of `msg`. `sig` must be exactly
    /// [`modulus_len`](Self::modulus_len) bytes.
    pub fn verify_pss(&self, pss: Pss, msg: &[u8], sig: &[u8]) -> Result<(), Error> {
        self.verify_pss_prehash(pss, pss.hash.digest(msg).as_ref(), sig)
    }

    /// As [`verify_pss`](Self::verify_pss), for a message already hashed with `pss`'s hash:
    /// `digest` is its hash (of that hash's length, else [`Error::InvalidLength`]). For
    /// protocols that keep a running hash of what was signed (a TLS 1.2 server checking a
    /// client's certificate verify message).
    pub fn verify_pss_prehash(&self, pss: Pss, digest: &[u8], sig: &[u8]) -> Result<(), Error> {
        if digest.len() != pss.hash.output_len() {
            return Err(Error::InvalidLength);
        }
        let bad = Error::InvalidSignature;
        let k = self.modulus_len();
        if sig.len() != k {
            return Err(bad);
        }
        let mut m = [0u8; crate::MAX_BITS / 8];
        self.raw_public(sig, &mut m[..k]).map_err(|_| bad)?;
        let em_bits = self.bits() - 1;
        let em_len = em_bits.div_ceil(8);
        // I2OSP(m, emLen): when emLen = k - 1 the top byte must be zero.
        if em_len < k && m[0] != 0 {
            return Err(bad);
        }
        let em = &mut m[k - em_len..k];
        let h_len = pss.hash.output_len();
        if em_len < h_len + 2 || em[em_len - 1] != 0xbc {
            return Err(bad);
        }
        let db_len = em_len - h_len - 1;
        let top_mask = 0xffu8 >> (8 * em_len - em_bits);
        if em[0] & !top_mask != 0 {
            return Err(bad);
        }
        let (db, rest) = em.split_at_mut(db_len);
        let h = &rest[..h_len];
        pss.mgf1_hash.mgf1_xor(h, db);
        db[0] &= top_mask;
        let one = db.iter().position(|&b| b != 0).ok_or(bad)?;
        if db[one] != 1 {
            return Err(bad);
        }
        let salt = &db[one + 1..];
        if pss.salt_len.is_some_and(|s| s != salt.len()) {
            return Err(bad);
        }
        if h_of(pss.hash, digest, salt).as_ref() == h { Ok(()) } else { Err(bad) }
    }
}

impl PrivateKey {
    /// Signs `msg` with RSASSA-PSS (RFC 8017 §8.1.1) into `sig`, which must hold
    /// [`modulus_len`](Self::modulus_len) bytes; returns that length. The salt comes from
    /// `rng`, which also blinds the private operation. SHA-1 is refused.
    pub fn sign_pss(
        &self,
        pss: Pss,
        msg: &[u8],
        rng: &mut dyn RandomSource,
        sig: &mut [u8],
    ) -> Result<usize, Error> {
        self.sign_pss_prehash(pss, pss.hash.digest(msg).as_ref(), rng, sig)
    }

    /// As [`sign_pss`](Self::sign_pss), for a message already hashed with `pss`'s hash:
    /// `digest` is its hash (of that hash's length, else [`Error::InvalidLength`]). For
    /// protocols that keep a running hash of what they sign rather than the message (a TLS
    /// 1.2 client's certificate verify message).
    pub fn sign_pss_prehash(
        &self,
        pss: Pss,
        digest: &[u8],
        rng: &mut dyn RandomSource,
        sig: &mut [u8],
    ) -> Result<usize, Error> {
        if pss.hash == HashAlg::Sha1 {
            return Err(Error::UnsupportedHash);
        }
        if digest.len() != pss.hash.output_len() {
            return Err(Error::InvalidLength);
        }
        let k = self.modulus_len();
        let sig = sig.get_mut(..k).ok_or(Error::BufferTooSmall)?;
        let em_bits = self.bits() - 1;
        let em_len = em_bits.div_ceil(8);
        let h_len = pss.hash.output_len();
        let s_len = pss.salt_len.unwrap_or(h_len);
        if em_len < h_len + s_len + 2 {
            return Err(Error::MessageTooLong);
        }
        let mut salt = [0u8; crate::MAX_BITS / 8];
        let salt = &mut salt[..s_len];
        rng.fill(salt).map_err(|_| Error::RandomFailed)?;
        let h = h_of(pss.hash, digest, salt);
        let mut m = [0u8; crate::MAX_BITS / 8];
        let em = &mut m[k - em_len..k];
        let db_len = em_len - h_len - 1;
        let (db, rest) = em.split_at_mut(db_len);
        db[db_len - s_len - 1] = 1;
        db[db_len - s_len..].copy_from_slice(salt);
        pss.mgf1_hash.mgf1_xor(h.as_ref(), db);
        db[0] &= 0xffu8 >> (8 * em_len - em_bits);
        rest[..h_len].copy_from_slice(h.as_ref());
        rest[h_len] = 0xbc;
        let r = self.raw_private(&m[..k], sig, rng);
        m.zeroize();
        r.map(|()| k)
    }
}
