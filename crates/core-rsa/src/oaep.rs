//! RSAES-OAEP (RFC 8017 §7.1) with MGF1. Decryption checks the padding in constant time and
//! reports every failure — a ciphertext out of range, a nonzero first byte, a wrong label
//! hash, a missing separator — as the one [`Error::Decryption`] (Manger's attack needs to tell
//! them apart).

use crate::hash::RsaHash;
use crate::{Error, HashAlg, PrivateKey, PublicKey, RandomSource};
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};
use zeroize::Zeroize;

/// OAEP parameters: the label hash and MGF1's hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Oaep {
    /// The hash of the label (and the seed length).
    pub hash: HashAlg,
    /// The hash MGF1 runs on.
    pub mgf1_hash: HashAlg,
}

impl Oaep {
    /// `hash` for both the label and MGF1.
    pub const fn new(hash: HashAlg) -> Self {
        Self { hash, mgf1_hash: hash }
    }

    /// The longest message a `k`-byte modulus can carry: `k - 2·hLen - 2`.
    pub const fn max_message_len(self, k: usize) -> usize {
        k.saturating_sub(2 * self.hash.output_len() + 2)
    }
}

impl PublicKey {
    /// Encrypts `msg` with RSAES-OAEP (RFC 8017 §7.1.1) under `label` into `out`, which must
    /// hold [`modulus_len`](Self::modulus_len) bytes; returns that length. Keys below 2048 bits
    /// are refused.
    pub fn encrypt_oaep(
        &self,
        oaep: Oaep,
        label: &[u8],
        msg: &[u8],
        rng: &mut dyn RandomSource,
        out: &mut [u8],
    ) -> Result<usize, Error> {
        if self.bits() < crate::MIN_PRIVATE_BITS {
            return Err(Error::UnsupportedKeySize);
        }
        let k = self.modulus_len();
        let h_len = oaep.hash.output_len();
        if msg.len() > oaep.max_message_len(k) {
            return Err(Error::MessageTooLong);
        }
        let out = out.get_mut(..k).ok_or(Error::BufferTooSmall)?;
        let mut em = [0u8; crate::MAX_BITS / 8];
        let em = &mut em[..k];
        let (seed, db) = em[1..].split_at_mut(h_len);
        rng.fill(seed).map_err(|_| Error::RandomFailed)?;
        db[..h_len].copy_from_slice(oaep.hash.digest(label).as_ref());
        let db_len = db.len();
        db[db_len - msg.len() - 1] = 1;
        db[db_len - msg.len()..].copy_from_slice(msg);
        oaep.mgf1_hash.mgf1_xor(seed, db);
        oaep.mgf1_hash.mgf1_xor(db, seed);
        let r = self.raw_public(em, out);
        em.zeroize();
        r.map(|()| k)
    }
}

impl PrivateKey {
    /// Decrypts an RSAES-OAEP ciphertext (RFC 8017 §7.1.2) under `label` into `out`; returns
    /// the message length. `out` must hold [`Oaep::max_message_len`] bytes, so that its size
    /// never depends on the secret (else [`Error::BufferTooSmall`]). Every decryption failure is [`Error::Decryption`].
    pub fn decrypt_oaep(
        &self,
        oaep: Oaep,
        label: &[u8],
        ct: &[u8],
        rng: &mut dyn RandomSource,
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let k = self.modulus_len();
        let h_len = oaep.hash.output_len();
        if k < 2 * h_len + 2 {
            return Err(Error::InvalidLength);
        }
        if out.len() < oaep.max_message_len(k) {
            return Err(Error::BufferTooSmall);
        }
        if ct.len() != k {
            return Err(Error::Decryption);
        }
        let mut em = [0u8; crate::MAX_BITS / 8];
        let r = match self.raw_private(ct, &mut em[..k], rng) {
            Ok(()) => Ok(unpad(oaep, label, &mut em[..k], out)),
            Err(Error::OutOfRange | Error::InvalidLength) => Err(Error::Decryption),
            Err(e) => Err(e),
        };
        em.zeroize();
        match r {
            Ok(Some(len)) => Ok(len),
            Ok(None) => Err(Error::Decryption),
            Err(e) => Err(e),
        }
    }
}

/// EME-OAEP decoding in constant time: `Some(mLen)` with the message in `out` if the padding
/// is good, `None` (and `out` untouched) otherwise.
fn unpad(oaep: Oaep, label: &[u8], em: &mut [u8], out: &mut [u8]) -> Option<usize> {
    let h_len = oaep.hash.output_len();
    let (y, rest) = em.split_at_mut(1);
    let (seed, db) = rest.split_at_mut(h_len);
    oaep.mgf1_hash.mgf1_xor(db, seed);
    oaep.mgf1_hash.mgf1_xor(seed, db);
    let l_hash = oaep.hash.digest(label);
    let mut good = y[0].ct_eq(&0) & db[..h_len].ct_eq(l_hash.as_ref());
    // Find the first nonzero byte after lHash; it must be 0x01.
    let mut looking = Choice::from(1);
    let mut index = 0u32;
    for (i, &b) in db[h_len..].iter().enumerate() {
        let is_zero = b.ct_eq(&0);
        let is_one = b.ct_eq(&1);
        index.conditional_assign(&(i as u32), looking & is_one);
        good &= !(looking & !is_zero & !is_one);
        looking &= is_zero;
    }
    good &= !looking;
    // Whether the padding is good is public: the call returns it, as the one `Decryption`
    // error for every cause. Once it is good, the message length is public too (the caller
    // gets it back).
    if !core_hash::declassify(bool::from(good)) {
        return None;
    }
    let index = core_hash::declassify(index);
    let msg = &db[h_len + index as usize + 1..];
    out.get_mut(..msg.len())?.copy_from_slice(msg);
    Some(msg.len())
}
