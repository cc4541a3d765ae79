//! The `rustcrypto` feature: PKCS#1 v1.5 and PSS signatures made through the RustCrypto
//! `signature` 3 traits verify with Halite's own API and with RustCrypto's `rsa` (the
//! workspace's `signature` 2 generation), theirs verify through Halite's `Verifier`, and a
//! changed message or a truncated signature is refused; on the 2048-bit fixture key.

use core_rsa::rustcrypto::{
    Pkcs1v15SigningKey, Pkcs1v15VerifyingKey, PssSigningKey, PssVerifyingKey, Signature,
};
use core_rsa::{HashAlg, PrivateKey, Pss};
use proptest::prelude::*;
use rsa::pkcs8::DecodePrivateKey;
use rsa::signature::{RandomizedSigner as _, SignatureEncoding as _, Signer as _, Verifier as _};
use signature::{SignatureEncoding, Signer, Verifier};

const PKCS8: &[u8] = include_bytes!("data/rsa2048_e65537.pkcs8.der");

/// Signs through `Signer` alone, as generic code would, and returns the encoding.
fn sign_generic<K: Signer<S>, S: SignatureEncoding>(key: &K, msg: &[u8]) -> Vec<u8> {
    key.try_sign(msg).unwrap().to_bytes().as_ref().to_vec()
}

/// Verifies an encoded signature through `Verifier` alone.
fn verify_generic<K: Verifier<S>, S: SignatureEncoding>(key: &K, msg: &[u8], sig: &[u8]) -> bool {
    S::try_from(sig).is_ok_and(|sig| key.verify(msg, &sig).is_ok())
}

fn ours() -> PrivateKey {
    PrivateKey::from_pkcs8_der(PKCS8).unwrap()
}

fn theirs() -> rsa::RsaPrivateKey {
    rsa::RsaPrivateKey::from_pkcs8_der(PKCS8).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    #[test]
    fn pkcs1v15_agrees_with_native_and_rustcrypto(msg in proptest::collection::vec(any::<u8>(), 0..300)) {
        let other = [&msg[..], b"!"].concat();
        macro_rules! case {
            ($alg:expr, $digest:ty) => {{
                let signer = Pkcs1v15SigningKey::new(ours(), $alg);
                let verifier = signer.verifying_key();
                let sig = sign_generic::<_, Signature>(&signer, &msg);
                assert_eq!(sig.len(), 256);
                ours().public_key().verify_pkcs1v15($alg, &msg, &sig).unwrap();

                // Deterministic: RustCrypto's signature is the same bytes, and verifies ours.
                let their_signer = rsa::pkcs1v15::SigningKey::<$digest>::new(theirs());
                let their_sig = their_signer.sign(&other).to_vec();
                assert_eq!(their_signer.sign(&msg).to_vec(), sig);
                let their_verifier = rsa::pkcs1v15::VerifyingKey::<$digest>::new(theirs().to_public_key());
                their_verifier.verify(&msg, &rsa::pkcs1v15::Signature::try_from(&sig[..]).unwrap()).unwrap();

                assert!(verify_generic::<_, Signature>(&verifier, &other, &their_sig));
                assert!(!verify_generic::<_, Signature>(&verifier, &msg, &their_sig));
                assert!(!verify_generic::<_, Signature>(&verifier, &msg, &sig[..255]));
                let standalone = Pkcs1v15VerifyingKey::new(ours().public_key(), $alg);
                assert!(verify_generic::<_, Signature>(&standalone, &msg, &sig));
            }};
        }
        case!(HashAlg::Sha256, sha2::Sha256);
        case!(HashAlg::Sha384, sha2::Sha384);
        case!(HashAlg::Sha512, sha2::Sha512);
    }

    #[test]
    fn pss_agrees_with_native_and_rustcrypto(msg in proptest::collection::vec(any::<u8>(), 0..300)) {
        let other = [&msg[..], b"!"].concat();
        let pss = Pss::new(HashAlg::Sha256);
        let signer = PssSigningKey::new(ours(), pss);
        let verifier = signer.verifying_key();
        let sig = sign_generic::<_, Signature>(&signer, &msg);
        ours().public_key().verify_pss(pss, &msg, &sig).unwrap();
        // Salted: two signatures of one message differ, and both verify.
        let again = sign_generic::<_, Signature>(&signer, &msg);
        assert_ne!(sig, again);
        assert!(verify_generic::<_, Signature>(&verifier, &msg, &again));

        let their_verifier = rsa::pss::VerifyingKey::<sha2::Sha256>::new(theirs().to_public_key());
        their_verifier.verify(&msg, &rsa::pss::Signature::try_from(&sig[..]).unwrap()).unwrap();
        let their_signer = rsa::pss::SigningKey::<sha2::Sha256>::new(theirs());
        let their_sig = their_signer.sign_with_rng(&mut rand_core::OsRng, &other).to_vec();

        assert!(verify_generic::<_, Signature>(&verifier, &other, &their_sig));
        assert!(!verify_generic::<_, Signature>(&verifier, &msg, &their_sig));
        assert!(!verify_generic::<_, Signature>(&PssVerifyingKey::new(ours().public_key(), Pss::new(HashAlg::Sha384)), &other, &their_sig));
    }
}
