//! The KEM interface and DHKEM (RFC 9180 §4.1): encapsulation as a Diffie–Hellman with an
//! ephemeral key (and, in the auth modes, a second with the sender's static key), the results
//! hashed with both public keys into the shared secret. The curves supply `DeriveKeyPair`,
//! the encodings and `DH` (`x25519.rs`, `nist.rs`); everything else is here, once.

use core::fmt;

use core_hash::RandomSource;
use zeroize::Zeroizing;

use crate::kdf::Kdf;
use crate::labeled::{hash_len_buffer, labeled_expand, labeled_extract};
use crate::{Error, Secret, be16};

/// The shared secret a KEM's encapsulation gives: `Nsecret` bytes, wiped on drop.
pub type SharedSecret<K> = Secret<<<K as Kem>::Kdf as Kdf>::Hash>;

/// A Diffie–Hellman based KEM, DHKEM(Group, KDF) of RFC 9180 §4.1. The group supplies the
/// required items; encapsulation and decapsulation, with and without sender authentication,
/// are provided.
pub trait Kem {
    /// `kem_id` (RFC 9180 §7.1).
    const ID: u16;
    /// `Nsk`: bytes in a serialized private key, and in the seed encapsulation draws.
    const SECRET_KEY_LEN: usize;
    /// `Npk` = `Nenc`: bytes in a serialized public key and in an encapsulated key.
    const PUBLIC_KEY_LEN: usize;
    /// `suite_id` for the KEM's own derivations: `"KEM" ‖ I2OSP(kem_id, 2)` (§4.1).
    const SUITE_ID: [u8; 5] = {
        let id = be16(Self::ID);
        [b'K', b'E', b'M', id[0], id[1]]
    };

    /// The KDF of `ExtractAndExpand` and `DeriveKeyPair`; `Nsecret` is its hash length.
    type Kdf: Kdf;
    /// A private key (core-ec's type, wiped on drop).
    type SecretKey;
    /// A public key, valid once built.
    type PublicKey: Clone + fmt::Debug;
    /// `SerializePublicKey`'s output, `PUBLIC_KEY_LEN` bytes: also the encapsulated key `enc`.
    type EncodedPublicKey: Copy + AsRef<[u8]> + fmt::Debug;
    /// `SerializePrivateKey`'s output, `SECRET_KEY_LEN` bytes, wiped on drop.
    type SecretKeyBytes: AsRef<[u8]>;
    /// A Diffie–Hellman result, wiped on drop.
    type DhOutput: AsRef<[u8]>;

    /// `DeriveKeyPair(ikm)` (§7.1.3): the key pair a seed of at least `SECRET_KEY_LEN` bytes
    /// of entropy determines.
    fn derive_key_pair(ikm: &[u8]) -> Result<(Self::SecretKey, Self::PublicKey), Error>;
    /// The public key of `sk`.
    fn public_key(sk: &Self::SecretKey) -> Self::PublicKey;
    /// `SerializePublicKey` (§7.1.1).
    fn serialize_public_key(pk: &Self::PublicKey) -> Self::EncodedPublicKey;
    /// `DeserializePublicKey`, validating the key (§7.1.1, §7.1.4).
    fn deserialize_public_key(bytes: &[u8]) -> Result<Self::PublicKey, Error>;
    /// `SerializePrivateKey` (§7.1.2).
    fn serialize_private_key(sk: &Self::SecretKey) -> Self::SecretKeyBytes;
    /// `DeserializePrivateKey` (§7.1.2).
    fn deserialize_private_key(bytes: &[u8]) -> Result<Self::SecretKey, Error>;
    /// `DH(sk, pk)`, refusing an all-zero result ([`Error::InvalidSharedSecret`]).
    fn dh(sk: &Self::SecretKey, pk: &Self::PublicKey) -> Result<Self::DhOutput, Error>;

    /// `GenerateKeyPair()`: `DeriveKeyPair` on a fresh seed from `rng`.
    fn generate_key_pair<R: RandomSource + ?Sized>(
        rng: &mut R,
    ) -> Result<(Self::SecretKey, Self::PublicKey), Error> {
        // Room for the largest `Nsk`, P-521's.
        let mut seed = Zeroizing::new([0u8; 66]);
        let seed = &mut seed[..Self::SECRET_KEY_LEN.min(66)];
        rng.fill(seed).map_err(|_| Error::RandomSource)?;
        Self::derive_key_pair(seed)
    }

    /// `Encap(pkR)`, or `AuthEncap(pkR, skS)` with a `sender` key: the encapsulated key and
    /// the shared secret, with an ephemeral key pair from `rng`.
    fn encap<R: RandomSource + ?Sized>(
        pk_r: &Self::PublicKey,
        sender: Option<&Self::SecretKey>,
        rng: &mut R,
    ) -> Result<(Self::EncodedPublicKey, SharedSecret<Self>), Error> {
        let (sk_e, pk_e) = Self::generate_key_pair(rng)?;
        encap_with::<Self>(pk_r, sender, &sk_e, &pk_e)
    }

