//! The RustCrypto `signature` 3 traits over Halite's signature schemes (`rustcrypto`
//! feature), so code generic over `signature` signs and verifies with them:
//!
//! - ECDSA on P-256, P-384 and P-521 with the fixed-size `r‖s` [`Signature`](crate::p256::Signature)
//!   of each curve: `Signer` and `Verifier` (RFC 6979 nonces, the curve's default hash),
//!   `DigestSigner`/`DigestVerifier` over any Halite hasher (which are `digest` hashers with
//!   this feature), `PrehashSigner`/`PrehashVerifier` from `signature::hazmat`, and
//!   `SignatureEncoding`.
//! - Ed25519: `Signer`, `Verifier` (on both key types) and `SignatureEncoding`.

use signature::hazmat::{PrehashSigner, PrehashVerifier};
use signature::{DigestSigner, DigestVerifier, SignatureEncoding, Signer, Verifier};

/// Implements the `signature` traits for one NIST curve's module.
macro_rules! ecdsa_traits {
    ($($curve:ident),*) => {$(
        impl Signer<crate::$curve::Signature> for crate::$curve::SigningKey {
            fn try_sign(&self, msg: &[u8]) -> Result<crate::$curve::Signature, signature::Error> {
                Ok(crate::$curve::SigningKey::sign(self, msg))
            }
        }

        impl Verifier<crate::$curve::Signature> for crate::$curve::VerifyingKey {
            fn verify(
                &self,
                msg: &[u8],
                signature: &crate::$curve::Signature,
            ) -> Result<(), signature::Error> {
                crate::$curve::VerifyingKey::verify(self, msg, signature)
                    .map_err(|_| signature::Error::new())
            }
        }

        /// Signs the hash `H` that `f` fed, with the RFC 6979 nonce derived over `H`.
        impl<H> DigestSigner<H, crate::$curve::Signature> for crate::$curve::SigningKey
        where
            H: core_hash::Hash + signature::digest::Update,
        {
            fn try_sign_digest<F: Fn(&mut H) -> Result<(), signature::Error>>(
                &self,
                f: F,
            ) -> Result<crate::$curve::Signature, signature::Error> {
                let mut h = <H as core_hash::Hash>::new();
                f(&mut h)?;
                Ok(self.sign_prehash_with::<H>(core_hash::Hash::finalize(h).as_ref()))
            }
        }

        impl<H> DigestVerifier<H, crate::$curve::Signature> for crate::$curve::VerifyingKey
        where
            H: core_hash::Hash + signature::digest::Update,
        {
            fn verify_digest<F: Fn(&mut H) -> Result<(), signature::Error>>(
                &self,
                f: F,
                signature: &crate::$curve::Signature,
            ) -> Result<(), signature::Error> {
                let mut h = <H as core_hash::Hash>::new();
                f(&mut h)?;
                crate::$curve::VerifyingKey::verify_prehash(
                    self,
                    core_hash::Hash::finalize(h).as_ref(),
                    signature,
                )
                .map_err(|_| signature::Error::new())
            }
        }

        impl PrehashSigner<crate::$curve::Signature> for crate::$curve::SigningKey {
            fn sign_prehash(
                &self,
                prehash: &[u8],
            ) -> Result<crate::$curve::Signature, signature::Error> {
                crate::$curve::SigningKey::sign_prehash(self, prehash)
                    .map_err(|_| signature::Error::new())
            }
        }

        impl PrehashVerifier<crate::$curve::Signature> for crate::$curve::VerifyingKey {
            fn verify_prehash(
                &self,
                prehash: &[u8],
                signature: &crate::$curve::Signature,
            ) -> Result<(), signature::Error> {
                crate::$curve::VerifyingKey::verify_prehash(self, prehash, signature)
                    .map_err(|_| signature::Error::new())
            }
        }

        impl TryFrom<&[u8]> for crate::$curve::Signature {
            type Error = crate::Error;

            fn try_from(bytes: &[u8]) -> Result<Self, crate::Error> {
                Self::from_bytes(bytes)
            }
        }

        impl From<crate::$curve::Signature> for [u8; crate::$curve::SIGNATURE_LEN] {
            fn from(signature: crate::$curve::Signature) -> Self {
                signature.to_bytes()
            }
        }

        impl SignatureEncoding for crate::$curve::Signature {
            type Repr = [u8; crate::$curve::SIGNATURE_LEN];
        }
    )*};
}

ecdsa_traits!(p256, p384, p521);

impl Signer<crate::ed25519::Signature> for crate::ed25519::SigningKey {
    fn try_sign(&self, msg: &[u8]) -> Result<crate::ed25519::Signature, signature::Error> {
        Ok(crate::ed25519::SigningKey::sign(self, msg))
    }
}

impl Verifier<crate::ed25519::Signature> for crate::ed25519::VerifyingKey {
    fn verify(
        &self,
        msg: &[u8],
        signature: &crate::ed25519::Signature,
    ) -> Result<(), signature::Error> {
        crate::ed25519::VerifyingKey::verify(self, msg, signature)
            .map_err(|_| signature::Error::new())
    }
}

/// As `ed25519-dalek`'s: a signing key checks its own signatures.
impl Verifier<crate::ed25519::Signature> for crate::ed25519::SigningKey {
    fn verify(
        &self,
        msg: &[u8],
        signature: &crate::ed25519::Signature,
    ) -> Result<(), signature::Error> {
        Verifier::verify(&self.verifying_key(), msg, signature)
    }
}

impl TryFrom<&[u8]> for crate::ed25519::Signature {
    type Error = crate::Error;

    fn try_from(bytes: &[u8]) -> Result<Self, crate::Error> {
        Self::from_slice(bytes)
    }
}

impl From<crate::ed25519::Signature> for [u8; crate::ed25519::SIGNATURE_LEN] {
    fn from(signature: crate::ed25519::Signature) -> Self {
        signature.to_bytes()
    }
}

impl SignatureEncoding for crate::ed25519::Signature {
    type Repr = [u8; crate::ed25519::SIGNATURE_LEN];
}
