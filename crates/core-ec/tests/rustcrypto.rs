//! The `rustcrypto` feature: signatures made through the RustCrypto `signature` 3 traits
//! verify with Halite's own API and with RustCrypto's `p256`/`p384`/`ed25519-dalek` (the
//! workspace's `signature` 2 generation), and theirs verify through Halite's `Verifier`; the
//! digest and prehash forms agree with the plain one, and a changed message is refused.

use core_hash::{Sha256, Sha384};
use proptest::prelude::*;
use signature::hazmat::{PrehashSigner, PrehashVerifier};
use signature::{DigestSigner, DigestVerifier, SignatureEncoding, Signer, Verifier};

/// Signs through `Signer` alone, as generic code would, and returns the encoding.
fn sign_generic<K: Signer<S>, S: SignatureEncoding>(key: &K, msg: &[u8]) -> Vec<u8> {
    key.try_sign(msg).unwrap().to_bytes().as_ref().to_vec()
}

/// Verifies an encoded signature through `Verifier` alone.
fn verify_generic<K: Verifier<S>, S: SignatureEncoding>(key: &K, msg: &[u8], sig: &[u8]) -> bool {
    S::try_from(sig).is_ok_and(|sig| key.verify(msg, &sig).is_ok())
}

/// One NIST curve: `$ours` is Halite's module, `$theirs` RustCrypto's crate, `$hash` the
/// curve's hash as a Halite hasher.
macro_rules! ecdsa_case {
    ($secret:expr, $msg:expr, $ours:ident, $theirs:ident, $hash:ty) => {{
        use ::$theirs::ecdsa::signature::{Signer as _, Verifier as _};
        let (secret, msg): (&[u8], &[u8]) = ($secret, $msg);
        let Ok(key) = core_ec::$ours::SigningKey::from_bytes(secret) else {
            return Ok(()); // not in 1..n: as likely as 2^-(8·len)
        };
        let public = *key.verifying_key();
        let sig = sign_generic::<_, core_ec::$ours::Signature>(&key, msg);

        // Halite's own API verifies it; RustCrypto's gives the same RFC 6979 signature and
        // verifies it too.
        let native = core_ec::$ours::Signature::from_bytes(&sig).unwrap();
        public.verify(msg, &native).unwrap();
        let their_key = ::$theirs::ecdsa::SigningKey::from_slice(secret).unwrap();
        let their_sig: ::$theirs::ecdsa::Signature = their_key.sign(msg);
        assert_eq!(their_sig.to_bytes().as_slice(), sig.as_slice());
        let their_public =
            ::$theirs::ecdsa::VerifyingKey::from_sec1_bytes(&public.to_sec1_bytes()).unwrap();
        their_public.verify(msg, &::$theirs::ecdsa::Signature::from_slice(&sig).unwrap()).unwrap();

        // Theirs, over another message, verifies through our `Verifier`; a changed message
        // does not.
        let other = [msg, b"!"].concat();
        let theirs: ::$theirs::ecdsa::Signature = their_key.sign(&other);
        assert!(verify_generic::<_, core_ec::$ours::Signature>(
            &public,
            &other,
            &theirs.to_bytes()
        ));
        assert!(!verify_generic::<_, core_ec::$ours::Signature>(&public, msg, &theirs.to_bytes()));

        // The digest form over Halite's hasher, fed in two pieces, and the prehash form are
        // the same signature.
        let (a, b) = msg.split_at(msg.len() / 2);
        let feed = |h: &mut $hash| {
            signature::digest::Update::update(h, a);
            signature::digest::Update::update(h, b);
            Ok(())
        };
        let digest_sig: core_ec::$ours::Signature = key.try_sign_digest(feed).unwrap();
        assert_eq!(digest_sig, native);
        public.verify_digest(feed, &digest_sig).unwrap();
        let prehash = <$hash as core_hash::Hash>::digest(msg);
        let prehash_sig: core_ec::$ours::Signature =
            PrehashSigner::sign_prehash(&key, prehash.as_ref()).unwrap();
        assert_eq!(prehash_sig, native);
        PrehashVerifier::verify_prehash(&public, prehash.as_ref(), &prehash_sig).unwrap();
        assert!(
            public
                .verify_digest(
                    |h: &mut $hash| {
                        signature::digest::Update::update(h, &other);
                        Ok(())
                    },
                    &native
                )
                .is_err()
        );
    }};
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn ecdsa_p256(secret in proptest::array::uniform32(any::<u8>()),
                  msg in proptest::collection::vec(any::<u8>(), 0..200)) {
        ecdsa_case!(&secret, &msg, p256, p256, Sha256);
    }

    #[test]
    fn ecdsa_p384(secret in proptest::collection::vec(any::<u8>(), 48),
                  msg in proptest::collection::vec(any::<u8>(), 0..200)) {
        ecdsa_case!(&secret, &msg, p384, p384, Sha384);
    }

    #[test]
    fn ed25519(seed in proptest::array::uniform32(any::<u8>()),
               msg in proptest::collection::vec(any::<u8>(), 0..200)) {
        use ed25519_dalek::{Signer as _, Verifier as _};
        let key = core_ec::ed25519::SigningKey::from_seed(&seed);
        let public = key.verifying_key();
        let sig = sign_generic::<_, core_ec::ed25519::Signature>(&key, &msg);

        public.verify(&msg, &core_ec::ed25519::Signature::from_slice(&sig).unwrap()).unwrap();
        let dalek = ed25519_dalek::SigningKey::from_bytes(&seed);
        assert_eq!(dalek.sign(&msg).to_bytes().as_slice(), sig.as_slice());
        let dalek_public = ed25519_dalek::VerifyingKey::from_bytes(&public.to_bytes()).unwrap();
        dalek_public.verify(&msg, &ed25519_dalek::Signature::from_slice(&sig).unwrap()).unwrap();

        let other = [&msg[..], b"!"].concat();
        let theirs = dalek.sign(&other).to_bytes();
        assert!(verify_generic::<_, core_ec::ed25519::Signature>(&public, &other, &theirs));
        assert!(verify_generic::<_, core_ec::ed25519::Signature>(&key, &other, &theirs));
        assert!(!verify_generic::<_, core_ec::ed25519::Signature>(&public, &msg, &theirs));
        assert!(!verify_generic::<_, core_ec::ed25519::Signature>(&public, &msg, &theirs[..63]));
    }
}