    /// [`encap`](Self::encap) with the ephemeral key pair derived from `ikm_e`, for known-answer
    /// tests only: a repeated `ikm_e` repeats the shared secret.
    #[doc(hidden)]
    fn encap_derand(
        pk_r: &Self::PublicKey,
        sender: Option<&Self::SecretKey>,
        ikm_e: &[u8],
    ) -> Result<(Self::EncodedPublicKey, SharedSecret<Self>), Error> {
        let (sk_e, pk_e) = Self::derive_key_pair(ikm_e)?;
        encap_with::<Self>(pk_r, sender, &sk_e, &pk_e)
    }

    /// `Decap(enc, skR)`, or `AuthDecap(enc, skR, pkS)` with a `sender` key: the shared
    /// secret the encapsulated key `enc` carries.
    fn decap(
        enc: &[u8],
        sk_r: &Self::SecretKey,
        sender: Option<&Self::PublicKey>,
    ) -> Result<SharedSecret<Self>, Error> {
        let pk_e = Self::deserialize_public_key(enc)?;
        let dh_e = Self::dh(sk_r, &pk_e)?;
        let pk_rm = Self::serialize_public_key(&Self::public_key(sk_r));
        let auth = sender.map(|pk_s| Ok((Self::dh(sk_r, pk_s)?, Self::serialize_public_key(pk_s))));
        kem_shared_secret::<Self>(&dh_e, enc, pk_rm.as_ref(), auth.transpose()?.as_ref())
    }
}

/// The sender's half of `Encap`/`AuthEncap` with the ephemeral key pair chosen.
fn encap_with<K: Kem + ?Sized>(
    pk_r: &K::PublicKey,
    sender: Option<&K::SecretKey>,
    sk_e: &K::SecretKey,
    pk_e: &K::PublicKey,
) -> Result<(K::EncodedPublicKey, SharedSecret<K>), Error> {
    let dh_e = K::dh(sk_e, pk_r)?;
    let enc = K::serialize_public_key(pk_e);
    let pk_rm = K::serialize_public_key(pk_r);
    let auth =
        sender.map(|sk_s| Ok((K::dh(sk_s, pk_r)?, K::serialize_public_key(&K::public_key(sk_s)))));
    let shared =
        kem_shared_secret::<K>(&dh_e, enc.as_ref(), pk_rm.as_ref(), auth.transpose()?.as_ref())?;
    Ok((enc, shared))
}

/// The end of `Encap`/`Decap` and their auth forms, the same on both sides:
/// `ExtractAndExpand(dh, kem_context)` with `dh = dh_e [‖ dh_s]` and
/// `kem_context = enc ‖ pkRm [‖ pkSm]`, the bracketed parts from `auth`.
fn kem_shared_secret<K: Kem + ?Sized>(
    dh_e: &K::DhOutput,
    enc: &[u8],
    pk_rm: &[u8],
    auth: Option<&(K::DhOutput, K::EncodedPublicKey)>,
) -> Result<SharedSecret<K>, Error> {
    match auth {
        None => extract_and_expand::<K>(&[dh_e.as_ref()], &[enc, pk_rm]),
        Some((dh_s, pk_sm)) => {
            extract_and_expand::<K>(&[dh_e.as_ref(), dh_s.as_ref()], &[enc, pk_rm, pk_sm.as_ref()])
        }
    }
}

/// `ExtractAndExpand(dh, kem_context)`, both given as the concatenation of their parts.
fn extract_and_expand<K: Kem + ?Sized>(
    dh: &[&[u8]],
    kem_context: &[&[u8]],
) -> Result<SharedSecret<K>, Error> {
    let eae_prk: SharedSecret<K> = labeled_extract(&K::SUITE_ID, b"", b"eae_prk", dh);
    let mut shared = hash_len_buffer(&eae_prk);
    labeled_expand(&K::SUITE_ID, &eae_prk, b"shared_secret", kem_context, shared.0.as_mut())?;
    Ok(shared)
}

/// `DeriveKeyPair`'s first step for every curve: `dkp_prk = LabeledExtract("", "dkp_prk", ikm)`.
pub(crate) fn dkp_prk<K: Kem + ?Sized>(ikm: &[u8]) -> SharedSecret<K> {
    labeled_extract(&K::SUITE_ID, b"", b"dkp_prk", &[ikm])
}

/// A fixed-size secret the curves hand out (serialized private keys, DH results), wiped on drop.
pub(crate) fn wiped<const N: usize>(bytes: &[u8; N]) -> Zeroizing<[u8; N]> {
    Zeroizing::new(*bytes)
}
