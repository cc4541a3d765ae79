//! DHKEM over the NIST curves (RFC 9180 §7.1): P-256, P-384 and P-521 with the HKDF of
//! their size. Public keys are uncompressed SEC1 points (validated on the curve), private
//! keys big-endian scalars, the DH result the x-coordinate. One body for the three: they
//! differ only in sizes, identifiers and `DeriveKeyPair`'s bitmask.

use zeroize::Zeroizing;

use crate::Error;
use crate::kdf::{HkdfSha256, HkdfSha384, HkdfSha512};
use crate::kem::{Kem, dkp_prk, wiped};
use crate::labeled::labeled_expand;

macro_rules! nist_dhkem {
    ($(#[$doc:meta])* $name:ident, $curve:ident, $id:literal, $kdf:ty, $len:literal, $bitmask:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        pub struct $name;

        impl Kem for $name {
            const ID: u16 = $id;
            const SECRET_KEY_LEN: usize = $len;
            const PUBLIC_KEY_LEN: usize = 1 + 2 * $len;

            type Kdf = $kdf;
            type SecretKey = core_ec::$curve::SecretKey;
            type PublicKey = core_ec::$curve::PublicKey;
            type EncodedPublicKey = [u8; 1 + 2 * $len];
            type SecretKeyBytes = Zeroizing<[u8; $len]>;
            type DhOutput = Zeroizing<[u8; $len]>;

            /// Rejection sampling (§7.1.3): candidate `counter` is
            /// `LabeledExpand(dkp_prk, "candidate", I2OSP(counter, 1), Nsk)` with its first
            /// byte masked by the curve's bitmask, taken if it is in `1..n`. Whether a
            /// candidate was rejected is declared public by core-ec's range check: it says
            /// nothing of the key taken.
            fn derive_key_pair(
                ikm: &[u8],
            ) -> Result<(Self::SecretKey, Self::PublicKey), Error> {
                let prk = dkp_prk::<Self>(ikm);
                let mut candidate = Zeroizing::new([0u8; $len]);
                for counter in 0..=255u8 {
                    labeled_expand(
                        &Self::SUITE_ID,
                        &prk,
                        b"candidate",
                        &[&[counter]],
                        &mut candidate[..],
                    )?;
                    candidate[0] &= $bitmask;
                    if let Ok(sk) = Self::SecretKey::from_bytes(&candidate[..]) {
                        let pk = sk.public_key();
                        return Ok((sk, pk));
                    }
                }
                Err(Error::DeriveKeyPairFailed)
            }

            fn public_key(sk: &Self::SecretKey) -> Self::PublicKey {
                sk.public_key()
            }

            fn serialize_public_key(pk: &Self::PublicKey) -> Self::EncodedPublicKey {
                pk.to_sec1_bytes()
            }

            /// Only the uncompressed form `04 ‖ x ‖ y`, on the curve and not the identity.
            fn deserialize_public_key(bytes: &[u8]) -> Result<Self::PublicKey, Error> {
                if bytes.len() != Self::PUBLIC_KEY_LEN {
                    return Err(Error::InvalidPublicKey);
                }
                Self::PublicKey::from_sec1_bytes(bytes).map_err(|_| Error::InvalidPublicKey)
            }

            fn serialize_private_key(sk: &Self::SecretKey) -> Self::SecretKeyBytes {
                Zeroizing::new(sk.to_bytes())
            }

            /// A big-endian scalar in `1..n`, `Nsk` bytes.
            fn deserialize_private_key(bytes: &[u8]) -> Result<Self::SecretKey, Error> {
                Self::SecretKey::from_bytes(bytes).map_err(|_| Error::InvalidPrivateKey)
            }

            fn dh(sk: &Self::SecretKey, pk: &Self::PublicKey) -> Result<Self::DhOutput, Error> {
                let shared = sk.diffie_hellman(pk).map_err(|_| Error::InvalidSharedSecret)?;
                Ok(wiped(shared.as_bytes()))
            }
        }
    };
}

nist_dhkem!(
    /// DHKEM(P-256, HKDF-SHA256), `kem_id` 0x0010: `Nsecret` 32, `Nenc` = `Npk` = 65,
    /// `Nsk` 32, bitmask 0xff.
    DhKemP256HkdfSha256, p256, 0x0010, HkdfSha256, 32, 0xff
);
nist_dhkem!(
    /// DHKEM(P-384, HKDF-SHA384), `kem_id` 0x0011: `Nsecret` 48, `Nenc` = `Npk` = 97,
    /// `Nsk` 48, bitmask 0xff.
    DhKemP384HkdfSha384, p384, 0x0011, HkdfSha384, 48, 0xff
);
nist_dhkem!(
    /// DHKEM(P-521, HKDF-SHA512), `kem_id` 0x0012: `Nsecret` 64, `Nenc` = `Npk` = 133,
    /// `Nsk` 66, bitmask 0x01.
    DhKemP521HkdfSha512, p521, 0x0012, HkdfSha512, 66, 0x01
);
