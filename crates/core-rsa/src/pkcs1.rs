//! RSASSA-PKCS1-v1_5 (RFC 8017 §8.2): signing with SHA-224/256/384/512 and SHA-512/256, and
//! verification with those and SHA-1. Verification re-encodes the expected `EM` and compares
//! it whole, so no DER in the signature is ever parsed. Also RSAES-PKCS1-v1_5 decryption
//! (§7.2.2) for legacy protocols, with constant-time unpadding and one error.

use crate::hash::RsaHash;
use crate::{Error, HashAlg, PrivateKey, PublicKey, RandomSource};
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, ConstantTimeGreater};
use zeroize::Zeroize;

/// EMSA-PKCS1-v1_5-ENCODE (RFC 8017 §9.2) of a message whose `hash` is `digest`, into all
/// of `em`.
fn encode_digest(hash: HashAlg, digest: &[u8], em: &mut [u8]) -> Result<(), Error> {
    let prefix = hash.digest_info_prefix()?;
    let t_len = prefix.len() + hash.output_len();
    if em.len() < t_len + 11 {
        return Err(Error::MessageTooLong);
    }
    if digest.len() != hash.output_len() {
        return Err(Error::InvalidLength);
    }
    let ps_end = em.len() - t_len;
    em[0] = 0;
    em[1] = 1;
    em[2..ps_end - 1].fill(0xff);
    em[ps_end - 1] = 0;
    em[ps_end..ps_end + prefix.len()].copy_from_slice(prefix);
    em[ps_end + prefix.len()..].copy_from_slice(digest);
    Ok(())
}

impl PublicKey {
    /// Verifies an RSASSA-PKCS1-v1_5 signature (RFC 8017 §8.2.2) of `msg` hashed with `hash`.
    /// `sig` must be exactly [`modulus_len`](Self::modulus_len) bytes.
    pub fn verify_pkcs1v15(&self, hash: HashAlg, msg: &[u8], sig: &[u8]) -> Result<(), Error> {
        self.verify_pkcs1v15_prehash(hash, hash.digest(msg).as_ref(), sig)
    }

    /// As [`verify_pkcs1v15`](Self::verify_pkcs1v15), for a message already hashed with
    /// `hash`: `digest` is its hash (of `hash`'s length, else [`Error::InvalidLength`]). For
    /// protocols that keep a running hash of what was signed (a TLS 1.2 server checking a
    /// client's certificate verify message).
    pub fn verify_pkcs1v15_prehash(
        &self,
        hash: HashAlg,
        digest: &[u8],
        sig: &[u8],
    ) -> Result<(), Error> {
        if digest.len() != hash.output_len() {
            return Err(Error::InvalidLength);
        }
        let k = self.modulus_len();
        if sig.len() != k {
            return Err(Error::InvalidSignature);
        }
        let mut em = [0u8; crate::MAX_BITS / 8];
        let em = &mut em[..k];
        self.raw_public(sig, em).map_err(|_| Error::InvalidSignature)?;
        // Compare with the expected encoding piece by piece (no second k-byte buffer: the
        // Cortex-M0 has 16 KiB).
        let prefix = hash.digest_info_prefix()?;
        let t_len = prefix.len() + hash.output_len();
        if k < t_len + 11 {
            return Err(Error::InvalidSignature);
        }
        let ps_end = k - t_len;
        let ok = em[..2] == [0, 1]
            && em[2..ps_end - 1].iter().all(|&b| b == 0xff)
            && em[ps_end - 1] == 0
            && &em[ps_end..ps_end + prefix.len()] == prefix
            && &em[ps_end + prefix.len()..] == digest;
        if ok { Ok(()) } else { Err(Error::InvalidSignature) }
    }
}

