//! Differential checks against ring and RustCrypto `rsa` on the 2048-bit fixture key, every
//! implementation, random messages: PKCS#1 v1.5 signatures byte-equal to ring's and verified
//! by both; our PSS signatures verified by both and theirs by us; OAEP both ways with
//! RustCrypto.

use core_rsa::{HashAlg, Implementation, MontImpl, Oaep, OsRandom, PrivateKey, Pss, PublicKey};
use proptest::prelude::*;
use rsa::pkcs8::DecodePrivateKey;
use rsa::signature::{RandomizedSigner, SignatureEncoding, Verifier};

const PKCS8: &[u8] = include_bytes!("data/rsa2048_e65537.pkcs8.der");
const SPKI: &[u8] = include_bytes!("data/rsa2048_e65537.spki.der");

fn impls() -> Vec<MontImpl> {
    MontImpl::ALL.iter().filter_map(|n| MontImpl::by_name(n)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn pkcs1v15_matches_ring_and_rustcrypto(msg in proptest::collection::vec(any::<u8>(), 0..300)) {
        let ring_key = ring::rsa::KeyPair::from_pkcs8(PKCS8).unwrap();
        let mut ring_sig = vec![0u8; 256];
        ring_key
            .sign(&ring::signature::RSA_PKCS1_SHA256, &ring::rand::SystemRandom::new(), &msg, &mut ring_sig)
            .unwrap();
        let rc_pub = rsa::RsaPrivateKey::from_pkcs8_der(PKCS8).unwrap().to_public_key();
        let rc_verifier = rsa::pkcs1v15::VerifyingKey::<sha2::Sha256>::new(rc_pub);
        for imp in impls() {
            let key = PrivateKey::from_pkcs8_der_with_impl(PKCS8, imp).unwrap();
            let mut sig = vec![0u8; 256];
            key.sign_pkcs1v15(HashAlg::Sha256, &msg, &mut OsRandom, &mut sig).unwrap();
            prop_assert_eq!(&sig, &ring_sig, "{} vs ring", imp.name());
            let parsed = rsa::pkcs1v15::Signature::try_from(&sig[..]).unwrap();
            prop_assert!(rc_verifier.verify(&msg, &parsed).is_ok());
        }
    }

    #[test]
    fn pss_both_ways(msg in proptest::collection::vec(any::<u8>(), 0..300)) {
        let ring_pub = ring::rsa::KeyPair::from_pkcs8(PKCS8).unwrap().public().as_ref().to_vec();
        let ring_verify = ring::signature::UnparsedPublicKey::new(
            &ring::signature::RSA_PSS_2048_8192_SHA256, &ring_pub);
        let rc_key = rsa::RsaPrivateKey::from_pkcs8_der(PKCS8).unwrap();
        let rc_signer = rsa::pss::SigningKey::<sha2::Sha256>::new(rc_key.clone());
        let rc_verifier = rsa::pss::VerifyingKey::<sha2::Sha256>::new(rc_key.to_public_key());
        let theirs = rc_signer.sign_with_rng(&mut rand_core::OsRng, &msg).to_vec();
        for imp in impls() {
            let key = PrivateKey::from_pkcs8_der_with_impl(PKCS8, imp).unwrap();
            let mut sig = vec![0u8; 256];
            key.sign_pss(Pss::new(HashAlg::Sha256), &msg, &mut OsRandom, &mut sig).unwrap();
            prop_assert!(ring_verify.verify(&msg, &sig).is_ok(), "{} PSS to ring", imp.name());
            let parsed = rsa::pss::Signature::try_from(&sig[..]).unwrap();
            prop_assert!(rc_verifier.verify(&msg, &parsed).is_ok());
            let public = PublicKey::from_spki_der(SPKI).unwrap().with_impl(imp).unwrap();
            prop_assert!(public.verify_pss(Pss::new(HashAlg::Sha256), &msg, &theirs).is_ok());
        }
    }

    #[test]
    fn oaep_both_ways(msg in proptest::collection::vec(any::<u8>(), 0..=190)) {
        let rc_key = rsa::RsaPrivateKey::from_pkcs8_der(PKCS8).unwrap();
        let theirs = rc_key
            .to_public_key()
            .encrypt(&mut rand_core::OsRng, rsa::Oaep::new::<sha2::Sha256>(), &msg)
            .unwrap();
        for imp in impls() {
            let key = PrivateKey::from_pkcs8_der_with_impl(PKCS8, imp).unwrap();
            let oaep = Oaep::new(HashAlg::Sha256);
            let mut out = vec![0u8; 256];
            let len = key.decrypt_oaep(oaep, b"", &theirs, &mut OsRandom, &mut out).unwrap();
            prop_assert_eq!(&out[..len], &msg[..]);
            let mut ct = vec![0u8; 256];
            key.public_key().encrypt_oaep(oaep, b"", &msg, &mut OsRandom, &mut ct).unwrap();
            let back = rc_key.decrypt(rsa::Oaep::new::<sha2::Sha256>(), &ct).unwrap();
            prop_assert_eq!(back, msg.clone());
        }
    }
}
