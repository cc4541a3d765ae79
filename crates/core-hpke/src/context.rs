//! The HPKE key schedule and encryption contexts (RFC 9180 §5): the four modes' setup, then
//! `Seal`/`Open` under a nonce per sequence number and `Export`. Everything is in fixed-size
//! fields of the context; nothing is allocated.

use core::fmt;
use core::marker::PhantomData;

use core_aead::Nonce;
use core_hash::RandomSource;
use zeroize::{Zeroize, Zeroizing};

use crate::aead::Aead;
use crate::kdf::Kdf;
use crate::kem::Kem;
use crate::labeled::{hash_len_buffer, labeled_expand, labeled_extract};
use crate::{Error, Secret, be16};

/// A pre-shared key and its identity, for the PSK modes. Both must be non-empty; the key
/// must have at least 32 bytes of entropy (§5.1.2).
#[derive(Clone, Copy)]
pub struct Psk<'a> {
    /// The key.
    pub key: &'a [u8],
    /// Its identity, which the recipient uses to choose it.
    pub id: &'a [u8],
}

impl fmt::Debug for Psk<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Psk").field("id", &self.id).finish_non_exhaustive()
    }
}

/// The mode of a setup (§5.1): what authenticates the sender besides knowing the recipient's
/// public key. `T` is the sender's static key as each side has it: the private key when
/// sending, the public key when receiving.
#[derive(Debug)]
pub enum Mode<'a, T> {
    /// `mode_base`: no sender authentication.
    Base,
    /// `mode_psk`: the sender holds the pre-shared key.
    Psk(Psk<'a>),
    /// `mode_auth`: the sender holds this static key.
    Auth(&'a T),
    /// `mode_auth_psk`: both.
    AuthPsk(&'a T, Psk<'a>),
}

// By hand: derived, they would ask `T: Copy`, and a mode holds only references.
impl<T> Clone for Mode<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Mode<'_, T> {}

impl<T> Mode<'_, T> {
    /// The mode's identifier in the key schedule context.
    fn id(&self) -> u8 {
        match self {
            Self::Base => 0x00,
            Self::Psk(_) => 0x01,
            Self::Auth(_) => 0x02,
            Self::AuthPsk(..) => 0x03,
        }
    }

    /// The PSK and identity (empty in modes without one), checked as `VerifyPSKInputs` does.
    fn psk(&self) -> Result<(&[u8], &[u8]), Error> {
        match self {
            Self::Base | Self::Auth(_) => Ok((&[], &[])),
            Self::Psk(psk) | Self::AuthPsk(_, psk) if !psk.key.is_empty() && !psk.id.is_empty() => {
                Ok((psk.key, psk.id))
            }
            Self::Psk(_) | Self::AuthPsk(..) => Err(Error::InvalidPsk),
        }
    }

    /// The sender's static key, in the auth modes.
    fn sender(&self) -> Option<&T> {
        match self {
            Self::Base | Self::Psk(_) => None,
            Self::Auth(key) | Self::AuthPsk(key, _) => Some(key),
        }
    }
}

/// One HPKE ciphersuite: KEM `K`, KDF `F` and AEAD `A`, e.g.
/// `Hpke<DhKemX25519HkdfSha256, HkdfSha256, ChaCha20Poly1305>`. Its functions set up the
/// sender's and the recipient's contexts.
pub struct Hpke<K, F, A>(PhantomData<(K, F, A)>);

impl<K: Kem, F: Kdf, A: Aead> Hpke<K, F, A> {
    /// `suite_id = "HPKE" ‖ I2OSP(kem_id, 2) ‖ I2OSP(kdf_id, 2) ‖ I2OSP(aead_id, 2)` (§5.1).
    pub const SUITE_ID: [u8; 10] = {
        let (k, f, a) = (be16(K::ID), be16(F::ID), be16(A::ID));
        [b'H', b'P', b'K', b'E', k[0], k[1], f[0], f[1], a[0], a[1]]
    };

    /// `SetupBaseS`, `SetupPSKS`, `SetupAuthS` or `SetupAuthPSKS` as `mode` says: the
    /// encapsulated key to send and the sender's context, with an ephemeral key from `rng`.
    pub fn setup_sender<R: RandomSource + ?Sized>(
        pk_r: &K::PublicKey,
        info: &[u8],
        mode: Mode<'_, K::SecretKey>,
        rng: &mut R,
    ) -> Result<(K::EncodedPublicKey, SenderContext<F, A>), Error> {
        let (enc, shared) = K::encap(pk_r, mode.sender(), rng)?;
        let context = key_schedule(&Self::SUITE_ID, &mode, shared.as_bytes(), info)?;
        Ok((enc, SenderContext(context)))
    }