impl PrivateKey {
    /// Signs `msg` with RSASSA-PKCS1-v1_5 (RFC 8017 §8.2.1) and `hash` into `sig`, which must
    /// hold [`modulus_len`](Self::modulus_len) bytes; returns that length. The signature is
    /// deterministic; `rng` only blinds the private operation. SHA-1 is refused.
    pub fn sign_pkcs1v15(
        &self,
        hash: HashAlg,
        msg: &[u8],
        rng: &mut dyn RandomSource,
        sig: &mut [u8],
    ) -> Result<usize, Error> {
        self.sign_pkcs1v15_prehash(hash, hash.digest(msg).as_ref(), rng, sig)
    }

    /// As [`sign_pkcs1v15`](Self::sign_pkcs1v15), for a message already hashed with `hash`:
    /// `digest` is its hash (of `hash`'s length, else [`Error::InvalidLength`]). For
    /// protocols that keep a running hash of what they sign rather than the message (a TLS
    /// 1.2 client's certificate verify message).
    pub fn sign_pkcs1v15_prehash(
        &self,
        hash: HashAlg,
        digest: &[u8],
        rng: &mut dyn RandomSource,
        sig: &mut [u8],
    ) -> Result<usize, Error> {
        if hash == HashAlg::Sha1 {
            return Err(Error::UnsupportedHash);
        }
        let k = self.modulus_len();
        let sig = sig.get_mut(..k).ok_or(Error::BufferTooSmall)?;
        let mut em = [0u8; crate::MAX_BITS / 8];
        encode_digest(hash, digest, &mut em[..k])?;
        let r = self.raw_private(&em[..k], sig, rng);
        em.zeroize();
        r.map(|()| k)
    }
}

impl PrivateKey {
    /// Decrypts an RSAES-PKCS1-v1_5 ciphertext (RFC 8017 §7.2.2) into `out`; returns the
    /// message length. Only for legacy protocols: the scheme is open to Bleichenbacher's attack
    /// wherever the caller lets a failure be observed, so every failure is the one
    /// [`Error::Decryption`] and `out` must hold `k - 11` bytes whatever the message (else
    /// [`Error::BufferTooSmall`]).
    pub fn decrypt_pkcs1v15(
        &self,
        ct: &[u8],
        rng: &mut dyn RandomSource,
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let k = self.modulus_len();
        if out.len() < k - 11 {
            return Err(Error::BufferTooSmall);
        }
        if ct.len() != k {
            return Err(Error::Decryption);
        }
        let mut em = [0u8; crate::MAX_BITS / 8];
        let r = match self.raw_private(ct, &mut em[..k], rng) {
            Ok(()) => unpad_v15(&em[..k], out).ok_or(Error::Decryption),
            Err(Error::OutOfRange | Error::InvalidLength) => Err(Error::Decryption),
            Err(e) => Err(e),
        };
        em.zeroize();
        r
    }
}

/// EME-PKCS1-v1_5 decoding in constant time: `0x00 0x02 PS 0x00 M` with at least eight
/// nonzero bytes of `PS`.
fn unpad_v15(em: &[u8], out: &mut [u8]) -> Option<usize> {
    let mut good = em[0].ct_eq(&0) & em[1].ct_eq(&2);
    let mut looking = Choice::from(1);
    let mut index = 0u32;
    for (i, &b) in em.iter().enumerate().skip(2) {
        let z = b.ct_eq(&0);
        index.conditional_assign(&(i as u32), looking & z);
        looking &= !z;
    }
    good &= !looking;
    // PS is em[2..index]: at least 8 bytes, so index ≥ 10.
    good &= index.ct_gt(&9);
    // The verdict is public: the call returns it (which is why this scheme is only for legacy
    // protocols, see `decrypt_pkcs1v15`). Once the padding is good, so is the message length.
    if !core_hash::declassify(bool::from(good)) {
        return None;
    }
    let index = core_hash::declassify(index);
    let msg = &em[index as usize + 1..];
    out.get_mut(..msg.len())?.copy_from_slice(msg);
    Some(msg.len())
}
