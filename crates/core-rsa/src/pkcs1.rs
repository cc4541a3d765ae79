//! RSASSA-PKCS1-v1_5 (RFC 8017 §8.2): signing with SHA-224/256/384/512 and SHA-512/256, and
//! verification with those and SHA-1. Verification re-encodes the expected `EM` and compares
//! it whole, so no DER in the signature is ever parsed.

use crate::{Error, HashAlg, PrivateKey, PublicKey, RandomSource};
use zeroize::Zeroize;

/// EMSA-PKCS1-v1_5-ENCODE (RFC 8017 §9.2) of `msg` into all of `em`.
fn encode(hash: HashAlg, msg: &[u8], em: &mut [u8]) -> Result<(), Error> {
    let prefix = hash.digest_info_prefix();
    let t_len = prefix.len() + hash.output_len();
    if em.len() < t_len + 11 {
        return Err(Error::MessageTooLong);
    }
    let digest = hash.digest(&[msg]);
    let ps_end = em.len() - t_len;
    em[0] = 0;
    em[1] = 1;
    em[2..ps_end - 1].fill(0xff);
    em[ps_end - 1] = 0;
    em[ps_end..ps_end + prefix.len()].copy_from_slice(prefix);
    em[ps_end + prefix.len()..].copy_from_slice(digest.as_ref());
    Ok(())
}

impl PublicKey {
    /// Verifies an RSASSA-PKCS1-v1_5 signature (RFC 8017 §8.2.2) of `msg` hashed with `hash`.
    /// `sig` must be exactly [`modulus_len`](Self::modulus_len) bytes.
    pub fn verify_pkcs1v15(&self, hash: HashAlg, msg: &[u8], sig: &[u8]) -> Result<(), Error> {
        let k = self.modulus_len();
        if sig.len() != k {
            return Err(Error::InvalidSignature);
        }
        let mut em = [0u8; crate::MAX_BITS / 8];
        let mut want = [0u8; crate::MAX_BITS / 8];
        self.raw_public(sig, &mut em[..k]).map_err(|_| Error::InvalidSignature)?;
        encode(hash, msg, &mut want[..k]).map_err(|_| Error::InvalidSignature)?;
        if em[..k] == want[..k] { Ok(()) } else { Err(Error::InvalidSignature) }
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
        if hash == HashAlg::Sha1 {
            return Err(Error::UnsupportedHash);
        }
        let k = self.modulus_len();
        let sig = sig.get_mut(..k).ok_or(Error::BufferTooSmall)?;
        let mut em = [0u8; crate::MAX_BITS / 8];
        encode(hash, msg, &mut em[..k])?;
        let r = self.raw_private(&em[..k], sig, rng);
        em.zeroize();
        r.map(|()| k)
    }
}
