//! Byte-for-byte agreement of ML-DSA key generation and signing with RustCrypto's `ml-dsa`
//! and with `libcrux-ml-dsa`, and each side verifying the other's signatures, on random
//! seeds, messages, contexts and signing randomness, for every implementation this CPU runs;
//! HashML-DSA with SHAKE128 against libcrux's; the expanded signing key against the key.

use core_lattice::{Implementation, MlDsaImpl, PreHash, mldsa44, mldsa65, mldsa87};
use ml_dsa::{B32, Keypair, MlDsa44, MlDsa65, MlDsa87};
use proptest::prelude::*;

macro_rules! agree {
    ($name:ident, $module:ident, $rc:ty, $libcrux:ident) => {
        fn $name(seed: [u8; 32], msg: &[u8], ctx: &[u8], rnd: [u8; 32]) {
            let rc = ml_dsa::SigningKey::<$rc>::from_seed(&B32::from(seed));
            let rc_vk = rc.verifying_key();
            let lc = libcrux_ml_dsa::$libcrux::generate_key_pair(seed);
            let rc_sig = rc.expanded_key().sign_deterministic(msg, ctx).unwrap().encode();
            let lc_sig = libcrux_ml_dsa::$libcrux::sign(&lc.signing_key, msg, ctx, rnd).unwrap();
            let lc_pre =
                libcrux_ml_dsa::$libcrux::sign_pre_hashed_shake128(&lc.signing_key, msg, ctx, rnd)
                    .unwrap();
            for imp in MlDsaImpl::available() {
                let name = imp.name();
                let sk = $module::SigningKey::from_seed_with_impl(&seed, imp);
                let vk = sk.verifying_key();
                assert_eq!(&vk.as_bytes()[..], &rc_vk.encode()[..], "pk vs ml-dsa on {name}");
                assert_eq!(&vk.as_bytes()[..], lc.verification_key.as_slice(), "pk on {name}");
                assert_eq!(&sk.as_bytes()[..], lc.signing_key.as_slice(), "sk on {name}");

                let sig = sk.sign_deterministic(msg, ctx).unwrap();
                assert_eq!(&sig.as_bytes()[..], &rc_sig[..], "deterministic vs ml-dsa on {name}");
                let mu = vk.compute_mu(msg, ctx).unwrap();
                let hedged = sk.sign_mu_with_randomness(&mu, &rnd);
                assert_eq!(
                    &hedged.as_bytes()[..],
                    lc_sig.as_slice(),
                    "hedged vs libcrux on {name}"
                );

                // The expanded key signs as the key does.
                let expanded = $module::ExpandedSigningKey::new(
                    $module::SigningKey::from_seed_with_impl(&seed, imp),
                );
                let det = expanded.sign_deterministic(msg, ctx).unwrap();
                assert_eq!(det, sig, "expanded, deterministic on {name}");
                let expanded_hedged = expanded.sign_mu_with_randomness(&mu, &rnd);
                assert_eq!(expanded_hedged, hedged, "expanded, hedged on {name}");

                // Each verifies the others' signatures.
                let theirs = $module::Signature::from_bytes(&rc_sig).unwrap();
                assert_eq!(vk.verify(msg, ctx, &theirs), Ok(()), "{name}");
                assert_eq!(vk.verify_mu(&mu, &hedged), Ok(()), "{name}");
                let ours = ml_dsa::Signature::<$rc>::try_from(&hedged.as_bytes()[..]).unwrap();
                assert!(rc_vk.verify_with_context(msg, ctx, &ours), "{name}");
                let ours = libcrux_ml_dsa::MLDSASignature::new(*sig.as_bytes());
                assert!(
                    libcrux_ml_dsa::$libcrux::verify(&lc.verification_key, msg, ctx, &ours).is_ok()
                );

                // HashML-DSA with SHAKE128, the pre-hash libcrux offers.
                let mu = vk.compute_mu_prehashed(PreHash::Shake128, msg, ctx).unwrap();
                let ours = sk.sign_mu_with_randomness(&mu, &rnd);
                assert_eq!(&ours.as_bytes()[..], lc_pre.as_slice(), "HashML-DSA on {name}");
                let theirs = $module::Signature::from_bytes(lc_pre.as_slice()).unwrap();
                assert_eq!(vk.verify_prehashed(PreHash::Shake128, msg, ctx, &theirs), Ok(()));
            }
        }
    };
}

agree!(agree44, mldsa44, MlDsa44, ml_dsa_44);
agree!(agree65, mldsa65, MlDsa65, ml_dsa_65);
agree!(agree87, mldsa87, MlDsa87, ml_dsa_87);

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn mldsa44_agrees(seed: [u8; 32], msg in prop::collection::vec(any::<u8>(), 0..300),
                      ctx in prop::collection::vec(any::<u8>(), 0..256), rnd: [u8; 32]) {
        agree44(seed, &msg, &ctx, rnd);
    }

    #[test]
    fn mldsa65_agrees(seed: [u8; 32], msg in prop::collection::vec(any::<u8>(), 0..300),
                      ctx in prop::collection::vec(any::<u8>(), 0..256), rnd: [u8; 32]) {
        agree65(seed, &msg, &ctx, rnd);
    }

    #[test]
    fn mldsa87_agrees(seed: [u8; 32], msg in prop::collection::vec(any::<u8>(), 0..300),
                      ctx in prop::collection::vec(any::<u8>(), 0..256), rnd: [u8; 32]) {
        agree87(seed, &msg, &ctx, rnd);
    }
}
