//! DHKEM(X25519, HKDF-SHA256), `kem_id` 0x0020 (RFC 9180 §7.1): keys are RFC 7748's 32-byte
//! strings, serialized as they are; the private key is `DeriveKeyPair`'s output itself
//! (clamped only when used).

use core_ec::x25519::{PublicKey, SecretKey};
use zeroize::Zeroizing;

use crate::Error;
use crate::kdf::HkdfSha256;
use crate::kem::{Kem, dkp_prk, wiped};
use crate::labeled::labeled_expand;

/// DHKEM(X25519, HKDF-SHA256): `Nsecret` 32, `Nenc` = `Npk` = 32, `Nsk` 32.
#[derive(Clone, Copy, Debug)]
pub struct DhKemX25519HkdfSha256;

impl Kem for DhKemX25519HkdfSha256 {
    const ID: u16 = 0x0020;
    const SECRET_KEY_LEN: usize = 32;
    const PUBLIC_KEY_LEN: usize = 32;

    type Kdf = HkdfSha256;
    type SecretKey = SecretKey;
    type PublicKey = PublicKey;
    type EncodedPublicKey = [u8; 32];
    type SecretKeyBytes = Zeroizing<[u8; 32]>;
    type DhOutput = Zeroizing<[u8; 32]>;

    /// `sk = LabeledExpand(dkp_prk, "sk", "", 32)` (§7.1.3).
    fn derive_key_pair(ikm: &[u8]) -> Result<(SecretKey, PublicKey), Error> {
        let prk = dkp_prk::<Self>(ikm);
        let mut sk = Zeroizing::new([0u8; 32]);
        labeled_expand(&Self::SUITE_ID, &prk, b"sk", &[], &mut sk[..])?;
        let sk = SecretKey::from_bytes(*sk);
        let pk = sk.public_key();
        Ok((sk, pk))
    }

    fn public_key(sk: &SecretKey) -> PublicKey {
        sk.public_key()
    }

    fn serialize_public_key(pk: &PublicKey) -> [u8; 32] {
        *pk.as_bytes()
    }

    /// Any 32 bytes (RFC 7748 §5); a low-order key is caught by [`dh`](Self::dh).
    fn deserialize_public_key(bytes: &[u8]) -> Result<PublicKey, Error> {
        PublicKey::from_slice(bytes).map_err(|_| Error::InvalidPublicKey)
    }

    fn serialize_private_key(sk: &SecretKey) -> Zeroizing<[u8; 32]> {
        Zeroizing::new(sk.to_bytes())
    }

    fn deserialize_private_key(bytes: &[u8]) -> Result<SecretKey, Error> {
        let bytes: [u8; 32] = bytes.try_into().map_err(|_| Error::InvalidPrivateKey)?;
        Ok(SecretKey::from_bytes(bytes))
    }

    fn dh(sk: &SecretKey, pk: &PublicKey) -> Result<Zeroizing<[u8; 32]>, Error> {
        let shared = sk.diffie_hellman(pk).map_err(|_| Error::InvalidSharedSecret)?;
        Ok(wiped(shared.as_bytes()))
    }
}