    /// [`setup_sender`](Self::setup_sender) with the ephemeral key pair derived from `ikm_e`,
    /// for known-answer tests only: a repeated `ikm_e` repeats every nonce and key.
    #[doc(hidden)]
    pub fn setup_sender_derand(
        pk_r: &K::PublicKey,
        info: &[u8],
        mode: Mode<'_, K::SecretKey>,
        ikm_e: &[u8],
    ) -> Result<(K::EncodedPublicKey, SenderContext<F, A>), Error> {
        let (enc, shared) = K::encap_derand(pk_r, mode.sender(), ikm_e)?;
        let context = key_schedule(&Self::SUITE_ID, &mode, shared.as_bytes(), info)?;
        Ok((enc, SenderContext(context)))
    }

    /// `SetupBaseR`, `SetupPSKR`, `SetupAuthR` or `SetupAuthPSKR` as `mode` says: the
    /// recipient's context for the encapsulated key `enc`.
    pub fn setup_recipient(
        enc: &[u8],
        sk_r: &K::SecretKey,
        info: &[u8],
        mode: Mode<'_, K::PublicKey>,
    ) -> Result<RecipientContext<F, A>, Error> {
        let shared = K::decap(enc, sk_r, mode.sender())?;
        key_schedule(&Self::SUITE_ID, &mode, shared.as_bytes(), info).map(RecipientContext)
    }
}

impl<K, F, A> fmt::Debug for Hpke<K, F, A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Hpke")
    }
}

/// `KeySchedule<ROLE>(mode, shared_secret, info, psk, psk_id)` (§5.1).
fn key_schedule<F: Kdf, A: Aead, T>(
    suite_id: &[u8; 10],
    mode: &Mode<'_, T>,
    shared_secret: &[u8],
    info: &[u8],
) -> Result<Context<F, A>, Error> {
    const { assert!(A::NONCE_LEN == Nonce::LEN && A::KEY_LEN <= 32) };
    let (psk, psk_id) = mode.psk()?;
    let psk_id_hash = labeled_extract::<F::Hash>(suite_id, b"", b"psk_id_hash", &[psk_id]);
    let info_hash = labeled_extract::<F::Hash>(suite_id, b"", b"info_hash", &[info]);
    let context = [&[mode.id()][..], psk_id_hash.as_bytes(), info_hash.as_bytes()];
    let secret = labeled_extract::<F::Hash>(suite_id, shared_secret, b"secret", &[psk]);

    let mut key = Zeroizing::new([0u8; 32]);
    let key = &mut key[..A::KEY_LEN];
    labeled_expand(suite_id, &secret, b"key", &context, key)?;
    let mut base_nonce = [0u8; Nonce::LEN];
    labeled_expand(suite_id, &secret, b"base_nonce", &context, &mut base_nonce)?;
    let mut exporter_secret = hash_len_buffer(&secret);
    labeled_expand(suite_id, &secret, b"exp", &context, exporter_secret.0.as_mut())?;
    let aead = A::new(key).map_err(Error::Aead)?;
    Ok(Context { aead, base_nonce, seq: 0, exporter_secret, suite_id: *suite_id })
}

/// What both roles' contexts hold: the AEAD key, the base nonce, the sequence number and the
/// exporter secret, all but the sequence number wiped on drop.
struct Context<F: Kdf, A: Aead> {
    aead: A,
    base_nonce: [u8; Nonce::LEN],
    /// The sequence number of the next message; `u64::MAX` is never used, so reaching it
    /// means the context is spent.
    seq: u64,
    exporter_secret: Secret<F::Hash>,
    /// The suite's `suite_id`, which `Export` is bound to.
    suite_id: [u8; 10],
}

impl<F: Kdf, A: Aead> Context<F, A> {
    /// `ComputeNonce(seq)` (§5.2), or [`Error::MessageLimitReached`].
    fn nonce(&self) -> Result<Nonce, Error> {
        if self.seq == u64::MAX {
            return Err(Error::MessageLimitReached);
        }
        Ok(Nonce::xor_sequence(&self.base_nonce, self.seq))
    }

    /// One `Seal` or `Open` (§5.2): `f` with the AEAD and the nonce of the current sequence
    /// number, which moves on only if `f` succeeds.
    fn step<T>(
        &mut self,
        f: impl FnOnce(&A, &[u8]) -> Result<T, core_aead::Error>,
        error: fn(core_aead::Error) -> Error,
    ) -> Result<T, Error> {
        let nonce = self.nonce()?;
        let out = f(&self.aead, nonce.as_bytes()).map_err(error)?;
        self.seq += 1;
        Ok(out)
    }

    /// `Export(exporter_context, L)` (§5.3) into `out`.
    fn export(&self, exporter_context: &[u8], out: &mut [u8]) -> Result<(), Error> {
        let exp = &self.exporter_secret;
        labeled_expand(&self.suite_id, exp, b"sec", &[exporter_context], out)
    }
}

impl<F: Kdf, A: Aead> Drop for Context<F, A> {
    fn drop(&mut self) {
        self.base_nonce.zeroize();
    }
}

/// The sender's encryption context (§5.2): seals messages in order, each under the next
/// sequence number, and exports secrets.
pub struct SenderContext<F: Kdf, A: Aead>(Context<F, A>);

