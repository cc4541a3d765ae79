//! DHKEM(P-256, HKDF-SHA256), `kem_id` 0x0010 (RFC 9180 §7.1): public keys as uncompressed
//! SEC1 points (65 bytes, validated on the curve), private keys as 32-byte big-endian
//! scalars, the DH result the x-coordinate.

use core_ec::p256::{PublicKey, SecretKey};
use zeroize::Zeroizing;

use crate::Error;
use crate::kdf::HkdfSha256;
use crate::kem::{Kem, dkp_prk, wiped};
use crate::labeled::labeled_expand;

/// DHKEM(P-256, HKDF-SHA256): `Nsecret` 32, `Nenc` = `Npk` = 65, `Nsk` 32.
#[derive(Clone, Copy, Debug)]
pub struct DhKemP256HkdfSha256;

impl Kem for DhKemP256HkdfSha256 {
    const ID: u16 = 0x0010;
    const SECRET_KEY_LEN: usize = 32;
    const PUBLIC_KEY_LEN: usize = 65;

    type Kdf = HkdfSha256;
    type SecretKey = SecretKey;
    type PublicKey = PublicKey;
    type EncodedPublicKey = [u8; 65];
    type SecretKeyBytes = Zeroizing<[u8; 32]>;
    type DhOutput = Zeroizing<[u8; 32]>;

    /// Rejection sampling (§7.1.3): candidate `counter` is
    /// `LabeledExpand(dkp_prk, "candidate", I2OSP(counter, 1), 32)` with the top byte masked
    /// by P-256's bitmask 0xff (so unchanged), taken if it is in `1..n`. Whether a candidate
    /// was rejected is declared public by core-ec's range check: it says nothing of the key
    /// taken.
    fn derive_key_pair(ikm: &[u8]) -> Result<(SecretKey, PublicKey), Error> {
        let prk = dkp_prk::<Self>(ikm);
        let mut candidate = Zeroizing::new([0u8; 32]);
        for counter in 0..=255u8 {
            labeled_expand(&Self::SUITE_ID, &prk, b"candidate", &[&[counter]], &mut candidate[..])?;
            if let Ok(sk) = SecretKey::from_bytes(&candidate[..]) {
                let pk = sk.public_key();
                return Ok((sk, pk));
            }
        }
        Err(Error::DeriveKeyPairFailed)
    }

    fn public_key(sk: &SecretKey) -> PublicKey {
        sk.public_key()
    }

    fn serialize_public_key(pk: &PublicKey) -> [u8; 65] {
        pk.to_sec1_bytes()
    }

    /// Only the uncompressed form `04 ‖ x ‖ y`, on the curve and not the identity.
    fn deserialize_public_key(bytes: &[u8]) -> Result<PublicKey, Error> {
        if bytes.len() != Self::PUBLIC_KEY_LEN {
            return Err(Error::InvalidPublicKey);
        }
        PublicKey::from_sec1_bytes(bytes).map_err(|_| Error::InvalidPublicKey)
    }

    fn serialize_private_key(sk: &SecretKey) -> Zeroizing<[u8; 32]> {
        Zeroizing::new(sk.to_bytes())
    }

    /// A big-endian scalar in `1..n`.
    fn deserialize_private_key(bytes: &[u8]) -> Result<SecretKey, Error> {
        SecretKey::from_bytes(bytes).map_err(|_| Error::InvalidPrivateKey)
    }

    fn dh(sk: &SecretKey, pk: &PublicKey) -> Result<Zeroizing<[u8; 32]>, Error> {
        let shared = sk.diffie_hellman(pk).map_err(|_| Error::InvalidSharedSecret)?;
        Ok(wiped(shared.as_bytes()))
    }
}
