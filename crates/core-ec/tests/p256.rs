//! P-256 on every implementation: Wycheproof ECDH (SPKI and raw point) and ECDSA (DER and
//! P1363), RFC 6979 A.2.5 deterministic signatures, key and signature encodings, every
//! implementation against every other, and differential checks against RustCrypto `p256` and
//! ring.

mod nist_common;

use nist_common::Counts as C;

// Counts are (valid passed, invalid rejected, acceptable seen, acceptable accepted), on every
// implementation. ECDH over SPKI: the acceptable cases are BER-flavoured encodings
// (`InvalidAsn`) and explicit curve parameters (`UnnamedCurve`), which the strict DER parser
// refuses, and one compressed point, which is accepted. ECDSA sets have no acceptable cases.
nist_suite!(
    p256, P256Impl, 32,
    ecdh: EcdhSecp256r1, EcdhSecp256r1Ecpoint,
    ecdsa: EcdsaSecp256r1Sha256, EcdsaSecp256r1Sha256P1363,
    counts: C { valid: 330, invalid: 52, acceptable: 230, acceptable_accepted: 1 },
        C { valid: 330, invalid: 24, acceptable: 1, acceptable_accepted: 1 },
        C { valid: 170, invalid: 301, acceptable: 0, acceptable_accepted: 0 },
        C { valid: 169, invalid: 83, acceptable: 0, acceptable_accepted: 0 }
);

r_plus_n_branch!(
    32,
    EcdsaSecp256r1Sha256P1363,
    "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551"
);

rustcrypto_differential!(p256, 32, true);

/// RFC 6979 A.2.5: the P-256 key, and signatures of "sample" and "test" with SHA-256.
#[test]
fn rfc6979_a_2_5() {
    let x = unhex("C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721");
    let u = unhex(
        "04 60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6
            7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299",
    );
    let vectors = [
        (
            &b"sample"[..],
            "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716
             F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8",
        ),
        (
            &b"test"[..],
            "F1ABB023518351CD71D881567B1EA663ED3EFCF6C5132B354F28D3B0B7D38367
             019F4113742A2B14BD25926B49C649155F267E60D3814B4C0CC84250E46F0083",
        ),
    ];
    for imp in impls() {
        let sk = SigningKey::from(SecretKey::from_bytes_with_impl(&x, imp).unwrap());
        assert_eq!(&sk.verifying_key().to_sec1_bytes()[..], &u[..]);
        for (msg, rs) in vectors {
            let sig = sk.sign(msg);
            assert_eq!(&sig.to_bytes()[..], &unhex(rs)[..], "{imp:?} {msg:?}");
            sk.verifying_key().verify(msg, &sig).unwrap();
        }
        // A.2.5 with SHA-384 and SHA-512 ("sample"): hashes longer than the order are
        // truncated, and the nonce's HMAC runs on that hash.
        let h = core_hash::Sha384::digest(b"sample");
        let sig = sk.sign_prehash_with::<core_hash::Sha384>(h.as_ref());
        assert_eq!(
            &sig.to_bytes()[..],
            &unhex(
                "0EAFEA039B20E9B42309FB1D89E213057CBF973DC0CFC8F129EDDDC800EF7719
                 4861F0491E6998B9455193E34E7B0D284DDD7149A74B95B9261F13ABDE940954"
            )[..]
        );
        let h = core_hash::Sha512::digest(b"sample");
        let sig = sk.sign_prehash_with::<core_hash::Sha512>(h.as_ref());
        assert_eq!(
            &sig.to_bytes()[..],
            &unhex(
                "8496A60B5E9B47C825488827E0495B0E3FA109EC4568FD3F8D1097678EB97F00
                 2362AB1ADBE2B8ADF9CB9EDAB740EA6049C028114F2460F96554F61FAE3302FE"
            )[..]
        );
        sk.verifying_key().verify_prehash(h.as_ref(), &sig).unwrap();
    }
}

/// ring verifies our signatures, we verify ring's, and ECDH agrees with ring's.
#[test]
fn against_ring() {
    use ring::{agreement, rand::SystemRandom, signature};
    let rng = SystemRandom::new();
    for i in 0..8u8 {
        let sk = SecretKey::generate(&mut CountingRng(i)).unwrap();
        let signing = SigningKey::from(sk.clone());
        let msg = [i; 40];
        let sig = signing.sign(&msg);
        let public = sk.public_key().to_sec1_bytes();
        signature::UnparsedPublicKey::new(&signature::ECDSA_P256_SHA256_FIXED, &public)
            .verify(&msg, &sig.to_bytes())
            .unwrap();
        signature::UnparsedPublicKey::new(&signature::ECDSA_P256_SHA256_ASN1, &public)
            .verify(&msg, sig.to_der().as_ref())
            .unwrap();

        // Our PKCS#8 export is accepted by ring, and ring's signatures verify here.
        let mut p8 = [0u8; 200];
        let n = sk.to_pkcs8_der(&mut p8).unwrap();
        let kp = signature::EcdsaKeyPair::from_pkcs8(
            &signature::ECDSA_P256_SHA256_FIXED_SIGNING,
            &p8[..n],
            &rng,
        )
        .unwrap();
        let theirs = kp.sign(&rng, &msg).unwrap();
        sk.public_key().verify(&msg, &Signature::from_bytes(theirs.as_ref()).unwrap()).unwrap();

        let eph = agreement::EphemeralPrivateKey::generate(&agreement::ECDH_P256, &rng).unwrap();
        let eph_pub = eph.compute_public_key().unwrap();
        let ours =
            sk.diffie_hellman(&PublicKey::from_sec1_bytes(eph_pub.as_ref()).unwrap()).unwrap();
        let peer = agreement::UnparsedPublicKey::new(&agreement::ECDH_P256, public);
        agreement::agree_ephemeral(eph, &peer, |s| assert_eq!(s, ours.as_bytes())).unwrap();
    }
}
