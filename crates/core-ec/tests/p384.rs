//! P-384 on every implementation: Wycheproof ECDH (SPKI and raw point) and ECDSA (DER and
//! P1363), RFC 6979 A.2.6 deterministic signatures, key and signature encodings, every
//! implementation against every other, and differential checks against RustCrypto `p384` and
//! ring.

mod nist_common;

use nist_common::Counts as C;

// Counts are (valid passed, invalid rejected, acceptable seen, acceptable accepted), on every
// implementation. ECDH over SPKI: the acceptable cases are BER-flavoured encodings
// (`InvalidAsn`) and explicit curve parameters (`UnnamedCurve`), which the strict DER parser
// refuses, and one compressed point, which is accepted. ECDSA sets have no acceptable cases.
nist_suite!(
    p384, P384Impl, 48,
    ecdh: EcdhSecp384r1, EcdhSecp384r1Ecpoint,
    ecdsa: EcdsaSecp384r1Sha384, EcdsaSecp384r1Sha384P1363,
    counts: C { valid: 771, invalid: 46, acceptable: 230, acceptable_accepted: 1 },
        C { valid: 771, invalid: 18, acceptable: 1, acceptable_accepted: 1 },
        C { valid: 190, invalid: 301, acceptable: 0, acceptable_accepted: 0 },
        C { valid: 189, invalid: 81, acceptable: 0, acceptable_accepted: 0 }
);

r_plus_n_branch!(
    48,
    EcdsaSecp384r1Sha384P1363,
    "ffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973"
);

rustcrypto_differential!(p384, 48, true);

/// RFC 6979 A.2.6: the P-384 key and its signatures of "sample" and "test" with SHA-256,
/// SHA-384 and SHA-512 (the nonce's HMAC runs on the message's hash).
#[test]
fn rfc6979_a_2_6() {
    use core_hash::{Sha256, Sha512};
    let x = unhex(
        "6B9D3DAD2E1B8C1C05B19875B6659F4DE23C3B667BF297BA9AA47740787137D8
         96D5724E4C70A825F872C9EA60D2EDF5",
    );
    let u = unhex(
        "04 EC3A4E415B4E19A4568618029F427FA5DA9A8BC4AE92E02E06AAE5286B300C64
            DEF8F0EA9055866064A254515480BC13
            8015D9B72D7D57244EA8EF9AC0C621896708A59367F9DFB9F54CA84B3F1C9DB1
            288B231C3AE0D4FE7344FD2533264720",
    );
    for imp in impls() {
        let sk = SigningKey::from(SecretKey::from_bytes_with_impl(&x, imp).unwrap());
        assert_eq!(&sk.verifying_key().to_sec1_bytes()[..], &u[..]);
        let check =
            |sig: Signature, rs: &str| assert_eq!(&sig.to_bytes()[..], &unhex(rs)[..], "{imp:?}");
        check(
            sk.sign_prehash_with::<Sha256>(Sha256::digest(b"sample").as_ref()),
            "21B13D1E013C7FA1392D03C5F99AF8B30C570C6F98D4EA8E354B63A21D3DAA33
             BDE1E888E63355D92FA2B3C36D8FB2CD
             F3AA443FB107745BF4BD77CB3891674632068A10CA67E3D45DB2266FA7D1FEEB
             EFDC63ECCD1AC42EC0CB8668A4FA0AB0",
        );
        check(
            sk.sign(b"sample"),
            "94EDBB92A5ECB8AAD4736E56C691916B3F88140666CE9FA73D64C4EA95AD133C
             81A648152E44ACF96E36DD1E80FABE46
             99EF4AEB15F178CEA1FE40DB2603138F130E740A19624526203B6351D0A3A94F
             A329C145786E679E7B82C71A38628AC8",
        );
        check(
            sk.sign_prehash_with::<Sha512>(Sha512::digest(b"sample").as_ref()),
            "ED0959D5880AB2D869AE7F6C2915C6D60F96507F9CB3E047C0046861DA4A799C
             FE30F35CC900056D7C99CD7882433709
             512C8CCEEE3890A84058CE1E22DBC2198F42323CE8ACA9135329F03C068E5112
             DC7CC3EF3446DEFCEB01A45C2667FDD5",
        );
        check(
            sk.sign_prehash_with::<Sha256>(Sha256::digest(b"test").as_ref()),
            "6D6DEFAC9AB64DABAFE36C6BF510352A4CC27001263638E5B16D9BB51D451559
             F918EEDAF2293BE5B475CC8F0188636B
             2D46F3BECBCC523D5F1A1256BF0C9B024D879BA9E838144C8BA6BAEB4B53B47D
             51AB373F9845C0514EEFB14024787265",
        );
        let sig = sk.sign(b"test");
        check(
            sig,
            "8203B63D3C853E8D77227FB377BCF7B7B772E97892A80F36AB775D509D7A5FEB
             0542A7F0812998DA8F1DD3CA3CF023DB
             DDD0760448D42D8A43AF45AF836FCE4DE8BE06B485E9B61B827C2F13173923E0
             6A739F040649A667BF3B828246BAA5A5",
        );
        sk.verifying_key().verify(b"test", &sig).unwrap();
        check(
            sk.sign_prehash_with::<Sha512>(Sha512::digest(b"test").as_ref()),
            "A0D5D090C9980FAF3C2CE57B7AE951D31977DD11C775D314AF55F76C676447D0
             6FB6495CD21B4B6E340FC236584FB277
             976984E59B4C77B0E8E4460DCA3D9F20E07B9BB1F63BEEFAF576F6B2E8B22463
             4A2092CD3792E0159AD9CEE37659C736",
        );
    }
}

/// ring verifies our signatures, we verify ring's, and ECDH agrees with ring's.
#[test]
fn against_ring() {
    use ring::{agreement, rand::SystemRandom, signature};
    let rng = SystemRandom::new();
    for i in 0..4u8 {
        let sk = SecretKey::generate(&mut CountingRng(i)).unwrap();
        let signing = SigningKey::from(sk.clone());
        let msg = [i; 40];
        let sig = signing.sign(&msg);
        let public = sk.public_key().to_sec1_bytes();
        signature::UnparsedPublicKey::new(&signature::ECDSA_P384_SHA384_FIXED, &public)
            .verify(&msg, &sig.to_bytes())
            .unwrap();
        signature::UnparsedPublicKey::new(&signature::ECDSA_P384_SHA384_ASN1, &public)
            .verify(&msg, sig.to_der().as_ref())
            .unwrap();
        let mut p8 = [0u8; 300];
        let n = sk.to_pkcs8_der(&mut p8).unwrap();
        let kp = signature::EcdsaKeyPair::from_pkcs8(
            &signature::ECDSA_P384_SHA384_FIXED_SIGNING,
            &p8[..n],
            &rng,
        )
        .unwrap();
        let theirs = kp.sign(&rng, &msg).unwrap();
        sk.public_key().verify(&msg, &Signature::from_bytes(theirs.as_ref()).unwrap()).unwrap();
        let eph = agreement::EphemeralPrivateKey::generate(&agreement::ECDH_P384, &rng).unwrap();
        let eph_pub = eph.compute_public_key().unwrap();
        let ours =
            sk.diffie_hellman(&PublicKey::from_sec1_bytes(eph_pub.as_ref()).unwrap()).unwrap();
        let peer = agreement::UnparsedPublicKey::new(&agreement::ECDH_P384, public);
        agreement::agree_ephemeral(eph, &peer, |s| assert_eq!(s, ours.as_bytes())).unwrap();
    }
}