impl<F: Kdf, A: Aead> SenderContext<F, A> {
    /// `Seal(aad, pt)`: encrypts the first `plaintext_len` bytes of `buf` in place and appends
    /// the tag, so `buf` needs `A::TAG_LEN` bytes of room past them; returns the sealed
    /// length. On error nothing is sealed and the sequence number does not move.
    pub fn seal_in_place_append_tag(
        &mut self,
        aad: &[u8],
        buf: &mut [u8],
        plaintext_len: usize,
    ) -> Result<usize, Error> {
        self.0.step(
            |aead, nonce| aead.seal_in_place_append_tag(nonce, aad, buf, plaintext_len),
            Error::Aead,
        )
    }

    /// `Seal(aad, pt)` from `plaintext` into `out` (ciphertext then tag); returns the length
    /// written, `plaintext.len() + A::TAG_LEN`.
    pub fn seal(&mut self, aad: &[u8], plaintext: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        self.0.step(|aead, nonce| aead.seal(nonce, aad, plaintext, out), Error::Aead)
    }
}

/// The recipient's encryption context (§5.2): opens messages in the order they were sealed,
/// and exports the same secrets as the sender's.
pub struct RecipientContext<F: Kdf, A: Aead>(Context<F, A>);

impl<F: Kdf, A: Aead> RecipientContext<F, A> {
    /// `Open(aad, ct)` in place: verifies the tag that ends `buf` and decrypts the rest,
    /// returning the plaintext, the front of `buf`. A failure ([`Error::OpenFailed`]) zeroes
    /// `buf` and leaves the sequence number where it was.
    pub fn open_in_place<'b>(
        &mut self,
        aad: &[u8],
        buf: &'b mut [u8],
    ) -> Result<&'b mut [u8], Error> {
        self.0.step(|aead, nonce| aead.open_in_place(nonce, aad, buf), open_error)
    }

    /// `Open(aad, ct)` from `ciphertext` (ciphertext then tag) into `out`; returns the
    /// plaintext length. On failure `out` holds no plaintext.
    pub fn open(&mut self, aad: &[u8], ciphertext: &[u8], out: &mut [u8]) -> Result<usize, Error> {
        self.0.step(|aead, nonce| aead.open(nonce, aad, ciphertext, out), open_error)
    }
}

/// A forged or truncated ciphertext is `OpenError`; other AEAD refusals keep their reason.
fn open_error(e: core_aead::Error) -> Error {
    match e {
        core_aead::Error::AuthenticationFailed | core_aead::Error::InvalidTagLength => {
            Error::OpenFailed
        }
        e => Error::Aead(e),
    }
}

/// What the two roles' contexts share: `Export`, the sequence number, and a `Debug` that
/// shows only that.
macro_rules! context_common {
    ($($name:ident: $done:literal),*) => {$(
        impl<F: Kdf, A: Aead> $name<F, A> {
            /// `Export(exporter_context, L)`: fills `out` (L is its length) with a secret
            /// bound to this context and `exporter_context`, the same on both sides.
            pub fn export(&self, exporter_context: &[u8], out: &mut [u8]) -> Result<(), Error> {
                self.0.export(exporter_context, out)
            }

            #[doc = concat!("The sequence number the next message will be ", $done, " under.")]
            pub fn sequence_number(&self) -> u64 {
                self.0.seq
            }
        }

        impl<F: Kdf, A: Aead> fmt::Debug for $name<F, A> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($name)).field("seq", &self.0.seq).finish_non_exhaustive()
            }
        }
    )*};
}
context_common!(SenderContext: "sealed", RecipientContext: "opened");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ChaCha20Poly1305, DhKemX25519HkdfSha256, HkdfSha256};

    type Suite = Hpke<DhKemX25519HkdfSha256, HkdfSha256, ChaCha20Poly1305>;

    /// The last sequence number seals and opens; the next is refused on both sides, without
    /// wrapping to a nonce already used.
    #[test]
    fn sequence_numbers_run_out_rather_than_wrap() {
        let (sk_r, pk_r) = DhKemX25519HkdfSha256::derive_key_pair(&[1; 32]).unwrap();
        let (enc, mut s) = Suite::setup_sender_derand(&pk_r, b"", Mode::Base, &[2; 32]).unwrap();
        let mut r = Suite::setup_recipient(&enc, &sk_r, b"", Mode::Base).unwrap();
        s.0.seq = u64::MAX - 1;
        r.0.seq = u64::MAX - 1;
        let mut buf = [7u8; 20];
        let n = s.seal_in_place_append_tag(b"", &mut buf, 4).unwrap();
        assert_eq!(r.open_in_place(b"", &mut buf[..n]).unwrap(), [7; 4]);
        assert_eq!(s.seal_in_place_append_tag(b"", &mut buf, 4), Err(Error::MessageLimitReached));
        assert_eq!(s.seal(b"", b"x", &mut buf), Err(Error::MessageLimitReached));
        assert_eq!(r.open(b"", &buf[..17], &mut [0; 1]), Err(Error::MessageLimitReached));
        assert_eq!(s.sequence_number(), u64::MAX);
    }
}
